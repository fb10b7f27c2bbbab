"""The internal-link check over a built site: what counts as broken, what is left alone."""

import hashlib
import json
import pickle
from pathlib import Path

from sitegen import reuse, write
from sitegen.build import links
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


# build --check's link store (build/links.py): a page's targets kept by its bytes' digest, every link tested always.

def broken_site(folder: Path) -> None:
    """Pages with each kind of problem, and clean pages whose targets are written."""
    page(folder, "index.html", "\n".join([
        '<link href="assets/site.css">',
        '<a href="models/missing/">missing page</a>',
        '<img src="../etc/passwd">',
        '<a href="/repo/boards/">root-relative under the base</a>',
        '<a href="/repo/boards/gone.html">root-relative, broken</a>',
        '<a href="/other/">another site</a>',
    ]))
    page(folder, "boards/index.html", '<a href="../">home</a>\n<a href="a.html">a</a>\n<a href="../models/a/">a</a>')
    page(folder, "boards/a.html", '<a href="../assets/site.css">css</a>\n\n<a href="b.html?x=1&amp;y=2">b</a>')
    page(folder, "boards/b.html", '<a href="a.html#top">a</a>')
    page(folder, "models/a/index.html", '<a href="../../boards/">boards</a>')
    page(folder, "assets/site.css", "body{}")


BROKEN = [
    "site/index.html:2:1: link: broken internal link 'models/missing/' (the page or file it names was not generated)",
    "site/index.html:3:1: link: '../etc/passwd' points outside the site (internal links stay within the site)",
    "site/index.html:5:1: link: broken internal link '/repo/boards/gone.html' "
    "(the page or file it names was not generated)",
    "site/index.html:6:1: link: '/other/' points outside the site (internal links stay within the site)",
]


def test_link_targets_are_the_files_a_page_needs():
    text = "\n".join([
        '<a href="https://example.org/x">external</a> <a href="#s">fragment</a> <a href="mailto:x@y.org">mail</a>',
        '<a href="../b/?q=1&amp;r=2">b</a> <a href="../b/#x">b again</a> <a href="../../../up">out</a>',
        '<a href="/repo/">home</a> <a href="/repo">home</a> <a href="/repo/c%20d.html">c</a> <a href="/x/">x</a>',
        '<link href="./">here</link> <img src="">',
    ])
    assert write.link_targets(text, "models/a", "/repo/") == ("models/b", "../up", "", "c d.html", "..", "models/a")


def test_a_known_page_is_not_scanned_again_and_the_problems_are_the_same(tmp_path, monkeypatch):
    broken_site(tmp_path)
    cold = [p.format() for p in check_links(tmp_path, "/repo/")]
    assert cold == BROKEN
    known: dict = {}
    assert [p.format() for p in check_links(tmp_path, "/repo/", known=known)] == BROKEN
    assert len(known) == 5  # one entry a page
    scanned = []
    targets = write.link_targets
    monkeypatch.setattr(write, "link_targets", lambda *a: scanned.append(a[1]) or targets(*a))
    page(tmp_path, "boards/b.html", '<a href="a.html#top">a</a>\n<a href="c.html">new</a>')  # changed: scanned
    assert [p.format() for p in check_links(tmp_path, "/repo/", known=known)] == [
        "site/boards/b.html:2:1: link: broken internal link 'c.html' (the page or file it names was not generated)",
        *BROKEN,
    ]
    assert scanned == ["boards"]
    assert len(known) == 6  # the old entry of b.html stays in this mapping (the store keeps only the used ones)


def test_an_unchanged_page_whose_target_disappeared_is_broken_warm_as_cold(tmp_path):
    """The stale-verdict case: the page's bytes (and so its entry) are unchanged, the file it links to is gone."""
    broken_site(tmp_path)
    known: dict = {}
    check_links(tmp_path, "/repo/", known=known)
    (tmp_path / "boards/a.html").unlink()
    (tmp_path / "models/a/index.html").unlink()
    expected = [
        "site/boards/b.html:1:1: link: broken internal link 'a.html#top' "
        "(the page or file it names was not generated)",
        "site/boards/index.html:2:1: link: broken internal link 'a.html' (the page or file it names was not generated)",
        "site/boards/index.html:3:1: link: broken internal link '../models/a/' "
        "(the page or file it names was not generated)",
        *BROKEN,
    ]
    assert [p.format() for p in check_links(tmp_path, "/repo/", known=known)] == expected
    assert [p.format() for p in check_links(tmp_path, "/repo/")] == expected


