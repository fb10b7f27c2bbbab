"""Importers: one module per public source, turning downloaded files into scores/imported/<source>.yaml."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from . import (aa_api, aa_leaderboard, aa_tokens, arc_prize, critpt, epoch, eq_bench, lmarena,
               pedagogy_models, swe_bench)
from .common import Context, Extract, ImportError_, Outcome, imported_path, load_ignores, resolve
from .registry import Registry

MODULES = (aa_leaderboard, aa_api, aa_tokens, epoch, arc_prize, lmarena, eq_bench, critpt, swe_bench,
           pedagogy_models)
IMPORTERS = {source: module for module in MODULES for source in module.SOURCES}
DEFAULT_DATA = "../shared/data"


def extract(source: str, paths: list[Path], retrieved: str | None, registry: Registry,
            ignores: list[dict]) -> Extract:
    """Read a source's files into an Extract (names not yet resolved)."""
    if source not in IMPORTERS:
        raise ImportError_(f"no importer for {source!r}; known: {', '.join(sorted(IMPORTERS))}")
    ignored = {i["name"] for i in ignores if i.get("source") == source}

    def lookup(name: str) -> str | None:
        hits = registry.match(name, source)
        return hits[0] if len(hits) == 1 and name not in ignored else None

    return IMPORTERS[source].extract([Path(p) for p in paths], retrieved, Context(lookup), source=source)


def run(root: Path, source: str, paths: list[Path], retrieved: str | None) -> tuple[Extract, Outcome]:
    """Extract and resolve one source against the registry in `root`; writes nothing."""
    registry = Registry.load(root)
    ignores = load_ignores(root)
    ex = extract(source, paths, retrieved, registry, ignores)
    prefer = getattr(IMPORTERS[source], "prefer", None)
    return ex, resolve(ex, registry, ignores, prefer)


@dataclasses.dataclass(frozen=True)
class Planned:
    """One import as scores/sources.yaml describes it: the source, its files in the data folder, its date."""

    source: str
    paths: tuple[Path, ...]
    retrieved: str | None


def planned(root: Path, data: Path) -> list[Planned]:
    """Every source in scores/sources.yaml that has an importer and lists files."""
    doc = yaml.safe_load((Path(root) / "scores" / "sources.yaml").read_text(encoding="utf-8")) or {}
    plans = []
    for src in doc.get("sources") or []:
        if src["id"] in IMPORTERS and src.get("files"):
            paths = tuple(Path(data) / f["name"] for f in src["files"])
            plans.append(Planned(src["id"], paths, str(src["retrieved"]) if src.get("retrieved") else None))
    return plans


def write(root: Path, outcome: Outcome) -> Path:
    path = imported_path(root, outcome.doc["source"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(outcome.text, encoding="utf-8")
    return path
