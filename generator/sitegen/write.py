"""The only writer of the output folder: files go to a temporary folder that replaces the old one when complete."""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import re
import shutil
import tempfile
import urllib.parse
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path

from . import paths
from .problems import Problem


def put_file(path: Path, data: bytes) -> None:
    """Write one output file. Every byte sitegen writes to an output folder goes through here (the fault tests
    replace it to simulate a full disk, a read-only folder or a kill in the middle of a build)."""
    Path(path).write_bytes(data)


def replace_file(path: Path, data: bytes, root: Path | None = None) -> None:
    """Replace one data file atomically: a temporary file beside it (.<name>.new-*), then one rename.

    A full disk or a kill part way leaves the previous file whole; a temporary file a killed run left is
    removed by the next write of that file. With `root` (the repository), the path rule holds first: nothing is
    written through a link below the root, or outside it (paths.PathRefused).
    """
    path = Path(path) if root is None else paths.inside(root, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for leftover in path.parent.glob(f".{path.name}.new-*"):
        leftover.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.new-", dir=path.parent)
    os.close(fd)
    try:
        put_file(Path(tmp), data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def replace_files(root: Path, changes: dict[str, bytes | None], under: tuple[str, ...] = ("scores/",)) -> list[str]:
    """Make `changes` (a path relative to root -> new bytes; None: remove the file) in the repository, each file
    replaced atomically (replace_file). Every path is checked first, before anything is written: it must lie
    below one of `under` (a command that edits data writes only below scores/) and reach no link (paths.py).
    Returns the paths changed, in the order given."""
    root = Path(root)
    for rel in changes:
        clean = posixpath.normpath(rel)
        if clean != rel or not any(rel.startswith(u) if u.endswith("/") else rel == u for u in under):
            raise paths.PathRefused(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"may not be written by this command (only {', '.join(under)})",
                    "a command writes only where its help says",
                )
            )
        paths.inside(root, root / rel)
    for rel, data in sorted(changes.items()):
        if data is None:
            (root / rel).unlink(missing_ok=True)
        else:
            replace_file(root / rel, data, root=root)
    return list(changes)


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Write text files (relative POSIX paths) below folder, UTF-8 with LF line ends."""
    for rel in sorted(files):
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        put_file(target, files[rel].encode("utf-8"))


MARKER = ".sitegen-output"  # in every folder sitegen writes: the only kind of non-empty folder it will replace
_MARKER_TEXT = "Written by sitegen. Each build or export replaces this whole folder.\n"
_OLD_MARKERS = (MARKER, ".sitegen-inputs")  # a site built before the marker existed carries the stamp


def out_problem(out: Path, root: Path) -> Problem | None:
    """Why out must not be replaced by a build or export, or None.

    The output folder is deleted and rewritten as a whole, so it may not be the data root, hold it, lie in
    scores/ or methodology/, or be a non-empty folder that sitegen did not write; below the root, no folder on
    the way to it may be a link (paths.py).
    """
    root_given = Path(root)
    shown, given, out, root = str(out), Path(out), Path(out).resolve(), Path(root).resolve()
    data = [root / "scores", root / "methodology"]

    def refuse(message: str, hint: str) -> Problem:
        return Problem(shown, 0, 0, "--out", message, hint)

    if os.path.islink(given):
        return refuse("is a symbolic link", "write the site to a real folder, e.g. site/")
    if Path(os.path.abspath(given.parent)).is_relative_to(Path(os.path.abspath(root_given))):
        linked = paths.link_problem(root_given, given.parent)  # below the root, no link on the way to out
        if linked is not None:
            return refuse(
                f"lies below {linked.path}, which is a symbolic link", "write the site to a real folder, e.g. site/"
            )

    if out == root:
        return refuse(
            "is the data root; replacing it would delete scores/, methodology/ and .git",
            "write the site to a folder of its own, e.g. site/",
        )
    if out in root.parents:
        return refuse("contains the data root", "write the site to a folder of its own, e.g. site/")
    if any(out == d or d in out.parents for d in data):
        return refuse("lies inside scores/ or methodology/", "write the site outside the data, e.g. site/")
    if os.path.lexists(out):
        if out.is_symlink() or not out.is_dir():
            return refuse("exists and is not a folder", "choose a new folder name")
        if any(out.iterdir()) and not any((out / m).is_file() for m in _OLD_MARKERS):
            return refuse(
                f"is a non-empty folder that sitegen did not write (no {MARKER} in it)",
                "choose a new or empty folder, or empty this one yourself",
            )
    return None


def _leftovers(out: Path) -> list[Path]:
    """Temporary folders a killed build or export left beside out (.<name>.new-* and .<name>.old-*)."""
    prefixes = (f".{out.name}.new-", f".{out.name}.old-")
    return sorted(p for p in out.parent.iterdir() if p.name.startswith(prefixes) and p.is_dir() and not p.is_symlink())


_RENAME_EXCHANGE = 2  # from <linux/fs.h>


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step with renameat2(RENAME_EXCHANGE); False where the system cannot.

    Weighed against a symlink flip (site -> .site.<hash>): the exchange keeps site/ a real folder, which
    GitHub Pages' artifact upload, `serve` and users' own scripts expect, and needs no second layout.
    """
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95, 18):  # EINVAL, ENOSYS, EOPNOTSUPP (file system), EXDEV: fall back to two renames
        return False
    raise OSError(errno, os.strerror(errno), str(b))


