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
#: The stand-in `gh`: records every call (and the body file's text) in $GH_LOG and answers `pr list` from the JSON
#: fixture $GH_FIXTURE ({"pr list": [...]}, what GitHub would answer), an empty list without one.
FAKE_GH = """#!{python}
import json, os, sys
args = sys.argv[1:]
entry = {{"args": args}}
if "--body-file" in args:
    entry["body"] = open(args[args.index("--body-file") + 1], encoding="utf-8").read()
with open(os.environ["GH_LOG"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps(entry) + "\\n")
fixture = json.load(open(os.environ["GH_FIXTURE"], encoding="utf-8")) if os.environ.get("GH_FIXTURE") else {{}}
if args[:2] == ["pr", "list"]:
    print(json.dumps(fixture.get("pr list", [])))
"""
#: What `gh pr list --json number,headRefName,isCrossRepository,headRepositoryOwner` answers for the refresh PR.
OWN_PR = {"number": 7, "headRefName": "data/refresh-eq-bench", "isCrossRepository": False,
          "headRepositoryOwner": {"login": "sitegen"}}


def fixture(tmp_path: Path, prs: list) -> str:
    path = tmp_path / f"gh-fixture-{len(list(tmp_path.glob('gh-fixture-*')))}.json"
    path.write_text(json.dumps({"pr list": prs}), encoding="utf-8")
    return str(path)


def run(*args, cwd=None, env=None):
    # a guard against a hang, not a speed limit: a run diffs the full data twice, minutes on a busy machine
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)


@pytest.fixture(autouse=True)
def shared_compute_cache(shared_tmp, monkeypatch):
    """One compute cache (SITEGEN_CACHE) for every run of the tool in this file, on every worker: each test's
    repository holds the same data on main and most make the same change, so a `sitegen diff` side computed once is
    loaded by the others (keyed by the data's and the code's digests: a different side misses and computes). It
    lies outside the repositories, which stay as the tool leaves them."""
    monkeypatch.setenv("SITEGEN_CACHE", str(shared_tmp / "refresh-pr-cache"))


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


def tip(repo: Path, branch: str) -> str:
    """The commit `branch` points at on the origin (the bare repository)."""
    out = run("git", "-C", str(repo), "ls-remote", "origin", f"refs/heads/{branch}", env=git_env()).stdout
    return out.split()[0] if out else ""


def main_commit(repo: Path) -> str:
    return run("git", "-C", str(repo), "rev-parse", "main", env=git_env()).stdout.strip()


def log_of(repo: Path, branch: str) -> list[str]:
    """The commits of the origin's `branch`, newest first, down to main's commit."""
    run("git", "-C", str(repo), "fetch", "-q", "origin", env=git_env())
    return run("git", "-C", str(repo), "rev-list", "--first-parent", f"origin/{branch}", env=git_env()).stdout.split()


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

        (listed, created, ci) = calls(log)
        assert listed["args"][:4] == ["pr", "list", "--head", "data/refresh-eq-bench"]
        assert created["args"][:6] == ["pr", "create", "--base", "main", "--head", "data/refresh-eq-bench"]
        # a push with GITHUB_TOKEN starts no workflow: the job starts CI on its branch itself
        assert ci["args"] == ["workflow", "run", "ci.yml", "--ref", "data/refresh-eq-bench"]
        body = created["body"]
        # the changed models, with their old and new values, from the `sitegen diff` report
        # the report leads with the two changed values; the 59 results fetched again unchanged are one count
        report = body[body.index("**What changed**"):].splitlines()
        assert report[2:5] == [
            "- corrected value: anthropic/claude-opus-4.6-non-reasoning-high-effort eq-bench-3 1717.4 → 1617.4 "
            "(eq-bench)",
            "- corrected value: openai/o3-medium eq-bench-3 1500 → 1590 (eq-bench)",
            "- 59 results fetched again with the same value (retrieval date only): not a change of results"]
        assert "rank 17 → 4 (eq-bench-3: corrected value 1500 → 1590)" in body
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

        # the checkout itself stays on main, untouched
        assert run("git", "-C", str(repo), "symbolic-ref", "HEAD", env=git_env()).stdout == "refs/heads/main\n"
        first = tip(repo, "data/refresh-eq-bench")

        # next week, the same change again: the bot's own commit is replaced (its branch holds nothing else) and
        # the existing pull request is edited, not a second one opened
        again = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                    env=git_env(GH=str(gh), GH_LOG=str(log), GH_FIXTURE=fixture(tmp_path, [OWN_PR])))
    assert again.returncode == 0, again.stderr
    assert "updated pull request #7" in again.stdout
    assert [c["args"][:3] for c in calls(log)[3:]] == [["pr", "list", "--head"], ["pr", "edit", "7"],
                                                       ["workflow", "run", "ci.yml"]]
    second = tip(repo, "data/refresh-eq-bench")
    assert second != first and log_of(repo, "data/refresh-eq-bench") == [second, main_commit(repo)]


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