def test_the_digests_given_key_the_pages_and_a_page_without_one_is_hashed(tmp_path):
    broken_site(tmp_path)
    digests = {rel: hashlib.sha256((tmp_path / rel).read_bytes()).hexdigest()
               for rel in ("boards/a.html", "boards/b.html")}
    known: dict = {}
    assert [p.format() for p in check_links(tmp_path, "/repo/", digests, known)] == BROKEN
    for rel in ("index.html", "boards/a.html", "boards/b.html"):
        digest = hashlib.sha256((tmp_path / rel).read_bytes()).hexdigest()
        assert write.link_key(digest, str(Path(rel).parent).replace(".", ""), "/repo/") in known
    # the key covers the page's folder and the site's path: the same bytes elsewhere are another entry
    assert write.link_key(digests["boards/a.html"], "boards", "/") != write.link_key(
        digests["boards/a.html"], "boards", "/repo/")
    assert write.link_key(digests["boards/a.html"], "models", "/repo/") != write.link_key(
        digests["boards/a.html"], "boards", "/repo/")


def test_lines_count_as_read_text_does_with_carriage_returns(tmp_path):
    (tmp_path / "index.html").write_bytes(b'<p>\r\n<p>\r<a href="missing.html">x</a>')
    expected = ["site/index.html:3:1: link: broken internal link 'missing.html' "
                "(the page or file it names was not generated)"]
    assert [p.format() for p in check_links(tmp_path)] == expected
    assert [p.format() for p in check_links(tmp_path, known={})] == expected


def checked(root: Path, site: Path) -> list[str]:
    return [p.format() for p in links.check(site, "/repo/", root)]


