"""AI EQ (kind `ai-eq`): Elo ratings mapped to an implied EQ by anchor tables, with organisation adjustments."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .common import board, component, from_result, interpolate, mean, model_lookup, round_half_up, select_by_benchmark


def _matches(organization: str, model: str, info: Mapping) -> bool:
    """Does the model belong to the organisation? Its organisation field, else the prefix of its id."""
    wanted = organization.strip().casefold()
    org = info.get("organization")
    if org:
        return str(org).strip().casefold() == wanted
    return model.split("/", 1)[0].casefold() == wanted


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """The EQ board: one row per model with at least one mapped component."""
    precision = definition.get("precision", 4)
    comps_def = definition["components"]
    overrides = {c["benchmark"]: c.get("selection") for c in comps_def}
    chosen = select_by_benchmark(results, definition.get("selection"), overrides)
    people = model_lookup(models)
    adjustments = definition.get("adjustments", [])
    rows = []
    for model in sorted({m for m, _ in chosen}):
        info = people.get(model, {})
        comps, values = [], []
        for c in comps_def:
            bid = c["benchmark"]
            rec = chosen.get((model, bid))
            if rec is None:
                comps.append(component(bid, "benchmark", "missing", precision=precision,
                                       reason=f"no {bid} rating for this model"))
                continue
            elo = rec["value"]
            applied = [a for a in adjustments if a["benchmark"] == bid and _matches(a["organization"], model, info)]
            for a in applied:
                elo += a["elo_delta"]
            eq = interpolate(c["anchors"], elo)
            values.append(eq)
            if applied:
                reason = "; ".join(f"{a['elo_delta']:+g} Elo before mapping: {a['reason']}" for a in applied)
                comps.append(from_result(bid, rec, eq, raw=rec["value"], how="derived", reason=reason,
                                         precision=precision))
            else:
                comps.append(from_result(bid, rec, eq, raw=rec["value"], precision=precision))
        value = mean(values)
        rows.append({
            "model": model, "value": round_half_up(value, precision), "rank": None,
            "status": "complete" if len(values) == len(comps_def) else "partial",
            "coverage": {"have": len(values), "of": len(comps_def)}, "components": comps, "_ranked": True,
        })
    return board(definition, rows)
