"""SWE-bench rows naming exactly one model: distinct models, not tags; a row's own name (a reviewed swe-bench source
alias) wins over its tags; every row left out says why.

Hand-made CSV rows and registries first, then the real capture: each row issue #26 traced, with where it lands.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from sitegen import importers
from sitegen.data.registry import Registry
from sitegen.importers import swe_bench
from sitegen.importers.extracts import Context, resolve

REPO = Path(__file__).resolve().parents[2]
CAPTURE = REPO / "downloads/swe-bench/swebench_leaderboards_2025-12-10.csv"


def row(name: str, tags: list[str]) -> dict:
    return {"name": name, "tags": json.dumps([f"Model: {t}" for t in tags] + ["Org: Someone"])}


def registry(models: dict[str, dict]) -> Registry:
    return Registry.build({mid: {"id": mid, **data} for mid, data in models.items()})


def context(reg: Registry, source: str = "swe-bench") -> Context:
    """What importers.extract hands an extractor: any match at `source`, and only the source's scoped aliases."""
    def find(name):
        hits = reg.match(name, source)
        return hits[0] if len(hits) == 1 else None

    def scoped(name):
        hits = sorted(reg.scoped.get((source, " ".join(name.split()).casefold()), ()))
        return hits[0] if len(hits) == 1 else None
    return Context(find, scoped)


# --------------------------------------------------------------------------- distinct models, not tags


@pytest.mark.parametrize("tags, models", [
    (["claude-3-5-sonnet-20241022", "claude-3.5-sonnet-20241022"], ["claude-3-5-sonnet-20241022"]),  # one model
    (["GPT-4o", "gpt-4o"], ["GPT-4o"]),                                   # case only: one model, first spelling
    (["claude-sonnet-4-20250514", "gpt-5"], ["claude-sonnet-4-20250514", "gpt-5"]),
    (["gpt-4.1", "gpt-4-1", "o3"], ["gpt-4.1", "o3"]),
    (["gpt-4o", "gpt-4o-mini"], ["gpt-4o", "gpt-4o-mini"]),              # a longer name is another model
    ([], []),
])
def test_model_tags_counts_models_folding_case_and_dot_against_dash(tags, models):
    assert swe_bench.model_tags(row("X", tags)) == models


def test_model_tags_reads_only_model_tags_and_empty_cells():
    assert swe_bench.model_tags({"name": "X", "tags": json.dumps(["Org: A", "Model: m", "Checked: yes"])}) == ["m"]
    assert swe_bench.model_tags({"name": "X", "tags": ""}) == []


@pytest.mark.parametrize("name, tags, expected", [
    ("Tools + Claude 3.5 Sonnet (2024-10-22)", ["claude-3-5-sonnet-20241022", "claude-3.5-sonnet-20241022"],
     "claude-3-5-sonnet-20241022"),
    ("Warp", ["gpt-5", "claude-sonnet-4-20250514"], "Warp [2 models]"),
    ("Solver  (2024-10-28)", [], "Solver (2024-10-28) [no model tag]"),   # spaces collapsed, as the harness
    ("Some Agent + GPT-4o", ["gpt-4o"], "gpt-4o"),
])
def test_source_name_without_a_registry(name, tags, expected):
    assert swe_bench.source_name(row(name, tags)) == expected


# --------------------------------------------------------------------------- the row's own name wins

REG = {
    "anthropic/claude-3-haiku": {"name": "Claude 3 Haiku", "aliases": ["claude-3-haiku-20240307"]},
    "anthropic/claude-3.5-haiku": {"name": "Claude 3.5 Haiku", "source_aliases": [
        {"source": "swe-bench", "name": "Tools + Claude 3.5 Haiku"}]},
    "anthropic/claude-3.5-sonnet-oct-24": {"name": "Claude 3.5 Sonnet (Oct '24)",
                                           "aliases": ["claude-3-5-sonnet-20241022"], "source_aliases": [
        {"source": "swe-bench", "name": "OpenHands + CodeAct v2.1 (claude-3-5-sonnet-20241022)"}]},
    "anthropic/claude-3.7-sonnet-non-reasoning": {"name": "Claude 3.7 Sonnet (Non-reasoning)", "source_aliases": [
        {"source": "swe-bench", "name": "Tools + Claude 3.7 Sonnet (2025-02-24)"}]},
    "zai/glm-4.6-reasoning": {"name": "GLM-4.6 (Reasoning)", "aliases": ["GLM-4.6", "glm-4.6"]},
    # a system name scoped to another source only: not the row's model at swe-bench
    "acme/solver-1": {"name": "Solver 1", "source_aliases": [{"source": "epoch", "name": "Solver (2024-10-28)"}]},
}


