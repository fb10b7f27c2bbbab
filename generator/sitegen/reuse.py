"""Incremental builds: each output file is keyed by a hash of exactly what it is made from, and a file whose key
is unchanged since the previous build is hard-linked from the previous site instead of rendered again.

The record of keys (RECORD, JSON) lives inside the site it describes, so the two are swapped in together and can
never disagree. An entry is [key, SHA-256 of the file's bytes]: a file is reused only when its bytes still hash
to that (one changed by hand since is rendered again). Both are deterministic, so the record is too. The key of a page covers its template data (a model page's: everything that data is made from) and every other value its
template receives (site/assembly.py, render_files), the templates it is rendered from (its own and every one it
extends, includes or imports, and the sidebar's: site/render.py, template_digest), plus `code_digest()`: the
package's code, the versions of the libraries that shape the output, and Python's. A template edit so renders
again only the pages that use that template; a static file is copied, never embedded in a page. A board page's
files beside it are keyed ("file:") by what each is made from; the key of any other file is
the hash of its bytes, so it is reused only when it would be written identically.

A new site is always a fresh folder (write.atomic_build): a page that is no longer generated is not carried
over, and a failed build leaves the previous site untouched (a link adds a name, it never changes the file).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import pickle
import re
import stat
import sys
from pathlib import Path

from . import paths, write

RECORD = ".sitegen-pages"
_PACKAGE = Path(__file__).resolve().parent
#: Libraries whose version can change a byte of the output (templates, escaping, Markdown, chart specs, JSON).
_LIBRARIES = ("jinja2", "markupsafe", "markdown-it-py", "altair", "pandas", "numpy", "pyyaml", "orjson")


#: The package's folders read from disk at every build: `sitegen serve` watches them and rebuilds in the same
#: process after an edit, so their digest is taken afresh each time (the code is what was imported: once).
LIVE = ("templates", "static")


def package_digest() -> str:
    """SHA-256 over the package's files (code, templates, static assets) and the versions it renders with."""
    digest = hashlib.sha256(_code_digest().encode())
    for name in LIVE:
        _hash_files(digest, _PACKAGE / name)
    return digest.hexdigest()


