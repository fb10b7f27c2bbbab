"""A newcomer follows CONTRIBUTING.md: adds a model and a result, sees them in the diff and on the site.

The commands are the ones CONTRIBUTING.md tells a contributor to run; the test checks they are still there,
then runs them on a small git repository with the real methodology.
"""

from __future__ import annotations

import html.parser
import json
import subprocess
from pathlib import Path

from hardening.hardkit import ROOT, make_tree, sitegen


def git(*args: str, cwd: Path) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": "2025-06-01T12:00:00Z",
           "GIT_COMMITTER_DATE": "2025-06-01T12:00:00Z", "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.text: list[str] = []

    def handle_data(self, data):
        self.text.append(data)


def test_contributing_names_the_steps():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for step in ("sitegen new model", "sitegen new result", "sitegen validate", "sitegen diff", "sitegen build"):
        assert step in guide, step


def test_newcomer_adds_a_model_and_sees_it_in_the_diff_and_on_the_site(tmp_path):
    repo = make_tree(tmp_path / "repo")
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "base", cwd=repo)

    made = sitegen("new", "model", "newco/widget-9b", "--name", "Widget 9B", "--organization", "NewCo", cwd=repo)
    assert made.returncode == 0, made.stderr
    for bench, value in (("hle", "21.5"), ("gpqa-diamond", "74"), ("aime-2025", "80")):
        added = sitegen("new", "result", "newco/widget-9b", "--benchmark", bench, "--value", value,
                        "--source", "paper", "--url", "https://example.org/paper#widget", cwd=repo)
        assert added.returncode == 0, added.stderr
    assert sitegen("validate", cwd=repo).returncode == 0

    diff = sitegen("diff", "main", "--format", "json", cwd=repo)
    assert diff.returncode == 0, diff.stderr
    report = json.loads(diff.stdout)
    assert "newco/widget-9b" in report["models"]["added"]
    added = {(r["model"], r["benchmark"]) for r in report["results"]["added"]}
    assert {("newco/widget-9b", "hle"), ("newco/widget-9b", "gpqa-diamond")} <= added
    entered = [row["model"] for row in report["boards"]["index:ai-iq"]["entered"]]
    assert "newco/widget-9b" in entered
    markdown = sitegen("diff", "main", cwd=repo)
    assert "newco/widget-9b" in markdown.stdout

    built = sitegen("build", cwd=repo, env={"SOURCE_DATE_EPOCH": "1748779200"})
    assert built.returncode == 0, built.stderr
    page = repo / "site" / "models" / "newco" / "widget-9b" / "index.html"
    parser = _Text()
    parser.feed(page.read_text(encoding="utf-8"))
    text = " ".join(parser.text)
    assert "Widget 9B" in text and "NewCo" in text and "21.5" in text
    board = (repo / "site" / "boards" / "ai-iq" / "index.html").read_text(encoding="utf-8")
    assert "models/newco/widget-9b/" in board
