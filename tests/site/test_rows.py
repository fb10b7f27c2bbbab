"""The table rows built in Python (site/render.py: bench_rows_html, category_rows_html, board_rows_html): the
markup the templates' loops wrote, each value from the data escaped, the optional columns only where the view has
them. HTML asserted by structure (html.parser) and, for the small rows here, as text."""

from __future__ import annotations

from html.parser import HTMLParser

from sitegen.site.render import bench_rows_html, board_rows_html, category_rows_html

HOSTILE = "<script>alert('x')</script> & \"q\""


def row(**extra) -> dict:
    """A row's model fields as views.model_meta gives them."""
    base = {"name": "Alpha (high)", "href": "models/acme/alpha/", "org": "Acme", "reasoning": "yes",
            "weights": "open", "total_b": None, "aka": ""}
    return {**base, **extra}


class Cells(HTMLParser):
    """Each <tr> as its list of cell texts; no element other than the expected ones."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: set[str] = set()
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def cells(markup: str) -> Cells:
    parser = Cells()
    parser.feed(str(markup))
    return parser


def bench_view(rows, **flags) -> dict:
    view = {"rows": rows, "digits": 1, "stderr_digits": 2, "has_ci": False, "has_stderr": False,
            "has_harness": False, "one_source": "", "one_retrieved": ""}
    return {**view, **flags}


def bench_row(**extra) -> dict:
    base = {"rank": 1, "value": 41.25, "how": "observed", "reason": "", "url": "", "source": "The paper",
            "retrieved": "2025-06-01", "stderr": None, "ci": None, "harness": "", "self_reported": False, "also": []}
    return row(**{**base, **extra})


def test_a_benchmark_row_writes_the_templates_markup():
    out = bench_rows_html(bench_view([bench_row()]), "../../")
    assert str(out) == (
        '<tr data-reasoning="yes" data-weights="open">\n'
        '<td data-sort="1.0">1</td>\n'
        '<th scope="row" data-sort="Alpha (high)"><a href="../../models/acme/alpha/">Alpha (high)</a></th>\n'
        '<td data-sort="Acme">Acme</td>\n'
        '<td data-sort="41.25" class="lb-value">41.3</td>\n'
        '<td data-sort="The paper">The paper</td><td data-sort="2025-06-01">2025-06-01</td>'
        '<td data-sort="third">third-party</td>\n</tr>\n'
    )


def test_a_benchmark_row_has_the_optional_columns_only_when_the_view_has_them():
    rows = [
        bench_row(rank=None, value=None, ci=(40.0, 42.5), stderr=0.5, harness="tools", how="imputed",
                  reason="from the sibling", also=[{"harness": "a", "value": 1.0}, {"harness": "b", "value": 2.0},
                                                   {"harness": "c", "value": 3.0}], self_reported=True),
        bench_row(rank=2),
    ]
    view = bench_view(rows, has_ci=True, has_stderr=True, has_harness=True, one_source="The paper",
                      one_retrieved="2025-06-01")
    parsed = cells(bench_rows_html(view, ""))
    assert parsed.rows == [
        ["–", "Alpha (high)", "Acme", "– imputedfrom the sibling", "40.0–42.5", "0.50",
         "toolsalso a 1.0, b 2.0 and 1 more runs (model page)", "self-reported"],
        ["2", "Alpha (high)", "Acme", "41.3", "– not known", "– not known", "–", "third-party"],
    ]


def test_every_value_of_a_row_is_escaped():
    hostile = bench_row(name=HOSTILE, org=HOSTILE, source=HOSTILE, retrieved=HOSTILE, harness=HOSTILE,
                        url="https://example.org/?a=1&b=\"2\"", how="imputed", reason=HOSTILE,
                        also=[{"harness": HOSTILE, "value": 1.0}])
    out = str(bench_rows_html(bench_view([hostile], has_harness=True), ""))
    assert "<script>" not in out and "alert(&#39;x&#39;)" in out
    assert 'href="https://example.org/?a=1&amp;b=&#34;2&#34;"' in out
    assert cells(out).tags == {"tr", "td", "th", "a", "details", "summary", "span", "br"}
    board = board_view([board_row(name=HOSTILE, org=HOSTILE, status=HOSTILE, notes=HOSTILE, rank_range=HOSTILE,
                                  tier=1, interval=(1.0, 2.0), interval_method=HOSTILE, interval_note=HOSTILE)],
                       has_tier=True, has_interval=True, has_notes=True)
    out = str(board_rows_html(board, ""))
    assert "<script>" not in out and out.count("&lt;script&gt;") == 7  # name, range, method, note, org, status, notes
    table = category_table([row(name=HOSTILE, cells=[{"value": 3.0, "url": "https://x.example/", "title": HOSTILE}])])
    out = str(category_rows_html(table, ""))
    assert "<script>" not in out and 'title="&lt;script&gt;' in out


def board_view(rows, **flags) -> dict:
    view = {"rows": rows, "digits": 1, "has_tier": False, "has_interval": False, "has_components": False,
            "has_notes": False}
    return {**view, **flags}


def board_row(**extra) -> dict:
    base = {"rank": 1, "ranked": True, "tier": None, "rank_range": "", "value": 130.04, "breakdown": "", "url": "",
            "manual": None, "manual_url": "", "interval": None, "interval_measurement": None, "interval_method": "",
            "interval_note": "", "have": 5, "of": 6, "status": "complete", "cells": [], "notes": ""}
    return row(**{**base, **extra})


def test_a_board_row_writes_the_templates_markup():
    out = board_rows_html(board_view([board_row()]), "../")
    assert str(out) == (
        '<tr data-reasoning="yes" data-weights="open" data-ranked="1"><td>1</td><th scope="row">'
        '<a href="../models/acme/alpha/">Alpha <i>high</i></a></th><td class="v">130.0</td><td>Acme</td>'
        '<td class="st">complete</td></tr>\n'
    )


def test_a_board_row_has_the_optional_columns_only_when_the_view_has_them():
    full = board_row(tier=2, rank_range="2–5", interval=(120.0, 140.0), interval_measurement=(125.0, 135.0),
                     interval_method="simulated", interval_note="wide", breakdown="models/acme/alpha/#ai-iq",
                     manual={"value": 128.0}, manual_url="https://example.org/iq", notes="a note",
                     cells=[{"how": "observed", "value": 50.0, "digits": 1}, {"how": "imputed", "value": 7.5,
                                                                               "digits": 1}])
    unranked = board_row(rank=None, ranked=False, value=None, tier=None, rank_range="", of=0, status="unranked",
                         reasoning="not stated", href="")
    view = board_view([full, unranked], has_tier=True, has_interval=True, has_components=True, has_notes=True)
    out = str(board_rows_html(view, ""))
    assert cells(out).rows == [
        ["1", "2–5 (2)", "Alpha high", "130.0 manual 128.0", "120.0–140.0 simulatedwide", "Acme", "5/6", "complete",
         "50.0", "7.5", "a note"],
        ["–", "", "Alpha high (mode not stated)", "–", "–", "Acme", "", "unranked", ""],
    ]
    assert ' data-m="125.0–135.0"' in out and '<a href="models/acme/alpha/#ai-iq">130.0</a>' in out
    assert '<td class="st lb-status--unranked">' in out and 'data-ranked="0"' in out


def test_a_manual_value_beside_a_value_without_a_link_is_a_link_not_text():
    # neither a breakdown nor a source address: the value is plain text, and the manual value beside it a link
    out = str(board_rows_html(board_view([board_row(manual={"value": 128.0}, manual_url="https://example.org/iq")]),
                              ""))
    assert '<td class="v">130.0 <a class="lb-manual" href="https://example.org/iq" rel="noopener nofollow">manual 128.0</a></td>' in out
    assert "&lt;a" not in out


def test_rows_past_the_thirtieth_of_a_long_board_are_marked_later():
    rows = [board_row(rank=i) for i in range(1, 122)]
    out = str(board_rows_html(board_view(rows), ""))
    assert out.count(' class="lb-later"') == 121 - 30
    assert ' class="lb-later"' not in str(board_rows_html(board_view(rows[:120]), ""))


def category_table(rows) -> dict:
    return {"rows": rows, "digits": 1}


def test_a_category_row_says_when_a_category_is_not_reported():
    table = category_table([row(cells=[{"value": 3.25, "url": "https://x.example/", "title": "The paper, retrieved 2025"},
                                       None, {"value": 4.0, "url": "", "title": ""}])])
    out = str(category_rows_html(table, ""))
    assert cells(out).rows == [["Alpha (high)", "3.3", "– not reported", "4.0"]]
    assert '<td data-sort="" class="lb-value">–<span class="lb-sr"> not reported</span></td>' in out
    assert 'title="The paper, retrieved 2025">3.3</a>' in out


def test_the_row_helpers_escape_as_markupsafe_does():
    """render._esc: markupsafe.escape's text for a str, a Markup left as it is, other values by their text."""
    from markupsafe import Markup, escape

    from sitegen.site.render import _esc

    for value in (HOSTILE, "plain", "", "a'b\"c<d>e&f", "&amp;", 3, 2.5, None):
        assert _esc(value) == str(escape(value))
    assert type(_esc(HOSTILE)) is str
    assert _esc(Markup("<b>x</b>")) == "<b>x</b>"
    assert _esc(HOSTILE) == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#34;q&#34;"


