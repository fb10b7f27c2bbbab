"""The data changelog and its Atom feed, on a throwaway repository with fixed author and committer dates."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli.diff import changelog_command
from sitegen.history import changelog as history
from sitegen.history.git import history_key
from sitegen.site import feed as site_feed

ROOT = Path(__file__).resolve().parents[1]
A = "{http://www.w3.org/2005/Atom}"

SOURCES = """\
sources:
  - id: epoch
    name: Epoch AI benchmarking hub
    url: https://epoch.ai/benchmarks
    licence: CC BY 4.0
    attribution: Epoch AI
    provenance: secondary
"""


def model_yaml(model: str, scores: dict) -> str:
    lines = [f"id: {model}", f"name: {model.split('/')[1].title()}", f"release: {model}", "organization: Acme", "results:"]
    lines += [f'  - {{benchmark: {b}, value: {v}, source: epoch, retrieved: "2025-06-01"}}' for b, v in scores.items()]
    return "\n".join(lines) + "\n"


def write_model(root: Path, model: str, scores: dict) -> None:
    path = root / "scores/models" / f"{model}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(model_yaml(model, scores), encoding="utf-8")


def commit(root: Path, message: str, date: str) -> str:
    """Commit everything with the given author and committer date (the second one in another time zone)."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(root.parent)}
    for args in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", message]):
        subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True)
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("history") / "data"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    (root / "methodology/indices").mkdir(parents=True)
    shutil.copy(ROOT / "methodology/benchmarks.yaml", root / "methodology/benchmarks.yaml")
    for name in ("ai-iq.yaml", "benchmark-boards.yaml"):
        shutil.copy(ROOT / "methodology/indices" / name, root / "methodology/indices" / name)
    (root / "scores").mkdir()
    (root / "scores/sources.yaml").write_text(SOURCES, encoding="utf-8")
    write_model(root, "acme/alpha", {"hle": 20, "gpqa-diamond": 80, "aime-2025": 90})
    write_model(root, "acme/beta", {"hle": 10, "gpqa-diamond": 65})
    shas = [commit(root, "Base data", "2025-01-02T10:00:00+00:00")]
    (root / "README.txt").write_text("not data\n", encoding="utf-8")
    shas.append(commit(root, "Docs only (not in the changelog)", "2025-01-03T10:00:00+00:00"))
    write_model(root, "acme/beta", {"hle": 12, "aime-2025": 60})
    write_model(root, "acme/gamma", {"gpqa-diamond": 90, "aime-2025": 90})
    shas.append(commit(root, "beta: HLE 12 & <AIME>; add gamma", "2025-02-03T23:30:00-05:00"))
    (root / "scores/models/acme/alpha.yaml").unlink()
    path = root / "methodology/indices/ai-iq.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("[90, 124], [100, 135]]", "[90, 124], [100, 136]]"),
                    encoding="utf-8")
    shas.append(commit(root, "Remove alpha; AIME top anchor 136", "2025-03-01T08:00:00+02:00"))
    return root, shas


def test_entries_per_commit(repo):
    root, shas = repo
    entries = history.changelog_entries(root)
    assert [e["commit"] for e in entries] == [shas[3], shas[2], shas[0]]  # newest first, docs commit skipped
    assert [e["date"] for e in entries] == ["2025-03-01T06:00:00Z", "2025-02-04T04:30:00Z", "2025-01-02T10:00:00Z"]
    last, middle, first = entries
    assert first["models"] == {"added": ["acme/alpha", "acme/beta"], "removed": []}
    assert first["results_count"] == {"added": 5, "changed": 0, "removed": 0}
    assert {m["file"] for m in first["methodology"]} == {"methodology/benchmarks.yaml",
                                                         "methodology/indices/ai-iq.yaml",
                                                         "methodology/indices/benchmark-boards.yaml"}
    assert middle["subject"] == "beta: HLE 12 & <AIME>; add gamma"
    assert middle["models"] == {"added": ["acme/gamma"], "removed": []}
    beta = middle["results"]["acme/beta"]
    assert [(r["benchmark"], r["old"], r["new"]) for r in beta["changed"]] == [("hle", 10, 12)]
    assert [r["benchmark"] for r in beta["added"]] == ["aime-2025"]
    assert [(r["benchmark"], r["value"]) for r in beta["removed"]] == [("gpqa-diamond", 65)]
    assert last["models"] == {"added": [], "removed": ["acme/alpha"]}
    assert last["results_count"]["removed"] == 3
    assert last["methodology"] == [{"file": "methodology/indices/ai-iq.yaml", "status": "changed",
                                    "keys": ["dimensions[mathematical].benchmarks[aime-2025].anchors"]}]
    assert "boards" not in last


