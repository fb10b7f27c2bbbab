"""The built fixture site, asserted by structure (html.parser), not by snapshots."""

from __future__ import annotations

import base64
import json
import re
from functools import cache
from html.parser import HTMLParser

import numpy as np
from fixtures import HOSTILE_IMG, HOSTILE_SCRIPT, make_context

from sitegen.site import render_files
from sitegen.site.ahead import ahead_files
from sitegen.site.links import safe_url
from sitegen.site.render import script_json


class Doc(HTMLParser):
    """Collects elements (tag, attrs), the text of each <script>, and all text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str]] = []
        self.text: list[str] = []
        self._script: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "script":
            self._script = a
            self.scripts.append((a, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            a, t = self.scripts[-1]
            self.scripts[-1] = (a, t + data)
        else:
            self.text.append(data)

    def find(self, tag, **attrs):
        return [a for t, a in self.elements if t == tag and all(a.get(k) == v for k, v in attrs.items())]


def _site(n=40):
    return render_files(make_context(n))


@cache
def site():
    """The fixture site, rendered when a test first needs it (never at collection), once per process."""
    return _site()


def page(path: str) -> Doc:
    return Doc(site()[path].decode("utf-8"))


def test_every_page_has_csp_and_no_inline_scripts():
    html_pages = [p for p in site() if p.endswith(".html")]
    assert "index.html" in html_pages and len(html_pages) > 40
    for p in html_pages:
        d = page(p)
        csp = d.find("meta", **{"http-equiv": "Content-Security-Policy"})
        assert csp and "script-src 'self'" in csp[0]["content"] and "unsafe" not in csp[0]["content"], p
        for attrs, body in d.scripts:
            # every executable script is an external same-origin file; inline ones are JSON data only
            assert attrs.get("src") or attrs.get("type") == "application/json", (p, attrs)
            if attrs.get("src"):
                assert "://" not in attrs["src"], (p, attrs["src"])


def test_hostile_names_are_inert_everywhere():
    for path, data in site().items():
        text = data.decode("utf-8", "replace")
        assert HOSTILE_SCRIPT not in text, path  # never raw: escaped in HTML, \u003c in JSON
        assert HOSTILE_IMG not in text, path
    d = page("models/meta/model-00003/index.html")
    assert HOSTILE_SCRIPT in "".join(d.text)  # shown as text
    assert not [a for t, a in d.elements if t == "img"]


def test_no_unsafe_links_and_external_links_have_rel():
    for path in (p for p in site() if p.endswith(".html")):
        for a in page(path).find("a"):
            href = a.get("href", "")
            assert not href.lower().startswith(("javascript:", "data:", "vbscript:")), (path, href)
            if href.startswith(("http://", "https://")):
                assert a.get("rel") == "noopener nofollow", (path, href)


def test_leaderboard_table_rows_and_marked_cells():
    ctx = make_context(40)
    d = page("boards/ai-iq/index.html")
    rows = [a for t, a in d.elements if t == "tr" and "data-ranked" in a]
    assert len(rows) == len(ctx.boards["ai-iq"]["rows"])
    assert {r.get("data-weights", "unknown") for r in rows} <= {"open", "closed", "unknown"}
    heads = [a["data-key"] for t, a in d.elements if t == "th" and "data-key" in a]
    # the fixture's AI IQ rows carry tiers (as annotate() writes them), so the range (tier) column follows the rank;
    # the value comes right after the name, so a phone shows it without sideways scrolling (issue 29)
    assert heads[:5] == ["rank", "tier", "name", "value", "org"] and "coverage" in heads and "status" in heads
    table = next(a for t, a in d.elements if t == "table" and "lb-table" in a.get("class", ""))
    first = int(table["data-first-cell"])
    cols = [a for t, a in d.elements if t == "th" and a.get("scope") == "col"]
    assert cols[first].get("data-key") == "c0"  # the first component column, after the interval's
    # provenance is marked by a one-letter class per cell; the reasons, sources and dates live once in cells.json
    marks = [a.get("class") for t, a in d.elements if t == "td" and a.get("class") in ("i", "d", "p", "m", "x")]
    assert "i" in marks and not [a for t, a in d.elements if a.get("role") == "tooltip"]
    data = json.loads(site()["boards/ai-iq/cells.json"])
    assert [r[0] for r in data["rows"]] == [r["model"] for r in sorted(
        ctx.boards["ai-iq"]["rows"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0, -(r.get("value") or 0), r["model"]))]
    imputed = [c for _, cells in data["rows"] for c in cells if c[0] == "i"]
    assert imputed and all(data["notes"][c[1]].startswith("Imputed") for c in imputed)
    observed = [c for _, cells in data["rows"] for c in cells if c[0] == "o" and len(c) > 3]
    assert observed and all(data["sources"][c[2]][0] and re.match(r"\d{4}-\d\d-\d\d$", data["dates"][c[3]]) for c in observed)
    assert len(data["columns"]) == len([h for h in heads if re.match(r"c\d+$", h)])


def test_board_pages_stay_small():
    """The heaviest board must stay readable on a phone: no board page over 600 KB of HTML (real data in
    test_real_shapes); here, per row, the page costs well under a kilobyte."""
    ctx = make_context(40)
    for bid in ctx.boards:
        html = site()[f"boards/{bid}/index.html"]
        rows = len(ctx.boards[bid]["rows"])
        assert len(html) < 600_000 and (len(html) - 40_000) / max(rows, 1) < 1000, (bid, len(html), rows)


def test_model_page_links_every_result_to_its_source():
    ctx = make_context(40)
    m = next(m for m in ctx.models if m["id"] == "openai/model-00000")
    d = page("models/openai/model-00000/index.html")
    ext = [a["href"] for a in d.find("a") if a.get("href", "").startswith("https://example.org/")]
    for r in m["results"]:
        if safe_url(r["url"]):
            assert r["url"] in ext
    assert [a for t, a in d.elements if t == "h3" and a.get("id", "").startswith("idx-")]
    charts = [a for t, a in d.elements if t == "div" and a.get("class") == "lb-vega"]
    assert charts and all(c["data-highlight"] == "openai/model-00000" for c in charts)
    assert all(c["data-spec"].startswith("../../../assets/charts/") for c in charts)


def test_model_page_shows_intervals_rank_ranges_tiers_and_imputed_share():
    """Model 5 on AI IQ: components 1-4 with the third imputed ((5 + 2) % 7 == 0), so 1 of 4 = 25.0% imputed; the
    fixture gives the first component a published interval of value ± 2 and the others none, with the reason."""
    row = next(r for r in make_context(40).boards["ai-iq"]["rows"] if r["model"] == "deepseek/model-00005")
    html = site()["models/deepseek/model-00005/index.html"].decode("utf-8")
    section = html[html.index('id="idx-ai-iq"'):]
    section = section[:section.index("</table>")]
    lo, hi = row["interval"]
    k = row["rank"] - 1
    rank_range = f"{max(1, k - 1)}–{k + 3}"
    assert f"Rank {row['rank']} of " in section
    assert f"ranked {rank_range} in 95% of simulations, tier {1 + k // 5}" in section
    assert f"95% interval <span title=\"95% interval, derived: simulated from component intervals: 1 derived\">{lo:.1f}–{hi:.1f}</span>" in section
    assert "25.0% of the value imputed" in section
    first = row["components"][0]["value"]
    assert f'<span title="95% interval, as published">{first - 2:.1f}–{first + 2:.1f}</span> <span class="lb-how">as published</span>' in section
    assert section.count('– <span class="lb-how">no interval: no question count is known</span>') == 3  # visible, not a title
    glance = html[html.index("At a glance"):html.index("</table>", html.index("At a glance"))]
    assert f"{lo:.1f}–{hi:.1f}" in glance and f"ranked {rank_range} in 95% of simulations" in glance


def test_chart_specs_are_shared_and_keep_names_out_of_expressions():
    specs = {p: json.loads(site()[p]) for p in site() if p.startswith("assets/charts/")}
    assert {"assets/charts/iq-vs-cost.json", "assets/charts/anchor-curves.json", "assets/charts/hle-calibration.json"} <= set(specs)
    for p, spec in specs.items():
        assert any(prm["name"] == "hl" for prm in spec["params"]), p
        exprs = re.findall(r'"(?:test|filter|expr|calculate)":"([^"]*)"', site()[p].decode())
        for e in exprs:
            assert "alert" not in e and "<" not in e, (p, e)
        assert spec.get("description")


def test_composite_scatter_charts_draw_the_95_percent_interval_as_error_bars():
    """The fixture's AI IQ rows carry value ± 3.5 as their interval; the AA boards carry none."""
    ctx = make_context(40)
    iq = {r["model"]: r for r in ctx.boards["ai-iq"]["rows"] if r["value"] is not None}
    for kind in ("iq-vs-cost", "iq-vs-speed"):
        spec = json.loads(site()[f"assets/charts/{kind}.json"])
        bars = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
        assert len(bars) == 1 and spec["layer"][0] is bars[0]  # behind the points
        assert bars[0]["encoding"]["y"]["field"] == "lo" and bars[0]["encoding"]["y2"]["field"] == "hi"
        rows = spec["datasets"]["points"]
        assert rows
        for r in rows:
            value = iq[r["model"]]["value"]
            assert (r["lo"], r["hi"]) == (round(value - 3.5, 1), round(value + 3.5, 1))
            assert r["ci"] == f"{value - 3.5:.1f}–{value + 3.5:.1f}"
    aa = json.loads(site()["assets/charts/aa-vs-price.json"])
    assert not [layer for layer in aa["layer"] if layer["mark"]["type"] == "rule"]
    assert all("lo" not in r and "ci" not in r for r in aa["datasets"]["points"])