def code_digest() -> str:
    """The package's code without its templates and static assets (and the versions of Python and the libraries):
    what a computation can depend on, so the compute cache (build/simcache.py) survives a template edit."""
    return _code_digest()


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """The part of package_digest fixed for the life of a process: Python's and the libraries' versions and every
    package file outside the LIVE folders (the running code does not change when its files do)."""
    digest = hashlib.sha256(sys.version.encode())
    for name in _LIBRARIES:
        digest.update(f"{name}={library_version(name)}\0".encode())
    _hash_files(digest, _PACKAGE, skip=LIVE)
    return digest.hexdigest()


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares it (case, and runs of -, _ and . alike)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def library_version(name: str, path: list[str] | None = None) -> str:
    """An installed distribution's version ("-" when it is not installed): from the name of its
    `<name>-<version>.dist-info` folder, in the first folder of `path` (default sys.path) that has one, as
    importlib.metadata finds it; importlib.metadata itself only for a distribution installed otherwise (an egg,
    a zip). Its import alone is about 50 ms of CPU, a sixth of a no-change rebuild, which digests the code at
    every start."""
    wanted = _normal(name)
    for folder in sys.path if path is None else path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for entry in names:
            if entry.endswith(".dist-info"):
                dist, _, version = entry.removesuffix(".dist-info").partition("-")
                if version and _normal(dist) == wanted:
                    return version
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def _hash_files(digest, folder: Path, skip: tuple[str, ...] = ()) -> None:
    """Adds every file under folder (its path from the package and its bytes' SHA-256) to digest, in a stable
    order; `skip` names top-level folders of the package to leave out."""
    for path in _files(folder):
        name = path.relative_to(_PACKAGE).as_posix()
        if name.split("/", 1)[0] not in skip:
            digest.update(f"{name}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())


def _files(folder: Path):
    """Every file under folder in a stable order, without Python's caches (what a package digest covers)."""
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not name.endswith(".pyc"):
                yield Path(dirpath) / name


#: The compute cache's folder below the root, and the SITEGEN_CACHE values that keep nothing (build/simcache.py's)
CACHE_FOLDER = ".sitegen-cache"
CACHE_OFF = frozenset({"off", "0", "no", "false", "none"})


def cache_folder(root: Path) -> Path | None:
    """Where the caches live (the compute cache, build/simcache.py, and the parse cache): SITEGEN_CACHE's folder,
    else CACHE_FOLDER under root; None when SITEGEN_CACHE is off (or 0, no, false, none)."""
    name = os.environ.get("SITEGEN_CACHE", "").strip()
    if name.lower() in CACHE_OFF:
        return None
    return Path(name) if name else Path(root) / CACHE_FOLDER


#: A cache entry's file name: the hex SHA-256 of its key (build/simcache.py, data/parsecache.py).
CACHE_ENTRY = re.compile(r"[0-9a-f]{64}\.pickle")


def no_link_on_the_way(folder: Path, depth: int = 2) -> bool:
    """Whether neither a cache store's folder nor its `depth` nearest parents is a symlink: a link on the way would
    put the entries elsewhere, so such a store keeps and gives nothing (simcache.FileStore, PageStore, parsecache)."""
    return not any(p.is_symlink() for p in (folder, *folder.parents[:depth]))


def write_cache_entry(folder: Path, name: str, data: bytes) -> None:
    """Write `folder/name.pickle` whole or not at all: a temporary file of this process (never through a link,
    never over another's) replaced into place. OSError is the caller's: a cache that cannot be written is only
    slower."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, folder / f"{name}.pickle")


def prune_cache(folder: Path, used: set[str]) -> None:
    """Remove from a cache folder every entry whose key is not in `used` (and anything else left there, such as a
    half-written entry); a file that cannot be removed stays, as a cache is only ever slower without it."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (CACHE_ENTRY.fullmatch(name) and name[: -len(".pickle")] in used):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)


def key_of(*parts) -> str | None:
    """A hash of Python values (pickled: exact floats, types and order); None when one cannot be pickled, which
    makes the file always rendered. Equal pickles mean equal values. The pickler runs without its memo (`fast`),
    so an object reached twice is written twice: whether two equal strings or rows are one object or two (a
    computation's result and the same result read back from the cache differ in that) does not change the key,
    and site/.sitegen-pages is the same after an incremental build as after a clean one. A different set order
    still only costs a render; a value that contains itself cannot be pickled this way and is always rendered."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: identity is not part of the key
    try:
        pickler.dump(parts)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(buffer.getbuffer()).hexdigest()


_BYTES = "bytes:"


def bytes_key(data: bytes) -> str:
    """A file keyed by its bytes: their SHA-256 (what the record's entry of it says too)."""
    return _BYTES + hashlib.sha256(data).hexdigest()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def regular_bytes(path: Path, limit: int | None = None) -> bytes | None:
    """A regular file's bytes, opened without following a link (a link, to a file or a folder, is refused) and
    without blocking (a FIFO is not waited on); None for anything else, a file that cannot be read, or one over
    `limit` bytes (no more than `limit` + 1 are read)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (limit is not None and info.st_size > limit):
            return None
        raw = _read_all(fd, info.st_size, limit)
    except OSError:
        return None
    finally:
        os.close(fd)
    return raw if limit is None or len(raw) <= limit else None


def _read_all(fd: int, size: int, limit: int | None) -> bytes:
    """Everything an open file holds (no more than `limit` + 1 bytes), read straight from its descriptor: the size
    fstat gave and one byte more at once (a regular file's end is then seen by the next read), then on in blocks
    should the file have grown since."""
    parts: list[bytes] = []
    got, want = 0, size + 1
    while True:
        if limit is not None:
            want = min(want, limit + 1 - got)
        chunk = os.read(fd, want) if want > 0 else b""
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        got += len(chunk)
        want = 1 << 16


def load_record(site: Path | None) -> dict[str, list]:
    """The previous build's record in `site`, or {} (no site, no record, a damaged record)."""
    if site is None:
        return {}
    if paths.link_problem(site, Path(site) / RECORD) is not None:
        return {}
    try:
        record = json.loads((Path(site) / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


#: The page store's folder in the compute cache (PageStore), and the file of its record there
PAGES_FOLDER = "pages"
PAGES_RECORD = "record.json"
_PAGE_ENTRY = re.compile(r"[0-9a-f]{64}")


class PageStore:
    """The rendered pages of the last build, kept in the compute cache (`<cache>/pages/`, outside the site, safe to
    delete) by page key (the key reuse's record gives a page: everything it is rendered from), so a page whose key
    is unchanged is taken from here when the previous site does not have it: by `build --check`, which renders
    into a temporary folder, and by a build into an empty or another output folder.

    Each entry is a file named by its key, a hard link to the page as a build wrote it (no second copy of the
    bytes); RECORD (JSON, key -> SHA-256 of the bytes) says what each entry held when it was stored, and an entry
    is taken only when its bytes still hash to that (a page of the site changed by hand since, which the link
    shares, is rendered again). A key is SHA-256 over every input of the page, so an entry is never stale: a
    different input is a different key. Read-only (`writable=False`, `build --check`) it links into the new
    folder and changes nothing here. A build keeps exactly its own pages' entries (`finish`)."""

    def __init__(self, folder: Path, writable: bool = True):
        self.folder = Path(folder)
        self.writable = writable
        self.ok = no_link_on_the_way(self.folder)
        self.record: dict[str, str] = {}
        if self.ok:
            try:
                record = json.loads((self.folder / PAGES_RECORD).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                record = {}
            if isinstance(record, dict):
                self.record = {k: v for k, v in record.items() if _PAGE_ENTRY.fullmatch(k) and isinstance(v, str)}

    def verified(self, key: str) -> str | None:
        """The SHA-256 of the entry of `key` when it is stored and its bytes are still the stored ones, else None."""
        sha = self.record.get(key)
        if sha is None or not self.ok:
            return None
        data = regular_bytes(self.folder / key)
        return sha if data is not None and _sha256(data) == sha else None

    def page(self, key: str, sha: str) -> bytes | None:
        """The bytes of the entry of `key` when they still hash to `sha`, else None (read again by a check's link
        check: the entry may have been replaced since `verified`, by a build sharing the cache folder)."""
        data = regular_bytes(self.folder / key) if self.ok and _PAGE_ENTRY.fullmatch(key) else None
        return data if data is not None and _sha256(data) == sha else None

    def take(self, key: str, target: Path) -> list | None:
        """Link the entry of `key` to `target` when it is stored and its bytes are still the stored ones; its
        record entry [key, sha256], or None (the caller renders the page)."""
        sha = self.verified(key)
        if sha is None:
            return None
        try:
            os.link(self.folder / key, target)
        except OSError:
            return None
        return [key, sha]

    def keep(self, key: str, placed: Path, sha: str = "") -> None:
        """Store the page just placed at `placed` under `key` (`finish` records its bytes' SHA-256), in place of any
        entry of that key; a page that cannot be stored is only rendered again next time. Nothing to do when the
        entry of that key, recorded with the page's SHA-256 `sha`, already is that very file (a page taken
        unchanged from the previous site, which the last build stored: the same inode)."""
        if not (self.ok and self.writable and _PAGE_ENTRY.fullmatch(key)):
            return
        entry = self.folder / key
        if sha and self.record.get(key) == sha and _same_file(entry, placed):
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry)
            os.link(placed, entry)
        except OSError:
            return

    def finish(self, pages: dict[str, list]) -> None:
        """Write the record of this build's pages (`pages`: rel -> [key, sha256], reuse's record entries) and
        remove every other entry. An entry the record names but that was not stored is refused at `take` (its
        file is missing or holds other bytes)."""
        if not (self.ok and self.writable):
            return
        record = {e[0]: e[1] for e in pages.values() if isinstance(e[0], str) and _PAGE_ENTRY.fullmatch(e[0])}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{PAGES_RECORD}.{os.getpid()}.tmp"
            tmp.write_text(json.dumps(dict(sorted(record.items())), separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.folder / PAGES_RECORD)
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if name != PAGES_RECORD and name not in record:
                with contextlib.suppress(OSError):
                    os.unlink(self.folder / name)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two names are links to one file (neither followed if it is a symbolic link)."""
    try:
        return os.path.samestat(os.lstat(a), os.lstat(b))
    except OSError:
        return False


def _not_a_link(path: Path) -> bool:
    """Whether path is no symbolic link (a missing one is none; one that cannot be read may be): one step of
    paths.link_problem."""
    try:
        return not stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


class Output:
    """Writes one build's files into `folder`, taking unchanged ones from the previous site `previous`, else from
    the page store `pages` (PageStore), and storing there each page it places.

    Used by the render workers as well: each returns the record entries of the files it placed.

    A check's output (`check`, `build --check`: no previous site, a read-only page store) writes only the pages it
    renders: a page the store holds is named in the record, not linked, and any other file is made (a file that
    cannot be made fails the check as it fails a build) and named, not written. The link check reads every name
    from the record and a page where its bytes are (build/links.py), so a check neither creates nor deletes the
    files it takes unchanged."""

    def __init__(self, folder: Path, previous: Path | None = None, pages: PageStore | None = None, check: bool = False):
        self.folder = Path(folder)
        self.previous = Path(previous) if previous is not None else None
        self.pages = pages
        self.check = check
        self.old = load_record(self.previous)
        self.entries: dict[str, list] = {}  # this build's record: rel -> [key, sha256 of the bytes]
        self._folders: set[Path] = set()  # the folders made so far, each made once (most files share theirs)
        self._checked: dict[Path, bool] = {}  # the previous site's folders: reached through no link

    def _make_parent(self, target: Path) -> None:
        if target.parent not in self._folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(target.parent)

    def _path(self, rel: str) -> Path:
        if rel.startswith("/") or ".." in rel.split("/"):
            raise ValueError(f"unsafe output path: {rel!r}")
        return self.folder / rel

    def _real_folder(self, folder: Path) -> bool:
        """Whether a folder of the previous site is reached from it through no link (paths.link_problem), once
        per folder."""
        known = self._checked.get(folder)
        if known is None:
            assert self.previous is not None, "only the previous site's folders are checked"
            if folder == self.previous:
                known = True  # the root itself is not checked (paths.link_problem)
            elif ".." in folder.parts or not folder.is_relative_to(self.previous):
                known = False  # outside the previous site
            else:  # link_problem's walk, one folder at a time: its parents' answers are kept, so each is read once
                known = self._real_folder(folder.parent) and _not_a_link(folder)
            self._checked[folder] = known
        return known

    def _take(self, rel: str, key: str | None, data: bytes | None = None) -> list | None:
        """Link the previous build's file for rel into the new folder when its key is unchanged and its bytes are
        still the ones that key produced (a file changed by hand since is not reused): those the record's SHA-256
        names, or, given them (`data`, whose SHA-256 that is: a bytes_key), compared with them."""
        entry = self.old.get(rel)
        if key is None or self.previous is None or not isinstance(entry, list) or len(entry) != 2 or entry[0] != key:
            return None
        source = self.previous / rel
        try:
            # a link at any depth of the previous site is never followed (paths.py): each folder checked once
            # (most files share theirs), the file itself opened without following a link
            if not self._real_folder(source.parent):
                return None
            old = regular_bytes(source)
            if old is None or (old != data if data is not None else _sha256(old) != entry[1]):
                return None
            target = self._path(rel)
            self._make_parent(target)
            os.link(source, target)
        except OSError:
            return None  # unreadable, or a file system without hard links: the caller writes the file
        return entry

    def put(self, rel: str, key: str | None, make, data: bytes | None = None) -> list:
        """Place rel: the previous file when its key is unchanged, else the page store's entry of that key, else
        make() (bytes) written afresh; a page (a key that is not a bytes_key) is then kept in the page store.
        `data`: the bytes themselves, when `key` is their bytes_key (put_bytes). A check's output: `_named`."""
        target = self._path(rel)
        # a page's key (not a bytes_key or another file's "file:" key): the page store gives it and keeps it
        store = self.pages if key is not None and _PAGE_ENTRY.fullmatch(key) else None
        if self.check:
            return self._named(target, key, make, data, store)
        entry = self._take(rel, key, data)
        if entry is None:
            self._make_parent(target)
            if os.path.lexists(target):
                os.unlink(target)  # never write through a name that may be a link into the previous site
            stored = store.take(key, target) if store is not None and key is not None else None
            if stored is not None:
                return stored
            made = make()
            write.put_file(target, made)
            entry = [key, key.removeprefix(_BYTES) if data is not None and key is not None else _sha256(made)]
        if store is not None and key is not None:
            store.keep(key, target, entry[1])
        return entry

    def _named(self, target: Path, key: str | None, make, data: bytes | None, store: PageStore | None) -> list:
        """A check's placing of a file: a page the store holds, named by its entry (its bytes checked); else made,
        and written only when it is a page (the link check may read it); its record entry either way."""
        sha = store.verified(key) if store is not None and key is not None else None
        if sha is not None:
            return [key, sha]
        made = make()
        if target.suffix == ".html":
            self._make_parent(target)
            write.put_file(target, made)
        return [key, key.removeprefix(_BYTES) if data is not None and key is not None else _sha256(made)]

    def put_bytes(self, rel: str, data: bytes) -> list:
        return self.put(rel, bytes_key(data), lambda: data, data)

    def write_record(self) -> None:
        record = {rel: entry for rel, entry in sorted(self.entries.items()) if entry[0] is not None}
        write.put_file(self.folder / RECORD, (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8"))
