"""tools/refresh_pr.py on a throwaway git repository: a changed download on a local server becomes one branch and
one pull request whose body names the changed models, the unmatched names with proposals, and the boards touched.
`gh` is a stand-in script that records what it was asked to do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fetch_server import local_path, serve, upstream_tree
from sitegen.importers import fetch as fetchers

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "refresh_pr.py"
FAKE_GH = """#!{python}
import json, os, sys
args = sys.argv[1:]
entry = {{"args": args}}
if "--body-file" in args:
    entry["body"] = open(args[args.index("--body-file") + 1], encoding="utf-8").read()
with open(os.environ["GH_LOG"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps(entry) + "\\n")
if args[:2] == ["pr", "list"]:
    print(os.environ.get("GH_EXISTING", ""))
"""


def run(*args, cwd=None, env=None):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def repo(tmp_path):
    """A git repository with the project's data on main, and a bare repository as its origin."""
    root = tmp_path / "repo"
    root.mkdir()
    for folder in ("scores", "methodology", "downloads"):
        shutil.copytree(REPO / folder, root / folder)
    origin = tmp_path / "origin.git"
    for cmd in (["git", "init", "-q", "--bare", "-b", "main", str(origin)],
                ["git", "-C", str(root), "init", "-q", "-b", "main"],
                ["git", "-C", str(root), "add", "-A"],
                ["git", "-C", str(root), "commit", "-q", "-m", "data"],
                ["git", "-C", str(root), "remote", "add", "origin", str(origin)],
                ["git", "-C", str(root), "push", "-q", "origin", "main"]):
        assert run(*cmd, env=git_env()).returncode == 0, cmd
    return root


def git_env(**extra):
    return {**os.environ, "GIT_AUTHOR_NAME": "bot", "GIT_AUTHOR_EMAIL": "bot@example.org",
            "GIT_COMMITTER_NAME": "bot", "GIT_COMMITTER_EMAIL": "bot@example.org",
            "PYTHONPATH": os.pathsep.join([str(REPO / "generator"), os.environ.get("PYTHONPATH", "")]), **extra}


@pytest.fixture
def gh(tmp_path):
    script = tmp_path / "gh"
    script.write_text(FAKE_GH.format(python=sys.executable), encoding="utf-8")
    script.chmod(0o755)
    return script


def calls(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def change_eq_bench(repo: Path, upstream: Path) -> None:
    script = local_path(upstream, next(f["url"] for f in fetchers.plans(repo)["eq-bench"].files))
    text = script.read_text(encoding="utf-8")
    text = text.replace("\no3,1500.0,", "\no3,1590.0,").replace("\nclaude-opus-4-6,1717.4,", "\nclaude-opus-4-6,1617.4,")
    new_row = "acme-widget-9000-preview,900.0,40.0,5,5,5,5,5,5,5,5,5,5,5,850.0,950.0\n"
    script.write_text(text.replace("\ngpt-4-0314,", "\n" + new_row + "gpt-4-0314,"), encoding="utf-8")


def test_a_changed_download_becomes_one_pull_request_naming_the_changed_models(repo, gh, tmp_path):
    upstream = upstream_tree(repo, tmp_path / "upstream")
    change_eq_bench(repo, upstream)
    log = tmp_path / "gh.log"
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                   env=git_env(GH=str(gh), GH_LOG=str(log)))
        assert done.returncode == 0, done.stderr
        assert "pushed data/refresh-eq-bench; opened a pull request" in done.stdout

        (listed, created) = calls(log)
        assert listed["args"][:4] == ["pr", "list", "--head", "data/refresh-eq-bench"]
        assert created["args"][:6] == ["pr", "create", "--base", "main", "--head", "data/refresh-eq-bench"]
        body = created["body"]
        # the changed models, with their old and new values, from the `sitegen diff` report
        assert "| changed | openai/o3-medium | eq-bench-3 | 1500 → 1590 |" in body
        assert "| changed | anthropic/claude-opus-4.6-non-reasoning-high-effort | eq-bench-3 | 1717.4 → 1617.4 |" in body
        # the new name is listed with the proposals, not imported and not dropped silently
        assert "- `acme-widget-9000-preview`: matches no model" in body
        assert "```yaml\nproposals:\n- source: eq-bench\n  name: acme-widget-9000-preview" in body
        assert "acme-widget-9000-preview" not in (repo / "scores/imported/eq-bench.yaml").read_text(encoding="utf-8")
        assert "Methodology that names `eq-bench`: `ai-eq`." in body and "`eq-bench-3`" in body

        # the branch on origin is main plus one commit holding the capture, sources.yaml and the import
        changed = run("git", "-C", str(repo), "diff", "--name-only", "origin/main", "origin/data/refresh-eq-bench",
                      env=git_env()).stdout.split()
        assert changed == ["downloads/eq-bench/eqbench3_leaderboard.csv", "scores/imported/eq-bench.yaml",
                           "scores/sources.yaml"]

        # next week, the same change again: the existing pull request is edited, not a second one opened
        run("git", "-C", str(repo), "checkout", "-q", "main", env=git_env())
        again = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                    env=git_env(GH=str(gh), GH_LOG=str(log), GH_EXISTING="7"))
    assert again.returncode == 0, again.stderr
    assert "updated pull request #7" in again.stdout
    assert [c["args"][:3] for c in calls(log)[2:]] == [["pr", "list", "--head"], ["pr", "edit", "7"]]


def test_a_new_snapshot_source_gets_its_readme_row_beside_the_old_one():
    sys.path.insert(0, str(TOOL.parent))
    try:
        from refresh_pr import readme_row
    finally:
        sys.path.remove(str(TOOL.parent))
    text = "| source | licence | where |\n|---|---|---|\n| `aa-api-2026-07` | unknown | GET ... |\n| `epoch` | CC BY | zip |\n"
    assert readme_row(text, "aa-api-2026-07", "aa-api-2026-11").splitlines()[2:4] == [
        "| `aa-api-2026-07` | unknown | GET ... |", "| `aa-api-2026-11` | unknown | GET ... |"]


def test_nothing_changed_means_no_branch_and_no_pull_request(repo, gh, tmp_path):
    upstream = upstream_tree(repo, tmp_path / "upstream")
    log = tmp_path / "gh.log"
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                   env=git_env(GH=str(gh), GH_LOG=str(log)))
    assert done.returncode == 0, done.stderr
    assert "eq-bench: unchanged" in done.stdout and "nothing to do" in done.stdout
    assert calls(log) == []
    assert run("git", "-C", str(repo), "branch", "--list", "data/*", env=git_env()).stdout == ""


def test_a_failed_fetch_exits_1_with_the_message_and_opens_nothing(repo, gh, tmp_path):
    upstream = upstream_tree(repo, tmp_path / "upstream")
    local_path(upstream, next(f["url"] for f in fetchers.plans(repo)["eq-bench"].files)).unlink()
    log = tmp_path / "gh.log"
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                   env=git_env(GH=str(gh), GH_LOG=str(log)))
    assert done.returncode == 1
    assert done.stderr.startswith("Error: https://raw.githubusercontent.com/EQ-bench/EQ-bench-site/HEAD/eqbench3.js: "
                                  "HTTP 404")
    assert "Traceback" not in done.stderr and calls(log) == []