def test_charts_have_text_fallbacks():
    d = page("charts/index.html")
    figures = [a for t, a in d.elements if t == "figure"]
    details = [a for t, a in d.elements if t == "details"]
    assert len(figures) == len(details) >= 8


def test_search_index_is_materials_format_and_escaped():
    idx = json.loads(site()["search/search_docs.json"])
    assert set(idx) == {"config", "docs"} and idx["config"]["lang"] == ["en"]
    titles = [d["title"] for d in idx["docs"]]
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in titles


def test_search_entries_carry_the_names_that_rank_a_model_first():
    """static/js/search-worker.js ranks a result first when the typed query, as lower-case words, is one of its
    `exact` names; next the other configurations of its `release` and models whose `config` names match."""
    from sitegen.site.search import _model_doc, words

    assert words("GPT-5.1 (high)") == "gpt 5 1 high" and words(" openai/gpt-5_high ") == "openai gpt 5 high"
    m = {"id": "openai/gpt-5.1-high", "name": "GPT-5.1 (high)", "release": "openai/gpt-5.1", "organization": "OpenAI",
         "aliases": ["gpt-5.1-2025-11-13_high", "GPT 5.1 High"]}
    doc = _model_doc(m, "models/openai/gpt-5.1-high/")
    # name, id, id without organisation (same words as the name: once), aliases (the second is the name again)
    assert doc["exact"] == ["gpt 5 1 high", "openai gpt 5 1 high", "gpt 5 1 2025 11 13 high"]
    # the name without its configuration, the release id, the release without organisation (same words: once)
    assert doc["config"] == ["gpt 5 1", "openai gpt 5 1"] and doc["release"] == "openai gpt 5 1"
    # a model without a release is its own release; a hostile name is escaped in the title, words elsewhere
    doc = _model_doc({"id": "x/y", "name": "<b>Y</b> (a)"}, "models/x/y/")
    assert doc["title"] == "&lt;b&gt;Y&lt;/b&gt; (a)" and doc["config"] == ["b y b", "x y", "y"] and doc["release"] == "x y"
    idx = json.loads(site()["search/search_docs.json"])
    models = [d for d in idx["docs"] if d["location"].startswith("models/") and d["location"] != "models/"]
    assert models and all(d["exact"] and d["config"] and d["release"] for d in models)
    assert "." in idx["config"]["separator"]  # "gpt 5.1" and "gpt-5.1" both read 5.1 as two terms


