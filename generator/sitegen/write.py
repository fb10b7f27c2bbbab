"""The only writer of the output folder: files go to a temporary folder that replaces the old one when complete."""

from __future__ import annotations

import html
import os
import posixpath
import re
import shutil
import tempfile
import urllib.parse
from pathlib import Path

from .problems import Problem


def write_files(folder: Path, files: dict[str, str]) -> None:
    """Write text files (relative POSIX paths) below folder, UTF-8 with LF line ends."""
    for rel in sorted(files):
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[rel].encode("utf-8"))


def atomic_build(out: Path, render) -> list[Problem]:
    """Run render(folder) into a fresh folder beside out; swap it in only if render returns no error.

    A crash or a problem half way leaves the previous out untouched; the partial folder is removed.
    """
    out = Path(out).absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        problems = render(tmp) or []
        if any(p.severity == "error" for p in problems):
            shutil.rmtree(tmp, ignore_errors=True)
            return problems
        os.chmod(tmp, 0o755)
        if out.exists():
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
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# The renderer quotes every attribute with double quotes (autoescape turns a quote in a value into &#34;).
_LINK = re.compile(r'\s(?:href|src)="([^"]*)"')


def check_links(folder: Path, base: str = "/") -> list[Problem]:
    """Every internal href/src in every HTML page must name a file that exists in the built site.

    Links are relative to their page, or root-relative under `base`, the path the site is served from
    ('/repo/' on GitHub Pages; 404.html links that way because it is served at any depth).

    Links are read with one regular expression over the renderer's own output (every attribute double-quoted)
    and resolved as strings against the set of written files: no HTML parse, no file-system call per link.
    """
    folder = Path(folder)
    files: set[str] = set()
    pages: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        rel_dir = Path(dirpath).relative_to(folder).as_posix()
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            files.add(rel)
            if name.endswith(".html"):
                pages.append(rel)
    problems = []
    verdicts: dict[tuple[str, str], str | None] = {}
    for rel_page in sorted(pages):
        text = (folder / rel_page).read_text(encoding="utf-8")
        page_dir = posixpath.dirname(rel_page)
        for match in _LINK.finditer(text):
            link = html.unescape(match.group(1))
            key = (page_dir, link)
            if key not in verdicts:
                verdicts[key] = _link_problem(page_dir, link, files, base)
            problem = verdicts[key]
            if problem:
                line = text.count("\n", 0, match.start()) + 1
                hint = ("internal links stay within the site" if "outside" in problem
                        else "the page or file it names was not generated")
                problems.append(Problem(f"site/{rel_page}", line, 1, "link", problem, hint))
    return problems


def _link_problem(page_dir: str, link: str, files: set[str], base: str = "/") -> str | None:
    parts = urllib.parse.urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("#", "mailto:")) or not parts.path:
        return None
    path = urllib.parse.unquote(parts.path)
    if path.startswith("/"):
        # root-relative: inside the site only under the path it is served from
        inside = path.startswith(base) or path + "/" == base
        target = posixpath.normpath(path[len(base):] or ".") if inside else None
    else:
        target = posixpath.normpath(posixpath.join(page_dir, path))
    if target is None or target == ".." or target.startswith("../"):
        return f"'{link}' points outside the site"
    if target == ".":
        target = ""
    if target in files or posixpath.join(target, "index.html") in files:
        return None
    return f"broken internal link '{link}'"