def test_limit_and_board_changes(repo):
    root, shas = repo
    entries = history.changelog_entries(root, limit=2, boards_last=1)
    assert [e["commit"] for e in entries] == [shas[3], shas[2]]
    assert "boards" not in entries[1]
    boards = entries[0]["boards"]
    assert "index:ai-iq" in boards["affected"]
    assert boards["left"]["index:ai-iq"] == ["acme/alpha"]


def test_atom_feed_parses_with_entries_newest_first(repo):
    root, shas = repo
    xml = history.atom_feed(history.changelog_entries(root), "https://leaderboard.example.org/")
    feed = ET.fromstring(xml)
    assert feed.tag == f"{A}feed"
    assert feed.findtext(f"{A}updated") == "2025-03-01T06:00:00Z"
    entries = feed.findall(f"{A}entry")
    assert [e.findtext(f"{A}id") for e in entries] == [
        f"tag:leaderboard.example.org,2025-03-01:commit:{shas[3]}",
        f"tag:leaderboard.example.org,2025-02-04:commit:{shas[2]}",
        f"tag:leaderboard.example.org,2025-01-02:commit:{shas[0]}"]
    assert [e.findtext(f"{A}updated") for e in entries] == ["2025-03-01T06:00:00Z", "2025-02-04T04:30:00Z",
                                                            "2025-01-02T10:00:00Z"]
    assert entries[1].findtext(f"{A}title") == "beta: HLE 12 & <AIME>; add gamma"  # escaped, round-trips
    assert "&amp; &lt;AIME&gt;" in xml
    assert "Models removed: acme/alpha" in entries[0].findtext(f"{A}content")
    for e in entries:  # required Atom elements
        assert e.find(f"{A}id") is not None and e.find(f"{A}title") is not None
    assert feed.find(f"{A}author/{A}name") is not None and feed.findtext(f"{A}id")


def test_atom_feed_is_deterministic_and_strips_invalid_characters():
    entry = {"commit": "a" * 40, "date": "2025-01-01T00:00:00Z", "subject": "bad \x01 char", "models":
             {"added": [], "removed": []}, "results": {}, "methodology": [], "files": []}
    xml = history.atom_feed([entry], "https://example.org/site")
    assert xml == history.atom_feed([entry], "https://example.org/site")
    assert ET.fromstring(xml).find(f"{A}entry/{A}title").text == "bad \N{REPLACEMENT CHARACTER} char"
    assert ET.fromstring(history.atom_feed([], "https://example.org/")).findtext(f"{A}updated") == \
        "1970-01-01T00:00:00Z"


def test_cli_formats(repo):
    root, shas = repo
    runner = CliRunner()
    md = runner.invoke(changelog_command, ["--root", str(root), "--boards", "0"])
    assert md.exit_code == 0, md.output
    headings = [line for line in md.output.splitlines() if line.startswith("## ")]
    assert headings[0] == f"## 2025-03-01: Remove alpha; AIME top anchor 136 ({shas[3][:12]})"
    assert "&lt;AIME>" in md.output  # no tag can open: '<' is the one that would render
    js = runner.invoke(changelog_command, ["--root", str(root), "--format", "json", "--limit", "1", "--boards", "1"])
    assert js.exit_code == 0, js.output
    data = json.loads(js.output)
    assert [e["commit"] for e in data] == [shas[3]] and "boards" in data[0]
    atom = runner.invoke(changelog_command, ["--root", str(root), "--format", "atom", "--boards", "0",
                                             "--site-url", "https://lb.example.org/"])
    assert atom.exit_code == 0, atom.output
    assert len(ET.fromstring(atom.output).findall(f"{A}entry")) == 3


