"""Releases on the site: sibling configurations on model pages, one-row-per-release boards, former-id redirects."""

from __future__ import annotations

import copy
import dataclasses
import re
from functools import cache

from fixtures import make_context

from sitegen.site import render_files
from sitegen.site.pages import Urls, href


def _context():
    ctx = copy.deepcopy(make_context(12))
    a, b = ctx.models[0], ctx.models[1]
    for m, effort, rank in ((a, "high", 4.0), (b, "low", 2.0)):
        m.update(release="acme/shared-release", effort=effort, effort_rank=rank)
    a["former_ids"] = ["acme/old-name"]
    bench = sorted(ctx.benchmark_boards)[0]
    source = ctx.sources[0]["id"]
    ctx = dataclasses.replace(ctx, not_attributed={source: [
        {"name": "Mystery <b>9</b>", "reason": "no version given", "results": [{"benchmark": bench, "value": 91.5}]},
        {"name": "Elsewhere", "reason": "other benchmark", "results": [{"benchmark": "not-this-one", "value": 1}]}]})
    return ctx, a, b


CTX, A, B = _context()
URLS = Urls(CTX)


@cache
def site():
    """The fixture site, rendered when a test first needs it (never at collection), once per process."""
    return render_files(CTX)


def text(path: str) -> str:
    return site()[path].decode("utf-8")


def test_model_page_lists_and_links_its_sibling_configurations():
    html = text(URLS.model[A["id"]])
    section = html[html.index('id="configurations"'):html.index("</ul>", html.index('id="configurations"'))]
    assert href(URLS.model[B["id"]]) in section  # the sibling is linked
    # in effort order (low before high), the page's own configuration marked and not linked
    assert section.index(": low") < section.index(": high")
    assert "(this page)" in section and href(URLS.model[A["id"]]) not in section


def test_a_model_alone_in_its_release_has_no_sibling_section():
    assert 'id="configurations"' not in text(URLS.model[CTX.models[2]["id"]])


def test_former_id_redirects_to_the_surviving_model():
    html = text("models/acme/old-name/index.html")
    target = "../../../" + href(URLS.model[A["id"]])
    assert f'http-equiv="refresh" content="0; url={target}"' in html
    assert f'<a href="{target}">' in html
    assert "models/acme/old-name/" not in text("sitemap.xml")


def test_a_former_id_redirect_carries_the_csp_of_every_page():
    csp = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]+">')
    (page,) = csp.findall(text(URLS.model[A["id"]]))
    assert "default-src &#39;none&#39;" in page
    assert csp.findall(text("models/acme/old-name/index.html")) == [page]


def test_one_row_per_release_keeps_the_best_configuration():
    for bid, board in CTX.boards.items():
        models = [r["model"] for r in board.get("rows", [])]
        if A["id"] in models and B["id"] in models:
            break
    else:
        raise AssertionError("the fixture puts both configurations on some board")
    every = text(URLS.board[bid])
    per_release = text(URLS.board[bid].replace("index.html", "releases/index.html"))
    rows = lambda html: re.findall(r'<tr [^>]*data-ranked', html)  # noqa: E731
    assert len(rows(per_release)) == len(rows(every)) - 1
    ordered = sorted(board["rows"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0))
    best = next(r["model"] for r in ordered if r["model"] in (A["id"], B["id"]))
    other = B["id"] if best == A["id"] else A["id"]
    assert href(URLS.model[best]) in per_release and href(URLS.model[other]) not in per_release
    assert "releases/" in every and "Show every configuration" in per_release


def test_benchmark_page_names_what_the_source_lists_but_we_do_not_attribute():
    bench = sorted(CTX.benchmark_boards)[0]
    html = text(URLS.benchmark[bench])
    section = html[html.index('id="not-attributed"'):html.index("</details>", html.index('id="not-attributed"'))]
    assert "Mystery &lt;b&gt;9&lt;/b&gt;" in section and "no version given" in section and "91.5" in section
    assert "Elsewhere" not in section  # listed only where its values are
