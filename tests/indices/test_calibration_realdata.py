"""AI IQ's imputation calibration and intervals on the repository's own data: the held-out experiment, rank
intervals that hold their point rank, and the figures methodology/uncertainty.md quotes from them."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from sitegen import build
from sitegen.data import frame
from sitegen.indices import boards as engine
from sitegen.indices import heldout
from sitegen.indices import uncertainty as u

ROOT = Path(__file__).resolve().parents[2]
#: Draws per held-out composite: fewer than the build's 1,000, which makes the check stricter (see heldout.py).
SIMS = 400
#: Hidden together as well as one by one: four frontier benchmarks (methodology/uncertainty.md names them).
TOGETHER = ("frontiermath-tier-4", "terminal-bench-2", "swe-bench-verified", "critpt")


@lru_cache(maxsize=1)
def data():
    repo, _ = build.validate_repo(ROOT)
    index_defs = {doc.data["id"]: doc.data for doc in repo.indices}
    return repo, frame.results(repo), frame.models(repo), repo.benchmarks.data["benchmarks"], index_defs


@lru_cache(maxsize=1)
def experiment() -> tuple[dict, dict]:
    _, results, models, benchmarks, index_defs = data()
    definition = index_defs["ai-iq"]
    sets = heldout.default_sets(definition, TOGETHER)
    cases = heldout.run(definition, results, models, {b["id"]: b for b in benchmarks}, sets=sets, sims=SIMS)
    return heldout.summary(cases, SIMS, "hidden"), heldout.summary(cases, SIMS, "total")


def test_held_out_composites_are_covered_at_the_nominal_level():
    """Hide each benchmark (and FrontierMath Tier 4, Terminal-Bench 2.0, SWE-bench Verified and CritPt together)
    for a seeded half of the models that have it, recompute the composite with the calibration refitted without
    them, and count how often the interval holds the full-data composite. The interval is the total interval's
    imputation part for the imputed values the hiding changed (drawn with the same bias, shared and own terms):
    the full-data composite shares every measured value and every other imputed value, so only those can set the
    two apart. Fails only when the exact binomial 95% interval of the coverage lies outside [90%, 99%]."""
    hidden, total = experiment()
    print(f"\nheld-out coverage {hidden['covered']}/{hidden['cases']} = {hidden['coverage']:.3f}, binomial 95% "
          f"[{hidden['coverage_interval'][0]:.3f}, {hidden['coverage_interval'][1]:.3f}], median |error|/sd "
          f"{hidden['median_standardised_error']:.2f} (a calibrated normal: 0.67); total interval "
          f"{total['covered']}/{total['cases']}, median |error|/sd {total['median_standardised_error']:.2f}")
    assert hidden["cases"] >= 200
    low, high = hidden["coverage_interval"]
    assert high >= 0.90 and low <= 0.99, hidden
    # The total interval adds measurement error and the other imputed values' error, which the full-data composite
    # shares: it may only cover more, never less.
    assert total["coverage_interval"][1] >= 0.90 and total["covered"] >= hidden["covered"]


def test_uncertainty_page_quotes_the_held_out_experiment():
    """methodology/uncertainty.md states the experiment's figures as this data gives them (a changed result must
    change the page)."""
    hidden, total = experiment()
    text = (ROOT / "methodology" / "uncertainty.md").read_text(encoding="utf-8")
    line = next((x for x in text.splitlines() if x.startswith("<!-- held-out:")), None)
    assert line, "methodology/uncertainty.md has no '<!-- held-out: ... -->' line"
    stated = dict(re.findall(r"(\w+)=([\d.]+)", line))
    computed = {"cases": hidden["cases"], "covered": hidden["covered"],
                "low": round(100 * hidden["coverage_interval"][0], 1),
                "high": round(100 * hidden["coverage_interval"][1], 1),
                "z": round(hidden["median_standardised_error"], 2), "total": total["covered"],
                "zt": round(total["median_standardised_error"], 2)}
    line = "<!-- held-out: " + " ".join(f"{k}={v}" for k, v in computed.items()) + " -->"
    assert {k: float(v) for k, v in stated.items()} == {k: float(v) for k, v in computed.items()}, \
        f"the data moved: update the figures of methodology/uncertainty.md and its line {line}"
    for key, value in computed.items():  # and the prose says the same figures
        if key in ("cases", "covered", "total"):
            assert f"{value:,}" in text, key
        else:
            assert (f"{value:.1f}" if key in ("low", "high") else f"{value:.2f}") in text, key


@lru_cache(maxsize=1)
def annotated() -> dict:
    _, results, models, benchmarks, index_defs = data()
    boards = engine.compute_boards(results, models, benchmarks, index_defs, {})
    boards = {k: v for k, v in boards.items() if engine.publishable(v, index_defs[v["definition"]])}
    u.annotate_boards(boards, index_defs, results, models, benchmarks, {})
    return boards


def test_every_ranked_row_of_every_index_board_lies_in_its_rank_interval():
    boards = annotated()
    checked = 0
    for bid, board in boards.items():
        for row in board["rows"]:
            if row.get("rank") is None:
                continue
            if row.get("rank_interval") is None:
                # no rank interval: the board says why (no value on it has an interval)
                assert board.get("uncertainty", {}).get("ranks"), (bid, row["model"])
                continue
            low, high = row["rank_interval"]
            assert low <= row["rank"] <= high, (bid, row["model"], row["rank"], row["rank_interval"])
            assert row.get("interval") or row.get("interval_reason"), (bid, row["model"])
            checked += 1
    assert checked > 1000


def test_composite_rows_carry_both_intervals_and_the_measurement_one_holds_the_value():
    boards = annotated()
    for bid in ("ai-iq", "aa-intelligence-v3-0", "ai-eq"):
        rows = [r for r in boards[bid]["rows"] if r.get("interval")]
        assert rows, bid
        for r in rows:
            inner = r["interval_measurement"]
            assert inner is None or inner[0] <= r["value"] <= inner[1], (bid, r["model"])
    iq = [r for r in boards["ai-iq"]["rows"] if r.get("interval") and r.get("interval_measurement")]
    # imputation only widens: the total interval is never narrower than measurement alone (beyond rounding)
    assert all(r["interval"][1] - r["interval"][0] >= r["interval_measurement"][1] - r["interval_measurement"][0]
               - 1e-6 for r in iq if not r.get("imputed_share"))
    table = boards["ai-iq"]["imputation_calibration"]
    assert {r["rule"] for r in table} == {"benchmark", "family", "dimension"}
    assert sum(r["cases"] for r in table) > 1000


@pytest.mark.parametrize("bid", ["ai-iq"])
def test_imputed_component_intervals_lie_in_the_anchor_range(bid):
    boards, (_, _, _, _, index_defs) = annotated(), data()
    spans = u.anchor_ranges(index_defs[bid])
    imputed = [c for r in boards[bid]["rows"] for c in r["components"] if c["how"] == "imputed" and c.get("interval")]
    assert imputed
    outside = [c["id"] for c in imputed
               if c["interval"][0] < min(spans[c["id"]][0], c["value"]) - 1e-9
               or c["interval"][1] > max(spans[c["id"]][1], c["value"]) + 1e-9]
    assert not outside, outside
