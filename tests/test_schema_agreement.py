"""The fast validator (jsonschema-rs) and the explaining one (jsonschema) must agree on every file.

check_doc trusts the fast validator's "valid"; if it ever accepted what jsonschema rejects, an error would
go unreported. Checked over the rejection corpus and the repository's own data.
"""

import shutil
from pathlib import Path

import pytest

from sitegen.data import load, schema

HERE = Path(__file__).parent
ROOT = HERE.parent
CASES = sorted(p for p in (HERE / "validation" / "cases").iterdir() if p.is_dir())


def _agree(repo) -> list[str]:
    disagreements = []
    for doc in repo.all_docs():
        slow = not any(True for _ in schema.validator(doc.kind).iter_errors(doc.data))
        fast = schema.fast_validator(doc.kind).is_valid(doc.data)
        if slow != fast:
            disagreements.append(f"{doc.path}: jsonschema {'accepts' if slow else 'rejects'}, "
                                 f"jsonschema-rs {'accepts' if fast else 'rejects'}")
    return disagreements


def _corpus_repo(case: str, tmp_path):
    """The rejection corpus's base tree with one case's files laid over it, loaded."""
    root = tmp_path / "repo"
    shutil.copytree(HERE / "validation" / "base", root)
    shutil.copytree(HERE / "validation" / "cases" / case / "files", root, dirs_exist_ok=True)
    return load.load_repo(root)[0]


def test_fast_validator_is_installed():
    assert schema.fast_validator("model") is not None


@pytest.mark.parametrize("case", [c.name for c in CASES])
def test_agree_on_rejection_corpus(case, tmp_path):
    assert _agree(_corpus_repo(case, tmp_path)) == []


def test_agree_on_repository_data():
    repo, _ = load.load_repo(ROOT)
    assert _agree(repo) == []


def _trusted(doc) -> bool:
    """Whether check_doc takes the fast validator's word for a file (and never runs ours on it)."""
    return (schema.fast_validator(doc.kind).is_valid(doc.data)
            and not schema._whole_floats(doc.data, schema.integer_fields(doc.kind)))


def _untrusted_errors(repo) -> list[str]:
    return [doc.path for doc in repo.all_docs()
            if _trusted(doc) and any(True for _ in schema.validator(doc.kind).iter_errors(doc.data))]


@pytest.mark.parametrize("case", [c.name for c in CASES])
def test_a_file_the_fast_validator_is_trusted_with_has_no_errors(case, tmp_path):
    assert _untrusted_errors(_corpus_repo(case, tmp_path)) == []


WIDGET = """id: acme/widget-1
name: Widget 1
organization: Acme
context_window: {window}
results:
  - benchmark: quiz
    value: 63.0
    n: 500
    source: paper
    retrieved: "2025-06-01"
release: acme/widget-1
"""


def _model(text: str):
    from sitegen.data import yamlstrict

    parsed, problems = yamlstrict.parse(text.encode("utf-8"), "scores/models/acme/widget-1.yaml")
    assert problems == []
    return load.Doc("scores/models/acme/widget-1.yaml", "model", parsed)


def test_whole_floats_go_through_ours_only_where_an_integer_may_be():
    assert {"context_window", "n", "budget_tokens"} <= schema.integer_fields("model")
    assert "value" not in schema.integer_fields("model") and "*" not in schema.integer_fields("model")
    scored = _model(WIDGET.format(window="128000"))  # 63.0 is a score: a number, whole or not
    assert _trusted(scored) and schema.check_doc(scored) == []
    window = _model(WIDGET.format(window="128000.0"))  # 128000.0 where a count belongs
    assert not _trusted(window)
    assert [(p.line, p.col, p.field, p.message) for p in schema.check_doc(window)] == [
        (4, 17, "context_window", "expected integer, got the number 128000.0")]
    assert schema._whole_floats({"x": [1.0]}, frozenset({"*"}))  # "*": a whole float anywhere
    assert not schema._whole_floats({"x": [1.5], "n": 2}, frozenset({"*"}))


def test_a_repository_file_the_fast_validator_is_trusted_with_has_no_errors():
    assert _untrusted_errors(load.load_repo(ROOT)[0]) == []


def test_whole_floats_are_found_by_the_name_of_the_field_they_sit_under_at_any_depth():
    """A list's items sit under the list's field; a mapping's values under their own keys."""
    fields = frozenset({"n"})
    assert schema._whole_floats({"a": [{"b": {"n": [1, 4.0]}}]}, fields)
    assert schema._whole_floats({"a": {"n": 2.0}}, fields)
    assert not schema._whole_floats({"n": {"x": 2.0}}, fields)  # under "x", not "n"
    assert not schema._whole_floats({"n": [2.5, float("nan"), float("inf"), True, "4.0"]}, fields)
    assert not schema._whole_floats({1: 3.0}, fields) and schema._whole_floats({1: 3.0}, frozenset({"*"}))
    assert schema._whole_floats([5.0], fields, "n") and not schema._whole_floats([], fields, "n")
