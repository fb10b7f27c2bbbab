"""The vendor-defaults table (scores/identity.yaml vendor_defaults rules, source_defaults) applied the same way at
every source: one test per rule, each on a small hand-made registry and the bare names the sources write
(as the importers' extracts carry them), resolved through importers.extracts.resolve like every importer."""

from pathlib import Path

import pytest
import yaml

from sitegen.importers import audit, defaults
from sitegen.importers.extracts import Extract, resolve
from sitegen.data.registry import Registry

ROOT = Path(__file__).resolve().parents[1]
IDENTITY = yaml.safe_load((ROOT / "scores" / "identity.yaml").read_text(encoding="utf-8"))
RULES = defaults.rules(IDENTITY)


def model(mid, release, aliases=(), source_aliases=(), **fields):
    data = {"id": mid, "name": mid.split("/", 1)[1], "release": release, **fields}
    if aliases:
        data["aliases"] = list(aliases)
    if source_aliases:
        data["source_aliases"] = [{"source": s, "name": n} for s, n in source_aliases]
    return mid, data


def attribute(models, rows):
    """{(source, name): model id or None} for [(source, name), ...], each source resolved as its importer does."""
    registry = Registry.build(dict(models))
    out = {}
    for source in sorted({s for s, _ in rows}):
        ex = Extract(source, "2026-01-01", [])
        for s, name in rows:
            if s == source:
                ex.result(name, "bench", 1)
        mapping = {r["model"] for r in resolve(ex, registry, []).doc["results"]}
        for s, name in rows:
            if s == source:
                hits = registry.match(name, source)
                out[(source, name)] = hits[0] if len(hits) == 1 and hits[0] in mapping else None
    return out


def findings(models, identity=IDENTITY):
    return [(f.kind, f.models) for f in audit.alias_default_findings(dict(models), identity)]


# --------------------------------------------------------------------------- bare names and configurations


@pytest.mark.parametrize("name", ["o3", "o4-mini-2025-04-16", "GPT-OSS-120B", "gemini-2.5-flash", "Gemini-2.5 Flash",
                                  "claude-fable-5", "Qwen/Qwen3-32B", "grok-4.1", "GLM 4.6", "deepseek-v3.1-terminus"])
def test_bare_names(name):
    assert defaults.is_bare(name)


@pytest.mark.parametrize("name", ["o3 (high)", "gpt-oss-120b_high", "o4-mini-2025-04-16-medium", "grok-4.1-thinking",
                                  "Claude 3.7 Sonnet (Thinking 16K)", "claude-opus-4-1-20250805-16k", "Qwen3 32B (Reasoning)",
                                  "gpt-5.1-2025-11-13_none", "deepseek-v3.2-reasoner", "DeepSeek V4 Pro (mode not stated)",
                                  "Claude Opus 4.8 (Adaptive Reasoning, Max Effort)", "claude-3-7-sonnet-20250219_unknown"])
def test_names_that_state_a_configuration(name):
    assert not defaults.is_bare(name)


def test_what_a_bare_name_would_pin():
    non = {"effort": "none"}
    assert defaults.claims({"effort": "medium"}, [non]) == "medium"
    assert defaults.claims({"effort": {"budget_tokens": 16384}}, [non]) == "budget"
    assert defaults.claims({"reasoning": False}, [{"reasoning": True}]) == "none"
    assert defaults.claims({"reasoning": True}, [non]) == "reasoning"
    # reasoning on next to other reasoning configurations only: the mode tells nothing apart
    assert defaults.claims({"reasoning": True}, [{"effort": "high"}]) is None
    assert defaults.claims({}, [non]) is None
    # alone in its release: only an effort other than none is pinned
    assert defaults.claims({"effort": "xhigh"}, []) == "xhigh"
    assert defaults.claims({"effort": "none"}, []) is None
    assert defaults.claims({"reasoning": True}, []) is None


