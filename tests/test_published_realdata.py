"""On the real data: each source first appears on the "as known" boards when its `published` rule says.

Every board's known view is recomputed from the repository (indices/asof.py). Per source, one test checks that no
month shows a value from it before that value was published, and that it first appears in the month the rule
gives (the month of its earliest published result on that board), written down here by hand with the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.indices import asof

# source -> (a board it feeds, its first month on that board's known view, the rule that gives it)
EXPECTED = {
    "aa-leaderboard-2025-08": ("aa-intelligence-v2-2", "2025-08", "capture: the scrape of 2025-08-14"),
    "aa-api-2025-10": ("aa-intelligence-v3-0", "2025-10", "capture: the snapshot of 2025-10-14"),
    "aa-api-2026-07": ("ai-iq", "2026-07", "capture: the dump of 2026-07-31"),
    "aa-tokens-2026-07": ("cost", "2026-07", "capture: the scrape of 2026-07-08"),
    "arc-prize": ("ai-iq", "2026-06", "capture: the leaderboard files of 2026-06-16"),
    "critpt": ("ai-iq", "2025-11", "capture: the README of 2025-11-21"),
    "lmarena": ("ai-eq", "2025-12", "capture: the arena-catalog commit of 2025-12-17"),
    "eq-bench": ("ai-eq", "2026-07", "capture: the leaderboard string, retrieved 2026-07-31"),
    "pedagogy-paper": ("pedagogy-cdpk", "2025-06", "recorded version: arXiv:2506.18710v1 of 2025-06-23"),
    # Epoch's own runs are dated by `Started at`: its earliest on the board, GPQA Diamond runs of 2025-01-27.
    "epoch": ("ai-iq", "2025-01", "Epoch's run dates"),
    # SWE-bench rows carry submission dates from 2023-10, but AI IQ ranks a model only with two of its four
    # dimensions: the first SWE-bench-scored models with a second dimension public are Epoch's January 2025 runs.
    "swe-bench": ("ai-iq", "2025-01", "submission dates, then AI IQ's two-dimension rule"),
}


@pytest.fixture(scope="module")
def real(real_repo, real_computed):
    """The as-of boards with their rows' components (asof.compute_asof over the repository). A build keeps only
    what the published views read of them (asof.shown), so they are computed again here, each (definition, month)
    read from the compute cache's store where the session's build (tests/conftest.py) kept it."""
    import contextlib

    from sitegen import reuse
    from sitegen.build import raw_frames, simcache
    from sitegen.indices import simcache as engine_cache

    repo, records = real_repo, real_computed.result_records
    folder = simcache.folder(Path(__file__).resolve().parents[1])
    store = simcache.FileStore(folder / "blocks", reuse.code_digest(), False) if folder else None
    with engine_cache.kept_in(store) if store else contextlib.nullcontext():
        out = asof.compute_asof(real_computed.results, real_computed.models, real_computed.model_records,
                                real_computed.benchmarks, real_computed.index_defs, raw_frames(repo))
    published = {}
    for r in records:
        key = (r["model"], r["benchmark"], r["source"])
        published[key] = min(published.get(key, r["published"]), r["published"])
    sources = {e["id"]: e for e in repo.sources.data["sources"]}
    return out, published, sources


def shown(out, board: str, source: str) -> dict[str, list[tuple[str, str]]]:
    """month -> the (model, benchmark) values of `source` that board's known view shows that month."""
    by_month = {}
    for month, views in sorted(out["boards"].get(board, {}).items()):
        b = views.get("known")
        if not b:
            continue
        seen = []
        for row in b["rows"]:
            for c in row.get("components") or []:
                if c.get("source") == source and c.get("value") is not None and c.get("how") in ("observed", "published"):
                    seen.append((row["model"], c["id"]))
            if row.get("source") == source and row.get("value") is not None:
                seen.append((row["model"], b.get("benchmark") or row.get("benchmark") or board))
        if seen:
            by_month[month] = seen
    return by_month


@pytest.mark.parametrize("source", sorted(EXPECTED))
def test_source_first_appears_when_its_published_rule_says(real, source):
    out, published, _ = real
    board, first, _rule = EXPECTED[source]
    months = shown(out, board, source)
    assert months, f"{source} is never on {board}'s known view"
    assert min(months) == first
    for month, values in months.items():
        end = asof.month_end(month)
        for model, bench in values:
            day = published[(model, bench, source)]
            assert day <= end, (month, model, bench, day)


def test_every_source_that_feeds_a_board_has_an_expectation(real):
    out, published, _ = real
    with_results = {s for (_, _, s) in published}  # a price's source (pedagogy-models' costs) dates prices, not results
    feeding = {c.get("source") for per in out["boards"].values() for views in per.values()
               for b in [views.get("known")] if b for row in b["rows"] for c in row.get("components") or []}
    feeding |= {row.get("source") for per in out["boards"].values() for views in per.values()
                for b in [views.get("known")] if b for row in b["rows"]}
    assert (feeding & with_results) - set(EXPECTED) == {"hle-paper"}


def test_hle_paper_tables_appear_from_their_recorded_version(real):
    # The version the tables were transcribed from is recorded in scores/sources.yaml (`published`); while its
    # date is not identified, the tables are public by the day they were entered (their `retrieved`).
    out, published, sources = real
    version = sources["hle-paper"]["published"]
    dates = {d for (m, b, s), d in published.items() if s == "hle-paper"}
    expected = str(version["date"]) if version.get("date") else min(dates)
    assert dates == {expected}
    assert min(shown(out, "hle", "hle-paper")) == expected[:7]
    assert min(shown(out, "hle-calibration", "hle-paper")) == expected[:7]
