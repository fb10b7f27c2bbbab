"""Time computing every board (and exporting it) over synthetic repositories of 500 and 20,000 models, and the
uncertainty stage (intervals, rank intervals, tiers) on this repository and a synthetic one of 500 models.

Not a test: prints tables. Run: python benchmarks/bench_engine.py [--sizes 500 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import pandas as pd
import yaml

from sitegen.export import to_csv, to_json
from sitegen.indices import uncertainty
from sitegen.indices.boards import compute_benchmark_boards, compute_boards, publishable
from sitegen.indices.parts import forget_selections

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "aa-leaderboard-2025-08": ["mmlu-pro", "hle", "gpqa-diamond", "aime-2025", "ifbench", "scicode", "livecodebench",
                               "aa-lcr", "aa-intelligence-index", "aa-response-time"],
    "aa-api-2025-10": ["mmlu-pro", "hle", "gpqa-diamond", "aime-2025", "ifbench", "scicode", "livecodebench",
                       "aa-lcr", "terminal-bench-hard", "tau2-bench-telecom", "aa-intelligence-index", "aa-coding-index"],
    "aa-api-2026-07": ["hle", "gpqa-diamond", "aime-2025", "scicode"],
    "aa-tokens-2026-07": ["aa-suite-tokens"],
    "arc-prize": ["arc-agi-1", "arc-agi-2"],
    "epoch": ["frontiermath-tier-4", "terminal-bench-2", "arc-agi-2", "hle"],
    "swe-bench": ["swe-bench-verified"],
    "critpt": ["critpt"],
    "eq-bench": ["eq-bench-3"],
    "lmarena": ["lmarena-text"],
}
SCALE = {"critpt": 20, "eq-bench-3": 2000, "lmarena-text": 1500, "aa-suite-tokens": 200, "aa-response-time": 60}


def synthetic(n: int, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """About 60% coverage per (model, source, benchmark); two harnesses on terminal-bench-2."""
    rng = random.Random(seed)
    rows, people = [], []
    for i in range(n):
        model = f"org{i % 50}/model-{i}"
        people.append({"model": model, "organization": f"Org{i % 50}" if i % 7 else "Anthropic",
                       "input_per_mtok": None if i % 11 == 0 else rng.uniform(0.1, 10),
                       "output_per_mtok": None if i % 11 == 0 else rng.uniform(0.5, 40),
                       "manual_iq": 100.0 if i % 13 == 0 else None, "manual_iq_source": "bench"})
        for source, benches in SOURCES.items():
            for bench in benches:
                if rng.random() < 0.6:
                    harnesses = ["Terminus 2", "Other"] if bench == "terminal-bench-2" else [""]
                    for harness in harnesses:
                        rows.append({"model": model, "benchmark": bench, "metric": "", "subset": "", "harness": harness,
                                     "value": rng.uniform(0, 1) * SCALE.get(bench, 100), "source": source,
                                     "retrieved": "2025-10-01", "url": "", "n": math.nan, "stderr": math.nan,
                                     "ci_low": math.nan, "ci_high": math.nan, "self_reported": False,
                                     "origin": f"scores/imported/{source}.yaml"})
    return pd.DataFrame(rows), pd.DataFrame(people)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    benchmarks = yaml.safe_load((ROOT / "methodology/benchmarks.yaml").read_text())["benchmarks"]
    indices = {}
    for path in sorted((ROOT / "methodology/indices").glob("*.yaml")):
        d = yaml.safe_load(path.read_text())
        if d["kind"] in {"weighted-mean", "ai-iq", "ai-eq", "cost", "benchmark-boards"}:
            indices[d["id"]] = d
    print(f"{'models':>8} {'results':>9} {'index boards s':>15} {'benchmark boards s':>19} {'export s':>9}")
    for n in args.sizes:
        results, models = synthetic(n)
        best = [math.inf, math.inf, math.inf]
        for _ in range(args.repeat):
            forget_selections()
            t0 = time.perf_counter()
            boards = compute_boards(results, models, benchmarks, indices)
            t1 = time.perf_counter()
            bench_boards = compute_benchmark_boards(results, models, benchmarks, indices)
            t2 = time.perf_counter()
            for b in [*boards.values(), *bench_boards.values()]:
                to_json(b)
                to_csv(b)
            t3 = time.perf_counter()
            best = [min(best[0], t1 - t0), min(best[1], t2 - t1), min(best[2], t3 - t2)]
        print(f"{n:>8} {len(results):>9} {best[0]:>15.3f} {best[1]:>19.3f} {best[2]:>9.3f}")
    bench_uncertainty(args.repeat, benchmarks, indices)


def _time_uncertainty(results, models, benchmarks, index_defs, repeat: int) -> tuple[float, float]:
    """Best-of-`repeat` seconds of the uncertainty stage as the build runs it: (index boards, benchmark boards)."""
    config = next(d for d in index_defs.values() if d["kind"] == "benchmark-boards")
    best = [math.inf, math.inf]
    for _ in range(repeat):
        forget_selections()  # as in a build: the index computes its selection, the uncertainty stage reuses it
        boards = compute_boards(results, models, benchmarks, index_defs)
        boards = {k: v for k, v in boards.items() if publishable(v, index_defs[v["definition"]])}
        bench_boards = {k: v for k, v in compute_benchmark_boards(results, models, benchmarks, index_defs).items()
                        if v["rows"]}
        t0 = time.perf_counter()
        uncertainty.annotate_boards(boards, index_defs, results, models, benchmarks)
        t1 = time.perf_counter()
        uncertainty.annotate_benchmark_boards(bench_boards, benchmarks, config)
        t2 = time.perf_counter()
        best = [min(best[0], t1 - t0), min(best[1], t2 - t1)]
    return best[0], best[1]


def bench_uncertainty(repeat: int, benchmarks: list, indices: dict) -> None:
    """The uncertainty stage's cost (target: at most 1 s for this repository). Arrays are draws x models, so the
    synthetic size is kept to 500: 20,000 models x 1,000 draws x 10 AI IQ benchmarks would not fit in memory."""
    from sitegen import build
    from sitegen.data import frame

    repo, _ = build.validate_repo(ROOT)
    records = frame.result_records(repo)
    results = frame.results(repo, records)
    models = frame.models(repo, frame.model_records(repo))
    index_defs = {doc.data["id"]: doc.data for doc in repo.indices}
    print(f"\n{'uncertainty':>16} {'models':>8} {'index boards s':>15} {'benchmark boards s':>19} {'total s':>8}")
    real = _time_uncertainty(results, models, repo.benchmarks.data["benchmarks"], index_defs, repeat)
    print(f"{'this repository':>16} {len(models):>8} {real[0]:>15.3f} {real[1]:>19.3f} {sum(real):>8.3f}")
    results, models = synthetic(500)
    synth = _time_uncertainty(results, models, benchmarks, indices, repeat)
    print(f"{'synthetic':>16} {500:>8} {synth[0]:>15.3f} {synth[1]:>19.3f} {sum(synth):>8.3f}")


if __name__ == "__main__":
    main()
