"""How far a board's bounds move between seeds, at several numbers of draws, and what each costs in CPU time.

Usage: python tools/mc_seeds.py [--board ai-iq] [--top 50] [--seeds 4] [--draws 1000,2000,4000] [ROOT]

Reruns one board's simulation (indices/uncertainty.annotate_index) on this repository's data with each number of
draws, once per seed salt (uncertainty.seed_salt: "" is the published seed, then "1", "2", ...), and prints for the
top rows by point rank: the median and largest move of a rank bound and of a value bound between any two seeds,
the share of rank bounds that move by more than one rank, the median Monte-Carlo error the build publishes
(indices/mcerror.py), the share of moves within twice the two runs' combined published error (about 95% when the
error is right; a rank move is counted within it up to half a rank more, ranks being whole), and the median CPU
seconds of one simulation. Writes nothing; no clock enters a seed.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import math
import statistics
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--board", default="ai-iq")
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--draws", default="1000,2000,4000")
    args = parser.parse_args()

    from sitegen.build import raw_frames
    from sitegen.data import frame, validate_repo
    from sitegen.indices import boards as engine
    from sitegen.indices import uncertainty

    repo, problems = validate_repo(Path(args.root))
    if repo is None:
        raise SystemExit("the repository does not validate: run `sitegen validate`")
    results = frame.results(repo, frame.result_records(repo))
    models = frame.models(repo, frame.model_records(repo))
    benchmarks = {b["id"]: b for b in repo.benchmarks.data["benchmarks"]}
    index_defs = {doc.data["id"]: doc.data for doc in repo.indices}
    raw = raw_frames(repo)
    computed = engine.compute_boards(results, models, list(benchmarks.values()), index_defs, raw)
    board = computed[args.board]
    definition = index_defs[board["definition"]]
    print(f"board {args.board}: top {args.top} rows by point rank, {args.seeds} seeds, level "
          f"{definition['uncertainty']['level']}")
    print("| draws | rank bound move: median / max | > 1 rank | value bound move: median / max "
          "| published MC error: rank / value (median) | moves within 2 x combined error: rank / value "
          "| CPU s per simulation |")
    print("|---|---|---|---|---|---|---|")
    for sims in [int(x) for x in args.draws.split(",")]:
        changed = copy.deepcopy(definition)
        changed["uncertainty"] = {**changed["uncertainty"], "simulations": sims}
        runs, cpu = [], []
        for seed in range(args.seeds):
            one = copy.deepcopy(board)
            start = time.process_time()
            with uncertainty.seed_salt(str(seed) if seed else ""):
                uncertainty.annotate_index(changed, one, results, models, benchmarks, raw)
            cpu.append(time.process_time() - start)
            top = sorted((r for r in one["rows"] if r.get("rank") is not None), key=lambda r: (r["rank"], r["model"]))
            runs.append({r["model"]: r for r in top[:args.top]})
        rank_moves, value_moves, within = [], [], [0, 0]
        for a, b in itertools.combinations(runs, 2):
            for m in runs[0]:
                for k, (field, moves) in enumerate((("rank_interval", rank_moves), ("interval", value_moves))):
                    x, y = a[m].get(field), b[m].get(field)
                    if not (x and y):
                        continue
                    for side in (0, 1):
                        moves.append(abs(x[side] - y[side]))
                        # within twice the two runs' combined published error (about 95% if the error is right)
                        combined = math.hypot(a[m][f"{field}_mc_error"][side], b[m][f"{field}_mc_error"][side])
                        within[k] += moves[-1] <= 2 * combined + (1e-9 if k else 0.5)
        rank_err = [e for r in runs[0].values() for e in r.get("rank_interval_mc_error") or ()]
        value_err = [e for r in runs[0].values() for e in r.get("interval_mc_error") or ()]
        over = sum(m > 1 for m in rank_moves)
        print(f"| {sims:,} | {_med(rank_moves)} / {max(rank_moves, default='-')} | {over} of {len(rank_moves)} "
              f"| {_med(value_moves, 2)} / {max(value_moves, default=0):.2f} "
              f"| {_med(rank_err)} / {_med(value_err, 2)} "
              f"| {within[0] / max(len(rank_moves), 1):.0%} / {within[1] / max(len(value_moves), 1):.0%} "
              f"| {statistics.median(cpu):.2f} |", flush=True)


def _med(xs: list[float], places: int = 1) -> str:
    return f"{statistics.median(xs):.{places}f}" if xs else "-"


if __name__ == "__main__":
    main()
