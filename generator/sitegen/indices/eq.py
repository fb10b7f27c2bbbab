"""AI EQ (kind `ai-eq`): Elo ratings mapped to an implied EQ by anchor tables, with organisation adjustments."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .parts import board, component, from_result, interpolate_rows, model_lookup, round_half_up, select_by_benchmark


def _matches(organization: str, model: str, info: Mapping) -> bool:
    """Does the model belong to the organisation? Its organisation field, else the prefix of its id."""
    wanted = organization.strip().casefold()
    org = info.get("organization")
    if org:
        return str(org).strip().casefold() == wanted
    return model.split("/", 1)[0].casefold() == wanted


def selected(definition: Mapping, results: pd.DataFrame) -> dict[tuple[str, str], dict]:
    """{(model, benchmark): result} for the definition's components, each with its own selection."""
    overrides = {c["benchmark"]: c.get("selection") for c in definition["components"]}
    return select_by_benchmark(results, definition.get("selection"), overrides)


def applied(definition: Mapping, bid: str, model_ids: Sequence[str], people: Mapping[str, Mapping]) -> list:
    """[(adjustment, mask of the models it applies to)] for benchmark `bid`, in the definition's order."""
    return [
        (a, np.array([_matches(a["organization"], m, people.get(m, {})) for m in model_ids], bool))
        for a in definition.get("adjustments", [])
        if a["benchmark"] == bid
    ]


def index_values(
    definition: Mapping,
    elos: Iterable[np.ndarray],
    model_ids: Sequence[str],
    people: Mapping[str, Mapping],
    keep: bool = False,
) -> tuple[np.ndarray, list]:
    """The EQ on draws x models Elo arrays, one per component in the definition's order (NaN where a model has no
    rating; read one at a time): each rating moved by the adjustments that apply to the model, one after the
    other, mapped through its anchor table (clamped), and the mean of the components a model has (NaN without
    one). Returns (EQ, with `keep` each component's mapped draws, else []). The board's values are this on the
    selected ratings (one draw), the simulation's this on their draws."""
    total: np.ndarray | None = None
    count: np.ndarray | None = None
    mapped_all = []
    for c, elo in zip(definition["components"], elos):
        for a, mask in applied(definition, c["benchmark"], model_ids, people):
            elo = elo + np.where(mask, float(a["elo_delta"]), 0.0)
        mapped = interpolate_rows(c["anchors"], elo)
        have = ~np.isnan(elo)
        if total is None:
            total, count = np.zeros(np.shape(elo)), np.zeros(np.shape(elo))
        total += np.where(have, mapped, 0.0)  # a sum from zero in component order, as a mean of the values
        count += have
        if keep:
            mapped_all.append(mapped)
    assert total is not None and count is not None, "the schema gives every EQ definition a component"
    with np.errstate(invalid="ignore"):
        return total / count, mapped_all


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """The EQ board: one row per model with at least one mapped component."""
    precision = definition.get("precision", 4)
    comps_def = definition["components"]
    chosen = selected(definition, results)
    people = model_lookup(models)
    model_ids = sorted({m for m, _ in chosen})
    elos = (
        np.array(
            [[chosen[(m, c["benchmark"])]["value"] if (m, c["benchmark"]) in chosen else np.nan for m in model_ids]],
            float,
        )
        for c in comps_def
    )
    eq, mapped = index_values(definition, elos, model_ids, people, keep=True)
    rows = []
    for j, model in enumerate(model_ids):
        comps, have = [], 0
        for c, values in zip(comps_def, mapped):
            bid = c["benchmark"]
            rec = chosen.get((model, bid))
            if rec is None:
                comps.append(
                    component(
                        bid, "benchmark", "missing", precision=precision, reason=f"no {bid} rating for this model"
                    )
                )
                continue
            have += 1
            adjusted = [a for a, mask in applied(definition, bid, [model], people) if mask[0]]
            if adjusted:
                reason = "; ".join(f"{a['elo_delta']:+g} Elo before mapping: {a['reason']}" for a in adjusted)
                comps.append(
                    from_result(
                        bid, rec, values[0, j], raw=rec["value"], how="derived", reason=reason, precision=precision
                    )
                )
            else:
                comps.append(from_result(bid, rec, values[0, j], raw=rec["value"], precision=precision))
        rows.append(
            {
                "model": model,
                "value": round_half_up(float(eq[0, j]), precision),
                "rank": None,
                "status": "complete" if have == len(comps_def) else "partial",
                "coverage": {"have": have, "of": len(comps_def)},
                "components": comps,
                "_ranked": True,
            }
        )
    return board(definition, rows)
