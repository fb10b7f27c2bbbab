"""The changelog page and its Atom feed, the citation page and the data-format page, asserted by structure."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from functools import cache

from fixtures import HOSTILE_IMG, HOSTILE_SCRIPT, make_context
from test_pages import Doc

from sitegen.site import render_files

A = "{http://www.w3.org/2005/Atom}"
CTX = make_context(40)


# The sites are rendered when a test first needs them (never at collection), once per process.
@cache
def site():
    return render_files(CTX)


@cache
def bare():
    return render_files(dataclasses.replace(CTX, history=[], citation=None, repo_url=""))


def doc(path: str, files=None) -> Doc:
    return Doc((site() if files is None else files)[path].decode("utf-8"))


def sections(html: str) -> list[str]:
    """The ids of the release sections and commit articles, in page order."""
    d = Doc(html)
    return [a["id"] for t, a in d.elements if t in ("section", "article") and a.get("class") in
            ("lb-release", "lb-change")]


def test_new_pages_are_in_the_navigation():
    d = doc("index.html")
    hrefs = [a.get("href") for a in d.find("a", **{"class": "md-nav__link"})]
    assert {"changelog/", "cite/", "contributing/data-format/"} <= set(hrefs)
    # not per model: the model pages are reached through tables, never the sidebar
    assert not [h for h in hrefs if h and h.startswith("models/") and h != "models/"]


def test_changelog_lists_commits_newest_first_grouped_by_release():
    html = site()["changelog/index.html"].decode("utf-8")
    ids = sections(html)
    shas = [e["commit"][:12] for e in CTX.history]
    assert ids == ["unreleased", f"c-{shas[0]}", "release-data-2026-07", f"c-{shas[1]}", f"c-{shas[2]}",
                   "release-data-2026-01", f"c-{shas[3]}"]
    d = Doc(html)
    times = [a["datetime"] for a in d.find("time")]
    entry_times = [t for t in times if t in {e["date"] for e in CTX.history}]
    assert entry_times == sorted(entry_times, reverse=True) == [e["date"] for e in CTX.history]
    text = " ".join(" ".join(d.text).split())
    assert "Data release data-2026-07 2026-07-10" in text and "July data" in text
    assert "Not yet in a data release" in text
    assert f"Re-import AA {HOSTILE_SCRIPT}" in text  # the subject, shown as text
    assert "sitegen changelog" in text  # per-result detail is the CLI's
    # commit links to the repository
    assert d.find("a", href=f"https://github.com/example/leaderboards/commit/{CTX.history[0]['commit']}")


def test_changelog_links_models_that_have_pages_only():
    d = doc("changelog/index.html")
    hrefs = {a["href"] for a in d.find("a")}
    first = sorted(m["id"] for m in CTX.models)[0]
    assert f"../models/{first}/" in hrefs
    assert not [h for h in hrefs if "removed-model" in h]  # a removed model has no page: plain text
    assert "gone/removed-model" in "".join(d.text)
    assert "../boards/ai-iq/" in hrefs and "../methodology/ai-iq/" in hrefs  # index version and methodology page
    assert not [h for h in hrefs if "retired" in h]
    # the base commit added 40 models: a few shown, the rest behind a <details> toggle, all linked
    details = d.find("details")
    assert len(details) == 2  # the 40 added and the 20 changed
    model_links = [h for h in hrefs if h.startswith("../models/") and h != "../models/"]
    assert len(model_links) == len(CTX.models)


def test_changelog_head_links_the_atom_feed():
    d = doc("changelog/index.html")
    links = d.find("link", rel="alternate", type="application/atom+xml")
    assert [a["href"] for a in links] == ["../changelog.atom"]


def test_atom_feed_parses_and_has_the_entries():
    feed = ET.fromstring(site()["changelog.atom"])
    entries = feed.findall(f"{A}entry")
    assert [e.findtext(f"{A}updated") for e in entries] == [e["date"] for e in CTX.history]
    assert entries[1].findtext(f"{A}title") == f"Re-import AA {HOSTILE_SCRIPT}"  # escaped in XML, round-trips
    assert HOSTILE_SCRIPT.encode() not in site()["changelog.atom"]
    assert feed.findtext(f"{A}updated") == CTX.history[0]["date"]
    # no site URL: links relative to the feed's own address (the site root), ids are URNs
    assert [link.get("href") for link in feed.findall(f"{A}link")] == ["changelog/", "changelog.atom"]
    assert entries[0].find(f"{A}link").get("href") == f"changelog/#c-{CTX.history[0]['commit'][:12]}"
    assert all(e.findtext(f"{A}id").startswith("urn:uuid:") for e in entries)
    assert "Models removed: gone/removed-model" in entries[0].findtext(f"{A}content")


def test_atom_feed_is_absolute_when_the_site_url_is_known():
    site = render_files(dataclasses.replace(CTX, site_url="https://lb.example.org/boards/"))
    feed = ET.fromstring(site["changelog.atom"])
    assert feed.find(f"{A}link[@rel='self']").get("href") == "https://lb.example.org/boards/changelog.atom"
    entry = feed.find(f"{A}entry")
    assert entry.find(f"{A}link").get("href").startswith("https://lb.example.org/boards/changelog/#c-")
    assert entry.findtext(f"{A}id").startswith("tag:lb.example.org,2026-07-14:commit:")


def test_without_history_the_page_says_so_and_the_feed_is_empty():
    d = doc("changelog/index.html", bare())
    assert d.find("p", id="no-history")
    assert not sections(bare()["changelog/index.html"].decode("utf-8"))
    feed = ET.fromstring(bare()["changelog.atom"])
    assert feed.findall(f"{A}entry") == [] and feed.findtext(f"{A}updated") == "2026-07-15T00:00:00Z"


def test_cite_page_from_citation_cff():
    d = doc("cite/index.html")
    assert d.find("table", id="citation")
    text = " ".join(" ".join(d.text).split())
    for needed in ("sitegen: a static-site generator", "Ada Lovelace", "0.1.0", "MIT", "2026-07-01"):
        assert needed in text, needed
    assert f"Org {HOSTILE_IMG}" in text and HOSTILE_IMG.encode() not in site()["cite/index.html"]
    assert d.find("a", href="https://doi.org/10.5281/zenodo.1234567")
    bib = "".join(d.text).split("@software{", 1)[1]
    assert bib.startswith("sitegen-2026,")
    assert "author  = {Lovelace, Ada and {Org <img src=x onerror=alert(1)>}}" in bib
    assert "doi     = {10.5281/zenodo.1234567}" in bib and "year    = {2026}" in bib
    assert bib.count("{") == bib.count("}") - 1  # balanced: the entry's own closing brace ends it
    assert d.find("a", href="../downloads/#sources")


def test_cite_page_without_citation_cff():
    assert doc("cite/index.html", bare()).find("p", id="no-citation")


def test_data_format_page_renders_the_schema_tables():
    d = doc("contributing/data-format/index.html")
    html = site()["contributing/data-format/index.html"].decode("utf-8")
    assert [t for t, _ in d.elements].count("table") >= 6  # one table per kind of file at least
    assert [t for t, _ in d.elements].count("h2") >= 6
    heads = [h.strip() for h in Doc(html.split("<thead>", 1)[1].split("</thead>")[0]).text if h.strip()]
    assert heads == ["field", "type", "required", "description"]
    text = " ".join(d.text)
    assert "Data file reference" in text and "scores/models/<org>/<model>.yaml" in text
    assert "<org>" not in html  # raw HTML is off: angle brackets are escaped text
    assert d.find("a", href="https://github.com/example/leaderboards/blob/HEAD/CONTRIBUTING.md")
    assert not Doc(bare()["contributing/data-format/index.html"].decode("utf-8")).find(
        "a", href="https://github.com/example/leaderboards/blob/HEAD/CONTRIBUTING.md")
    assert "CONTRIBUTING.md" in "".join(Doc(bare()["contributing/data-format/index.html"].decode("utf-8")).text)


def test_every_internal_link_resolves(built_site):
    from sitegen.write import check_links

    assert check_links(built_site) == []
    assert (built_site / "changelog.atom").exists() and (built_site / "cite/index.html").exists()
