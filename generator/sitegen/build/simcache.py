"""The simulation cache's files: annotated boards (indices/simcache.py) kept in a folder, one file per input
digest, so a rebuild on unchanged inputs loads its intervals instead of drawing them. Opt-in: `sitegen build` and
`sitegen export` keep them only where SITEGEN_SIM_CACHE names a folder (FOLDER under the root is git-ignored for
it); otherwise a build writes nothing outside its output folder.

Entries are written whole or not at all (a new file, then a rename) and read without following a symlink; a build
keeps only the entries it used (`prune`), so the folder holds one build's boards. Deleting the folder is always
safe: the next build draws everything again and writes the same bytes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: The folder to name in SITEGEN_SIM_CACHE, relative to the root; git-ignored (.gitignore).
FOLDER = ".sitegen-cache/simulations"


def folder() -> Path | None:
    """The folder SITEGEN_SIM_CACHE names (None when unset or empty: nothing is kept)."""
    name = os.environ.get("SITEGEN_SIM_CACHE", "").strip()
    return Path(name) if name else None
_NAME = re.compile(r"[0-9a-f]{64}\.pickle")


class FileStore:
    """get/put of indices/simcache.Store over `folder`, salted by `salt` (the package digest)."""

    def __init__(self, folder: Path, salt: str):
        self.folder, self.salt, self.used = Path(folder), salt, set()
        # a link on the way would put the entries elsewhere: such a store keeps nothing
        self.ok = not any(p.is_symlink() for p in (self.folder, *self.folder.parents[:2]))

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.pickle"

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

    def put(self, key: str, data: bytes) -> None:
        self.used.add(key)
        if not self.ok:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{key}.{os.getpid()}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self._path(key))
        except OSError:
            return  # a cache that cannot be written is only slower: the board is already computed

    def prune(self) -> None:
        """Remove the entries this build did not use (and any left half-written)."""
        if not self.ok:
            return
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if not (_NAME.fullmatch(name) and name[:-len(".pickle")] in self.used):
                try:
                    os.unlink(self.folder / name)
                except OSError:
                    pass