def test_a_model_link_is_not_escaped_twice_and_marks_an_unstated_mode():
    from sitegen.site.render import model_link_html

    linked = model_link_html(row(name="A & B", reasoning="not stated"), "../")
    assert str(linked) == (
        '<a href="../models/acme/alpha/">A &amp; B</a> <span class="lb-mode">(mode not stated)</span>'
    )
    bare = model_link_html(row(name="<C>", href=None), "../")
    assert str(bare) == "&lt;C&gt;"


def test_a_model_pages_row_tables_are_its_rows_each_with_a_newline():
    """component_rows_html and result_rows_html: what model.html's loops wrote, one row and a newline each."""
    from sitegen.site.render import component_row_html, component_rows_html, result_row_html, result_rows_html

    comp = {"kind": "benchmark", "interval": None, "value": 61.25, "interval_title": "no interval: one run",
            "how": "observed", "uid": "m-b-0", "note": "", "unit": "percent", "digits": 1, "url": None,
            "title": "", "name": "GPQA <Diamond>", "raw": 61.25, "raw_unit": "percent", "raw_digits": 1,
            "reason": "", "source": "Acme", "retrieved": "2026-01-02"}
    rows = str(component_rows_html([comp, {**comp, "kind": "dimension", "value": None}]))
    assert rows == str(component_row_html(comp)) + "\n" + str(component_row_html({**comp, "kind": "dimension",
                                                                                 "value": None})) + "\n"
    assert rows.startswith('<tr><th scope="row">GPQA &lt;Diamond&gt;</th><td data-sort="61.25" class="lb-cell">61.3%')  # half up
    result = {**row(), "value": 1.5, "unit": "", "digits": 1, "url": None, "self_reported": False, "override": "",
              "notes": "n", "metric": "", "subset": "", "stderr": None, "harness": "", "source": "S",
              "retrieved": "", "published": ""}
    assert str(result_rows_html([result], "../")) == str(result_row_html(result, "../")) + "\n"
    assert str(result_rows_html([], "../")) == str(component_rows_html([])) == ""


def test_clean_makes_nested_values_json_safe_the_same_way_at_every_depth():
    """render.clean: NaN and infinities -> None in dicts, lists and tuples at any depth (the fast path for plain
    values and finite floats), keys as text, sets sorted, numpy scalars as Python numbers."""
    import numpy as np

    from sitegen.site.render import clean, dumps

    nan, inf = float("nan"), float("inf")
    data = {"a": [1.5, nan, (inf, -inf, 2)], 3: {"b": nan, "c": {1, 0}}, "d": (None, True, "x"), "e": np.float64(nan),
            "f": [np.int64(4), np.float64(0.5)], "g": -0.0}
    assert clean(data) == {"a": [1.5, None, [None, None, 2]], "3": {"b": None, "c": [0, 1]}, "d": [None, True, "x"],
                           "e": None, "f": [4, 0.5], "g": -0.0}
    assert dumps(data) == ('{"3":{"b":null,"c":[0,1]},"a":[1.5,null,[null,null,2]],"d":[null,true,"x"],'
                           '"e":null,"f":[4,0.5],"g":-0.0}')
    assert clean(nan) is None and clean([]) == [] and clean(()) == []
