"""Charts: one altair-built Vega-Lite spec per chart kind, data attached as named datasets.

Each spec is built once (altair costs ~30 ms per chart) and shared by every page that shows it; the page
passes the model or benchmark to highlight as the value of the `hl` parameter at runtime. Contributor
strings live only in the datasets, never in expressions; a chart's words (methodology/site.yaml's charts.draw entry,
else its kind's default from the boards' names) only in titles, descriptions and the summary table, escaped there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..data.chart_texts import fill
from ..known import known
from .context import SiteContext, rows_of
from .numbers import HEADER, decimals, header, number
from .pages import board_title
from .views import Lookups, definition_of, iq_anchors, levels

DATA = "points"
#: a time axis a reader can date: month and year on every label (in UTC, as its scale: Vega formats a utc scale's
#: labels in UTC; Vega-Lite drops a "formatType": "utc"), few enough labels not to crowd a phone's width
DATE_AXIS = {
    "format": "%b %Y",
    "labelOverlap": "greedy",
    "tickCount": {"interval": "month", "step": 3},
    "labelAngle": 0,
    "labelSeparation": 8,
}
# build_charts' `add(name, title, description, chart, rows, fallback, highlight="model")`: a chart with rows, kept
_Add = Callable[..., None]


def _board_values(ctx: SiteContext, bid: str) -> dict[str, float]:
    rows = rows_of(ctx.boards, bid)
    return {r["model"]: v for r in rows if (v := known(r.get("value"))) is not None}


def _board_intervals(ctx: SiteContext, bid: str) -> dict[str, dict[str, float]]:
    """Each row's interval (at the board's level, _bar_level) as the chart's error bar fields {model: {"lo", "hi"}} (rows without one: none)."""
    out: dict[str, dict[str, float]] = {}
    for r in rows_of(ctx.boards, bid):
        iv = r.get("interval")
        if not isinstance(iv, (list, tuple)) or len(iv) != 2:
            continue
        lo, hi = known(iv[0]), known(iv[1])
        if lo is not None and hi is not None:
            out[r["model"]] = {"lo": lo, "hi": hi}
    return out


def _bar_level(ctx: SiteContext, bid: str, bars: dict) -> str:
    """The level of a board's error bars as the chart labels it ("95%"); "" when it has none (no bars drawn)."""
    board: Mapping[str, Any] = ctx.boards.get(bid) or {}
    return (
        (levels(board, (ctx.index_defs or {}).get(board.get("definition") or bid))["level"] or "interval")
        if bars
        else ""
    )


def _with_ci(rows: list[dict], unit: str) -> list[dict]:
    """Each row's interval as the tooltip shows it ("117.6–135.0", with the y value's decimals; "none known" for a
    row without one: a missing field would read "undefined"), when the chart has any."""
    if not any("lo" in r for r in rows):
        return rows  # no error bars, no tooltip line
    d = decimals(unit, [v for r in rows for v in (r.get("lo"), r.get("hi"))])
    for r in rows:
        r["ci"] = f"{number(r['lo'], d)}–{number(r['hi'], d)}" if "lo" in r else "none known"
        if "lo" in r:  # written from the board's own bounds above; the bars need no more than two decimals
            r["lo"], r["hi"] = round(r["lo"], 2), round(r["hi"], 2)
    return rows


def _cost_component(ctx: SiteContext, bid: str, comp: str) -> dict[str, float]:
    """One component's value per model on a board (a cost board's token cost, response time)."""
    out = {}
    for r in rows_of(ctx.boards, bid):
        for c in r.get("components", []):
            if c.get("id") == comp and (v := known(c.get("value"))) is not None:
                out[r["model"]] = v
    return out


def _point(lk: Lookups, mid: str, **values: Any) -> dict[str, Any]:
    meta = lk.model_meta(mid)
    # page: the model page's path from the site root; charts.js turns it into a link from the page shown
    return {
        "model": mid,
        "name": meta["name"],
        "org": meta["org"] or "unknown",
        "weights": meta["weights"],
        "page": meta["href"] or "",
        **values,
    }


def _blended(lk: Lookups, mid: str) -> float | None:
    meta = lk.model_meta(mid)
    i, o = meta["input_price"], meta["output_price"]
    return None if i is None or o is None else round(0.75 * i + 0.25 * o, 4)


#: The plot size label placement assumes: the charts are as wide as their column (about 620 px of plot on a desktop);
#: on a narrower screen the labels keep their sides and may touch, and the data summary names the same points.
LABEL_PLOT = (620.0, 340.0)
LABEL_CHAR_PX = 5.8  # the average width of a character of the labels' 10 px font
LABEL_LINE_PX = 12.0
LABEL_GAP_PX = 7.0  # from the point's centre to its label
LABEL_MAX = 12  # labels per chart at most: more would crowd any width
#: the sides a label may take, in the order they are tried: right, left, above, below, above and to the right,
#: above and to the left
LABEL_SIDES = ("r", "l", "t", "b", "tr", "tl")


