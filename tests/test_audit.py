"""`sitegen aliases audit`: each kind of mistake is found, a reviewed pair silences it, the repository is clean."""

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.cli.imports import aliases_group
from sitegen.data import lookalike
from sitegen.data.registry import Registry
from sitegen.importers import audit

ROOT = Path(__file__).resolve().parents[1]


def m(mid, release, **extra):
    return mid, {"id": mid, "name": mid, "release": release, **extra}


def kinds(models, distinct=(), unresolved=()):
    found = audit.audit(dict(models), {frozenset(p) for p in distinct}, set(unresolved))
    return sorted((f.kind, f.models) for f in found)


@pytest.mark.parametrize("a, b", [
    ("claude-opus-4-7-high", "claude-opus-4.7-high"),      # separators: 4-7 vs 4.7
    ("qwen-qwen3-32b", "qwen3-32b"),                       # an organisation prefix copied from Hugging Face
    ("openai-gpt-oss-120b-high", "gpt-oss-120b-high"),
    ("gpt-5-2025-08-07", "gpt-5"),                         # a date
    ("claude-3-7-sonnet-20250219-32k", "claude-3.7-sonnet"),  # a date and a thinking budget
    ("claude-4-opus-reasoning", "claude-opus-4-thinking-16k"),  # word order, effort words
    ("fireworks-kimi-k2p5", "kimi-k2.5"),                  # provider prefix and 'p' for '.'
    ("amazon.nova-premier-v1-0", "nova-premier"),          # a Bedrock prefix and a first version '-v1-0'
    ("fireworks-deepseek-v3p2", "deepseek-v3.2"),
    ("gemini-2.0-pro-exp-02-05", "gemini-2.0-pro-experimental-feb-25"),  # '-exp' and two spellings of a date
    ("grok-3-mini-beta", "grok-3-mini-low"),               # '-beta' and an effort
    ("molmo-7b-d-0924", "molmo-7b-d"),                     # a four-digit date (September 2024)
    ("ernie-5.0-preview-1103", "ernie-5.0-thinking-preview"),
    ("llama-3.3-nemotron-49b-super-v1", "llama-3.3-nemotron-super-49b-v1-non-reasoning"),  # word order, 'v1'
    ("Kimi K2.5 (Reasoning)", "kimi-k2.5-reasoning"),      # a display name folds like an id
])
def test_fold_treats_spellings_of_one_model_alike(a, b):
    assert audit.fold(a) == audit.fold(b)


@pytest.mark.parametrize("a, b", [("gpt-5", "gpt-5.1"), ("qwen3-8b", "qwen3-32b"), ("claude-opus-4", "claude-sonnet-4"),
                                  ("o3", "o3-mini"),
                                  ("deepseek-r1-1776", "deepseek-r1"),  # 1776 is a name, not a date
                                  ("magistral-medium-1", "magistral-medium-1.2"),
                                  ("llama-nemotron-super-49b-v1.5", "llama-nemotron-super-49b-v1"),  # v1.5 is kept
                                  ("claude-3-5-sonnet", "claude-3-sonnet")])  # '3-5' is a version, not a date
def test_fold_keeps_different_models_apart(a, b):
    assert audit.fold(a) != audit.fold(b)


def test_near_duplicate_ids_in_two_releases():
    models = [m("openai/gpt-oss-120b-high", "openai/gpt-oss-120b", effort="high"),
              m("openai/openai-gpt-oss-120b-high", "openai/openai-gpt-oss-120b", effort="high")]
    assert kinds(models) == [("near-duplicate", ("openai/gpt-oss-120b-high", "openai/openai-gpt-oss-120b-high"))]
    # reviewed as distinct, by models or by releases: silent
    assert kinds(models, [("openai/gpt-oss-120b-high", "openai/openai-gpt-oss-120b-high")]) == []
    assert kinds(models, [("openai/gpt-oss-120b", "openai/openai-gpt-oss-120b")]) == []


def test_a_release_spread_over_ids():
    models = [m("anthropic/claude-4.7-high", "anthropic/claude-opus-4.7", effort="high"),
              m("anthropic/claude-opus-4.7-max", "anthropic/claude-opus-4.7", effort="max")]
    assert kinds(models) == [("spread", ("anthropic/claude-4.7-high", "anthropic/claude-opus-4.7-max"))]


