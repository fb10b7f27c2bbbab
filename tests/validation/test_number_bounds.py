"""Every number in every per-file schema has a floor and a ceiling, so no accepted value can overflow the arithmetic."""

from __future__ import annotations

import json
from importlib import resources

import pytest

SCHEMAS = sorted(e.name for e in resources.files("sitegen").joinpath("schemas").iterdir() if e.name.endswith(".json"))


def numeric_fields(node, path=""):
    if isinstance(node, dict):
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "number" in kinds or "integer" in kinds:
            yield path, node
        for key, value in node.items():
            if key not in ("enum", "const", "default", "examples"):
                yield from numeric_fields(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from numeric_fields(value, f"{path}/{i}")


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_number_is_bounded(name):
    schema = json.loads(resources.files("sitegen").joinpath("schemas", name).read_text(encoding="utf-8"))
    unbounded = [path for path, node in numeric_fields(schema)
                 if not ({"minimum", "exclusiveMinimum"} & node.keys() and {"maximum", "exclusiveMaximum"} & node.keys())]
    assert unbounded == []


def test_the_walk_finds_the_result_value():
    schema = json.loads(resources.files("sitegen").joinpath("schemas", "model.schema.json").read_text(encoding="utf-8"))
    found = dict(numeric_fields(schema))
    assert found["/$defs/result/properties/value"] == {"type": "number", "minimum": -1000000, "maximum": 1000000,
                                                       "description": found["/$defs/result/properties/value"]["description"]}
