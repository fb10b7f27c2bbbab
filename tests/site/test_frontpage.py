"""The front page leads with what is current: per index family, the newest version that ranks at least 80% of the
models on its source's current board, else the newest one labelled a partial snapshot; AA's published index as AA
publishes it (checked against the 2026-07 capture's own top 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.site.context import SiteContext
from sitegen.site.views import board_coverage, headline_boards, version_key

REPO = Path(__file__).parent.parent.parent
CURRENT = {"benchmark": "pub-index", "source": "snap-new"}


def _board(bid, name, version, ranked, unranked=0, snapshot=None, kind="weighted-mean"):
    rows = [{"model": f"m/{bid}-{i}", "rank": i + 1, "value": 50.0 - i} for i in range(ranked)]
    rows += [{"model": f"m/{bid}-u{i}", "rank": None, "value": None} for i in range(unranked)]
    return {"index": bid, "name": name, "version": version, "kind": kind, "unit": "points", "definition": bid,
            "source_snapshot": snapshot, "rows": rows}


def _ctx(boards, defs, current_rows=5, not_attributed=None, models=()):
    bench = {"pub-index": {"rows": [{"model": f"m/c{i}", "source": "snap-new"} for i in range(current_rows)]
                           + [{"model": "m/other", "source": "snap-elsewhere"}]}}
    return SiteContext(boards=boards, benchmark_boards=bench, models=list(models), benchmarks=[],
                       sources=[{"id": "snap-old", "retrieved": "2025-10-14"}], index_defs=defs,
                       methodology_pages={}, frontiers={}, data_date="2026-01-01",
                       not_attributed=not_attributed or {})


def _def(bid, version, family, order, current=None, **extra):
    front = {"family": family, "order": order, **({"current": current} if current else {}), **extra}
    return {"id": bid, "version": version, "front_page": front}


def test_version_key_orders_versions_numerically():
    assert sorted(["2.2", "10.0", "4.x", "3.0"], key=version_key) == ["2.2", "3.0", "4.x", "10.0"]


def test_newest_version_covering_80_percent_leads_and_the_others_say_their_coverage():
    boards = {"idx-v3": _board("idx-v3", "Idx", "3.0", 2, 1, snapshot="snap-old"),
              "idx-v4": _board("idx-v4", "Idx", "4.x", 5, kind="published", snapshot="snap-new"),
              "iq": _board("iq", "IQ", "2", 3), "plain": _board("plain", "Plain", "1", 1)}
    defs = {"idx-v3": _def("idx-v3", "3.0", "idx", 2, CURRENT), "idx-v4": _def("idx-v4", "4.x", "idx", 2, CURRENT),
            "iq": _def("iq", "2", "iq", 1), "plain": {"id": "plain", "version": "1"}}
    # the old snapshot lists three models with results and one name not attributed to a model
    models = [{"id": f"m/idx-v3-{i}", "results": [{"source": "snap-old"}]} for i in range(2)]
    models.append({"id": "m/idx-v3-u0", "results": [{"source": "snap-old"}, {"source": "snap-old"}]})
    ctx = _ctx(boards, defs, models=models, not_attributed={"snap-old": [{"name": "X"}]})
    heads = headline_boards(ctx)
    assert [(h["id"], h["family"]) for h in heads] == [("iq", "iq"), ("idx-v4", "idx")]  # order 1, then 2
    assert heads[0]["others"] == [] and heads[0]["coverage"]["partial"] is False
    lead = heads[1]
    assert (lead["coverage"]["ranked"], lead["coverage"]["of_current"], lead["coverage"]["partial"]) == (5, 5, False)
    (v3,) = lead["others"]
    assert v3["id"] == "idx-v3" and v3["version"] == "3.0"
    assert v3["coverage"] == {"snapshot": "snap-old", "retrieved": "2025-10-14", "ranked": 2, "of_snapshot": 4,
                              "of_current": 5, "partial": True, "current_source": "snap-new"}


@pytest.mark.parametrize("ranked, partial", [(4, False), (3, True)])  # 4 of 5 is 80%: enough; 3 of 5 is not
def test_the_80_percent_threshold(ranked, partial):
    boards = {"idx-v3": _board("idx-v3", "Idx", "3.0", ranked), "idx-v2": _board("idx-v2", "Idx", "2.2", 5)}
    defs = {b: _def(b, boards[b]["version"], "idx", 1, CURRENT) for b in boards}
    (head,) = headline_boards(_ctx(boards, defs))
    # an older version that covers enough leads when the newest does not
    assert head["id"] == ("idx-v2" if partial else "idx-v3")
    assert board_coverage(_ctx(boards, defs), "idx-v3")["partial"] is partial


def test_when_no_version_covers_enough_the_newest_leads_labelled_partial():
    boards = {"idx-v3": _board("idx-v3", "Idx", "3.0", 2), "idx-v2": _board("idx-v2", "Idx", "2.2", 1)}
    defs = {b: _def(b, boards[b]["version"], "idx", 1, {**CURRENT, "benchmark": "pub-index"}, min_share=0.9)
            for b in boards}
    (head,) = headline_boards(_ctx(boards, defs, current_rows=10))
    assert head["id"] == "idx-v3" and head["coverage"]["partial"] and head["coverage"]["of_current"] == 10


def test_a_definition_with_several_boards_names_the_one_on_the_front_page():
    boards = {"ped-a": dict(_board("ped-a", "Ped A", "1", 2), definition="ped"),
              "ped-b": dict(_board("ped-b", "Ped B", "1", 3), definition="ped")}
    defs = {"ped": _def("ped", "1", "ped", 3, board="ped-b")}
    assert [h["id"] for h in headline_boards(_ctx(boards, defs))] == ["ped-b"]


@pytest.fixture(scope="module")
def real(real_repo, real_computed):
    from sitegen.build import site_context

    return real_computed, site_context(real_repo, real_computed)  # tests/conftest.py: computed once per session


def test_real_front_page_leads_with_aas_current_index_and_labels_the_old_snapshots(real):
    _, ctx = real
    heads = {h["family"]: h for h in headline_boards(ctx)}
    assert [h["id"] for h in headline_boards(ctx)] == ["ai-iq", "aa-intelligence-v4-x", "pedagogy-cdpk", "hle"]
    aa = heads["aa-intelligence"]
    assert aa["coverage"]["ranked"] == aa["coverage"]["of_current"] == 576 and not aa["coverage"]["partial"]
    others = {o["id"]: o["coverage"] for o in aa["others"]}
    assert list(others) == ["aa-intelligence-v3-0", "aa-intelligence-v2-2"]
    v3 = others["aa-intelligence-v3-0"]
    assert (v3["snapshot"], v3["ranked"], v3["of_snapshot"], v3["of_current"], v3["partial"]) == (
        "aa-api-2025-10", 27, 30, 576, True)


def test_real_published_board_is_aas_own_top_10(real):
    """AA's 2026-07 capture sorted by AA's Intelligence Index: the same models (by AA's page slug), in the same
    order, with the same values as our board's first 10 rows (ties in AA's value ordered by our model id)."""
    computed, _ = real
    capture = json.loads((REPO / "downloads/artificial-analysis/aa_api_v2_llms_full_2026-07-31.json").read_text())
    aa = sorted(((m["evaluations"]["artificial_analysis_intelligence_index"], m["slug"]) for m in capture["data"]
                 if m["evaluations"].get("artificial_analysis_intelligence_index") is not None),
                key=lambda x: -x[0])
    rows = computed.boards["aa-intelligence-v4-x"]["rows"]
    assert len(aa) == len(rows) == 576
    ours = [(r["value"], r["url"].rsplit("/", 1)[1]) for r in rows[:10]]
    assert [v for v, _ in ours] == [v for v, _ in aa[:10]]
    assert [r["rank"] for r in rows[:10]] == [1, 2, 3, 4, 4, 6, 7, 8, 9, 10]
    for value in {v for v, _ in ours}:  # tied values: the same set of models
        assert {s for v, s in ours if v == value} == {s for v, s in aa[:10] if v == value}
    assert ours[0] == (60.7, "claude-opus-5") and ours[9] == (55.7, "claude-opus-4-8")
