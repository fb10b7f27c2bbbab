"""One command for issue #19's comparison: synthetic repositories of growing size built by sitegen (stage by
stage), mkdocs-material (pruned navigation) and Hugo, alternating, and a table of wall time, CPU time and peak
memory per tool and per sitegen stage. The README's performance table is its output. Not a test.

    python benchmarks/harness.py [--sizes 1000,5000,20000] [--repeat 1] [--peer-max N] [--seed 1]
    python benchmarks/harness.py --real --sizes "" --results benchmarks/RESULTS.md   # the real data only
    python benchmarks/harness.py --install-peers     # once: Hugo from Debian, mkdocs-material in its own venv

Each synthetic repository is the real methodology and sources with N model files, each carrying the results
and metadata of a real model drawn with a seeded generator (bench_build.synthetic_tree), so the sparsity of the
benchmark set is the real one. sitegen builds it in a child process that runs the pipeline's public functions
one after the other (the order of build.run) and times each; the peers build Markdown pages written from the same
computed data: one page per model with its results table, one per index board and per benchmark with its
ranking table, the methodology pages and an index. Wall and CPU time and peak RSS of every build are the whole
process's (os.wait4: CPU of the process and the workers it forked; peak RSS of its largest process). Targets
(issue #19) are reported, never asserted. Nothing here touches the network unless --install-peers is given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
CACHE = Path(os.environ.get("SITEGEN_BENCH_CACHE") or Path.home() / ".cache" / "sitegen-bench")
MKDOCS_VENV = CACHE / "mkdocs-venv"
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "PYTHONDONTWRITEBYTECODE": "1"}

#: sitegen's stages in pipeline order, as the staged child reports them (label, what it covers).
STAGES = (
    ("imports", "python start-up and importing sitegen, pandas, altair, jinja2"),
    ("load", "load.load_repo: read and parse every YAML file"),
    ("validate", "the rest of build.validate_repo: schemas and cross-file checks"),
    ("compute", "build.compute: every board, uncertainty, as-of boards, the JSON API"),
    ("context", "build.site_context: the views the pages are rendered from"),
    ("charts", "site.charts.build_charts: every chart spec"),
    ("render", "the rest of site.render_files: pages rendered (and written by the render workers), search index"),
    ("write", "the rest of render_site and write.atomic_build: other files written, the stamp, the swap"),
    ("link check", "write.check_links on the written site (build --check runs it; a plain build does not)"),
)


# --------------------------------------------------------------------------------------------- sitegen's child

def staged_child(tree: Path, out: Path) -> None:
    """Build `tree` into `out` with build.run's stages called one by one; print {stage: [wall, cpu, rss MB]}."""
    import resource

    def cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def rss_mb() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return max(own.ru_maxrss, kids.ru_maxrss) / 1024

    times: dict[str, list[float]] = {}
    mark = [time.perf_counter(), cpu()]

    def lap(stage: str, minus: str | None = None) -> None:
        """Close `stage` at now; with `minus`, the nested stage timed inside it is taken out of it."""
        now, used = time.perf_counter(), cpu()
        wall, spent = now - mark[0], used - mark[1]
        if minus:
            wall, spent = wall - times[minus][0], spent - times[minus][1]
        times[stage] = [wall, spent, rss_mb()]
        mark[:] = [now, used]
        print(json.dumps({stage: times[stage]}), file=sys.stderr, flush=True)  # what a stopped build got through

    def nested(module, name: str, stage: str):
        """Wrap module.name so the time spent in it is recorded as `stage` (the caller's stage minus it)."""
        inner = getattr(module, name)

        def timed(*args, **kwargs):
            start, used = time.perf_counter(), cpu()
            result = inner(*args, **kwargs)
            times[stage] = [time.perf_counter() - start, cpu() - used, rss_mb()]
            print(json.dumps({stage: times[stage]}), file=sys.stderr, flush=True)
            return result

        setattr(module, name, timed)

    started = float(os.environ["HARNESS_STARTED"])  # the parent's clock just before it started this process
    import altair  # noqa: F401  (imported lazily by the charts stage otherwise; counted once, here)
    import pandas  # noqa: F401

    from sitegen import build, site, write
    from sitegen.build import stamp
    from sitegen.data import load
    from sitegen.history.changelog import Record
    from sitegen.site import assembly
    from sitegen.site.pages import site_path

    mark[:] = [time.perf_counter() - (time.time() - started), 0.0]  # from the process's start: start-up too
    lap("imports")
    nested(load, "load_repo", "load")
    repo, problems = build.validate_repo(tree)
    if repo is None:
        raise SystemExit("\n".join(str(p) for p in problems if p.severity == "error")[:4000])
    lap("validate", minus="load")
    computed = build.compute(repo)
    lap("compute")
    ctx = build.site_context(repo, computed, Record(tree))
    lap("context")
    nested(assembly, "build_charts", "charts")  # the stage code is in site/assembly.py, which looks both up there
    nested(assembly, "render_files", "render+charts")

    def render(folder: Path) -> list:
        site.render_site(ctx, folder)
        write.write_files(folder, {stamp.STAMP: "harness\n"})
        return []

    write.atomic_build(out, render)
    both = times.pop("render+charts")  # render_files, charts included; its high-water mark stays
    times["render"] = [both[0] - times["charts"][0], both[1] - times["charts"][1], both[2]]
    lap("write", minus=None)
    times["write"] = [times["write"][0] - times["render"][0] - times["charts"][0],
                      times["write"][1] - times["render"][1] - times["charts"][1], times["write"][2]]
    found = write.check_links(out, site_path(ctx.site_url))
    lap("link check")
    if found:
        raise SystemExit(f"link check found {len(found)} problems, first: {found[0]}")
    print(json.dumps(times))


