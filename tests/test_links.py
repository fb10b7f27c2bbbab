"""The internal-link check over a built site: what counts as broken, what is left alone."""

from pathlib import Path

from sitegen.write import check_links


def page(folder: Path, rel: str, body: str) -> None:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


def test_links_resolve_against_written_files(tmp_path):
    page(tmp_path, "index.html", '<a href="models/a/">A</a>\n<link href="assets/site.css">')
    page(tmp_path, "models/a/index.html", '<a href="../../">home</a> <a href="../../index.html#top">top</a>')
    page(tmp_path, "assets/site.css", "body{}")
    assert check_links(tmp_path) == []


def test_broken_outside_and_ignored_links(tmp_path):
    page(tmp_path, "index.html", "\n".join([
        '<a href="https://example.org/x">external</a>',
        '<a href="mailto:x@example.org">mail</a>',
        '<a href="#section">fragment</a>',
        '<a href="models/missing/">missing page</a>',
        '<img src="../etc/passwd">',
        '<a href="api/v1/a.json?x=1&amp;y=2">query</a>',
    ]))
    page(tmp_path, "api/v1/a.json", "{}")
    assert [p.format() for p in check_links(tmp_path)] == [
        "site/index.html:4:1: link: broken internal link 'models/missing/' "
        "(the page or file it names was not generated)",
        "site/index.html:5:1: link: '../etc/passwd' points outside the site (internal links stay within the site)",
    ]


def test_root_relative_links_resolve_under_the_site_path(tmp_path):
    """404.html links root-relative from the site's path (/repo/ on GitHub Pages): those are inside the site,
    other root-relative links are not."""
    page(tmp_path, "404.html", "\n".join([
        '<link href="/repo/assets/site.css">',
        '<a href="/repo/">home</a>',
        '<a href="/repo">home without slash</a>',
        '<a href="/repo/models/missing/">missing</a>',
        '<a href="/other/">another site</a>',
    ]))
    page(tmp_path, "index.html", "")
    page(tmp_path, "assets/site.css", "body{}")
    assert [p.format() for p in check_links(tmp_path, "/repo/")] == [
        "site/404.html:4:1: link: broken internal link '/repo/models/missing/' "
        "(the page or file it names was not generated)",
        "site/404.html:5:1: link: '/other/' points outside the site (internal links stay within the site)",
    ]
    # served from the root of the host, /repo/... names files that do not exist
    assert [p.line for p in check_links(tmp_path)] == [1, 2, 3, 4, 5]