def test_a_system_name_scoped_to_swe_bench_wins_over_a_contradicting_tag():
    ctx = context(registry(REG))
    assert swe_bench.source_name(row("Tools + Claude 3.5 Haiku", ["claude-3-haiku-20240307"]), ctx.resolve,
                                 ctx.scoped) == "Tools + Claude 3.5 Haiku"
    # the same tag under another name still means Claude 3 Haiku
    assert swe_bench.source_name(row("Agent + Claude 3 Haiku", ["claude-3-haiku-20240307"]), ctx.resolve,
                                 ctx.scoped) == "claude-3-haiku-20240307"


def test_a_global_alias_equal_to_the_system_name_does_not_replace_the_tag():
    """'GLM-4.6' is a global alias; only a reviewed swe-bench source alias makes a system name the row's model."""
    ctx = context(registry(REG))
    assert swe_bench.source_name(row("GLM-4.6", ["glm-4.6"]), ctx.resolve, ctx.scoped) == "glm-4.6"
    assert swe_bench.source_name(row("GLM-4.6", []), ctx.resolve, ctx.scoped) == "GLM-4.6 [no model tag]"
    assert swe_bench.source_name(row("Solver (2024-10-28)", []), ctx.resolve, ctx.scoped) == \
        "Solver (2024-10-28) [no model tag]"


def swe_csv(tmp_path: Path, rows: list[tuple[str, str, list[str]]]) -> Path:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["leaderboard", "name", "resolved", "date", "checked", "tags", "folder", "site"])
    for i, (name, resolved, tags) in enumerate(rows):
        writer.writerow(["Verified", name, resolved, "2024-10-22", "True",
                         json.dumps([f"Model: {t}" for t in tags]), f"folder{i}", "https://example.org/"])
    path = tmp_path / "swebench_leaderboards_2025-12-10.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_extract_and_resolve_attribute_each_row_that_names_one_model(tmp_path):
    path = swe_csv(tmp_path, [
        ("Tools + Claude 3.5 Haiku", "40.6", ["claude-3-haiku-20240307"]),
        ("Tools + Claude 3.5 Sonnet (2024-10-22)", "49.0", ["claude-3-5-sonnet-20241022", "claude-3.5-sonnet-20241022"]),
        ("Tools + Claude 3.7 Sonnet (2025-02-24)", "63.2", []),
        ("OpenHands + CodeAct v2.1 (claude-3-5-sonnet-20241022)", "53.0", []),
        ("Agent + Claude 3 Haiku", "20.0", ["claude-3-haiku-20240307"]),
        ("Warp", "75.6", ["gpt-5", "claude-sonnet-4-20250514"]),
        ("Augment Agent v0", "65.4", []),
    ])
    reg = registry(REG)
    ex = swe_bench.extract([path], None, context(reg))
    ignores = [{"source": "swe-bench", "name": "Warp [2 models]", "reason": "several models"},
               {"source": "swe-bench", "name": "Augment Agent v0 [no model tag]", "reason": "no model named"}]
    out = resolve(ex, reg, ignores)
    assert not out.unmatched and not out.conflicts
    assert {r["harness"]: (r["model"], r["value"]) for r in out.doc["results"]} == {
        "Tools + Claude 3.5 Haiku": ("anthropic/claude-3.5-haiku", 40.6),
        "Tools + Claude 3.5 Sonnet (2024-10-22)": ("anthropic/claude-3.5-sonnet-oct-24", 49),
        "Tools + Claude 3.7 Sonnet (2025-02-24)": ("anthropic/claude-3.7-sonnet-non-reasoning", 63.2),
        "OpenHands + CodeAct v2.1 (claude-3-5-sonnet-20241022)": ("anthropic/claude-3.5-sonnet-oct-24", 53),
        "Agent + Claude 3 Haiku": ("anthropic/claude-3-haiku", 20),
    }
    assert [(e["name"], e["reason"], e["results"][0]["value"]) for e in out.doc["not_attributed"]] == [
        ("Augment Agent v0 [no model tag]", "no model named", 65.4), ("Warp [2 models]", "several models", 75.6)]


# --------------------------------------------------------------------------- the real capture

# Verified rows issue #26 traced: system name -> (value, where it was before, where it lands now).
TRACED = {
    "Tools + Claude 3.5 Sonnet (2024-10-22)": (49.0, "ignored", "anthropic/claude-3.5-sonnet-oct-24"),
    # tags as above, but submitted six days before that checkpoint existed: imported there, then excluded
    "Composio SWEkit + Claude 3.5 Sonnet (2024-10-16)": (40.6, "ignored", "excluded"),
    "Tools + Claude 3.5 Haiku": (40.6, "anthropic/claude-3-haiku (excluded by an override)", "anthropic/claude-3.5-haiku"),
    "Tools + Claude 3.7 Sonnet (2025-02-24)": (63.2, "ignored", "anthropic/claude-3.7-sonnet-non-reasoning"),
    "OpenHands + CodeAct v2.1 (claude-3-5-sonnet-20241022)": (53.0, "ignored", "anthropic/claude-3.5-sonnet-oct-24"),
    "Google Jules + Gemini 2.0 Flash (v20241212-experimental)": (52.2, "ignored", "google/gemini-2.0-flash-experimental"),
    "RAG + SWE-Llama 13B": (1.2, "ignored", "ignored"),
    "RAG + ChatGPT 3.5": (0.4, "ignored", "ignored"),
    "Lingma Agent + Lingma SWE-GPT 72b (v0925)": (28.8, "ignored", "ignored"),
    "Lingma Agent + Lingma SWE-GPT 72b (v0918)": (25.0, "ignored", "ignored"),
    "Lingma Agent + Lingma SWE-GPT 7b (v0925)": (18.2, "ignored", "ignored"),
    "Lingma Agent + Lingma SWE-GPT 7b (v0918)": (10.2, "ignored", "ignored"),
}