def test_a_source_rule_wins_at_its_source_only():
    table = defaults.rules({
        "vendor_defaults": [{"vendor": "Acme", "means": "m", "url": "https://acme.test",
                             "rules": [{"releases": ["acme/gizmo"], "bare": {"reasoning": True}}]}],
        "source_defaults": [{"source": "arena", "releases": ["acme/gizmo"], "bare": {"effort": "none"},
                             "rule": "r", "evidence": "e"}]})
    assert defaults.rule_for(table, "acme/gizmo").configuration == "reasoning"
    assert defaults.rule_for(table, "acme/gizmo", "epoch").configuration == "reasoning"
    assert defaults.rule_for(table, "acme/gizmo", "arena").configuration == "none"
    assert defaults.rule_for(table, "acme/other", "arena") is None


# --------------------------------------------------------------------------- one test per vendor rule


def rule(release, source=None):
    found = defaults.rule_for(RULES, release, source)
    return found.configuration if found else None


def test_openai_o_series_and_gpt5_bare_is_medium():
    assert {rule(r) for r in ("openai/o1", "openai/o1-mini", "openai/o1-pro", "openai/o3", "openai/o3-mini",
                              "openai/o3-pro", "openai/o4-mini",
                              "openai/gpt-5", "openai/gpt-5-mini", "openai/gpt-5-nano")} == {"medium"}
    models = [model("openai/o4-mini-low", "openai/o4-mini", effort="low", aliases=["o4-mini-2025-04-16_low"]),
              model("openai/o4-mini-medium", "openai/o4-mini", effort="medium",
                    aliases=["o4-mini", "o4-mini-2025-04-16", "o4-mini-20250416", "o4-mini-2025-04-16_medium"]),
              model("openai/o4-mini-high", "openai/o4-mini", effort="high", aliases=["o4-mini (high)"]),
              model("openai/o3-medium", "openai/o3", effort="medium", aliases=["o3", "o3-2025-04-16", "o3-20250416"]),
              model("openai/o3-high", "openai/o3", effort="high")]
    rows = [("eq-bench", "o4-mini"), ("swe-bench", "o4-mini"), ("swe-bench", "o4-mini-20250416"),
            ("lmarena", "o4-mini-2025-04-16"), ("pedagogy-models", "o4-mini-2025-04-16"), ("critpt", "o4-mini (high)"),
            ("epoch", "o4-mini-2025-04-16_medium"), ("aa-leaderboard-2025-08", "o3"), ("lmarena", "o3-2025-04-16"),
            ("swe-bench", "o3-20250416")]
    assert attribute(models, rows) == {
        ("eq-bench", "o4-mini"): "openai/o4-mini-medium", ("swe-bench", "o4-mini"): "openai/o4-mini-medium",
        ("swe-bench", "o4-mini-20250416"): "openai/o4-mini-medium",
        ("lmarena", "o4-mini-2025-04-16"): "openai/o4-mini-medium",
        ("pedagogy-models", "o4-mini-2025-04-16"): "openai/o4-mini-medium",
        ("critpt", "o4-mini (high)"): "openai/o4-mini-high",
        ("epoch", "o4-mini-2025-04-16_medium"): "openai/o4-mini-medium",
        ("aa-leaderboard-2025-08", "o3"): "openai/o3-medium", ("lmarena", "o3-2025-04-16"): "openai/o3-medium",
        ("swe-bench", "o3-20250416"): "openai/o3-medium"}
    assert findings(models) == []
    # the bare name on the high configuration contradicts the default
    moved = [model("openai/o4-mini-high", "openai/o4-mini", effort="high", aliases=["o4-mini"]),
             model("openai/o4-mini-medium", "openai/o4-mini", effort="medium")]
    assert findings(moved) == [("alias-default", ("openai/o4-mini-high",))]


