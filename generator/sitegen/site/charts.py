"""Charts: one altair-built Vega-Lite spec per chart kind, data attached as named datasets.

Each spec is built once (altair costs ~30 ms per chart) and shared by every page that shows it; the page
passes the model or benchmark to highlight as the value of the `hl` parameter at runtime. Contributor
strings live only in the datasets, never in expressions.
"""

from __future__ import annotations

import math
from typing import Any

from .context import SiteContext
from .views import Lookups, _num

DATA = "points"
AA_PREFERRED = ("aa-intelligence-v3-0", "aa-intelligence-v2-2")


def _board_values(ctx: SiteContext, bid: str) -> dict[str, float]:
    rows = (ctx.boards.get(bid) or {}).get("rows", [])
    return {r["model"]: v for r in rows if (v := _num(r.get("value"))) is not None}


def _cost_component(ctx: SiteContext, comp: str) -> dict[str, float]:
    out = {}
    for r in (ctx.boards.get("cost") or {}).get("rows", []):
        for c in r.get("components", []):
            if c.get("id") == comp and (v := _num(c.get("value"))) is not None:
                out[r["model"]] = v
    return out


def _point(lk: Lookups, mid: str, **values: Any) -> dict[str, Any]:
    meta = lk.model_meta(mid)
    return {"model": mid, "name": meta["name"], "org": meta["org"] or "unknown", "weights": meta["weights"], **values}


def _blended(lk: Lookups, mid: str) -> float | None:
    meta = lk.model_meta(mid)
    i, o = meta["input_price"], meta["output_price"]
    return None if i is None or o is None else round(0.75 * i + 0.25 * o, 4)


def _scatter(alt, x: str, y: str, xtitle: str, ytitle: str, *, xlog=False, xreverse=False, description: str,
             tooltip_fmt: tuple[str, str] = (".2f", ".1f")):
    hl = alt.param(name="hl", value="")
    is_hl = "datum.model === hl"
    base = alt.Chart(alt.NamedData(DATA))
    xscale = alt.Scale(type="log", reverse=xreverse) if xlog else alt.Scale(zero=False, reverse=xreverse)
    points = base.mark_circle(opacity=0.75, stroke="white", strokeWidth=0.5).encode(
        x=alt.X(f"{x}:Q", title=xtitle, scale=xscale),
        y=alt.Y(f"{y}:Q", title=ytitle, scale=alt.Scale(zero=False)),
        color=alt.Color("weights:N", title="Weights", scale=alt.Scale(domain=["open", "closed", "unknown"],
                                                                         range=["#2e7d32", "#3f51b5", "#9e9e9e"])),
        size=alt.condition(is_hl, alt.value(260), alt.value(50)),
        tooltip=[alt.Tooltip("name:N", title="Model"), alt.Tooltip("org:N", title="Organisation"),
                 alt.Tooltip(f"{x}:Q", title=xtitle, format=tooltip_fmt[0]),
                 alt.Tooltip(f"{y}:Q", title=ytitle, format=tooltip_fmt[1])],
    ).add_params(hl)
    label = base.mark_text(align="left", dx=9, dy=-9, fontWeight="bold").encode(
        x=f"{x}:Q", y=f"{y}:Q", text="name:N").transform_filter(is_hl)
    ring = base.mark_point(shape="circle", size=420, strokeWidth=2.5, color="#e91e63").encode(
        x=f"{x}:Q", y=f"{y}:Q").transform_filter(is_hl)
    return alt.layer(points, ring, label).properties(width="container", height=340, description=description)


def _to_dict(chart, data: dict[str, list[dict]]) -> dict[str, Any]:
    spec = chart.to_dict(validate=False)
    spec.pop("$schema", None)
    spec["datasets"] = data
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    return spec


def _fallback(rows: list[dict], cols: list[tuple[str, str]], key: str, reverse=True, n=10) -> dict[str, Any]:
    ordered = sorted(rows, key=lambda r: ((r.get(key) is None), -(r.get(key) or 0) if reverse else (r.get(key) or 0), r.get("model", "")))
    return {"columns": [c[1] for c in cols], "fields": [c[0] for c in cols], "rows": ordered[:n], "total": len(rows)}