def pages_data(tree: Path) -> dict:
    """What the peers' pages show, computed from the tree apart from the timed runs: every model with its
    results, and today's index and benchmark boards (the engine alone: none of the uncertainty or as-of work,
    which the peers' pages do not show)."""
    from sitegen import build
    from sitegen.data import frame
    from sitegen.indices import boards as engine

    repo, problems = build.validate_repo(tree)
    if repo is None:
        raise SystemExit("\n".join(map(str, problems))[:4000])
    records, model_records = frame.result_records(repo), frame.model_records(repo)
    results, models = frame.results(repo, records), frame.models(repo, model_records)
    benchmarks = repo.benchmarks.data["benchmarks"]
    defs = {doc.data["id"]: doc.data for doc in repo.indices}
    index_boards = engine.compute_boards(results, models, benchmarks, defs, build.raw_frames(repo))
    index_boards = {k: v for k, v in index_boards.items() if engine.publishable(v, defs[v["definition"]])}
    bench_boards = {k: v for k, v in engine.compute_benchmark_boards(results, models, benchmarks, defs).items()
                    if v["rows"]}
    names = {d.data["id"]: d.data["name"] for d in repo.models}
    bench_names = {b["id"]: b.get("name") or b["id"] for b in benchmarks}
    by_model: dict[str, list] = {}
    for r in records:
        by_model.setdefault(r["model"], []).append([r["benchmark"], bench_names.get(r["benchmark"], r["benchmark"]),
                                                    r["value"], r["source"], r["retrieved"]])

    def ranking(rows: list) -> list:
        return [[r.get("rank"), r["model"], names.get(r["model"], r["model"]), r.get("value")] for r in rows]

    return {
        "models": [{"id": d.data["id"], "name": d.data["name"], "org": d.data["organization"],
                    "results": by_model.get(d.data["id"], [])} for d in sorted(repo.models, key=lambda d: d.data["id"])],
        "boards": [{"id": k, "title": v.get("name") or k, "rows": ranking(v["rows"])}
                   for k, v in sorted(index_boards.items())],
        "benchmarks": [{"id": k, "title": v.get("name") or k, "rows": ranking(v["rows"])}
                       for k, v in sorted(bench_boards.items())],
        "methodology": dict(sorted(dict(repo.pages).items())),  # as build.site_context reads them
    }


# ------------------------------------------------------------------------------------------------ peers' pages

def cell(value) -> str:
    """A Markdown table cell: pipes and line breaks would end the cell or the row."""
    if value is None:
        return "unknown"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9/-]+", "-", text.lower()).strip("-")


def markdown_pages(data: dict) -> dict[str, str]:
    """{path under docs/ or content/: Markdown}: the same pages for mkdocs and Hugo, linked with directory URLs."""
    def page(title: str, body: list[str]) -> str:
        return "---\ntitle: " + json.dumps(title) + "\n---\n\n# " + cell(title) + "\n\n" + "\n".join(body) + "\n"

    def ranking(rows: list, depth: int) -> list[str]:
        up = "../" * depth
        return ["| Rank | Model | Value |", "| ---: | --- | ---: |"] + [
            f"| {cell(rank)} | [{cell(name)}]({up}models/{slug(mid)}/) | {cell(value)} |"
            for rank, mid, name, value in rows]

    pages = {}
    for m in data["models"]:
        rows = ["| Benchmark | Value | Source | Retrieved |", "| --- | ---: | --- | --- |"] + [
            f"| [{cell(name)}](../../../benchmarks/{slug(bid)}/) | {cell(value)} | {cell(source)} | {cell(date)} |"
            for bid, name, value, source, date in m["results"]]
        pages[f"models/{slug(m['id'])}.md"] = page(m["name"], [f"Organisation: {cell(m['org'])}", "", *rows])
    for b in data["boards"]:
        pages[f"boards/{slug(b['id'])}.md"] = page(b["title"], ranking(b["rows"], 2))
    for b in data["benchmarks"]:
        pages[f"benchmarks/{slug(b['id'])}.md"] = page(b["title"], ranking(b["rows"], 2))
    for name, text in data["methodology"].items():
        pages[f"methodology/{name}"] = text if text.startswith("---") else page(name.removesuffix(".md"), [text])
    pages["index.md"] = page("Leaderboards", [f"- [{cell(b['title'])}](boards/{slug(b['id'])}/)" for b in data["boards"]]
                             + [f"- [{cell(b['title'])}](benchmarks/{slug(b['id'])}/)" for b in data["benchmarks"]])
    return pages


