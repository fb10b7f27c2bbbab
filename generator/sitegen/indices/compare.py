"""What moved on one board between two computations of it, and why: rows entering, leaving and moving, each
move with the component changes that explain it.

Pure, on the engine's board dicts; `sitegen diff` (history/diff.py) compares the boards of two commits with it,
and the as-of boards (asof.py) the boards of two month ends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: An imputation reason names the percentile it used, e.g. "P80 of hle 130.00)" (the fallback when a board's
#: components carry no `percentile` field).
PERCENTILE = re.compile(r"\b(P\d+) of (\S+) (-?\d+(?:\.\d+)?)\)")


def _percentile(comp: Mapping | None) -> dict | None:
    """The percentile that capped an imputed component: the engine's `percentile` field, else read from its
    reason (boards computed before that field existed)."""
    if not comp:
        return None
    if comp.get("percentile"):
        return dict(comp["percentile"])
    match = PERCENTILE.search(comp.get("reason") or "")
    return {"name": match.group(1), "of": match.group(2), "value": float(match.group(3))} if match else None


def _is_aggregate(comp: Mapping) -> bool:
    """A component computed from other components (a dimension mean), not read from a result."""
    return comp.get("how") == "observed" and comp.get("source") is None and comp.get("raw") is None


def component_reasons(old_comps: list, new_comps: list, own_results_changed: bool) -> list[dict]:
    """Why a row's components differ: one reason per changed component, inputs before aggregates."""
    a = {(c["kind"], c["id"]): c for c in old_comps}
    b = {(c["kind"], c["id"]): c for c in new_comps}
    out = []
    for key in [(c["kind"], c["id"]) for c in new_comps] + sorted(a.keys() - b.keys()):
        before, after = a.get(key), b.get(key)
        if before == after:
            continue
        reason = _component_reason(key, before, after, own_results_changed)
        if reason is not None:
            out.append(reason)
    return out


def _component_reason(
    key: tuple, before: Mapping | None, after: Mapping | None, own_results_changed: bool
) -> dict | None:
    """The reason one component changed (`before` or `after` None: absent on that side); None when its change
    needs none (a dimension mean, or an imputation that moved nothing)."""
    base = _sides(key, before, after)
    was, now = base["old_how"], base["new_how"]
    if before and after and was == now == "observed":
        if _is_aggregate(after):
            return None  # a dimension mean moves because its benchmarks did; those carry the reason
        return _observed_reason(base, before, after)
    if after and was != "observed" and now == "observed":
        kind = "imputed-to-observed" if was == "imputed" else "new-observed"
        return {**base, "kind": kind, "source": after.get("source"), "retrieved": after.get("retrieved")}
    if was == "observed" and now != "observed":
        return {**base, "kind": "observed-removed", "reason": (after or {}).get("reason")}
    if after and (was == now == "imputed" or (now == "imputed" and was != "observed")):
        return _imputed_reason(base, before, after, own_results_changed)
    return {**base, "kind": "status-changed", "reason": (after or {}).get("reason")}


def _sides(key: tuple, before: Mapping | None, after: Mapping | None) -> dict:
    """What every reason of a component says: which it is, how its value came about and the value, on each side."""
    return {
        "component": key[1],
        "component_kind": key[0],
        "old_how": before["how"] if before else "absent",
        "new_how": after["how"] if after else "absent",
        "old": before["value"] if before else None,
        "new": after["value"] if after else None,
    }


def _observed_reason(base: dict, before: Mapping, after: Mapping) -> dict:
    """An observed component whose value moved: its result changed, or the same result maps anew (methodology)."""
    if before.get("raw") == after.get("raw") and before.get("source") == after.get("source"):
        kind = "methodology"  # same result, new mapping (anchors, weights)
    else:
        kind = "observed-changed"
    return {
        **base,
        "kind": kind,
        "old_raw": before.get("raw"),
        "new_raw": after.get("raw"),
        "source": after.get("source"),
        "retrieved": after.get("retrieved"),
    }


