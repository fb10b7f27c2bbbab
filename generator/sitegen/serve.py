"""`sitegen serve`: build, serve site/ on localhost with http.server, and rebuild when a data file changes.

Change detection polls the modification times and sizes of everything under scores/ and methodology/ once a
second in a thread: no file-watching dependency, and the same on every platform.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from typing import Callable

WATCHED = ("scores", "methodology")


def snapshot(root: Path, folders=WATCHED) -> dict[str, tuple[int, int]]:
    """(mtime in ns, size) of every file below the watched folders, keyed by path relative to root."""
    root = Path(root)
    out: dict[str, tuple[int, int]] = {}
    for name in folders:
        base = root / name
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames.sort()
            for filename in filenames:
                path = Path(dirpath) / filename
                try:
                    st = path.stat()
                except OSError:  # removed between listing and stat
                    continue
                out[path.relative_to(root).as_posix()] = (st.st_mtime_ns, st.st_size)
    return out


def changes(before: dict, after: dict) -> list[str]:
    """Paths added, removed or modified between two snapshots, sorted."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


class Watcher(threading.Thread):
    """Polls the snapshot every `interval` seconds and calls `on_change(paths)` when it differs."""

    def __init__(self, root: Path, on_change: Callable[[list[str]], None], interval: float = 1.0):
        super().__init__(name="sitegen-watch", daemon=True)
        self.root = Path(root)
        self.on_change = on_change
        self.interval = interval
        self.stopped = threading.Event()
        self.last = snapshot(self.root)

    def poll(self) -> list[str]:
        """One poll: the changed paths since the last one (and remember the new state)."""
        now = snapshot(self.root)
        changed = changes(self.last, now)
        self.last = now
        return changed

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            changed = self.poll()
            if changed:
                self.on_change(changed)

    def stop(self) -> None:
        self.stopped.set()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature http.server uses
        pass


def make_server(site: Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.ThreadingHTTPServer:
    """An HTTP server for the folder `site` (port 0 picks a free one). Resolved per request, so an atomic
    rebuild that swaps the folder is served at once."""
    handler = functools.partial(_QuietHandler, directory=str(Path(site)))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def default_build(root: Path, out: Path):
    from .build import run

    # Rebuilds run beside the server's threads, where forking render workers is unsafe: render in-process.
    os.environ["SITEGEN_JOBS"] = "1"
    return run(root, out)


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, out: Path | None = None,
          echo: Callable[[str], None] = print, report: Callable = lambda problems: None,
          build: Callable = default_build, interval: float = 1.0, ready: Callable | None = None) -> None:
    """Build once, serve `out` (site/ under root) until interrupted, rebuilding after each change.

    `ready(server, watcher)` is called once both run (tests use it to stop the server).
    """
    root = Path(root)
    out = Path(out) if out is not None else root / "site"
    lock = threading.Lock()

    def rebuild(reason: str) -> None:
        with lock:
            outcome = build(root, out)
            report(outcome.problems)
            if getattr(outcome, "summary", ""):
                echo(f"{reason}: built {outcome.summary}")
            else:
                echo(f"{reason}: the build failed; the last good site is still served")

    rebuild("start")
    out.mkdir(parents=True, exist_ok=True)  # serve an empty folder rather than fail when the first build failed
    server = make_server(out, host, port)
    watcher = Watcher(root, lambda paths: rebuild(f"changed {', '.join(paths[:3])}"
                                                  + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")),
                      interval)
    watcher.start()
    bound_host, bound_port = server.server_address[:2]
    echo(f"serving {out} at http://{bound_host}:{bound_port}/ (Ctrl+C to stop)")
    if ready is not None:
        threading.Thread(target=ready, args=(server, watcher), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
        server.server_close()
