"""Importers: one module per public source, turning downloaded files into scores/imported/<source>.yaml."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from ..data.registry import Registry, key
from . import aa_api, aa_leaderboard, aa_tokens, arc_prize, critpt, epoch, eq_bench, lmarena, pedagogy_models, swe_bench
from .extracts import Context, Extract, ImportError_, Outcome, imported_path, load_ignores, reading, resolve

MODULES = (aa_leaderboard, aa_api, aa_tokens, epoch, arc_prize, lmarena, eq_bench, critpt, swe_bench, pedagogy_models)
IMPORTERS = {source: module for module in MODULES for source in module.SOURCES}
#: The repository's copies of the downloaded files, laid out as ../shared/data (where new downloads arrive).
DEFAULT_DATA = "downloads"
#: A snapshot source's id ends in its retrieval month (aa-api-2026-07) or day.
SNAPSHOT_DATE = re.compile(r"-\d{4}-\d{2}(?:-\d{2})?$")


def importer_for(source: str):
    """The importer module of a source id; a new dated snapshot (aa-api-2026-11) uses its family's importer."""
    if source in IMPORTERS:
        return IMPORTERS[source]
    family = SNAPSHOT_DATE.sub("", source)
    if family == source:
        return None
    return next((mod for sid, mod in IMPORTERS.items() if SNAPSHOT_DATE.sub("", sid) == family), None)


def extract(source: str, paths: list[Path], retrieved: str | None, registry: Registry, ignores: list[dict]) -> Extract:
    """Read a source's files into an Extract (names not yet resolved)."""
    module = importer_for(source)
    if module is None:
        raise ImportError_(f"no importer for {source!r}; known: {', '.join(sorted(IMPORTERS))}")
    ignored = {i["name"] for i in ignores if i.get("source") == source}

    def lookup(name: str) -> str | None:
        hits = registry.match(name, source)
        return hits[0] if len(hits) == 1 and name not in ignored else None

    def scoped(name: str) -> str | None:
        hits = sorted(registry.scoped.get((source, key(name)), ()))
        return hits[0] if len(hits) == 1 and name not in ignored else None

    return module.extract([Path(p) for p in paths], retrieved, Context(lookup, scoped), source=source)


def run(
    root: Path, source: str, paths: list[Path], retrieved: str | None, registry: Registry | None = None
) -> tuple[Extract, Outcome]:
    """Extract and resolve one source against the registry in `root` (or `registry`, that registry already loaded:
    a loop over sources loads it once; extract and resolve only read it); writes nothing. An input below the root
    is read only when no link lies on the way to it (paths.py; downloads/ itself included)."""
    from .. import paths as path_rule

    for path in paths:
        linked = path_rule.link_problem(root, path) if _below(root, path) else None
        if linked is not None:
            raise ImportError_(linked.format())
    registry = Registry.load(root) if registry is None else registry
    ignores = load_ignores(root)
    with reading(paths, source):  # whatever the files hold, a placed ImportError_, never an internal error
        ex = extract(source, paths, retrieved, registry, ignores)
    prefer = getattr(importer_for(source), "prefer", None)
    return ex, resolve(ex, registry, ignores, prefer)


def _below(root: Path, path: Path) -> bool:
    import os

    return Path(os.path.abspath(path)).is_relative_to(Path(os.path.abspath(root))) or Path(
        path
    ).absolute().is_relative_to(Path(root).resolve())


@dataclasses.dataclass(frozen=True)
class Capture:
    """One downloaded file as scores/sources.yaml lists it (kept under downloads/<name> unless withheld)."""

    source: str
    name: str
    use: str  # import | tests | notice
    sha256: str | None
    redistributable: bool  # False: the terms forbid a copy in the repository; only the hash is kept
    download: str  # how to get the file again


def captures(root: Path) -> list[Capture]:
    """Every file of every source in scores/sources.yaml, in file order."""
    from ..data.load import read_yaml

    doc = read_yaml(root, "scores/sources.yaml") or {}
    return [
        Capture(
            src["id"],
            f["name"],
            f.get("use", "import"),
            f.get("sha256"),
            f.get("redistributable", True),
            src.get("download", ""),
        )
        for src in doc.get("sources") or []
        for f in src.get("files") or []
    ]


@dataclasses.dataclass(frozen=True)
class Planned:
    """One import as scores/sources.yaml describes it: the source, its files in the data folder, its date."""

    source: str
    paths: tuple[Path, ...]
    retrieved: str | None