def build_charts(ctx: SiteContext, lk: Lookups) -> dict[str, dict[str, Any]]:
    """Every chart kind with data: {kind: {title, description, spec, fallback, models, highlight}}."""
    import altair as alt

    out: dict[str, dict[str, Any]] = {}
    iq = _board_values(ctx, "ai-iq")

    def add(kind, title, description, chart, rows, fallback, highlight="model"):
        if not rows:
            return
        out[kind] = {"title": title, "description": description, "spec": _to_dict(chart, {DATA: rows}),
                     "fallback": fallback, "models": sorted({r["model"] for r in rows if "model" in r}),
                     "highlight": highlight}

    eff = _cost_component(ctx, "effective_cost")
    rows = [_point(lk, m, iq=iq[m], cost=eff[m]) for m in sorted(iq) if m in eff and eff[m] > 0]
    desc = "AI IQ against effective cost per task (log scale); higher and further left is better value."
    add("iq-vs-cost", "AI IQ vs effective cost", desc,
        _scatter(alt, "cost", "iq", "Effective cost (USD, log)", "AI IQ", xlog=True, description=desc, tooltip_fmt=(".3f", ".1f")),
        rows, _fallback(rows, [("name", "Model"), ("iq", "AI IQ"), ("cost", "Effective cost (USD)")], "iq"))

    rt = _cost_component(ctx, "response_time")
    rows = [_point(lk, m, iq=iq[m], seconds=rt[m]) for m in sorted(iq) if m in rt and rt[m] > 0]
    desc = "AI IQ against response time (log scale, reversed: faster to the right)."
    add("iq-vs-speed", "AI IQ vs response time", desc,
        _scatter(alt, "seconds", "iq", "Response time (s, log, reversed)", "AI IQ", xlog=True, xreverse=True, description=desc),
        rows, _fallback(rows, [("name", "Model"), ("iq", "AI IQ"), ("seconds", "Response time (s)")], "iq"))

    rows = [_point(lk, m, iq=iq[m]) for m in sorted(iq)]
    if rows:
        desc = "Distribution of AI IQ across ranked models, in bins of 5 points."
        hist = alt.Chart(alt.NamedData(DATA)).mark_bar().encode(
            x=alt.X("iq:Q", bin=alt.Bin(step=5), title="AI IQ"), y=alt.Y("count():Q", title="Models"),
            tooltip=[alt.Tooltip("iq:Q", bin=alt.Bin(step=5), title="AI IQ"), alt.Tooltip("count():Q", title="Models")],
        ).properties(width="container", height=260, description=desc)
        hl_rule = alt.Chart(alt.NamedData(DATA)).mark_rule(color="#e91e63", strokeWidth=3).encode(x="iq:Q").transform_filter("datum.model === hl")
        chart = alt.layer(hist.add_params(alt.param(name="hl", value="")), hl_rule)
        vals = sorted(r["iq"] for r in rows)
        summary = [{"model": "", "name": label, "iq": v} for label, v in (
            ("Lowest", vals[0]), ("Median", vals[len(vals) // 2]), ("Highest", vals[-1]))]
        add("iq-distribution", "Distribution of AI IQ", desc, chart, rows,
            {"columns": ["Statistic", "AI IQ"], "fields": ["name", "iq"], "rows": summary, "total": len(rows)})

    aa_id = next((b for b in AA_PREFERRED if b in ctx.boards), None)
    if aa_id:
        aa = _board_values(ctx, aa_id)
        rows = [_point(lk, m, index=aa[m], price=p) for m in sorted(aa) if (p := _blended(lk, m)) and p > 0]
        name = ctx.boards[aa_id].get("name") or aa_id
        desc = f"{name} against blended price (3:1 input:output, USD per million tokens, log scale)."
        add("aa-vs-price", f"{name} vs price", desc,
            _scatter(alt, "price", "index", "Blended price (USD / M tokens, log)", name, xlog=True, description=desc),
            rows, _fallback(rows, [("name", "Model"), ("index", "Index"), ("price", "Blended price")], "index"))

    cdpk = _board_values(ctx, "pedagogy-cdpk")
    send = _board_values(ctx, "pedagogy-send")
    value_front = (ctx.frontiers or {}).get("value") or {}
    front_ids = set(value_front.get("frontier") or [])
    rows = [_point(lk, m, cdpk=cdpk[m], price=p, frontier=m in front_ids) for m in sorted(cdpk)
            if (p := _blended(lk, m)) and p > 0]
    if rows:
        desc = "Pedagogy (CDPK) score against blended price; the line joins the value frontier, the shaded area is its hull."
        hull = [{"x": _num(p[0]), "y": _num(p[1]), "order": i} for i, p in enumerate(value_front.get("hull") or [])]
        hull = [h for h in hull if h["x"] and h["x"] > 0 and h["y"] is not None]
        scatter = _scatter(alt, "price", "cdpk", "Blended price (USD / M tokens, log)", "CDPK score", xlog=True, description=desc)
        line = alt.Chart(alt.NamedData("hull")).mark_line(color="#ff6f00", strokeWidth=2, interpolate="step-after").encode(
            x="x:Q", y="y:Q", order="order:Q")
        area = alt.Chart(alt.NamedData("hull")).mark_area(color="#ff6f00", opacity=0.08, interpolate="step-after").encode(
            x="x:Q", y="y:Q", order="order:Q")
        chart = alt.layer(area, line, *scatter.layer).properties(width="container", height=340, description=desc)
        spec = _to_dict(chart, {DATA: rows, "hull": hull})
        out["pedagogy-frontier"] = {"title": "Pedagogy value frontier", "description": desc, "spec": spec,
                                    "fallback": _fallback([r for r in rows if r["frontier"]] or rows,
                                                          [("name", "Model"), ("cdpk", "CDPK"), ("price", "Blended price")], "cdpk"),
                                    "models": sorted(r["model"] for r in rows), "highlight": "model"}
        evo = []
        for month in sorted((value_front.get("by_month") or {})):
            entry = value_front["by_month"][month]
            ids = entry.get("frontier", []) if isinstance(entry, dict) else entry
            pts = sorted((p, cdpk[m], m) for m in ids if m in cdpk and (p := _blended(lk, m)))
            for order, (p, y, m) in enumerate(pts):
                evo.append({**_point(lk, m, price=p, cdpk=y), "month": month, "order": order})
        if evo:
            desc = "How the pedagogy value frontier moved month by month: one line per month."
            chart = alt.Chart(alt.NamedData(DATA)).mark_line(point=True, interpolate="step-after").encode(
                x=alt.X("price:Q", scale=alt.Scale(type="log"), title="Blended price (USD / M tokens, log)"),
                y=alt.Y("cdpk:Q", title="CDPK score", scale=alt.Scale(zero=False)),
                color=alt.Color("month:O", title="Month", scale=alt.Scale(scheme="viridis")), order="order:Q",
                tooltip=[alt.Tooltip("month:O", title="Month"), alt.Tooltip("name:N", title="Model"),
                         alt.Tooltip("cdpk:Q", title="CDPK", format=".1f"), alt.Tooltip("price:Q", title="Price", format=".2f")],
            ).add_params(alt.param(name="hl", value="")).properties(width="container", height=320, description=desc)
            last = max(e["month"] for e in evo)
            add("pedagogy-evolution", "Pedagogy frontier over time", desc, chart, evo,
                _fallback([e for e in evo if e["month"] == last], [("month", "Month"), ("name", "Model"), ("cdpk", "CDPK")], "cdpk"))

    size_front = set(((ctx.frontiers or {}).get("size") or {}).get("frontier") or [])
    rows = [_point(lk, m, cdpk=cdpk[m], params=t, frontier=m in size_front) for m in sorted(cdpk)
            if (t := lk.model_meta(m)["total_b"]) and t > 0]
    desc = "Pedagogy (CDPK) score against total parameters (log scale), open-weights models with known size."
    add("size-frontier", "Pedagogy size frontier", desc,
        _scatter(alt, "params", "cdpk", "Total parameters (billions, log)", "CDPK score", xlog=True, description=desc, tooltip_fmt=(".0f", ".1f")),
        rows, _fallback([r for r in rows if r["frontier"]] or rows, [("name", "Model"), ("cdpk", "CDPK"), ("params", "Params (B)")], "cdpk"))

    rows = [_point(lk, m, cdpk=cdpk[m], send=send[m]) for m in sorted(cdpk) if m in send]
    desc = "Pedagogy CDPK score against SEND score for models with both."
    add("cdpk-vs-send", "CDPK vs SEND", desc,
        _scatter(alt, "cdpk", "send", "CDPK score", "SEND score", description=desc, tooltip_fmt=(".1f", ".1f")),
        rows, _fallback(rows, [("name", "Model"), ("cdpk", "CDPK"), ("send", "SEND")], "cdpk"))

    acc, cal = {}, {}
    for m in ctx.models:
        for r in m.get("results") or []:
            if r.get("benchmark") == "hle" and not r.get("subset"):
                v = _num(r.get("value"))
                if v is None:
                    continue
                (cal if r.get("metric") == "calibration-error" else acc if not r.get("metric") else {}).setdefault(m["id"], v)
    rows = [_point(lk, m, accuracy=acc[m], calibration=cal[m]) for m in sorted(acc) if m in cal]
    desc = "Humanity's Last Exam accuracy against RMS calibration error (lower error is better)."
    add("hle-calibration", "HLE accuracy vs calibration error", desc,
        _scatter(alt, "calibration", "accuracy", "RMS calibration error (%)", "Accuracy (%)", description=desc, tooltip_fmt=(".1f", ".1f")),
        rows, _fallback(rows, [("name", "Model"), ("accuracy", "Accuracy"), ("calibration", "Calibration error")], "accuracy"))

    anchors = ((ctx.index_defs or {}).get("ai-iq") or {}).get("anchors") or {}
    curve, ceil = [], []
    for bid in sorted(anchors):
        a = anchors[bid] or {}
        for order, p in enumerate(a.get("points") or []):
            if len(p) >= 2 and _num(p[0]) is not None and _num(p[1]) is not None:
                curve.append({"benchmark": bid, "name": lk.bench_name(bid), "score": _num(p[0]), "iq": _num(p[1]), "order": order})
        for kind_, v in sorted((a.get("ceiling") or {}).items()):
            if _num(v) is not None:
                ceil.append({"benchmark": bid, "name": lk.bench_name(bid), "ceiling": kind_, "score": _num(v)})
    if curve:
        desc = "AI IQ anchor curves: benchmark score mapped to IQ, with original (dashed) and compressed (dotted) ceilings."
        hl = alt.param(name="hl", value="")
        op = alt.condition("hl === '' || datum.benchmark === hl", alt.value(1), alt.value(0.15))
        lines = alt.Chart(alt.NamedData(DATA)).mark_line(point=True).encode(
            x=alt.X("score:Q", title="Benchmark score"), y=alt.Y("iq:Q", title="AI IQ", scale=alt.Scale(zero=False)),
            color=alt.Color("name:N", title="Benchmark"), order="order:Q", opacity=op,
            tooltip=[alt.Tooltip("name:N", title="Benchmark"), alt.Tooltip("score:Q", title="Score", format=".1f"),
                     alt.Tooltip("iq:Q", title="IQ", format=".1f")],
        ).add_params(hl)
        rules = alt.Chart(alt.NamedData("ceilings")).mark_rule(strokeWidth=1.5).encode(
            x="score:Q", color=alt.Color("name:N"), opacity=op,
            strokeDash=alt.StrokeDash("ceiling:N", title="Ceiling", scale=alt.Scale(domain=["original", "compressed"], range=[[6, 3], [2, 2]])),
            tooltip=[alt.Tooltip("name:N", title="Benchmark"), alt.Tooltip("ceiling:N", title="Ceiling"), alt.Tooltip("score:Q", title="Score")])
        chart = alt.layer(lines, rules).properties(width="container", height=320, description=desc)
        out["anchor-curves"] = {"title": "AI IQ anchor curves", "description": desc,
                                "spec": _to_dict(chart, {DATA: curve, "ceilings": ceil}),
                                "fallback": {"columns": ["Benchmark", "Score", "AI IQ"], "fields": ["name", "score", "iq"],
                                             "rows": curve[:12], "total": len(curve)},
                                "models": [], "highlight": "benchmark"}
    for kind in out:
        spec = out[kind]["spec"]
        spec["usermeta"] = {"kind": kind}
        spec["description"] = out[kind]["description"]
        spec.setdefault("params", [{"name": "hl", "value": ""}])
        _assert_finite(spec)
    return out


def _assert_finite(obj: Any) -> None:
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ValueError("non-finite number in chart spec")
    if isinstance(obj, dict):
        for v in obj.values():
            _assert_finite(v)
    elif isinstance(obj, list):
        for v in obj:
            _assert_finite(v)


# Which charts each page shows.
HOME_CHARTS = ("iq-vs-cost", "aa-vs-price", "pedagogy-frontier")
MODEL_CHARTS = ("iq-vs-cost", "iq-vs-speed", "iq-distribution", "aa-vs-price", "pedagogy-frontier",
                "size-frontier", "cdpk-vs-send", "hle-calibration")
BOARD_CHARTS = {"ai-iq": ("iq-distribution", "iq-vs-cost", "iq-vs-speed"), "ai-eq": (),
                "aa-intelligence-v3-0": ("aa-vs-price",), "aa-intelligence-v2-2": ("aa-vs-price",),
                "pedagogy-cdpk": ("pedagogy-frontier", "pedagogy-evolution", "size-frontier", "cdpk-vs-send"),
                "pedagogy-send": ("cdpk-vs-send",), "hle": ("hle-calibration",), "cost": ("iq-vs-cost", "iq-vs-speed")}
