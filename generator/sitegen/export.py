"""Boards -> canonical JSON and CSV text: sorted keys, fixed precision, stable row order, trailing newline.

Inside the compute cache (indices/simcache.kept_in, as build.compute runs), each text is kept by a digest of the
data it is written from and the package's code (the store's salt), so a rebuild writes again only the texts of the
boards, models and months its edit changed (`_kept`); the texts are the same bytes either way."""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import pickle
import zlib
from collections.abc import Callable, Iterator, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeVar

import orjson

from .data import kinds

PRECISION = 4


#: A text as Texts holds it: its UTF-8 bytes compressed (zlib, level 1), and their length.
Packed = tuple[bytes, int]


def packed(text: str) -> Packed:
    """`text` as Texts holds it."""
    data = text.encode("utf-8")
    return zlib.compress(data, 1), len(data)


class Texts(Mapping[str, str]):
    """The API's texts by relative path, each held as its UTF-8 bytes compressed (zlib, level 1) from when it is
    added until the writer reads it: a text is made once and read once or twice (the downloads page's size, the
    file), so holding 20,000 models' files costs a tenth of their characters. Reading a path gives back the very
    text added (zlib is lossless), so what is written is the same bytes; iteration is in the order of adding, as
    a dict's."""

    __slots__ = ("_packed", "_sizes")

    def __init__(self, texts: Mapping[str, str] | None = None):
        self._packed: dict[str, bytes] = {}
        self._sizes: dict[str, int] = {}
        if texts:
            self.update(texts)

    def __setitem__(self, path: str, text: str) -> None:
        self.put(path, packed(text))

    def put(self, path: str, held: Packed) -> None:
        """Add a text as `packed` makes it (its compressed bytes and their size): a text the compute cache keeps
        so (_kept) is added without being compressed again."""
        self._packed[path], self._sizes[path] = held

    def update(self, texts: Mapping[str, str]) -> None:
        """Add every text of `texts` (another Texts' as they are held, without unpacking them)."""
        if isinstance(texts, Texts):
            self._packed.update(texts._packed)
            self._sizes.update(texts._sizes)
            return
        for path, text in texts.items():
            self[path] = text

    def __getitem__(self, path: str) -> str:
        return self.data(path).decode("utf-8")

    def data(self, path: str) -> bytes:
        """The file's bytes (its text in UTF-8), without decoding them."""
        return zlib.decompress(self._packed[path])

    def size(self, path: str) -> int:
        """The file's size in bytes, without unpacking it."""
        return self._sizes[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)

    def __contains__(self, path: object) -> bool:
        return path in self._packed

    def __repr__(self) -> str:
        return f"Texts({len(self)} files, {sum(self._sizes.values())} bytes)"

    def __getstate__(self) -> tuple[dict[str, bytes], dict[str, int]]:
        return self._packed, self._sizes

    def __setstate__(self, state: tuple[dict[str, bytes], dict[str, int]]) -> None:
        self._packed, self._sizes = state


#: Types _fixed returns unchanged.
_AS_IS = frozenset({str, int, bool, type(None)})


def _fixed_float(x: float, places: int) -> float:
    """A finite float to `places` decimals (Decimal half-up on the shortest repr); -0.0 as 0.0."""
    if x != x or x in (math.inf, -math.inf):
        raise ValueError(f"non-finite number in a board: {x!r}")
    if round(x, places) == x:
        return x + 0.0  # already at the precision; + 0.0 turns -0.0 into 0.0
    q = Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return float(q) + 0.0


def _fixed(x: Any, places: int) -> Any:
    """Floats to `places` decimals (Decimal half-up on the shortest repr); containers recursively.

    Exact type checks first: this walks every number of the API, and ABC isinstance checks dominated it.
    """
    kind = type(x)
    if kind is float:
        return _fixed_float(x, places)
    if kind is dict:  # text, whole numbers and None are kept as they are without a call (most of the cells)
        return {k if type(k) is str else str(k): v if type(v) in _AS_IS else _fixed(v, places) for k, v in x.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _AS_IS else _fixed(v, places) for v in x]
    if x is None or kind is str or kind is int or kind is bool:
        return x
    if isinstance(x, Mapping):
        return {str(k): _fixed(v, places) for k, v in x.items()}
    if hasattr(x, "item"):  # numpy scalar
        return _fixed(x.item(), places)
    if isinstance(x, (int, str)):
        return x
    raise TypeError(f"cannot export {type(x).__name__}")


#: The smallest magnitude a nonzero float may have for orjson to write it as json does: below it Python writes
#: 5e-05 and orjson 0.00005 (and 1e-07 against 1e-7); everything from here up, and 0, is the same text
#: (tests/test_export_json.py compares them over the whole real API and a sweep of magnitudes).
_ORJSON_FLOOR = 1e-4