def change_eq_bench_again(repo: Path, upstream: Path) -> None:
    """A second upstream change, a week later: Gemma's score moves."""
    script = local_path(upstream, next(f["url"] for f in fetchers.plans(repo)["eq-bench"].files))
    text = script.read_text(encoding="utf-8")
    assert "\no3,1590.0," in text
    script.write_text(text.replace("\no3,1590.0,", "\no3,1601.0,"), encoding="utf-8")


def test_a_reviewers_commit_on_the_branch_is_kept_by_the_next_refresh(repo, gh, tmp_path):
    upstream = upstream_tree(repo, tmp_path / "upstream")
    change_eq_bench(repo, upstream)
    log = tmp_path / "gh.log"
    with serve(upstream) as base:
        first = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                    env=git_env(GH=str(gh), GH_LOG=str(log)))
        assert first.returncode == 0, first.stderr
        bot_commit = tip(repo, "data/refresh-eq-bench")

        # a reviewer adds a commit on the branch, as CONTRIBUTING asks, from their own clone
        clone = tmp_path / "reviewer"
        assert run("git", "clone", "-q", "-b", "data/refresh-eq-bench", str(tmp_path / "origin.git"), str(clone),
                   env=git_env()).returncode == 0
        page = sorted((clone / "methodology").glob("*.md"))[0]
        page.write_text(page.read_text(encoding="utf-8") + "\nReviewed by a maintainer.\n", encoding="utf-8")
        reviewer = git_env(GIT_AUTHOR_NAME="rev", GIT_AUTHOR_EMAIL="rev@example.org",
                           GIT_COMMITTER_NAME="rev", GIT_COMMITTER_EMAIL="rev@example.org")
        for cmd in (["commit", "-q", "-am", "Review: a note"], ["push", "-q", "origin", "HEAD"]):
            assert run("git", "-C", str(clone), *cmd, env=reviewer).returncode == 0, cmd
        reviewer_commit = tip(repo, "data/refresh-eq-bench")
        assert reviewer_commit != bot_commit

        # next week upstream changes again: the refresh goes on top of the reviewer's commit, never over it
        change_eq_bench_again(repo, upstream)
        second = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                     env=git_env(GH=str(gh), GH_LOG=str(log), GH_FIXTURE=fixture(tmp_path, [OWN_PR])))
    assert second.returncode == 0, second.stderr
    assert "updated pull request #7" in second.stdout
    newest = tip(repo, "data/refresh-eq-bench")
    assert log_of(repo, "data/refresh-eq-bench") == [newest, reviewer_commit, bot_commit, main_commit(repo)]
    shown = run("git", "-C", str(repo), "show", f"{newest}:{page.relative_to(clone).as_posix()}", env=git_env())
    assert shown.stdout.endswith("\nReviewed by a maintainer.\n")
    capture = run("git", "-C", str(repo), "show", f"{newest}:scores/imported/eq-bench.yaml", env=git_env()).stdout
    assert "1601" in capture
    edited = calls(log)[-2]
    assert edited["args"][:3] == ["pr", "edit", "7"]
    assert f"The branch holds 1 commit this job did not make (`{reviewer_commit[:12]}`)" in edited["body"]
    assert "- corrected value: openai/o3-medium eq-bench-3 1500 → 1601 (eq-bench)" in edited["body"]

    # a third run with nothing new upstream changes nothing on the branch
    with serve(upstream) as base:
        third = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                    env=git_env(GH=str(gh), GH_LOG=str(log), GH_FIXTURE=fixture(tmp_path, [OWN_PR])))
    assert third.returncode == 0, third.stderr
    assert "unchanged" in third.stdout and "nothing to do" in third.stdout
    assert tip(repo, "data/refresh-eq-bench") == newest


