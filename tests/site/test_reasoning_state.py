"""Reasoning mode on the site: 'not stated' (the vendor is silent) apart from 'not known' (nobody has entered it),
counted in the filters, on every row as data, and rendered from the data, never from the name; and every row a
benchmark's sources give that no board shows, listed on the benchmark page with its reason."""

from __future__ import annotations

import copy
import dataclasses
import json
from functools import cache
from html.parser import HTMLParser

from fixtures import make_context

from sitegen.site import render_files
from sitegen.site.pages import Urls
from sitegen.site.views import unknown_counts


def test_unknown_counts_count_each_reasoning_state_and_weights():
    rows = [
        {"reasoning": "yes", "weights": "open", "total_b": 7.0},
        {"reasoning": "yes", "weights": "closed", "total_b": None},
        {"reasoning": "no", "weights": "unknown", "total_b": None},
        {"reasoning": "not stated", "weights": "closed", "total_b": 70.0},
        {"reasoning": "not known", "weights": "unknown", "total_b": None},
    ]
    counts = unknown_counts(rows)
    assert list(counts["by_reasoning"].items()) == [("yes", 2), ("no", 1), ("not stated", 1), ("not known", 1)]
    assert counts["by_weights"] == {"open": 1, "closed": 2, "unknown": 2}
    assert (counts["reasoning"], counts["not_stated"], counts["weights"], counts["parameters"], counts["rows"]) == (
        1, 1, 2, 3, 5)


# The small site: six models on the AI IQ board, their states written out here. Four are ranked; the board hides
# the two unranked rows at first, so the filters count the four ranked ones.
STATES = {0: ("yes", True), 1: ("not stated", None), 2: ("not known", None), 3: ("no", False),
          4: ("not stated", None), 5: ("yes", True)}
RANKS = {0: 1, 1: 2, 2: 3, 3: 4, 4: None, 5: None}  # rows 4 and 5 unranked


def _context():
    ctx = copy.deepcopy(make_context(12))
    for i, (state, reasoning) in STATES.items():
        ctx.models[i].update(reasoning=reasoning, reasoning_state=state)
    ctx.models[1]["name"] = "Plain Name <i>1</i>"  # the mark comes from the data, and the name stays escaped
    by_model = {r["model"]: r for r in ctx.boards["ai-iq"]["rows"]}
    some = next(iter(by_model.values()))
    rows = []
    for i, rank in RANKS.items():
        mid = ctx.models[i]["id"]
        row = copy.deepcopy(by_model.get(mid, some))
        row.update(model=mid, rank=rank, status="ranked" if rank else "unranked", value=100.0 - i if rank else None)
        rows.append(row)
    boards = dict(ctx.boards, **{"ai-iq": dict(ctx.boards["ai-iq"], rows=rows)})
    bench = sorted(ctx.benchmark_boards)[0]
    excluded = [{"model": ctx.models[3]["id"], "benchmark": bench, "metric": "", "subset": "",
                 "harness": "Agent <X> + Model 3", "source": ctx.sources[0]["id"], "value": 42.5,
                 "url": "https://example.org/row-14", "reason": "the row's <b>date</b> contradicts its tag"}]
    ctx = dataclasses.replace(ctx, boards=boards, excluded=excluded)
    return ctx, bench


CTX, BENCH = _context()
URLS = Urls(CTX)


@cache
def site():
    """The fixture site, rendered when a test first needs it (never at collection), once per process."""
    return render_files(CTX)


