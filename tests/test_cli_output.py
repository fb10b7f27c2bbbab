"""What the commands print: `stats` says how each source's results arrive, `changelog` prints readable Markdown."""

from __future__ import annotations

from hardening.hardkit import dump, make_tree, sitegen

from sitegen.cli.imports import stats_kind
from sitegen.history.changelog import md_text, to_markdown


def test_stats_kind_names_imported_hand_curated_and_both():
    assert stats_kind(90, 0) == "imported"
    assert stats_kind(12, 12) == "hand-curated"
    assert stats_kind(100, 4) == "imported, 4 by hand"


def test_stats_says_a_source_with_imported_and_hand_entered_results_is_both(tmp_path):
    root = make_tree(tmp_path / "repo")  # 14 results from `paper` in model files
    dump(root / "scores/imported/paper.yaml", {"source": "paper", "retrieved": "2025-06-01", "results": [
        {"model": "acme/alpha", "benchmark": "mmlu-pro", "value": 61.0}]})
    dump(root / "scores/imported/epoch.yaml", {"source": "epoch", "retrieved": "2025-06-01", "results": [
        {"model": "zeta/gamma", "benchmark": "mmlu-pro", "value": 40.5}]})
    done = sitegen("stats", "--root", str(root), cwd=root)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "epoch                           1        1  imported" in lines
    assert "paper                           3       15  imported, 14 by hand" in lines


def test_changelog_markdown_escapes_only_what_would_render():
    # parentheses, '#', '!', '$' and '~' alone render as themselves: no backslashes or invisible characters
    assert md_text("Merge readsite: smaller fixes (#29)") == "Merge readsite: smaller fixes (#29)"
    assert md_text("price_tables reads it once; 3 ~ 4! costs $5") == "price_tables reads it once; 3 ~ 4! costs $5"
    # what would render still is inert: emphasis, code, links, images, HTML, autolinks, mentions
    assert md_text("*bold* _it_ `code`") == "\\*bold\\* \\_it\\_ \\`code\\`"
    assert md_text("![x](https://e.org/a.png) <b>") == "!\\[x\\](https:\u200b//e.org/a.png) &lt;b>"
    assert md_text("thanks @someone") == "thanks @\u200bsomeone"
    assert md_text("a\nb\u202e") == "a b\N{REPLACEMENT CHARACTER}"


def test_changelog_markdown_of_an_entry_reads_as_written():
    entry = {"date": "2026-11-26T10:00:00Z", "commit": "0743a734d65f00", "subject": "Merge mcprec: an opt-in "
             "cache (SITEGEN_SIM_CACHE) (#27)", "models": {"added": [], "removed": []}, "results": {},
             "methodology": [{"file": "methodology/uncertainty.md", "status": "changed", "keys": []}], "files": []}
    assert to_markdown([entry]).splitlines() == [
        "# Data changelog", "",
        "## 2026-11-26: Merge mcprec: an opt-in cache (SITEGEN_SIM_CACHE) (#27) (0743a734d65f)", "",
        "- Methodology methodology/uncertainty.md changed"]