def test_openai_gpt51_and_later_bare_is_none():
    assert {rule(r) for r in ("openai/gpt-5.1", "openai/gpt-5.2", "openai/gpt-5.4", "openai/gpt-5.5")} == {"none"}
    models = [model("openai/gpt-5.1-non-reasoning", "openai/gpt-5.1", effort="none",
                    aliases=["gpt-5.1", "gpt-5.1-2025-11-13_none"],
                    source_aliases=[("eq-bench", "gpt-5.1-2025-11-13")]),
              model("openai/gpt-5.1-thinking-medium", "openai/gpt-5.1", effort="medium",
                    source_aliases=[("swe-bench", "gpt-5.1-2025-11-13")])]
    rows = [("lmarena", "gpt-5.1"), ("epoch", "gpt-5.1-2025-11-13_none"), ("eq-bench", "gpt-5.1-2025-11-13"),
            ("swe-bench", "gpt-5.1-2025-11-13"), ("critpt", "gpt-5.1-2025-11-13")]
    assert attribute(models, rows) == {
        ("lmarena", "gpt-5.1"): "openai/gpt-5.1-non-reasoning",
        ("epoch", "gpt-5.1-2025-11-13_none"): "openai/gpt-5.1-non-reasoning",
        ("eq-bench", "gpt-5.1-2025-11-13"): "openai/gpt-5.1-non-reasoning",
        # SWE-bench's row names '(medium reasoning)': the source identifies it, scoped there only
        ("swe-bench", "gpt-5.1-2025-11-13"): "openai/gpt-5.1-thinking-medium",
        ("critpt", "gpt-5.1-2025-11-13"): None}
    assert findings(models) == []


def test_openai_gpt5_pro_bare_is_high():
    assert rule("openai/gpt-5-pro") == "high"
    models = [model("openai/gpt-5-pro", "openai/gpt-5-pro", effort="high", aliases=["gpt-5-pro-2025-10-06"])]
    assert attribute(models, [("arc-prize", "gpt-5-pro-2025-10-06")]) == {
        ("arc-prize", "gpt-5-pro-2025-10-06"): "openai/gpt-5-pro"}
    assert findings(models) == []
    # the display name is a global name too: both it and the alias are reported
    assert findings([model("openai/gpt-5-pro", "openai/gpt-5-pro", effort="medium", aliases=["gpt-5-pro"])]) == [
        ("alias-default", ("openai/gpt-5-pro",))] * 2


def test_openai_models_outside_the_table_keep_bare_names_at_the_source_that_identifies_them():
    """gpt-oss and GPT-5.x Codex are not in the table: AA's token scrape's slug pins '(high)' / '(xhigh)' at AA
    only; Epoch's, LMArena's and SWE-bench's bare names land nowhere (ignored with the reason)."""
    assert rule("openai/gpt-oss-120b") is None and rule("openai/gpt-5.3-codex") is None
    models = [model("openai/gpt-oss-120b-high", "openai/gpt-oss-120b", effort="high",
                    aliases=["openai/gpt-oss-120b_high"], source_aliases=[("aa-tokens-2026-07", "GPT-OSS-120B")]),
              model("openai/gpt-oss-120b-low", "openai/gpt-oss-120b", effort="low"),
              model("openai/gpt-5.3-codex-xhigh", "openai/gpt-5.3-codex", effort="xhigh",
                    source_aliases=[("aa-tokens-2026-07", "GPT-5.3 Codex")]),
              model("openai/gpt-5.3-codex-high", "openai/gpt-5.3-codex", effort="high", aliases=["gpt-5.3-codex_high"])]
    rows = [("aa-tokens-2026-07", "GPT-OSS-120B"), ("epoch", "gpt-oss-120b"), ("lmarena", "gpt-oss-120b"),
            ("swe-bench", "gpt-oss-120b"), ("epoch", "openai/gpt-oss-120b_high"), ("aa-tokens-2026-07", "GPT-5.3 Codex"),
            ("epoch", "gpt-5.3-codex"), ("epoch", "gpt-5.3-codex_high")]
    assert attribute(models, rows) == {
        ("aa-tokens-2026-07", "GPT-OSS-120B"): "openai/gpt-oss-120b-high", ("epoch", "gpt-oss-120b"): None,
        ("lmarena", "gpt-oss-120b"): None, ("swe-bench", "gpt-oss-120b"): None,
        ("epoch", "openai/gpt-oss-120b_high"): "openai/gpt-oss-120b-high",
        ("aa-tokens-2026-07", "GPT-5.3 Codex"): "openai/gpt-5.3-codex-xhigh", ("epoch", "gpt-5.3-codex"): None,
        ("epoch", "gpt-5.3-codex_high"): "openai/gpt-5.3-codex-high"}
    assert findings(models) == []
    # as a global alias the same name would carry Epoch's and LMArena's bare rows to '(high)': reported
    leak = [model("openai/gpt-oss-120b-high", "openai/gpt-oss-120b", effort="high", aliases=["GPT-OSS-120B"]),
            model("openai/gpt-oss-120b-low", "openai/gpt-oss-120b", effort="low")]
    assert findings(leak) == [("alias-default", ("openai/gpt-oss-120b-high",))]


