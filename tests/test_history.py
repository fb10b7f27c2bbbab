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

from sitegen import history
from sitegen.cli_diff import changelog_command

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
    lines = [f"id: {model}", f"name: {model.split('/')[1].title()}", "organization: Acme", "results:"]
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
    assert "&lt;AIME&gt;" in md.output
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
