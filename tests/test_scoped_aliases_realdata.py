"""Done-when over the real data: no result from one source lands on a configuration through a name that only
another source's scoping identifies, and every bare name that lands on a configuration does so by the vendor
defaults (or the source's own rule) of scores/identity.yaml. The raw names are the importers' extracts of the
repository's captures in downloads/; the results checked are scores/imported/*.yaml."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from sitegen import importers
from sitegen.importers import defaults
from sitegen.importers.extracts import load_ignores
from sitegen.data.registry import Registry, key

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def world():
    registry = Registry.load(ROOT)
    ignores = load_ignores(ROOT)
    extracts = {plan.source: importers.extract(plan.source, list(plan.paths), plan.retrieved, registry, ignores)
                for plan in importers.planned(ROOT, ROOT / "downloads")}
    identity = yaml.safe_load((ROOT / "scores" / "identity.yaml").read_text(encoding="utf-8"))
    imported = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
                for p in sorted((ROOT / "scores" / "imported").glob("*.yaml")) if p.stem != "ignore"}
    return registry, ignores, extracts, defaults.rules(identity), imported


def _attributions(registry, ignores, extracts):
    """(source, raw name, model, how): every name a source's results or metadata carry that lands on one model;
    how is 'scoped' (that source's source_aliases) or 'global' (a name or alias)."""
    ignored = {(i["source"], i["name"]) for i in ignores}
    out = []
    for source, ex in sorted(extracts.items()):
        for name in sorted({n for n, _ in ex.results} | {n for n, _ in ex.models}):
            hits = registry.match(name, source)
            if len(hits) == 1 and (source, name) not in ignored:
                out.append((source, name, hits[0], "scoped" if (source, key(name)) in registry.scoped else "global"))
    return out


def test_every_imported_result_comes_from_a_name_that_lands_there(world):
    registry, ignores, extracts, _, imported = world
    landed = defaultdict(set)
    for source, _, mid, _ in _attributions(registry, ignores, extracts):
        landed[source].add(mid)
    assert set(extracts) <= set(imported)
    stray = [(source, r["model"]) for source in extracts for r in imported[source].get("results") or []
             if r["model"] not in landed[source]]
    assert stray == []


def test_no_name_scoped_to_one_source_lands_anywhere_through_a_global_alias(world):
    registry, ignores, extracts, _, _ = world
    scoped_at = defaultdict(set)  # (model, key) -> the sources whose scoping names it
    for mid, data in registry.models.items():
        for entry in data.get("source_aliases") or []:
            scoped_at[(mid, key(entry["name"]))].add(entry["source"])
    leaks = [(source, name, mid, sorted(scoped_at[(mid, key(name))]))
             for source, name, mid, how in _attributions(registry, ignores, extracts)
             if how == "global" and scoped_at.get((mid, key(name)), {source}) - {source}]
    assert leaks == []


def test_every_bare_name_lands_on_the_configuration_the_defaults_fix(world):
    """A bare name reaching a configuration through a global alias agrees with the vendor's rule; through a name
    scoped to its source, with that source's own rule where it has one (else the scoping's notes are the
    evidence, e.g. AA's slug)."""
    registry, ignores, extracts, rules, _ = world
    siblings = defaultdict(list)
    for mid, data in registry.models.items():
        siblings[str(data.get("release") or mid)].append(mid)
    wrong, checked = [], 0
    for source, name, mid, how in _attributions(registry, ignores, extracts):
        data = registry.models[mid]
        release = str(data.get("release") or mid)
        claim = defaults.claims(data, [registry.models[o] for o in siblings[release] if o != mid])
        if claim is None or not defaults.is_bare(name):
            continue
        rule = defaults.rule_for(rules, release, source)
        if how == "scoped" and (rule is None or rule.source is None):
            assert next(e.get("notes") for e in data["source_aliases"]
                        if e["source"] == source and key(e["name"]) == key(name)), (source, name)
            continue
        checked += 1
        if rule is None or rule.configuration != claim:
            wrong.append((source, name, mid, claim, rule.configuration if rule else None))
    assert wrong == []
    assert checked >= 100  # o3, Claude, Gemini, Qwen3, GLM, GPT-5 ... at eleven sources


def test_the_cases_of_issue_26(world):
    registry, ignores, extracts, _, _ = world
    got = {(s, n): mid for s, n, mid, _ in _attributions(registry, ignores, extracts)}
    assert got[("aa-tokens-2026-07", "GPT-OSS-120B")] == "openai/gpt-oss-120b-high"
    for source, name in [("lmarena", "gpt-oss-120b"), ("lmarena", "gpt-oss-20b"), ("epoch", "gpt-oss-120b"),
                         ("epoch", "gpt-oss-20b"), ("swe-bench", "gpt-oss-120b"), ("epoch", "gpt-5.3-codex"),
                         ("eq-bench", "claude-fable-5")]:
        assert (source, name) not in got
    assert got[("lmarena", "qwen3-32b")] == got[("eq-bench", "Qwen/Qwen3-32B")] == "alibaba/qwen3-32b-reasoning"
    flash = {got.get((s, n)) for s, n in [("epoch", "gemini-2.5-flash"), ("lmarena", "gemini-2.5-flash"),
                                          ("critpt", "Gemini-2.5 Flash")]}
    assert flash == {"google/gemini-2.5-flash-reasoning"}
    # SWE-bench's one gemini-2.5-flash row names its date (2025-04-17): the row's date picks the preview
    assert got[("swe-bench", "gemini-2.5-flash (2025-04-17)")] == "google/gemini-2.5-flash-preview-04-17-reasoning"
    assert {got[("lmarena", n)] for n in ("grok-4.1", "deepseek-v3.1", "deepseek-v3.1-terminus")} == {
        "xai/grok-4.1-non-reasoning", "deepseek/deepseek-v3.1-non-reasoning",
        "deepseek/deepseek-v3.1-terminus-non-reasoning"}
    assert got[("eq-bench", "o4-mini")] == got[("swe-bench", "o4-mini")] == "openai/o4-mini-medium"
    assert got[("aa-api-2026-07", "o3-pro")] == "openai/o3-pro-medium"
    assert registry.models["openai/gpt-5-pro"]["effort"] == "high"
    assert got[("aa-api-2026-07", "o1-pro")] == "openai/o1-pro" and registry.models["openai/o1-pro"]["effort"] == "medium"
    for name, mid in [("GPT-5 mini", "openai/gpt-5-mini-medium"), ("GPT-5 nano", "openai/gpt-5-nano-medium"),
                      ("Solar Pro 2", "upstage/solar-pro-2-non-reasoning")]:
        assert got[("aa-leaderboard-2025-08", name)] == mid  # as identity.yaml's aa-leaderboard note now says


def test_lmarena_rule_holds_for_every_bare_name_beside_a_thinking_one(world):
    """The source rule's evidence in the data: at LMArena every bare name listed beside '<name>-thinking…' that
    lands on a configuration lands on a non-thinking one, and each release the rule covers has such a pair."""
    registry, ignores, extracts, rules, _ = world
    names = {n for n, _ in extracts["lmarena"].results}
    got = {n: mid for s, n, mid, _ in _attributions(registry, ignores, extracts) if s == "lmarena"}
    pairs = sorted(n for n in names if any(m.startswith(n + "-thinking") for m in names))
    assert len(pairs) >= 11
    assert {n: registry.models[got[n]].get("effort") for n in pairs if n in got} == {n: "none" for n in pairs if n in got}
    rule = next(r for r in rules if r.source == "lmarena")
    assert {registry.models[got[n]]["release"] for n in pairs if n in got} >= set(rule.releases)


def test_lmarena_top_10_is_attributed_to_a_configuration(world):
    registry, ignores, extracts, _, imported = world
    values = {}
    for name, row in extracts["lmarena"].results:
        if row["benchmark"] == "lmarena-text":
            values[name] = row["value"]
    top = sorted(values, key=lambda n: (-values[n], n))[:10]
    got = {n: mid for s, n, mid, _ in _attributions(registry, ignores, extracts) if s == "lmarena"}
    on_board = {r["model"] for r in imported["lmarena"]["results"] if r["benchmark"] == "lmarena-text"}
    assert [n for n in top if got.get(n) not in on_board] == []
