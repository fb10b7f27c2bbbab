"""The API's JSON through orjson (export._text): the same bytes json.dumps wrote, and no non-finite number let
through (orjson itself writes NaN and infinity as null without a word)."""

from __future__ import annotations

import json
import math
import random

import orjson
import pytest

from sitegen import export
from sitegen.export import _plain, _text, api_files, to_json


def by_json(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


MODEL = {"model": "a/m", "name": "M", "pricing_source": None, "provenance": {}}


def result(value) -> dict:
    return {"model": "a/m", "benchmark": "hle", "value": value, "source": "paper", "retrieved": "2025-06-01"}


def test_orjson_writes_what_json_writes_from_the_smallest_four_place_value_up():
    rng = random.Random(5)
    values = [0.0, -0.0, 1e-4, -1e-4, 0.0001, 0.5, 1.0, 2.00005, 1e15, 1e16, 1.5e300, 1.7976931348623157e308]
    for exponent in range(-4, 22):
        values += [rng.uniform(1, 10) * 10.0**exponent for _ in range(300)]
        values += [round(rng.uniform(1, 10) * 10.0**exponent, 4) for _ in range(300)]
    values = [v for v in values if v == 0 or abs(v) >= 1e-4] + [-v for v in values if v]
    data = {"values": values, "ints": [0, -1, 2**63 - 1, -(2**63)]}
    assert _plain(data)
    assert orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode() + "\n" == by_json(data)


def test_text_sorts_keys_and_writes_unicode_and_escapes_as_json_does():
    data = {"é": 1, "b": [None, True, False, 'tab\tquote"back\\slash\x00\x1f\u2028 <>&/'], "B": {}, "😀": 2.5}
    assert _text(data, True) == by_json(data)
    assert _text(data, True) == (
        '{"B":{},"b":[null,true,false,"tab\\tquote\\"back\\\\slash\\u0000\\u001f\u2028 <>&/"],"é":1,"😀":2.5}\n'
    )


def test_floats_below_the_floor_are_left_to_json():
    # where the two differ: orjson writes 5e-05 as 0.00005 and 1e-07 as 1e-7
    assert orjson.dumps(5e-05) == b"0.00005" and json.dumps(5e-05) == "5e-05"
    assert orjson.dumps(1e-07) == b"1e-7" and json.dumps(1e-07) == "1e-07"
    assert not _plain({"v": [1.0, {"x": 5e-05}]})
    assert _text({"v": [1.0, {"x": 5e-05}]}, _plain({"v": [1.0, {"x": 5e-05}]})) == '{"v":[1.0,{"x":5e-05}]}\n'


def test_a_model_file_keeps_its_result_s_own_precision_byte_for_byte():
    files = api_files({}, {}, [MODEL], [result(5e-05), {**result(33.3), "benchmark": "gpqa"}], [], [])
    text = files["api/v1/models/a/m.json"]
    assert '"value":5e-05' in text and '"value":33.3' in text
    assert text == by_json(json.loads(text))


def test_what_orjson_cannot_write_is_written_by_json():
    assert not _plain({1: "an int key"})
    assert _text({"big": 2**70}, True) == '{"big":1180591620717411303424}\n'  # orjson refuses beyond 64 bits


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_is_refused_on_the_orjson_path(bad):
    assert orjson.dumps({"v": bad}) == b'{"v":null}'  # what orjson alone would publish
    with pytest.raises(ValueError, match="non-finite"):
        _plain({"rows": [{"components": [{"value": bad}]}]})
    with pytest.raises(ValueError, match="non-finite"):
        to_json({"rows": [{"model": "a/m", "rank": 1, "components": [{"value": bad}]}]})
    with pytest.raises(ValueError, match="non-finite"):
        export._dump({"months": {"2025-01": [1.0, bad]}})


@pytest.mark.parametrize("bad", [math.inf, -math.inf])
def test_a_model_file_with_an_infinite_value_is_refused(bad):
    # NaN in a result record is its missing value (None, as before); an infinity is refused, never written as null
    with pytest.raises(ValueError, match="non-finite"):
        api_files({}, {}, [MODEL], [result(bad)], [], [])
    assert '"value":null' in api_files({}, {}, [MODEL], [result(math.nan)], [], [])["api/v1/models/a/m.json"]


def test_every_real_api_file_is_the_text_json_writes(real_computed):
    """The whole real API (today's boards, benchmark boards, model files, the as-of months), written mostly by
    orjson: each file is exactly what json.dumps writes for its data."""
    texts = {p: t for p, t in real_computed.api_files.items() if p.endswith(".json")}
    assert len(texts) > 1000
    assert [p for p, t in texts.items() if by_json(json.loads(t)) != t] == []


# ---------------------------------------------------------------- texts kept per board (export._kept)


class Memory:
    """A compute-cache store in memory (indices/simcache.Store): what was asked for and what was added."""

    salt = "test"

    def __init__(self):
        self.entries: dict[str, bytes] = {}
        self.added: list[str] = []

    def get(self, key):
        return self.entries.get(key)

    def put(self, key, data):
        self.entries[key] = data
        self.added.append(key)


def bench_board(benchmark: str, value: float) -> dict:
    return {"benchmark": benchmark, "name": benchmark.upper(), "rows": [
        {"model": "a/m", "rank": 1, "value": value, "how": "observed", "source": "paper"},
        {"model": "b/n", "rank": 2, "value": 10.0, "how": "observed", "source": "paper"}]}


INDEX = {"index": "toy", "name": "Toy", "version": "1", "rows": [
    {"model": "a/m", "rank": 1, "value": 101.23456, "status": "ranked", "coverage": {"have": 1, "of": 1},
     "components": [{"id": "hle", "kind": "benchmark", "value": 12.3, "how": "observed", "source": "paper"}]}]}
FRONTIERS = {"toy": {"value": {"points": [{"model": "a/m", "x": 0.5, "y": 101.23456}], "frontier": ["a/m"]}}}
SOURCE = {"id": "paper", "name": "Paper", "url": "https://example.org", "licence": "CC BY 4.0"}


def everything(hle: float, gpqa: float = 40.0) -> dict[str, str]:
    """The API of one index board with frontiers, two benchmark boards, two models; hle: a/m's HLE value."""
    models = [MODEL, {**MODEL, "model": "b/n", "name": "N"}]
    return api_files({"toy": INDEX}, {"hle": bench_board("hle", hle), "gpqa": bench_board("gpqa", gpqa)}, models,
                     [result(hle)], [{"id": "hle"}, {"id": "gpqa"}], [SOURCE], FRONTIERS, {})


def written(monkeypatch) -> list[str]:
    """The boards whose texts are made (rounded and written) from here on, by their benchmark or index id."""
    made: list[str] = []
    json_of = export._json_of

    def spy(fixed, plain=True):
        made.append(fixed.get("benchmark") or fixed.get("index"))
        return json_of(fixed, plain)

    monkeypatch.setattr(export, "_json_of", spy)
    return made


def test_kept_texts_are_the_bytes_written_without_a_store_and_an_unchanged_board_is_not_written_again(monkeypatch):
    from sitegen.indices import simcache

    plain = everything(33.3)
    store = Memory()
    with simcache.kept_in(store):
        first = everything(33.3)
    assert first == plain and set(first) >= {"api/v1/indices/toy.json", "api/v1/indices/toy.csv",
                                             "api/v1/indices/toy-frontiers.csv", "api/v1/benchmarks/hle.csv"}
    # one entry per board (its JSON, CSV and frontiers CSV together), per model, and sources, benchmarks, index
    assert len(store.added) == 3 + 2 + 3
    made = written(monkeypatch)
    with simcache.kept_in(store):
        again = everything(33.3)
    assert again == plain and made == [] and len(store.added) == 8  # every text loaded, none made or added


def test_kept_texts_are_kept_compressed_and_added_as_they_are_held(monkeypatch):
    from sitegen.indices import simcache

    store = Memory()
    with simcache.kept_in(store):
        first = everything(33.3)
    edited = everything(34.5)  # without a store
    compressed: list[bytes] = []
    compress = export.zlib.compress
    monkeypatch.setattr(export.zlib, "compress", lambda data, level: compressed.append(data) or compress(data, level))
    with simcache.kept_in(store):
        again = everything(33.3)
    # nothing compressed again: each file's bytes are the kept entry's, and so is its size
    assert compressed == [] and again == first
    assert again._packed == first._packed and again._sizes == first._sizes
    with simcache.kept_in(store):
        after = everything(34.5)  # a/m's HLE: the HLE board's JSON and CSV and a/m's file are compressed, no other
    assert sorted(compressed) == sorted(
        edited.data(p) for p in ("api/v1/benchmarks/hle.json", "api/v1/benchmarks/hle.csv", "api/v1/models/a/m.json"))
    assert after == edited


def test_a_changed_board_s_texts_are_written_again_and_only_theirs(monkeypatch):
    from sitegen.indices import simcache

    store = Memory()
    with simcache.kept_in(store):
        before = everything(33.3)
    made = written(monkeypatch)
    with simcache.kept_in(store):
        after = everything(34.5)  # a/m's HLE: the HLE board and a/m's model file change, nothing else
    assert made == ["hle"]
    assert len(store.added) == 8 + 2  # the HLE board's texts and a/m's file
    assert after == everything(34.5)  # as written without a store
    assert {p for p in after if after[p] != before[p]} == {
        "api/v1/benchmarks/hle.json", "api/v1/benchmarks/hle.csv", "api/v1/models/a/m.json"}
    assert '"value":34.5' in after["api/v1/benchmarks/hle.json"]


def test_a_board_is_rounded_once_for_its_json_csv_and_frontiers(monkeypatch):
    walked = []
    fixed = export._fixed

    def top(x, places):  # counts the walks that start at a board (a dict with rows), not the walk's own recursion
        if type(x) is dict and "rows" in x and (x.get("index") or x.get("benchmark")):
            walked.append(x.get("index") or x.get("benchmark"))
        return fixed(x, places)

    monkeypatch.setattr(export, "_fixed", top)
    files = everything(33.3)
    assert sorted(walked) == ["gpqa", "hle", "toy"]
    assert files["api/v1/indices/toy.csv"] == export.to_csv(INDEX)
    assert files["api/v1/indices/toy-frontiers.csv"] == export.frontiers_csv(FRONTIERS["toy"])
    assert '"value":101.2346' in files["api/v1/indices/toy.json"]


def month(value: float) -> dict:
    return {"known": {"rows": [{"model": "a/m", "value": value, "rank": 1}], "version": "1"}, "released": None}


def test_as_of_texts_of_an_unchanged_month_are_loaded_and_a_changed_month_is_written_again(monkeypatch):
    from sitegen.indices import simcache

    as_of = {"boards": {"toy": {"2025-01": month(1.0), "2025-02": month(2.0)}}, "changes": {}, "frontier": {}}
    plain = export.asof_texts(as_of)
    assert sorted(plain) == ["api/v1/indices/toy/2025-01.json", "api/v1/indices/toy/2025-02.json",
                             "api/v1/indices/toy/dates.json"]
    store = Memory()
    with simcache.kept_in(store):
        assert export.asof_texts(as_of) == plain
    assert len(store.added) == 3
    dumped = []
    dump = export._dump
    monkeypatch.setattr(export, "_dump", lambda data, places=4: dumped.append(data.get("month")) or dump(data, places))
    as_of["boards"]["toy"]["2025-02"] = month(2.5)
    with simcache.kept_in(store):
        texts = export.asof_texts(as_of)
    assert dumped == ["2025-02"] and len(store.added) == 4
    assert texts["api/v1/indices/toy/2025-01.json"] == plain["api/v1/indices/toy/2025-01.json"]
    assert '"value":2.5' in texts["api/v1/indices/toy/2025-02.json"]


def test_data_that_cannot_be_digested_is_written_afresh():
    from sitegen.indices import simcache

    store = Memory()
    with simcache.kept_in(store):
        assert export._kept("dump", {"f": lambda: 1}, lambda: "made\n") == "made\n"
    assert store.entries == {}


def test_texts_hold_each_file_compressed_and_give_back_its_exact_text_and_size():
    import pickle

    texts = export.Texts({"b.json": '{"é":"😀"}\n', "a.csv": "id,name\n" + "x,1\n" * 1000})
    texts["c.json"] = ""
    assert list(texts) == ["b.json", "a.csv", "c.json"]  # the order they were added in, as a dict's
    assert texts["b.json"] == '{"é":"😀"}\n' and texts.data("b.json") == '{"é":"😀"}\n'.encode()
    assert texts.size("b.json") == 8 + 2 + 4 and texts.size("c.json") == 0  # bytes: é is two, 😀 four
    assert texts.size("a.csv") == 8 + 4 * 1000 and len(texts._packed["a.csv"]) < 100  # held compressed
    assert texts == {"b.json": '{"é":"😀"}\n', "a.csv": "id,name\n" + "x,1\n" * 1000, "c.json": ""}
    assert "a.csv" in texts and "d.csv" not in texts and len(texts) == 3
    with pytest.raises(KeyError):
        texts["d.csv"]
    more = export.Texts()
    more.update(texts)  # another Texts' files as they are held: the same bytes, not unpacked and packed again
    more.update({"d.csv": "d\n"})
    assert more._packed["a.csv"] is texts._packed["a.csv"] and more["d.csv"] == "d\n" and more.size("d.csv") == 2
    again = pickle.loads(pickle.dumps(more))
    assert dict(again.items()) == dict(more.items()) and list(again) == list(more)
    assert export.Texts() == {}


def test_the_api_s_texts_come_as_texts_whose_bytes_are_the_written_ones():
    files = api_files({}, {}, [MODEL], [result(33.3)], [], [])
    assert isinstance(files, export.Texts)
    for path, text in files.items():
        assert files.data(path) == text.encode("utf-8") and files.size(path) == len(text.encode("utf-8"))
