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
