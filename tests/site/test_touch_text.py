"""Issue 29: nothing a reader needs sits only in a `title` attribute (a touch screen cannot hover), and the home page
shows an interval as its bounds, never as a ± that hides an asymmetric one. Asserted by structure on the fixture
site (tests/site/fixtures.py), with the rows changed here in view."""

from __future__ import annotations

import copy
import dataclasses
import re
from functools import cache
from html.parser import HTMLParser

from fixtures import make_context

from sitegen.site import render_files


class Cells(HTMLParser):
    """Each <td>'s attributes and all the text inside it."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[dict, list[str]]] = []
        self.found: list[tuple[dict, str]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self.open.append((dict(attrs), []))

    def handle_endtag(self, tag):
        if tag == "td" and self.open:
            a, text = self.open.pop()
            self.found.append((a, "".join(text)))

    def handle_data(self, data):
        if self.open:
            self.open[-1][1].append(data)


def _context():
    """The fixture, with the top AI IQ row's interval made asymmetric (110.5 to its value + 3), the last row's
    interval replaced by a reason and no bounds, and the one before it left without a value."""
    ctx = make_context(40)
    boards = copy.deepcopy(ctx.boards)
    rows = [r for r in boards["ai-iq"]["rows"] if r["value"] is not None]
    top = max(rows, key=lambda r: r["value"])
    top.update(value=max(r["value"] for r in rows), interval=[110.5, top["value"] + 3.0])
    other = sorted(rows, key=lambda r: -r["value"])[-1]
    other.update(interval=None, interval_measurement=None, interval_how=None,
                 interval_reason="none of the components this value is computed from has an interval")
    blank = sorted(rows, key=lambda r: -r["value"])[-2]
    blank.update(value=None, rank=None, status="unranked", interval=None, interval_measurement=None)
    return dataclasses.replace(ctx, boards=boards), top, other


CTX, TOP, OTHER = _context()


@cache
def files():
    """The fixture site, rendered when a test first needs it (never at collection), once per process."""
    return render_files(CTX)


def _html(path: str) -> str:
    return files()[path].decode("utf-8")


def test_home_card_shows_an_asymmetric_interval_as_its_bounds():
    home = _html("index.html")
    lo, hi = TOP["interval"]
    assert f'<span class="lb-interval">{lo:.1f}–{hi:.1f}</span>' in home
    assert "±" not in home
    # the card says what the bounds are, in text
    assert "interval (low–high)" in home


def test_board_value_and_interval_dashes_carry_no_title():
    board = _html("boards/ai-iq/index.html")
    body = board.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert 'title="' not in body, re.findall(r'title="[^"]*"', body)[:5]
    # a row without a value: a bare dash, its status visible beside it
    unranked = [r for r in CTX.boards["ai-iq"]["rows"] if r["value"] is None]
    assert unranked
    assert '<td class="v">–</td>' in body
    # a row whose interval cell has a note opens to show it (a disclosure, no hover)
    note = "none of the components this value is computed from has an interval"
    cells = [a for a, text in Cells(body).found if note in text]
    assert len(cells) == 1 and cells[0].get("class") == "iv"
    assert re.search(r'<td class="iv"><details class="lb-rowd"><summary>–</summary>[^<]*' + note, body)


def test_board_legend_says_what_coverage_and_the_interval_column_are():
    board = _html("boards/ai-iq/index.html")
    assert "Coverage: components with a value / components in the index" in board
    assert "<th scope=\"col\">Interval (95%)</th>" in board


def test_model_page_says_why_a_value_or_an_interval_is_missing_in_text():
    model = OTHER["model"]
    page = _html(f"models/{model}/index.html")
    assert 'title="no value' not in page and 'title="no interval' not in page
    # the component rows without an interval give the reason in the cell
    assert '– <span class="lb-how">no interval: no question count is known</span>' in page


def test_benchmark_pages_give_provenance_reasons_and_unknowns_as_text():
    """A benchmark row's 'imputed'/'derived' label opens to its reason (it was a `title`), and a dash for a value
    nobody knows says so to a screen reader; no cell on a benchmark page keeps either in a `title`. The fixture's
    first benchmark board gets one derived row with a reason and one row without a standard error."""
    boards = copy.deepcopy(CTX.benchmark_boards)
    bid = sorted(boards)[0]
    derived, bare = boards[bid]["rows"][0], boards[bid]["rows"][1]
    derived.update(how="derived", reason="mean of the two subsets the source reports")
    bare.update(stderr=None)
    files = render_files(dataclasses.replace(CTX, benchmark_boards=boards))
    page = files[f"benchmarks/{bid}/index.html"].decode("utf-8")
    body = page.split(f'id="bench-{bid}"', 1)[1].split("</tbody>", 1)[0]  # the results table
    assert 'title="' not in body, re.findall(r'title="[^"]*"', body)[:5]
    assert ('<details class="lb-rowd"><summary><span class="lb-how lb-how--derived">derived</span></summary>'
            "mean of the two subsets the source reports</details>") in body
    assert '–<span class="lb-sr"> not known</span>' in body
