"""Boards -> canonical JSON and CSV text: sorted keys, fixed precision, stable row order, trailing newline."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

PRECISION = 4


def _fixed(x: Any, places: int) -> Any:
    """Floats to `places` decimals (Decimal half-up on the shortest repr); containers recursively."""
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            raise ValueError(f"non-finite number in a board: {x!r}")
        text = repr(x)
        if "e" not in text and len(text) - text.index(".") - 1 <= places:
            return x + 0.0  # already at the precision; + 0.0 turns -0.0 into 0.0
        q = Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        return float(q) + 0.0  # + 0.0 turns -0.0 into 0.0
    if isinstance(x, Mapping):
        return {str(k): _fixed(v, places) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_fixed(v, places) for v in x]
    if hasattr(x, "item"):  # numpy scalar
        return _fixed(x.item(), places)
    raise TypeError(f"cannot export {type(x).__name__}")


def _row_key(row: Mapping) -> tuple:
    return (row.get("rank") is None, row.get("rank") or 0, row["model"])


def to_json(board: Mapping, places: int = PRECISION) -> str:
    """A board as canonical JSON text: byte-identical for equal boards on every run and machine."""
    data = _fixed(dict(board), places)
    data["rows"] = sorted(data.get("rows", []), key=_row_key)
    # Compact separators keep the C encoder (indent= falls back to the pure-Python one, 10x slower).
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def to_csv(board: Mapping, places: int = PRECISION) -> str:
    """A board as CSV: one line per row; index boards get one column per component value."""
    data = _fixed(dict(board), places)
    rows = sorted(data.get("rows", []), key=_row_key)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if "index" in data:
        comp_ids: list[str] = []
        for row in rows:
            for c in row.get("components", []):
                if c["id"] not in comp_ids:
                    comp_ids.append(c["id"])
        writer.writerow(["rank", "model", "value", "status", "coverage_have", "coverage_of",
                         "manual_value", "manual_source"]
                        + [f"{cid}" for cid in comp_ids] + [f"{cid}_how" for cid in comp_ids])
        for row in rows:
            comps = {c["id"]: c for c in row.get("components", [])}
            manual = row.get("manual") or {}
            writer.writerow([_cell(row.get("rank")), row["model"], _cell(row.get("value")), row.get("status", ""),
                             _cell(row["coverage"]["have"]), _cell(row["coverage"]["of"]),
                             _cell(manual.get("value")), _cell(manual.get("source"))]
                            + [_cell(comps[c]["value"]) if c in comps else "" for c in comp_ids]
                            + [comps[c]["how"] if c in comps else "" for c in comp_ids])
    else:
        cols = ["rank", "model", "value", "how", "source", "retrieved", "url", "stderr", "ci_low", "ci_high",
                "harness", "self_reported"]
        writer.writerow(cols)
        for row in rows:
            writer.writerow([_cell(row.get(c)) for c in cols])
    return buf.getvalue()