def test_anthropic_bare_claude_is_thinking_off():
    assert rule("anthropic/claude-opus-4") == rule("anthropic/claude-opus-4.6") == "none"
    assert rule("anthropic/claude-opus-4.8") is None  # not in the table: no documented default for it here
    models = [model("anthropic/claude-4-opus-non-reasoning", "anthropic/claude-opus-4", effort="none",
                    aliases=["Claude 4 Opus", "claude-opus-4", "claude-opus-4-20250514", "claude-4-opus-20250514"]),
              model("anthropic/claude-4-opus-reasoning", "anthropic/claude-opus-4", reasoning=True,
                    aliases=["Claude 4 Opus Thinking"]),
              model("anthropic/claude-opus-4-thinking-16k", "anthropic/claude-opus-4", effort={"budget_tokens": 16384},
                    aliases=["claude-opus-4-20250514-thinking-16k"]),
              model("anthropic/claude-opus-4.8-max", "anthropic/claude-opus-4.8", effort="max",
                    source_aliases=[("aa-tokens-2026-07", "Claude Opus 4.8")]),
              model("anthropic/claude-opus-4.8-high", "anthropic/claude-opus-4.8", effort="high")]
    rows = [("aa-leaderboard-2025-08", "Claude 4 Opus"), ("aa-leaderboard-2025-08", "Claude 4 Opus Thinking"),
            ("eq-bench", "claude-opus-4"), ("epoch", "claude-opus-4-20250514"), ("lmarena", "claude-opus-4-20250514"),
            ("lmarena", "claude-opus-4-20250514-thinking-16k"), ("swe-bench", "claude-4-opus-20250514"),
            ("aa-tokens-2026-07", "Claude Opus 4.8"), ("eq-bench", "Claude Opus 4.8")]
    got = attribute(models, rows)
    assert {k for k, v in got.items() if v == "anthropic/claude-4-opus-non-reasoning"} == {
        ("aa-leaderboard-2025-08", "Claude 4 Opus"), ("eq-bench", "claude-opus-4"), ("epoch", "claude-opus-4-20250514"),
        ("lmarena", "claude-opus-4-20250514"), ("swe-bench", "claude-4-opus-20250514")}
    assert got[("aa-leaderboard-2025-08", "Claude 4 Opus Thinking")] == "anthropic/claude-4-opus-reasoning"
    assert got[("lmarena", "claude-opus-4-20250514-thinking-16k")] == "anthropic/claude-opus-4-thinking-16k"
    assert got[("aa-tokens-2026-07", "Claude Opus 4.8")] == "anthropic/claude-opus-4.8-max"
    assert got[("eq-bench", "Claude Opus 4.8")] is None
    assert findings(models) == []
    assert findings([model("anthropic/claude-opus-4.8-max", "anthropic/claude-opus-4.8", effort="max",
                           aliases=["Claude Opus 4.8"]),
                     model("anthropic/claude-opus-4.8-high", "anthropic/claude-opus-4.8", effort="high")]) == [
        ("alias-default", ("anthropic/claude-opus-4.8-max",))]


def test_google_gemini_3_bare_is_high():
    assert rule("google/gemini-3-pro-preview") == rule("google/gemini-3-flash-preview") == "high"
    assert rule("google/gemini-3.5-flash") is None
    models = [model("google/gemini-3-pro-preview-high", "google/gemini-3-pro-preview", effort="high",
                    aliases=["gemini-3-pro", "Gemini-3 Pro", "gemini-3-pro-preview"]),
              model("google/gemini-3-pro-preview-low", "google/gemini-3-pro-preview", effort="low")]
    rows = [("lmarena", "gemini-3-pro"), ("critpt", "Gemini-3 Pro"), ("epoch", "gemini-3-pro-preview"),
            ("arc-prize", "gemini-3-pro-preview"), ("eq-bench", "gemini-3-pro-preview")]
    assert set(attribute(models, rows).values()) == {"google/gemini-3-pro-preview-high"}
    assert findings(models) == []