def test_not_a_repository(tmp_path):
    result = CliRunner().invoke(changelog_command, ["--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "Error:" in result.output


# --------------------------------------------------------------------------- summary_entries (the site's history)

def git(root: Path, *args: str, date: str = "2025-01-01T00:00:00+00:00") -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(root.parent)}
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope="module")
def summary_repo(tmp_path_factory):
    """A repository whose data sits in a subfolder; tags data-2025-01 (annotated, on a docs commit) and
    data-2025-03 (lightweight), and a --no-ff merge of a side branch."""
    top = tmp_path_factory.mktemp("summary") / "top"
    root = top / "site-data"
    (root / "methodology/indices").mkdir(parents=True)
    git(top.parent, "init", "-q", "-b", "main", str(top))
    shutil.copy(ROOT / "methodology/indices/ai-iq.yaml", root / "methodology/indices/ai-iq.yaml")
    (root / "methodology/ai-iq.md").write_text("# AI IQ\n", encoding="utf-8")
    (root / "scores").mkdir()
    (root / "scores/sources.yaml").write_text(SOURCES, encoding="utf-8")
    write_model(root, "acme/alpha", {"hle": 20})
    write_model(root, "acme/beta", {"hle": 10})
    shas = [commit(root, "Base data", "2025-01-02T10:00:00+00:00")]
    (top / "README.txt").write_text("not data\n", encoding="utf-8")
    shas.append(commit(top, "Docs only", "2025-01-03T10:00:00+00:00"))
    git(top, "tag", "-a", "data-2025-01", "-m", "January release", date="2025-01-05T12:00:00+00:00")
    write_model(root, "acme/beta", {"hle": 12})
    write_model(root, "acme/gamma", {"hle": 30})
    (root / "scores/imported").mkdir()
    (root / "scores/imported/epoch.yaml").write_text("source: epoch\nresults: []\n", encoding="utf-8")
    shas.append(commit(root, "beta: HLE 12 & <b>; add gamma; import epoch", "2025-02-03T23:30:00-05:00"))
    (root / "scores/models/acme/alpha.yaml").unlink()
    path = root / "methodology/indices/ai-iq.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (root / "methodology/ai-iq.md").write_text("# AI IQ\n\nMore.\n", encoding="utf-8")
    shas.append(commit(root, "Remove alpha; AI IQ 1.1", "2025-03-01T08:00:00+02:00"))
    git(top, "tag", "data-2025-03")
    git(top, "checkout", "-q", "-b", "side")
    write_model(root, "acme/delta", {"hle": 40})
    shas.append(commit(root, "Add delta (on a branch)", "2025-03-05T09:00:00+00:00"))
    git(top, "checkout", "-q", "main")
    git(top, "merge", "-q", "--no-ff", "-m", "Merge side", "side", date="2025-03-06T09:00:00+00:00")
    shas.append(git(top, "rev-parse", "HEAD"))
    return top, root, shas


def test_summary_entries_per_commit(summary_repo):
    top, root, shas = summary_repo
    entries = history.summary_entries(root)
    # newest first; the docs commit and the side branch's own commit are not listed (first parent only)
    assert [e["commit"] for e in entries] == [shas[5], shas[3], shas[2], shas[0]]
    assert [e["date"] for e in entries] == ["2025-03-06T09:00:00Z", "2025-03-01T06:00:00Z", "2025-02-04T04:30:00Z",
                                            "2025-01-02T10:00:00Z"]
    merge, removal, middle, base = entries
    assert merge["subject"] == "Merge side" and merge["models_added"] == ["acme/delta"]  # diffed to its first parent
    assert base["models_added"] == ["acme/alpha", "acme/beta"] and base["root"] and not base["shallow"]
    assert base["files"] == [{"file": "scores/sources.yaml", "status": "added"}]
    assert base["methodology"] == [{"file": "methodology/ai-iq.md", "status": "added", "index": None},
                                   {"file": "methodology/indices/ai-iq.yaml", "status": "added", "index": "ai-iq"}]
    assert middle["subject"] == "beta: HLE 12 & <b>; add gamma; import epoch"
    assert (middle["models_added"], middle["models_changed"], middle["models_removed"]) == \
        (["acme/gamma"], ["acme/beta"], [])
    assert middle["imported"] == [{"source": "epoch", "status": "added"}]
    assert removal["models_removed"] == ["acme/alpha"]
    assert [(m["file"], m["status"], m["index"]) for m in removal["methodology"]] == [
        ("methodology/ai-iq.md", "changed", None), ("methodology/indices/ai-iq.yaml", "changed", "ai-iq")]
    # releases: the lightweight tag by position, the annotated one on a docs commit by its commit's date
    assert merge["release"] is None
    assert removal["release"]["tag"] == middle["release"]["tag"] == "data-2025-03"
    assert removal["release"]["date"] == "2025-03-01T06:00:00Z"
    assert base["release"] == {"tag": "data-2025-01", "date": "2025-01-05T12:00:00Z", "commit": shas[1],
                               "subject": "January release"}
    assert site_feed.brief_lines(middle) == ["Models added: acme/gamma", "Model files changed: acme/beta",
                                           "Imported sources regenerated: epoch"]