class Board(HTMLParser):
    """The filter options' text per select, each body row's attributes and header-cell text, and the legend lines."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.options: dict[str, list[str]] = {}
        self.rows: list[dict] = []
        self.names: list[str] = []
        self.legend: dict[str, str] = {}
        self.board: list[dict] = []  # the first filtered table's rows: the board itself
        self.filtered: set = set()
        self.first = None
        self._select = self._in = self._table = None
        self._tbody = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "select":
            self._select = a.get("name")
            self.options[self._select] = []
        elif tag == "option" and self._select:
            self.options[self._select].append("")
            self._in = "option"
        elif tag == "form" and "lb-filters" in (a.get("class") or ""):
            self.filtered.add(a.get("data-table"))
        elif tag == "table":
            self._table = a.get("id")
        elif tag == "tbody" and self._table in self.filtered:  # a table the filters work on
            self._tbody = True
        elif tag == "tr" and self._tbody:
            self.rows.append(a)
            if self._table != self.first:
                self.first = self.first or self._table
            if self._table == self.first:
                self.board.append(a)
        elif tag == "th" and self._tbody and self._table == self.first:
            self.names.append("")
            self._in = "th"
        elif tag == "p" and "lb-legend" in (a.get("class") or "").split():
            self._in = "legend:" + a.get("class", "")
            self.legend[self._in] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "tbody":
            self._tbody = False
        if tag in ("option", "th", "p"):
            self._in = None

    def handle_data(self, data):
        if self._in == "option":
            self.options[self._select][-1] += data
        elif self._in == "th":
            self.names[-1] += data
        elif self._in and self._in.startswith("legend:"):
            self.legend[self._in] += data


def board() -> Board:
    return Board(site()[URLS.board["ai-iq"]].decode("utf-8"))


def test_every_board_row_carries_its_reasoning_state():
    b = board()
    # ranked rows in rank order, then the unranked ones by model id
    order = [0, 1, 2, 3] + sorted((4, 5), key=lambda i: CTX.models[i]["id"])
    assert [r.get("data-reasoning") for r in b.board] == [STATES[i][0] for i in order]
    assert [r.get("data-ranked") for r in b.board] == ["1", "1", "1", "1", "0", "0"]
    # every table of the site that filters: each row has one of the four states
    tables = 0
    for path, data in site().items():
        if path.endswith(".html") and b'class="lb-filters"' in data:
            rows = Board(data.decode("utf-8")).rows
            tables += 1
            assert rows, path
            for r in rows:
                assert r.get("data-reasoning") in ("yes", "no", "not stated", "not known"), (path, r)
    assert tables > 20  # boards, their per-release views, benchmark pages and the models page


def test_filter_options_count_the_rows_the_board_shows_first():
    b = board()
    # the four ranked rows: models 0-3 are yes, not stated, not known, no
    assert b.options["reasoning"] == ["all", "yes (1)", "no (1)", "not stated (1)", "not known (1)"]
    legend = b.legend["legend:lb-legend lb-filter-unknown"]
    assert "Reasoning mode of the 4 ranked rows: yes 1 · no 1 · not stated 1 · not known 1" in legend
    assert "lb-legend lb-hides" in site()[URLS.board["ai-iq"]].decode("utf-8")  # the line the script fills


def test_mode_not_stated_is_rendered_from_the_data_and_the_name_stays_as_written():
    b = board()
    assert b.names[1] == "Plain Name <i>1</i> (mode not stated)"  # escaped name, then the mark
    assert b.names[2] == CTX.models[2]["name"]  # not known: nothing added
    assert "(mode not stated)" not in CTX.models[1]["name"]
    html = site()[URLS.board["ai-iq"]].decode("utf-8")
    assert "Plain Name &lt;i&gt;1&lt;/i&gt;</a> <span class=\"lb-mode\"" in html


def test_the_api_rows_carry_the_reasoning_state():
    from sitegen import export

    records = [{"model": m["id"], "name": m["name"], "reasoning_state": m["reasoning_state"]} for m in CTX.models]
    files = export.api_files({"ai-iq": CTX.boards["ai-iq"]}, {}, records, [], [], [])
    rows = json.loads(files["api/v1/indices/ai-iq.json"])["rows"]
    assert {r["model"]: r["reasoning_state"] for r in rows} == {CTX.models[i]["id"]: STATES[i][0] for i in RANKS}


def test_benchmark_page_lists_results_an_override_excludes_with_the_reason_and_link():
    html = site()[URLS.benchmark[BENCH]].decode("utf-8")
    start = html.index('id="not-attributed"')
    section = html[start:html.index("</details>", start)]
    assert "1 result excluded by a reviewed correction" in section
    assert "Agent &lt;X&gt; + Model 3 (tagged " in section  # the row's own name at the source, escaped
    assert "42.5" in section and "the row&#39;s &lt;b&gt;date&lt;/b&gt; contradicts its tag" in section
    assert 'href="https://example.org/row-14"' in section  # the number at its source