def recorded(site: Path) -> None:
    """The record a render writes (reuse.RECORD: rel -> [key, SHA-256 of the bytes]) for every page of `site`."""
    record = {p.relative_to(site).as_posix(): ["k", hashlib.sha256(p.read_bytes()).hexdigest()]
              for p in sorted(site.rglob("*.html"))}
    (site / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")


def test_a_build_keeps_the_store_a_check_reads_it_and_the_verdict_is_the_same_cold_warm_or_off(tmp_path, monkeypatch):
    site, root = tmp_path / "site", tmp_path / "root"
    broken_site(site)
    recorded(site)
    root.mkdir()
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    store = root / reuse.CACHE_FOLDER / links.FOLDER
    assert checked(root, site) == BROKEN  # no store yet: every page scanned, nothing written
    assert not (root / reuse.CACHE_FOLDER).exists()
    assert links.keep(site, "/repo/", root) == []  # a plain build's part: the store holds its pages
    (entry,) = store.iterdir()
    assert len(pickle.loads(entry.read_bytes())) == 5
    before = entry.read_bytes(), entry.stat().st_mtime_ns
    scanned = []
    targets = write.link_targets
    monkeypatch.setattr(write, "link_targets", lambda *a: scanned.append(a[1]) or targets(*a))
    assert checked(root, site) == BROKEN  # warm: nothing scanned, nothing written
    assert scanned == [] and (entry.read_bytes(), entry.stat().st_mtime_ns) == before
    (site / "boards/b.html").unlink()  # the stale-verdict case through the store: a.html is unchanged
    recorded(site)  # and the record names the files the render made: b.html is no longer one of them
    assert checked(root, site) == [
        "site/boards/a.html:3:1: link: broken internal link 'b.html?x=1&y=2' "
        "(the page or file it names was not generated)",
        *BROKEN,
    ]
    assert scanned == []
    page(site, "boards/a.html", '<a href="../nowhere/">gone</a>')  # new bytes the record does not name: hashed
    record = json.loads((site / reuse.RECORD).read_text(encoding="utf-8"))
    del record["boards/a.html"]
    (site / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    assert checked(root, site)[0] == (
        "site/boards/a.html:1:1: link: broken internal link '../nowhere/' (the page or file it names was not generated)"
    )
    assert scanned == ["boards"]
    assert links.keep(site, "/repo/", root) == []  # the pages the record names: a.html is not one of them
    kept = pickle.loads(entry.read_bytes())
    assert len(kept) == 3 and not any(targets == ("nowhere",) for targets in kept.values())
    record["boards/a.html"] = ["k", "0" * 64]  # a digest that is not the page's bytes: the page is not kept
    (site / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    links.keep(site, "/repo/", root)
    assert pickle.loads(entry.read_bytes()) == kept
    recorded(site)  # the record of the folder as it is now: a.html's new bytes, no b.html
    links.keep(site, "/repo/", root)
    kept = pickle.loads(entry.read_bytes())
    assert len(kept) == 4 and ("nowhere",) in kept.values()
    monkeypatch.setenv("SITEGEN_CACHE", "off")
    assert checked(root, site)[-4:] == BROKEN and len(checked(root, site)) == 5


def test_a_damaged_or_linked_store_gives_nothing_and_the_same_verdict(tmp_path, monkeypatch):
    site, root, elsewhere = tmp_path / "site", tmp_path / "root", tmp_path / "elsewhere"
    broken_site(site)
    recorded(site)
    elsewhere.mkdir()
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    (root / reuse.CACHE_FOLDER).mkdir(parents=True)
    (root / reuse.CACHE_FOLDER / links.FOLDER).symlink_to(elsewhere, target_is_directory=True)
    links.keep(site, "/repo/", root)
    assert checked(root, site) == BROKEN
    assert list(elsewhere.iterdir()) == []  # nothing written through the link
    (root / reuse.CACHE_FOLDER / links.FOLDER).unlink()
    links.keep(site, "/repo/", root)
    (entry,) = (root / reuse.CACHE_FOLDER / links.FOLDER).iterdir()
    for damaged in (b"not a pickle", pickle.dumps(["a list"]), pickle.dumps({"k": ["not", "a tuple"]})):
        entry.write_bytes(damaged)
        assert checked(root, site) == BROKEN
        links.keep(site, "/repo/", root)
        assert len(pickle.loads(entry.read_bytes())) == 5  # written again whole
    # what is kept of a page: the distinct files its links need, in order, those outside the site as they resolve
    kept = pickle.loads(entry.read_bytes())
    index = write.link_key(hashlib.sha256((site / "index.html").read_bytes()).hexdigest(), "", "/repo/")
    assert kept[index] == ("assets/site.css", "models/missing", "../etc/passwd", "boards", "boards/gone.html", "..")


def test_the_render_workers_scan_the_pages_they_write_and_the_store_is_the_same(tmp_path, monkeypatch):
    """A plain build's pages are scanned by the forked workers that render them, from the bytes they write: the link
    store then holds what keep would scan from the written pages, and a page taken unchanged is not scanned."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "site"))
    from fixtures import make_context

    from sitegen.site import assembly, render_site

    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    monkeypatch.setenv("SITEGEN_JOBS", "2")
    monkeypatch.setattr(assembly, "_FEW", 2)  # the fixture's pages, in two forked shares
    here = []  # the pages scanned in this process (a forked worker's calls are not seen here)
    targets = write.link_targets
    monkeypatch.setattr(write, "link_targets", lambda *a: here.append(a[1]) or targets(*a))
    ctx, site, base = make_context(6), tmp_path / "site", "/"
    scanned: dict = {}
    render_site(ctx, site, links=scanned)
    monkeypatch.setattr(write, "link_targets", targets)
    rendered = {rel for rel in reuse.load_record(site) if rel.endswith(".html")}
    pages = {p.path for p in assembly.plan(ctx, assembly.Urls(ctx), assembly.Lookups(ctx, assembly.Urls(ctx)), {})}
    assert len(scanned) == len(pages) > 2 and pages <= rendered  # every planned page (redirects are not rendered there)
    assert 0 < len(here) < len(pages)  # this process's share; the other share was scanned by the forked worker
    for rel in pages:
        data = (site / rel).read_bytes()
        page_dir = rel.rpartition("/")[0]
        key = write.link_key(hashlib.sha256(data).hexdigest(), page_dir, base)
        assert scanned[key] == write.link_targets(data.decode("utf-8"), page_dir, base)
    read = []
    regular_bytes = reuse.regular_bytes
    monkeypatch.setattr(reuse, "regular_bytes", lambda path: read.append(path) or regular_bytes(path))
    root, cold = tmp_path / "root", tmp_path / "cold"
    links.keep(site, base, root, scanned)
    assert sorted(p.relative_to(site).as_posix() for p in read) == sorted(rendered - pages)  # only the others read
    links.keep(site, base, cold)  # the store as keep alone scans it from the written pages
    (entry,), (alone,) = (root / reuse.CACHE_FOLDER / links.FOLDER).iterdir(), (
        cold / reuse.CACHE_FOLDER / links.FOLDER
    ).iterdir()
    assert pickle.loads(entry.read_bytes()) == pickle.loads(alone.read_bytes())
    assert checked_at(root, site, base) == checked_at(cold, site, base) == [p.format() for p in check_links(site)]
    again: dict = {}
    render_site(ctx, tmp_path / "next", previous=site, links=again)
    assert again == {}  # every page taken unchanged from the previous site: nothing scanned
    # a check given the workers' scans tests the same targets: a page whose target is gone is broken, as cold
    (site / next(iter(sorted(pages - {"index.html"})))).unlink()
    assert [p.format() for p in links.check(site, base, tmp_path / "none", scanned)] == [
        p.format() for p in check_links(site)
    ]


def checked_at(root: Path, site: Path, base: str) -> list[str]:
    return [p.format() for p in links.check(site, base, root)]


def test_a_check_reads_a_page_it_named_from_the_page_store_and_the_verdict_is_the_same(tmp_path, monkeypatch):
    """A check writes only the pages it renders (reuse.Output): links.check takes the site's files from the record
    as well as the folder, and reads a page the record names from the page store (by its entry's key): the problems
    are those of the same site written whole, a target named only in the record is there, one named nowhere is
    broken; a store entry that no longer holds the page's bytes is said, never a traceback."""
    site, root = tmp_path / "site", tmp_path / "root"
    broken_site(site)
    written = checked(root, site)
    assert written[-4:] == BROKEN  # the site written whole, no record: the folder alone
    store = root / reuse.CACHE_FOLDER / reuse.PAGES_FOLDER
    store.mkdir(parents=True)
    record, entries = {}, {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel, data = path.relative_to(site).as_posix(), path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        key = hashlib.sha256(rel.encode()).hexdigest()
        record[rel] = [key, sha]
        if rel != "boards/index.html":  # the page the check rendered stays; every other file is named only
            if rel.endswith(".html"):
                (store / key).write_bytes(data)
                entries[key] = sha
            path.unlink()
    (site / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    (store / reuse.PAGES_RECORD).write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    assert sorted(p.name for p in site.rglob("*") if p.is_file()) == [reuse.RECORD, "index.html"]
    assert checked(root, site) == written  # index.html read from the store: its lines, its links
    del record["boards/b.html"]  # no longer made: a.html, unchanged in the store, links to it
    (site / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    assert checked(root, site) == [
        "site/boards/a.html:3:1: link: broken internal link 'b.html?x=1&y=2' "
        "(the page or file it names was not generated)",
        *written,
    ]
    (store / record["boards/a.html"][0]).write_bytes(b"<p>another build's page</p>")
    assert checked(root, site) == [
        "site/boards/a.html: link: its page store entry changed while the check ran, so its links were not "
        "checked (run the check again; another build shares the cache folder)"
    ]
