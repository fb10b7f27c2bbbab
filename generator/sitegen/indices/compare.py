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
        was = before["how"] if before else "absent"
        now = after["how"] if after else "absent"
        old_value = before["value"] if before else None
        new_value = after["value"] if after else None
        base = {
            "component": key[1],
            "component_kind": key[0],
            "old_how": was,
            "new_how": now,
            "old": old_value,
            "new": new_value,
        }
        if was == now == "observed" and after and _is_aggregate(after):
            continue  # a dimension mean moves because its benchmarks did; those carry the reason
        if was != "observed" and now == "observed":
            kind = "imputed-to-observed" if was == "imputed" else "new-observed"
            out.append({**base, "kind": kind, "source": after.get("source"), "retrieved": after.get("retrieved")})
        elif was == "observed" and now != "observed":
            out.append({**base, "kind": "observed-removed", "reason": (after or {}).get("reason")})
        elif was == now == "observed":
            if before.get("raw") == after.get("raw") and before.get("source") == after.get("source"):
                kind = "methodology"  # same result, new mapping (anchors, weights)
            else:
                kind = "observed-changed"
            out.append(
                {
                    **base,
                    "kind": kind,
                    "old_raw": before.get("raw"),
                    "new_raw": after.get("raw"),
                    "source": after.get("source"),
                    "retrieved": after.get("retrieved"),
                }
            )
        elif was == now == "imputed" or (now == "imputed" and was != "observed"):
            if old_value == new_value and was == now:
                continue
            old_p, new_p = _percentile(before), _percentile(after)
            shifted = old_p is not None and new_p is not None and old_p["value"] != new_p["value"]
            kind = "p80-shift" if shifted and not own_results_changed else "imputed-changed"
            entry = {
                **base,
                "kind": kind,
                "old_reason": (before or {}).get("reason"),
                "new_reason": after.get("reason"),
            }
            if old_p or new_p:
                entry["percentile"] = {
                    "name": (new_p or old_p)["name"],
                    "of": (new_p or old_p)["of"],
                    "old": old_p and old_p["value"],
                    "new": new_p and new_p["value"],
                }
            out.append(entry)
        else:
            out.append({**base, "kind": "status-changed", "reason": (after or {}).get("reason")})
    return out


def _row_summary(row: Mapping) -> dict:
    out = {"model": row["model"], "value": row.get("value"), "rank": row.get("rank")}
    if "status" in row:
        out["status"] = row["status"]
    return out


def diff_board(
    old: Mapping | None, new: Mapping | None, changed_models: set[str], methodology_files: list[str]
) -> dict:
    """Rows entering, leaving and moving (value, rank or status) on one board, each move with its reasons."""
    a = {r["model"]: r for r in (old or {}).get("rows", [])}
    b = {r["model"]: r for r in (new or {}).get("rows", [])}
    moved, rank_shifts = [], 0
    for model in sorted(a.keys() & b.keys()):
        before, after = a[model], b[model]
        fields = [f for f in ("value", "rank", "status") if before.get(f) != after.get(f)]
        comps_differ = before.get("components") != after.get("components")
        if (
            not fields
            and not comps_differ
            and before.get("how") == after.get("how")
            and before.get("source") == after.get("source")
        ):
            continue
        if not fields and not comps_differ:
            fields = ["source"]
        reasons = component_reasons(
            before.get("components") or [], after.get("components") or [], model in changed_models
        )
        board_moved = (before.get("value"), before.get("source")) != (after.get("value"), after.get("source"))
        if "components" not in after and board_moved:
            same = before.get("value") == after.get("value")
            reasons.append(
                {
                    "kind": "source-changed" if same else "observed-changed",
                    "component": (new or {}).get("benchmark"),
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
    board = new or old
    return {
        "name": board.get("name", ""),
        "kind": board.get("kind", "benchmark"),
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
