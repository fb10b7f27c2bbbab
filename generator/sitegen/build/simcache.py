"""The compute cache's files: what build.compute made, kept in a folder by a digest of its inputs, so a rebuild
computes only what its edit reaches. On by default: `sitegen build` and `sitegen export` keep it in FOLDER under
the root (git-ignored); SITEGEN_CACHE names another folder, or `off` keeps nothing. `sitegen build --check` loads
from it and writes nothing (a check leaves the tree as it was).

Two stores, each a folder of entries named by SHA-256 of their inputs and the package's code (reuse.code_digest:
every module and the libraries' and Python's versions, so a change to the code misses):

- `compute/`: the whole Computed, keyed by the data tree's digest (stamp.data_digest): a template or settings
  edit, or `build --check` after a build of the same data, computes nothing;
- `blocks/`: per (definition, month) of the as-of engine (indices/asof.month_boards: its boards with their
  simulated intervals, keyed by the rows, models, prices and definition it reads) and per simulated board of
  today's (indices/simcache.annotated: the uncertainty block's patch), so a one-file edit recomputes only the
  months and boards whose inputs it changed; and per definition its share of the as-of months and its boards'
  API texts (indices/asof.part_keys), so a definition the edit did not reach is loaded whole.

Beside them, in the same folder: the charts and each chart's spec (`charts/`, `chart-specs/`: build._charts_cache)
and the rendered pages by page key (`pages/`: reuse.PageStore), which `build --check` takes unchanged pages from.

Entries are written whole or not at all (a new file, then a rename) and read without following a symlink; a build
keeps only the entries it used (`prune`), so each folder holds one build's entries. Deleting the folder is always
safe: the next build computes everything again and writes the same bytes (tests/test_incremental.py).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from .. import reuse

#: The cache's folder, relative to the root; git-ignored (.gitignore).
FOLDER = reuse.CACHE_FOLDER


def folder(root: Path) -> Path | None:
    """Where the build keeps its cache: SITEGEN_CACHE's folder, else FOLDER under `root`; None when SITEGEN_CACHE
    is `off` (or 0, no, false, none): nothing is kept."""
    return reuse.cache_folder(root)


class FileStore:
    """get/put of indices/simcache.Store over `folder`, salted by `salt` (the package digest): an entry's file is
    named by the digest of the salt and its key, so every entry misses after a change to the code, whether or not
    its caller's key covers the code (the as-of months' and shares' keys cover the inputs only). `used` holds the
    keys as the callers give them."""

    def __init__(self, folder: Path, salt: str, writable: bool = True):
        self.folder, self.salt, self.writable = Path(folder), salt, writable
        self.used: set[str] = set()
        self.ok = reuse.no_link_on_the_way(self.folder)

    def _name(self, key: str) -> str:
        return hashlib.sha256(f"{self.salt}\0{key}".encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / f"{self._name(key)}.pickle"

    def get(self, key: str) -> bytes | None:
        self.used.add(key)
        if not self.ok:
            return None
        try:
            fd = os.open(self._path(key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            return f.read()

    def has(self, key: str) -> bool:
        """Whether an entry is kept for `key`, without reading it (build._worker_share: which process computes
        what); get() is what reads it, and what counts it as used."""
        if not self.ok:
            return False
        try:
            return stat.S_ISREG(os.lstat(self._path(key)).st_mode)
        except OSError:
            return False

    def put(self, key: str, data: bytes) -> None:
        self.used.add(key)
        if not (self.ok and self.writable):  # a read-only store (build --check) only loads
            return
        try:
            reuse.write_cache_entry(self.folder, self._name(key), data)
        except OSError:
            return  # a cache that cannot be written is only slower: the board is already computed

    def prune(self) -> None:
        """Remove the entries this build did not use (and any left half-written)."""
        if self.ok and self.writable:
            reuse.prune_cache(self.folder, {self._name(key) for key in self.used})
