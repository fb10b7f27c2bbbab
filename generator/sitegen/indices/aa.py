"""Artificial Analysis indices (kind `weighted-mean`): a weighted mean of evals from one source snapshot, no imputation."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .common import board, component, from_result, round_half_up, rows_of_source, select_by_benchmark


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """One board for a weighted-mean index, fed only by the definition's source snapshot."""
    snapshot = definition["source_snapshot"]
    precision = definition.get("precision", 4)
    constituents = definition["constituents"]
    published = definition.get("published") or {}
    fed = rows_of_source(results, snapshot)
    only_snapshot = {"sources": [snapshot], "only_listed": True}

    overrides: dict[str, dict] = {}
    for c in constituents:
        overrides[c["benchmark"]] = {"metric": c.get("metric", ""), "subset": c.get("subset", "")}
    if published:
        overrides.setdefault(published["benchmark"], {"metric": "", "subset": ""})
    chosen = select_by_benchmark(fed, only_snapshot, overrides)

    n = len(constituents)
    total_weight = sum(float(c["weight"]) for c in constituents)
    model_ids = sorted({m for m, _ in chosen})
    rows = []
    for model in model_ids:
        comps = []
        weighted = 0.0
        have = 0
        for c in constituents:
            rec = chosen.get((model, c["benchmark"]))
            if rec is None:
                comps.append(component(c["benchmark"], "benchmark", "missing", reason=(
                    f"no {c['benchmark']} result in snapshot {snapshot}; the index is not imputed"),
                    precision=precision))
                continue
            have += 1
            weighted += float(c["weight"]) * rec["value"]
            comps.append(from_result(c["benchmark"], rec, rec["value"], precision=precision))
        complete = have == n
        value = round_half_up(weighted / total_weight, precision) if complete else None
        status = "complete" if complete else "incomplete"
        ranked = complete
        if published:
            pub = chosen.get((model, published["benchmark"]))
            policy = published.get("rows_without_components") or {"show_value": False, "ranked": False}
            if pub is None:
                comps.append(component(published["benchmark"], "benchmark", "missing", precision=precision,
                                       reason=f"no published index for this model in snapshot {snapshot}"))
            elif complete:
                comps.append(from_result(published["benchmark"], pub, pub["value"], how="published",
                                         precision=precision))
            else:
                reason = (f"published by the source, but {n - have} of {n} constituents are not in snapshot "
                          f"{snapshot}, so it cannot be recomputed")
                comps.append(from_result(published["benchmark"], pub, pub["value"], how="published",
                                         reason=reason, precision=precision))
                if policy["show_value"]:
                    value = round_half_up(pub["value"], precision)
                    status = "published"
                    ranked = policy["ranked"]
        rows.append({
            "model": model, "value": value, "rank": None, "status": status,
            "coverage": {"have": have, "of": n}, "components": comps, "_ranked": ranked,
        })
    return board(definition, rows)
