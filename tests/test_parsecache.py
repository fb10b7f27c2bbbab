"""The parse cache (sitegen/data/parsecache.py): validate_repo keeps each data file's parse and schema problems by
the file's digest, and gives the same repository and the same problems (path:line:col, field, message, hint) as a
run without it, whatever the file's content did since; the cross-file rules run every time."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
from hardkit import make_tree

from sitegen.data import checks, parsecache, validate_repo, yamlstrict

ALPHA = "scores/models/acme/alpha.yaml"
#: acme/alpha with a value the schema refuses (weights: maybe, line 6) and one the YAML reader refuses (an unquoted
#: `no`, line 7)
BAD = """id: acme/alpha
name: Alpha
release: acme/alpha
organization: Acme
released: "2025-03"
weights: maybe
reasoning: no
results:
  - benchmark: hle
    value: 12.5
    source: paper
    retrieved: "2025-06-01"
"""
#: the same model, valid, but citing a source the registry does not have (a cross-file rule)
UNKNOWN_SOURCE = BAD.replace("weights: maybe", "weights: open").replace("reasoning: no", "reasoning: false").replace(
    "source: paper", "source: nobody-knows"
)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    return make_tree(tmp_path / "repo")


def entries(root: Path) -> list[str]:
    folder = root / ".sitegen-cache" / parsecache.FOLDER
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def shown(problems) -> list[str]:
    return [p.format() for p in problems]


def counted_parses(monkeypatch) -> list[str]:
    """The paths yamlstrict.parse is called for from now on."""
    seen: list[str] = []
    parse = yamlstrict.parse

    def counting(raw, rel, *args, **kwargs):
        seen.append(rel)
        return parse(raw, rel, *args, **kwargs)

    monkeypatch.setattr(yamlstrict, "parse", counting)
    return seen


def test_a_second_run_parses_nothing_and_finds_the_same(tree, monkeypatch):
    (tree / ALPHA).write_text(BAD, encoding="utf-8")
    fresh_repo, fresh = validate_repo(tree, parse_cache=False)
    assert fresh_repo is None and not entries(tree)
    lines = shown(fresh)
    assert any(line.startswith(f"{ALPHA}:6:") and "weights" in line for line in lines), lines
    assert any(line.startswith(f"{ALPHA}:7:") for line in lines), lines
    assert shown(validate_repo(tree, keep=True)[1]) == lines  # cold: parsed, and kept
    files = len(list((tree / "scores").rglob("*.yaml"))) + len(list((tree / "methodology").rglob("*.yaml")))
    assert len(entries(tree)) == files
    parses = counted_parses(monkeypatch)
    assert shown(validate_repo(tree, keep=True)[1]) == lines  # warm: every file from its entry
    assert parses == []


def test_a_file_changing_back_and_forth_gets_the_problems_of_its_bytes(tree, monkeypatch):
    good = (tree / ALPHA).read_text(encoding="utf-8")
    parses = counted_parses(monkeypatch)
    for text in (BAD, good, BAD, good, BAD):
        (tree / ALPHA).write_text(text, encoding="utf-8")
        parses.clear()
        cached = validate_repo(tree, keep=True)
        fresh = validate_repo(tree, parse_cache=False)
        assert shown(cached[1]) == shown(fresh[1])
        assert (cached[0] is None) == (text == BAD) == (fresh[0] is None)
        if cached[0] is not None:
            assert [d.data for d in cached[0].all_docs()] == [d.data for d in fresh[0].all_docs()]
        assert ALPHA in parses  # the fresh run's parse; the cached run parsed only what it had no entry for
    parses.clear()
    validate_repo(tree, keep=True)
    assert parses == []  # BAD's entry was kept from its last run
    assert len(entries(tree)) == len(set(entries(tree)))


def test_the_cross_file_rules_run_again_on_a_kept_file(tree):
    (tree / ALPHA).write_text(UNKNOWN_SOURCE, encoding="utf-8")
    first = shown(validate_repo(tree, keep=True)[1])
    assert any(line.startswith(ALPHA) and "nobody-knows" in line for line in first), first
    # the registry gains the source: the model file is unchanged (its entry is used), its problem goes
    sources = tree / "scores/sources.yaml"
    sources.write_text(
        sources.read_text(encoding="utf-8").replace("- id: paper", "- id: nobody-knows\n  name: Someone\n"
        "  url: https://example.org/someone\n  licence: CC BY 4.0\n  attribution: Someone (2025)\n"
        "  provenance: primary\n- id: paper", 1),
        encoding="utf-8",
    )
    second = validate_repo(tree, keep=True)
    assert shown(second[1]) == shown(validate_repo(tree, parse_cache=False)[1])
    assert not any("nobody-knows" in line for line in shown(second[1])), shown(second[1])


def test_only_the_entries_of_the_last_run_are_kept_and_a_damaged_one_is_parsed_again(tree, monkeypatch):
    validate_repo(tree, keep=True)
    before = entries(tree)
    (tree / ALPHA).write_text(BAD, encoding="utf-8")
    validate_repo(tree, keep=True)
    after = entries(tree)
    assert len(after) == len(before) and len(set(after) - set(before)) == 1  # alpha's new entry replaced its old
    (tree / ".sitegen-cache" / parsecache.FOLDER / sorted(set(after) - set(before))[0]).write_bytes(b"not a pickle")
    parses = counted_parses(monkeypatch)
    assert shown(validate_repo(tree, keep=True)[1]) == shown(validate_repo(tree, parse_cache=False)[1])
    assert parses.count(ALPHA) == 2  # the damaged entry, then the run without the cache


def test_sitegen_cache_off_or_keep_false_writes_nothing(tree, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", "off")
    validate_repo(tree, keep=True)
    assert not (tree / ".sitegen-cache").exists()
    monkeypatch.delenv("SITEGEN_CACHE")
    validate_repo(tree)  # as `sitegen validate` calls it: loads entries, writes none
    assert not (tree / ".sitegen-cache").exists()


def test_a_check_loads_the_entries_a_build_kept(tree, monkeypatch):
    validate_repo(tree, keep=True)
    kept = entries(tree)
    (tree / ALPHA).write_text(BAD, encoding="utf-8")
    parses = counted_parses(monkeypatch)
    checked = shown(validate_repo(tree)[1])
    assert parses == [ALPHA]  # only the edited file is parsed again
    assert checked == shown(validate_repo(tree, parse_cache=False)[1])
    assert entries(tree) == kept  # and its new entry is not written


def test_a_kept_parse_unpickles_its_marks_only_when_asked():
    parsed, problems = yamlstrict.parse(b"id: acme/alpha\nresults:\n  - value: 12.5\n", ALPHA)
    assert problems == []
    back = pickle.loads(pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
    assert back.data == {"id": "acme/alpha", "results": [{"value": 12.5}]}
    assert back._marks is None  # still packed: reading the entry did not unpickle them
    assert back.mark(("results", 0, "value")) == (3, 5)
    assert back.value_mark(("results", 0, "value")) == (3, 12)
    assert back.marks == {(): (1, 1), ("id",): (1, 5), ("results",): (3, 3), ("results", 0): (3, 5),
                          ("results", 0, "value"): (3, 12)}
    assert back == parsed and pickle.loads(pickle.dumps(back)) == parsed


def test_a_warm_run_unpickles_the_marks_of_the_files_it_places_problems_in(tree, monkeypatch):
    (tree / ALPHA).write_text(UNKNOWN_SOURCE, encoding="utf-8")
    validate_repo(tree, keep=True)
    checked = []
    run_checks = checks.run_checks
    monkeypatch.setattr(checks, "run_checks", lambda repo: checked.append(repo) or run_checks(repo))
    problems = validate_repo(tree, keep=True)[1]  # warm: every file from its entry
    assert [p.path for p in problems] == [ALPHA]
    assert shown(problems) == shown(validate_repo(tree, parse_cache=False)[1])
    warm = checked[0]
    assert len(list(warm.all_docs())) > 5
    assert sorted(doc.path for doc in warm.all_docs() if doc.parsed._marks is not None) == [ALPHA]
