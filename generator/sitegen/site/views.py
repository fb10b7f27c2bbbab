"""Template data for each kind of page, built from the SiteContext with lookups computed once."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from .context import SiteContext
from .links import safe_url
from .pages import Urls, board_ids, href

HOW_LABEL = {
    "observed": "observed", "published": "published by the source", "imputed": "imputed",
    "derived": "derived", "excluded": "excluded", "missing": "missing",
}


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


class Lookups:
    """Per-id lookups shared by all pages (built once: pages then cost O(own rows))."""

    def __init__(self, ctx: SiteContext, urls: Urls) -> None:
        self.ctx = ctx
        self.urls = urls
        self.models = {m["id"]: m for m in ctx.models}
        self.sources = {s["id"]: s for s in ctx.sources}
        self.benchmarks = {b["id"]: b for b in ctx.benchmarks}
        self.board_rows: dict[str, list[tuple[str, dict]]] = defaultdict(list)
        for bid in board_ids(ctx):
            for row in ctx.boards[bid].get("rows", []):
                self.board_rows[row["model"]].append((bid, row))
        self.ranked_count = {bid: sum(1 for r in ctx.boards[bid].get("rows", []) if r.get("rank") is not None) for bid in ctx.boards}
        self.bench_rows: dict[str, list[tuple[str, dict]]] = defaultdict(list)
        for bid in sorted(ctx.benchmark_boards):
            for row in ctx.benchmark_boards[bid].get("rows", []):
                self.bench_rows[row["model"]].append((bid, row))

    def source_url(self, source: Any, url: Any = None) -> str | None:
        """The link for a number: its own URL if safe, else its source's URL if safe."""
        return safe_url(url) or safe_url((self.sources.get(source) or {}).get("url"))

    def source_name(self, source: Any) -> str:
        return (self.sources.get(source) or {}).get("name") or (source or "")

    def bench_name(self, bid: str) -> str:
        b = self.benchmarks.get(bid)
        if b:
            return b.get("name") or bid
        bb = self.ctx.benchmark_boards.get(bid)
        return (bb or {}).get("name") or bid

    def model_meta(self, mid: str) -> dict[str, Any]:
        """The columns every model table shows, with filter attributes."""
        m = self.models.get(mid) or {}
        params = m.get("parameters") or {}
        pricing = m.get("pricing") or {}
        weights = m.get("weights") or "unknown"
        reasoning = m.get("reasoning")
        name = m.get("name") or mid
        org = m.get("organization") or ""
        return {
            "id": mid, "name": name, "org": org, "href": self.urls.model_href(mid),
            "weights": weights, "reasoning": "yes" if reasoning else ("no" if reasoning is False else "unknown"),
            "total_b": _num(params.get("total_b")), "active_b": _num(params.get("active_b")),
            "input_price": _num(pricing.get("input_per_mtok")), "output_price": _num(pricing.get("output_per_mtok")),
            "released": m.get("released") or "",
            "search": " ".join(str(x) for x in (name, mid, org, m.get("family") or "", *(m.get("aliases") or []))).lower(),
        }


def cell(comp: dict[str, Any], lk: Lookups, uid: str, digits: int = 1) -> dict[str, Any]:
    """One component cell: value, provenance, reason (for the tooltip) and link."""
    how = comp.get("how") or "observed"
    reason = comp.get("reason") or ""
    note = ""
    if how not in ("observed", "published"):
        note = f"{HOW_LABEL.get(how, how).capitalize()}: {reason}" if reason else HOW_LABEL.get(how, how).capitalize()
    elif how == "published":
        note = f"Published by {lk.source_name(comp.get('source'))}"
    return {
        "value": _num(comp.get("value")), "how": how, "note": note, "uid": uid,
        "url": lk.source_url(comp.get("source")), "digits": digits,
    }


def board_view(bid: str, lk: Lookups) -> dict[str, Any]:
    """A leaderboard: columns (components) and rows with cells, in rank order (unranked last)."""
    board = lk.ctx.boards[bid]
    rows = board.get("rows", [])
    comp_ids: list[str] = []
    kinds: dict[str, str] = {}
    for row in rows:
        for c in row.get("components", []):
            if c["id"] not in kinds:
                kinds[c["id"]] = c.get("kind", "benchmark")
                comp_ids.append(c["id"])
    columns = [{"id": c, "name": lk.bench_name(c) if kinds[c] == "benchmark" else c.replace("_", " ")} for c in comp_ids]
    ordered = sorted(rows, key=lambda r: (r.get("rank") is None, r.get("rank") or 0, -(r.get("value") or 0), r["model"]))
    view_rows = []
    for i, row in enumerate(ordered):
        by_id = {c["id"]: c for c in row.get("components", [])}
        cells = []
        for j, cid in enumerate(comp_ids):
            comp = by_id.get(cid) or {"id": cid, "how": "missing", "reason": "not part of this row"}
            cells.append(cell(comp, lk, f"t{i}-{j}", 3 if bid == "cost" else 1))
        interval = row.get("interval")
        cov = row.get("coverage") or {}
        meta = lk.model_meta(row["model"])
        view_rows.append({
            **meta, "rank": row.get("rank"), "value": _num(row.get("value")), "status": row.get("status") or "",
            "interval": [_num(interval[0]), _num(interval[1])] if interval else None,
            "have": cov.get("have"), "of": cov.get("of"), "cells": cells,
            "manual": row.get("manual"), "manual_url": safe_url((row.get("manual") or {}).get("source")),
            "breakdown": (meta["href"] + f"#idx-{bid}") if meta["href"] else None,
        })
    return {"id": bid, "board": board, "columns": columns, "rows": view_rows,
            "has_interval": any(r["interval"] for r in view_rows), "digits": 3 if bid == "cost" else 1,
            "orgs": sorted({r["org"] for r in view_rows if r["org"]}, key=str.lower)}