def test_a_bare_name_next_to_its_configurations():
    models = [m("google/gemini-3-pro", "google/gemini-3-pro"),
              m("google/gemini-3-pro-high", "google/gemini-3-pro", effort="high"),
              m("google/gemini-3-pro-low", "google/gemini-3-pro", effort="low")]
    assert kinds(models) == [("bare", ("google/gemini-3-pro", "google/gemini-3-pro-high", "google/gemini-3-pro-low"))]
    assert kinds(models, unresolved=["google/gemini-3-pro"]) == []
    # knowing the mode makes it not bare; beside stated efforts it is then a reasoning configuration whose effort
    # is unstated (which one is it?), until reviewed as unresolved
    models[0][1]["reasoning"] = True
    assert kinds(models) == [("effort-unstated", ("google/gemini-3-pro", "google/gemini-3-pro-high",
                                                  "google/gemini-3-pro-low"))]
    assert kinds(models, unresolved=["google/gemini-3-pro"]) == []


def test_an_unreviewed_alias_until_the_mark_is_removed():
    models = [m("acme/widget", "acme/widget", unreviewed=True)]
    assert kinds(models) == [("unreviewed", ("acme/widget",))]
    del models[0][1]["unreviewed"]
    assert kinds(models) == []


def test_suggest_marks_and_apply_carries_the_mark(tmp_path):
    from sitegen.importers import aliases
    from sitegen.importers.extracts import Extract

    ex = Extract("board", "2025-01-01", [])
    ex.result("Gizmo 2 (high)", "quiz", 1)
    ex.hint("Gizmo 2 (high)", "Acme")
    proposals = aliases.suggest(ex, Registry.build({}), [])
    assert proposals[0]["unreviewed"] is True and proposals[0]["new"]["id"] == "acme/gizmo-2-high"
    (tmp_path / "scores" / "models").mkdir(parents=True)
    aliases.apply(tmp_path, proposals)
    data = yaml.safe_load((tmp_path / "scores/models/acme/gizmo-2-high.yaml").read_text())
    assert data["unreviewed"] is True and data["release"] == "acme/gizmo-2" and data["effort"] == "high"


