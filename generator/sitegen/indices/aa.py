"""Artificial Analysis indices (kind `weighted-mean`): a weighted mean of evals from one source snapshot, no imputation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from .parts import board, component, from_result, round_half_up, rows_of_source, select_by_benchmark


def selected(definition: Mapping, results: pd.DataFrame) -> dict[tuple[str, str], dict]:
    """{(model, benchmark): result} of the definition's source snapshot only: its constituents and, when the
    definition has one, the source's own published index. Without a snapshot, every source's results, one per
    model and constituent by the definition's `selection` rule."""
    snapshot = definition.get("source_snapshot")
    overrides: dict[str, dict] = {}
    for c in definition["constituents"]:
        overrides[c["benchmark"]] = {"metric": c.get("metric", ""), "subset": c.get("subset", "")}
    published = definition.get("published") or {}
    if published:
        overrides.setdefault(published["benchmark"], {"metric": "", "subset": ""})
    if snapshot is None:
        return select_by_benchmark(results, definition.get("selection"), overrides)
    return select_by_benchmark(
        rows_of_source(results, snapshot), {"sources": [snapshot], "only_listed": True}, overrides
    )


def complete_models(definition: Mapping, chosen: Mapping) -> list[str]:
    """The models with every constituent in the snapshot, sorted: the rows the index computes."""
    constituents = definition["constituents"]
    return sorted(m for m in {m for m, _ in chosen} if all((m, c["benchmark"]) in chosen for c in constituents))


def index_values(definition: Mapping, values: Iterable[np.ndarray]) -> np.ndarray:
    """The index on draws x models arrays, one per constituent in the definition's order (read one at a time):
    their weighted mean. The board's values are this on the selected values (one draw), the simulation's this on
    their draws."""
    constituents = definition["constituents"]
    acc: np.ndarray | None = None
    for c, x in zip(constituents, values):
        if acc is None:
            acc = np.zeros(np.shape(x))  # 0.0 + the first term, as a sum from zero (-0.0 becomes 0.0)
        acc += float(c["weight"]) * x
    assert acc is not None, "the schema gives every AA definition a constituent"
    acc /= sum(float(c["weight"]) for c in constituents)
    return acc


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """One board for a weighted-mean index, fed only by the definition's source snapshot (or, without one, by every
    source through its selection rule)."""
    snapshot = definition.get("source_snapshot")
    where = f" in snapshot {snapshot}" if snapshot else ""
    precision = definition.get("precision", 4)
    constituents = definition["constituents"]
    published = definition.get("published") or {}
    chosen = selected(definition, results)
    complete_ids = complete_models(definition, chosen)
    values = (np.array([[chosen[(m, c["benchmark"])]["value"] for m in complete_ids]], float) for c in constituents)
    point = dict(zip(complete_ids, index_values(definition, values)[0].tolist()))

    n = len(constituents)
    model_ids = sorted({m for m, _ in chosen})
    rows = []
    for model in model_ids:
        comps = []
        have = 0
        for c in constituents:
            rec = chosen.get((model, c["benchmark"]))
            if rec is None:
                comps.append(
                    component(
                        c["benchmark"],
                        "benchmark",
                        "missing",
                        reason=(f"no {c['benchmark']} result{where}; the index is not imputed"),
                        precision=precision,
                    )
                )
                continue
            have += 1
            comps.append(from_result(c["benchmark"], rec, rec["value"], precision=precision))
        complete = have == n
        value = round_half_up(point[model], precision) if complete else None
        status = "complete" if complete else "incomplete"
        ranked = complete
        if published:
            pub = chosen.get((model, published["benchmark"]))
            policy = published.get("rows_without_components") or {"show_value": False, "ranked": False}
            if pub is None:
                comps.append(
                    component(
                        published["benchmark"],
                        "benchmark",
                        "missing",
                        precision=precision,
                        reason=f"no published index for this model in snapshot {snapshot}",
                    )
                )
            elif complete:
                comps.append(
                    from_result(published["benchmark"], pub, pub["value"], how="published", precision=precision)
                )
            else:
                reason = (
                    f"published by the source, but {n - have} of {n} constituents are not in snapshot "
                    f"{snapshot}, so it cannot be recomputed"
                )
                comps.append(
                    from_result(
                        published["benchmark"], pub, pub["value"], how="published", reason=reason, precision=precision
                    )
                )
                if policy["show_value"]:
                    value = round_half_up(pub["value"], precision)
                    status = "published"
                    ranked = policy["ranked"]
        rows.append(
            {
                "model": model,
                "value": value,
                "rank": None,
                "status": status,
                "coverage": {"have": have, "of": n},
                "components": comps,
                "_ranked": ranked,
            }
        )
    return board(definition, rows)
