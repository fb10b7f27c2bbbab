"""data/rules.py: what every cross-file rule uses to say where a problem is: the one helper for an id that names
nothing known (rules.unknown_id), and the hints for a metric or subset a benchmark does not declare, which
`sitegen validate` and `sitegen new result` share."""

from sitegen.data import yamlstrict
from sitegen.data.load import Doc
from sitegen.data.rules import metric_hint, subset_hint, unknown_id
from sitegen.problems import Problem

TEXT = b"""id: acme/widget-1
results:
- benchmark: quizz
  source: board
  value: 50
"""
KNOWN = {"quiz", "essay"}


def doc() -> Doc:
    parsed, problems = yamlstrict.parse(TEXT, "scores/models/acme/widget-1.yaml")
    assert problems == [] and parsed is not None
    return Doc("scores/models/acme/widget-1.yaml", "model", parsed)


def test_an_unknown_id_is_reported_at_its_value_with_the_closest_known_one():
    found = list(unknown_id(doc(), ("results", 0, "benchmark"), "benchmark", "quizz", KNOWN, "list it first"))
    assert found == [
        Problem(
            "scores/models/acme/widget-1.yaml",
            3,
            14,
            "results[0].benchmark",
            "unknown benchmark 'quizz'",
            "did you mean 'quiz'?",
        )
    ]


def test_without_a_close_id_the_hint_is_given_and_the_severity_is_kept():
    found = list(unknown_id(doc(), ("results", 0, "source"), "source", "board", KNOWN, "list it first", "warning"))
    assert [(p.line, p.col, p.field, p.message, p.hint, p.severity) for p in found] == [
        (4, 11, "results[0].source", "unknown source 'board'", "list it first", "warning")
    ]


def test_a_known_id_or_a_value_that_is_not_text_is_not_reported():
    assert list(unknown_id(doc(), ("results", 0, "benchmark"), "benchmark", "quiz", KNOWN, "")) == []
    assert list(unknown_id(doc(), ("results", 0, "benchmark"), "benchmark", 7, KNOWN, "")) == []
    assert list(unknown_id(doc(), ("results", 0, "benchmark"), "benchmark", None, KNOWN, "")) == []


def test_a_suggester_can_stand_in_for_the_close_match():
    def suggest(name, known, fallback):
        return f"{name}: {len(known)} known, {fallback}"

    found = list(unknown_id(doc(), ("results", 0, "benchmark"), "benchmark", "quizz", KNOWN, "x", suggest=suggest))
    assert [p.hint for p in found] == ["quizz: 2 known, x"]


def test_the_metric_hint_lists_the_declared_metrics_or_says_there_is_only_the_primary_one():
    assert metric_hint("hle", ["calibration-error", "accuracy"]) == "hle has metrics: calibration-error, accuracy"
    assert metric_hint("quiz", []) == "quiz has only its primary metric; leave metric out"


def test_the_subset_hint_lists_the_declared_subsets_or_says_there_are_none():
    assert subset_hint("hle", ["text-only"]) == "hle has subsets: text-only"
    assert subset_hint("quiz", []) == "quiz declares no subsets; leave subset out"