def test_the_repository_passes_the_audit():
    result = CliRunner().invoke(aliases_group, ["audit", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "0 findings"



@pytest.mark.parametrize("slug, expected", [
    ("gemini-2.5-flash-preview-04-17", [(4, 17)]), ("gemini-2.5-pro-preview-mar-25", [(3, None)]),
    ("gpt-5-2025-08-07", [(8, 7)]), ("mistral-large-2407", [(7, None)]), ("ernie-5.0-preview-1103", [(11, 3)]),
    ("command-r-08-2024", [(8, None)]), ("claude-3-5-sonnet", []), ("deepseek-r1-1776", []), ("qwen3-32b", []),
])
def test_dates_an_id_carries(slug, expected):
    assert lookalike.dates(slug) == expected


@pytest.mark.parametrize("a, b, apart", [
    ("gemini-2.5-flash-preview-04-17", "gemini-2.5-flash-preview-05-20", True),   # two months
    ("amazon-nova-experimental-chat-10-09", "amazon-nova-experimental-chat-10-20", True),  # one month, two days
    ("gemini-2.5-pro-exp-03-25", "gemini-2.5-pro-preview-mar-25", False),        # one month spelled two ways
    ("molmo-7b-d-0924", "molmo-7b-d", False),                                    # one side undated: compare
    ("gpt-4", "gpt-4-turbo", False),
])
def test_different_checkpoints(a, b, apart):
    assert lookalike.different_checkpoints(a, b) is apart


@pytest.mark.parametrize("a, b, close", [
    ("acme/widget-7b-instruct", "acme/widget-7b-instrcut", True),   # two neighbours swapped: one edit
    ("acme/widget-7b-instruct", "acme/widget-7b-instuct", True),    # a letter left out
    ("acme/widget-7b-instruct", "acme/widget-7b-instructx2", True),  # two added
    ("acme/widget-7b-instruct", "acme/widget-7b-instructxyz", False),  # three added
    ("acme/widget-7b", "acme/widget-8c", True), ("acme/widget-7b", "acme/gizmo-7b", False),
    ("", "ab", True), ("", "abc", False), ("same", "same", True),
])
def test_within_two_edits(a, b, close):
    assert lookalike.within(a, b) is close
    assert lookalike.within(b, a) is close


def test_near_duplicates_across_organisations():
    # Llama 3.3 Nemotron Super 49B entered once under Meta (LMArena) and once under NVIDIA (AA)
    models = [m("meta/llama-3.3-nemotron-49b-super-v1", "meta/llama-3.3-nemotron-49b-super-v1"),
              m("nvidia/llama-3.3-nemotron-super-49b-v1-reasoning", "nvidia/llama-3.3-nemotron-super-49b-v1",
                reasoning=True)]
    found = audit.audit(dict(models), set())
    assert [(f.kind, f.models) for f in found] == [
        ("near-duplicate", ("meta/llama-3.3-nemotron-49b-super-v1", "nvidia/llama-3.3-nemotron-super-49b-v1-reasoning"))]
    assert "in two organisations" in found[0].message
    assert kinds(models, [("meta/llama-3.3-nemotron-49b-super-v1", "nvidia/llama-3.3-nemotron-super-49b-v1")]) == []


@pytest.mark.parametrize("a, b", [
    ("amazon/amazon.nova-premier-v1-0", "amazon/nova-premier"),
    ("google/gemini-2.0-pro-exp-02-05", "google/gemini-2.0-pro-experimental-feb-25"),
    ("xai/grok-3-mini-beta", "xai/grok-3-mini-low"),
    ("ai2/molmo-7b-d", "ai2/molmo-7b-d-0924"),
])
def test_the_splits_of_issue_26_are_seen(a, b):
    assert kinds([m(a, a), m(b, b)]) == [("near-duplicate", (a, b))]


def test_dated_checkpoints_of_one_line_are_not_look_alikes():
    models = [m("google/gemini-2.5-flash-preview-04-17", "google/gemini-2.5-flash-preview-04-17"),
              m("google/gemini-2.5-flash-preview-05-20", "google/gemini-2.5-flash-preview-05-20"),
              m("google/gemini-2.5-flash-preview", "google/gemini-2.5-flash-preview")]
    # 04-17 and 05-20 are two checkpoints; the undated id could be either, so it is compared with both
    assert kinds(models) == [
        ("near-duplicate", ("google/gemini-2.5-flash-preview", "google/gemini-2.5-flash-preview-04-17")),
        ("near-duplicate", ("google/gemini-2.5-flash-preview", "google/gemini-2.5-flash-preview-05-20"))]


def test_a_reasoning_configuration_without_effort_beside_stated_efforts():
    models = [m("xai/grok-3-mini-beta", "xai/grok-3-mini", reasoning=True),
              m("xai/grok-3-mini-low", "xai/grok-3-mini", effort="low"),
              m("xai/grok-3-mini-high", "xai/grok-3-mini", effort="high")]
    assert kinds(models) == [("effort-unstated", ("xai/grok-3-mini-beta", "xai/grok-3-mini-high", "xai/grok-3-mini-low"))]
    assert kinds(models, unresolved=["xai/grok-3-mini-beta"]) == []
    assert kinds(models, distinct=[("xai/grok-3-mini-beta", "xai/grok-3-mini-low"),
                                   ("xai/grok-3-mini-beta", "xai/grok-3-mini-high")]) == []


def test_reasoning_without_effort_beside_only_non_reasoning_is_not_a_finding():
    # AA's '(Reasoning)' beside '(Non-reasoning)': two modes, no effort to choose between
    models = [m("kimi/kimi-k2.5-reasoning", "kimi/kimi-k2.5", reasoning=True),
              m("kimi/kimi-k2.5-non-reasoning", "kimi/kimi-k2.5", effort="none")]
    assert kinds(models) == []


def test_one_unstated_configuration_entered_twice():
    models = [m("deepseek/deepseek-v3.2", "deepseek/deepseek-v3.2"),
              m("deepseek/fireworks-deepseek-v3p2", "deepseek/deepseek-v3.2")]
    # both bare and reviewed as unresolved: still one configuration twice
    assert kinds(models, unresolved=["deepseek/deepseek-v3.2", "deepseek/fireworks-deepseek-v3p2"]) == [
        ("twice", ("deepseek/deepseek-v3.2", "deepseek/fireworks-deepseek-v3p2"))]
    both_reasoning = [m("acme/gizmo-thinking", "acme/gizmo", reasoning=True), m("acme/gizmo-reasoning", "acme/gizmo", reasoning=True)]
    assert kinds(both_reasoning) == [("twice", ("acme/gizmo-reasoning", "acme/gizmo-thinking"))]
    assert kinds(both_reasoning, distinct=[("acme/gizmo-reasoning", "acme/gizmo-thinking")]) == []
    # a stated effort each is validate's configurations_unique, not this
    assert kinds([m("acme/gizmo-high", "acme/gizmo", effort="high"), m("acme/gizmo-low", "acme/gizmo", effort="low")]) == []


def test_a_mistyped_id_with_the_same_name():
    models = [("acme/widget-7b-instruct", {"id": "acme/widget-7b-instruct", "name": "Widget 7B Instruct",
                                           "release": "acme/widget-7b-instruct"}),
              ("acme/widget-7b-instrcut", {"id": "acme/widget-7b-instrcut", "name": "Widget 7B Instruct",
                                           "release": "acme/widget-7b-instrcut"})]
    assert ("typo", ("acme/widget-7b-instrcut", "acme/widget-7b-instruct")) in kinds(models)
    # another name, or reviewed as distinct: no typo finding
    renamed = [models[0], (models[1][0], dict(models[1][1], name="Widget 7B Instrcut"))]
    assert "typo" not in [k for k, _ in kinds(renamed)]
    assert lookalike.typo_pairs(dict(models), {frozenset(("acme/widget-7b-instruct", "acme/widget-7b-instrcut"))}) == []
    # one name, ids three edits apart: not a typo
    far = [models[0], ("acme/widget-7b-chat-v", {"id": "acme/widget-7b-chat-v", "name": "Widget 7B Instruct"})]
    assert lookalike.typo_pairs(dict(far)) == []


def test_a_mode_unknown_model_ranked_beside_a_known_sibling():
    models = dict([m("kimi/fireworks-kimi-k2p5", "kimi/kimi-k2.5"),
                   m("kimi/kimi-k2.5-reasoning", "kimi/kimi-k2.5", reasoning=True),
                   m("kimi/kimi-k2.5-non-reasoning", "kimi/kimi-k2.5", effort="none")])
    unresolved = {"kimi/fireworks-kimi-k2p5"}
    ranked = {"kimi/fireworks-kimi-k2p5": {"gpqa-diamond", "frontiermath-tier-4"},
              "kimi/kimi-k2.5-reasoning": {"gpqa-diamond", "hle"}, "kimi/kimi-k2.5-non-reasoning": {"hle"}}
    found = [(f.kind, f.models) for f in audit.audit(models, set(), unresolved, ranked)]
    assert found == [("ranked-bare", ("kimi/fireworks-kimi-k2p5", "kimi/kimi-k2.5-reasoning"))]
    # its results excluded (not on the boards), or no benchmark in common, or ranking not known: no finding
    assert audit.audit(models, set(), unresolved, {k: v for k, v in ranked.items() if k != "kimi/fireworks-kimi-k2p5"}) == []
    assert audit.audit(models, set(), unresolved, dict(ranked, **{"kimi/fireworks-kimi-k2p5": {"frontiermath-tier-4"}})) == []
    assert audit.audit(models, set(), unresolved, None) == []


def test_ranked_models_leaves_out_excluded_results(tmp_path):
    (tmp_path / "scores" / "imported").mkdir(parents=True)
    (tmp_path / "scores" / "imported" / "board.yaml").write_text(yaml.safe_dump({"source": "board", "results": [
        {"model": "acme/a", "benchmark": "quiz", "value": 1}, {"model": "acme/a", "benchmark": "exam", "value": 2},
        {"model": "acme/b", "benchmark": "quiz", "value": 3, "harness": "agent"}]}))
    (tmp_path / "scores" / "overrides.yaml").write_text(yaml.safe_dump({"overrides": [
        {"model": "acme/a", "benchmark": "exam", "source": "board", "exclude": True, "reason": "r"},
        {"model": "acme/b", "benchmark": "quiz", "source": "board", "harness": "agent", "exclude": True, "reason": "r"}]}))
    models = {"acme/c": {"results": [{"benchmark": "essay", "value": 1}]}}
    assert audit.ranked_models(tmp_path, models) == {"acme/a": {"quiz"}, "acme/c": {"essay"}}


def test_the_audit_is_linear_in_the_registry():
    # 20,000 ids in distinct buckets: no comparison over all pairs (that would be 200 million); the numbers carry a
    # letter so that none reads as a date ('model-1103' folds like 'model')
    models = {f"org{i % 50}/model-{i}x": {"name": f"Model {i}x", "release": f"org{i % 50}/model-{i}x"}
              for i in range(20000)}
    import time
    # the process's own CPU time, not the wall clock: other work on a busy machine does not count (~1.2 s here;
    # all pairs would take minutes)
    start = time.process_time()
    assert audit.audit(models, set()) == []
    assert time.process_time() - start < 10


def test_display_names_that_fold_alike():
    # ids that share nothing, display names that differ only by a first version: one model entered twice
    models = [("acme/gizmo-pro", {"id": "acme/gizmo-pro", "name": "Gizmo Pro", "release": "acme/gizmo-pro"}),
              ("acme/gp-1", {"id": "acme/gp-1", "name": "Gizmo Pro v1.0", "release": "acme/gp-1"})]
    found = audit.audit(dict(models), set())
    assert [(f.kind, f.models) for f in found] == [("near-duplicate", ("acme/gizmo-pro", "acme/gp-1"))]
    assert found[0].message.startswith("names fold to 'gizmo-pro'")
    # ids and names both alike: one finding, not two
    both = [m("amazon/amazon.nova-premier-v1-0", "amazon/amazon.nova-premier-v1-0"), m("amazon/nova-premier", "amazon/nova-premier")]
    both[0][1]["name"], both[1][1]["name"] = "Amazon Nova Premier v1.0", "Nova Premier"
    assert kinds(both) == [("near-duplicate", ("amazon/amazon.nova-premier-v1-0", "amazon/nova-premier"))]
