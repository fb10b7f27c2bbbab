"""Build-time benchmark: the targets the project is held to, measured, printed as a table. Not a test.

    python benchmarks/bench_build.py [--repeat 3] [--synthetic 1000,5000]

Targets (issue 19, which tightened issue 5's): the real-data site in <= 3 s on a 2-core machine, `build --check`
in <= 3.5 s, a rebuild with nothing changed in <= 0.3 s, after one model file's edit <= 1 s when it reaches only
that model's page and boards; linear growth with the number of models (synthetic trees made by copying real
model files under new ids; benchmarks/harness.py measures growth against mkdocs-material and Hugo). Each row is the median wall time of whole `sitegen` processes, as a contributor would see it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(args: list[str], cwd: Path, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "sitegen.cli", *args], cwd=cwd, capture_output=True, text=True,
                              env={**os.environ, "SOURCE_DATE_EPOCH": "1767225600"})
        if done.returncode != 0:
            raise SystemExit(f"sitegen {' '.join(args)} failed:\n{done.stderr[-2000:]}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def synthetic_tree(models: int, folder: Path, seed: int | None = None) -> Path:
    """The real methodology and sources, with `models` model files carrying the real models' results.

    Each synthetic model copies one real model's results (so which benchmarks a model has, and how many, follow
    the real data) and its reviewed metadata fields; with `seed`, the real model is drawn at random (seeded),
    else they are taken in turn. Every synthetic model is its own release."""
    import random

    import yaml

    from sitegen.data import frame, load

    repo, _ = load.load_repo(ROOT)
    by_model: dict[str, list] = {}
    for rec in frame.result_records(repo):
        keep = {k: rec[k] for k in ("benchmark", "value", "source", "retrieved")}
        keep.update({k: rec[k] for k in ("metric", "subset", "harness") if rec[k]})
        by_model.setdefault(rec["model"], []).append(keep)
    docs = {doc.data["id"]: doc.data for doc in repo.models}
    real = sorted(by_model)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: 20,000 files in seconds, not minutes
    pick = random.Random(seed).choice if seed is not None else None
    tree = folder / f"tree-{models}"
    shutil.copytree(ROOT / "methodology", tree / "methodology")
    (tree / "scores" / "models").mkdir(parents=True)
    shutil.copy(ROOT / "scores" / "sources.yaml", tree / "scores" / "sources.yaml")
    for i in range(models):
        original = pick(real) if pick else real[i % len(real)]
        org, name = f"org{i % 97:02d}", f"m{i:05d}"
        doc = {"id": f"{org}/{name}", "name": f"Model {i}", "release": f"{org}/{name}", "organization": f"Org {i % 97}"}
        doc.update({k: v for k, v in (docs.get(original) or {}).items() if k in SYNTHETIC_KEEP})
        doc["results"] = by_model[original]
        target = tree / "scores" / "models" / org / f"{name}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return tree


#: The model-file fields a synthetic model copies from the real one whose results it carries.
SYNTHETIC_KEEP = ("released", "weights", "reasoning", "effort", "parameters", "pricing", "context_window", "licence")


def real_inputs():
    """The engine's inputs from the repository's data: model records, frames, benchmarks, definitions, raw rows."""
    from sitegen import build
    from sitegen.data import frame

    repo, _ = build.validate_repo(ROOT)
    records = frame.model_records(repo)
    return (records, frame.results(repo), frame.models(repo, records), repo.benchmarks.data["benchmarks"],
            {doc.data["id"]: doc.data for doc in repo.indices}, build.raw_frames(repo))


def engine_seconds(repeat: int) -> float:
    """The engine alone on the repository's data: frames in, every index and benchmark board out."""
    from sitegen.indices import boards
    from sitegen.indices.parts import forget_selections

    _, results, models, benchmarks, defs, raw = real_inputs()
    times = []
    for _ in range(repeat):
        forget_selections()
        start = time.perf_counter()
        boards.compute_boards(results, models, benchmarks, defs, raw)
        boards.compute_benchmark_boards(results, models, benchmarks, defs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def asof_cost(repeat: int) -> tuple[float, str]:
    """The as-of boards alone (indices/asof.py), in process: every board at every month end in both views,
    the frontiers over time and the monthly changes, serialised; and the bytes and files they add to the API."""
    from sitegen import export
    from sitegen.indices import asof

    records, results, models, benchmarks, defs, raw = real_inputs()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        data = asof.compute_asof(results, models, records, benchmarks, defs, raw)
        files = export.asof_texts(data)
        times.append(time.perf_counter() - start)
    added = sum(len(text.encode("utf-8")) for text in files.values())
    steps = sum(len(s) for s in data["price_steps"].values())
    return statistics.median(times), (f"{len(data['months'])} months, {data['engine_runs']} index runs, "
                                      f"{len(files)} files, {added / 1e6:.2f} MB added "
                                      f"(+ {steps} price steps in model files)")


def asof_site_cost(repeat: int) -> tuple[float, str]:
    """The as-of feature's share of the site, in process: the names file each board's date control loads, the
    price and best-over-time chart specs; and the bytes they add (with the control and asof.js)."""
    import altair as alt

    from sitegen import build
    from sitegen.history.changelog import Record
    from sitegen.site import asof, charts
    from sitegen.site.pages import Urls
    from sitegen.site.render import script_json
    from sitegen.site.views import Lookups

    repo, _ = build.validate_repo(ROOT)
    ctx = build.site_context(repo, build.compute(repo), Record(ROOT))
    times = []
    for _ in range(repeat):
        lk = Lookups(ctx, Urls(ctx))
        start = time.perf_counter()
        names = {bid: str(script_json(asof.names(ctx, lk.urls, bid))) for bid in sorted(ctx.as_of["boards"])}
        specs: dict = {}
        charts._price_chart(alt, ctx, lk, specs)
        charts._best_over_time_charts(alt, ctx, lk, specs)
        texts = [str(script_json(c["spec"])) for c in specs.values()]
        times.append(time.perf_counter() - start)
    control = Path(asof.__file__).parent.parent / "templates" / "partials" / "asof.html"
    script = Path(asof.__file__).parent.parent / "static" / "js" / "asof.js"
    names_kb = sum(len(t.encode()) for t in names.values()) / 1e3
    specs_kb = sum(len(t.encode()) for t in texts) / 1e3
    return statistics.median(times), (f"{len(names)} names files {names_kb:.0f} kB, {len(texts)} chart specs "
                                      f"{specs_kb:.0f} kB, asof.js {script.stat().st_size / 1e3:.1f} kB; ~0.5 kB "
                                      f"per board page ({len(control.read_bytes())} B template)")


# (row, model file, the text of one result's value and what it toggles to): a minor model's one score, whose
# reach is its own page, the boards it is on and the API; and a frontier model's HLE score, which moves AI IQ.
EDITS = (("build after one minor model's result edited", "scores/models/alibaba/qwen-2.5-14b.yaml",
          "value: 75.64", "value: 75.65"),
         ("build after an edit that moves AI IQ", "scores/models/openai/o1.yaml", "value: 8.0\n", "value: 30.0\n"))


def incremental_rows(tmp: Path, repeat: int) -> list[tuple[str, float, str]]:
    """Rebuilds after one edit (issue 19: <= 1 s): each run toggles the value, so every build has a change."""
    tree = tmp / "edited"
    for name in ("scores", "methodology", "CITATION.cff"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, tree / name)
    out = tmp / "edited-site"
    args = ["build", "--root", str(tree), "--out", str(out)]
    timed(args, tree, 1)
    rows = []
    for what, rel, old, new in EDITS:
        path = tree / rel

        def toggle(path=path, old=old, new=new):
            text = path.read_text(encoding="utf-8")
            a, b = (old, new) if old in text else (new, old)
            path.write_text(text.replace(a, b, 1), encoding="utf-8")

        rows.append((what, timed(args, tree, repeat, before=toggle), "<= 1 s (rewrites only what it reaches)"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--synthetic", default="", help="comma-separated model counts for the growth rows")
    args = parser.parse_args()
    rows = []
    rows.append(("compute every board, real data (in process)", engine_seconds(args.repeat), "well under 1 s"))
    rows.append(("as-of boards, frontiers, changes (in process)", *asof_cost(args.repeat)))
    rows.append(("as-of on the site: names, charts (in process)", *asof_site_cost(args.repeat)))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"

        def clean():
            shutil.rmtree(out, ignore_errors=True)

        rows.append(("validate, real data", timed(["validate", "--root", str(ROOT)], ROOT, args.repeat), "-"))
        rows.append(("build, real data (cold)", timed(["build", "--root", str(ROOT), "--out", str(out)], ROOT,
                                                      args.repeat, before=clean), "<= 3 s"))
        rows.append(("build, nothing changed", timed(["build", "--root", str(ROOT), "--out", str(out)], ROOT,
                                                     args.repeat), "<= 0.3 s"))
        rows.append(("build --check, real data", timed(["build", "--check", "--root", str(ROOT)], ROOT,
                                                       args.repeat), "<= 3.5 s"))
        rows.extend(incremental_rows(Path(tmp), args.repeat))
        for count in [int(c) for c in args.synthetic.split(",") if c]:
            tree = synthetic_tree(count, Path(tmp))
            synth_out = Path(tmp) / f"site-{count}"
            seconds = timed(["build", "--root", str(tree), "--out", str(synth_out)], tree, 1,
                            before=lambda: shutil.rmtree(synth_out, ignore_errors=True))
            rows.append((f"build, {count:,} synthetic models", seconds, f"{seconds / count * 1000:.2f} ms/model"))
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'median s':>9}  target / note")
    for what, seconds, note in rows:
        print(f"{what:<{width}}  {seconds:>9.2f}  {note}")


if __name__ == "__main__":
    main()