def test_compare_embeds_escaped_json():
    d = page("compare/index.html")
    data = [body for a, body in d.scripts if a.get("id") == "compare-data"][0]
    assert "<" not in data and json.loads(data)["models"]
    assert str(script_json({"x": "</script>&"})) == '{"x":"\\u003c/script\\u003e\\u0026"}'


def test_compare_gets_each_models_simulated_ranks_one_file_per_model():
    ctx = make_context(40)
    block = ctx.ahead["ai-iq"]
    number = {m["id"]: i for i, m in enumerate(sorted(ctx.models, key=lambda m: m["id"]))}
    data = json.loads(re.search(r'<script type="application/json" id="compare-data">(.*?)</script>',
                                site()["compare/index.html"].decode("utf-8"), re.S).group(1))
    assert {b[0]: b[8] for b in data["boards"]}["ai-iq"] == 1000
    assert all(b[8] is None for b in data["boards"] if b[0] != "ai-iq")
    assert {m[0] for m in data["models"] if m[8] == 1} == set(block["models"])
    first, third, sixth = (number[block["models"][k]] for k in (0, 2, 5))
    # the fixture's draws (fixtures.py): the 1st row is ranked 1st in 600 draws, 2nd in 50 and 3rd in 350; the 3rd
    # row 3rd in 600, 2nd in 100 and 1st in 300; the 6th 6th in all. An entry is [best rank, bytes per draw,
    # base64 of each draw's offset from the best rank].
    assert json.loads(site()[f"compare/ahead/{first}.json"]) == {"model": block["models"][0], "boards": {
        "ai-iq": [1, 1, base64.b64encode(bytes([0] * 600 + [1] * 50 + [2] * 350)).decode()]}}
    assert json.loads(site()[f"compare/ahead/{third}.json"]) == {"model": block["models"][2], "boards": {
        "ai-iq": [1, 1, base64.b64encode(bytes([2] * 600 + [1] * 100 + [0] * 300)).decode()]}}
    assert json.loads(site()[f"compare/ahead/{sixth}.json"]) == {"model": block["models"][5], "boards": {
        "ai-iq": [6, 1, base64.b64encode(bytes(1000)).decode()]}}
    assert len([p for p in site() if p.startswith("compare/ahead/")]) == len(block["models"])

    def ranks(n):
        best, width, offsets = json.loads(site()[f"compare/ahead/{n}.json"])["boards"]["ai-iq"]
        return best + np.frombuffer(base64.b64decode(offsets), dtype=f"<u{width}")

    # what the page shows for the 1st and the 3rd: ahead in 600 draws, behind in 350, tied in the other 50
    assert [np.sum(ranks(first) < ranks(third)), np.sum(ranks(third) < ranks(first))] == [600, 350]