def test_a_forks_branch_of_the_same_name_is_never_taken_for_the_refresh_pull_request(repo, gh, tmp_path):
    upstream = upstream_tree(repo, tmp_path / "upstream")
    change_eq_bench(repo, upstream)
    log = tmp_path / "gh.log"
    # `gh pr list --head data/refresh-eq-bench` lists a fork's pull request from its branch of the same name
    forks = [{"number": 99, "headRefName": "data/refresh-eq-bench", "isCrossRepository": True,
              "headRepositoryOwner": {"login": "mallory"}},
             {"number": 98, "headRefName": "data/refresh-eq-bench", "isCrossRepository": False,
              "headRepositoryOwner": {"login": "mallory"}}]
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                   env=git_env(GH=str(gh), GH_LOG=str(log), GH_FIXTURE=fixture(tmp_path, forks),
                               GITHUB_REPOSITORY_OWNER="sitegen"))
    assert done.returncode == 0, done.stderr
    assert "opened a pull request" in done.stdout
    listed, created, ci = calls(log)
    assert "isCrossRepository" in listed["args"][listed["args"].index("--json") + 1]
    assert created["args"][:6] == ["pr", "create", "--base", "main", "--head", "data/refresh-eq-bench"]
    assert not any(c["args"][:2] == ["pr", "edit"] for c in calls(log))


HOSTILE = ["[click me](https://evil.example/x)", "![pic](https://evil.example/p.png)",
           "<img src=x onerror=alert(1)>", "@maintainers <b>x</b> **bold**"]


def test_hostile_upstream_names_are_inert_in_the_pull_request_body(repo, gh, tmp_path):
    from markdown_it import MarkdownIt

    upstream = upstream_tree(repo, tmp_path / "upstream")
    change_eq_bench(repo, upstream)
    script = local_path(upstream, next(f["url"] for f in fetchers.plans(repo)["eq-bench"].files))
    rows = "".join(f"{name},900.0,40.0,5,5,5,5,5,5,5,5,5,5,5,850.0,950.0\n" for name in HOSTILE)
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace("\ngpt-4-0314,", "\n" + rows + "gpt-4-0314,"), encoding="utf-8")
    log = tmp_path / "gh.log"
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base,
                   env=git_env(GH=str(gh), GH_LOG=str(log)))
    assert done.returncode == 0, done.stderr
    body = calls(log)[1]["body"]
    for name in HOSTILE:  # each listed, inside a code span
        assert f"- `{name}`: matches no model" in body, name
    # rendered as GitHub would (raw HTML allowed): no link, image, tag or emphasis from upstream
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(body)
    assert "<a " not in html and "<img" not in html and "<b>" not in html and "<strong>bold</strong>" not in html
    assert "<code>&lt;img src=x onerror=alert(1)&gt;</code>" in html
    assert "<code>[click me](https://evil.example/x)</code>" in html


@pytest.mark.parametrize("text, span", [
    ("plain", "`plain`"),
    ("a `tick` inside", "``a `tick` inside``"),
    ("```fence", "```` ```fence ````"),
    ("two\nlines", "`two lines`"),
    ("bidi\u202eevil", "`bidi\ufffdevil`"),
])
def test_code_span_holds_any_text_inertly(text, span):
    from markdown_it import MarkdownIt
    from sitegen.history.pr_comment import code_span

    assert code_span(text) == span
    html = MarkdownIt("commonmark", {"html": True}).render(f"- {code_span(text)} after")
    assert html.count("<code>") == 1 and html.rstrip().endswith("</code> after</li>\n</ul>")


def test_code_block_is_never_closed_by_its_text():
    from sitegen.history.pr_comment import code_block

    assert code_block("name: '```'\n`x`", "yaml") == ["````yaml", "name: '```'", "`x`", "````"]
    assert code_block("a: 1", "yaml; rm") == ["```yamlrm", "a: 1", "```"]


def test_dry_run_leaves_the_checkout_exactly_as_it_was(repo, gh, tmp_path, monkeypatch):
    monkeypatch.delenv("SITEGEN_CACHE")  # the cache's default place, below the checkout: the check covers it too
    upstream = upstream_tree(repo, tmp_path / "upstream")
    change_eq_bench(repo, upstream)
    log = tmp_path / "gh.log"

    def state():
        files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in repo.rglob("*")
                 if p.is_file() and ".git" not in p.relative_to(repo).parts}
        gitq = [run("git", "-C", str(repo), *cmd, env=git_env()).stdout for cmd in
                (["symbolic-ref", "HEAD"], ["rev-parse", "HEAD"], ["for-each-ref"], ["status", "--porcelain",
                 "--ignored"], ["worktree", "list", "--porcelain"], ["stash", "list"], ["ls-remote", "origin"])]
        return files, gitq

    before = state()
    with serve(upstream) as base:
        done = run(sys.executable, str(TOOL), "eq-bench", "--root", str(repo), "--base-url", base, "--dry-run",
                   env=git_env(GH=str(gh), GH_LOG=str(log)))
    assert done.returncode == 0, done.stderr
    assert "- corrected value: openai/o3-medium eq-bench-3 1500 → 1590 (eq-bench)" in done.stdout  # the body
    assert state() == before
    assert calls(log) == []
