"""Compute every board from the frames and the methodology definitions; plain dicts in the API's shape."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import pandas as pd

from . import aa, aiiq, cost, eq, hle, pedagogy, published
from .parts import clean, rank_rows, round_half_up, select_by_benchmark

#: Index kind -> computation. A new kind adds one line here and its $defs in the schema (ARCHITECTURE.md, "A new
#: index kind"); a generic name for a kind is one line in data/kinds.py.
COMPUTERS: dict[str, Callable[[Mapping, pd.DataFrame, pd.DataFrame], dict]] = {
    "weighted-mean": aa.compute,
    "ai-iq": aiiq.compute,
    "ai-eq": eq.compute,
    "cost": cost.compute,
    "published": published.compute,
}

#: Definitions that configure something other than an index board.
NOT_BOARDS = frozenset({"benchmark-boards"})


#: Kinds that compute several boards at once from per-question rows: kind -> (function, benchmarks it reads raw).
MULTI_BOARD: dict[str, Callable] = {
    "hle": lambda definition, results, models, raw: hle.compute_hle(
        results, models, {m: f for (b, m), f in raw.items() if b == definition["benchmark"]}, definition
    ),
    "pedagogy": lambda definition, results, models, raw: pedagogy.compute_pedagogy(
        results, models, _nested(raw), definition
    ),
}


def _nested(raw: Mapping) -> dict:
    out: dict = {}
    for (benchmark, model), rows in sorted(raw.items()):
        out.setdefault(benchmark, {})[model] = rows
    return out


def compute_boards(
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: list[dict],
    indices: dict[str, dict],
    raw: Mapping | None = None,
) -> dict[str, dict]:
    """Every index board, keyed by board id, in id order.

    `raw` maps (benchmark id, model id) to that model's per-question rows, for the kinds that use them. Each board
    sees only the models of the kinds its definition ranks (`model_kinds`, language models by default).
    """
    raw = raw or {}
    out = {}
    for index_id in sorted(indices):
        definition = indices[index_id]
        kind = definition["kind"]
        if kind in NOT_BOARDS:
            continue
        res, mods = of_kinds(definition, results, models)
        if kind in MULTI_BOARD:
            for board_id, board in MULTI_BOARD[kind](definition, res, mods, raw).items():
                out[board_id] = dict(board, definition=index_id)
            continue
        if kind not in COMPUTERS:
            raise ValueError(f"{index_id}: no computation registered for index kind {kind!r}")
        out[index_id] = dict(COMPUTERS[kind](definition, res, mods), definition=index_id)
    return dict(sorted(out.items()))


def of_kinds(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The results and models a board ranks: models of the kinds in its `model_kinds` (default: language models;
    a model's kind is language unless its file or a rule in scores/metadata.yaml says otherwise)."""
    kinds = definition.get("model_kinds") or ["language"]
    if "kind" not in models.columns:
        return results, models
    keep = models["kind"].fillna("language").isin(kinds)
    if keep.all():
        return results, models
    models = models[keep]
    return results[results["model"].isin(set(models["model"]))], models


def publishable(board: Mapping, definition: Mapping) -> bool:
    """Whether a board is published: `publish: when-data` needs at least one row with a value."""
    policy = definition.get("publish", "when-data")
    if policy == "always":
        return True
    if policy == "never":
        return False
    return any(row["value"] is not None for row in board["rows"])


def compute_benchmark_boards(
    results: pd.DataFrame, models: pd.DataFrame, benchmarks: list[dict], indices: dict[str, dict]
) -> dict[str, dict]:
    """One board per registered benchmark: one value per model, chosen by the benchmark-boards selection rule.
    Without a benchmark-boards definition (methodology/indices) there is no rule to choose by, so no board."""
    config = next((d for d in indices.values() if d["kind"] == "benchmark-boards"), None)
    if config is None:
        return {}
    results, models = of_kinds(config, results, models)
    precision = config.get("precision", 4)
    per = config.get("per_benchmark", {})
    chosen = select_by_benchmark(results, config.get("selection"), {b["id"]: per.get(b["id"]) for b in benchmarks})
    by_bench: dict[str, list[dict]] = {b["id"]: [] for b in benchmarks}
    for (model, bench), rec in chosen.items():
        by_bench[bench].append(_bench_row(model, rec, precision))
    higher = {b["id"]: b.get("higher_is_better", True) for b in benchmarks}
    out = {}
    for b in sorted(benchmarks, key=lambda b: b["id"]):
        scale = b.get("scale") or {}
        out[b["id"]] = {
            "benchmark": b["id"],
            "name": b["name"],
            "unit": scale.get("unit", ""),
            "higher_is_better": higher[b["id"]],
            "description": " ".join(str(b.get("description", "")).split()),
            "rows": rank_rows(one_snapshot(by_bench[b["id"]]), higher[b["id"]]),
        }
    for bid, sets in sorted((config.get("question_sets") or {}).items()):
        if bid not in out:
            continue
        out[bid]["question_set"] = sets["full"]
        out[bid]["other_question_sets"] = [
            {
                "subset": qs["subset"],
                "label": qs["label"],
                "rows": _subset_rows(results, config, per.get(bid), qs, bid, precision, higher[bid]),
            }
            for qs in sets["others"]
        ]
    for bid, tables in sorted((config.get("category_tables") or {}).items()):
        if bid in out:
            out[bid]["category_tables"] = [
                _category_table(results, config, per.get(bid), bid, t, precision) for t in tables
            ]
    return out


