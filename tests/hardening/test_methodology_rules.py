"""Methodology files that would silently change the site are errors at path:line:col.

Each test edits one real definition in a small tree (hardkit.make_tree: the real methodology/) and compares
`sitegen validate`'s whole output with the exact expected lines.
"""

from __future__ import annotations

from click.testing import CliRunner

from hardkit import make_tree

from sitegen.cli import main


def validate(root) -> list[str]:
    result = CliRunner().invoke(main, ["validate", "--root", str(root)], env={"GITHUB_ACTIONS": "false", "CI": ""})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output.splitlines()


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, text: str) -> int:
    """The 1-based line of the real file on which `text` starts (the real definitions grow; the tests follow)."""
    content = path.read_text(encoding="utf-8")
    assert text in content, text
    return content[: content.index(text)].count("\n") + 1


def test_the_tree_is_valid(tmp_path):
    assert validate(make_tree(tmp_path / "repo"))[-1].startswith("0 errors")


def test_unknown_constituent_and_snapshot(tmp_path):
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/aa-coding-v3-0.yaml"
    edit(path, "source_snapshot: aa-api-2025-10", "source_snapshot: aa-api-2025-1O")
    edit(path, "{benchmark: scicode, weight: 1}", "{benchmark: scicod, weight: 1}")
    assert validate(root) == [
        f"methodology/indices/aa-coding-v3-0.yaml:{line_of(path, 'source_snapshot:')}:18: source_snapshot: unknown source 'aa-api-2025-1O' (did you "
        "mean 'aa-api-2025-10'?)",
        f"methodology/indices/aa-coding-v3-0.yaml:{line_of(path, '{benchmark: scicod,')}:17: constituents[1].benchmark: unknown benchmark 'scicod' "
        "(did you mean 'scicode'?)",
        "2 errors, 0 warnings"]


def test_index_id_must_be_its_file_name(tmp_path):
    root = make_tree(tmp_path / "repo")
    edit(root / "methodology/indices/hle.yaml", "id: hle\n", "id: hle-board\n")
    assert validate(root) == [
        "methodology/indices/hle.yaml:4:5: id: id 'hle-board' does not match the file name (write id: hle (the id is "
        "the board's URL))",
        "1 error, 0 warnings"]


def test_descending_anchors(tmp_path):
    root = make_tree(tmp_path / "repo")
    edit(root / "methodology/indices/ai-iq.yaml", "[[0, 70], [20, 85], [40, 95],", "[[0, 70], [40, 85], [20, 95],")
    line = line_of(root / "methodology/indices/ai-iq.yaml", "[[0, 70], [40, 85], [20, 95],")
    assert validate(root) == [
        f"methodology/indices/ai-iq.yaml:{line}:39: dimensions[0].benchmarks[0].anchors[2][0]: raw score 20 does not rise "
        "above 40 (anchor rows go from the lowest raw score to the highest)",
        "1 error, 0 warnings"]


def test_family_match_per_benchmark_needs_it_on_for_the_index(tmp_path):
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/ai-iq.yaml"
    edit(path, "      - benchmark: hle\n", "      - benchmark: hle\n        family_match: false\n")
    assert validate(root)[-1].startswith("0 errors")   # on for the index: the benchmark's switch acts
    edit(path, "\nfamily_match: true\n", "\nfamily_match: false\n")
    assert validate(root) == [
        f"methodology/indices/ai-iq.yaml:{line_of(path, '        family_match: false')}:9: "
        "dimensions[3].benchmarks[0].family_match: family match is off for the whole index, so this setting changes "
        "nothing (remove it, or write family_match: true at the top level)",
        "1 error, 0 warnings"]


def test_weights_declared_as_fractions_must_sum_to_one(tmp_path):
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/aa-coding-v2-2.yaml"
    edit(path, "{benchmark: scicode, weight: 0.5}", "{benchmark: scicode, weight: 0.4}")
    assert validate(root) == [
        f"methodology/indices/aa-coding-v2-2.yaml:{line_of(path, 'constituents:')}:1: constituents: weights sum to 0.9, not 1 (fix the weights, or "
        "declare weights: relative to have them divided by their sum)",
        "1 error, 0 warnings"]
    edit(path, "weights: fractions", "weights: relative")
    assert validate(root)[-1].startswith("0 errors")
    edit(path, "weights: relative\n", "")
    assert validate(root) == [
        "methodology/indices/aa-coding-v2-2.yaml:1:1: weights: missing field 'weights' (this field is required)",
        "1 error, 0 warnings"]


def test_benchmark_ids_and_pages_that_share_an_address(tmp_path):
    root = make_tree(tmp_path / "repo")
    edit(root / "methodology/benchmarks.yaml", "  - id: mmlu-pro\n", "  - id: hle.\n    name: HLE again\n"
         "    category: knowledge\n    scale: {min: 0, max: 100, unit: percent}\n    higher_is_better: true\n"
         "    url: https://example.org/hle\n    description: A copy.\n"
         "  - id: mmlu-pro\n")
    (root / "methodology/hle.md").write_text("# HLE\n", encoding="utf-8")
    (root / "methodology/hle-.md").write_text("# HLE again\n", encoding="utf-8")
    line = line_of(root / "methodology/benchmarks.yaml", "  - id: hle\n")
    assert validate(root) == [
        f"methodology/benchmarks.yaml:{line}:9: benchmarks[2].id: 'hle' has the same page as 'hle.' (benchmark pages are "
        "named by id; choose an id that differs in letters or digits)",
        "methodology/hle.md: (file): has the same page as methodology/hle-.md (rename one of them: both would be "
        "published at one address)",
        "2 errors, 0 warnings"]