def _label_box(px: float, py: float, side: str, width: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1, in pixels, y down) a label of `width` pixels takes on `side` of a point."""
    g, h = LABEL_GAP_PX, LABEL_LINE_PX
    return {
        "r": (px + g, py - h / 2, px + g + width, py + h / 2),
        "l": (px - g - width, py - h / 2, px - g, py + h / 2),
        "t": (px - width / 2, py - g - h, px + width / 2, py - g),
        "b": (px - width / 2, py + g, px + width / 2, py + g + h),
        "tr": (px + 2, py - g - h, px + 2 + width, py - g),
        "tl": (px - 2 - width, py - g - h, px - 2, py - g),
    }[side]


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(
    points: list[tuple[float, float]],
    names: list[str],
    wanted: list[int],
    size: tuple[float, float] = LABEL_PLOT,
    obstacles: Sequence[tuple[float, float, float, float]] = (),
) -> dict[int, str]:
    """Which points get a label, and on which side: {point index: side}. `points` are pixel positions (x right,
    y down) in a plot of `size`; `wanted` the points to label, most important first. Greedy and deterministic: each
    wanted point takes the first side (LABEL_SIDES) whose box stays inside the plot (or half a line beyond its top
    or bottom) and overlaps no label placed
    before it, no other point's marker and none of the `obstacles` (boxes: the chart's lines); a point with no such
    side goes unlabelled (the summary names it)."""
    w, h = size
    marker = 4.0
    dots = [(x - marker, y - marker, x + marker, y + marker) for x, y in points]
    placed: list[tuple] = list(obstacles)
    out: dict[int, str] = {}
    for i in wanted:
        if i in out or len(out) >= LABEL_MAX:
            continue
        px, py = points[i]
        for side in LABEL_SIDES:
            box = _label_box(px, py, side, LABEL_CHAR_PX * len(names[i]))
            # inside the plot, but for half a line above or below it (the chart's padding holds that much)
            if box[0] < 0 or box[1] < -LABEL_LINE_PX / 2 or box[2] > w or box[3] > h + LABEL_LINE_PX / 2:
                continue
            if any(_overlap(box, b) for b in placed) or any(_overlap(box, d) for j, d in enumerate(dots) if j != i):
                continue
            placed.append(box)
            out[i] = side
            break
    return out


def _nice(lo: float, hi: float, scale: str) -> tuple[float, float]:
    """The domain Vega draws for values from lo to hi (as log10 for "log"): a log scale to whole powers of ten, a
    linear one to its tick step (d3's for about ten ticks), a time scale as it is."""
    if scale == "log":
        return math.floor(lo), max(math.ceil(hi), math.floor(lo) + 1)
    if scale == "time" or hi <= lo:
        return (lo, hi) if hi > lo else (lo - 1, hi + 1)
    raw = (hi - lo) / 10
    step = 10 ** math.floor(math.log10(raw))
    step *= 10 if raw / step >= 50**0.5 else 5 if raw / step >= 10**0.5 else 2 if raw / step >= 2**0.5 else 1
    return math.floor(lo / step) * step, math.ceil(hi / step) * step


def _pixels(
    values: list[float], scale: str, reverse: bool, span: float, flip: bool, extent: Sequence[float] = ()
) -> list[float]:
    """Values as pixel positions along an axis of `span` pixels on a "linear", "log" or "time" scale, over the
    domain Vega gives the values and `extent` (more values the axis spans, such as error bars); `flip` for the y
    axis, whose pixels grow downwards."""
    f = (lambda v: math.log10(v)) if scale == "log" else (lambda v: v)
    vs = [f(v) for v in values]
    lo, hi = _nice(min(vs + [f(v) for v in extent]), max(vs + [f(v) for v in extent]), scale)
    out = [(v - lo) / (hi - lo) * span for v in vs]
    if reverse != flip:
        out = [span - p for p in out]
    return out


def label_points(
    rows: list[dict],
    x: str,
    y: str,
    *,
    xlog: bool = False,
    ylog: bool = False,
    xreverse: bool = False,
    higher: bool = True,
    cheaper: bool | None = None,
    top: int = 6,
    size: tuple[float, float] = LABEL_PLOT,
) -> list[dict]:
    """Mark the points a reader should be able to name without hovering (their `lpos`: the label's side): the
    frontier members (rows with `frontier`), the `top` best by y, and, where a smaller x is better (`cheaper`),
    the points no other beats on both axes; placed by place_labels. Returns the rows."""
    usable = [i for i, r in enumerate(rows) if _plottable(r.get(x), xlog) and _plottable(r.get(y), ylog)]
    if not usable:
        return rows
    sub = [rows[i] for i in usable]
    bars = [v for r in sub for v in (r.get("lo"), r.get("hi")) if isinstance(v, (int, float))]  # the y axis spans them
    pts = list(
        zip(
            _pixels([r[x] for r in sub], "log" if xlog else "linear", xreverse, size[0], False),
            _pixels([r[y] for r in sub], "log" if ylog else "linear", False, size[1], True, bars),
        )
    )
    sign = 1 if higher else -1
    best = sorted(range(len(sub)), key=lambda i: (-sign * sub[i][y], sub[i]["model"]))
    wanted = [i for i in best if sub[i].get("frontier")] + best[:top]
    if cheaper is not None:
        wanted += _undominated(sub, best, x, y, sign, cheaper)
    for i, side in place_labels(pts, [r["name"] for r in sub], wanted, size).items():
        sub[i]["lpos"] = side
    return rows


def _plottable(v: Any, log: bool) -> bool:
    """A number a chart can place: any int or float, and above 0 on a log axis."""
    return isinstance(v, (int, float)) and (not log or v > 0)


def _undominated(sub: list[dict], best: list[int], x: str, y: str, sign: int, cheaper: bool) -> list[int]:
    """The points (indices into `sub`, in `best`'s order) no other point beats on both axes: as good or better on
    y (`sign` 1: higher is better) and on x (`cheaper`: smaller is better), at another position."""
    better_x = (lambda a, b: a <= b) if cheaper else (lambda a, b: a >= b)
    return [
        i
        for i in best
        if not any(
            j != i
            and better_x(sub[j][x], sub[i][x])
            and sign * sub[j][y] >= sign * sub[i][y]
            and (sub[j][x], sub[j][y]) != (sub[i][x], sub[i][y])
            for j in range(len(sub))
        )
    ]


def _label_layers(alt: Any, x: Any, y: Any) -> list[Any]:
    """One text layer per side label_points chose (Vega-Lite cannot encode a mark's alignment per point), on the
    points' own x and y encodings (their scales and axis, so the layers share them); the highlighted model's own
    label (the ring's) replaces its static one."""
    base = alt.Chart(alt.NamedData(DATA))
    g = LABEL_GAP_PX
    layout = {
        "r": {"align": "left", "baseline": "middle", "dx": g},
        "l": {"align": "right", "baseline": "middle", "dx": -g},
        "t": {"align": "center", "baseline": "bottom", "dy": -g},
        "b": {"align": "center", "baseline": "top", "dy": g},
        "tr": {"align": "left", "baseline": "bottom", "dx": 2, "dy": -g},
        "tl": {"align": "right", "baseline": "bottom", "dx": -2, "dy": -g},
    }
    return [
        base.mark_text(fontSize=10, **layout[side])
        .encode(x=x, y=y, text="name:N")
        .transform_filter(f"datum.lpos === '{side}' && datum.model !== hl")
        for side in LABEL_SIDES
    ]


def _scatter(
    alt: Any,
    x: str,
    y: str,
    xtitle: str,
    ytitle: str,
    *,
    xlog: bool = False,
    xreverse: bool = False,
    ylog: bool = False,
    description: str,
    hover_label: bool = True,
    error_bars: str = "",
) -> Any:
    """Points coloured by weights, the highlighted model ringed and named; with hover_label, the point under the
    pointer named too (off when the chart is layered into another, where vega cannot resolve the selection).
    With error_bars (the bars' level, "95%"), a vertical rule from `lo` to `hi` (the y value's interval at that
    level) behind each point that has one."""
    hl = alt.param(name="hl", value="")
    is_hl = "datum.model === hl"
    base = alt.Chart(alt.NamedData(DATA))
    xscale = alt.Scale(type="log", reverse=xreverse) if xlog else alt.Scale(zero=False, reverse=xreverse)
    # the point under the pointer (or finger) is labelled with its name; not `nearest`: its voronoi cells would
    # take the tooltip and the link from the points
    hover = alt.selection_point(name="hover", on="pointerover", clear="pointerout", fields=["model"], empty=False)
    weights = alt.Scale(domain=["open", "closed", "unknown"], range=["#2e7d32", "#3f51b5", "#9e9e9e"])
    interval_tips = [alt.Tooltip("ci:N", title=f"{error_bars} interval")] if error_bars else []
    xenc = alt.X(f"{x}:Q", title=xtitle, scale=xscale)
    yenc = alt.Y(f"{y}:Q", title=ytitle, scale=alt.Scale(type="log") if ylog else alt.Scale(zero=False))
    points = (
        base.mark_circle(opacity=0.75, stroke="white", strokeWidth=0.5, cursor="pointer")
        .encode(
            x=xenc,
            y=yenc,
            color=alt.Color("weights:N", title="Weights", scale=weights),
            size=alt.condition(is_hl, alt.value(260), alt.value(50)),
            tooltip=[
                alt.Tooltip("name:N", title="Model"),
                alt.Tooltip("org:N", title="Organisation"),
                alt.Tooltip(f"{x}_t:N", title=xtitle),
                alt.Tooltip(f"{y}_t:N", title=ytitle),
                *interval_tips,
            ],
        )
        .add_params(hl, *([hover] if hover_label else []))
    )
    label = (
        base.mark_text(align="left", dx=9, dy=-9, fontWeight="bold")
        .encode(x=f"{x}:Q", y=f"{y}:Q", text="name:N")
        .transform_filter(is_hl)
    )
    ring = (
        base.mark_point(shape="circle", size=420, strokeWidth=2.5, color="#e91e63")
        .encode(x=f"{x}:Q", y=f"{y}:Q")
        .transform_filter(is_hl)
    )
    layers = [points, ring, label, *_label_layers(alt, xenc, yenc)]
    if error_bars:  # drawn first, so the points sit on top; the y scale spans the bars too
        bars = (
            base.mark_rule(opacity=0.35, strokeWidth=1.2)
            .encode(
                x=f"{x}:Q",
                y=alt.Y("lo:Q", title=ytitle),
                y2="hi:Q",
                # one legend for both layers, its symbols as opaque as the points
                color=alt.Color("weights:N", title="Weights", scale=weights, legend=alt.Legend(symbolOpacity=0.75)),
            )
            .transform_filter("datum.lo != null")
        )
        layers.insert(0, bars)
    if hover_label:
        layers.append(
            base.mark_text(align="left", dx=8, dy=-8)
            .encode(x=f"{x}:Q", y=f"{y}:Q", text="name:N")
            .transform_filter(hover)
            .transform_filter("!datum.lpos")
        )
    return alt.layer(*layers).properties(width="container", height=340, description=description)


# Each chart's spec without its data is kept by the digest of how it is drawn, so a build builds with altair only the
# charts whose drawing changed. The chart functions are handed `_ALT`, which records the altair calls they make
# (`alt.Chart(...).mark_point(...).encode(...)`: names and plain arguments, data-free: the rows go to the spec's
# datasets) instead of making them; `_to_dict` keys the record (with the code's digest, which has altair's
# version) and takes the spec kept under that key, else replays the record through altair once and keeps its spec.
# A record and a replay of it make the same objects in the same order as direct calls would, so the spec is the
# same bytes either way (tools/same_output.sh); the rows a chart draws are never in its key, so an edit to the data
# re-draws only the charts whose titles, scales or layers it changes.


class _Rec:
    """A recorded altair value; `x.name` records `x.name` (a _Name)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> _Name:
        if name.startswith("_"):  # Python's own protocols (copy, pickle) find nothing here
            raise AttributeError(name)
        return _Name(self, name)


class _Name(_Rec):
    """`base.name` recorded (`alt` itself when base is None); calling it records a _Call, iterating it (a layer
    chart's `.layer`) records each _Item (its length kept as a spec is: _length)."""

    __slots__ = ("base", "name")

    def __init__(self, base: _Rec | None, name: str):
        self.base, self.name = base, name

    def __call__(self, *args: Any, **kwargs: Any) -> _Call:
        return _Call(self, args, kwargs)

    def __iter__(self):
        return iter([_Item(self, i) for i in range(_length(self))])


class _Call(_Rec):
    """`fn(*args, **kwargs)` recorded, fn a _Name."""

    __slots__ = ("fn", "args", "kwargs")

    def __init__(self, fn: _Name, args: tuple, kwargs: dict[str, Any]):
        self.fn, self.args, self.kwargs = fn, args, kwargs


class _Item(_Rec):
    """`seq[index]` recorded, seq a _Name (what iterating it gives)."""

    __slots__ = ("seq", "index")

    def __init__(self, seq: _Name, index: int):
        self.seq, self.index = seq, index


#: what build_charts hands the chart functions as `alt`
_ALT = _Name(None, "")


def _replay(v: Any, made: dict[int, Any]) -> Any:
    """A recorded value made with altair (each recorded object once: `made`, by id, so an object used twice is one
    object, as in direct calls); containers rebuilt around their made contents, anything else as it is."""
    if isinstance(v, _Rec):
        if id(v) not in made:
            made[id(v)] = _make(v, made)
        return made[id(v)]
    if type(v) is list or type(v) is tuple:
        return type(v)(_replay(x, made) for x in v)
    if type(v) is dict:
        return {k: _replay(x, made) for k, x in v.items()}
    return v


def _make(v: Any, made: dict[int, Any]) -> Any:
    if isinstance(v, _Call):
        fn = _replay(v.fn, made)
        return fn(*_replay(v.args, made), **_replay(v.kwargs, made))
    if isinstance(v, _Item):
        return _replay(v.seq, made)[v.index]
    if v.base is None:  # _ALT
        import altair

        return altair
    return getattr(_replay(v.base, made), v.name)


def _plain(v: Any) -> Any:
    """A recorded value as plain data (what its key is made of): names, arguments and their order."""
    if isinstance(v, _Call):
        return ("call", _plain(v.fn), _plain(v.args), _plain(v.kwargs))
    if isinstance(v, _Item):
        return ("item", _plain(v.seq), v.index)
    if isinstance(v, _Name):
        return ("name", None if v.base is None else _plain(v.base), v.name)
    if type(v) is list or type(v) is tuple:
        return type(v)(_plain(x) for x in v)
    if type(v) is dict:
        return {k: _plain(x) for k, x in v.items()}
    return v


#: The store chart specs are kept in while build_charts runs under `kept_specs` (get/put of bytes by key, as
#: build/simcache.FileStore)
_SPECS: Any = None


class kept_specs:
    """`with kept_specs(store):` build_charts takes each chart's spec kept in `store` under its drawing's key and
    keeps there the ones it makes (without a store, every spec is made)."""

    def __init__(self, store: Any):
        self.store = store

    def __enter__(self) -> None:
        global _SPECS
        self.outer, _SPECS = _SPECS, self.store

    def __exit__(self, *exc: object) -> None:
        global _SPECS
        _SPECS = self.outer


def _kept(data: bytes | None) -> Any:
    """A kept entry read back, or None when there is none or it is damaged (it is then made again and replaced)."""
    import pickle

    if data is None:
        return None
    try:
        return pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
        return None


def kept_dict(data: bytes | None) -> dict | None:
    """A kept dict (a chart spec; every chart: assembly.cached_charts), or None (none, damaged, not a dict)."""
    kept = _kept(data)
    return kept if isinstance(kept, dict) else None


def _length(seq: _Name) -> int:
    """How many items a recorded sequence has: kept by its record's key as a spec is, else replayed to count."""
    import pickle

    from .. import reuse

    key = reuse.key_of("chart-length", reuse.code_digest(), _plain(seq))
    kept = _kept(_SPECS.get(key)) if _SPECS is not None and key is not None else None
    if type(kept) is int:
        return kept
    length = len(_replay(seq, {}))
    if _SPECS is not None and key is not None:
        _SPECS.put(key, pickle.dumps(length, protocol=5))
    return length


def _spec(chart: Any) -> dict[str, Any]:
    """The spec of a chart without its data: kept by its drawing's key (see _ALT), else made through altair."""
    import pickle

    from .. import reuse

    if not isinstance(chart, _Rec):
        return chart.to_dict(validate=False)
    key = reuse.key_of("chart-spec", reuse.code_digest(), _plain(chart))
    if key is None:  # an argument that cannot be pickled: no key, made every time
        return _replay(chart, {}).to_dict(validate=False)
    spec = kept_dict(_SPECS.get(key)) if _SPECS is not None else None
    if spec is not None:
        return spec
    spec = _replay(chart, {}).to_dict(validate=False)
    if _SPECS is None:
        return spec
    data = pickle.dumps(spec, protocol=5)
    _SPECS.put(key, data)
    return pickle.loads(data)  # as a kept spec is read back: the same objects either way


def _to_dict(chart: Any, data: dict[str, list[dict]]) -> dict[str, Any]:
    spec = _spec(chart)
    spec.pop("$schema", None)
    spec["datasets"] = data
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    return spec


def _digits(rows: list[dict], units: dict[str, str]) -> dict[str, int]:
    """Decimals of each numeric field, from its unit and all its values on the chart (numbers.decimals)."""
    return {f: decimals(u, [r.get(f) for r in rows]) for f, u in units.items()}


def _texts(rows: list[dict], *fields: tuple[str, str]) -> list[dict]:
    """Each row's numbers as the tooltip shows them, written here by numbers.number (the browser receives text,
    never a format to apply): field `f` (with its unit, (field, unit) each) gets `f_t`, with the decimals the
    tables use for those values."""
    d = _digits(rows, dict(fields))
    for r in rows:
        for f, _ in fields:
            r[f + "_t"] = number(r.get(f), d[f])
    return rows


def _fallback(
    rows: list[dict],
    cols: list[tuple[str, str]],
    key: str,
    reverse: bool = True,
    n: int = 10,
    units: dict[str, str] | None = None,
) -> dict[str, Any]:
    ordered = sorted(
        rows,
        key=lambda r: ((r.get(key) is None), -(r.get(key) or 0) if reverse else (r.get(key) or 0), r.get("model", "")),
    )
    return {
        "columns": [c[1] for c in cols],
        "fields": [c[0] for c in cols],
        "rows": ordered[:n],
        "total": len(rows),
        "digits": _digits(rows, units or {}),
    }


def build_charts(ctx: SiteContext, lk: Lookups) -> dict[str, dict[str, Any]]:
    """Every chart with data: {name: {title, description, spec, fallback, models, highlight}}: the charts
    methodology/site.yaml draws (charts.draw: each name's kind, boards and words; a chart whose boards the site lacks
    is left out), in its order, then each model's prices and each board's best value over time. The charts are
    drawn through `_ALT` (altair only for a spec not kept: kept_specs)."""
    alt = _ALT

    out: dict[str, dict[str, Any]] = {}

    def add(
        kind: str,
        title: str,
        description: str,
        chart: Any,
        rows: list[dict[str, Any]],
        fallback: dict[str, Any],
        highlight: str = "model",
    ) -> None:
        if not rows:
            return
        out[kind] = {
            "title": title,
            "description": description,
            "spec": _to_dict(chart, {DATA: rows}),
            "fallback": fallback,
            "models": sorted({r["model"] for r in rows if "model" in r}),
            "highlight": highlight,
        }

    for name, drawn in ctx.presentation.charts.items():
        if all(drawn[k] in ctx.boards for k in ("board", "x", "y") if k in drawn):
            DRAW[drawn["kind"]](alt, ctx, lk, add, out, name, drawn)
    _price_chart(alt, ctx, lk, out)
    _best_over_time_charts(alt, ctx, lk, out)
    for kind in out:
        out[kind]["alt"] = alt_text(out[kind])
        spec = out[kind]["spec"]
        spec["usermeta"] = {"kind": kind}
        spec["description"] = out[kind]["alt"]  # Vega names its container with it, over the page's aria-label
        spec.setdefault("params", [{"name": "hl", "value": ""}])
        _assert_finite(spec)
    return out


def _effective_cost(ctx: SiteContext, bid: str) -> dict[str, float]:
    """A cost board's effective cost per model: the board's own value (the engine's row value), never a guessed
    component."""
    return _board_values(ctx, bid) or _cost_component(ctx, bid, "effective_cost")


def _definition(ctx: SiteContext, bid: str) -> Mapping[str, Any]:
    """The index definition a board is computed by ({} when there is none)."""
    return (ctx.index_defs or {}).get(definition_of(ctx, bid)) or {}


def _named(ctx: SiteContext, bid: str) -> tuple[str, str]:
    """A board's display name (pages.board_title) and unit, the words and unit a chart's generic texts use."""
    board: Mapping[str, Any] = ctx.boards.get(bid) or {}
    return board_title(ctx, bid), str(board.get("unit") or "")


def _axis(name: str, unit: str, *notes: str) -> str:
    """An axis title: a column's name (numbers.header: "Effective cost (USD per task)") with `notes` ("log") in its
    brackets."""
    head = header(name, unit)
    if not notes:
        return head
    if head != name:
        return f"{head[:-1]}, {', '.join(notes)})"
    return f"{name} ({', '.join(notes)})"


def _words(drawn: Mapping[str, Any], defaults: dict[str, str], **values: str) -> dict[str, str]:
    """A chart's texts: each field of `defaults` as its charts.draw entry gives it (data/chart_texts: its
    placeholders filled with `values`), else the kind's generic default, made from the boards' own names."""
    return {k: fill(v, values) if isinstance(v := drawn.get(k), str) else d for k, d in defaults.items()}


def _with_bars(words: dict[str, str], level: str) -> str:
    """A description followed by its interval bars' sentence, where the chart draws bars (`level` not "")."""
    return words["description"] + (f" {words['bars']}" if level else "")


def _value_vs_cost(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """value-vs-cost: board y against cost board x's effective cost (log scale), with y's interval bars."""
    ny, nx, ux = _named(ctx, drawn["y"])[0], *_named(ctx, drawn["x"])
    defaults = {
        "title": f"{ny} vs {nx}",
        "description": f"{ny} against {nx} (log scale); models without a value on both are left out.",
        "x_title": _axis(nx, ux, "log"),
        "x_column": header(nx, ux),
    }
    _value_vs_x(alt, ctx, lk, add, name, drawn, ("cost", ux, _effective_cost(ctx, drawn["x"])), defaults)


def _value_vs_speed(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """value-vs-speed: board y against cost board x's response time (log scale, reversed: faster to the right), with
    y's interval bars; the time is the component its definition's response_time benchmark names, or its
    `response_time`."""
    ny = _named(ctx, drawn["y"])[0]
    time_id = (_definition(ctx, drawn["x"]).get("response_time") or {}).get("benchmark")
    rt = (_cost_component(ctx, drawn["x"], time_id) if time_id else {}) or _cost_component(
        ctx, drawn["x"], "response_time"
    )
    defaults = {
        "title": f"{ny} vs response time",
        "description": f"{ny} against response time (log scale, reversed: faster to the right).",
        "x_title": "Response time (s, log, reversed)",
        "x_column": "Response time (s)",
    }
    _value_vs_x(alt, ctx, lk, add, name, drawn, ("seconds", "seconds", rt), defaults, reverse=True)


def _value_vs_x(
    alt: Any,
    ctx: SiteContext,
    lk: Lookups,
    add: _Add,
    name: str,
    drawn: dict,
    x: tuple[str, str, dict[str, float]],
    defaults: dict[str, str],
    reverse: bool = False,
) -> None:
    """value-vs-cost's and value-vs-speed's chart: board y (with its interval bars) against `x` = (the rows' field,
    its unit, {model: value}) on a log scale (`reverse`: reversed); models without a positive x are left out.
    `defaults`: the kind's title, description and x texts; y's texts and the bars' sentence are made here."""
    key, ux, xs = x
    ny, uy = _named(ctx, drawn["y"])
    err = _board_intervals(ctx, drawn["y"])
    level = _bar_level(ctx, drawn["y"], err)
    values = _board_values(ctx, drawn["y"])
    words = _words(
        drawn,
        {
            **defaults,
            "bars": f"Vertical bars: the {level} interval of {ny}.",
            "y_title": _axis(ny, uy),
            "y_column": header(ny, uy),
        },
        level=level,
    )
    rows = _with_ci(
        [
            _point(lk, m, iq=values[m], **{key: xs[m]}, **err.get(m, {}))
            for m in sorted(values)
            if m in xs and xs[m] > 0
        ],
        uy,
    )
    desc = _with_bars(words, level)
    _texts(rows, (key, ux), ("iq", uy))  # the tooltips' texts
    label_points(rows, key, "iq", xlog=True, xreverse=reverse, cheaper=True)
    add(
        name,
        words["title"],
        desc,
        _scatter(
            alt,
            key,
            "iq",
            words["x_title"],
            words["y_title"],
            xlog=True,
            xreverse=reverse,
            description=desc,
            error_bars=level,
        ),
        rows,
        _fallback(
            rows,
            [("name", "Model"), ("iq", words["y_column"]), (key, words["x_column"])],
            "iq",
            units={"iq": uy, key: ux},
        ),
    )


def _token_cost(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """token-vs-effective-cost: a cost board's own view, the price of a task's tokens against what the model
    actually spends on it (its effective cost), both on log scales."""
    bid = drawn["board"]
    nb, ub = _named(ctx, bid)
    eff = _effective_cost(ctx, bid)
    token = _cost_component(ctx, bid, "token-cost")
    words = _words(
        drawn,
        {
            "title": f"Token cost vs {nb}",
            "description": f"A task's token cost against {nb}, both on log scales; models without both are left out.",
            "x_title": _axis("Token cost", ub, "log"),
            "y_title": _axis(nb, ub, "log"),
            "x_column": header("Token cost", ub),
            "y_column": header(nb, ub),
        },
    )
    rows = [
        _point(lk, m, token=token[m], cost=eff[m]) for m in sorted(token) if m in eff and token[m] > 0 and eff[m] > 0
    ]
    _texts(rows, ("token", ub), ("cost", ub))  # the tooltips' texts
    label_points(rows, "token", "cost", xlog=True, ylog=True, higher=False)
    add(
        name,
        words["title"],
        words["description"],
        _scatter(
            alt,
            "token",
            "cost",
            words["x_title"],
            words["y_title"],
            xlog=True,
            ylog=True,
            description=words["description"],
        ),
        rows,
        _fallback(
            rows,
            [("name", "Model"), ("token", words["x_column"]), ("cost", words["y_column"])],
            "cost",
            units={"token": ub, "cost": ub},
        ),
    )


def _distribution(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """distribution: a histogram of a board's values over its ranked models, the highlighted model's value as a
    rule."""
    nb, ub = _named(ctx, drawn["board"])
    values = _board_values(ctx, drawn["board"])
    rows = [_point(lk, m, iq=values[m]) for m in sorted(values)]
    if not rows:
        return
    words = _words(
        drawn,
        {
            "title": f"Distribution of {nb}",
            "description": f"Distribution of {nb} across ranked models, in bins of 5.",
            "x_title": _axis(nb, ub),
            "y_title": "Models",
            "x_column": header(nb, ub),
        },
    )
    desc = words["description"]
    hist = (
        alt.Chart(alt.NamedData(DATA))
        .mark_bar()
        .encode(
            x=alt.X("iq:Q", bin=alt.Bin(step=5), title=words["x_title"]),
            y=alt.Y("count():Q", title=words["y_title"]),
            tooltip=[
                alt.Tooltip("iq:Q", bin=alt.Bin(step=5), title=words["x_title"]),
                alt.Tooltip("count():Q", title=words["y_title"]),
            ],
        )
        .properties(width="container", height=260, description=desc)
    )
    hl_rule = (
        alt.Chart(alt.NamedData(DATA))
        .mark_rule(color="#e91e63", strokeWidth=3)
        .encode(x="iq:Q")
        .transform_filter("datum.model === hl")
    )
    chart = alt.layer(hist.add_params(alt.param(name="hl", value="")), hl_rule)
    vals = sorted(r["iq"] for r in rows)
    summary = [
        {"model": "", "name": label, "iq": v}
        for label, v in (("Lowest", vals[0]), ("Median", vals[len(vals) // 2]), ("Highest", vals[-1]))
    ]
    add(
        name,
        words["title"],
        desc,
        chart,
        rows,
        {
            "columns": ["Statistic", words["x_column"]],
            "fields": ["name", "iq"],
            "rows": summary,
            "total": len(rows),
            "digits": _digits(rows, {"iq": ub}),
        },
    )


def _value_vs_price(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, kind: str, drawn: dict) -> None:
    """value-vs-price: a board against blended price (log scale), with its interval bars where it has them."""
    bid = drawn["board"]
    nb, ub = _named(ctx, bid)
    values = _board_values(ctx, bid)
    err = _board_intervals(ctx, bid)
    level = _bar_level(ctx, bid, err)
    rows = _with_ci(
        [
            _point(lk, m, index=values[m], price=p, **err.get(m, {}))
            for m in sorted(values)
            if (p := _blended(lk, m)) and p > 0
        ],
        ub,
    )
    words = _words(
        drawn,
        {
            "title": f"{nb} vs price",
            "description": f"{nb} against blended price (3:1 input:output, USD per million tokens, log scale).",
            "bars": f"Vertical bars: the {level} interval of {nb}.",
            "x_title": "Blended price (USD / M tokens, log)",
            "y_title": _axis(nb, ub),
            "x_column": "Blended price (USD / M)",
            "y_column": header(nb, ub),
        },
        level=level,
    )
    desc = _with_bars(words, level)
    _texts(rows, ("price", "USD"), ("index", ub))  # the tooltips' texts
    label_points(rows, "price", "index", xlog=True, cheaper=True)
    add(
        kind,
        words["title"],
        desc,
        _scatter(
            alt, "price", "index", words["x_title"], words["y_title"], xlog=True, description=desc, error_bars=level
        ),
        rows,
        _fallback(
            rows,
            [("name", "Model"), ("index", words["y_column"]), ("price", words["x_column"])],
            "index",
            units={"index": ub, "price": "USD"},
        ),
    )


def _references(ctx: SiteContext, bid: str) -> list[dict]:
    """A board's references (a human baseline) as the frontier charts draw them: label and value."""
    return _texts(
        [
            {"label": str(r.get("label") or r.get("id")), "y": known(r.get("value"))}
            for r in (ctx.boards[bid].get("references") or [])
            if known(r.get("value")) is not None
        ],
        ("y", _named(ctx, bid)[1]),
    )


def _fronts(ctx: SiteContext, bid: str) -> dict[str, Any]:
    """A board's frontiers (indices/pedagogy: "value" and "size"), {} when it has none."""
    return (ctx.frontiers or {}).get(bid) or {}


def _value_frontier(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """value-frontier: a board's value frontier against input price, with its hull and references."""
    _frontier_charts(alt, ctx, lk, "value", drawn, out, name)


def _size_frontier(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """size-frontier: a board's size frontier against total parameters, with its hull and references."""
    _frontier_charts(alt, ctx, lk, "size", drawn, out, name)


def _value_frontier_over_time(
    alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict
) -> None:
    _frontier_evolution(alt, ctx, lk, drawn, add, name)


def _board_vs_board(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict) -> None:
    """board-vs-board: board y against board x for the models on both."""
    (nx, ux), (ny, uy) = _named(ctx, drawn["x"]), _named(ctx, drawn["y"])
    xs = _board_values(ctx, drawn["x"])
    ys = _board_values(ctx, drawn["y"])
    words = _words(
        drawn,
        {
            "title": f"{ny} vs {nx}",
            "description": f"{ny} against {nx} for the models on both.",
            "x_title": _axis(nx, ux),
            "y_title": _axis(ny, uy),
            "x_column": header(nx, ux),
            "y_column": header(ny, uy),
        },
    )
    # the data's field names (cdpk: x, send: y) are the spec's, not words a reader sees
    rows = [_point(lk, m, cdpk=xs[m], send=ys[m]) for m in sorted(xs) if m in ys]
    _texts(rows, ("cdpk", ux), ("send", uy))  # the tooltips' texts
    label_points(rows, "cdpk", "send")
    add(
        name,
        words["title"],
        words["description"],
        _scatter(alt, "cdpk", "send", words["x_title"], words["y_title"], description=words["description"]),
        rows,
        _fallback(
            rows,
            [("name", "Model"), ("cdpk", words["x_column"]), ("send", words["y_column"])],
            "cdpk",
            units={"cdpk": ux, "send": uy},
        ),
    )


def _accuracy_vs_calibration(
    alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, name: str, drawn: dict
) -> None:
    """accuracy-vs-calibration: an accuracy board (y) against its calibration error board (x; lower is better)."""
    (nx, ux), (ny, uy) = _named(ctx, drawn["x"]), _named(ctx, drawn["y"])
    acc, cal = _board_values(ctx, drawn["y"]), _board_values(ctx, drawn["x"])
    words = _words(
        drawn,
        {
            "title": f"{ny} vs {nx}",
            "description": f"{ny} against {nx} (lower error is better).",
            "x_title": _axis(nx, ux),
            "y_title": _axis(ny, uy),
            "x_column": header(nx, ux),
            "y_column": header(ny, uy),
        },
    )
    rows = [_point(lk, m, accuracy=acc[m], calibration=cal[m]) for m in sorted(acc) if m in cal]
    _texts(rows, ("calibration", ux), ("accuracy", uy))  # the tooltips' texts
    label_points(rows, "calibration", "accuracy", cheaper=True)
    add(
        name,
        words["title"],
        words["description"],
        _scatter(alt, "calibration", "accuracy", words["x_title"], words["y_title"], description=words["description"]),
        rows,
        _fallback(
            rows,
            [("name", "Model"), ("accuracy", words["y_column"]), ("calibration", words["x_column"])],
            "accuracy",
            units={"accuracy": uy, "calibration": ux},
        ),
    )


def alt_text(chart: Mapping[str, Any]) -> str:
    """A chart's text alternative: its title and description, how many points it plots, and the first points of its
    data summary with their values (the leaders, or a frontier's members), as the summary table writes them."""
    fb = chart["fallback"]
    shown = []
    for row in fb["rows"][:6]:
        values = [
            f"{col} {number(row[f], fb['digits'][f]) if f in fb['digits'] else row[f]}"
            for f, col in zip(fb["fields"][1:], fb["columns"][1:])
            if row.get(f) is not None and not isinstance(row.get(f), bool)
        ]
        shown.append(f"{row[fb['fields'][0]]} ({', '.join(values)})" if values else str(row[fb["fields"][0]]))
    head = f"{chart['title']}: {chart['description']} {fb['total']} points plotted."
    return head + (f" {fb['columns'][0]}: " + "; ".join(shown) + "." if shown else "")


def _assert_finite(obj: Any) -> None:
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ValueError("non-finite number in chart spec")
    if isinstance(obj, dict):
        for v in obj.values():
            _assert_finite(v)
    elif isinstance(obj, list):
        for v in obj:
            _assert_finite(v)


def _changed_months(by_month: dict[str, Any]) -> list[str]:
    """Months whose frontier differs from the month before (the frontier's history without repeats)."""
    out, last = [], None
    for month in sorted(by_month):
        cur = by_month[month]
        if cur != last:
            out.append(month)
        last = cur
    return out


#: a frontier chart's x axis (field of its points: "value", against input price, or "size"): title, the summary
#: table's column and the unit
FRONTIERS = {
    "value": ("Input price (USD / M tokens, log)", "Price (USD / M)", "USD"),
    "size": ("Total parameters (billions, log)", "Params (B)", "billions"),
}


def _frontier_charts(alt: Any, ctx: SiteContext, lk: Lookups, key: str, drawn: dict, out: dict, name: str) -> None:
    """A board's value frontier (`key` "value", against input price) or size frontier, with its hull and its
    references (a human baseline) as rules."""
    bid = drawn["board"]
    fr = _fronts(ctx, bid).get(key) or {}
    members = set(fr.get("frontier") or [])
    rows = [
        _point(lk, p["model"], x=known(p.get("x_raw")), cdpk=known(p.get("y")), frontier=p["model"] in members)
        for p in fr.get("points") or []
        if known(p.get("x_raw")) and known(p.get("y")) is not None
    ]
    if not rows:
        return
    nb, ub = _named(ctx, bid)
    xtitle, xcolumn, _ = FRONTIERS[key]
    if key == "value":
        desc = (
            f"{nb} against input price (log scale) for {{count}} priced models; the orange line is the value "
            f"frontier (the rising convex hull in log price). {{excluded}} models without a positive input price "
            f"are left out."
        )
    else:
        desc = (
            f"{nb} against total parameters (log scale) for {{count}} models with a published parameter count, open "
            f"or closed weights; the orange line is the size frontier. {{excluded}} models are left out (no "
            f"published size)."
        )
    counts = {"count": str(len(rows)), "excluded": str(len(fr.get("excluded") or []))}
    defaults = {
        "title": f"{nb} {key} frontier",
        "description": fill(desc, counts),
        "x_title": xtitle,
        "y_title": _axis(nb, ub),
        "x_column": xcolumn,
        "y_column": header(nb, ub),
        "y_label": nb,
    }
    out[name] = _frontier_chart(alt, key, _words(drawn, defaults, **counts), ub, fr, rows, _references(ctx, bid))


def _known_pairs(pairs: list[list[Any]]) -> list[tuple[int, float, float]]:
    """(position, x, y) of each [x, y] pair whose two numbers are known."""
    out = []
    for i, h in enumerate(pairs):
        x, y = known(h[0]), known(h[1])
        if x is not None and y is not None:
            out.append((i, x, y))
    return out


def _frontier_chart(
    alt: Any,
    key: str,
    words: dict[str, str],
    unit: str,
    fr: dict[str, Any],
    rows: list[dict[str, Any]],
    refs: list[dict],
) -> dict[str, Any]:
    """One frontier (`key` "value" or "size"): its points, the hull as a line, the references as rules."""
    xunit = FRONTIERS[key][2]
    hull = [{"x": 10**x, "y": y, "order": i} for i, x, y in _known_pairs(fr.get("hull") or [])]
    desc = words["description"]
    # the points' field names (cdpk: the board's value) are the spec's, not words a reader sees
    _texts(rows, ("x", xunit), ("cdpk", unit))  # the tooltips' texts
    label_points(rows, "x", "cdpk", xlog=True, top=3, size=(LABEL_PLOT[0], 360.0))
    scatter = _scatter(
        alt, "x", "cdpk", words["x_title"], words["y_title"], xlog=True, description=desc, hover_label=False
    )
    line = (
        alt.Chart(alt.NamedData("hull"))
        .mark_line(color="#ff6f00", strokeWidth=2.5)
        .encode(x="x:Q", y="y:Q", order="order:Q")
    )
    scatter_layers = [layer.properties(data=alt.NamedData(DATA)) for layer in scatter.layer]  # layering lifted it
    layers = [line, *scatter_layers] + ([_reference_rules(alt, words["y_label"])] if refs else [])
    chart = alt.layer(*layers).properties(width="container", height=360, description=desc)
    front_rows = sorted((r for r in rows if r["frontier"]), key=lambda r: r["x"])
    return {
        "title": words["title"],
        "description": desc,
        "spec": _to_dict(chart, {DATA: rows, "hull": hull, "refs": refs}),
        "fallback": {
            "columns": ["Frontier model", words["y_column"], words["x_column"]],
            "fields": ["name", "cdpk", "x"],
            "rows": front_rows,
            "total": len(rows),
            "digits": _digits(rows, {"cdpk": unit, "x": xunit}),
        },
        "models": sorted(r["model"] for r in rows),
        "highlight": "model",
    }


def _reference_rules(alt: Any, label: str) -> Any:
    """A board's references (a human baseline) as dashed horizontal rules; `label` names the board's value in
    their tooltips."""
    return (
        alt.Chart(alt.NamedData("refs"))
        .mark_rule(color="#757575", strokeDash=[4, 4])
        .encode(y="y:Q", tooltip=[alt.Tooltip("label:N", title="Reference"), alt.Tooltip("y_t:N", title=label)])
    )


def _frontier_evolution(alt: Any, ctx: SiteContext, lk: Lookups, drawn: dict, add: _Add, name: str) -> None:
    """A board's value frontier over time: one line per month it changed, the first and latest in colour."""
    fr = _fronts(ctx, drawn["board"]).get("value") or {}
    nb, ub = _named(ctx, drawn["board"])
    evo: list[dict[str, Any]] = []
    by_hull = fr.get("hull_by_month") or {}
    for month in _changed_months(fr.get("by_month") or {}):
        for order, x, y in _known_pairs(by_hull.get(month) or []):
            evo.append({"month": month, "x": 10**x, "cdpk": y, "order": order})
    if not evo:
        return
    _texts(evo, ("cdpk", ub), ("x", "USD"))
    eras = frontier_eras(sorted({e["month"] for e in evo}))
    for e in evo:
        e["era"] = eras[e["month"]]
    words = _words(
        drawn,
        {
            "title": f"{nb} value frontier over time",
            "description": (
                f"How the value frontier of {nb} against input price moved: one line for each month in which it "
                f"changed (by release date); the first and the latest in colour, those in between in grey."
            ),
            "x_title": "Input price (USD / M tokens, log)",
            "y_title": _axis(nb, ub),
            "x_label": "Input price",
            "y_label": nb,
        },
    )
    desc = words["description"]
    domain = sorted(set(eras.values()), key=lambda era: ("first" not in era, "latest" in era))
    palette = [{"first": "#3f51b5", "latest": "#e65100"}.get(era.split(" ")[0], "#9e9e9e") for era in domain]
    lines = (
        alt.Chart(alt.NamedData(DATA))
        .mark_line(point=True)
        .encode(
            x=alt.X("x:Q", scale=alt.Scale(type="log"), title=words["x_title"]),
            y=alt.Y("cdpk:Q", title=words["y_title"], scale=alt.Scale(zero=False)),
            color=alt.Color("era:N", title="Frontier as of", scale=alt.Scale(domain=domain, range=palette)),
            opacity=alt.condition("datum.era === 'in between'", alt.value(0.45), alt.value(1)),
            detail="month:O",
            order="order:Q",
            tooltip=[
                alt.Tooltip("month:O", title="As of"),
                alt.Tooltip("cdpk_t:N", title=words["y_label"]),
                alt.Tooltip("x_t:N", title=words["x_label"]),
            ],
        )
    )
    # the grey lines first, so the first and the latest frontier are drawn over them
    chart = alt.layer(
        lines.transform_filter("datum.era === 'in between'"),
        lines.transform_filter("datum.era !== 'in between'"),
    ).properties(width="container", height=340, description=desc)
    months = _changed_months(fr.get("by_month") or {})
    summary = [
        {
            "month": m,
            "name": ", ".join(lk.model_meta(x)["name"] for x in (fr["by_month"][m] or [])[-2:]),
            "n": len(fr["by_month"][m] or []),
        }
        for m in months[-8:]
    ]
    add(
        name,
        words["title"],
        desc,
        chart,
        evo,
        {
            "columns": ["As of", "Top of the frontier", "Models on it"],
            "fields": ["month", "name", "n"],
            "rows": summary,
            "total": len(months),
            "digits": {"n": 0},
        },
        highlight="",
    )


def frontier_eras(months: list[str]) -> dict[str, str]:
    """Each month of a frontier's history as its line is coloured: "first (YYYY-MM)", "latest (YYYY-MM)", or
    "in between" (one grey for all: fifteen shades of one scale cannot be told apart)."""
    out = dict.fromkeys(months, "in between")
    if months:
        out[months[0]] = f"first ({months[0]})"
        if len(months) > 1:
            out[months[-1]] = f"latest ({months[-1]})"
    return out


def _anchor_chart(alt: Any, ctx: SiteContext, lk: Lookups, add: _Add, out: dict, chart_name: str, drawn: dict) -> None:
    """anchor-curves: the anchor tables of an anchor-mapping board's definition, each benchmark's score mapped to the
    board's value: the published (compressed) table, the original curve it was compressed from, and both ceilings as
    horizontal rules for the highlighted benchmark."""
    anchors = iq_anchors(ctx, definition_of(ctx, drawn["board"]))
    curve, ceil = [], []
    for bid in sorted(anchors):
        a = anchors[bid]
        name = lk.bench_name(bid)
        for order, (x, y) in enumerate(a["points"]):
            curve.append(
                {"benchmark": bid, "name": name, "score": x, "iq": y, "order": order, "curve": "published table"}
            )
        for order, (x, y) in enumerate(a["original"] or []):
            curve.append(
                {
                    "benchmark": bid,
                    "name": name,
                    "score": x,
                    "iq": y,
                    "order": order,
                    "curve": "original (uncompressed)",
                }
            )
        for label, v in (
            ("compressed ceiling", a["ceiling"] if a["ceiling_original"] is not None else None),
            ("ceiling", a["ceiling"] if a["ceiling_original"] is None else None),
            ("original ceiling", a["ceiling_original"]),
        ):
            if v is not None:
                ceil.append({"benchmark": bid, "name": name, "ceiling": label, "iq": v})
    if not curve:
        return
    nb, ub = _named(ctx, drawn["board"])
    _texts(curve, ("score", ""), ("iq", ub))
    _texts(ceil, ("iq", ub))
    words = _words(
        drawn,
        {
            "title": f"{nb} anchor curves",
            "description": (
                f"{nb} anchor curves: each benchmark's score mapped to {nb} by its anchor table (solid). For a "
                f"compressed benchmark the dashed line is the original curve its published table was compressed "
                f"from; on a benchmark's page its ceilings are drawn as horizontal rules."
            ),
            "x_title": "Benchmark score (on the benchmark's own scale)",
            "y_title": _axis(nb, ub),
            "y_label": HEADER.get(ub) or ub or nb,
        },
    )
    desc = words["description"]
    hl = alt.param(name="hl", value="")
    op = alt.condition("hl === '' || datum.benchmark === hl", alt.value(1), alt.value(0.12))
    lines = (
        alt.Chart(alt.NamedData(DATA))
        .mark_line(point=True)
        .encode(
            x=alt.X("score:Q", title=words["x_title"]),
            y=alt.Y("iq:Q", title=words["y_title"], scale=alt.Scale(zero=False)),
            color=alt.Color("name:N", title="Benchmark"),
            detail="curve:N",
            order="order:Q",
            opacity=op,
            strokeDash=alt.StrokeDash(
                "curve:N",
                title="Curve",
                scale=alt.Scale(domain=["published table", "original (uncompressed)"], range=[[1, 0], [6, 3]]),
            ),
            tooltip=[
                alt.Tooltip("name:N", title="Benchmark"),
                alt.Tooltip("curve:N", title="Curve"),
                alt.Tooltip("score_t:N", title="Score"),
                alt.Tooltip("iq_t:N", title=words["y_label"]),
            ],
        )
        .add_params(hl)
        .transform_filter("hl === '' || datum.benchmark === hl")
    )  # a benchmark's page: its own curve, its own x range
    rules = (
        alt.Chart(alt.NamedData("ceilings"))
        .mark_rule(strokeWidth=1.5, strokeDash=[2, 2], color="#e91e63")
        .encode(
            y="iq:Q",
            tooltip=[
                alt.Tooltip("name:N", title="Benchmark"),
                alt.Tooltip("ceiling:N", title="Ceiling"),
                alt.Tooltip("iq_t:N", title=words["y_label"]),
            ],
        )
        .transform_filter("datum.benchmark === hl")
    )
    labels = (
        alt.Chart(alt.NamedData("ceilings"))
        .mark_text(align="left", dx=4, dy=-6, color="#e91e63")
        .encode(y="iq:Q", x=alt.value(0), text="ceiling:N")
        .transform_filter("datum.benchmark === hl")
    )
    chart = alt.layer(lines, rules, labels).properties(width="container", height=360, description=desc)
    summary = [
        {"name": lk.bench_name(b), "tier": a["tier"], "ceiling": a["ceiling"], "original": a["ceiling_original"]}
        for b, a in sorted(anchors.items())
    ]
    out[chart_name] = {
        "title": words["title"],
        "description": desc,
        "spec": _to_dict(chart, {DATA: curve, "ceilings": ceil}),
        "fallback": {
            "columns": ["Benchmark", "Tier", f"Ceiling ({words['y_label']})", f"Original ceiling ({words['y_label']})"],
            "fields": ["name", "tier", "ceiling", "original"],
            "rows": summary,
            "total": len(summary),
            "digits": _digits(summary, {"ceiling": ub, "original": ub}),
        },
        "models": [],
        "highlight": "benchmark",
    }


#: shown on the pages they belong to, never on the charts page: one model's prices, one board's best over time
PRICE_CHART = "price-history"
BEST_PREFIX = "best-over-time-"


#: chart kind (methodology/site.yaml's charts.draw, schemas/site.schema.json) -> its drawing:
#: (alt, ctx, lookups, add, out, the chart's name, its entry)
DRAW: dict[str, Callable[..., None]] = {
    "value-vs-cost": _value_vs_cost,
    "value-vs-speed": _value_vs_speed,
    "token-vs-effective-cost": _token_cost,
    "distribution": _distribution,
    "value-vs-price": _value_vs_price,
    "value-frontier": _value_frontier,
    "value-frontier-over-time": _value_frontier_over_time,
    "size-frontier": _size_frontier,
    "board-vs-board": _board_vs_board,
    "accuracy-vs-calibration": _accuracy_vs_calibration,
    "anchor-curves": _anchor_chart,
}


def _price_source(lk: Lookups, step: Mapping) -> str:
    """A price's source as the model page names it: a vendor list price says whether this repository has a copy;
    a captured price that holds from before its own date (indices/asof.price_history) says its date."""
    if step["source"] == "vendor":
        return "vendor list price" + ("" if step.get("captured") else " (not captured)")
    return lk.source_name(step["source"]) + (
        f" (its price of {step['source_date']})" if step.get("source_date") else ""
    )


def price_rows(ctx: SiteContext, lk: Lookups, mid: str) -> list[dict[str, Any]]:
    """A model's price steps in date order (indices/asof.price_steps), each with its source's name and link."""
    return [
        {
            "date": s["date"],
            "input": known(s.get("input")),
            "output": known(s.get("output")),
            "source": _price_source(lk, s),
            "url": lk.source_url(s["source"], s.get("url")),
        }
        for s in ((ctx.as_of or {}).get("price_steps") or {}).get(mid, [])
    ]


def price_disagreement_rows(ctx: SiteContext, lk: Lookups, mid: str) -> list[dict[str, Any]]:
    """The dated prices a lower-precedence source gives that differ from the price in force on their date
    (indices/asof.price_disagreements): shown beside the steps, never as one."""
    return [
        {
            "date": d["date"],
            "input": known(d.get("input")),
            "output": known(d.get("output")),
            "source": _price_source(lk, d),
            "url": lk.source_url(d["source"], d.get("url")),
            "in_force": _price_source(lk, d["in_force"]),
        }
        for d in ((ctx.as_of or {}).get("price_disagreements") or {}).get(mid, [])
    ]


def price_description(sources: Sequence[Mapping[str, Any]]) -> str:
    """The price chart's default description (methodology/site.yaml's charts.prices.description replaces it): which
    price holds where sources differ, from the sources' `price_precedence` (data/frame.price_tier): the vendor's
    list price, then each precedence in turn, named by its sources' `publisher` (else their `name`), newest first
    where several sources share one, then any other source."""
    tiers: dict[int, list[Mapping[str, Any]]] = {}
    for s in sources:
        if isinstance(s.get("price_precedence"), int):
            tiers.setdefault(s["price_precedence"], []).append(s)
    order = []
    for _, members in sorted(tiers.items()):
        names = sorted({str(s.get("publisher") or s.get("name") or s["id"]) for s in members})
        label = " and ".join(names)
        if len(members) > 1:
            label += " (newest snapshot first)" if len(names) == 1 else " (newest price first)"
        order.append(label)
    then = "".join(f", then {label}" for label in order) + (
        ", then any other source" if order else ", then the newest price"
    )
    return (
        "Input and output price (USD per million tokens) over time: each step holds from its date until the "
        f"next change, the newest until the data's date. Where sources differ, the vendor's list price decides{then}; "
        "a lower source's different price is listed as a disagreement, not drawn as a step. Point at a step for its "
        "source."
    )


def _price_chart(alt: Any, ctx: SiteContext, lk: Lookups, out: dict) -> None:
    """Each model's input and output price as steps over time: a price holds from its step's date
    until the next one, and the newest until the data's date. One spec for every model, kept small (source ids,
    not names: the page's table beneath names and links them); the page picks its own model."""
    rows = []
    newest = {}
    for mid in sorted((ctx.as_of or {}).get("price_steps") or {}):
        steps = [
            s
            for s in ctx.as_of["price_steps"][mid]
            if known(s.get("input")) is not None or known(s.get("output")) is not None
        ]
        if not steps:
            continue
        rows += [
            {
                "model": mid,
                "date": s["date"],
                "since": s["date"],
                "input": known(s.get("input")),
                "output": known(s.get("output")),
                "source": s["source"],
            }
            for s in steps
        ]
        newest[mid] = {"name": lk.model_meta(mid)["name"], **rows[-1], "source": _price_source(lk, steps[-1])}
        if ctx.data_date > steps[-1]["date"]:  # the newest price holds until the data's date (a row without source)
            rows.append({"model": mid, "date": ctx.data_date, "input": rows[-1]["input"], "output": rows[-1]["output"]})
    if not rows:
        return
    digits = decimals("USD", [r[k] for r in rows for k in ("input", "output")])  # as the model page's table
    for r in rows:
        r["input_t"], r["output_t"] = number(r["input"], digits), number(r["output"], digits)
    desc = ctx.presentation.price_description or price_description(ctx.sources)
    side = alt.Color("side:N", title="Price", scale=alt.Scale(domain=["input", "output"], range=["#3f51b5", "#ff6f00"]))
    x = alt.X(
        "date:T",
        title="Date",
        scale=alt.Scale(type="utc"),  # dates are days: never shifted by a time zone
        axis=DATE_AXIS,
    )
    y = alt.Y("usd:Q", title="USD per 1M tokens", scale=alt.Scale(zero=True))
    base = (
        alt.Chart(alt.NamedData(DATA))
        .transform_filter("datum.model === hl")
        .transform_fold(["input", "output"], as_=["side", "usd"])
        .transform_filter("isValid(datum.usd)")
        .transform_calculate(usd_t="datum.side === 'input' ? datum.input_t : datum.output_t")
    )
    line = base.mark_line(interpolate="step-after", strokeWidth=2).encode(x=x, y=y, color=side)
    points = (
        base.mark_point(filled=True, size=70)
        .encode(
            x=x,
            y=y,
            color=side,
            tooltip=[
                alt.Tooltip("side:N", title="Price"),
                alt.Tooltip("usd_t:N", title="USD per 1M tokens"),
                alt.Tooltip("since:N", title="Since"),
                alt.Tooltip("source:N", title="Source"),
            ],
        )
        .transform_filter("isValid(datum.source)")
    )
    chart = (
        alt.layer(line, points)
        .add_params(alt.param(name="hl", value=""))
        .properties(width="container", height=240, description=desc)
    )
    out[PRICE_CHART] = {
        "title": "Price over time",
        "description": desc,
        "spec": _to_dict(chart, {DATA: rows}),
        "fallback": {
            "columns": ["Model", "Since", "Input (USD / 1M)", "Output (USD / 1M)", "Source"],
            "fields": ["name", "since", "input", "output", "source"],
            "rows": [newest[m] for m in sorted(newest)][:10],
            "total": len(newest),
            "digits": _digits(rows, {"input": "USD", "output": "USD"}),
        },
        "models": sorted(newest),
        "highlight": "model",
    }


def _day_number(date: str) -> int:
    """An ISO date as a day count (for placing labels along a time axis)."""
    import datetime

    return datetime.date.fromisoformat(date[:10]).toordinal()


def _coverage_note(cov: Mapping | None) -> str:
    """What a board pinned to one source snapshot covers (indices/asof.coverage): its frontier is that snapshot's."""
    if not cov:
        return ""
    orgs = cov.get("organisations") or []
    return (
        f" Drawn on one source snapshot ({cov['snapshot']}), which covers {cov['models']} ranked models from "
        f"{len(orgs)} organisation{'s' if len(orgs) != 1 else ''} ({', '.join(orgs)}); labs it does not "
        f"cover may have led."
    )


def _best_over_time_charts(alt: Any, ctx: SiteContext, lk: Lookups, out: dict) -> None:
    """Per board: its best ranked value at each month end, by release date (indices/asof.best_over_time), as
    steps, each point named with the model that set it where that model takes the lead."""
    for bid, fr in sorted(((ctx.as_of or {}).get("frontier") or {}).items()):
        if bid not in ctx.boards:
            continue
        rows = _best_rows(lk, fr)
        if not rows:
            continue
        higher = ctx.boards[bid].get("higher_is_better", True) is not False
        end = (ctx.as_of or {}).get("data_date") or ctx.data_date
        if end and end > rows[-1]["date"]:  # the last best holds until the data's date: the line runs on to it
            rows.append({**rows[-1], "date": end, "new": False, "end": True})
        _label_steps(rows, higher)
        out[BEST_PREFIX + bid] = _best_chart(alt, ctx, lk, bid, fr, rows, higher)


def _best_rows(lk: Lookups, fr: dict[str, Any]) -> list[dict[str, Any]]:
    """A board's best value at each month end as chart rows, `new` where a model takes the lead."""
    rows = [
        {
            **_point(lk, p["model"], value=known(p.get("value"))),
            "date": p["date"],
            "asof": p["date"],
            "released": p.get("released") or "",
        }
        for p in fr.get("best") or []
        if known(p.get("value")) is not None
    ]
    for before, row in zip([None, *rows], rows):  # a name is written where a model takes the lead, not again
        row["new"] = before is None or before["model"] != row["model"]
    return rows


def _label_steps(rows: list[dict[str, Any]], higher: bool) -> None:
    """The leaders' names, the latest first, where they fit beside the step line (the summary table lists every
    step): each named row's `lpos`."""
    pts = list(
        zip(
            _pixels([_day_number(r["date"]) for r in rows], "time", False, LABEL_PLOT[0], False),
            _pixels([r["value"] for r in rows], "linear", not higher, 320.0, True),
        )
    )
    wanted = [i for i in reversed(range(len(rows))) if rows[i]["new"]]
    steps = [
        box
        for (x0, y0), (x1, y1) in zip(pts, pts[1:])  # the step line: along, then up to the next
        for box in ((x0, y0 - 1, x1, y0 + 1), (x1 - 1, min(y0, y1), x1 + 1, max(y0, y1)))
    ]
    for i, side in place_labels(pts, [r["name"] for r in rows], wanted, (LABEL_PLOT[0], 320.0), steps).items():
        rows[i]["lpos"] = side


def _best_chart(
    alt: Any, ctx: SiteContext, lk: Lookups, bid: str, fr: dict[str, Any], rows: list[dict[str, Any]], higher: bool
) -> dict[str, Any]:
    """A board's frontier over release date: the steps, the points and their names, and its summary table."""
    fmt_info = lk.board_format(bid)
    name = board_title(ctx, bid)
    desc = (
        f"The frontier over release date: the best of today's {name} values (today's definition, results "
        f"and population) among the models released by each month's end, as steps; each point is a month "
        f"the best value changed, named where a new model took the lead. It never gets worse: a later model "
        f"counts only if it beats it. (The boards as known then, each computed on its own population, are "
        f"the board page's date control.)"
    ) + _coverage_note(fr.get("coverage"))
    _texts(rows, ("value", fmt_info["unit"]))
    base = alt.Chart(alt.NamedData(DATA))
    x = alt.X("date:T", title="Month end", scale=alt.Scale(type="utc"), axis=DATE_AXIS)
    y = alt.Y("value:Q", title=name, scale=alt.Scale(zero=False, reverse=not higher))
    line = base.mark_line(interpolate="step-after", color="#3f51b5", strokeWidth=2).encode(x=x, y=y)
    points = (
        base.mark_point(filled=True, size=60, color="#3f51b5", cursor="pointer")
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("name:N", title="Model"),
                alt.Tooltip("org:N", title="Organisation"),
                alt.Tooltip("value_t:N", title=name),
                alt.Tooltip("asof:N", title="Best at the end of"),
                alt.Tooltip("released:N", title="Released"),
            ],
        )
        .transform_filter("!datum.end")
    )
    chart = (
        alt.layer(line, points, *_label_layers(alt, x, y))
        .add_params(alt.param(name="hl", value=""))
        .properties(width="container", height=320, description=desc)
    )
    return {
        "title": f"{name}: the frontier over release date",
        "description": desc,
        "spec": _to_dict(chart, {DATA: rows}),
        "fallback": {
            "columns": ["Best at the end of", "Model", "Value", "Released"],
            "fields": ["asof", "name", "value", "released"],
            "rows": [r for r in rows if not r.get("end")][::-1][:10],
            "total": sum(not r.get("end") for r in rows),
            "digits": _digits(rows, {"value": fmt_info["unit"]}),
        },
        "models": [],
        "highlight": "",
    }
