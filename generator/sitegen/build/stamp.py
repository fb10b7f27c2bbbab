"""A digest of everything a build reads, so that a rebuild with nothing changed can stop at once."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..reuse import package_digest

STAMP = ".sitegen-inputs"


#: A file's state as `still` compares it: (inode, size, mtime_ns, ctime_ns), None where it cannot be had
_State = tuple[int, int, int, int] | None
#: The last data_digest of each root in this process: (its digest, each file's state taken before it was read and
#: the SHA-256 its bytes had, when the reading started in ns)
_LAST: dict[Path, tuple[str, dict[Path, tuple[_State, bytes]], int]] = {}
#: A file whose ctime is this close to the reading's start (or later) may have been changed within one tick of the
#: file system's clock after it was read without its state showing it: `still` reads it again (as git does with its
#: "racily clean" entries).
RACY_NS = 2_000_000_000


def data_digest(root: Path) -> str:
    """SHA-256 over the data tree alone (the files load.input_files lists: scores/, methodology/, CITATION.cff),
    each by its path relative to the root and its bytes' SHA-256: what the compute cache (build/simcache.py) keys
    the whole computation by. Each file's state (inode, size, times) is taken before it is read and kept for
    `still`."""
    import time

    from ..data import load

    root = Path(root)
    digest = hashlib.sha256()
    started = time.time_ns()
    files: dict[Path, tuple[_State, bytes]] = {}
    for path in load.input_files(root):  # scores/, methodology/, then CITATION.cff (rendered on the Cite page)
        state = _state(path)  # before the read: a write after it changes the state
        sha = _file_sha(path, load.MAX_RAW_BYTES)
        files[path] = (state, sha)
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(sha)
    _LAST[root] = (digest.hexdigest(), files, started)
    return digest.hexdigest()


def _file_sha(path: Path, limit: int) -> bytes:
    data = _listed_bytes(path, limit)
    return hashlib.sha256(data).digest() if data is not None else b"unreadable"


def _state(path: Path) -> _State:
    import os

    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def still(root: Path, digest: str) -> bool:
    """Whether the data tree's digest is still `digest` (a build checks it after reading the files, so a file edited
    while it read them never files a result under the digest of other bytes). When this process's last data_digest
    of root gave `digest`, the files are listed and their states compared with the ones taken then, and only a file
    changed within RACY_NS of that reading is read again; otherwise the digest is taken afresh."""
    from ..data import load

    root = Path(root)
    last = _LAST.get(root)
    if last is None or last[0] != digest:
        return data_digest(root) == digest
    _, files, started = last
    listed = load.input_files(root)
    if listed != list(files):
        return False
    for path in listed:
        state, sha = files[path]
        now = _state(path)
        if now is None or now != state:
            return False
        if now[3] >= started - RACY_NS and _file_sha(path, load.MAX_RAW_BYTES) != sha:
            return False
    return True


def _listed_bytes(path: Path, limit: int) -> bytes | None:
    """The bytes load.read_data gives for a path load.input_files listed, or None where it gives None, without its
    walk up the path: input_files never lists a file below a linked folder (it lists the link, not entered), so
    only the entry itself can be a link. Opened without following a link (a link, to a file or a folder, is
    refused) and without blocking (a FIFO is not waited on), then refused unless a regular file of at most
    `limit` bytes; no more than `limit` + 1 bytes are read (the digest reads every input at every build, and a
    no-change rebuild is little else). Read by data/load.py's reader: only data/ reads scores/ and methodology/."""
    from ..data.load import regular_bytes

    try:
        return regular_bytes(path, limit, follow=False)[0]
    except OSError:  # a regular file that fails while it is read
        return None


def inputs_digest(root: Path, environment: dict[str, str], data: str | None = None) -> str:
    """SHA-256 over the data tree, CITATION.cff, the package (reuse.package_digest: its code, templates and
    assets, and the versions of the libraries it renders with), and the given settings.

    Paths enter the digest relative to their folder, so two checkouts of the same commit agree.
    The data files are the loader's (load.input_files, read by its rules): a link to /dev/zero, a FIFO or a
    broken link is never opened here; the build's validation reports it. `data`: data_digest(root), when the
    caller has it already.
    """
    digest = hashlib.sha256(f"data={data if data is not None else data_digest(root)}\0".encode())
    digest.update(f"package={package_digest()}\0".encode())
    for key in sorted(environment):
        digest.update(f"{key}={environment[key]}\0".encode())
    return digest.hexdigest()


def _read(out: Path) -> list[str]:
    try:
        return (Path(out) / STAMP).read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def up_to_date(out: Path, digest: str) -> bool:
    lines = _read(out)
    return bool(lines) and lines[0].strip() == digest


def stamp_text(digest: str, warnings=()) -> str:
    """The digest, then one JSON line per warning the build's inputs gave: an unchanged rebuild reports the same
    warnings (and count) as the build that wrote the stamp, without validating again."""
    import dataclasses
    import json

    return (
        digest
        + "\n"
        + "".join(json.dumps(dataclasses.asdict(p), ensure_ascii=True, sort_keys=True) + "\n" for p in warnings)
    )


def recorded_warnings(out: Path) -> list:
    """The warnings stamp_text recorded in out's stamp (none from a stamp that cannot be read)."""
    import json

    from ..problems import WARNING, Problem

    found = []
    for line in _read(out)[1:]:
        try:
            data = json.loads(line)
            found.append(Problem(**{**data, "severity": WARNING}))
        except (ValueError, TypeError):
            continue
    return found
