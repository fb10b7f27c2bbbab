"""Every methodology/indices file validates against index.schema.json; wrong fields are refused per kind."""

from __future__ import annotations

import json

import jsonschema
import pytest

from indexkit import ROOT, definition

SCHEMA = json.loads((ROOT / "generator/sitegen/schemas/index.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
MINE = ["aa-intelligence-v2-2", "aa-intelligence-v3-0", "aa-math-v2-2", "aa-coding-v2-2", "aa-coding-v3-0",
        "aa-multilingual-v2-2", "ai-iq", "ai-eq", "cost", "benchmark-boards"]


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("index_id", MINE)
def test_definition_validates(index_id):
    text = (ROOT / "methodology/indices" / f"{index_id}.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../generator/sitegen/schemas/index.schema.json\n")
    d = definition(index_id)
    assert d["id"] == index_id
    assert list(VALIDATOR.iter_errors(d)) == []


@pytest.mark.parametrize("index_id, change, message", [
    ("aa-intelligence-v2-2", {"imputation": "mean"}, "'none' was expected"),
    ("aa-intelligence-v2-2", {"anchors": []}, "Unevaluated properties"),   # a field of another kind
    ("ai-iq", {"min_dimensions": 0}, "less than the minimum"),
    ("cost", {"price_mix": {"input": 2}}, "'output' is a required property"),
    ("ai-eq", {"kind": "ai-iq"}, "is a required property"),
])
def test_bad_definitions_are_refused(index_id, change, message):
    d = {**definition(index_id), **change}
    assert any(message in e.message for e in VALIDATOR.iter_errors(d))


def test_compressed_benchmark_needs_its_original_ceiling():
    d = definition("ai-iq")
    del d["dimensions"][0]["benchmarks"][1]["ceiling_original"]   # arc-agi-1
    assert any("ceiling_original" in e.message for e in VALIDATOR.iter_errors(d))
