"""An unknown field is reported on its own line and column (data/schema.py), in every kind of file: beside
`additionalProperties: false` and under `unevaluatedProperties: false`, where a field another branch declares (an
index kind's field in a definition of another kind) is unknown too. One small text per kind of file; each text is
valid but for the fields named `stray` (and the foreign one), so the expected problems are all the problems."""

from __future__ import annotations

import json

import pytest

from sitegen.data import kinds, schema, yamlstrict
from sitegen.data.load import Doc

MODEL = """\
id: acme/widget-1
name: Widget 1
release: acme/widget-1
organization: Acme
stray: 1
parameters: {total_b: 7, stray: 2}
results:
  - benchmark: quiz
    value: 63.4
    source: paper
    retrieved: "2025-06-01"
    stray: 3
"""

IMPORTED = """\
source: board
retrieved: "2025-06-01"
results:
  - benchmark: quiz
    model: acme/widget-1
    value: 63.4
    stray: 1
stray: 2
"""

OVERRIDES = """\
overrides:
  - model: acme/widget-1
    benchmark: quiz
    source: paper
    exclude: true
    reason: The run used the wrong split.
    stray: 1
"""

SOURCES = """\
sources:
  - id: paper
    name: The Quiz paper
    url: https://example.org/paper
    licence: CC BY 4.0
    attribution: Example et al. (2025)
    provenance: primary
    stray: 1
"""

BENCHMARKS = """\
benchmarks:
  - id: quiz
    name: Quiz
    category: knowledge
    scale: {min: 0, max: 100, unit: percent, stray: 1}
    higher_is_better: true
    url: https://example.org/quiz
    description: A small percent benchmark.
"""

INDEX = """\
id: quiz-mean
kind: {kind}
name: Quiz mean
version: "1"
unit: points
description: The quiz alone.
imputation: none
weights: relative
constituents:
  - {{benchmark: quiz, weight: 1, stray: 1}}
stray: 2
selection:
  stray: 3
  order: [newest]
"""

# an anchor-mean definition (generic name, or its alias) holding a weighted-mean field: unknown for this kind
ANCHOR_MEAN = """\
id: quiz-eq
kind: {kind}
name: Quiz EQ
version: "1"
unit: points
description: The quiz mapped through its anchor table.
components:
  - benchmark: quiz
    anchors: [[0, 0], [100, 100]]
weights: relative
"""

IGNORE = """\
ignore:
  - source: board
    name: Widget One
    reason: Not attributed to a configuration.
    stray: 1
"""

IDENTITY = """\
vendor_defaults:
  - vendor: Acme
    means: A bare Widget name is the configuration without reasoning.
    url: https://example.org/docs
    rules:
      - releases: [acme/widget-1]
        bare: {effort: none, stray: 1}
"""

METADATA = """\
rules:
  - match: [acme/*]
    level: organization
    weights: closed
    source: Acme's model page
    url: https://example.org/models
    stray: 1
"""

SITE = """\
title: Leaderboards
boards: [quiz-mean]
stray: 1
headline:
  fallback: 1
  stray: 2
"""

INTERCHANGE_NAMES = """\
benchmarks:
  quiz:
    names: [quiz_v1]
    hub: [{dataset: acme/quiz, stray: 1}]
    stray: 2
not:
  - {name: quiz_v2, why: another set, stray: 3}
"""


def problems(kind: str, text: str) -> list[tuple[int, int, str, str]]:
    parsed, found = yamlstrict.parse(text.encode(), f"{kind}.yaml")
    assert parsed is not None and found == [], found
    if kind == "index":
        kinds.resolve_kinds([parsed.data])
    return [(p.line, p.col, p.field, p.message) for p in schema.check_doc(Doc(f"{kind}.yaml", kind, parsed))]


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("model", MODEL, [(5, 1, "stray"), (6, 26, "parameters.stray"), (12, 5, "results[0].stray")]),
        ("imported", IMPORTED, [(7, 5, "results[0].stray"), (8, 1, "stray")]),
        ("overrides", OVERRIDES, [(7, 5, "overrides[0].stray")]),
        ("sources", SOURCES, [(8, 5, "sources[0].stray")]),
        ("benchmarks", BENCHMARKS, [(5, 46, "benchmarks[0].scale.stray")]),
        ("ignore", IGNORE, [(5, 5, "ignore[0].stray")]),
        ("identity", IDENTITY, [(7, 30, "vendor_defaults[0].rules[0].bare.stray")]),
        ("metadata", METADATA, [(7, 5, "rules[0].stray")]),
        ("site", SITE, [(3, 1, "stray"), (6, 3, "headline.stray")]),
        ("interchange-names", INTERCHANGE_NAMES,
         [(4, 32, "benchmarks.quiz.hub[0].stray"), (5, 5, "benchmarks.quiz.stray"), (7, 39, "not[0].stray")]),
    ],
)
def test_an_unknown_field_is_placed_at_its_key_in_every_kind_of_file(kind, text, expected):
    assert [(line, col, field) for line, col, field, _ in problems(kind, text)] == expected
    assert all(message == f"unknown field '{field.rsplit('.', 1)[-1].split(']')[-1]}'"
               for _, _, field, message in problems(kind, text))


def test_an_unknown_field_of_an_index_definition_is_placed_at_its_key():
    found = problems("index", INDEX.format(kind="weighted-mean"))
    assert [(line, col, field) for line, col, field, _ in found] == [
        (10, 34, "constituents[0].stray"),
        (11, 1, "stray"),
        (13, 3, "selection.stray"),
    ]


@pytest.mark.parametrize("kind", ["anchor-mean", "ai-eq"])
def test_a_field_of_another_index_kind_is_placed_at_its_key_and_names_its_kind(kind):
    text = ANCHOR_MEAN.format(kind=kind)
    parsed, _ = yamlstrict.parse(text.encode(), "methodology/indices/quiz-eq.yaml")
    assert parsed is not None
    kinds.resolve_kinds([parsed.data])
    (problem,) = schema.check_doc(Doc("methodology/indices/quiz-eq.yaml", "index", parsed))
    assert problem.format().startswith(
        "methodology/indices/quiz-eq.yaml:10:1: weights: unknown field 'weights' (a field only where "
        "kind: weighted-mean; allowed: adjustments, components, "
    )


def test_every_schema_that_closes_an_object_is_covered_here():
    """Each kind of file whose schema rejects unknown fields has a case above (citation.schema.json and a question
    row's raw.schema.json allow any)."""
    closed = {
        kind
        for kind, name in schema.SCHEMA_FOR_KIND.items()
        if '"additionalProperties": false' in schema.schema_text(name)
        or '"unevaluatedProperties": false' in schema.schema_text(name)
    }
    assert closed == {"model", "imported", "overrides", "sources", "benchmarks", "index", "ignore", "identity",
                      "metadata", "site", "interchange-names"}, json.dumps(sorted(closed))