MKDOCS_YML = """site_name: Leaderboards (benchmark)
use_directory_urls: true
theme:
  name: material
  features: [navigation.prune]
plugins: [search]
"""

HUGO_TOML = """baseURL = "/"
title = "Leaderboards (benchmark)"
disableKinds = ["taxonomy", "term"]
uglyURLs = false
"""

HUGO_LAYOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><nav>{{ range .Site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ end }}</nav>
<main>{{ .Content }}{{ if .IsNode }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}</main>
</body></html>
"""


def write_peer_sources(data: dict, folder: Path) -> dict[str, Path]:
    """The mkdocs project and the Hugo site for the same pages; returns {tool: project folder}."""
    pages = markdown_pages(data)
    mk, hugo = folder / "mkdocs", folder / "hugo"
    for base in (mk / "docs", hugo / "content"):
        for rel, text in pages.items():
            if base.name == "content" and rel.endswith("index.md"):  # Hugo: index.md would make a leaf bundle
                rel = rel.removesuffix("index.md") + "_index.md"
            path = base / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    (mk / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (hugo / "hugo.toml").write_text(HUGO_TOML, encoding="utf-8")
    for name in ("single.html", "list.html"):
        (hugo / "layouts" / "_default").mkdir(parents=True, exist_ok=True)
        (hugo / "layouts" / "_default" / name).write_text(HUGO_LAYOUT, encoding="utf-8")
    return {"mkdocs-material": mk, "hugo": hugo}


# -------------------------------------------------------------------------------------------------- measuring

def measure(cmd: list[str], cwd: Path, limits: tuple[float, float], extra_env: dict | None = None) -> dict:
    """Run cmd to its end: its wall time, CPU time (its own and that of the processes it forked and waited for)
    and the peak RSS of the largest of them, from os.wait4 (so of this process tree alone).

    "pss": the largest sum of the proportional set sizes (PSS) of the process and all its descendants, sampled
    every 0.2 s: what the tree holds, a page shared by forked workers counted once (RSS summed counts it in every
    process; the largest process's peak RSS leaves the others out).

    A build that runs past limits[0] seconds, or whose processes together hold more than limits[1] MB (PSS
    summed), is stopped (the machine is shared: a build that outgrows it would take others' memory) and marked
    "stopped"."""
    env = {**ENV, **(extra_env or {}), "HARNESS_STARTED": repr(time.time())}
    start = time.perf_counter()
    stopped = ""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, text=True, start_new_session=True)
        peak_pss = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            held = tree_pss_mb(proc.pid)
            peak_pss = max(peak_pss, held)
            if not stopped and (time.perf_counter() - start > limits[0] or held > limits[1]):
                stopped = (f"stopped at {time.perf_counter() - start:.0f} s" if held <= limits[1]
                           else f"stopped at {held:,.0f} MB")
                os.killpg(proc.pid, 9)
            time.sleep(0.2)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0 and not stopped:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n{stderr[-3000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024, "pss": peak_pss,
            "stdout": stdout, "stderr": stderr, "stopped": stopped}


def tree_pss_mb(pid: int) -> float:
    """The proportional set size (PSS, /proc/PID/smaps_rollup) of a process and its descendants now, summed: each
    shared page divided among the processes that map it, so the sum is what the tree holds (0 once it has gone)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")), 0)
    return total / 1024


def site_size(folder: Path, search: str) -> dict:
    files = [p for p in folder.rglob("*") if p.is_file()]
    index = folder / search
    return {"pages": sum(1 for p in files if p.suffix == ".html"), "bytes": sum(p.stat().st_size for p in files),
            "search": index.stat().st_size if index.exists() else None}


def peers() -> tuple[dict[str, list[str]], list[str]]:
    """{tool: build command prefix} for the peers installed here, and a note for each one skipped."""
    found, skipped = {}, []
    mkdocs = MKDOCS_VENV / "bin" / "mkdocs"
    if mkdocs.exists():
        found["mkdocs-material"] = [str(mkdocs), "build", "--quiet", "--site-dir"]
    else:
        skipped.append(f"mkdocs-material skipped: no {mkdocs} (python benchmarks/harness.py --install-peers)")
    hugo = shutil.which("hugo")
    if hugo:
        found["hugo"] = [hugo, "--quiet", "--destination"]
    else:
        skipped.append("Hugo skipped: not installed (apt-get install hugo, or python benchmarks/harness.py "
                       "--install-peers)")
    return found, skipped


def tool_version(cmd: list[str]) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr).strip() else "?"


def install_peers() -> None:
    """The only step that uses the network: mkdocs-material at the dev extra's pin into its own venv, and Hugo
    from Debian's packages (when this runs as root; else the command is printed)."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pin = next(d for d in extras["dev"] if d.startswith("mkdocs-material"))
    if not (MKDOCS_VENV / "bin" / "mkdocs").exists():
        subprocess.run([sys.executable, "-m", "venv", str(MKDOCS_VENV)], check=True)
        subprocess.run([str(MKDOCS_VENV / "bin" / "pip"), "install", "--quiet", pin], check=True)
    print(f"mkdocs-material: {tool_version([str(MKDOCS_VENV / 'bin' / 'mkdocs'), '--version'])} in {MKDOCS_VENV}")
    if not shutil.which("hugo"):
        if os.geteuid() == 0 and shutil.which("apt-get"):
            subprocess.run(["apt-get", "install", "-y", "-q", "hugo"], check=True)
        else:
            print("Hugo: run `sudo apt-get install hugo` (Debian's package)")
    if shutil.which("hugo"):
        print(f"hugo: {tool_version(['hugo', 'version'])}")


# --------------------------------------------------------------------------------------------------- the table

COLUMNS = ("models", "tool / sitegen stage", "pages", "wall s", "CPU s", "PSS MB", "peak MB", "ms/model", "site MB",
           "kB/model", "search MB")


def table(rows: list[dict]) -> str:
    """Rows of {column: value} as fixed-width text, one line per tool or stage."""
    def fmt(col: str, value) -> str:
        if value is None:
            return "-"  # measured, but the tool has none (Hugo writes no search index)
        if value == "":
            return ""
        if col == "models":
            return f"{value:,}"
        if col in ("pages",):
            return f"{value:,}"
        if col in ("wall s", "CPU s", "site MB", "search MB"):
            return f"{value:.2f}"
        if col in ("peak MB", "PSS MB"):
            return f"{value:.0f}"
        if col in ("ms/model", "kB/model"):
            return f"{value:.1f}"
        return str(value)

    cells = [[fmt(c, r.get(c, "")) for c in COLUMNS] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(COLUMNS)]
    left = {"tool / sitegen stage"}
    line = lambda values: "  ".join(v.ljust(w) if c in left else v.rjust(w)  # noqa: E731
                                    for c, v, w in zip(COLUMNS, values, widths)).rstrip()
    return "\n".join([line(COLUMNS), *(line(row) for row in cells)])


def targets(results: dict) -> list[str]:
    """Issue #33's synthetic targets, each with the measured numbers and whether it holds (reported, never
    asserted). A stopped build's figures are lower bounds (">=")."""
    lines = []

    def verdict(ok: bool) -> str:
        return "holds" if ok else "does NOT hold"

    def secs(r: dict) -> str:
        return f">= {r['wall']:.0f} s ({r['stopped']})" if r.get("stopped") else f"{r['wall']:.1f} s"

    if 5000 in results:
        s, tools = results[5000]["sitegen"], results[5000]
        claims = (("hugo", "<= 5x Hugo's wall time"), ("mkdocs-material", ">= 3x faster than mkdocs-material"))
        for peer, claim in claims:
            if peer not in tools:
                continue
            p = tools[peer]
            ratio = s["wall"] / p["wall"] if peer == "hugo" else p["wall"] / s["wall"]
            ok = ratio <= 5 if peer == "hugo" else ratio >= 3
            end = f"= {ratio:.1f}x: {verdict(ok)}" if not (s.get("stopped") or p.get("stopped")) else \
                "not known (a build was stopped)"
            lines.append(f"5,000 models {claim}: sitegen {secs(s)}, {peer} {secs(p)} {end}")
    if 20000 in results:
        r = results[20000]["sitegen"]
        memory = verdict(r["pss"] <= 2048) if r["pss"] > 2048 or not r.get("stopped") else "not known (stopped)"
        lines.append(f"20,000 models <= 120 s: {secs(r)}: {verdict(r['wall'] <= 120 and not r.get('stopped'))}; "
                     f"<= 2 GB PSS summed over all processes: {'>= ' if r.get('stopped') else ''}{r['pss']:.0f} MB: "
                     f"{memory}")
    sizes = sorted(results)
    if len(sizes) >= 2:
        runs = [results[n]["sitegen"] for n in sizes]
        per = [r["cpu"] / n * 1000 for r, n in zip(runs, sizes)]
        spread = max(per) / min(per)
        off = max(abs(p / per[0] - 1) for p in per) > 0.15  # a stopped build's figure is a lower bound
        flat = verdict(False) if off else "not known (stopped)" if any(r.get("stopped") for r in runs) else \
            verdict(True)
        lines.append("CPU time per model within 15%: "
                     + ", ".join(f"{n:,}: {'>= ' if r.get('stopped') else ''}{p:.1f} ms"
                                 for n, r, p in zip(sizes, runs, per))
                     + f" (largest / smallest {spread:.2f}): " + flat)
    return lines