def _text(data: Any, plain: bool) -> str:
    """Canonical JSON text: sorted keys, compact separators, UTF-8 unescaped, a final newline.

    orjson writes it (several times faster) when `plain`: the data holds only str keys, dicts, lists, str, int,
    bool, None and finite floats of 0 or at least _ORJSON_FLOOR in magnitude (what _fixed gives at PRECISION
    places, or _plain found); then its bytes are json's. Otherwise, or when orjson refuses a value (an integer
    beyond 64 bits), json writes it, refusing non-finite numbers as it always did. orjson would write NaN as null
    without a word, so no data reaches it unchecked."""
    if plain:
        try:
            return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode("utf-8") + "\n"
        except orjson.JSONEncodeError:
            pass
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


def _plain(x: Any) -> bool:
    """True when orjson writes x as json does (see _text); raises ValueError on a non-finite number, as json's
    allow_nan=False would."""
    kind = type(x)
    if kind is float:
        if x != x or x in (math.inf, -math.inf):
            raise ValueError(f"non-finite number in the API: {x!r}")
        return x == 0 or abs(x) >= _ORJSON_FLOOR
    if kind is dict:
        return all(type(k) is str and (type(v) in _AS_IS or _plain(v)) for k, v in x.items())
    if kind is list or kind is tuple:
        return all(type(v) in _AS_IS or _plain(v) for v in x)
    return kind in _AS_IS


def _row_key(row: Mapping) -> tuple:
    return (row.get("rank") is None, row.get("rank") or 0, row["model"])


def to_json(board: Mapping, places: int = PRECISION) -> str:
    """A board as canonical JSON text: byte-identical for equal boards on every run and machine."""
    return _json_of(_fixed(dict(board), places), places <= PRECISION)