@pytest.fixture(scope="module")
def real():
    plan = next(p for p in importers.planned(REPO, REPO / "downloads") if p.source == "swe-bench")
    ex, outcome = importers.run(REPO, plan.source, list(plan.paths), plan.retrieved)
    rows = [r for r in csv.DictReader(io.StringIO(CAPTURE.read_text(encoding="utf-8"))) if r["leaderboard"] == "Verified"]
    return rows, ex, outcome


@pytest.mark.parametrize("system", sorted(TRACED))
def test_traced_row_lands_where_listed(real, system):
    from sitegen.data.load import read_yaml

    rows, ex, outcome = real
    value, _, where = TRACED[system]
    raw = [r for r in rows if swe_bench.system_name(r) == system]
    assert [float(r["resolved"]) for r in raw] == [value]
    landed = [r["model"] for r in outcome.doc["results"] if r["harness"] == system]
    ignored = [e for e in outcome.doc.get("not_attributed", []) if e["name"].startswith(system + " [")]
    if where == "ignored":
        assert landed == [] and len(ignored) == 1 and ignored[0]["results"][0]["value"] == value
        assert "no model named" not in ignored[0]["reason"]      # each says which model and why it is left out
        return
    assert not ignored
    overrides = read_yaml(REPO, "scores/overrides.yaml")["overrides"]
    excluded = [o for o in overrides if o.get("source") == "swe-bench" and o.get("harness") == system]
    if where == "excluded":
        assert len(landed) == 1 and [o["model"] for o in excluded] == landed and excluded[0]["exclude"] is True
    else:
        assert landed == [where] and not excluded


def test_every_system_name_attribution_is_a_reviewed_swe_bench_alias(real):
    """A row attributed under its own system name is so only through a model file's swe-bench source_aliases."""
    rows, ex, outcome = real
    reg = Registry.load(REPO)
    by_name = {r["harness"]: r["model"] for r in outcome.doc["results"]}
    tags = {swe_bench.system_name(r): swe_bench.model_tags(r) for r in rows}
    # read under the row's own name (not a row whose single tag is spelled as its name, e.g. 'MCTS-Refine-7B')
    under_system = {n for n, r in ex.results if n == r["harness"] and n not in tags[n]}
    assert under_system == {"Tools + Claude 3.5 Haiku", "Tools + Claude 3.7 Sonnet (2025-02-24)",
                            "OpenHands + CodeAct v2.1 (claude-3-5-sonnet-20241022)",
                            "Google Jules + Gemini 2.0 Flash (v20241212-experimental)"}
    for name in under_system:
        scoped = reg.scoped[("swe-bench", name.casefold())]
        assert scoped == {by_name[name]}
        entry = next(a for a in reg.models[by_name[name]]["source_aliases"] if a["name"] == name)
        assert entry["source"] == "swe-bench" and len(entry.get("notes", "")) > 80


def test_every_ignored_system_row_has_a_reason_true_for_it(real):
    """'[N models]' rows list their N distinct tags; '[no model tag]' rows have none and say what the name names."""
    rows, _, outcome = real
    by_source_name: dict[str, list[dict]] = {}
    for r in rows:
        by_source_name.setdefault(swe_bench.source_name(r), []).append(r)
    left_out = {e["name"]: e["reason"] for e in outcome.doc["not_attributed"] if e["name"].endswith("]")}
    assert len(left_out) == 54
    for name, reason in left_out.items():
        raw = by_source_name[name]
        tags = {tuple(swe_bench.model_tags(r)) for r in raw}
        assert len(tags) == 1
        (models,) = tags
        if name.endswith("[no model tag]"):
            assert models == () and reason.startswith(("SWE-bench system with no model tag", "No model tag")), name
        else:
            assert name.endswith(f"[{len(models)} models]") and len(models) >= 2, name
            assert reason.startswith(f"SWE-bench system using several models (its {len(models)} model tags: "
                                     + ", ".join(models) + ")"), name
        assert "does not name exactly one model" not in reason