def test_google_gemini_25_bare_is_reasoning_at_every_source():
    """Epoch, LMArena, CritPt and SWE-bench write bare 'Gemini 2.5 Flash': all land on the reasoning entry;
    AA's 2025-08 scrape's bare name (beside its '(Reasoning)' row) is AA's non-reasoning entry, scoped there."""
    assert rule("google/gemini-2.5-flash") == rule("google/gemini-2.5-pro") == "reasoning"
    models = [model("google/gemini-2.5-flash-reasoning", "google/gemini-2.5-flash", reasoning=True,
                    aliases=["Gemini 2.5 Flash (Reasoning)", "gemini-2.5-flash", "Gemini-2.5 Flash"]),
              model("google/gemini-2.5-flash-non-reasoning", "google/gemini-2.5-flash", effort="none",
                    source_aliases=[("aa-leaderboard-2025-08", "Gemini 2.5 Flash")])]
    rows = [("epoch", "gemini-2.5-flash"), ("lmarena", "gemini-2.5-flash"), ("critpt", "Gemini-2.5 Flash"),
            ("swe-bench", "gemini-2.5-flash"), ("aa-leaderboard-2025-08", "Gemini 2.5 Flash"),
            ("aa-leaderboard-2025-08", "Gemini 2.5 Flash (Reasoning)")]
    assert attribute(models, rows) == {
        ("epoch", "gemini-2.5-flash"): "google/gemini-2.5-flash-reasoning",
        ("lmarena", "gemini-2.5-flash"): "google/gemini-2.5-flash-reasoning",
        ("critpt", "Gemini-2.5 Flash"): "google/gemini-2.5-flash-reasoning",
        ("swe-bench", "gemini-2.5-flash"): "google/gemini-2.5-flash-reasoning",
        ("aa-leaderboard-2025-08", "Gemini 2.5 Flash"): "google/gemini-2.5-flash-non-reasoning",
        ("aa-leaderboard-2025-08", "Gemini 2.5 Flash (Reasoning)"): "google/gemini-2.5-flash-reasoning"}
    assert findings(models) == []
    before = [model("google/gemini-2.5-flash-non-reasoning", "google/gemini-2.5-flash", effort="none",
                    aliases=["gemini-2.5-flash"]),
              model("google/gemini-2.5-flash-reasoning", "google/gemini-2.5-flash", reasoning=True)]
    assert findings(before) == [("alias-default", ("google/gemini-2.5-flash-non-reasoning",))]


def test_qwen3_bare_is_reasoning():
    assert rule("alibaba/qwen3-32b") == rule("alibaba/qwen3-235b-a22b") == "reasoning"
    models = [model("alibaba/qwen3-32b-reasoning", "alibaba/qwen3-32b", reasoning=True,
                    aliases=["qwen3-32b", "Qwen/Qwen3-32B", "qwen-3-32b"]),
              model("alibaba/qwen3-32b-non-reasoning", "alibaba/qwen3-32b", effort="none",
                    source_aliases=[("aa-leaderboard-2025-08", "Qwen3 32B")])]
    rows = [("lmarena", "qwen3-32b"), ("epoch", "Qwen3-32B"), ("eq-bench", "Qwen/Qwen3-32B"),
            ("pedagogy-models", "qwen-3-32b"), ("aa-leaderboard-2025-08", "Qwen3 32B"), ("critpt", "Qwen3 32B")]
    assert attribute(models, rows) == {
        ("lmarena", "qwen3-32b"): "alibaba/qwen3-32b-reasoning", ("epoch", "Qwen3-32B"): "alibaba/qwen3-32b-reasoning",
        ("eq-bench", "Qwen/Qwen3-32B"): "alibaba/qwen3-32b-reasoning",
        ("pedagogy-models", "qwen-3-32b"): "alibaba/qwen3-32b-reasoning",
        ("aa-leaderboard-2025-08", "Qwen3 32B"): "alibaba/qwen3-32b-non-reasoning", ("critpt", "Qwen3 32B"): None}
    assert findings(models) == []


