"""Cost metrics (kind `cost`): token cost at a price mix, token efficiency against the median, effective cost."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .parts import board, component, from_result, median, model_lookup, round_half_up, select_by_benchmark


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """The cost board: ranked by effective cost, lowest first; unpriced or token-less models unranked."""
    precision = definition.get("precision", 4)
    mix = definition["price_mix"]
    tokens_id = definition["efficiency"]["tokens_benchmark"]
    time_id = definition["response_time"]["benchmark"]
    chosen = select_by_benchmark(
        results,
        definition.get("selection"),
        {
            tokens_id: definition["efficiency"].get("tokens_selection"),
            time_id: definition["response_time"].get("selection"),
        },
    )
    tokens = {m: rec["value"] for (m, b), rec in chosen.items() if b == tokens_id}
    reference = median(list(tokens.values()))
    people = model_lookup(models)
    priced = {
        m
        for m, info in people.items()
        if info.get("input_per_mtok") is not None or info.get("output_per_mtok") is not None
    }
    rows = []
    for model in sorted(priced | {m for m, _ in chosen}):
        info = people.get(model, {})
        p_in, p_out = info.get("input_per_mtok"), info.get("output_per_mtok")
        comps = []
        token_cost = None
        if p_in is None or p_out is None:
            comps.append(
                component(
                    "token-cost",
                    "dimension",
                    "missing",
                    precision=precision,
                    reason=("no published input and output price: unpriced, not $0"),
                )
            )
        else:
            token_cost = mix["input"] * p_in + mix["output"] * p_out
            comps.append(
                component(
                    "token-cost",
                    "dimension",
                    "derived",
                    token_cost,
                    precision=precision,
                    source=info.get("pricing_source"),
                    retrieved=info.get("pricing_as_of"),
                    reason=(
                        f"{mix['input']:g} × input ${p_in:g} + {mix['output']:g} × output ${p_out:g} per 1M tokens"
                    ),
                )
            )
        rec = chosen.get((model, tokens_id))
        efficiency = None
        if rec is None:
            comps.append(
                component(
                    tokens_id, "benchmark", "missing", precision=precision, reason="no token-usage data for this model"
                )
            )
            comps.append(
                component(
                    "token-efficiency",
                    "dimension",
                    "missing",
                    precision=precision,
                    reason="no token-usage data: efficiency unknown, never assumed 1×",
                )
            )
        elif reference is None or not reference > 0:  # every model with token data reports 0 tokens: no ratio to take
            comps.append(from_result(tokens_id, rec, rec["value"], precision=precision))
            comps.append(
                component(
                    "token-efficiency",
                    "dimension",
                    "missing",
                    precision=precision,
                    reason=f"the median token usage is {reference:g}: efficiency is undefined",
                )
            )
        else:
            comps.append(from_result(tokens_id, rec, rec["value"], precision=precision))
            efficiency = rec["value"] / reference
            comps.append(
                component(
                    "token-efficiency",
                    "dimension",
                    "derived",
                    efficiency,
                    precision=precision,
                    reason=(f"{rec['value']:g} ÷ median {reference:g} over {len(tokens)} models with token data"),
                )
            )
        rec = chosen.get((model, time_id))
        if rec is None:
            comps.append(
                component(
                    time_id,
                    "benchmark",
                    "missing",
                    precision=precision,
                    reason="no response-time measurement for this model",
                )
            )
        else:
            comps.append(from_result(time_id, rec, rec["value"], precision=precision))
        if token_cost is None:
            status, value = "unpriced", None
        elif efficiency is None:
            status, value = "no-token-data", None
        else:
            status, value = "complete", token_cost * efficiency
        rows.append(
            {
                "model": model,
                "value": round_half_up(value, precision),
                "rank": None,
                "status": status,
                "coverage": {"have": int(token_cost is not None) + int(efficiency is not None), "of": 2},
                "components": comps,
                "_ranked": value is not None,
            }
        )
    return board(definition, rows)
