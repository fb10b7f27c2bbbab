"""Row-incremental boards (indices/simcache.kept_row): inside a store, each Pedagogy row is kept by that model's
own inputs and the definition's settings, so an edit to one model's results computes its row again and takes the
others' from the store, while the steps across rows (ranking, frontiers) run again; the board is the one computed
without a store, number for number. The as-of months keep their rows' entries alive (asof.month_boards)."""

from __future__ import annotations

import copy

import pandas as pd
from test_compute_cache import Used
from test_pedagogy import DEFINITION, cdpk, models_frame, raw, results_frame

from sitegen.indices import asof, pedagogy, simcache

PRICED = models_frame({"model": "o/a", "input_per_mtok": 1.0}, {"model": "o/b", "input_per_mtok": 2.0},
                      {"model": "o/c", "input_per_mtok": 4.0})
#: three published CDPK accuracies (no interval: each row's is the exact binomial one, its costly part)
BASE = results_frame({"model": "o/a", "value": 60.0}, {"model": "o/b", "value": 70.0},
                     {"model": "o/c", "value": 80.0})


def rows_computed(monkeypatch) -> list[str]:
    """The models whose rows are computed (not taken from the store) from now on: "model" on CDPK, "model (SEND)"
    on the other board."""
    computed: list[str] = []
    row = pedagogy._row

    def spy(model, results, rows_raw, definition, board):
        computed.append(model if board["id"] == "pedagogy-cdpk" else f"{model} (SEND)")
        return row(model, results, rows_raw, definition, board)

    monkeypatch.setattr(pedagogy, "_row", spy)
    return computed


def test_an_edit_to_one_model_computes_its_row_again_and_reranks_the_board(monkeypatch):
    store = Used()
    with simcache.kept_in(store):
        first = cdpk(BASE, PRICED)
    assert first == cdpk(BASE, PRICED)  # the same board as without a store
    assert [r["model"] for r in first["rows"]] == ["o/c", "o/b", "o/a"]
    edited = BASE.copy()
    edited.loc[0, "value"] = 90.0  # o/a moves from last to first
    computed = rows_computed(monkeypatch)
    with simcache.kept_in(store):
        again = cdpk(edited, PRICED)
    assert computed == ["o/a"]  # o/b's and o/c's rows are reused
    plain = cdpk(edited, PRICED)
    assert again == plain
    assert [(r["model"], r["rank"]) for r in again["rows"]] == [("o/a", 1), ("o/c", 2), ("o/b", 3)]
    # the cross-model steps ran on the new rows: o/a is on the value frontier now, and it alone (cheapest, best)
    assert again["frontiers"]["value"]["frontier"] == ["o/a"]
    assert first["frontiers"]["value"]["frontier"] == ["o/a", "o/b", "o/c"]
    assert again["rows"][0]["interval"] == plain["rows"][0]["interval"] != first["rows"][2]["interval"]


def test_a_row_reads_its_models_other_results_of_the_benchmark_and_its_own_questions(monkeypatch):
    store = Used()
    per_question = {"o/c": raw(700, 899)}
    with simcache.kept_in(store):
        cdpk(BASE, PRICED, per_question)
    computed = rows_computed(monkeypatch)
    # o/b's published bad-format share (another metric of the board's benchmark) excludes it: its row is computed
    bad = pd.concat([BASE, results_frame({"model": "o/b", "metric": DEFINITION["bad_format"]["metric"],
                                          "value": 9.0})], ignore_index=True)
    with simcache.kept_in(store):
        board = cdpk(bad, PRICED, per_question)
    assert computed == ["o/b"]
    assert next(r for r in board["rows"] if r["model"] == "o/b")["status"] == "excluded"
    assert board == cdpk(bad, PRICED, per_question)
    computed.clear()
    # o/c's per-question rows: one more right answer
    with simcache.kept_in(store):
        board = cdpk(BASE, PRICED, {"o/c": raw(701, 899)})
    assert computed == ["o/c"]
    assert board == cdpk(BASE, PRICED, {"o/c": raw(701, 899)})
    computed.clear()
    # a result of another benchmark (SEND) is no CDPK row's input: only the SEND board's new row is computed
    send = pd.concat([BASE, results_frame({"model": "o/a", "benchmark": "pedagogy-send", "value": 50.0})],
                     ignore_index=True)
    with simcache.kept_in(store):
        board = cdpk(send, PRICED, per_question)
    assert computed == ["o/a (SEND)"]
    assert board == cdpk(send, PRICED, per_question)


