"""A local stand-in for every source's public URL: an http.server on 127.0.0.1 serving files from a folder.

`upstream_tree` lays out, under <folder>/<host>/<path>, what each URL in scores/sources.yaml would answer if the
publisher still had the repository's current captures: the files themselves, Epoch's zip of them, EQ-Bench's
script holding the CSV string, CritPt's README table and SWE-bench's leaderboards.json. Fetching from it must
give back downloads/ byte for byte.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import threading
import time
import urllib.parse
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from sitegen.importers import fetch as fetchers


def local_path(folder: Path, url: str) -> Path:
    parts = urllib.parse.urlsplit(url)
    return folder / parts.netloc / parts.path.lstrip("/")


def eq_bench_script(csv_text: str, variable: str) -> str:
    return f"//\n//  eqbench3.js\n//\n\n\n{variable} = `{csv_text}`\n\n// --- Global Scope Variables ---\nconst X = 1;\n"


def critpt_readme(csv_text: str) -> str:
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    lines = ["# CritPt", "", "## Leaderboard", "| Model                    | Challenge Accuracy¹ |",
             "| ------------------------ | ------------------- |"]
    notes = {}
    for row in rows:
        mark = ""
        if row["note"].startswith("footnote "):
            number, text = row["note"][len("footnote "):].split(": ", 1)
            mark = number.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
            notes[mark] = text
        lines.append(f"| {row['model'] + mark:<24} | {row['challenge_accuracy_pct']:<18} |")
    lines += ["", "¹ We use average accuracy over 5 runs × 70 test challenges as our primary performance metric.  "]
    lines += [f"{mark} {text}" for mark, text in notes.items()]
    return "\n".join(lines + ["", "## 0. Setup", "| not | the table |", ""])


def _typed(column: str, text: str):
    if text == "":
        return None
    if text in ("True", "False"):  # booleans; `checked` is sometimes a sentence in the source
        return text == "True"
    if column == "tags":
        return json.loads(text)
    if column in ("resolved", "cost", "instance_cost", "instance_calls"):
        return float(text) if "." in text else int(text)
    return text


def swe_bench_json(csv_text: str) -> str:
    boards: dict[str, list] = {}
    for row in csv.DictReader(io.StringIO(csv_text)):
        result = {k: _typed(k, v) for k, v in row.items() if k != "leaderboard" and v != ""}
        result["per_instance_details"] = {"astropy__astropy-12907": {"api_calls": 14, "resolved": True}}
        result["logo"] = ["https://example.org/logo.png"]
        boards.setdefault(row["leaderboard"], []).append(dict(sorted(result.items())))
    return json.dumps({"leaderboards": [{"name": n, "results": r} for n, r in boards.items()]}, indent=2)


def upstream_tree(root: Path, folder: Path, downloads: Path | None = None) -> Path:
    """What every source URL would serve if it still published the captures in `downloads` (default: root's)."""
    downloads = downloads or Path(root) / "downloads"
    zips: dict[Path, zipfile.ZipFile] = {}
    for fam, plan in fetchers.plans(root).items():
        for f in plan.files:
            data = (downloads / f["name"]).read_bytes()
            target = local_path(folder, f["url"])
            target.parent.mkdir(parents=True, exist_ok=True)
            if fetchers.FETCHERS[fam] is fetchers.fetch_zip_members:
                if target not in zips:
                    zips[target] = zipfile.ZipFile(target, "w")
                zips[target].writestr(f"benchmark_data/{Path(f['name']).name}", data)
            elif fetchers.FETCHERS[fam] is fetchers.fetch_js_string:
                target.write_text(eq_bench_script(data.decode("utf-8"), f["select"]), encoding="utf-8")
            elif fetchers.FETCHERS[fam] is fetchers.fetch_markdown_table:
                target.write_text(critpt_readme(data.decode("utf-8")), encoding="utf-8")
            elif fetchers.FETCHERS[fam] is fetchers.fetch_json_to_csv:
                target.write_text(swe_bench_json(data.decode("utf-8")), encoding="utf-8")
            else:
                target.write_bytes(data)
    for archive in zips.values():
        archive.close()
    return folder


class Handler(SimpleHTTPRequestHandler):
    """Serves the folder; `faults` maps a URL path to a misbehaviour:

    - 'truncate': half the bytes under the full Content-Length;
    - 'no-length': the file without a Content-Length (the body ends when the connection closes);
    - 'trickle': a full Content-Length, then one byte every TRICKLE seconds (at most TRICKLE_BYTES, so a client
      that never gives up still ends);
    - 'redirect <location>': a 302 to <location> (absolute, or a path on this server);
    - 'gzip': the file gzip-compressed, with Content-Encoding: gzip (whatever the client accepted).
    """

    TRICKLE = 0.2
    TRICKLE_BYTES = 300

    faults: dict[str, str] = {}
    requests: list[tuple[str, dict]] = []

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        self.requests.append((self.path, dict(self.headers)))
        if path.startswith("/artificialanalysis.ai/api/") and not self.headers.get("x-api-key"):
            self.send_error(401, "API key required")
            return
        fault = self.faults.get(path, "")
        if fault.startswith("redirect "):
            self.send_response(302)
            self.send_header("Location", fault.split(" ", 1)[1])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if fault == "no-length":
            body = (Path(self.directory) / path.lstrip("/")).read_bytes()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
            return
        if fault == "trickle":
            body = (Path(self.directory) / path.lstrip("/")).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(min(len(body), self.TRICKLE_BYTES)):
                try:
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                except OSError:  # the client gave up
                    break
                time.sleep(self.TRICKLE)
            self.close_connection = True
            return
        if fault == "gzip":
            import gzip

            body = gzip.compress((Path(self.directory) / path.lstrip("/")).read_bytes())
            self.send_response(200)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if fault == "truncate":
            body = (Path(self.directory) / path.lstrip("/")).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        super().do_GET()


_RECEIVED: dict[str, list] = {}


def received(base: str) -> list[tuple[str, dict]]:
    """The requests (path, headers) the server started at `base` has answered so far."""
    return list(_RECEIVED[base])


@contextlib.contextmanager
def serve(folder: Path, faults: dict[str, str] | None = None):
    """Serves `folder` on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = type("H", (Handler,), {"faults": dict(faults or {}), "requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    # shutdown() waits for serve_forever's next look at its flag: every poll_interval (0.5 s by default, which was
    # half a second of waiting at the end of every `with serve(...)`, ~40 of them in test_fetch)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    _RECEIVED[base] = handler.requests
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