@pytest.mark.parametrize("release", ["zai/glm-4.5", "zai/glm-4.5v", "zai/glm-4.6", "zai/glm-4.7", "zai/glm-4.7-flash",
                                     "zai/glm-5", "zai/glm-5.1"])
def test_zai_glm_bare_is_reasoning(release):
    assert rule(release) == "reasoning"


def test_zai_glm_bare_names_at_every_source():
    models = [model("zai/glm-4.6-reasoning", "zai/glm-4.6", reasoning=True,
                    aliases=["glm-4.6", "GLM 4.6", "zai-org/GLM-4.6", "https://huggingface.co/zai-org/GLM-4.6"]),
              model("zai/glm-4.6-non-reasoning", "zai/glm-4.6", effort="none", aliases=["GLM-4.6 (Non-reasoning)"])]
    rows = [("epoch", "glm-4.6"), ("lmarena", "glm-4.6"), ("swe-bench", "glm-4.6"), ("epoch", "zai-org/GLM-4.6"),
            ("swe-bench", "https://huggingface.co/zai-org/GLM-4.6")]
    assert set(attribute(models, rows).values()) == {"zai/glm-4.6-reasoning"}
    assert findings(models) == []


def test_lmarena_bare_beside_thinking_is_non_thinking_at_lmarena_only():
    assert rule("xai/grok-4.1", "lmarena") == rule("deepseek/deepseek-v3.1", "lmarena") == "none"
    assert rule("xai/grok-4.1") is None and rule("deepseek/deepseek-v3.1", "eq-bench") is None
    models = [model("xai/grok-4.1-non-reasoning", "xai/grok-4.1", effort="none",
                    source_aliases=[("lmarena", "grok-4.1")]),
              model("xai/grok-4.1-thinking", "xai/grok-4.1", reasoning=True, aliases=["grok-4.1-thinking"]),
              model("deepseek/deepseek-v3.1-non-reasoning", "deepseek/deepseek-v3.1", effort="none",
                    source_aliases=[("lmarena", "deepseek-v3.1")]),
              model("deepseek/deepseek-v3.1-reasoning", "deepseek/deepseek-v3.1", reasoning=True,
                    aliases=["deepseek-v3.1-thinking"])]
    rows = [("lmarena", "grok-4.1"), ("lmarena", "grok-4.1-thinking"), ("lmarena", "deepseek-v3.1"),
            ("lmarena", "deepseek-v3.1-thinking"), ("eq-bench", "grok-4.1"), ("epoch", "deepseek-v3.1")]
    assert attribute(models, rows) == {
        ("lmarena", "grok-4.1"): "xai/grok-4.1-non-reasoning", ("lmarena", "grok-4.1-thinking"): "xai/grok-4.1-thinking",
        ("lmarena", "deepseek-v3.1"): "deepseek/deepseek-v3.1-non-reasoning",
        ("lmarena", "deepseek-v3.1-thinking"): "deepseek/deepseek-v3.1-reasoning",
        ("eq-bench", "grok-4.1"): None, ("epoch", "deepseek-v3.1"): None}
    assert findings(models) == []
    # the bare LMArena name scoped to the thinking entry contradicts the source's rule
    wrong = [model("xai/grok-4.1-thinking", "xai/grok-4.1", reasoning=True, source_aliases=[("lmarena", "grok-4.1")]),
             model("xai/grok-4.1-non-reasoning", "xai/grok-4.1", effort="none")]
    assert findings(wrong) == [("alias-default", ("xai/grok-4.1-thinking",))]
    # and as a global alias it would carry every source's bare 'grok-4.1' there: no vendor rule says so
    leak = [model("xai/grok-4.1-non-reasoning", "xai/grok-4.1", effort="none", aliases=["grok-4.1"]),
            model("xai/grok-4.1-thinking", "xai/grok-4.1", reasoning=True)]
    assert findings(leak) == [("alias-default", ("xai/grok-4.1-non-reasoning",))]


