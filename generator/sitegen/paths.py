"""The one path rule: below the repository root (and inside an output folder) no symbolic link is followed.

A pull request can replace any folder with a link, `scores/` itself included: followed, it would load, publish
or overwrite files outside the repository. So every reader and writer of the data tree asks `link_problem`
about each path before it opens it, and every command refuses a root whose `scores/`, `methodology/` or
`downloads/` is a link before it does anything (`top_level_problems`). The root itself is resolved once: a
repository reached through a linked home or temporary folder works; only what lies below it is checked, at
every depth.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from .problems import Problem

#: The folders below the root that hold data or downloads: never links.
TOP_LEVEL = ("scores", "methodology", "downloads")
_HINT = "data folders and files must be real folders and regular files in the repository, not links"
_FILE_HINT = "data files must be regular files in the repository"
_FOLDER_HINT = "data folders must be real folders in the repository"


class PathRefused(ValueError):
    """A path below the root that goes through a symbolic link (or leaves the root): its placed problem."""

    def __init__(self, problem: Problem):
        super().__init__(problem.format())
        self.problem = problem


#: The root resolved by the innermost `resolved_once` scope: (the root as given, as a string; resolved).
_RESOLVED: contextvars.ContextVar[tuple[str, Path] | None] = contextvars.ContextVar("sitegen_resolved", default=None)


@contextlib.contextmanager
def resolved_once(root: Path | str) -> Iterator[Path]:
    """Within the block, link_problem resolves `root` (given as this same string) once, not twice per call: for a
    reader asking about every file below one root (load_repo). The answer lives only as long as the block (one
    load), so a change on disk between two loads is seen; any other root is resolved as before."""
    resolved = Path(root).resolve()
    token = _RESOLVED.set((os.fspath(root), resolved))
    try:
        yield resolved
    finally:
        _RESOLVED.reset(token)


def _resolve(root: Path) -> Path:
    """Path(root).resolve(), from the enclosing resolved_once scope when it is for this root."""
    known = _RESOLVED.get()
    if known is not None and known[0] == os.fspath(root):
        return known[1]
    return Path(root).resolve()


def _relative(root: Path, path: Path, resolved: Path) -> Path | None:
    """path below root (or below resolved, root resolved), as a relative path (lexically: links are not followed
    to find it), or None outside."""
    absolute = Path(os.path.abspath(path))
    for base in (Path(os.path.abspath(root)), resolved):
        try:
            return absolute.relative_to(base)
        except ValueError:
            continue
    return None


def link_problem(root: Path, path: Path) -> Problem | None:
    """Why path may not be read or written, or None: it lies outside root, or a folder or file on the way from
    root down to it (root excluded, the path included) is a symbolic link. Parts that do not exist yet (a file
    about to be written) are fine."""
    resolved = _resolve(root)
    rel = _relative(root, path, resolved)
    if rel is None or ".." in rel.parts:
        return Problem(str(path), 0, 0, "", "lies outside the repository", "sitegen reads and writes only below --root")
    current = resolved
    for i, part in enumerate(rel.parts):
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return Problem(Path(*rel.parts[: i + 1]).as_posix(), 0, 0, "", f"cannot read: {exc.strerror}", _HINT)
        if stat.S_ISLNK(info.st_mode):
            last = i == len(rel.parts) - 1 and not os.path.isdir(current)
            return Problem(
                Path(*rel.parts[: i + 1]).as_posix(),
                0,
                0,
                "",
                "is a symbolic link",
                _FILE_HINT if last else _FOLDER_HINT,
            )
    return None


def inside(root: Path, path: Path) -> Path:
    """path, when link_problem finds nothing; else PathRefused with the problem."""
    problem = link_problem(root, path)
    if problem is not None:
        raise PathRefused(problem)
    return Path(path)


def top_level_problems(root: Path) -> list[Problem]:
    """The top-level folders (scores/, methodology/, downloads/) that are links: what every command refuses."""
    root = Path(root)
    return [p for p in (link_problem(root, root / name) for name in TOP_LEVEL) if p is not None]