def atomic_build(out: Path, render) -> list[Problem]:
    """Run render(folder) into a fresh folder beside out; swap it in only if render returns no error.

    A crash or a problem half way leaves the previous out untouched; the partial folder is removed, and one a
    killed run left behind is removed by the next. On Linux the old and new folders are exchanged in one atomic
    step, so there is no moment without out; elsewhere two renames, the second undone if it fails.
    A write that fails (a full disk, a read-only folder) is reported as a problem, not a crash.
    """
    out = Path(out).absolute()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out = out.parent.resolve() / out.name  # the output's parent is resolved once (a linked temp folder works)
        for leftover in _leftovers(out):
            shutil.rmtree(leftover, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    except OSError as exc:
        return [_write_problem(out, exc)]
    try:
        problems = render(tmp) or []
        if any(p.severity == "error" for p in problems):
            shutil.rmtree(tmp, ignore_errors=True)
            return problems
        put_file(tmp / MARKER, _MARKER_TEXT.encode("utf-8"))
        os.chmod(tmp, 0o755)
        if out.is_dir() and not out.is_symlink() and _exchange(tmp, out):
            shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the previous site
        elif os.path.lexists(out):
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rmdir(old)
            os.replace(out, old)
            try:
                os.replace(tmp, out)
            except BaseException:
                os.replace(old, out)  # put the previous site back rather than leave no site at all
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, out)
        return problems
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        return [_write_problem(out, exc)]
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write_problem(out: Path, exc: OSError) -> Problem:
    reason = exc.strerror or str(exc)
    return Problem(
        out.name,
        0,
        0,
        "--out",
        f"cannot write the output: {reason}",
        "free disk space or choose a writable folder; the previous output is unchanged",
    )


# The renderer quotes every attribute with double quotes (autoescape turns a quote in a value into &#34;).
_LINK = re.compile(r'\s(?:href|src)="([^"]*)"')


def check_links(
    folder: Path,
    base: str = "/",
    digests: Mapping[str, str] | None = None,
    known: MutableMapping[str, tuple[str, ...]] | None = None,
    named: Mapping[str, Callable[[], bytes] | None] | None = None,
) -> list[Problem]:
    """Every internal href/src in every HTML page must name a file that exists in the built site.

    Links are relative to their page, or root-relative under `base`, the path the site is served from
    ('/repo/' on GitHub Pages; 404.html links that way because it is served at any depth).

    Links are read with one regular expression over the renderer's own output (every attribute double-quoted)
    and resolved as strings against the set of written files: no HTML parse, no file-system call per link.

    With `known` (the link store, build/links.py), a page's targets (`link_targets`: the files its links
    need, a function of its bytes, its folder and `base` only) are looked up by `link_key` of its bytes' SHA-256
    (from `digests`, rel -> SHA-256, where the caller knows it, else read and hashed) and scanned only when missing
    (then added to `known`). The site's files are walked and every page's targets tested against them every time;
    a page with a target that is not there is read and scanned in full, so its problems are the same, in the same
    order, with or without `known`.

    `named`: the files of the site that are not in `folder` (a check's, reuse.Output: taken unchanged, not written),
    each with how to read its bytes when it is a page; they are the site's files as much as those walked.
    """
    folder = Path(folder)
    files: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        rel_dir = Path(dirpath).relative_to(folder).as_posix()
        files.update(name if rel_dir == "." else f"{rel_dir}/{name}" for name in filenames)
    walked = frozenset(files)
    files.update(named or ())
    pages = [rel for rel in files if rel.endswith(".html")]

    def read(rel: str) -> bytes:
        where = None if named is None or rel in walked else named.get(rel)
        return (folder / rel).read_bytes() if where is None else where()

    problems = []
    verdicts: dict[tuple[str, str], str | None] = {}
    found: dict[str, bool] = {}  # a target -> whether it is inside the site and written

    def there(target: str) -> bool:
        ok = found.get(target)
        if ok is None:
            ok = found[target] = not _outside(target) and _written(target, files)
        return ok

    for rel_page in sorted(pages):
        page_dir = posixpath.dirname(rel_page)
        text = None
        if known is not None:
            digest = digests.get(rel_page) if digests is not None else None
            if digest is None:
                data = read(rel_page)
                digest, text = hashlib.sha256(data).hexdigest(), page_text(data)
            key = link_key(digest, page_dir, base)
            targets = known.get(key)
            if targets is None:
                text = text if text is not None else page_text(read(rel_page))
                targets = known[key] = link_targets(text, page_dir, base)
            if all(there(target) for target in targets):
                continue  # every link names a written file: no problem in this page
        text = text if text is not None else page_text(read(rel_page))
        problems += _page_problems(rel_page, text, files, base, verdicts)
    return problems