def test_ahead_files_write_ranks_in_as_few_bytes_as_their_span_needs():
    block = {"simulations": 3, "models": ["x", "y", "z"], "ranks": [1, 2, 3],
             "draws": np.array([[1, 300, 2], [2, 1, 1], [3, 3, 3]], dtype=np.uint16)}
    files = ahead_files({"b": block}, {"x": 7, "y": 0})  # z is not on the compare page: no file
    # x spans 299 places: two bytes per draw, little-endian offsets 0, 299 (0x012b) and 1
    assert files == {"compare/ahead/7.json": {"model": "x", "boards": {"b": [1, 2, base64.b64encode(
                         bytes([0x00, 0x00, 0x2b, 0x01, 0x01, 0x00])).decode()]}},
                     "compare/ahead/0.json": {"model": "y", "boards": {"b": [1, 1, base64.b64encode(
                         bytes([1, 0, 0])).decode()]}}}


def test_markdown_has_no_raw_html_or_js_links():
    html = site()["methodology/ai-iq/index.html"].decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript:' not in html
    assert "<table>" in html  # Markdown tables render


def test_deterministic_output():
    again = _site()
    assert again.keys() == site().keys()
    assert [p for p in site() if site()[p] != again[p]] == []


def test_downloads_page_lists_api_files_and_licences():
    d = page("downloads/index.html")
    hrefs = [a.get("href") for a in d.find("a")]
    assert "../api/v1/boards/ai-iq.json" in hrefs
    text = "".join(d.text)
    assert "CC BY 4.0" in text and "check each card" in text


