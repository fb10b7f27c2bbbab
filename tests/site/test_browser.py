"""The built fixture site in headless Chromium: no console errors, no CSP violations, no request leaving
127.0.0.1, charts draw, sorting and filtering update the table and the URL, dark scheme, hostile names inert."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SITEGEN_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def _skip_or_fail(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser test cannot run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("playwright is not installed")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _skip_or_fail(f"chromium not found at {CHROMIUM}")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built_site):
    handler = functools.partial(_Quiet, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class Watch:
    """Collects console errors, page errors, CSP violations, dialogs and off-host requests for one page."""

    def __init__(self, page, base: str):
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", lambda m: m.type in ("error", "warning") and self._console(m))
        page.on("pageerror", lambda e: self.problems.append(f"pageerror: {e}"))
        page.on("dialog", self._dialog)
        page.on("request", lambda r: self._request(r, base))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))

    def _console(self, m):
        text = m.text
        # Chromium logs CSP violations as console errors, so they land here too.
        if m.type == "error" or "Content Security Policy" in text or "Refused" in text:
            self.problems.append(f"console {m.type}: {text}")

    def _dialog(self, d):
        self.dialogs.append(d.message)
        d.dismiss()

    def _request(self, r, base):
        url = r.url
        if not (url.startswith(base) or url.startswith("data:") or url.startswith("blob:") or url == "about:blank"):
            self.problems.append(f"off-host request: {url}")


def _open(browser, server, path, *, dark=False, width=1280):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme="dark" if dark else "light")
    page = ctx.new_page()
    page.add_init_script("""
      document.addEventListener('securitypolicyviolation', e => {
        console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI);
      });
    """)
    watch = Watch(page, server)
    page.goto(server + path, wait_until="networkidle")
    return ctx, page, watch


def _charts_drawn(page, timeout=15000):
    page.wait_for_function(
        "() => { const c = [...document.querySelectorAll('.lb-vega')];"
        " return c.length > 0 && c.every(e => e.classList.contains('lb-vega--failed') || e.querySelector('svg, canvas')); }",
        timeout=timeout)
    failed = page.locator(".lb-vega--failed").count()
    assert failed == 0, f"{failed} charts failed to draw"
    assert page.locator(".lb-vega svg").count() == page.locator(".lb-vega").count()


def _href(page) -> str:
    """The live location (page.url lags behind history.replaceState)."""
    return page.evaluate("location.href")


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def test_home(browser, server):
    ctx, page, watch = _open(browser, server, "")
    _charts_drawn(page)
    page.wait_for_timeout(300)
    _shot(page, "home")
    assert "Data last updated" in page.inner_text("article")
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_leaderboard_sort_filter_url(browser, server):
    ctx, page, watch = _open(browser, server, "boards/ai-iq/")
    table = page.locator("table.lb-table")
    first = lambda: table.locator("tbody tr:not([hidden]) th").first.inner_text()  # noqa: E731
    before = first()
    page.click("th[data-key=name] button")
    assert "sort=name" in _href(page) and "dir=asc" in _href(page)
    page.click("th[data-key=name] button")
    assert "dir=desc" in _href(page)
    assert first() != before
    assert page.get_attribute("th[data-key=name]", "aria-sort") == "descending"
    total = table.locator("tbody tr").count()
    page.select_option("select[name=weights]", "open")
    assert "weights=open" in _href(page)
    visible = table.locator("tbody tr:not([hidden])")
    assert 0 < visible.count() < total
    assert all(w == "open" for w in visible.evaluate_all("rs => rs.map(r => r.dataset.weights)"))
    page.fill("input[name=q]", "model 0000")
    assert "q=model" in _href(page)
    # the view survives a reload from the shared URL
    url = _href(page)
    page.goto(url, wait_until="networkidle")
    assert page.input_value("select[name=weights]") == "open"
    assert page.get_attribute("th[data-key=name]", "aria-sort") == "descending"
    assert table.locator("tbody tr:not([hidden])").count() == visible.count()
    # imputed cells show their reason on keyboard focus
    flag = page.locator(".lb-cell--imputed .lb-flag").first
    page.goto(server + "boards/ai-iq/", wait_until="networkidle")
    flag = page.locator(".lb-cell--imputed .lb-flag").first
    flag.focus()
    tip_id = flag.get_attribute("aria-describedby")
    assert page.locator(f"#{tip_id}").is_visible()
    _charts_drawn(page)
    _shot(page, "leaderboard")
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_model_page_with_hostile_name(browser, server):
    ctx, page, watch = _open(browser, server, "models/meta/model-00003/")
    assert "</script><script>alert(1)</script>" in page.inner_text("h1")
    _charts_drawn(page)
    page.wait_for_timeout(300)
    _shot(page, "model")
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_chart_page_dark_scheme(browser, server):
    ctx, page, watch = _open(browser, server, "charts/", dark=True)
    _charts_drawn(page)
    scheme = page.get_attribute("body", "data-md-color-scheme")
    assert scheme == "slate"
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), bg
    # the toggle switches back to light
    page.click("label[for=__palette_0]")
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'default'")
    page.click("label[for=__palette_1]")
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    _charts_drawn(page)
    page.wait_for_timeout(300)
    _shot(page, "charts-dark")
    # tooltips name the model: hover a point
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_compare_and_search(browser, server):
    ctx, page, watch = _open(browser, server, "compare/?m=openai/model-00000,evil/model-00007,meta/model-00003")
    page.wait_for_selector("table.lb-compare")
    heads = page.locator("table.lb-compare thead th").all_inner_texts()
    assert any("</script>" in h for h in heads)
    _shot(page, "compare")
    page.click("input.md-search__input")
    page.wait_for_timeout(800)  # the search worker indexes first
    page.keyboard.type("script alert", delay=30)
    page.wait_for_selector(".md-search-result__item", timeout=10000)
    _shot(page, "search")
    assert page.locator(".md-search-result script, .md-search-result img").count() == 0
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_benchmark_and_mobile(browser, server):
    ctx, page, watch = _open(browser, server, "benchmarks/gpqa-diamond/", width=390)
    _charts_drawn(page)
    _shot(page, "benchmark-mobile")
    assert watch.problems == [] and watch.dialogs == []
    ctx.close()


def test_changelog_cite_and_data_format_pages(browser, server):
    for path in ("changelog/", "cite/", "contributing/data-format/"):
        ctx, page, watch = _open(browser, server, path)
        if path == "changelog/":
            page.locator("details summary").first.click()
            assert page.locator("details[open] a").count() > 0
            _shot(page, "changelog")
        assert watch.problems == [] and watch.dialogs == [], (path, watch.problems)
        ctx.close()