def _json_of(fixed: dict, plain: bool = True) -> str:
    """to_json of a board `_fixed` has rounded already."""
    data = dict(fixed, rows=sorted(fixed.get("rows", []), key=_row_key))
    return _text(data, plain)


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str) and x[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + x  # a contributed string must not become a spreadsheet formula
    return str(x)


#: Columns a board annotated by the uncertainty stage adds at the end of its CSV.
UNCERTAINTY_COLUMNS = ["interval_low", "interval_high", "interval_how", "rank_low", "rank_high", "tier"]


def _uncertainty_cells(row: Mapping, with_share: bool) -> list[str]:
    interval, ranks = row.get("interval") or [None, None], row.get("rank_interval") or [None, None]
    cells = [
        _cell(interval[0]),
        _cell(interval[1]),
        row.get("interval_how") or "",
        _cell(ranks[0]),
        _cell(ranks[1]),
        _cell(row.get("tier")),
    ]
    return cells + [_cell(row.get("imputed_share"))] if with_share else cells


def to_csv(board: Mapping, places: int = PRECISION) -> str:
    """A board as CSV: one line per row; index boards get one column per component value."""
    return _csv_of(_fixed(dict(board), places))


def _csv_of(data: dict) -> str:
    """to_csv of a board `_fixed` has rounded already (other keys than a board's, and a row's, are not read)."""
    rows = sorted(data.get("rows", []), key=_row_key)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    annotated = "uncertainty" in data
    if "index" in data:
        comp_ids: list[str] = []
        for row in rows:
            for c in row.get("components", []):
                if c["id"] not in comp_ids:
                    comp_ids.append(c["id"])
        writer.writerow(
            ["rank", "model", "value", "status", "coverage_have", "coverage_of", "manual_value", "manual_source"]
            + [f"{cid}" for cid in comp_ids]
            + [f"{cid}_how" for cid in comp_ids]
            + (UNCERTAINTY_COLUMNS + ["imputed_share"] if annotated else [])
        )
        for row in rows:
            comps = {c["id"]: c for c in row.get("components", [])}
            manual = row.get("manual") or {}
            writer.writerow(
                [
                    _cell(row.get("rank")),
                    row["model"],
                    _cell(row.get("value")),
                    row.get("status", ""),
                    _cell(row["coverage"]["have"]),
                    _cell(row["coverage"]["of"]),
                    _cell(manual.get("value")),
                    _cell(manual.get("source")),
                ]
                + [_cell(comps[c]["value"]) if c in comps else "" for c in comp_ids]
                + [comps[c]["how"] if c in comps else "" for c in comp_ids]
                + (_uncertainty_cells(row, True) if annotated else [])
            )
    else:
        cols = [
            "rank",
            "model",
            "value",
            "how",
            "source",
            "retrieved",
            "url",
            "stderr",
            "ci_low",
            "ci_high",
            "harness",
            "self_reported",
        ]
        writer.writerow(cols + (UNCERTAINTY_COLUMNS if annotated else []))
        for row in rows:
            writer.writerow([_cell(row.get(c)) for c in cols] + (_uncertainty_cells(row, False) if annotated else []))
    return buf.getvalue()


API = "api/v1"


def _dump(data: Any, places: int = PRECISION) -> str:
    return _text(_fixed(data, places), places <= PRECISION)


T = TypeVar("T")


def _kept(kind: str, data: Any, make: Callable[[], T]) -> T:
    """make(), the text(s) written from `data`; inside the compute cache, the ones kept for `data` (its pickle's
    digest, with `kind` and the store's salt, the package's code: indices/simcache.key), so an unchanged board,
    model or month is not rounded and written again. Equal pickles are equal data, and so the same text; data that
    pickles differently only misses."""
    from .indices import simcache

    store = simcache.current()
    if store is None:
        return make()
    try:
        name = simcache.key(store.salt, api_text=kind, data=data)
    except (pickle.PicklingError, TypeError, AttributeError):
        return make()  # cannot be digested: written afresh
    return simcache.kept(name, make)


def _board_texts(bid: str, data: dict, folder: str, frontiers: bool) -> dict[str, Packed]:
    """A board's JSON (with its sources and each row's reasoning state), CSV and, when it has them, frontiers CSV
    (`data["frontiers"]`), from one rounding walk of `data`, each as Texts holds it; kept by `data` (_kept)."""

    def make() -> tuple[Packed, ...]:
        fixed = _fixed(data, PRECISION)
        texts = (_json_of(fixed), _csv_of(fixed))
        return tuple(map(packed, texts + (_frontiers_csv_of(fixed["frontiers"]),) if frontiers else texts))

    texts = _kept("board-packed", data, make)
    names = [f"{folder}/{bid}.json", f"{folder}/{bid}.csv"] + ([f"{folder}/{bid}-frontiers.csv"] if frontiers else [])
    return dict(zip(names, texts, strict=True))


FRONTIER_COLUMNS = [
    "frontier",
    "month",
    "model",
    "on_frontier",
    "x_raw",
    "x_log10",
    "y",
    "released",
    "price_source",
    "price_as_of",
    "count_source",
]


def frontiers_csv(frontiers: Mapping, places: int = PRECISION) -> str:
    """A board's frontiers as CSV, one line per (frontier, month, model): every point of the value and size
    frontiers now (month empty, on_frontier true or false), then each month's value-frontier members."""
    return _frontiers_csv_of(_fixed(dict(frontiers), places))


def _frontiers_csv_of(data: dict) -> str:
    """frontiers_csv of frontiers `_fixed` has rounded already."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(FRONTIER_COLUMNS)
    for key in sorted(data):
        fr = data[key]
        points = {p["model"]: p for p in fr.get("points", [])}
        members = set(fr.get("frontier", []))

        def line(month: str, p: Mapping, on: bool, key: str = key) -> list[str]:
            return [
                key,
                month,
                p["model"],
                _cell(on),
                _cell(p.get("x_raw")),
                _cell(p.get("x")),
                _cell(p.get("y")),
                _cell(p.get("released")),
                _cell(p.get("price_source")),
                _cell(p.get("price_as_of")),
                _cell(p.get("count_source")),
            ]

        for p in fr.get("points", []):
            writer.writerow(line("", p, p["model"] in members))
        for month, models in sorted((fr.get("by_month") or {}).items()):
            for model in models:
                writer.writerow(line(month, points[model], True))
    return buf.getvalue()


def _source_entries(ids, sources: Mapping[str, Mapping]) -> list[dict]:
    """Licence, attribution and provenance of each source a file's numbers come from."""
    out = []
    for sid in sorted(i for i in ids if i):
        src = sources.get(sid, {})
        out.append(
            {
                "id": sid,
                "name": src.get("name"),
                "url": src.get("url"),
                "licence": src.get("licence"),
                "licence_flag": src.get("licence_flag"),
                "attribution": src.get("attribution"),
                "provenance": src.get("provenance"),
            }
        )
    return out


def _sources_of_board(board: Mapping) -> set:
    ids = {row.get("source") for row in board.get("rows", [])}
    for row in board.get("rows", []):
        ids |= {c.get("source") for c in row.get("components", [])}
        if row.get("manual"):
            ids.add(row["manual"].get("source"))
    return ids


def _nan_to_none(record: Mapping) -> dict:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in record.items()}


def _metadata_sources(record: Mapping) -> set:
    """The sources a model's metadata values came from (see frame's `provenance`)."""
    return {p["source"] for p in (record.get("provenance") or {}).values() if p and p["by"] == "source"}


def _with_reasoning(rows, states: Mapping[str, str]) -> list[dict]:
    """A board's rows, each with its model's `reasoning_state` (yes, no, not stated, not known): the mode a reader
    filters on is in every row, not only in the model's own file."""
    return [dict(row, reasoning_state=states.get(row["model"], "not known")) for row in rows]


