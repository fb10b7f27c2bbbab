"""Importers: one module per public source, turning downloaded files into scores/imported/<source>.yaml."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import yaml

from . import (aa_api, aa_leaderboard, aa_tokens, arc_prize, critpt, epoch, eq_bench, lmarena,
               pedagogy_models, swe_bench)
from .common import Context, Extract, ImportError_, Outcome, imported_path, load_ignores, resolve
from .registry import Registry

MODULES = (aa_leaderboard, aa_api, aa_tokens, epoch, arc_prize, lmarena, eq_bench, critpt, swe_bench,
           pedagogy_models)
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


def extract(source: str, paths: list[Path], retrieved: str | None, registry: Registry,
            ignores: list[dict]) -> Extract:
    """Read a source's files into an Extract (names not yet resolved)."""
    module = importer_for(source)
    if module is None:
        raise ImportError_(f"no importer for {source!r}; known: {', '.join(sorted(IMPORTERS))}")
    ignored = {i["name"] for i in ignores if i.get("source") == source}

    def lookup(name: str) -> str | None:
        hits = registry.match(name)
        return hits[0] if len(hits) == 1 and name not in ignored else None

    return module.extract([Path(p) for p in paths], retrieved, Context(lookup), source=source)


def run(root: Path, source: str, paths: list[Path], retrieved: str | None) -> tuple[Extract, Outcome]:
    """Extract and resolve one source against the registry in `root`; writes nothing."""
    registry = Registry.load(root)
    ignores = load_ignores(root)
    ex = extract(source, paths, retrieved, registry, ignores)
    prefer = getattr(importer_for(source), "prefer", None)
    return ex, resolve(ex, registry, ignores, prefer)


@dataclasses.dataclass(frozen=True)
class Capture:
    """One downloaded file as scores/sources.yaml lists it (kept under downloads/<name> unless withheld)."""

    source: str
    name: str
    use: str                 # import | tests | notice
    sha256: str | None
    redistributable: bool    # False: the terms forbid a copy in the repository; only the hash is kept
    download: str            # how to get the file again


def captures(root: Path) -> list[Capture]:
    """Every file of every source in scores/sources.yaml, in file order."""
    doc = yaml.safe_load((Path(root) / "scores" / "sources.yaml").read_text(encoding="utf-8")) or {}
    return [Capture(src["id"], f["name"], f.get("use", "import"), f.get("sha256"), f.get("redistributable", True),
                    src.get("download", ""))
            for src in doc.get("sources") or [] for f in src.get("files") or []]


@dataclasses.dataclass(frozen=True)
class Planned:
    """One import as scores/sources.yaml describes it: the source, its files in the data folder, its date."""

    source: str
    paths: tuple[Path, ...]
    retrieved: str | None


def planned(root: Path, data: Path) -> list[Planned]:
    """Every source in scores/sources.yaml that has an importer and lists files it reads (`use: import`)."""
    doc = yaml.safe_load((Path(root) / "scores" / "sources.yaml").read_text(encoding="utf-8")) or {}
    read = {}
    for cap in captures(root):
        if cap.use == "import":
            read.setdefault(cap.source, []).append(Path(data) / cap.name)
    return [Planned(src["id"], tuple(read[src["id"]]), str(src["retrieved"]) if src.get("retrieved") else None)
            for src in doc.get("sources") or [] if importer_for(src["id"]) and src["id"] in read]


def write(root: Path, outcome: Outcome) -> Path:
    path = imported_path(root, outcome.doc["source"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(outcome.text, encoding="utf-8")
    return path