def planned(root: Path, data: Path) -> list[Planned]:
    """Every source in scores/sources.yaml that has an importer and lists files it reads (`use: import`)."""
    from ..data.load import read_yaml

    doc = read_yaml(root, "scores/sources.yaml") or {}
    read: dict[str, list[Path]] = {}
    for cap in captures(root):
        if cap.use == "import":
            read.setdefault(cap.source, []).append(Path(data) / cap.name)
    return [
        Planned(src["id"], tuple(read[src["id"]]), str(src["retrieved"]) if src.get("retrieved") else None)
        for src in doc.get("sources") or []
        if importer_for(src["id"]) and src["id"] in read
    ]


MAX_SHRINK = 0.2  # the share of the previous results an import may drop without --allow-shrink


def imported_count(root: Path, source: str) -> int:
    """How many results scores/imported/<source>.yaml holds now (0 without one), read as the loader reads it."""
    from ..data import load, yamlstrict

    path = imported_path(root, source)
    raw = load.read_data(path, Path(root), yamlstrict.MAX_BYTES) if path.exists() else None
    parsed = yamlstrict.parse(raw, path.name)[0] if raw is not None else None
    old = parsed.data.get("results") if parsed is not None else None
    return len(old) if isinstance(old, list) else 0


def shrink_problem(root: Path, ex: Extract, outcome: Outcome) -> str | None:
    """Why writing this outcome looks like a broken download, or None: files that give no rows at all, or more
    than MAX_SHRINK of the results in the current scores/imported/<source>.yaml gone."""
    path = imported_path(root, outcome.doc["source"])
    new = len(outcome.doc.get("results") or [])
    old = imported_count(root, outcome.doc["source"])
    if not ex.results and not ex.models:
        return "the files give no results (an empty or truncated download?); nothing written"
    if old and new < old * (1 - MAX_SHRINK):
        return (
            f"{new} results where {path.name} has {old}: more than {MAX_SHRINK:.0%} would be dropped (a truncated "
            "download?); nothing written. Pass --allow-shrink if the source really shrank"
        )
    return None


def write(root: Path, outcome: Outcome) -> Path:
    """Write scores/imported/<source>.yaml atomically (write.replace_files: below scores/imported/ only, through
    no link; paths.PathRefused otherwise)."""
    from ..write import replace_files

    path = imported_path(root, outcome.doc["source"])
    replace_files(root, {f"scores/imported/{path.name}": outcome.text.encode("utf-8")}, under=("scores/imported/",))
    return path


@dataclasses.dataclass(frozen=True)
class Done:
    """What importing one planned source did. `action`: "same" or "stale" (a check: the file is, or is not, what
    the downloads give), "unmatched" (not written: names matched no model or several), "shrunk" (not written:
    `shrunk` says why), "ready" (importable, not written: the caller writes it) or "written"."""

    ex: Extract
    outcome: Outcome
    target: Path
    action: str
    shrunk: str | None = None


def import_planned(
    root: Path,
    plan: Planned,
    *,
    check: bool = False,
    allow_unmatched: bool = False,
    allow_shrink: bool = False,
    write_file: bool = True,
    registry: Registry | None = None,
) -> Done:
    """Import one planned source: compare with scores/imported/ (`check`), or write it unless names are unmatched
    or the results shrank. A file that cannot be read or written is an ImportError_ naming the source. With
    `write_file=False` an importable outcome is returned as "ready" and nothing is written: `sitegen import` validates
    every ready source's file together before writing any (cli/imports.py). `registry`: as run's."""
    from ..data import load
    from ..paths import PathRefused

    try:
        ex, outcome = run(root, plan.source, list(plan.paths), plan.retrieved, registry)
    except FileNotFoundError as exc:
        how = next((c.download for c in captures(root) if c.source == plan.source), "")
        raise ImportError_(f"{plan.source}: {exc}" + (f" (download: {how})" if how else "")) from exc
    except (ImportError_, KeyError) as exc:
        raise ImportError_(f"{plan.source}: {exc}") from exc
    target = imported_path(root, plan.source)
    if check:
        current = load.read_data(target, root) if os.path.lexists(target) else None
        same = current is not None and current.decode("utf-8", errors="replace") == outcome.text
        return Done(ex, outcome, target, "same" if same else "stale")
    if outcome.unmatched and not allow_unmatched:
        return Done(ex, outcome, target, "unmatched")
    shrunk = shrink_problem(root, ex, outcome)
    if shrunk and not allow_shrink:
        return Done(ex, outcome, target, "shrunk", shrunk)
    if not write_file:
        return Done(ex, outcome, target, "ready")
    try:
        write(root, outcome)
    except PathRefused as exc:
        raise ImportError_(f"{plan.source}: {exc}; nothing written") from None
    except OSError as exc:
        raise ImportError_(
            f"{plan.source}: cannot write {target.relative_to(root)}: {exc.strerror} (the previous file is unchanged)"
        ) from exc
    return Done(ex, outcome, target, "written")