def test_constituent_subset_the_snapshot_does_not_file(tmp_path):
    from hardkit import SCORES, model_doc

    # AA's HLE under the full set (as an importer that predates subset aa-2684 filed it) while AA's index v2.2
    # asks for subset aa-2684: no row of the board could be complete.
    stale = model_doc("acme/delta", {"hle": 20})
    stale["results"][0]["source"] = "aa-leaderboard-2025-08"
    root = make_tree(tmp_path / "repo", [model_doc(m, s) for m, s in SCORES.items()] + [stale])
    line = line_of(root / "methodology/indices/aa-intelligence-v2-2.yaml", "{benchmark: hle,")
    assert validate(root) == [
        f"methodology/indices/aa-intelligence-v2-2.yaml:{line}:45: constituents[1].subset: no hle result of "
        "aa-leaderboard-2025-08 is filed under subset 'aa-2684' (1 under the primary metric on the full set), so no "
        "row of this index is complete (regenerate the imported file (sitegen import --all) if its importer now "
        "files them so, or correct the constituent)",
        "1 error, 0 warnings"]
    # Filed under the subset, it is what the index reads; a snapshot without the benchmark at all is not flagged.
    stale["results"][0]["subset"] = "aa-2684"
    root = make_tree(tmp_path / "fixed", [model_doc(m, s) for m, s in SCORES.items()] + [stale])
    assert validate(root)[-1].startswith("0 errors")


def test_a_benchmark_in_two_dimensions(tmp_path):
    """It would weigh double (and the simulations draw each benchmark once): an error where it is listed again."""
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/ai-iq.yaml"
    edit(path, "      - benchmark: frontiermath-tier-4\n",
         "      - benchmark: arc-agi-1\n        tier: hard\n        ceiling: 135\n"
         "        anchors: [[0, 78], [100, 135]]\n      - benchmark: frontiermath-tier-4\n")
    line = line_of(path, "      - benchmark: arc-agi-1\n        tier: hard\n        ceiling: 135\n        anchors")
    assert validate(root) == [
        f"methodology/indices/ai-iq.yaml:{line}:20: dimensions[1].benchmarks[0].benchmark: benchmark 'arc-agi-1' is "
        "already in dimension 'abstract' (an index counts each benchmark once: keep it in one dimension)",
        "1 error, 0 warnings"]


def test_a_version_ends_where_its_successor_begins(tmp_path):
    # `to` is exclusive: 2.0 must end on the day 2.1 begins (2025-08-05), not the day before it.
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/aa-intelligence-v2-2.yaml"
    edit(path, 'to: "2025-08-05"', 'to: "2025-08-04"')
    line = line_of(path, '  - {version: "2.0"')
    assert validate(root) == [
        f"methodology/indices/aa-intelligence-v2-2.yaml:{line}:46: history[2].to: version 2.0 ends on 2025-08-04 "
        "but version 2.1 starts on 2025-08-05 (write to: \"2025-08-05\" (`to` is exclusive: the first day of the "
        "next version))",
        "1 error, 0 warnings"]


def test_a_superseded_version_carries_the_to_its_successor_gives_it(tmp_path):
    # v3.0's history says v2.2 ran to 2025-09; v2.2's own file must say so too (a missing `to` keeps it in force).
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/aa-coding-v2-2.yaml"
    edit(path, '{version: "2.2", from: "2025-08-06", to: "2025-09",', '{version: "2.2", from: "2025-08-06",')
    line = line_of(path, '  - {version: "2.2"')
    assert validate(root) == [
        f"methodology/indices/aa-coding-v2-2.yaml:{line}:5: history[0].to: Artificial Analysis Coding Index version "
        "2.2: to (none) here but 2025-09 in methodology/indices/aa-coding-v3-0.yaml (every definition's history "
        "must give a version the same dates)",
        "1 error, 0 warnings"]


def test_a_version_after_another_needs_a_to(tmp_path):
    # v3.0's own history drops v2.2's `to`: 3.0 follows it there, and v2.2's file still says 2025-09.
    root = make_tree(tmp_path / "repo")
    path = root / "methodology/indices/aa-coding-v3-0.yaml"
    edit(path, '{version: "2.2", from: "2025-08-06", to: "2025-09",', '{version: "2.2", from: "2025-08-06",')
    line = line_of(path, '  - {version: "2.2"')
    assert validate(root) == [
        f"methodology/indices/aa-coding-v3-0.yaml:{line}:5: history[1]: version 2.2 has no `to` although version "
        "3.0 follows it from 2025-09 (write to: \"2025-09\" (a version runs up to, not including, its successor's "
        "from))",
        f"methodology/indices/aa-coding-v3-0.yaml:{line}:5: history[1].to: Artificial Analysis Coding Index version "
        "2.2: to (none) here but 2025-09 in methodology/indices/aa-coding-v2-2.yaml (every definition's history "
        "must give a version the same dates)",
        "2 errors, 0 warnings"]