# ------------------------------------------------------------------------------------------------- real data

#: Issue #33's real-data targets (wall seconds on a quiet 2-core machine), by scenario.
REAL = (
    ("cold build (empty cache, no previous site)", 5.0),
    ("no-change rebuild", 0.3),
    ("one-file edit rebuild (previous site and cache on disk)", 2.0),
    ("build --check of a one-file change (the previous build's cache)", 3.0),
    ("cold build with the compute cache off (SITEGEN_CACHE=off)", None),
)


def edit_one_value(tree: Path, step: int) -> str:
    """Change the first result value of the first model file that has one (a one-file edit), by `step` tenths."""
    for path in sorted((tree / "scores/models").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r"^(  value: )(\d+(?:\.\d+)?)$", text, re.M)
        if found:
            value = round(float(found.group(2)) + step / 10, 2)
            path.write_text(text[:found.start()] + f"{found.group(1)}{value}" + text[found.end():], encoding="utf-8")
            return path.relative_to(tree).as_posix()
    raise SystemExit("no model file with a result value")


def real_data(workdir: Path, repeat: int, limits: tuple[float, float]) -> tuple[list[dict], list[str]]:
    """Issue #33's real-data scenarios, each a whole `sitegen build` process on a copy of this repository's data
    (scores/, methodology/, CITATION.cff; not a git checkout, so without the changelog): the median of `repeat`
    rounds of the sequence cold, no change, one-file edit, --check of another edit, and a cold build with the
    compute cache off; then `sitegen serve`'s save-to-reloaded-page (serve_scenarios). Returns table rows and the
    targets' verdicts."""
    tree = workdir / "real"
    shutil.rmtree(tree, ignore_errors=True)
    for name in ("scores", "methodology"):
        shutil.copytree(ROOT / name, tree / name, symlinks=True)
    shutil.copy(ROOT / "CITATION.cff", tree / "CITATION.cff")
    build = [sys.executable, "-m", "sitegen.cli", "build", "--root", str(tree), "--quiet"]
    runs: dict[str, list[dict]] = {}
    edited = ""
    for attempt in range(repeat):
        for label, _ in REAL:
            print(f"[harness] real data, round {attempt + 1}: {label}", file=sys.stderr, flush=True)
            cmd, env = build, None
            if label.startswith("cold"):
                shutil.rmtree(tree / "site", ignore_errors=True)
                shutil.rmtree(tree / ".sitegen-cache", ignore_errors=True)
            if "cache off" in label:
                env = {"SITEGEN_CACHE": "off"}
            if "edit" in label or "--check" in label:
                edited = edit_one_value(tree, 1 if attempt % 2 == 0 else -1)
            if "--check" in label:
                cmd = [*build, "--check"]
            runs.setdefault(label, []).append(measure(cmd, tree, limits, env))
    rows, verdicts = [], []
    for label, target in REAL:
        r = median_of(runs[label])
        rows.append({"tool / sitegen stage": label, "wall s": r["wall"], "CPU s": r["cpu"], "PSS MB": r["pss"],
                     "peak MB": r["rss"]})
        if target is not None:
            ok = r["wall"] <= target and not r["stopped"]
            verdicts.append(f"{label} <= {target:g} s: {r['wall']:.2f} s wall, {r['cpu']:.2f} CPU s: "
                            f"{'holds' if ok else 'does NOT hold'}")
    verdicts.append(f"(the edited file: {edited}, one result value moved by 0.1)")
    served, said = serve_scenarios(tree, repeat, limits)
    return rows + served, verdicts + said


