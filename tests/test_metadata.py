"""Model metadata: which value a model gets (model file > source > release > family > organisation rule), where
it came from, and the coverage the boards reach on the repository's real data."""

from __future__ import annotations

from pathlib import Path

from sitegen.data import metadata
from sitegen.build import compute, validate_repo

REPO = Path(__file__).parent.parent


def rule(index, level, match, **values):
    return metadata.Rule(index, 10 + index, tuple(match), level, values, f"rule {index}", f"https://example.org/{index}")


RULES = [
    rule(0, "organization", ["acme/*"], weights="closed", reasoning=False, licence="Proprietary"),
    rule(1, "family", ["acme/widget-*"], weights="open", parameters={"total_b": 7}),
    rule(2, "release", ["acme/widget-2*"], weights="closed"),
    rule(3, "organization", ["acme/*"], context_window=8000),
]


def test_each_level_of_precedence():
    gadget = {"id": "acme/gadget"}  # only the organisation rules match
    values, prov = metadata.resolve(gadget, [], RULES)
    assert (values["weights"], values["reasoning"], values["context_window"]) == ("closed", False, 8000)
    assert prov["weights"] == {"by": "rule", "level": "organization", "source": "rule 0",
                               "url": "https://example.org/0", "origin": "scores/metadata.yaml:10"}
    # A family rule beats the organisation rule; a release rule beats the family rule.
    assert metadata.resolve({"id": "acme/widget-1"}, [], RULES)[0]["weights"] == "open"
    values, prov = metadata.resolve({"id": "acme/widget-2-high"}, [], RULES)
    assert values["weights"] == "closed" and prov["weights"]["level"] == "release"
    assert values["parameters"] == {"total_b": 7} and prov["parameters"]["level"] == "family"
    # A source's per-model value beats every rule; the first source (in the order given) wins.
    values, prov = metadata.resolve({"id": "acme/widget-2-high"},
                                    [("board", {"weights": "open"}), ("paper", {"weights": "closed"})], RULES)
    assert values["weights"] == "open" and prov["weights"] == {"by": "source", "source": "board"}
    # The model file beats sources and rules.
    values, prov = metadata.resolve({"id": "acme/widget-2-high", "weights": "open", "reasoning": True},
                                    [("board", {"weights": "closed"})], RULES)
    assert (values["weights"], values["reasoning"]) == ("open", True) and prov["reasoning"] == {"by": "model"}


def test_unknown_stays_unknown_and_parameters_are_one_block():
    values, prov = metadata.resolve({"id": "other/thing"}, [], RULES)
    assert all(v is None for v in values.values()) and all(p is None for p in prov.values())
    # The model file's total is not completed with a source's active count: one place answers for the block.
    values, prov = metadata.resolve({"id": "other/thing", "parameters": {"total_b": 30}},
                                    [("board", {"parameters": {"total_b": 32, "active_b": 3}})], [])
    assert values["parameters"] == {"total_b": 30} and prov["parameters"] == {"by": "model"}
    assert metadata.label(prov["parameters"], "scores/models/other/thing.yaml") == "scores/models/other/thing.yaml"
    assert metadata.label(None, "x") is None


def test_rule_set_tries_a_model_on_its_organisations_rules_and_the_wildcard_ones():
    rules = RULES + [
        rule(4, "family", ["*/widget-1"], licence="MIT"),  # the organisation is a wildcard: tried on every id
        rule(5, "release", ["acme-labs/widget-1", "acme/widget-1"], reasoning=True),  # two organisations
        rule(6, "release", ["acme"], weights="open"),  # no organisation part: only the id 'acme' itself
        rule(7, "family", ["ac[m]e/*"], parameters={"total_b": 1}),  # a bracket in the organisation
    ]
    rule_set = metadata.RuleSet(rules)
    assert [r.index for r in rule_set.by_org["acme"]] == [0, 1, 2, 3, 5]
    assert [r.index for r in rule_set.by_org["acme-labs"]] == [5]
    assert [r.index for r in rule_set.any_org] == [4, 6, 7]
    expected = {"acme/widget-1": [0, 1, 3, 4, 5, 7], "acme-labs/widget-1": [4, 5], "acme/widget-2b": [0, 1, 2, 3, 7],
                "acme": [6], "other/widget-1": [4], "acmex/widget-1": [4]}
    for model_id, indices in expected.items():
        assert [r.index for r in metadata.matching(rule_set, model_id)] == indices, model_id
        assert [r.index for r in metadata.matching(rules, model_id)] == indices, model_id  # a plain list: every rule
        assert metadata.rule_values(rule_set, model_id) == metadata.rule_values(rules, model_id)


