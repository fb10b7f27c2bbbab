"""Git, read-only: the one module that runs git, for the diff, the changelog and the build's date and stamp.

Only log, rev-parse, ls-tree, diff-tree, tag and cat-file, and a shallow clone's shallow file read; nothing from a
ref is checked out or executed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

DATA_FOLDERS = ("scores", "methodology")


class GitError(Exception):
    """A git command failed (unknown ref, not a repository)."""


def run_git(root: Path, *args: str, input: bytes | None = None) -> bytes:
    out = subprocess.run(["git", "-C", str(root), *args], input=input, capture_output=True, timeout=300)
    if out.returncode != 0:
        raise GitError(out.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
    return out.stdout


def resolve(root: Path, ref: str) -> str:
    """A ref -> its commit SHA; refuses option-like refs."""
    if not ref or ref.startswith("-"):
        raise GitError(f"not a git ref: {ref!r}")
    try:
        out = run_git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
        return out.decode().strip()
    except GitError:
        raise GitError(f"unknown git ref {ref!r} in {root}") from None


def repo_prefix(root: Path) -> str:
    return run_git(root, "rev-parse", "--show-prefix").decode().strip()


def materialise(root: Path, ref: str, dest: Path) -> str:
    """Write the ref's scores/ and methodology/ (below root's place in the repository) into dest; returns the SHA.

    Only regular files are written, from raw blobs: symlinks and submodules are skipped, and no .gitattributes
    filter, hook or checkout runs.
    """
    sha = resolve(root, ref)
    prefix = repo_prefix(root)
    listing = run_git(
        root, "ls-tree", "-r", "-z", "--full-tree", sha, "--", *[f"{prefix}{folder}" for folder in DATA_FOLDERS]
    )
    blobs = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, _, path = item.partition(b"\t")
        mode, kind, obj = meta.decode().split()
        rel = path.decode("utf-8", "surrogateescape")[len(prefix) :]
        parts = PurePosixPath(rel).parts
        if kind != "blob" or mode not in ("100644", "100755") or ".." in parts or rel.startswith("/"):
            continue
        blobs.append((rel, obj))
    if blobs:
        data = run_git(root, "cat-file", "--batch", input="".join(f"{obj}\n" for _, obj in blobs).encode())
        pos = 0
        for rel, _ in blobs:
            header_end = data.index(b"\n", pos)
            size = int(data[pos:header_end].split()[2])
            body = data[header_end + 1 : header_end + 1 + size]
            pos = header_end + 1 + size + 1
            target = dest.joinpath(*PurePosixPath(rel).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
    return sha


def last_commit_date(root: Path) -> str | None:
    """The last commit's committer date in UTC (YYYY-MM-DD), as the changelog dates commits; None outside git.
    (`%cs` would be the date in the committer's own time zone, which TZ does not change: a commit at 23:30 -05:00
    would show a day before its changelog entry.)"""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d"],
            capture_output=True,
            text=True,
            timeout=10,
            env={**os.environ, "TZ": "UTC"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def history_key(root: Path) -> str:
    """What the changelog page depends on besides the data: the commit, its ancestry and the data-* tags. A shallow
    clone's ancestry ends at the commits its shallow file lists (git's own record of the cut, read as a file): a
    fetch that deepens the clone changes them and the changelog, and neither HEAD nor a tag."""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--git-path", "shallow", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        tags = subprocess.run(
            ["git", "-C", str(root), "tag", "--list", "data-*", "--format=%(refname) %(objectname)"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    shallow, _, commit = head.stdout.partition("\n")
    cut = _shallow_cut(Path(root) / shallow) if shallow else ""
    return commit.strip() + "\n" + tags.stdout.strip() + (f"\nshallow {cut}" if cut else "")


def _shallow_cut(path: Path) -> str:
    """The commits a shallow clone is cut at (its shallow file's lines), or "" for a full clone."""
    try:
        return " ".join(path.read_text(encoding="ascii", errors="replace").split())
    except OSError:
        return ""


def text(root: Path, *args: str) -> str | None:
    """A read-only git command's output, or None when git is missing, times out or fails (not a repository)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=60,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", "replace") if out.returncode == 0 else None