def page_text(data: bytes) -> str:
    """A page's bytes as read_text reads them (UTF-8, universal newlines): the same lines, the same links."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _page_problems(
    rel_page: str, text: str, files: set[str], base: str, verdicts: dict[tuple[str, str], str | None]
) -> list[Problem]:
    """Each broken or outside link of one page, in the order of the page (`verdicts`: the links resolved so far, by
    the page's folder and the link)."""
    page_dir = posixpath.dirname(rel_page)
    problems = []
    for match in _LINK.finditer(text):
        link = html.unescape(match.group(1))
        key = (page_dir, link)
        if key not in verdicts:
            verdicts[key] = _link_problem(page_dir, link, files, base)
        problem = verdicts[key]
        if problem:
            line = text.count("\n", 0, match.start()) + 1
            hint = (
                "internal links stay within the site"
                if "outside" in problem
                else "the page or file it names was not generated"
            )
            problems.append(Problem(f"site/{rel_page}", line, 1, "link", problem, hint))
    return problems


def link_key(digest: str, page_dir: str, base: str) -> str:
    """The key of a page's targets in the link store: its bytes' SHA-256, its folder and the site's path (all that
    `link_targets` reads; the store is salted with the code's digest, build/links.py)."""
    return hashlib.sha256(f"{digest}\0{page_dir}\0{base}".encode()).hexdigest()


def link_targets(text: str, page_dir: str, base: str = "/") -> tuple[str, ...]:
    """The distinct files a page's internal links need, in order of first use: each link's target as
    `_link_target` gives it ('..' or below for one outside the site, which is never there)."""
    targets: dict[str, None] = {}
    for link in dict.fromkeys(html.unescape(m.group(1)) for m in _LINK.finditer(text)):
        target = _link_target(page_dir, link, base)
        if target is not None:
            targets.setdefault(target)
    return tuple(targets)


def _link_target(page_dir: str, link: str, base: str = "/") -> str | None:
    """The path in the site a link names ('' the site's root; '..' or below it: outside the site), or None for a
    link that names no file of the site (another scheme or host, a fragment, mail, an empty path)."""
    parts = urllib.parse.urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("#", "mailto:")) or not parts.path:
        return None
    path = urllib.parse.unquote(parts.path)
    if path.startswith("/"):
        # root-relative: inside the site only under the path it is served from
        if not (path.startswith(base) or path + "/" == base):
            return ".."
        target = posixpath.normpath(path[len(base) :] or ".")
    else:
        target = posixpath.normpath(posixpath.join(page_dir, path))
    return "" if target == "." else target


def _outside(target: str) -> bool:
    return target == ".." or target.startswith("../")


def _written(target: str, files: set[str]) -> bool:
    return target in files or posixpath.join(target, "index.html") in files


def _link_problem(page_dir: str, link: str, files: set[str], base: str = "/") -> str | None:
    target = _link_target(page_dir, link, base)
    if target is None:
        return None
    if _outside(target):
        return f"'{link}' points outside the site"
    if _written(target, files):
        return None
    return f"broken internal link '{link}'"