def test_real_data_coverage_of_weights_and_reasoning(capsys):
    """Issue #10's target: weights and reasoning known for >= 95% of the models ranked on the AI IQ, AA and LMArena
    boards. The floors below are what the repository reaches today (weights 96.3%, reasoning 93.6%); they only rise.
    Reasoning rises with the identity branch's effort field, which names each configuration."""
    repo, problems = validate_repo(REPO)
    assert repo is not None, [p.format() for p in problems if p.severity == "error"][:5]
    computed = compute(repo)
    ranked = metadata.ranked_models(computed.boards, computed.benchmark_boards)
    known = metadata.coverage(computed.model_records, ranked)
    weights, reasoning = known["weights"] / known["models"], known["reasoning"] / known["models"]
    with capsys.disabled():
        print(f"\nranked models {len(ranked)}: weights known {weights:.1%}, reasoning known {reasoning:.1%}")
    assert known["models"] == len(ranked) > 600
    assert weights >= 0.95
    assert reasoning >= 0.93


def test_coverage_counts_known_values_and_open_models_with_a_size():
    nan = float("nan")
    records = [
        {"model": "a/x", "weights": "open", "reasoning": True, "licence": "MIT", "total_b": 7.0, "context_window": nan},
        {"model": "a/y", "weights": "open", "reasoning": None, "licence": None, "total_b": nan, "context_window": 8000.0,
         "reasoning_state": "not stated"},
        {"model": "a/z", "weights": None, "reasoning": False, "licence": None, "total_b": nan, "context_window": nan},
    ]
    assert metadata.coverage(records) == {"models": 3, "weights": 2, "reasoning": 2, "reasoning_not_stated": 1,
                                          "licence": 1, "parameters": 1, "context_window": 1, "open_weights": 2,
                                          "open_with_parameters": 1}
    assert metadata.coverage(records, {"a/z"})["models"] == 1
    boards = {"ai-iq": {"rows": [{"model": "a/x", "rank": 1}, {"model": "a/y", "rank": None}]},
              "hle": {"rows": [{"model": "a/z", "rank": 1}]}}
    assert metadata.ranked_models(boards, {"lmarena-text": {"rows": [{"model": "a/z", "rank": 3}]}}) == {"a/x", "a/z"}
    assert metadata.ranked_models(boards, {}) == {"a/x"}  # hle is not one of the coverage boards


def test_reasoning_state_of_each_value():
    assert [metadata.reasoning_state(v) for v in (True, False, "not stated", None)] == [
        "yes", "no", "not stated", "not known"]
    assert metadata.REASONING_STATES == ("yes", "no", "not stated", "not known")


def test_a_not_stated_rule_fills_only_where_everything_else_is_silent():
    rules = [rule(0, "release", ["acme/widget-2*"], reasoning="not stated"),
             rule(1, "organization", ["acme/*"], reasoning=False)]
    values, prov = metadata.resolve({"id": "acme/widget-2"}, [], rules)
    assert values["reasoning"] == "not stated" and prov["reasoning"]["level"] == "release"  # the more specific rule
    values, prov = metadata.resolve({"id": "acme/widget-2"}, [("board", {"reasoning": True})], rules)
    assert values["reasoning"] is True and prov["reasoning"] == {"by": "source", "source": "board"}