#: Issue #33's `sitegen serve` targets: seconds from an edited file's write to the rebuild's result published to
#: the browser (the build counter the reload script polls), by scenario.
SERVE = (
    ("serve: save to reloaded page, one model's result", 1.0),
    ("serve: save to reloaded page, an edit that moves AI IQ", 3.0),
)


def edit_ai_iq_value(tree: Path, step: int) -> str:
    """Change, by `step` tenths, the result AI IQ takes as observed for a model it ranks (the built site's API, best
    first), in a hand-curated model file: a measured value that enters AI IQ and its P80 populations."""
    board = json.loads((tree / "site/api/v1/indices/ai-iq.json").read_text(encoding="utf-8"))
    for row in board["rows"]:
        path = tree / "scores/models" / f"{row['model']}.yaml"
        if not row.get("rank") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for part in row["components"]:
            if part["kind"] != "benchmark" or part["how"] != "observed" or not part.get("source"):
                continue
            pattern = (rf"^- benchmark: {re.escape(part['id'])}\n  value: (\d+(?:\.\d+)?)\n"
                       rf"  source: {re.escape(part['source'])}$")
            for found in re.finditer(pattern, text, re.M):
                if float(found.group(1)) == part["raw"]:
                    value = round(part["raw"] + step / 10, 2)
                    start, end = found.span(1)
                    path.write_text(text[:start] + f"{value}" + text[end:], encoding="utf-8")
                    return f"{path.relative_to(tree).as_posix()} ({part['id']}, {part['source']})"
    raise SystemExit("no result AI IQ observes in a ranked model's file under scores/models/")