def _category_table(
    results: pd.DataFrame, config: Mapping, override: Mapping | None, bid: str, table: Mapping, precision: int
) -> dict:
    """One value per model and category (a subset each), unranked: {"label", "columns", "rows"}; a model is listed
    when it has any category, and a missing category is None (unknown, never 0)."""
    cells: dict[str, dict[str, dict]] = {}
    for col in table["columns"]:
        rule = {**(override or {}), "subset": col["subset"]}
        for (model, _), rec in select_by_benchmark(results, config.get("selection"), {bid: rule}).items():
            cells.setdefault(model, {})[col["subset"]] = {
                "value": round_half_up(rec["value"], precision),
                "source": rec["source"],
                "retrieved": rec["retrieved"],
                "url": rec["url"] or None,
            }
    return {
        "label": table["label"],
        "columns": [dict(c) for c in table["columns"]],
        "rows": [{"model": m, "cells": [cells[m].get(c["subset"]) for c in table["columns"]]} for m in sorted(cells)],
    }


_SNAPSHOT = re.compile(r"^([a-z0-9]+)-.*-(\d{4}-\d{2})$")  # aa-api-2026-07: publisher "aa", month 2026-07


def _snapshot_month(source: str) -> str:
    found = _SNAPSHOT.match(source)
    assert found is not None, source  # one_snapshot groups only the sources that match
    return found.group(2)


def one_snapshot(rows: list[dict]) -> list[dict]:
    """No board ranks values from two snapshots of one source: where rows come from several dated snapshots of one
    publisher (source ids <publisher>-<kind>-<yyyy-mm>), only the newest snapshot's rows keep their place in the
    ranking; the others stay on the board, unranked, saying why (in place; returns the rows)."""
    families: dict[str, set[str]] = {}
    for row in rows:
        found = _SNAPSHOT.match(str(row.get("source") or ""))
        if found and row.get("_ranked"):
            families.setdefault(found.group(1), set()).add(row["source"])
    for sources in families.values():
        if len(sources) < 2:
            continue
        newest = max(sources, key=lambda s: (_snapshot_month(s), s))
        for row in rows:
            if row.get("_ranked") and row.get("source") in sources and row["source"] != newest:
                row["_ranked"] = False
                row["how"] = "excluded"
                row["reason"] = (
                    f"from the older snapshot {row['source']}: values of one source are comparable only "
                    f"within one snapshot, and this board ranks {newest}"
                )
    return rows


def _bench_row(model: str, rec: Mapping, precision: int) -> dict:
    return {
        "model": model,
        "value": round_half_up(rec["value"], precision),
        "rank": None,
        "how": "observed",
        "source": rec["source"],
        "retrieved": rec["retrieved"],
        "url": rec["url"] or None,
        "stderr": round_half_up(rec["stderr"], precision),
        "ci_low": round_half_up(rec["ci_low"], precision),
        "ci_high": round_half_up(rec["ci_high"], precision),
        "harness": rec["harness"] or None,
        "self_reported": bool(clean(rec["self_reported"])),
        "_ranked": True,
    }


def _subset_rows(
    results: pd.DataFrame,
    config: Mapping,
    override: Mapping | None,
    qs: Mapping,
    bid: str,
    precision: int,
    higher: bool,
) -> list[dict]:
    """One question set's rows, ranked only among themselves: the benchmark's selection with the subset named."""
    rule = {**(override or {}), **(qs.get("selection") or {}), "subset": qs["subset"]}
    chosen = select_by_benchmark(results, config.get("selection"), {bid: rule})
    return rank_rows(
        one_snapshot([_bench_row(model, rec, precision) for (model, _), rec in sorted(chosen.items())]), higher
    )