def test_the_audit_command_reports_the_kind(tmp_path):
    from click.testing import CliRunner

    from sitegen.cli.imports import aliases_group

    folder = tmp_path / "scores" / "models" / "acme"
    folder.mkdir(parents=True)
    (folder / "gizmo-2-max.yaml").write_text("id: acme/gizmo-2-max\nname: Gizmo 2 (max)\nrelease: acme/gizmo-2\n"
                                             "effort: max\naliases:\n- Gizmo 2\n", encoding="utf-8")
    (folder / "gizmo-2-non-reasoning.yaml").write_text("id: acme/gizmo-2-non-reasoning\nname: Gizmo 2 (Non-reasoning)\n"
                                                       "release: acme/gizmo-2\neffort: none\n", encoding="utf-8")
    result = CliRunner().invoke(aliases_group, ["audit", "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "alias-default: acme/gizmo-2-max: the alias 'Gizmo 2' names the max configuration of acme/gizmo-2, and no "
        "vendor_defaults rule says a bare name means that (make it a source_aliases entry of the source whose "
        "listing identifies it, or add the vendor's documented default as a rule in scores/identity.yaml)",
        "1 findings"]
    (tmp_path / "scores" / "identity.yaml").write_text(
        "vendor_defaults:\n- vendor: Acme\n  means: Gizmo thinks at max unless told otherwise.\n"
        "  url: https://acme.test/docs\n  rules:\n  - releases: [acme/gizmo-2]\n    bare: {effort: max}\n",
        encoding="utf-8")
    result = CliRunner().invoke(aliases_group, ["audit", "--root", str(tmp_path)])
    assert (result.exit_code, result.output) == (0, "0 findings\n")


@pytest.mark.parametrize("identity", [
    None, [], {"vendor_defaults": "OpenAI"}, {"vendor_defaults": ["OpenAI"]},
    {"vendor_defaults": [{"vendor": "Acme", "rules": ["acme/gizmo", {"releases": "acme/gizmo", "bare": {"effort": "max"}},
                                                      {"releases": [{"x": 1}], "bare": "max"}]}]},
    {"source_defaults": [{"releases": ["acme/gizmo"], "bare": {"effort": "none"}}, "lmarena"]},
])
def test_a_malformed_table_fixes_nothing_and_raises_nothing(identity):
    assert all(not r.releases for r in defaults.rules(identity))
    models = [("acme/gizmo-max", {"id": "acme/gizmo-max", "name": "Gizmo (max)", "release": "acme/gizmo",
                                  "effort": "max", "aliases": ["gizmo", {"not": "a name"}],
                                  "source_aliases": ["arena", {"source": "arena"}]}),
              model("acme/gizmo-none", "acme/gizmo", effort="none")]
    assert findings(models, identity) == [("alias-default", ("acme/gizmo-max",))]


def test_apply_scopes_a_bare_name_the_vendor_default_does_not_fix(tmp_path):
    """`aliases apply`: scoped by default. AA's token scrape's 'GPT-OSS-120B' proposed for the high entry goes
    under source_aliases of that source; 'o3' proposed for the medium entry (OpenAI's default) stays global;
    a name that states its effort stays global."""
    from sitegen.importers import aliases
    from sitegen.data.registry import write_model

    for mid, release, effort in [("openai/gpt-oss-120b-high", "openai/gpt-oss-120b", "high"),
                                 ("openai/gpt-oss-120b-low", "openai/gpt-oss-120b", "low"),
                                 ("openai/o3-medium", "openai/o3", "medium"), ("openai/o3-high", "openai/o3", "high")]:
        write_model(tmp_path, {"id": mid, "name": mid.split("/")[1], "release": release, "effort": effort})
    # the real registry: `apply` validates the outcome, and an alias of an unknown source would be refused
    (tmp_path / "scores/sources.yaml").write_bytes((ROOT / "scores/sources.yaml").read_bytes())
    (tmp_path / "scores" / "identity.yaml").write_text(
        "vendor_defaults:\n- vendor: OpenAI\n  means: o-series default medium.\n  url: https://platform.openai.com/docs\n"
        "  rules:\n  - releases: [openai/o3]\n    bare: {effort: medium}\n", encoding="utf-8")
    done = aliases.apply(tmp_path, [
        {"source": "aa-tokens-2026-07", "name": "GPT-OSS-120B", "match": "openai/gpt-oss-120b-high"},
        {"source": "epoch", "name": "gpt-oss-120b_low", "match": "openai/gpt-oss-120b-low"},
        {"source": "lmarena", "name": "o3-2025-04-16", "match": "openai/o3-medium"}])
    assert done == ["openai/gpt-oss-120b-high: GPT-OSS-120B (at aa-tokens-2026-07)",
                    "openai/gpt-oss-120b-low: gpt-oss-120b_low", "openai/o3-medium: o3-2025-04-16"]
    def read(mid):
        return yaml.safe_load((tmp_path / "scores/models" / f"{mid}.yaml").read_text())

    high = read("openai/gpt-oss-120b-high")
    assert "aliases" not in high and [(e["source"], e["name"]) for e in high["source_aliases"]] == [
        ("aa-tokens-2026-07", "GPT-OSS-120B")]
    assert read("openai/gpt-oss-120b-low")["aliases"] == ["gpt-oss-120b_low"]
    assert read("openai/o3-medium")["aliases"] == ["o3-2025-04-16"]
    assert findings(Registry.load(tmp_path).models.items(), yaml.safe_load(
        (tmp_path / "scores" / "identity.yaml").read_text())) == []


def test_merge_keeps_the_old_models_source_aliases(tmp_path):
    from sitegen.importers.aliases import merge
    from sitegen.data.registry import write_model

    write_model(tmp_path, {"id": "acme/w-medium", "name": "W (medium)", "release": "acme/w", "effort": "medium"})
    write_model(tmp_path, {"id": "acme/w", "name": "W (effort not stated)", "release": "acme/w", "reasoning": True,
                           "source_aliases": [{"source": "board", "name": "W", "notes": "the board's default run"}]})
    merge(tmp_path, "acme/w", "acme/w-medium")
    kept = yaml.safe_load((tmp_path / "scores/models/acme/w-medium.yaml").read_text())
    assert kept["source_aliases"] == [{"source": "board", "name": "W", "notes": "the board's default run"}]
    assert Registry.load(tmp_path).match("W", "board") == ["acme/w-medium"]


def test_a_later_snapshot_of_a_source_reads_names_as_the_earlier_snapshot_scoped_them():
    """`sitegen fetch` files a changed AA token scrape as a new source ('aa-tokens-2026-11'): AA's slugs mean
    there what they meant in 'aa-tokens-2026-07'. An older snapshot, another source and a global lookup do not
    take that scoping; a scoping of the newer snapshot itself wins."""
    models = [model("openai/gpt-oss-120b-high", "openai/gpt-oss-120b", effort="high",
                    source_aliases=[("aa-tokens-2026-07", "GPT-OSS-120B")]),
              model("openai/gpt-oss-120b-low", "openai/gpt-oss-120b", effort="low",
                    source_aliases=[("aa-tokens-2027-01", "GPT-OSS-120B")])]
    registry = Registry.build(dict(models))
    assert registry.match("GPT-OSS-120B", "aa-tokens-2026-07") == ["openai/gpt-oss-120b-high"]
    assert registry.match("gpt-oss-120b", "aa-tokens-2026-11") == ["openai/gpt-oss-120b-high"]  # case folded too
    assert registry.match("GPT-OSS-120B", "aa-tokens-2026-11-30") == ["openai/gpt-oss-120b-high"]
    assert registry.match("GPT-OSS-120B", "aa-tokens-2027-03") == ["openai/gpt-oss-120b-low"]   # newest earlier
    assert registry.match("GPT-OSS-120B", "aa-tokens-2026-01") == []   # older than any scoping
    assert registry.match("GPT-OSS-120B", "aa-api-2026-11") == []      # another family
    assert registry.match("GPT-OSS-120B", "epoch") == [] and registry.match("GPT-OSS-120B") == []