def _get_json(url: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process and of the children it waited for (/proc/PID/stat), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def serve_scenarios(tree: Path, repeat: int, limits: tuple[float, float]) -> tuple[list[dict], list[str]]:
    """`sitegen serve` on the real data (rebuilds in its own process): after its first build, each scenario's file
    is written, and the time runs until `/__sitegen/build` (what the page's reload script polls) counts one more
    build, polled every 20 ms up to limits[0] seconds. CPU is the serve process's over that time; PSS its tree's
    largest sum while it rebuilt. `repeat` rounds, alternating, the edit moving up then down."""
    cmd = [sys.executable, "-m", "sitegen.cli", "serve", "--root", str(tree), "--port", "0"]
    runs: dict[str, list[dict]] = {}
    said: dict[str, str] = {}
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=tree, env=ENV, stdout=subprocess.DEVNULL, stderr=err, text=True,
                                start_new_session=True)
        try:
            deadline = time.perf_counter() + limits[0]
            url = ""
            while not url:  # the first build (cold when the cache is empty), then the line naming the address
                if proc.poll() is not None or time.perf_counter() > deadline:
                    err.seek(0)
                    raise SystemExit(f"sitegen serve did not start:\n{err.read()[-3000:]}")
                err.seek(0)
                found = re.search(r"at (http://[^/\s]+/)", err.read())
                url = found.group(1) if found else ""
                time.sleep(0.1)
            count = _get_json(url + "__sitegen/build")["build"]

            def rebuilt(label: str) -> tuple[float, float]:
                """Wall seconds from now to the next published build, and the largest PSS meanwhile."""
                start, pss = time.perf_counter(), 0.0
                while True:
                    state = _get_json(url + "__sitegen/build")
                    if state["failed"]:
                        raise SystemExit(f"{label}: the rebuild failed: {state['failed']}")
                    if state["build"] > count:
                        return time.perf_counter() - start, pss
                    if proc.poll() is not None or time.perf_counter() - start > limits[0]:
                        raise SystemExit(f"{label}: no rebuild published within {limits[0]:.0f} s")
                    pss = max(pss, tree_pss_mb(proc.pid))
                    time.sleep(0.02)

            # Not timed: the first build found the site of a build with the cache off (up to date, its cache
            # empty); this rebuild fills the cache, as an editing session's first save does.
            edit_one_value(tree, 1)
            rebuilt("filling the cache")
            count += 1
            for attempt in range(repeat):
                for label, _ in SERVE:
                    print(f"[harness] real data, round {attempt + 1}: {label}", file=sys.stderr, flush=True)
                    step = -1 if attempt % 2 == 0 else 1
                    cpu = _cpu_seconds(proc.pid)
                    said[label] = (edit_ai_iq_value if "AI IQ" in label else edit_one_value)(tree, step)
                    wall, pss = rebuilt(label)
                    count += 1
                    runs.setdefault(label, []).append({"wall": wall, "cpu": _cpu_seconds(proc.pid) - cpu,
                                                       "rss": 0.0, "pss": pss, "stopped": ""})
        finally:
            os.killpg(proc.pid, 2)  # Ctrl+C: serve waits for a running build and removes its temporary folders
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
    rows, verdicts = [], []
    for label, target in SERVE:
        r = median_of(runs[label])
        rows.append({"tool / sitegen stage": label, "wall s": r["wall"], "CPU s": r["cpu"], "PSS MB": r["pss"]})
        verdicts.append(f"{label} <= {target:g} s: {r['wall']:.2f} s wall, {r['cpu']:.2f} CPU s: "
                        f"{'holds' if r['wall'] <= target else 'does NOT hold'} (the edited file: {said[label]})")
    return rows, verdicts


# ----------------------------------------------------------------------------------------------------- main

def median_of(runs: list[dict]) -> dict:
    """The median of a tool's rounds; a round that was stopped stands for them all (its figures are at the stop)."""
    stopped = [r for r in runs if r["stopped"]]
    if stopped:
        return stopped[0]
    out = {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "rss", "pss")}
    out.update({k: v for k, v in runs[-1].items() if k not in out})
    return out