def test_summary_entries_limit_and_determinism(summary_repo, monkeypatch):
    top, root, shas = summary_repo
    first = history.summary_entries(root)
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    monkeypatch.setenv("LC_ALL", "C")
    assert history.summary_entries(root) == first
    assert [e["commit"] for e in history.summary_entries(root, limit=2)] == [shas[5], shas[3]]
    assert history.summary_entries(root, limit=0) == []
    assert history.summary_entries(top) == []  # paths are relative to root: the repository's top has no scores/


def test_summary_entries_without_git(tmp_path, monkeypatch):
    folder = tmp_path / "not-a-repo"
    (folder / "scores").mkdir(parents=True)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert history.summary_entries(folder) == []
    monkeypatch.setenv("PATH", str(tmp_path))  # no git executable at all
    assert history.summary_entries(folder) == []


def test_summary_entries_in_a_shallow_clone(summary_repo, tmp_path):
    top, root, shas = summary_repo
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", "--no-local", f"file://{top}", str(clone)], check=True,
                   capture_output=True)
    entries = history.summary_entries(clone / "site-data")
    assert entries[-1]["root"] and entries[-1]["shallow"]
    assert "shallow clone" in site_feed.brief_lines(entries[-1])[0]


def test_the_history_key_follows_a_fetch_that_deepens_a_shallow_clone(summary_repo, tmp_path):
    """git.history_key, what a build's stamp takes from git besides the data: HEAD and the data-* tags, and in a
    shallow clone the commits it is cut at. A fetch that deepens the clone lists more commits in the changelog
    and moves neither HEAD nor a tag: only the cut tells the stamp (else the next build stopped as up to date)."""
    top, root, shas = summary_repo
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", "--no-local", f"file://{top}", str(clone)], check=True,
                   capture_output=True)
    data = clone / "site-data"
    keys = []
    # depth 2: the merge and both its parents; then main's commit before them; then everything
    for fetch, cut, listed in ((None, {shas[3], shas[4]}, 2), ("--deepen=1", {shas[2]}, 3), ("--unshallow", None, 4)):
        if fetch:
            subprocess.run(["git", "-C", str(clone), "fetch", "-q", fetch], check=True, capture_output=True)
        key = history_key(data)
        assert key.splitlines()[0] == shas[5]
        last = key.splitlines()[-1]
        assert (set(last.split()[1:]) if last.startswith("shallow ") else None) == cut, fetch
        assert len(history.summary_entries(data)) == listed, fetch
        keys.append(key)
    assert len(set(keys)) == 3
    assert "shallow" not in history_key(root)  # a full clone's key: HEAD and the tags


def test_atom_feed_of_summary_without_a_site_url(summary_repo):
    top, root, shas = summary_repo
    xml = history.atom_feed(history.summary_entries(root), "", lines=site_feed.brief_lines, page_path="changelog/")
    feed = ET.fromstring(xml)
    assert feed.findtext(f"{A}id").startswith("urn:uuid:")
    assert [link.get("href") for link in feed.findall(f"{A}link")] == ["changelog/", "changelog.atom"]
    entries = feed.findall(f"{A}entry")
    assert len(entries) == 4 and len({e.findtext(f"{A}id") for e in entries}) == 4
    assert entries[0].find(f"{A}link").get("href") == f"changelog/#c-{shas[5][:12]}"
    assert entries[2].findtext(f"{A}title") == "beta: HLE 12 & <b>; add gamma; import epoch"
    assert "Models removed: acme/alpha" in entries[1].findtext(f"{A}content")
    with_url = ET.fromstring(history.atom_feed(history.summary_entries(root), "https://lb.example.org/x/",
                                               lines=site_feed.brief_lines, page_path="changelog/"))
    assert with_url.find(f"{A}entry/{A}link").get("href") == f"https://lb.example.org/x/changelog/#c-{shas[5][:12]}"
    assert with_url.find(f"{A}entry/{A}id").text.startswith("tag:lb.example.org,2025-03-06:commit:")


def test_the_last_commit_date_is_the_utc_date_the_changelog_gives_the_commit(tmp_path):
    """A commit made at 23:30 at UTC-05:00 is 04:30 the next day in UTC: "Data last updated" (git.last_commit_date)
    and the changelog entry (dated in UTC) must name the same day, 2026-01-03."""
    from sitegen.history import git as history_git

    root = tmp_path / "tz"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write_model(root, "acme/alpha", {"hle": 10.0})
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "late evening", date="2026-01-02T23:30:00-05:00")
    assert history_git.last_commit_date(root) == "2026-01-03"
    assert [e["date"] for e in history.changelog_entries(root)] == ["2026-01-03T04:30:00Z"]