def bench_board_view(bid: str, lk: Lookups) -> dict[str, Any]:
    """A benchmark's scores: one row per model with its link, retrieval date and flags."""
    bb = lk.ctx.benchmark_boards.get(bid) or {"rows": []}
    rows = sorted(bb.get("rows", []), key=lambda r: (r.get("rank") is None, r.get("rank") or 0, r["model"]))
    out = []
    for i, r in enumerate(rows):
        meta = lk.model_meta(r["model"])
        ci = (_num(r.get("ci_low")), _num(r.get("ci_high")))
        out.append({
            **meta, "rank": r.get("rank"), "value": _num(r.get("value")), "how": r.get("how") or "observed",
            "url": lk.source_url(r.get("source"), r.get("url")), "source": lk.source_name(r.get("source")),
            "retrieved": r.get("retrieved") or "", "stderr": _num(r.get("stderr")),
            "ci": ci if ci[0] is not None and ci[1] is not None else None,
            "harness": r.get("harness") or "", "self_reported": bool(r.get("self_reported")), "uid": f"b{i}",
        })
    return {"id": bid, "rows": out, "orgs": sorted({r["org"] for r in out if r["org"]}, key=str.lower),
            "has_ci": any(r["ci"] for r in out)}


def model_view(mid: str, lk: Lookups) -> dict[str, Any]:
    """A model page: metadata, prices, results and every index breakdown it appears in."""
    m = lk.models[mid]
    pricing = m.get("pricing") or {}
    results = []
    for r in sorted(m.get("results") or [], key=lambda r: (r.get("benchmark") or "", r.get("metric") or "", r.get("subset") or "", r.get("source") or "")):
        results.append({
            "benchmark": r.get("benchmark"), "name": lk.bench_name(r.get("benchmark")),
            "href": href(lk.urls.benchmark[r["benchmark"]]) if r.get("benchmark") in lk.urls.benchmark else None,
            "value": _num(r.get("value")), "metric": r.get("metric") or "", "subset": r.get("subset") or "",
            "harness": r.get("harness") or "", "source": lk.source_name(r.get("source")),
            "url": lk.source_url(r.get("source"), r.get("url")), "retrieved": r.get("retrieved") or "",
            "stderr": _num(r.get("stderr")), "self_reported": bool(r.get("self_reported")), "notes": r.get("notes") or "",
        })
    breakdowns = []
    for bid, row in lk.board_rows.get(mid, []):
        board = lk.ctx.boards[bid]
        cov = row.get("coverage") or {}
        comps = []
        for j, c in enumerate(row.get("components", [])):
            cv = cell(c, lk, f"m-{bid}-{j}", 3 if bid == "cost" else 1)
            cv.update({"id": c["id"], "name": lk.bench_name(c["id"]) if c.get("kind", "benchmark") == "benchmark" else c["id"].replace("_", " "),
                       "raw": _num(c.get("raw")), "reason": c.get("reason") or "", "source": lk.source_name(c.get("source")),
                       "retrieved": c.get("retrieved") or ""})
            comps.append(cv)
        interval = row.get("interval")
        breakdowns.append({
            "id": bid, "name": board.get("name") or bid, "href": href(lk.urls.board[bid]), "value": _num(row.get("value")),
            "rank": row.get("rank"), "of_ranked": lk.ranked_count[bid],
            "status": row.get("status") or "", "have": cov.get("have"), "of": cov.get("of"), "unit": board.get("unit") or "",
            "interval": [_num(interval[0]), _num(interval[1])] if interval else None, "components": comps,
            "manual": row.get("manual"), "manual_url": safe_url((row.get("manual") or {}).get("source")),
            "digits": 3 if bid == "cost" else 1,
        })
    ranks = []
    for bid, r in lk.bench_rows.get(mid, []):
        ranks.append({"id": bid, "name": lk.bench_name(bid), "rank": r.get("rank"),
                      "of": len(lk.ctx.benchmark_boards[bid].get("rows", [])), "value": _num(r.get("value")),
                      "href": href(lk.urls.benchmark[bid]) if bid in lk.urls.benchmark else None})
    params = m.get("parameters") or {}
    return {
        "model": m, "meta": lk.model_meta(mid), "results": results, "breakdowns": breakdowns, "bench_ranks": ranks,
        "pricing": {"input": _num(pricing.get("input_per_mtok")), "output": _num(pricing.get("output_per_mtok")),
                    "as_of": pricing.get("as_of") or "", "source": lk.source_name(pricing.get("source")),
                    "url": lk.source_url(pricing.get("source"))},
        "params": {"total": _num(params.get("total_b")), "active": _num(params.get("active_b"))},
    }