def api_files(
    boards: Mapping,
    benchmark_boards: Mapping,
    model_records: list,
    result_records: list,
    benchmarks: list,
    sources: list,
    frontiers: Mapping | None = None,
    price_history: Mapping | None = None,
) -> Texts:
    """The whole JSON API and its CSVs, as {relative path: text} (Texts: each held compressed from when it is made);
    documented on the site's API page.

    A board with frontiers (the pedagogy boards) carries them in its JSON and in `<board>-frontiers.csv`.
    `price_history` (model id -> dated price steps, indices/asof.price_steps) goes into each model's file."""
    frontiers = frontiers or {}
    by_source = {s["id"]: s for s in sources}
    states = {r["model"]: r.get("reasoning_state") or "not known" for r in model_records}
    files = Texts()
    listing: dict[str, Any] = {"indices": [], "benchmarks": [], "models": [], "sources": f"{API}/sources.json"}
    for bid, board in sorted(boards.items()):
        data = dict(
            kinds.as_published(board),  # the kind as the definition's author wrote it
            sources=_source_entries(_sources_of_board(board), by_source),
            rows=_with_reasoning(board.get("rows", []), states),
        )
        entry = {
            "id": bid,
            "name": board.get("name"),
            "version": board.get("version"),
            "json": f"{API}/indices/{bid}.json",
            "csv": f"{API}/indices/{bid}.csv",
        }
        if bid in frontiers:
            data["frontiers"] = frontiers[bid]
            entry["frontiers_csv"] = f"{API}/indices/{bid}-frontiers.csv"
        _put(files, _board_texts(bid, data, f"{API}/indices", bid in frontiers))
        listing["indices"].append(entry)
    for bid, board in sorted(benchmark_boards.items()):
        data = dict(
            board,
            sources=_source_entries(_sources_of_board(board), by_source),
            rows=_with_reasoning(board.get("rows", []), states),
        )
        _put(files, _board_texts(bid, data, f"{API}/benchmarks", False))
        listing["benchmarks"].append(
            {
                "id": bid,
                "name": board.get("name"),
                "json": f"{API}/benchmarks/{bid}.json",
                "csv": f"{API}/benchmarks/{bid}.csv",
            }
        )
    results_by_model: dict[str, list] = {}
    for record in result_records:
        results_by_model.setdefault(record["model"], []).append(_nan_to_none(record))
    rows_by_model: dict[str, dict] = {}
    for bid, board in sorted(boards.items()):
        for row in board.get("rows", []):
            rows_by_model.setdefault(row["model"], {})[bid] = row
    for record in model_records:
        model_id = record["model"]
        results = results_by_model.get(model_id, [])
        data = {
            "model": _nan_to_none(record),
            "results": results,
            "indices": rows_by_model.get(model_id, {}),
            "sources": _source_entries(
                {r["source"] for r in results} | {record.get("pricing_source")} | _metadata_sources(record), by_source
            ),
        }
        if price_history is not None:
            data["price_history"] = list(price_history.get(model_id, []))
        # Results keep the source's own precision; index rows were rounded by the engine.
        files.put(f"{API}/models/{model_id}.json", _kept("model-packed", data, functools.partial(_model_packed, data)))
        listing["models"].append({"id": model_id, "name": record["name"], "json": f"{API}/models/{model_id}.json"})
    for name, data in (
        ("sources", {"sources": _source_entries(by_source, by_source)}),
        ("benchmarks", {"benchmarks": list(benchmarks)}),
        ("index", listing),
    ):
        files.put(f"{API}/{name}.json", _packed_dump(data))
    return files


def _put(files: Texts, texts: Mapping[str, Packed]) -> None:
    """Add each of `texts` (held as Texts holds them) to `files`."""
    for path, held in texts.items():
        files.put(path, held)


def _packed_dump(data: Any) -> Packed:
    """_dump's text of `data` as Texts holds it, kept by `data` (_kept): a kept text is neither written nor
    compressed again."""
    return _kept("dump-packed", data, lambda: packed(_dump(data)))


def _model_text(data: dict) -> str:
    """A model's file: its results keep the source's own precision (no rounding), so orjson only where _plain."""
    return _text(data, _plain(data))


def _model_packed(data: dict) -> Packed:
    """_model_text as Texts holds it."""
    return packed(_model_text(data))


def asof_texts(as_of: Mapping, api: str = "api/v1") -> Texts:
    """The as-of files (indices/asof.api_files) as canonical JSON text (the API's fixed precision, sorted keys),
    each kept by its data (_kept): a rebuild writes again only the months whose boards changed. Each text is
    compressed as it is made (Texts), so the months' texts are never all held as characters."""
    from .indices import asof

    texts = Texts()
    for path, data in asof.each_api_file(as_of, api):
        texts.put(path, _packed_dump(data))
    return texts