def test_markdown_shows_off_site_images_as_text():
    """A methodology page must not make readers' browsers fetch from another host."""
    from sitegen.site.render import markdown

    html = str(markdown("![pixel](https://tracker.example/p.gif) ![logo](img/logo.png) ![x](//cdn.example/x.png)"))
    assert "<img" in html and html.count("<img") == 1 and 'src="img/logo.png"' in html
    assert "[image: pixel] (https://tracker.example/p.gif)" in html
    assert "cdn.example" in html and 'src="//cdn.example' not in html


def test_token_vs_effective_cost_chart_pairs_each_models_two_costs():
    # AI IQ's cost view: for every model on the cost board, x = its token-cost component, y = its effective cost
    # (the board value); the fixture's token cost is 0.6 x the effective cost, so every point has y / x = 1 / 0.6.
    spec = json.loads(site()["assets/charts/token-vs-effective-cost.json"])
    points = spec["datasets"]["points"]
    cost = {r["model"]: r for r in make_context(40).boards["cost"]["rows"]}
    assert points and {p["model"] for p in points} <= set(cost)
    for p in points:
        token = next(c["value"] for c in cost[p["model"]]["components"] if c["id"] == "token-cost")
        assert (p["token"], p["cost"]) == (token, cost[p["model"]]["value"])
        assert abs(p["cost"] / p["token"] - 1 / 0.6) < 0.02 / 0.6
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == spec["layer"][0]["encoding"]["y"]["scale"]["type"] == "log"
    assert "USD per task" in spec["layer"][0]["encoding"]["y"]["title"]


def test_units_a_reader_would_question():
    # Token and effective cost are USD per task (2M input + 1M output tokens); AI IQ's columns are IQ points.
    assert "Token cost (USD per task)" in site()["boards/cost/index.html"].decode()
    iq = site()["boards/ai-iq/index.html"].decode()
    assert "(IQ points)" in iq and "unit: IQ points" in iq


def test_pages_describe_themselves_and_link_to_their_data_files():
    import dataclasses

    ctx = dataclasses.replace(make_context(40), repo_url="https://github.com/acme/boards",
                              site_url="https://acme.github.io/boards/")
    files = render_files(ctx)
    board = Doc(files["boards/ai-iq/index.html"].decode())
    metas = {a.get("property") or a.get("name"): a.get("content") for t, a in board.elements if t == "meta"}
    assert metas["og:title"] == "AI IQ" and metas["og:url"] == "https://acme.github.io/boards/boards/ai-iq/"
    assert metas["description"] == metas["og:description"] == metas["twitter:description"]
    assert "ranked models" in metas["description"]
    links = [a["href"] for t, a in board.elements if t == "a" and a.get("href", "").startswith("https://github.com/acme/")]
    assert "https://github.com/acme/boards/edit/HEAD/methodology/indices/ai-iq.yaml" in links
    assert any(h.startswith("https://github.com/acme/boards/issues/new?template=report-wrong-score.yml&") for h in links)
    model = Doc(files["models/openai/model-00000/index.html"].decode())
    links = [a["href"] for t, a in model.elements if t == "a" and a.get("href", "").startswith("https://github.com/acme/")]
    assert "https://github.com/acme/boards/edit/HEAD/scores/models/openai/model-00000.yaml" in links
    assert any("model-id=openai%2Fmodel-00000" in h for h in links)
    # without a repository address there are no such links (never a link to nowhere)
    bare = render_files(dataclasses.replace(ctx, repo_url=""))
    assert b"lb-contribute" not in bare["boards/ai-iq/index.html"] and b"/edit/HEAD/" not in bare["models/openai/model-00000/index.html"]
    # 404.html links from the site URL's path, whatever depth it is served at
    nf = Doc(files["404.html"].decode())
    hrefs = [a.get("href") or a.get("src") for t, a in nf.elements if t in ("a", "link", "script") and (a.get("href") or a.get("src"))]
    local = [h for h in hrefs if not h.startswith(("https://", "#"))]
    assert local and all(h.startswith("/boards/") for h in local), local


