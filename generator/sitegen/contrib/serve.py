"""`sitegen serve`: bind the port, build, serve site/ with http.server, rebuild on change, reload the open page.

- The port is bound before the first build, so a taken port fails at once with a clear message.
- Each rebuild is `sitegen build`'s own: incremental (reuse.py), so after an edit only the pages it reaches are
  rendered again, and the new site is swapped in whole.
- watchfiles watches scores/, methodology/ and the package's templates and static files (inotify and friends, not
  polling), debouncing an editor's burst of writes into one rebuild.
- Each HTML page is sent with one extra `<script src="/__sitegen/reload.js">` (a file, so the site's
  Content-Security-Policy `script-src 'self'` allows it); the script polls `/__sitegen/build` and reloads when a
  rebuild has finished. The built site itself never contains it.
- Misses get the site's 404.html. Ctrl+C waits for a running build and removes its temporary folders.
"""

from __future__ import annotations

import functools
import http.server
import ipaddress
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from ..build import Outcome

PACKAGE = Path(__file__).resolve().parent.parent
#: Data folders under the root, then the package's own templates and static files (a change to the site's
#: look rebuilds too).
WATCHED = ("scores", "methodology")
PACKAGE_WATCHED = (PACKAGE / "templates", PACKAGE / "static")
RELOAD_JS = Path(__file__).resolve().parent / "serve_assets" / "reload.js"
RELOAD_TAG = b'<script src="/__sitegen/reload.js"></script>'
#: Problems of a failed rebuild shown on the page (all of them are in the terminal).
FAILED_SHOWN = 20


class ServeError(Exception):
    """serve cannot start (the port is taken, the address cannot be bound)."""


#: Files editors write beside the one being edited (swap, backup, lock and autosave files, atomic-save temporaries):
#: vim `.x.swp` `x~` `4913`, emacs `.#x` `#x#`, JetBrains `x___jb_tmp___`, gedit `.goutputstream-*`, kate
#: `.x.kate-swp`, and `*.tmp`/`*.bak`/`*.orig`/`*.rej`. The build reads none of them, so they trigger no rebuild.
EDITOR_TEMP = re.compile(
    r"(^\.#|^#.*#$|~$|\.sw[a-px]$|^4913$|___jb_(tmp|old|bak)___$|^\.goutputstream-|\.kate-swp$"
    r"|\.(tmp|bak|orig|rej)$)"
)


def is_editor_temp(path: str) -> bool:
    """Whether a changed path is an editor's temporary file rather than a file the build reads."""
    return bool(EDITOR_TEMP.search(Path(path).name))


def watched_paths(root: Path) -> list[Path]:
    return [p for p in [Path(root) / name for name in WATCHED] + list(PACKAGE_WATCHED) if p.is_dir()]


def _shown(path: str, root: Path) -> str:
    p = Path(path)
    for base, prefix in ((Path(root).resolve(), ""), (PACKAGE, "sitegen/")):
        try:
            return prefix + p.resolve().relative_to(base).as_posix()
        except ValueError:
            continue
    return p.as_posix()


class Watcher(threading.Thread):
    """Calls `on_change(sorted relative paths)` after each debounced burst of changes under the watched folders."""

    def __init__(
        self,
        root: Path,
        on_change: Callable[[list[str]], None],
        debounce_ms: int = 300,
        paths: list[Path] | None = None,
    ):
        super().__init__(name="sitegen-watch", daemon=True)
        self.root = Path(root)
        self.on_change = on_change
        self.debounce_ms = debounce_ms
        self.paths = paths if paths is not None else watched_paths(self.root)
        self.stopped = threading.Event()
        self.started_watching = threading.Event()

    def run(self) -> None:
        import watchfiles

        if not self.paths:
            return
        self.started_watching.set()
        for batch in watchfiles.watch(
            *self.paths, stop_event=self.stopped, debounce=self.debounce_ms, step=50, raise_interrupt=False
        ):
            changed = sorted({_shown(path, self.root) for _, path in batch if not is_editor_temp(path)})
            if changed:
                self.on_change(changed)

    def stop(self) -> None:
        self.stopped.set()


