"""Done-when checks of model identity over the real data: no configuration ranked twice on any board; every
model a source ranks in its own top 20 is on our board of that benchmark or named on its page with a reason;
every complete row of AA's v2.2 table is on the v2.2 board or named there with the reason.

The sources' own files are the repository's captures in downloads/."""

from __future__ import annotations

import itertools
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from sitegen import importers
from sitegen.data import lookalike
from sitegen.importers import audit
from sitegen.importers.extracts import load_ignores
from sitegen.data.registry import Registry

ROOT = Path(__file__).resolve().parents[1]
# (source, benchmark on our site, higher is better): sources that publish a ranking of their own
RANKINGS = [("lmarena", "lmarena-text"), ("eq-bench", "eq-bench-3"), ("swe-bench", "swe-bench-verified"),
            ("arc-prize", "arc-agi-2"), ("arc-prize", "arc-agi-1"), ("critpt", "critpt"),
            ("aa-api-2026-07", "aa-intelligence-index")]
AA_V22_EVALS = {"mmlu-pro", "gpqa-diamond", "hle", "livecodebench", "scicode", "ifbench", "aime-2025", "aa-lcr"}


def downloads() -> Path:
    """The repository's copies of the sources' downloaded files."""
    return ROOT / "downloads"


@pytest.fixture(scope="module")
def built(real_repo, real_computed):
    return real_repo, real_computed  # tests/conftest.py: computed once per session


@pytest.fixture(scope="module")
def extracts():
    data = downloads()
    assert data.is_dir(), f"{data} is missing"
    return {plan.source: importers.run(ROOT, plan.source, list(plan.paths), plan.retrieved)[0]
            for plan in importers.planned(ROOT, data)}


def _configuration(rec: dict) -> tuple:
    known = rec["effort"] if rec["effort"] is not None else ("reasoning" if rec["reasoning"] else "not stated")
    return rec["release"], known


def test_no_configuration_is_ranked_twice_on_any_board(built):
    """On every board, among ranked rows: no model id twice; no two rows of one release in one configuration; no
    row whose mode is not stated beside a ranked sibling of its release (it may be that sibling); and no two ids
    that `sitegen aliases audit` folds together in different releases, unless reviewed as distinct."""
    repo, computed = built
    records = {r["model"]: r for r in computed.model_records}
    distinct, _ = audit.reviewed_sets(repo.identity.data if repo.identity is not None else None)

    def reviewed(a: str, b: str) -> bool:
        ra, rb = records[a]["release"], records[b]["release"]
        return frozenset((a, b)) in distinct or frozenset((ra, rb)) in distinct

    twice = []
    for bid, board in sorted({**computed.boards, **computed.benchmark_boards}.items()):
        ranked = [row["model"] for row in board.get("rows", []) if row.get("rank") is not None]
        twice.extend((bid, mid, mid) for mid in sorted({m for m in ranked if ranked.count(m) > 1}))
        by_release: dict[str, list[str]] = defaultdict(list)
        by_key: dict[str, list[str]] = defaultdict(list)
        for mid in sorted(set(ranked)):
            by_release[records[mid]["release"]].append(mid)
            by_key[lookalike.fold(mid.split("/", 1)[1])].append(mid)
        for ids in by_release.values():
            for a, b in itertools.combinations(ids, 2):
                ca, cb = _configuration(records[a])[1], _configuration(records[b])[1]
                if (ca == cb or "not stated" in (ca, cb)) and not reviewed(a, b):
                    twice.append((bid, a, b))
        for ids in by_key.values():
            for a, b in itertools.combinations(ids, 2):
                if (records[a]["release"] != records[b]["release"] and not reviewed(a, b)
                        and not lookalike.different_checkpoints(a, b)):
                    twice.append((bid, a, b))
    assert twice == []


def _resolver(source: str):
    registry = Registry.load(ROOT)
    ignored = {i["name"] for i in load_ignores(ROOT) if i["source"] == source}

    def model(name: str) -> str | None:
        hits = registry.match(name, source)
        return hits[0] if len(hits) == 1 and name not in ignored else None
    return model


def _values(ex, benchmark: str) -> dict[str, Decimal]:
    out = {}
    for name, row in ex.results:
        if row["benchmark"] == benchmark and not row.get("metric") and not row.get("subset"):
            out[name] = max(out.get(name, row["value"]), row["value"])
    return out


@pytest.mark.parametrize("source, bench", RANKINGS)
def test_every_model_in_a_sources_top_20_is_on_our_board_or_named_with_a_reason(built, extracts, source, bench):
    benchmark = bench
    _, computed = built
    ex = extracts[source]
    values = _values(ex, benchmark)
    top = sorted(values, key=lambda n: (-values[n], n))[:20]
    assert len(top) == min(20, len(values)) > 0
    on_board = {r["model"] for r in (computed.benchmark_boards.get(benchmark) or {}).get("rows", [])}
    listed = {e["name"] for d in built[0].imported if d.data["source"] == source
              for e in d.data.get("not_attributed") or [] if any(r["benchmark"] == benchmark for r in e["results"])}
    model = _resolver(source)
    missing = [n for n in top if model(n) not in on_board and n not in listed]
    assert missing == []


def test_every_complete_aa_v22_row_is_on_the_v22_board_or_named_with_a_reason(built, extracts):
    repo, computed = built
    ex = extracts["aa-leaderboard-2025-08"]
    evals = defaultdict(set)
    for name, row in ex.results:
        evals[name].add(row["benchmark"])
    complete = sorted(n for n, got in evals.items() if AA_V22_EVALS <= got)
    assert len(complete) >= 59  # the 2025-08-14 scrape has 59 rows with all eight evals
    board = {r["model"] for r in computed.boards["aa-intelligence-v2-2"]["rows"]}
    listed = {e["name"] for d in repo.imported if d.data["source"] == "aa-leaderboard-2025-08"
              for e in d.data.get("not_attributed") or []}
    model = _resolver("aa-leaderboard-2025-08")
    assert [n for n in complete if model(n) not in board and n not in listed] == []