def run(sizes: list[int], repeat: int, peer_max: int | None, seed: int, workdir: Path,
        limits: tuple[float, float]) -> str:
    found, skipped = peers()
    results: dict[int, dict] = {}
    rows: list[dict] = []
    for n in sizes:
        print(f"[harness] {n:,} models: making the synthetic repository", file=sys.stderr, flush=True)
        folder = workdir / f"n{n}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        tree = folder / f"tree-{n}"
        helper("--make-tree", str(n), str(folder), str(seed))
        tools = {k: v for k, v in found.items() if peer_max is None or n <= peer_max}
        if tools:  # the peers' Markdown, from the same tree (not timed)
            helper("--peer-sources", str(tree), str(folder / "peers"))
        projects = {"mkdocs-material": folder / "peers" / "mkdocs", "hugo": folder / "peers" / "hugo"}
        commands = {"sitegen": ([sys.executable, __file__, "--stage-child", str(tree)], ROOT)}
        commands.update({tool: (prefix, projects[tool]) for tool, prefix in tools.items()})
        runs: dict[str, list[dict]] = {}
        for attempt in range(repeat):
            # alternating: one build of each tool per round, so a busy moment of the machine hits them all
            for tool, (prefix, cwd) in commands.items():
                print(f"[harness] {n:,} models, round {attempt + 1}: {tool}", file=sys.stderr, flush=True)
                dest = folder / f"site-{tool}"
                shutil.rmtree(dest, ignore_errors=True)
                got = measure([*prefix, str(dest)], cwd, limits)
                if tool == "sitegen":  # its stages; of a stopped build, those it finished (a line each on stderr)
                    got["stages"] = json.loads(got["stdout"].strip().splitlines()[-1]) if not got["stopped"] else {
                        k: v for line in got["stderr"].splitlines() if line.startswith("{")
                        for k, v in json.loads(line).items()}
                size = site_size(dest, "search/search_index.json") if not got["stopped"] else {}
                runs.setdefault(tool, []).append({**got, **size})
                shutil.rmtree(dest, ignore_errors=True)
        results[n] = {tool: median_of(r) for tool, r in runs.items()}
        s = results[n].get("sitegen")
        if s and not s["stopped"] and "link check" in s.get("stages", {}):
            # a plain build runs no link check (build --check does): the whole process's figures without it
            s["wall"] -= s["stages"]["link check"][0]
            s["cpu"] -= s["stages"]["link check"][1]
        for tool, r in results[n].items():
            label = {"sitegen": "sitegen (whole process, less the link check)",
                     "mkdocs-material": "mkdocs-material, pruned nav"}.get(tool, tool)
            row = {"models": n, "tool / sitegen stage": label + (f", {r['stopped']}" if r["stopped"] else ""),
                   "wall s": r["wall"], "CPU s": r["cpu"], "PSS MB": r["pss"], "peak MB": r["rss"],
                   "ms/model": r["wall"] / n * 1000}
            if not r["stopped"]:
                row.update({"pages": r["pages"], "site MB": r["bytes"] / 1e6, "kB/model": r["bytes"] / n / 1e3,
                            "search MB": None if r["search"] is None else r["search"] / 1e6})
            rows.append(row)
            if tool == "sitegen":
                stage_runs = [x["stages"] for x in runs["sitegen"]]
                for stage, _ in STAGES:
                    done = [x[stage] for x in stage_runs if stage in x]
                    if len(done) < len(stage_runs):  # a stopped build did not finish this stage
                        rows.append({"tool / sitegen stage": f"  {stage}: not finished"})
                        break
                    wall, cpu, rss = (statistics.median(x[i] for x in done) for i in range(3))
                    rows.append({"tool / sitegen stage": f"  {stage}", "wall s": wall, "CPU s": cpu, "peak MB": rss,
                                 "ms/model": wall / n * 1000})
        if peer_max is not None and n > peer_max:
            skipped.append(f"{n:,} models: peers not run (--peer-max {peer_max:,})")
        shutil.rmtree(folder, ignore_errors=True)
        print(table(rows), file=sys.stderr, flush=True)  # so far: a long run shows its rows as they come
    versions = [f"sitegen at {git_head()}"]
    if "mkdocs-material" in found:
        versions.append(tool_version([found["mkdocs-material"][0], "--version"]).split(" from ")[0].replace(", version", "")
                        + f", mkdocs-material {mkdocs_material_version()}")
    if "hugo" in found:
        versions.append(tool_version([found["hugo"][0], "version"]).split(" BuildDate")[0])
    lines = [table(rows), "",
             f"{len(sizes)} size(s), median of {repeat} alternating round(s), seed {seed}; {os.cpu_count()} cores, "
             f"{platform.python_implementation()} {platform.python_version()}; " + "; ".join(versions) + ".",
             "PSS MB: the peak of the proportional set sizes summed over every process of the build (shared pages "
             "counted once); the memory target is read on it. "
             f"Peak MB: the largest process's peak RSS (a process doing nothing shows {floor_mb():.0f} MB here). "
             "Stage peak MB: sitegen's high-water mark at the stage's end. "
             "Pages: HTML files written. Stages:",
             *(f"  {stage}: {what}" for stage, what in STAGES), *skipped, *targets(results)]
    return "\n".join(lines)