def test_a_changed_setting_computes_every_row_again(monkeypatch):
    store = Used()
    with simcache.kept_in(store):
        cdpk(BASE, PRICED)
    computed = rows_computed(monkeypatch)
    wider = copy.deepcopy(DEFINITION)
    wider["bootstrap"]["ci_level"] = 0.99
    with simcache.kept_in(store):
        board = pedagogy.compute_pedagogy(BASE, PRICED, {}, wider)["pedagogy-cdpk"]
    assert sorted(computed) == ["o/a", "o/b", "o/c"]
    plain = pedagogy.compute_pedagogy(BASE, PRICED, {}, wider)["pedagogy-cdpk"]
    assert board == plain
    assert board["rows"] != cdpk(BASE, PRICED)["rows"]  # wider intervals


def test_outside_a_store_nothing_is_kept(monkeypatch):
    computed = rows_computed(monkeypatch)
    cdpk(BASE, PRICED)
    cdpk(BASE, PRICED)
    assert computed == ["o/a", "o/b", "o/c"] * 2


DATED = results_frame({"model": "o/a", "value": 60.0, "retrieved": "2025-01-10"},
                      {"model": "o/b", "value": 70.0, "retrieved": "2025-02-10"},
                      {"model": "o/c", "value": 80.0, "retrieved": "2025-03-10"}).assign(
    published=lambda f: f["retrieved"])
PEOPLE = models_frame({"model": "o/a", "released": "2025-01-05", "input_per_mtok": 1.0},
                      {"model": "o/b", "released": "2025-02-05", "input_per_mtok": 2.0},
                      {"model": "o/c", "released": "2025-03-05", "input_per_mtok": 4.0})


def months(results: pd.DataFrame) -> dict:
    out = asof.compute_asof(results, PEOPLE, [], [], {"pedagogy": DEFINITION})
    return out["boards"]["pedagogy-cdpk"]


def test_an_as_of_month_an_edit_reaches_reuses_the_rows_it_did_not_change_and_keeps_them_alive(monkeypatch):
    store = Used()
    with simcache.kept_in(store):
        months(DATED)
    assert {"2025-01", "2025-02", "2025-03"} <= set(months(DATED))
    edited = DATED.copy()
    edited.loc[1, "value"] = 95.0  # o/b's result, in February's and March's boards
    computed = rows_computed(monkeypatch)
    store.used.clear()
    with simcache.kept_in(store):
        again = months(edited)
    assert computed == ["o/b"]  # computed once: March's board takes it from February's, and o/a's and o/c's
    assert again == months(edited)  # each month as computed without a store
    assert again["2025-01"] == months(DATED)["2025-01"]  # January has no o/b: its month entry is loaded
    assert [r["model"] for r in again["2025-03"]["known"]["rows"]] == ["o/b", "o/c", "o/a"]
    # every row entry of every month is used, the loaded January's too, so the store's prune keeps them all; the
    # one left is o/b's row as it was (70.0)
    rows = {k: simcache.loads(v) for k, v in store.entries.items()}
    rows = {k: v for k, v in rows.items() if isinstance(v, dict) and "model" in v}
    assert [(v["model"], v["value"]) for k, v in rows.items() if k not in store.used] == [("o/b", 70.0)]