def test_methodology_page_explains_its_definition_in_sections_not_a_dump():
    """One heading per index version; the settings in words, the anchor tables as tables with units, a link to the
    file; no nested key/value dump."""
    html = site()["methodology/ai-iq/index.html"].decode()
    d = Doc(html)
    assert d.find("h2", id="ai-iq") and "AI IQ, version 1.0" in d.text
    assert "lb-kv" not in html and "lb-def\"" not in html
    # the fixture's Academic reasoning dimension: four benchmarks, each with its anchor table (score row, IQ row)
    assert "Academic reasoning (knowledge)" in d.text
    text = " ".join(" ".join(d.text).split())
    assert text.count("Implied IQ") == 4 and "0 25 50 75 100" in text and "70 85 100 118 131" in text
    assert "Definition file:" in text and "https://github.com/example/leaderboards/edit/HEAD/methodology/indices/ai-iq.yaml" in [
        a.get("href") for a in d.find("a")]
    # the benchmark names link to their pages, from this page's depth
    bench = [a.get("href") for a in d.find("a") if (a.get("href") or "").startswith("../../benchmarks/")]
    assert len(bench) >= 4, bench
    # the overview lists every definition once, linking to the page that explains it (the fixture has no AA page)
    over = Doc(site()["methodology/index.html"].decode())
    rows = " ".join(" ".join(over.text).split())
    assert "Index definitions" in rows and "AI IQ 1.0 AI IQ" in rows and "AA Intelligence v3.0" in rows
    assert "ai-iq/#ai-iq" in [a.get("href") for a in over.find("a")]


def test_every_real_definition_is_shown_whole_and_in_words():
    """For every file in methodology/indices/: no field left to the 'Other settings' fallback, and every number
    in the file appears on the page (as written, or as a percentage for levels and shares)."""
    import dataclasses
    from pathlib import Path

    import yaml

    from sitegen.site import methodology
    from sitegen.site.pages import Urls
    from sitegen.site.views import Lookups

    root = Path(__file__).resolve().parents[2] / "methodology" / "indices"
    defs = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.yaml"))}
    ctx = dataclasses.replace(make_context(5), index_defs=defs)
    lk = Lookups(ctx, Urls(ctx))

    for i, d in defs.items():
        v = methodology.definition_view(d, ctx, lk, lambda b: None)
        assert v["other"] == [], (i, v["other"])
        assert methodology.page_stem(i, ctx.presentation.methodology_pages) in {
            "aa-intelligence", "ai-iq", "ai-eq", "cost", "hle", "pedagogy", "index"}
        shown = " ".join(str(x) for x in _flatten(v))
        for n in (x for x in _flatten(d) if isinstance(x, (int, float)) and not isinstance(x, bool)):
            assert methodology.num(n) in shown or methodology.pct(n) in shown, (i, n)


def test_ai_iq_definition_names_the_benchmarks_family_match_is_off_on():
    import copy
    import dataclasses
    from pathlib import Path

    import yaml

    from sitegen.site import methodology
    from sitegen.site.pages import Urls
    from sitegen.site.views import Lookups

    real = yaml.safe_load((Path(__file__).resolve().parents[2] / "methodology/indices/ai-iq.yaml").read_text("utf-8"))
    off = copy.deepcopy(real)
    for dim in off["dimensions"]:
        for b in dim["benchmarks"]:
            if b["benchmark"] in ("hle", "aime-2025"):
                b["family_match"] = False
    ctx = dataclasses.replace(make_context(5), index_defs={"ai-iq": off})
    lk = Lookups(ctx, Urls(ctx))

    def fact(d):
        return dict(methodology.definition_view(d, ctx, lk, lambda b: None)["facts"])["Family match"]

    assert fact(off).endswith(f"never match; off on {lk.bench_name('aime-2025')}, {lk.bench_name('hle')}, where its "
                              "held-out error is worse than the fallback's")
    assert fact(real).endswith("never match") and fact(dict(real, family_match=False)) == "off"