def helper(*args: str) -> None:
    """Preparation in a child process: the harness itself stays small, because a process it starts inherits
    its size as the floor of its peak RSS (Linux counts the parent's pages at fork/exec)."""
    subprocess.run([sys.executable, __file__, *args], check=True, env=ENV)


def floor_mb() -> float:
    """The peak RSS that measure() reports for a process that does nothing: the floor under every figure."""
    return measure(["true"], ROOT, (60, 1000))["rss"]


def git_head() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "?"


def mkdocs_material_version() -> str:
    meta = list((MKDOCS_VENV / "lib").glob("python*/site-packages/mkdocs_material-*.dist-info"))
    return meta[0].name.removesuffix(".dist-info").split("-", 1)[1] if meta else "?"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--stage-child":
        staged_child(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--make-tree":
        from bench_build import synthetic_tree

        synthetic_tree(int(sys.argv[2]), Path(sys.argv[3]), seed=int(sys.argv[4]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--peer-sources":
        write_peer_sources(pages_data(Path(sys.argv[2])), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,20000", help="comma-separated model counts")
    parser.add_argument("--repeat", type=int, default=1, help="alternating rounds per size (the median is shown)")
    parser.add_argument("--peer-max", type=int, default=None, help="run mkdocs and Hugo only up to this size")
    parser.add_argument("--seed", type=int, default=1, help="which real model each synthetic one copies")
    parser.add_argument("--max-seconds", type=float, default=600, help="stop a build that runs longer")
    parser.add_argument("--max-mb", type=float, default=8000,
                        help="stop a build whose processes together hold more memory (the machine is shared)")
    parser.add_argument("--install-peers", action="store_true", help="install mkdocs-material and Hugo, then stop")
    parser.add_argument("--real", action="store_true",
                        help="time the real data's scenarios too (cold, no change, one-file edit, --check)")
    parser.add_argument("--results", default=None,
                        help="write the tables to this Markdown file (benchmarks/RESULTS.md)")
    args = parser.parse_args()
    if args.install_peers:
        install_peers()
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    limits = (args.max_seconds, args.max_mb)
    compile_package()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="sitegen-harness-") as tmp:
        real = real_data(Path(tmp), args.repeat, limits) if args.real else None
        synthetic = run(sizes, args.repeat, args.peer_max, args.seed, Path(tmp), limits) if sizes else None
    text = results_text(real, synthetic, args, load)
    if args.results:
        write_results(Path(args.results), text)
    print(text)


def compile_package() -> None:
    """sitegen's modules compiled to bytecode once, before anything is timed, as installing a wheel does: the runs
    set PYTHONDONTWRITEBYTECODE (they write nothing into the package), so in a checkout without __pycache__ every
    timed process would otherwise compile each module it imports again, a cost no installed copy pays."""
    import compileall

    import sitegen

    compileall.compile_dir(Path(sitegen.__file__).parent, quiet=1, workers=1)


KEPT = "## Notes and earlier figures (written by hand; the harness keeps this section)"


def results_text(real, synthetic: str | None, args, load: tuple) -> str:
    """benchmarks/RESULTS.md's text from this run: the real-data scenarios and the synthetic sizes."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = ["# Benchmark results", "",
             f"Written by `python benchmarks/harness.py {' '.join(sys.argv[1:])}` on {when}, sitegen at {git_head()}; "
             f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}. Load average "
             f"when it started: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min): on a shared machine "
             "wall times stretch with the load and CPU times barely move, so read the CPU column first. Targets "
             "are issue #33's, reported and never asserted. Wall, CPU and PSS are whole processes' (CPU of the "
             "process and the workers it waited for; PSS summed over all of them at its peak). sitegen's modules "
             "are compiled to bytecode before the first run, as an install does.", ""]
    lines += ["## Real data", ""]
    if real is None:
        lines += ["Not run this time (--real not given).", ""]
    else:
        rows, verdicts = real
        lines += ["```text", table(rows), "```", "", *(f"- {v}" for v in verdicts), ""]
    lines += ["## Synthetic repositories", ""]
    lines += (["```text", synthetic, "```", ""] if synthetic is not None
              else ["Not run this time (--sizes was empty): the latest recorded figures are under the next heading.",
                    ""])
    return "\n".join(lines)


def write_results(path: Path, text: str) -> None:
    """Write `text`, then keep what the previous file held under KEPT (figures recorded by hand from earlier runs:
    the harness never rewrites them)."""
    kept = ""
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if KEPT in old:
            kept = old[old.index(KEPT):]
    path.write_text(text.rstrip("\n") + "\n\n" + (kept or KEPT + "\n\nNothing yet.\n"), encoding="utf-8")


if __name__ == "__main__":
    main()
