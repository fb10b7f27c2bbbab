"""The link store of `build --check`: the files each page's links need (write.link_targets), kept in the compute
cache (`<cache>/links/`, outside the site, safe to delete) by the page's bytes' SHA-256, its folder and the site's
path (write.link_key), salted with the code's digest, so a check scans only the pages whose bytes are not there.

The verdict never rests on the store: the site's files (those walked in the checked folder and those its record
names: a check writes only the pages it renders, reuse.Output, and a page it took from the page store is read there)
and every page's targets tested against them at every check, and a page with a target that is not there is read and scanned in full (write.check_links), so the
problems are the same warm, cold or with the cache off. A page's digest comes from the record the render wrote
into the folder (reuse.RECORD: the SHA-256 of the bytes it wrote, or of a page store entry's bytes checked as it
was taken); a check reads and hashes a page without one. A plain build keeps the store (`keep`: exactly its pages,
scanning those not there yet, as the page store keeps its pages); a check only reads it (a check writes nothing).
Each page the render workers render is scanned there, from the bytes they write (`scans`, site/assembly.render_files),
so neither reads a page it rendered again; only a page taken unchanged whose entry is missing is read.
Its folder has the other stores' guards (simcache.FileStore: no link on the way, written whole)."""

from __future__ import annotations

import hashlib
import pickle
import posixpath
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from .. import reuse, write
from ..problems import Problem
from .simcache import FileStore

#: The link store's folder in the compute cache, and the name of its one entry
FOLDER = "links"
_ENTRY = "pages"
_SHA = re.compile(r"[0-9a-f]{64}")


def scans(root: Path) -> dict[str, tuple[str, ...]] | None:
    """The mapping the render fills with the entries of the pages it renders (site/assembly.render_files `links`):
    the store's entries to start with, so a page whose bytes are there is not scanned again; None when the cache is
    off (no store: a check scans every page in full, a build keeps nothing)."""
    where = reuse.cache_folder(root)
    return None if where is None else _load(FileStore(where / FOLDER, reuse.code_digest(), writable=False).get(_ENTRY))


def check(folder: Path, base: str, root: Path, scanned: Mapping[str, tuple[str, ...]] | None = None) -> list[Problem]:
    """write.check_links over the checked site `folder` (served from `base`), with the link store of `root`'s compute
    cache (reuse.cache_folder; none when it is off) read, never written (a check writes nothing), and the entries
    `scanned` as the render wrote the pages (`scans`). The site is the files in `folder` and those its record names
    (a check's reuse.Output writes only the pages it renders): a page not there is read from the page store."""
    where = reuse.cache_folder(root)
    named = _named(folder, None if where is None else reuse.PageStore(where / reuse.PAGES_FOLDER, writable=False))
    try:
        if where is None:
            return write.check_links(folder, base, named=named)
        store = FileStore(where / FOLDER, reuse.code_digest(), writable=False)
        known = {**(scanned or {}), **_load(store.get(_ENTRY))}
        return write.check_links(folder, base, _digests(folder), known, named)
    except _Changed as changed:
        return [changed.problem]


class _Changed(Exception):
    """A page store entry the check named no longer holds the page's bytes (a build sharing the cache replaced it)."""

    def __init__(self, rel: str):
        super().__init__(rel)
        self.problem = Problem(
            f"site/{rel}",
            0,
            0,
            "link",
            "its page store entry changed while the check ran, so its links were not checked",
            "run the check again; another build shares the cache folder",
        )


def _named(folder: Path, pages: reuse.PageStore | None) -> dict[str, Callable[[], bytes] | None]:
    """Each file the record in `folder` names (reuse.RECORD), with how to read a page's bytes from the page store
    `pages` (its entry's key and digest; write.check_links reads a page from `folder` when it is there)."""

    def reader(rel: str, key: str, sha: str) -> Callable[[], bytes] | None:
        if pages is None:
            return None

        def read() -> bytes:
            data = pages.page(key, sha)
            if data is None:
                raise _Changed(rel)
            return data

        return read

    return {
        rel: reader(rel, entry[0], entry[1]) if rel.endswith(".html") and _is_entry(entry) else None
        for rel, entry in reuse.load_record(folder).items()
    }


def _is_entry(entry) -> bool:
    return isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and _is_sha(entry[1])


def keep(folder: Path, base: str, root: Path, scanned: Mapping[str, tuple[str, ...]] | None = None) -> list[Problem]:
    """A plain build's part: the link store then holds the targets of exactly the pages it wrote into `folder`: those
    there, those `scanned` as the render wrote them (`scans`), each other page read and scanned once (its bytes
    checked against the record's digest first: a page that differs is left for the check to scan). Nothing when the
    cache is off; no problem is ever its answer."""
    where = reuse.cache_folder(root)
    if where is None:
        return []
    store = FileStore(where / FOLDER, reuse.code_digest())
    stored = _load(store.get(_ENTRY))
    scanned = scanned or {}
    kept: dict[str, tuple[str, ...]] = {}
    table: dict[str, str] = {}  # one string object per target, so the pickle holds each once
    for rel, digest in sorted(_digests(folder).items()):
        page_dir = posixpath.dirname(rel)
        key = write.link_key(digest, page_dir, base)
        targets = stored.get(key)
        if targets is None:
            targets = scanned.get(key)
        if targets is None:
            data = reuse.regular_bytes(folder / rel)
            if data is None or hashlib.sha256(data).hexdigest() != digest:
                continue
            targets = write.link_targets(write.page_text(data), page_dir, base)
        kept[key] = tuple(table.setdefault(t, t) for t in targets)
    if kept.keys() != stored.keys():
        store.put(_ENTRY, pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
    store.prune()
    return []


def _digests(folder: Path) -> dict[str, str]:
    """Each written page's SHA-256 as the render recorded it in `folder` (reuse.RECORD)."""
    return {
        rel: entry[1]
        for rel, entry in reuse.load_record(folder).items()
        if rel.endswith(".html") and isinstance(entry, list) and len(entry) == 2 and _is_sha(entry[1])
    }


def _is_sha(value) -> bool:
    return isinstance(value, str) and _SHA.fullmatch(value) is not None


def _load(data: bytes | None) -> dict[str, tuple[str, ...]]:
    """The stored entries, or none when there are none or they are not what a check writes."""
    if data is None:
        return {}
    try:
        kept = pickle.loads(data)
    except Exception:  # a damaged entry: the check scans every page again
        return {}
    if not isinstance(kept, dict):
        return {}
    return {
        key: targets
        for key, targets in kept.items()
        if isinstance(key, str) and isinstance(targets, tuple) and all(isinstance(target, str) for target in targets)
    }