def _imputed_reason(base: dict, before: Mapping | None, after: Mapping, own_results_changed: bool) -> dict | None:
    """An imputed component that changed: its percentile moved with other models (p80-shift) or its inputs changed;
    None when it is imputed on both sides with the same value."""
    if base["old"] == base["new"] and base["old_how"] == base["new_how"]:
        return None
    old_p, new_p = _percentile(before), _percentile(after)
    shifted = old_p is not None and new_p is not None and old_p["value"] != new_p["value"]
    kind = "p80-shift" if shifted and not own_results_changed else "imputed-changed"
    entry = {
        **base,
        "kind": kind,
        "old_reason": (before or {}).get("reason"),
        "new_reason": after.get("reason"),
    }
    named = new_p or old_p
    if named:
        entry["percentile"] = {
            "name": named["name"],
            "of": named["of"],
            "old": old_p and old_p["value"],
            "new": new_p and new_p["value"],
        }
    return entry


def _row_summary(row: Mapping) -> dict:
    out = {"model": row["model"], "value": row.get("value"), "rank": row.get("rank")}
    if "status" in row:
        out["status"] = row["status"]
    return out


def _changed_fields(before: Mapping, after: Mapping) -> list[str] | None:
    """What differs between a row's two sides: value, rank, status; [] when only its components do, ["source"] when
    only how or where its value comes from does; None when nothing does."""
    fields = [f for f in ("value", "rank", "status") if before.get(f) != after.get(f)]
    if fields or before.get("components") != after.get("components"):
        return fields
    if before.get("how") == after.get("how") and before.get("source") == after.get("source"):
        return None
    return ["source"]


def _row_reasons(
    before: Mapping,
    after: Mapping,
    benchmark: str | None,
    own_results_changed: bool,
    methodology_files: list[str],
    fields: list,
) -> list[dict]:
    """Why a row that is on both sides of a board moved: its component changes; on a benchmark board (rows without
    components, `benchmark` its id) a new value or source; else other rows (rank only) or the methodology files."""
    reasons = component_reasons(before.get("components") or [], after.get("components") or [], own_results_changed)
    board_moved = (before.get("value"), before.get("source")) != (after.get("value"), after.get("source"))
    if "components" not in after and board_moved:
        same = before.get("value") == after.get("value")
        reasons.append(
            {
                "kind": "source-changed" if same else "observed-changed",
                "component": benchmark,
                "old": before.get("value"),
                "new": after.get("value"),
                "old_source": before.get("source"),
                "source": after.get("source"),
                "retrieved": after.get("retrieved"),
            }
        )
    if not reasons and fields == ["rank"]:
        reasons.append({"kind": "others-moved"})
    if not reasons and methodology_files:
        reasons.append({"kind": "methodology", "files": methodology_files})
    return reasons


def diff_board(
    old: Mapping | None, new: Mapping | None, changed_models: set[str], methodology_files: list[str]
) -> dict:
    """Rows entering, leaving and moving (value, rank or status) on one board, each move with its reasons."""
    a = {r["model"]: r for r in (old or {}).get("rows", [])}
    b = {r["model"]: r for r in (new or {}).get("rows", [])}
    moved, rank_shifts = [], 0
    for model in sorted(a.keys() & b.keys()):
        before, after = a[model], b[model]
        fields = _changed_fields(before, after)
        if fields is None:
            continue
        benchmark = (new or {}).get("benchmark")
        reasons = _row_reasons(before, after, benchmark, model in changed_models, methodology_files, fields)
        if not fields and not reasons:
            continue
        if reasons == [{"kind": "others-moved"}]:
            rank_shifts += 1  # only its rank moved, because other rows entered, left or moved: counted, not listed
            continue
        moved.append(
            {
                "model": model,
                "changed": fields,
                "old": _row_summary(before),
                "new": _row_summary(after),
                "reasons": reasons,
            }
        )
    board = new or old or {}
    return {
        "name": board.get("name", ""),
        "kind": board.get("kind_as_written", board.get("kind", "benchmark")),  # as its author wrote it
        "status": "added" if old is None else "removed" if new is None else "changed",
        "entered": [_entry_row(b[m], changed_models, methodology_files) for m in sorted(b.keys() - a.keys())],
        "left": [_entry_row(a[m], changed_models, methodology_files) for m in sorted(a.keys() - b.keys())],
        "moved": moved,
        "rank_shifts": rank_shifts,
    }


def _entry_row(row: Mapping, changed_models: set[str], methodology_files: list[str]) -> dict:
    """A row entering or leaving a board, with why: the model's own results, the methodology, or anything else
    (a model file's other fields, another board's selection)."""
    cause = "own-results" if row["model"] in changed_models else "methodology" if methodology_files else "other"
    return {**_row_summary(row), "cause": cause}
