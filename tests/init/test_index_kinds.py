"""Index kinds under generic names (data/kinds.py): a definition written with a generic name validates against the
same fields as its methodology-named alias, computes the same board, and a bad one gets a file:line error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.data.kinds import GENERIC, engine_kind

BASE = Path(__file__).resolve().parents[1] / "validation" / "base"

# Two components on the base tree's benchmarks (tests/validation/base): quiz in percent, arena in Elo.
ANCHOR_MEAN = """\
id: {id}
kind: {kind}
name: Quiz and Arena
version: "1"
unit: points
description: The mean of quiz and arena, each mapped through its anchor table.
components:
  - benchmark: quiz
    anchors: [[0, 0], [100, 100]]
  - benchmark: arena
    anchors: [[1000, 0], [1400, 100]]
"""

ARENA_RESULT = """\
  - benchmark: arena
    value: 1300
    source: board
    retrieved: "2025-06-01"
"""


def tree(tmp_path: Path, definitions: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(BASE, root)
    (root / "methodology" / "indices").mkdir()
    for name, text in definitions.items():
        (root / "methodology" / "indices" / f"{name}.yaml").write_text(text, encoding="utf-8")
    model = root / "scores" / "models" / "acme" / "widget-1.yaml"
    model.write_text(model.read_text(encoding="utf-8") + ARENA_RESULT, encoding="utf-8")
    return root


def validate(root: Path):
    return CliRunner().invoke(main, ["validate", "--root", str(root)], env={"GITHUB_ACTIONS": "false"})


def test_every_generic_name_stands_for_a_kind_the_engine_computes():
    from sitegen.indices.boards import COMPUTERS, MULTI_BOARD

    assert GENERIC == {"anchor-mapping": "ai-iq", "anchor-mean": "ai-eq", "question-accuracy": "hle",
                       "cost-frontier": "cost"}
    assert all(kind in COMPUTERS or kind in MULTI_BOARD for kind in GENERIC.values())
    assert engine_kind("anchor-mean") == "ai-eq"
    assert engine_kind("ai-eq") == "ai-eq"  # today's names stay what they are
    assert engine_kind("weighted-mean") == "weighted-mean"
    assert engine_kind("no-such-kind") == "no-such-kind"  # left for the schema to reject
    assert engine_kind(3) == 3


def test_the_schema_lists_each_generic_name_beside_its_alias():
    import json

    from sitegen.data import schema

    doc = json.loads((Path(schema.__file__).parent.parent / "schemas" / "index.schema.json").read_text())
    assert set(GENERIC) <= set(doc["properties"]["kind"]["enum"])
    branches = {tuple(p["if"]["properties"]["kind"].get("enum") or [p["if"]["properties"]["kind"]["const"]])
                for p in doc["allOf"]}
    for generic, engine in GENERIC.items():
        assert (engine, generic) in branches


def test_a_generic_name_computes_the_same_board_as_its_alias(tmp_path):
    from sitegen.build import compute, validate_repo

    root = tree(tmp_path, {"eq-old": ANCHOR_MEAN.format(id="eq-old", kind="ai-eq"),
                           "eq-new": ANCHOR_MEAN.format(id="eq-new", kind="anchor-mean")})
    result = validate(root)
    assert result.exit_code == 0, result.output
    repo, problems = validate_repo(root)
    assert repo is not None, [p.format() for p in problems]
    boards = compute(repo).boards
    old, new = boards["eq-old"], boards["eq-new"]
    # widget-1: quiz 63.4 -> 63.4, arena 1300 -> 75; the mean 69.2
    assert [(r["model"], r["value"]) for r in new["rows"]] == [("acme/widget-1", 69.2)]
    assert [(r["model"], r["value"]) for r in old["rows"]] == [(r["model"], r["value"]) for r in new["rows"]]


def test_the_api_shows_the_kind_as_its_author_wrote_it(tmp_path):
    """The engine computes under its own name (ai-eq); the JSON API's board and its as-of changes say the name the
    definition was written with, and the definition's own page shows no trace of the engine's bookkeeping."""
    import json

    from sitegen.build import compute, validate_repo
    from sitegen.data.kinds import WRITTEN

    root = tree(tmp_path, {"eq-old": ANCHOR_MEAN.format(id="eq-old", kind="ai-eq"),
                           "eq-new": ANCHOR_MEAN.format(id="eq-new", kind="anchor-mean")})
    repo, problems = validate_repo(root)
    assert repo is not None, [p.format() for p in problems]
    written = {doc.data["id"]: (doc.data["kind"], doc.data.get(WRITTEN)) for doc in repo.indices}
    assert written == {"eq-old": ("ai-eq", None), "eq-new": ("ai-eq", "anchor-mean")}
    computed = compute(repo)
    assert computed.boards["eq-new"]["kind"] == "ai-eq"  # one name per computation inside
    api = computed.api_files
    assert json.loads(api["api/v1/indices/eq-new.json"])["kind"] == "anchor-mean"
    assert json.loads(api["api/v1/indices/eq-old.json"])["kind"] == "ai-eq"
    months = [json.loads(text) for path, text in sorted(api.items()) if path.startswith("api/v1/indices/eq-new/20")]
    changes = [m["changes"] for m in months if m["changes"]]  # 2025-06, the month the board is first known
    assert [(c["kind"], c["status"], c["to"]) for c in changes] == [("anchor-mean", "added", "2025-06-01")]
    assert not [path for path, text in api.items() if WRITTEN in text]
    out = tmp_path / "site"
    (root / "methodology" / "eq-new.md").write_text("# Quiz and Arena\n\nThe index.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--root", str(root), "--out", str(out), "--quiet"],
                                env={"GITHUB_ACTIONS": "false", "SITEGEN_CACHE": "off"})
    assert result.exit_code == 0, result.output
    page = (out / "methodology" / "eq-new" / "index.html").read_text(encoding="utf-8")
    assert "Quiz: " in page and WRITTEN not in page and "Kind as written" not in page


def test_a_question_accuracy_board_carries_the_written_kind():
    from sitegen.indices.hle import _board_header

    board = {"id": "quiz-accuracy", "name": "Quiz accuracy", "unit": "%", "description": "", "higher_is_better": True}
    assert _board_header({"version": 1, "kind": "hle"}, board)["kind"] == "hle"
    header = _board_header({"version": 1, "kind": "hle", "kind_as_written": "question-accuracy"}, board)
    assert (header["kind"], header["kind_as_written"]) == ("hle", "question-accuracy")


def test_a_bad_definition_under_a_generic_name_gets_file_line_errors(tmp_path):
    missing = ANCHOR_MEAN.format(id="eq-new", kind="anchor-mean").replace("    anchors: [[1000, 0], [1400, 100]]\n", "")
    result = validate(tree(tmp_path / "a", {"eq-new": missing}))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "methodology/indices/eq-new.yaml:10:5: components[1].anchors: missing field 'anchors' (this field is required)",
        "1 error, 0 warnings",
    ]
    foreign = ANCHOR_MEAN.format(id="eq-new", kind="anchor-mean") + "weights: fractions\n"  # a weighted-mean field
    result = validate(tree(tmp_path / "b", {"eq-new": foreign}))
    assert result.exit_code == 1
    # on its own line, named as the field of another kind (data/schema.py), as under today's kind names
    assert result.output.splitlines()[0].startswith(
        "methodology/indices/eq-new.yaml:12:1: weights: unknown field 'weights' (a field only where kind: "
        "weighted-mean; allowed: adjustments, components, "), result.output


def test_an_unknown_kind_is_rejected_with_the_generic_names_listed(tmp_path):
    root = tree(tmp_path, {"eq-new": ANCHOR_MEAN.format(id="eq-new", kind="anchor-means")})
    result = validate(root)
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith("methodology/indices/eq-new.yaml:2:7: kind: text 'anchor-means' is not allowed"), first
    assert "anchor-mean," in first and "cost-frontier" in first


WEIGHTED_MEAN = """\
id: quiz-mean
kind: weighted-mean
name: Quiz mean
version: "1"
unit: points
description: The quiz alone, from {where}.
{snapshot}imputation: none
weights: relative
constituents:
  - {{benchmark: quiz, weight: 1}}