def _flatten(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from _flatten(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _flatten(v)
    else:
        yield x


def test_a_board_links_to_the_methodology_section_of_its_own_version():
    import dataclasses

    from sitegen.site.assembly import _methodology_for
    from sitegen.site.pages import Urls

    base = make_context(5)
    defs = {**base.index_defs, "aa-coding-v3-0": {"id": "aa-coding-v3-0", "kind": "weighted-mean", "name": "AA Coding"}}
    pages = {**base.methodology_pages, "aa-intelligence.md": "# AA\n"}
    ctx = dataclasses.replace(base, index_defs=defs, methodology_pages=pages)
    urls = Urls(ctx)
    # the AA page explains two definitions (v3.0 and the coding sub-index): a board links to its own section
    assert _methodology_for(ctx, urls, "aa-coding-v3-0") == "methodology/aa-intelligence/#aa-coding-v3-0"
    assert _methodology_for(ctx, urls, "aa-intelligence-v3-0") == "methodology/aa-intelligence/#aa-intelligence-v3-0"
    # a page with one definition: its top (the prose first); a board without a page: no link
    assert _methodology_for(ctx, urls, "ai-iq") == "methodology/ai-iq/"
    assert _methodology_for(ctx, urls, "pedagogy-cdpk") is None


def test_search_worker_imports_the_vendored_worker_the_page_does_not_load_itself():
    """base.html points mkdocs-material at static/js/search-worker.js, which imports material's worker by its
    hashed file name: a re-vendored material with a new name must update both (vendor.sh says so)."""
    import re as _re

    worker = site()["assets/js/search-worker.js"].decode()
    target = _re.search(r'importScripts\("\.\./([^"]+)"\)', worker).group(1)
    assert "assets/" + target in site()
    assert '"search":"assets/js/search-worker.js"' in site()["index.html"].decode().replace(" ", "")


def test_model_page_shows_the_measurement_interval():
    """The fixture's AI IQ rows have a total interval of value ± 3.5 and a measurement-only one of value ± 1.5:
    the model page gives the second beside the first."""
    rows = {r["model"]: r for r in make_context(40).boards["ai-iq"]["rows"]}
    row = rows["deepseek/model-00005"]
    html = site()["models/deepseek/model-00005/index.html"].decode("utf-8")
    lo, hi = row["interval_measurement"]
    assert f"(measurement error alone: {lo:.1f}–{hi:.1f})" in html


def test_methodology_pages_show_the_builds_figures_and_calibration():
    """uncertainty.md ends with the build's figures per composite board; the AI IQ page's definition section
    carries the calibration table (fixture: benchmark rule on MMLU-Pro, bias −3.25 over 40 cases; the family rule
    with one case has no estimate)."""
    ctx = make_context(40)
    text = " ".join(page("methodology/uncertainty/index.html").text)
    assert "Figures from this build" in text and "Median width, measurement alone" in text
    iq = [r for r in ctx.boards["ai-iq"]["rows"] if r.get("interval")]
    widths = sorted(r["interval"][1] - r["interval"][0] for r in iq)
    assert f"{(widths[(len(widths) - 1) // 2] + widths[len(widths) // 2]) / 2:.1f}" == "7.0"  # every row: ± 3.5
    assert " 7.0 " in f" {text} " and " 3.0 " in f" {text} "
    doc = " ".join(page("methodology/ai-iq/index.html").text)
    assert "Imputation error, calibrated out of fold (this build)" in doc
    assert "−3.25" in doc and "95.0% of 40" in doc and "100.0% / 90.0% / –" in doc
