"""The only writer of the output folder: files go to a temporary folder that replaces the old one when complete."""

from __future__ import annotations

import html.parser
import os
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


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[int, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append((self.getpos()[0], value))
            if name == "id" and value:
                self.ids.add(value)


def check_links(folder: Path) -> list[Problem]:
    """Every internal href/src in every HTML page must name a file that exists in the built site."""
    problems = []
    folder = Path(folder)
    for page in sorted(folder.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        rel_page = page.relative_to(folder).as_posix()
        for line, link in parser.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "mailto:")) or not parts.path:
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            try:
                target.relative_to(folder.resolve())
            except ValueError:
                problems.append(Problem(f"site/{rel_page}", line, 1, "link", f"'{link}' points outside the site",
                                        "internal links stay within the site"))
                continue
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(Problem(f"site/{rel_page}", line, 1, "link", f"broken internal link '{link}'",
                                        "the page or file it names was not generated"))
    return problems
