"""`sitegen serve` in headless Chromium: the open page reloads itself when a rebuild finishes, under the site's own
Content-Security-Policy (the reload script is a file from the same origin, so `script-src 'self'` allows it)."""

from __future__ import annotations

import threading
import time

from sitegen.contrib import serve
from sitegen.site.assembly import CSP


def page_html(text: str) -> str:
    return (f'<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f"<link rel=icon href=\"data:,\"><title>t</title></head><body><p id=n>{text}</p></body></html>")


def test_the_open_page_reloads_after_a_rebuild(tmp_path, chromium):
    (tmp_path / "scores").mkdir()
    data = tmp_path / "scores" / "n.txt"
    data.write_text("first")

    class Outcome:
        problems: list = []
        summary = "ok"

    def build(root, out):
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.html").write_text(page_html(data.read_text()))
        return Outcome()

    started = threading.Event()
    holder = {}

    def ready(server, watcher, state):
        holder["server"], holder["state"] = server, state
        started.set()

    thread = threading.Thread(target=serve.serve, args=(tmp_path,),
                              kwargs={"port": 0, "build": build, "debounce_ms": 50, "ready": ready,
                                      "echo": lambda m: None}, daemon=True)
    thread.start()
    # serve builds first, then calls ready(); a deadline well past serve's own 30 s (its wait for a running build)
    assert started.wait(90)
    host, port = holder["server"].server_address[:2]
    console = []
    try:
        ctx = chromium.new_context()  # the session's chromium (tests/conftest.py)
        try:
            page = ctx.new_page()
            page.on("console", lambda msg: console.append((msg.type, msg.text)))
            # The script's first answer from the build counter (count 1, the build before the change): from then
            # on, a rebuild moves the counter away from what the page has seen.
            with page.expect_response(lambda r: r.url.endswith("/__sitegen/build"), timeout=180_000):
                page.goto(f"http://{host}:{port}/")
            assert page.text_content("#n") == "first"
            data.write_text("second")
            # Polled from here (every 200 ms, within a deadline): wait_for_function would evaluate a string, which
            # the page's CSP forbids.
            deadline = time.monotonic() + 180  # a hang guard, well past serve's own 30 s: it ends at "second"
            while time.monotonic() < deadline and page.text_content("#n") != "second":
                page.wait_for_timeout(200)
            assert page.text_content("#n") == "second"
        finally:
            ctx.close()
    finally:
        holder["server"].shutdown()
        thread.join(10)
    assert holder["state"].count >= 2
    assert [c for c in console if c[0] == "error"] == []  # no CSP violation, no failed fetch