selection: {{metric: "", subset: "", order: [source-precedence, newest, highest], sources: [{first}]}}
"""

BOARD_QUIZ = """\
  - benchmark: quiz
    value: 65.0
    source: board
    retrieved: "2025-06-02"
"""


@pytest.mark.parametrize(
    ("snapshot", "first", "value"),
    [
        ("", "board", 65.0),  # no snapshot: every source, the selection's first listed wins
        ("", "paper", 63.4),
        ("source_snapshot: paper\n", "board", 63.4),  # a snapshot feeds it alone, whatever the selection says
    ],
)
def test_a_weighted_mean_without_a_snapshot_takes_every_source_by_its_selection(tmp_path, snapshot, first, value):
    from sitegen.build import compute, validate_repo

    text = WEIGHTED_MEAN.format(where=first, snapshot=snapshot, first=first)
    root = tree(tmp_path, {"quiz-mean": text})
    model = root / "scores" / "models" / "acme" / "widget-1.yaml"
    model.write_text(model.read_text(encoding="utf-8") + BOARD_QUIZ, encoding="utf-8")
    repo, problems = validate_repo(root)
    assert repo is not None, [p.format() for p in problems]
    board = compute(repo).boards["quiz-mean"]
    assert [(r["model"], r["value"]) for r in board["rows"]] == [("acme/widget-1", value)]
