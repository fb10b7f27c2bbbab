"""The pipeline, top to bottom: load -> validate -> frames -> compute -> export -> render -> write."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..data import validate_repo
from ..indices.board_types import Board
from ..problems import ERROR, Problem
from . import workers

if TYPE_CHECKING:
    import pandas as pd

    from .. import reuse
    from ..data.load import Doc, Repo
    from ..indices import asof
    from ..site.context import SiteContext

#: Per-question rows by (benchmark, model) (raw_frames).
RawFrames = dict[tuple[str, str], "pd.DataFrame"]


class History(Protocol):
    """What a build takes from git (history.changelog.Record, which build does not import: history is above it)."""

    committed: str | None
    key: str

    def summary(self) -> list[dict[str, Any]]: ...


@dataclasses.dataclass
class Outcome:
    problems: list[Problem]
    summary: str = ""


@dataclasses.dataclass
class Computed:
    results: object
    models: object
    boards: dict[str, Board]  # by board id (indices/board_types.py says what a board, a row and a cell hold)
    benchmark_boards: dict[str, Board]  # by benchmark id
    benchmarks: list
    sources: list
    index_defs: dict
    api_files: Mapping[str, str]  # export.Texts: each file's text, held compressed until it is written
    frontiers: dict
    result_records: list = dataclasses.field(default_factory=list)  # the rows of `results`, as dicts
    model_records: list = dataclasses.field(default_factory=list)  # the rows of `models`, as dicts
    as_of: dict = dataclasses.field(default_factory=dict)  # indices/asof.compute_asof: boards by month, frontiers
    ahead: dict = dataclasses.field(default_factory=dict)  # per board, each ranked row's simulated rank in every draw


def compute(
    repo: Repo,
    cache: Path | None = None,
    boards_only: bool = False,
    inputs: str | None = None,
    root: Path | None = None,
    keep: bool = True,
    prune: bool = True,
) -> Computed:
    """Every board and the JSON API, from a validated repository. With `cache` (a folder, build/simcache.py), each
    as-of month's boards and each simulated board are kept there by a digest of their inputs and loaded on the next
    run; with `inputs` and `root` too (stamp.data_digest(root), taken before `repo` was read from root), so is the
    whole result: kept only when the tree's digest is still `inputs` afterwards, so a file edited while the build
    read it never files a result under the digest of other bytes. keep=False loads entries and writes none;
    prune=False keeps every entry already there (a command that shares the build's folder: sitegen diff, stats).
    boards_only: the boards alone, without the as-of views and the API files (empty), which take most of the time
    (sitegen diff compares boards only)."""
    from .. import reuse
    from ..indices import simcache
    from . import stamp
    from .simcache import FileStore

    if cache is None:
        return _compute(repo, boards_only)
    salt = reuse.code_digest()
    whole = FileStore(Path(cache) / "compute", salt, keep) if inputs and root is not None else None
    from ..indices import uncertainty

    name = (
        hashlib.sha256(
            f"{salt}\0{inputs}\0boards_only={boards_only}\0seeds={uncertainty.current_salt()}".encode()
        ).hexdigest()
        if whole
        else ""
    )
    if whole is not None:
        data = whole.get(name)
        kept = _unpickled(data) if data is not None else None
        if isinstance(kept, Computed):
            if prune:
                whole.prune()
            return kept
    store = FileStore(Path(cache) / "blocks", salt, keep)
    with simcache.kept_in(store):
        computed = _compute(repo, boards_only)
    if prune:
        store.prune()
    if whole is not None and root is not None:
        # What a later build with these inputs loads, returned here too: the same objects whether computed or
        # loaded, so the pages' keys (reuse.py pickles their data) and with them site/.sitegen-pages agree.
        data = pickle.dumps(computed, protocol=5)
        if inputs is not None and stamp.still(root, inputs):  # the files read were the digest's
            whole.put(name, data)
            if prune:
                whole.prune()
        # the bytes were pickled from a Computed just above
        computed = cast(Computed, simcache.loads(data))
    return computed


def _listed(doc: Doc | None, key: str) -> list[dict[str, Any]]:
    """The list a required file holds (methodology/benchmarks.yaml's benchmarks, scores/sources.yaml's sources):
    validate_repo returns no repository without them."""
    assert doc is not None, f"a validated repository has its {key} file"
    return doc.data[key]


def _unpickled(data: bytes) -> object:
    """A kept entry, or None when it is damaged (it is then computed again and replaced)."""
    from ..indices.simcache import loads

    try:
        return loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
        return None


#: Engine kinds whose as-of months the forked worker computes; every other definition's as-of months are the
#: parent's, after today's boards. AI IQ's (its simulations, month after month) are the larger part of the as-of
#: engine's time: about half of compute alone (benchmarks/RESULTS.md measures the balance).
WORKER_KINDS = frozenset({"ai-iq"})


def _worker_ids(index_defs: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """The definitions whose as-of months the worker computes (WORKER_KINDS)."""
    return {i for i, d in index_defs.items() if d["kind"] in WORKER_KINDS}


def _worker_share(
    plan: asof.AsofPlan, index_defs: Mapping[str, Mapping[str, Any]], raw: RawFrames, digests: asof.InputDigests
) -> set[str]:
    """The definitions whose as-of months the worker computes: those of WORKER_KINDS (the as-of engine's heaviest);
    but when the compute cache holds every one of their shares (asof.part_keys: the edit did not reach them, so the
    worker would only load them and send them back), the definitions whose shares it lacks instead: the months an
    edit reached are then computed on the second core while this process computes today's boards and the API and
    loads the kept shares itself, not after them. Which process computes or loads a share changes nothing of it
    (asof.join_asof places each board by its first place)."""
    from ..indices import asof, simcache

    theirs = _worker_ids(index_defs)
    has = getattr(simcache.current(), "has", None)
    if has is None:
        return theirs
    ids = sorted(index_defs)
    keys = asof.part_keys(plan, digests, index_defs, raw, ids, slim=True)
    missing = {i for i in ids if not has(keys[i])}
    return missing if theirs.isdisjoint(missing) else theirs


def _compute(repo: Repo, boards_only: bool = False) -> Computed:
    from .. import export  # noqa: F401 - imported before the fork: the worker then imports nothing
    from ..data import frame
    from ..indices import asof

    result_records = frame.result_records(repo)
    model_records = repo.made.pop("model_records", None)  # validation's (checks.run_checks), taken once
    if model_records is None:
        model_records = frame.model_records(repo)
    results = frame.results(repo, result_records)
    models = frame.models(repo, model_records)
    benchmarks = _listed(repo.benchmarks, "benchmarks")
    index_defs = {doc.data["id"]: doc.data for doc in repo.indices}
    raw = raw_frames(repo)
    # every row digested once, before the fork: today's boards and both as-of parts key their entries with them
    digests = asof.InputDigests(results, models, raw, benchmarks)
    plan = None
    months = None
    worker_ids: set[str] = set()
    if not boards_only:
        # The as-of months read only the frames: the heaviest definitions' on the second core from here on, while
        # this process computes today's boards, their intervals, the API and the other definitions' months
        # (build/workers.py; SITEGEN_JOBS=1 keeps it here).
        # compute_asof takes list[Mapping] (read only; a Sequence would take these dicts as they are)
        plan = asof.asof_plan(
            results,
            models,
            cast(list[Mapping[str, Any]], model_records),
            index_defs,
            digests=digests,
            price_precedence=frame.price_precedence(repo),
        )
        worker_ids = _worker_share(plan, index_defs, raw, digests)
        months = workers.start(
            "computing the boards as of every month",
            functools.partial(_asof_stage, plan, benchmarks, index_defs, raw, worker_ids),
        )
    try:
        return _today(
            repo,
            results,
            models,
            result_records,
            model_records,
            benchmarks,
            index_defs,
            raw,
            digests,
            plan,
            months,
            worker_ids,
        )
    finally:
        if months is not None:
            months.cancel()


def _asof_stage(
    plan: asof.AsofPlan,
    benchmarks: list[dict[str, Any]],
    index_defs: dict[str, dict[str, Any]],
    raw: RawFrames,
    only: set[str],
) -> tuple[dict[str, Any], dict[str, Mapping[str, str]], set[str]]:
    """The boards of the definitions in `only` as of every month end, as the published views read them, with their
    changes and frontiers over time (indices/asof.asof_part); their API texts by board; and the compute-cache
    entries used (the parent's store keeps them when it prunes)."""
    from ..indices import asof, simcache

    part = asof.asof_part(plan, benchmarks, index_defs, raw, only=only, slim=True, between=workers.release_free_memory)
    store = simcache.current()
    return part, _asof_texts(plan, part), set(getattr(store, "used", ()))


def _asof_texts(plan: asof.AsofPlan, part: Mapping[str, Any]) -> dict[str, Mapping[str, str]]:
    """A part's as-of API texts (export.asof_texts), by board: each board's files are its own. Inside a
    simcache.kept_in block they are kept by the board's share key (asof.part_keys: everything its months, changes
    and frontiers read) and the snapshots' days, the only other input of its files: a board an edit did not reach
    is loaded as its texts, not serialised again."""
    from .. import export
    from ..indices import asof, simcache

    view = asof.part_view(plan, part)
    keys = part.get("keys") or {}
    snapshots = hashlib.sha256(pickle.dumps(plan.snapshots, protocol=5)).hexdigest()
    out: dict[str, Mapping[str, str]] = {}
    for b, per_month in part["boards"].items():
        make = functools.partial(export.asof_texts, {**view, "boards": {b: per_month}})
        if b in keys and simcache.current() is not None:
            name = hashlib.sha256(f"asof-texts-1\0{keys[b]}\0{b}\0{snapshots}".encode()).hexdigest()
            out[b] = simcache.kept(name, make)
        else:
            out[b] = make()
    return out


def _today(
    repo: Repo,
    results: pd.DataFrame,
    models: pd.DataFrame,
    result_records: list[dict[str, Any]],
    model_records: list[dict[str, Any]],
    benchmarks: list[dict[str, Any]],
    index_defs: dict[str, dict[str, Any]],
    raw: RawFrames,
    digests: asof.InputDigests,
    plan: asof.AsofPlan | None,
    months: workers.Handle | None,
    worker_ids: set[str],
) -> Computed:
    from .. import export
    from ..indices import asof, simcache, uncertainty
    from ..indices import boards as engine

    # every publishable board, annotated; one definition at a time, each kept by its inputs' digest
    boards = asof.today_boards(results, models, benchmarks, index_defs, raw, digests)
    frontiers = {k: v.pop("frontiers") for k, v in boards.items() if "frontiers" in v}
    ahead = {k: v.pop("ahead") for k, v in boards.items() if "ahead" in v}  # the compare page's, not the API's
    # the engine's boards are plain dicts; indices/board_types.py's Board says what they hold (its test checks them)
    index_boards = cast(dict[str, Board], boards)
    computed_boards = cast(dict[str, Board], engine.compute_benchmark_boards(results, models, benchmarks, index_defs))
    benchmark_boards = {k: v for k, v in computed_boards.items() if v["rows"]}
    config: dict[str, Any] = next((d for d in index_defs.values() if d["kind"] == "benchmark-boards"), {})
    owned = uncertainty.owned_intervals(boards, index_defs)
    by_id = {b["id"]: b for b in benchmarks}
    for bid, board in benchmark_boards.items():
        # each board's intervals are drawn on their own (annotate_benchmark_boards reads only its benchmark and
        # the values an index owns of it), so each is kept by its own inputs: an edit re-draws the boards it reaches
        simcache.annotated(
            cast(dict[str, Any], board),
            functools.partial(_annotate_benchmark_board, bid, benchmarks, config, owned),
            benchmark=by_id.get(bid),
            config=config,
            owned=owned.get(bid),
            seed_salt=uncertainty.current_salt(),
        )
    sources = _listed(repo.sources, "sources")
    as_of: dict[str, Any] = {}  # boards only (no months): neither the as-of views nor the API files
    api_files = export.Texts()
    if plan is not None and months is not None:
        api_files = export.api_files(
            boards,
            benchmark_boards,
            model_records,
            result_records,
            benchmarks,
            sources,
            frontiers,
            plan.steps,
        )
        # the definitions the worker does not compute, here, while it computes its own
        own = set(index_defs) - worker_ids
        mine = asof.asof_part(
            plan, benchmarks, index_defs, raw, only=own, slim=True, between=workers.release_free_memory
        )
        texts = _asof_texts(plan, mine)
        theirs, their_texts, used = months.result()
        store = simcache.current()
        if store is not None and hasattr(store, "used"):
            store.used |= used  # the worker's entries are this build's too
        as_of = asof.join_asof(plan, [mine, theirs])
        texts.update(their_texts)
        for board_id in sorted(texts):  # in board order, as one pass over every board writes them
            api_files.update(texts[board_id])
    return Computed(
        results=results,
        models=models,
        boards=index_boards,
        benchmark_boards=benchmark_boards,
        benchmarks=benchmarks,
        sources=sources,
        index_defs=index_defs,
        api_files=api_files,
        frontiers=frontiers,
        result_records=result_records,
        model_records=model_records,
        as_of=as_of,
        ahead=ahead,
    )


def _annotate_benchmark_board(
    bid: str, benchmarks: list[dict[str, Any]], config: dict[str, Any], owned: dict[str, Any], board: dict[str, Any]
) -> None:
    """One benchmark board's intervals (uncertainty.annotate_benchmark_boards on that board alone), in place."""
    from ..indices import uncertainty

    uncertainty.annotate_benchmark_boards({bid: board}, benchmarks, config, owned)


def worker_problem(exc: workers.Failed) -> Problem:
    """A compute worker's failure as the build's problem (the whole build, not a file: no place to point at)."""
    return Problem(
        "",
        0,
        0,
        "build",
        f"{exc}",
        "nothing was written; SITEGEN_JOBS=1 computes everything in one process, SITEGEN_DEBUG=1 shows more",
    )


def raw_frames(repo: Repo) -> RawFrames:
    """Per-question rows by (benchmark, model) as DataFrames."""
    import pandas as pd

    return {(raw.benchmark, raw.model): pd.DataFrame([row for _, row in raw.rows]) for raw in repo.raw}


@dataclasses.dataclass(frozen=True)
class Settings:
    """Every setting a build takes from outside its input files, resolved once (`settings()`): the pages and the
    up-to-date stamp read this object, never the environment, so a change to any of them rebuilds what it reaches.

    `SITEGEN_JOBS` is not here: it sets how many processes render, never what they write."""

    source_date_epoch: str = ""  # SOURCE_DATE_EPOCH: the shown date, when set
    site_url: str = ""  # the site's public URL (sitemap.xml, feed, Pages base_url of 404.html)
    repo_url: str = ""  # the repository's web address (commit links, CONTRIBUTING.md)


def settings(site_url: str | None = None) -> Settings:
    """The build's settings from the environment, once. `site_url` (`sitegen build --site-url`) comes before
    SITEGEN_SITE_URL; without either, GitHub Pages' address for GITHUB_REPOSITORY (set in GitHub Actions), else
    empty (the site is then assumed to be served from the root of its host). The repository's address is
    GITHUB_SERVER_URL (default https://github.com) and GITHUB_REPOSITORY."""
    env = os.environ
    epoch = env.get("SOURCE_DATE_EPOCH", "").strip()
    site_url = (site_url if site_url is not None else env.get("SITEGEN_SITE_URL", "")).strip()
    gh_repo = env.get("GITHUB_REPOSITORY", "").strip()
    if not site_url and gh_repo.count("/") == 1:
        owner, name = gh_repo.lower().split("/")
        site_url = f"https://{owner}.github.io/" + ("" if name == f"{owner}.github.io" else f"{name}/")
    server = env.get("GITHUB_SERVER_URL", "").strip().rstrip("/") or "https://github.com"
    repo_url = f"{server}/{gh_repo}" if gh_repo.count("/") == 1 else ""
    return Settings(epoch if epoch.isdigit() else "", site_url, repo_url)


def data_date(repo: Repo, committed: str | None = None, epoch: str | None = None) -> str:
    """The date the site says its data is from: SOURCE_DATE_EPOCH (`epoch`; None: read from the environment),
    else the last commit's date (`committed`, history/git.py), else the newest retrieval."""
    epoch = settings().source_date_epoch if epoch is None else epoch
    if epoch and epoch.isdigit():
        return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date().isoformat()
    if committed:
        return committed
    dates = [d.data.get("retrieved", "") for d in repo.imported]
    dates += [r.get("retrieved", "") for d in repo.models for r in d.data.get("results", [])]
    return max([d for d in dates if d] or ["1970-01-01"])


def public_url() -> str:
    """The site's public URL by the environment (`settings().site_url`)."""
    return settings().site_url


def site_context(
    repo: Repo, computed: Computed, history: History | None = None, config: Settings | None = None
) -> SiteContext:
    """The site's context: the computed boards with this build's settings (`config`, default `settings()`: the
    shown date, the site's and the repository's addresses) and what it takes from git (`history`, a
    history.changelog.Record; None: no git)."""
    from ..site.context import site_context as context

    config = config if config is not None else settings()
    committed = history.committed if history else None
    return context(
        repo,
        computed,
        data_date=data_date(repo, committed, config.source_date_epoch),
        site_url=config.site_url,
        repo_url=config.repo_url,
        history=history.summary() if history else [],
    )


#: The stages `run` reports to its `progress` callback, in order.
BUILD_STAGES = ("validating", "computing boards", "rendering pages", "writing")


def run(
    root: Path,
    out: Path,
    check: bool = False,
    progress: Callable[[str], object] | None = None,
    history: History | None = None,
    config: Settings | None = None,
) -> Outcome:
    """Build the site into out (atomically), or with check=True into a temporary folder that is then removed.

    `progress(stage)` is called as each of BUILD_STAGES starts (the command line shows it on stderr). `history`
    (history.changelog.Record) is what the site takes from git: the last commit's date and the changelog; without
    it the site has no changelog entries and shows the newest retrieval's date. `config` is the build's
    Settings (default: `settings()`, from the environment), every one of which the up-to-date stamp covers."""
    progress = progress or (lambda stage: None)
    from .. import write
    from . import stamp

    root = Path(root)
    refused = None if check else write.out_problem(out, root)
    if refused:
        return Outcome([refused])
    # Every setting the output depends on: the git history the changelog and the shown date are read from, and
    # each of the Settings (the shown date, the site's and the repository's addresses), resolved once here.
    config = config if config is not None else settings()
    committed, history_key = (history.committed, history.key) if history else (None, "")
    data = stamp.data_digest(root)
    digest = stamp.inputs_digest(
        root,
        {
            "committed": committed or "",
            "history": history_key,
            **{f"settings.{k}": v for k, v in dataclasses.asdict(config).items()},
        },
        data=data,
    )
    if not check and stamp.up_to_date(out, digest):
        # The inputs are those of the last build: so are their warnings, which the stamp recorded.
        return Outcome(stamp.recorded_warnings(out), f"up to date (nothing changed since the last build of {out})")
    progress(BUILD_STAGES[0])
    repo, problems = validate_repo(root, keep=not check)  # a check loads the parse cache, writes nothing
    if repo is None:
        return Outcome(problems)
    progress(BUILD_STAGES[1])
    from .simcache import FileStore, folder

    # the compute cache (build/simcache.py); a check loads from it and writes nothing
    try:
        computed = compute(repo, folder(root), inputs=data, root=root, keep=not check)
    except workers.Failed as exc:
        return Outcome(problems + [worker_problem(exc)])
    ctx = site_context(repo, computed, history, config)
    from ..site import render_site

    charts = _charts_cache(
        root, data, {"committed": committed or "", "history": history_key, **dataclasses.asdict(config)}, check
    )
    store = _page_store(root, check)
    from .. import reuse
    from ..site.render import references_kept

    where = folder(root)
    refs = None if where is None else FileStore(where / "templates", reuse.code_digest(), writable=not check)

    def render(folder: Path) -> list[Problem]:
        progress(BUILD_STAGES[2])
        # The JSON API is part of the site (ctx.api_files). A plain build takes every file whose key is unchanged
        # from the previous site (sitegen/reuse.py; a folder without its record gives nothing); the check takes the
        # pages the page store holds and makes everything else afresh, writing only the pages it renders.
        from . import links

        scanned = links.scans(root)  # each rendered page's links, scanned by the worker that wrote it
        with references_kept(refs):  # each template's references by its bytes, parsed once (site/render.py)
            render_site(
                ctx,
                folder,
                previous=None if check else Path(out),
                charts_cache=charts,
                pages=store,
                links=scanned,
                check=check,  # only the pages it renders are written (reuse.Output); the link check names the rest
            )
        progress(BUILD_STAGES[3])
        # The link check is the CI gate's (build --check); a plain build trusts the renderer's URL scheme.
        from ..site.pages import site_path

        # every link tested every time; a page's links scanned only when its bytes are new (build/links.py); a plain
        # build keeps its pages' links for the next check
        found = (links.check if check else links.keep)(folder, site_path(ctx.site_url), root, scanned)
        warnings = [p for p in problems if p.severity != ERROR]
        write.write_files(folder, {stamp.STAMP: stamp.stamp_text(digest, warnings)})
        return found

    if check:
        with tempfile.TemporaryDirectory(prefix="sitegen-check-") as tmp:
            problems += render(Path(tmp) / "site")
    else:
        problems += write.atomic_build(Path(out), render)
    if refs is not None:
        refs.prune()
    if charts is not None:
        charts[0].prune()
        if charts[2].used:  # the charts were built, not loaded whole: keep the specs they used
            charts[2].prune()
    pages = len(ctx.models) + len(computed.boards) + len(computed.benchmark_boards)
    return Outcome(
        problems,
        f"{len(ctx.models)} models, {len(computed.boards)} index boards, "
        f"{len(computed.benchmark_boards)} benchmark boards, ~{pages} pages",
    )


def _charts_cache(root: Path, data: str, settings: dict[str, str], check: bool) -> tuple | None:
    """The compute cache's stores of charts (site/assembly.cached_charts) and this build's key: the whole charts by
    the data tree's digest, the code without its templates (reuse.code_digest, the store's salt) and every setting,
    so a template edit finds the charts of the build before it; and each chart's spec by how it is drawn
    (site/charts.kept_specs), so a data edit builds only the charts whose drawing it changed. None when the cache is
    off."""
    from .. import reuse
    from .simcache import FileStore, folder

    where = folder(root)
    if where is None:
        return None
    from ..indices import uncertainty

    salt = reuse.code_digest()
    seeds = f"seeds={uncertainty.current_salt()}"  # as compute's whole entry: the intervals the charts draw
    text = "\0".join([salt, data, seeds, *(f"{k}={settings[k]}" for k in sorted(settings))])
    whole = FileStore(where / "charts", salt, writable=not check)
    return whole, hashlib.sha256(text.encode()).hexdigest(), FileStore(where / "chart-specs", salt, writable=not check)


def _page_store(root: Path, check: bool) -> reuse.PageStore | None:
    """The compute cache's store of rendered pages (reuse.PageStore), by page key: `build --check`, which renders
    into a temporary folder, takes from it every page whose key is unchanged (and writes nothing); a build takes
    from it what the previous site does not give and leaves it holding its own pages. None when the cache is
    off."""
    from .. import reuse
    from .simcache import folder

    where = folder(root)
    return None if where is None else reuse.PageStore(where / reuse.PAGES_FOLDER, writable=not check)


def export_files(root: Path, out: Path, fmt: str = "api") -> Outcome:
    """Write the JSON API (fmt "api"), Every Eval Ever files ("eee") or Hugging Face files ("hf") into out,
    atomically."""
    from .. import write

    refused = write.out_problem(out, root)
    if refused:
        return Outcome([refused])
    from . import stamp
    from .simcache import folder

    data = stamp.data_digest(Path(root))  # before the files are read: compute keeps its result under it
    repo, problems = validate_repo(Path(root))
    if repo is None:
        return Outcome(problems)
    try:
        computed = compute(repo, folder(Path(root)), inputs=data, root=Path(root))
    except workers.Failed as exc:
        return Outcome(problems + [worker_problem(exc)])
    files: Mapping[str, str]
    if fmt == "eee":
        from ..interchange.eee import export_eee
        from ..interchange.records import NamesTable

        files = export_eee(computed, NamesTable.from_doc(repo.names))
    elif fmt == "hf":
        from ..interchange.hf import export_hf
        from ..interchange.records import NamesTable

        files = export_hf(computed, NamesTable.from_doc(repo.names))
    else:
        files = computed.api_files

    def place(folder: Path) -> list[Problem]:
        write.write_files(folder, files)
        return []

    write.atomic_build(Path(out), place)
    return Outcome(problems, f"{len(files)} files")