class BuildState:
    """The number of successful builds so far, what the reload script watches, and the problems of the last
    rebuild when it failed (the page shows them over the last good site until a build succeeds)."""

    def __init__(self) -> None:
        self.count = 0
        self.failed: list[str] = []
        self.lock = threading.Lock()

    def bump(self) -> None:
        with self.lock:
            self.count += 1
            self.failed = []

    def fail(self, lines: list[str]) -> None:
        with self.lock:
            self.failed = list(lines) or ["the build failed"]

    def as_json(self) -> bytes:
        with self.lock:
            return json.dumps({"build": self.count, "failed": self.failed}).encode()


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from the site folder, plus the reload script and build counter; 404.html for misses."""

    state: BuildState = BuildState()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a rebuilt page is never served from the browser cache
        super().end_headers()

    def _send(self, status: int, body: bytes, content_type: str, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _html(self, path: Path, status: int = 200, head: bool = False) -> None:
        body = path.read_bytes()
        at = body.lower().rfind(b"</body>")
        body = body[:at] + RELOAD_TAG + body[at:] if at >= 0 else body + RELOAD_TAG
        self._send(status, body, "text/html; charset=utf-8", head)

    def _route(self, head: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        if "\x00" in path:  # no file has a NUL in its name (open() would raise): not found, not a dropped connection
            return self.send_error(404)
        if path == "/__sitegen/reload.js":
            return self._send(200, RELOAD_JS.read_bytes(), "text/javascript; charset=utf-8", head)
        if path == "/__sitegen/build":
            return self._send(200, self.state.as_json(), "application/json", head)
        target = Path(self.translate_path(self.path))
        if target.is_dir() and path.endswith("/"):
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            return self._html(target, head=head)
        return super().do_HEAD() if head else super().do_GET()

    def do_GET(self) -> None:
        self._route(head=False)

    def do_HEAD(self) -> None:
        self._route(head=True)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            return self._html(page, status=404, head=self.command == "HEAD")
        return super().send_error(code, message, explain)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(
    site: Path, host: str = "127.0.0.1", port: int = 8000, state: BuildState | None = None
) -> http.server.ThreadingHTTPServer:
    """Bind an HTTP server for the folder `site` (port 0 picks a free one); ServeError when it cannot bind.
    The folder is resolved per request, so an atomic rebuild that swaps it is served at once."""
    site_handler = type("SiteHandler", (Handler,), {"state": state or BuildState()})
    handler = functools.partial(site_handler, directory=str(Path(site)))
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        import errno

        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {port} on {host} is already in use (another `sitegen serve`?); "
                "stop it, or pick another port with --port (0 picks a free one)"
            ) from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    server.daemon_threads = True
    return server


def default_build(root: Path, out: Path) -> Outcome:
    from ..build import run
    from ..history.changelog import Record

    # Rebuilds run beside the server's threads, where forking render workers is unsafe: render in-process.
    os.environ["SITEGEN_JOBS"] = "1"
    return run(root, out, history=Record(root))


def remove_leftovers(out: Path, since: float) -> list[Path]:
    """The build's temporary folders beside out (.site.new-*, .site.old-*) made since `since`: removed."""
    out = Path(out).absolute()
    removed = []
    for pattern in (f".{out.name}.new-*", f".{out.name}.old-*"):
        for path in sorted(out.parent.glob(pattern)):
            try:
                if path.is_dir() and path.stat().st_mtime >= since - 1:
                    shutil.rmtree(path, ignore_errors=True)
                    removed.append(path)
            except OSError:
                continue
    return removed


def serve(
    root: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    out: Path | None = None,
    echo: Callable[[str], None] = print,
    report: Callable = lambda problems: None,
    build: Callable = default_build,
    debounce_ms: int = 300,
    ready: Callable | None = None,
) -> None:
    """Bind, build once, serve `out` (site/ under root) until interrupted, rebuilding after each change.

    `ready(server, watcher, state)` is called once all run (tests use it to drive and stop the server).
    Raises ServeError, before building anything, when the address cannot be bound.
    """
    root = Path(root)
    out = Path(out) if out is not None else root / "site"
    started = time.time()
    state = BuildState()
    server = make_server(out, host, port, state)  # first: a taken port fails before a minute of building
    bound_host, bound_port = str(server.server_address[0]), server.server_address[1]
    if not is_loopback(host):
        echo(
            f"warning: serving on {host}, not loopback: anyone who can reach this machine on port {bound_port} "
            "can read the site; use --host 127.0.0.1 unless you mean to share it"
        )
    lock = threading.Lock()

    def rebuild(reason: str) -> None:
        with lock:
            try:
                outcome = build(root, out)
            except Exception as exc:  # an internal error in a rebuild must not stop the watcher thread
                if reason == "start":
                    raise
                message = (
                    f"{reason}: the build crashed ({type(exc).__name__}: {exc}); the last good site is still served"
                )
                state.fail([message])
                echo(message)
                return
            report(outcome.problems)
            if getattr(outcome, "summary", ""):
                state.bump()
                echo(f"{reason}: built {outcome.summary}")
            else:
                message = f"{reason}: the build failed; the last good site is still served"
                errors = [p for p in outcome.problems if getattr(p, "severity", "error") == "error"]
                state.fail(
                    [message]
                    + [p.format() for p in errors[:FAILED_SHOWN]]
                    + (
                        [f"… and {len(errors) - FAILED_SHOWN} more (see the terminal)"]
                        if len(errors) > FAILED_SHOWN
                        else []
                    )
                )
                echo(message)

    watcher = Watcher(
        root,
        lambda paths: rebuild(
            f"changed {', '.join(paths[:3])}" + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        ),
        debounce_ms,
    )
    try:
        rebuild("start")
        out.mkdir(parents=True, exist_ok=True)  # serve an empty folder rather than fail when the first build failed
        watcher.start()
        echo(f"serving {out} at http://{bound_host}:{bound_port}/ (Ctrl+C to stop)")
        if ready is not None:
            threading.Thread(target=ready, args=(server, watcher, state), daemon=True).start()
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        echo("stopping")
    finally:
        watcher.stop()
        server.server_close()
        if lock.acquire(timeout=30):  # let a running build finish its swap rather than cut it in half
            lock.release()
        remove_leftovers(out, started)
