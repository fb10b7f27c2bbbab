"""Fetchers: download each source's files again into downloads/, check them, and record them in scores/sources.yaml.

One fetcher per source family (`FETCHERS`); the URLs are data, the `url` of each file in scores/sources.yaml.
Only `sitegen fetch` calls this module: nothing at build, validate or import time touches the network.

A download is kept only if every check passes: HTTP 200 and the full length within one deadline, no redirect to a
host the source does not list, a sane size (zip members within a ratio and a cap), complete by its format (a CSV's
last row has the header's fields), the format the importer reads (the importer itself runs on it), no more than
`MAX_SHRINK` of the source's results or of any file's rows or entries lost, and an unchanged licence note (the
whole note, years aside). "Unchanged" means the download and the file on disk both have the recorded hash; a file
on disk that differs is rewritten from a download that matches the record ("restored"). Otherwise the error names
the file and the existing capture stays as it was. Files are written through a temporary file and a rename. A
source whose id ends in a month (`aa-api-2026-07`) is a snapshot that a methodology version may pin: a changed
download becomes a new source (`aa-api-2026-11`) beside it, and the published one never changes.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as _dt
import hashlib
import http.client
import io
import json
import os
import posixpath
import re
import socket
import tempfile
import time
import urllib.parse
import zipfile
from collections.abc import Callable
from pathlib import Path

import yaml

from .. import paths
from ..paths import PathRefused
from ..write import replace_file, replace_files
from . import DEFAULT_DATA, MAX_SHRINK, imported_count, run
from .extracts import ImportError_

TIMEOUT = 60  # seconds a whole download may take: every redirect, every chunk
MAX_BYTES = 64 * 1024 * 1024  # no source is near this; a bigger answer (or unpacked member) is not what we asked for
MAX_RATIO = 100  # a zip member unpacks to at most this many times its packed size (CSV: about 5-10)
MAX_REDIRECTS = 5
CHUNK = 64 * 1024
SECRET_HEADERS = frozenset({"x-api-key", "authorization", "cookie"})  # sent only to the host the URL names
MIN_BYTES = 64  # an empty or near-empty answer is an error page, not data
USER_AGENT = "sitegen-fetch (+https://github.com/; refreshes a leaderboard's source captures)"
SNAPSHOT_ID = re.compile(r"^(?P<family>.+)-(?P<date>\d{4}-\d{2}(?:-\d{2})?)$")
DATE_IN_NAME = re.compile(r"\d{4}-\d{2}-\d{2}")
DATED_COMMIT = re.compile(r"(\d{4}-\d{2}-\d{2})_[0-9a-f]{7}(?=\.)")
AA_KEY_ENV = "AA_API_KEY"


class FetchError(Exception):
    """A download that cannot be kept; the message starts with the file or URL it is about."""


class Skipped(Exception):
    """A fetcher that cannot run here (e.g. no API key); not an error."""


# --------------------------------------------------------------------------- HTTP


@dataclasses.dataclass(frozen=True)
class Remote:
    """Where requests go: the real URLs, or every URL under `base_url` (a test server) as /<host>/<path>.

    A careful client: redirects are followed by hand, and one to another host only when the caller lists that
    host (a source's `redirect_hosts`); secret headers (the API key) go only to the host the URL names; the whole
    download, redirects included, has `timeout` seconds, checked between chunks; the body is read in chunks and
    refused past MAX_BYTES before it is held; only plain (not content-encoded) bodies are read.
    """

    base_url: str | None = None
    timeout: float = TIMEOUT

    def url(self, url: str) -> str:
        if not self.base_url:
            return url
        parts = urllib.parse.urlsplit(url)
        tail = parts.netloc + parts.path + (f"?{parts.query}" if parts.query else "")
        return self.base_url.rstrip("/") + "/" + tail

    def _published(self, actual: str) -> str:
        """The publisher's URL an actual request URL stands for (under base_url: https://<host>/<path>)."""
        if self.base_url:
            prefix = self.base_url.rstrip("/") + "/"
            if actual.startswith(prefix):
                return "https://" + actual[len(prefix) :]
        return actual

    def get(self, url: str, headers: dict | None = None, hosts=()) -> bytes:
        deadline = time.monotonic() + self.timeout
        home = urllib.parse.urlsplit(url).netloc.lower()
        allowed = {home, *(str(h).lower() for h in hosts)}
        actual, here = self.url(url), home
        for _ in range(MAX_REDIRECTS + 1):
            sent = {k: v for k, v in (headers or {}).items() if here == home or k.lower() not in SECRET_HEADERS}
            location, data = self._get_once(url, actual, sent, deadline)
            if location is None:
                return data
            actual = urllib.parse.urljoin(actual, location)
            published = urllib.parse.urlsplit(self._published(actual))
            here = published.netloc.lower()
            if published.scheme not in ("http", "https"):
                raise FetchError(f"{url}: redirected to a {published.scheme or 'relative'} URL; refused")
            if published.scheme == "http" and urllib.parse.urlsplit(url).scheme == "https" and not self.base_url:
                raise FetchError(f"{url}: redirected from https to plain http ({here}); refused")
            if here not in allowed:
                raise FetchError(
                    f"{url}: redirected to another host ({here}); refused (if the publisher moved "
                    "its files there, list the host under the source's redirect_hosts)"
                )
        raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects; refused")

    def _late(self, url: str) -> FetchError:
        return FetchError(f"{url}: took longer than {self.timeout:g} s; gave up")

    def _get_once(self, url: str, actual: str, headers: dict, deadline: float) -> tuple[str | None, bytes]:
        """One request: (the redirect's Location, b"") or (None, the whole body)."""
        parts = urllib.parse.urlsplit(actual)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise FetchError(f"{url}: only http(s) URLs are fetched")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._late(url)
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = kind(parts.hostname, parts.port, timeout=remaining)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        chunks: list[bytes] = []
        try:
            conn.request("GET", target, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity", **headers})
            sock = conn.sock  # the response reads from it even after the connection hands it over
            response = conn.getresponse()
            location = _location(url, response)
            if location is not None:
                return location, b""
            expected = response.getheader("Content-Length")
            if expected is not None and expected.isdigit() and int(expected) > MAX_BYTES:
                raise FetchError(f"{url}: larger than {MAX_BYTES} bytes; not a file this source publishes")
            self._read_body(url, response, sock, deadline, chunks)
        except TimeoutError:
            if time.monotonic() >= deadline - 0.05:
                raise self._late(url) from None
            raise FetchError(f"{url}: cannot download: timed out") from None
        except http.client.IncompleteRead as exc:
            raise FetchError(
                f"{url}: truncated download: got {sum(map(len, chunks)) + len(exc.partial)} bytes, "
                f"{exc.expected} more were announced"
            ) from None
        except (http.client.HTTPException, OSError) as exc:
            raise FetchError(f"{url}: cannot download: {exc}") from None
        finally:
            conn.close()
        data = b"".join(chunks)
        if expected is not None and expected.isdigit() and int(expected) != len(data):
            raise FetchError(f"{url}: truncated download: got {len(data)} of {expected} bytes")
        return None, data

    def _read_body(
        self, url: str, response: http.client.HTTPResponse, sock: socket.socket, deadline: float, chunks: list[bytes]
    ) -> None:
        """Read the body into `chunks` (so a truncation can say how much came), each chunk within the deadline and
        the whole within MAX_BYTES."""
        size = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._late(url)
            sock.settimeout(remaining)
            chunk = response.read1(CHUNK)
            if not chunk:
                return
            size += len(chunk)
            if size > MAX_BYTES:
                raise FetchError(f"{url}: larger than {MAX_BYTES} bytes; not a file this source publishes")
            chunks.append(chunk)


def _location(url: str, response: http.client.HTTPResponse) -> str | None:
    """A redirect's Location; None for a 200 with plain (identity-encoded) data; any other answer is refused."""
    if response.status in (301, 302, 303, 307, 308):
        location = response.getheader("Location")
        if not location:
            raise FetchError(f"{url}: HTTP {response.status} without a Location")
        return location
    if response.status != 200:
        raise FetchError(f"{url}: HTTP {response.status} {response.reason}")
    encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
    if encoding != "identity":
        raise FetchError(f"{url}: the server sent {encoding}-encoded data; only plain data is read")
    return None


def github_raw(url: str) -> tuple[str, str, str, str] | None:
    """(owner, repo, ref, path) of a raw.githubusercontent.com URL, else None."""
    parts = urllib.parse.urlsplit(url)
    if parts.netloc != "raw.githubusercontent.com":
        return None
    owner, repo, ref, *path = parts.path.lstrip("/").split("/")
    return owner, repo, ref, "/".join(path)


def latest_commit(remote: Remote, url: str) -> str | None:
    """The commit that last changed the file behind a raw GitHub URL (GitHub's commits API); None if unknown."""
    raw = github_raw(url)
    if raw is None:
        return None
    owner, repo, ref, path = raw
    query = urllib.parse.urlencode({"sha": ref, "path": path, "per_page": 1})
    try:
        answer = json.loads(remote.get(f"https://api.github.com/repos/{owner}/{repo}/commits?{query}"))
        sha = answer[0]["sha"]
    except (FetchError, ValueError, LookupError, TypeError):
        return None
    return sha if isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{40}", sha) else None


# --------------------------------------------------------------------------- the fetchers


@dataclasses.dataclass
class Plan:
    """One source as scores/sources.yaml lists it, and the files of it that have a URL."""

    source: dict
    files: list[dict]

    @property
    def id(self) -> str:
        return self.source["id"]

    @property
    def hosts(self) -> tuple[str, ...]:
        """Other hosts the source's URLs may redirect to (its reviewed `redirect_hosts`)."""
        return tuple(str(h) for h in self.source.get("redirect_hosts") or ())


Fetcher = Callable[[Plan, Remote], dict[str, bytes]]


def fetch_files(plan: Plan, remote: Remote, headers: dict | None = None) -> dict[str, bytes]:
    """Each file is its URL's bytes, unchanged."""
    return {f["name"]: remote.get(f["url"], headers, plan.hosts) for f in plan.files}


def fetch_aa_api(plan: Plan, remote: Remote) -> dict[str, bytes]:
    """Artificial Analysis's API answers only with a key (x-api-key), taken from $AA_API_KEY."""
    key = os.environ.get(AA_KEY_ENV, "").strip()
    if not key:
        raise Skipped(f"set {AA_KEY_ENV} to an Artificial Analysis API key to fetch it")
    return fetch_files(plan, remote, {"x-api-key": key})


def fetch_zip_members(plan: Plan, remote: Remote) -> dict[str, bytes]:
    """Epoch publishes one zip; each file is the member with its base name, unchanged."""
    archives: dict[str, zipfile.ZipFile] = {}
    out = {}
    for f in plan.files:
        if f["url"] not in archives:
            blob = remote.get(f["url"], None, plan.hosts)
            try:
                archives[f["url"]] = zipfile.ZipFile(io.BytesIO(blob))
            except zipfile.BadZipFile:
                raise FetchError(f"{f['url']}: not a zip archive ({len(blob)} bytes)") from None
        archive = archives[f["url"]]
        base = Path(f["name"]).name
        members = [m for m in archive.infolist() if Path(m.filename).name == base and not m.is_dir()]
        if len(members) != 1:
            raise FetchError(f"{f['url']}: the archive has {len(members)} members named {base}, expected one")
        out[f["name"]] = _unpack(f["url"], archive, members[0])
    return out


def _unpack(url: str, archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bytes:
    """A member's bytes, read in chunks and refused as soon as it passes what its header says, MAX_RATIO times its
    packed size or MAX_BYTES: a header that lies cannot make us unpack more than a chunk past it."""
    limit = min(MAX_BYTES, max(MAX_RATIO * member.compress_size, CHUNK))
    if member.file_size > limit:
        raise FetchError(
            f"{url}: {member.filename} would unpack to {member.file_size} bytes, more than "
            f"{MAX_RATIO} times its {member.compress_size} packed bytes or {MAX_BYTES} bytes; refused"
        )
    chunks, size = [], 0
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(CHUNK):
                size += len(chunk)
                if size > member.file_size:
                    break
                chunks.append(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        if "CRC" in str(exc) or size >= member.file_size:
            raise FetchError(
                f"{url}: {member.filename} does not unpack to the {member.file_size} bytes its header "
                f"says ({exc}); refused"
            ) from None
        raise FetchError(f"{url}: {member.filename}: {exc}") from None
    if size != member.file_size:
        raise FetchError(
            f"{url}: {member.filename} does not unpack to the {member.file_size} bytes its header says; refused"
        )
    return b"".join(chunks)


def fetch_js_string(plan: Plan, remote: Remote) -> dict[str, bytes]:
    """EQ-Bench keeps its leaderboard as a CSV template string in the site's script: `select = \\`...\\``."""
    out = {}
    for f in plan.files:
        text = _text(remote.get(f["url"], None, plan.hosts), f["url"])
        m = re.search(r"\b" + re.escape(f["select"]) + r"\s*=\s*`([^`]*)`", text)
        if not m:
            raise FetchError(f"{f['url']}: format changed: no {f['select']} = `...` string in the script")
        out[f["name"]] = m.group(1).encode("utf-8")
    return out


SUPERSCRIPT = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹⁰", "1234567890")
MARKER = re.compile(r"([¹²³⁴⁵⁶⁷⁸⁹⁰]+)\s*$")
FOOTNOTE = re.compile(r"^\s*([¹²³⁴⁵⁶⁷⁸⁹⁰]+)\s*(.+?)\s*$")
MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def _plain(markdown: str) -> str:
    return " ".join(MD_LINK.sub(r"\1", markdown).replace("**", "").replace("`", "").split())


def fetch_markdown_table(plan: Plan, remote: Remote) -> dict[str, bytes]:
    """CritPt's README table (Model | Challenge Accuracy) as CSV `model, challenge_accuracy_pct, note`.

    A model's footnote marker (Gemini-3 Pro²) becomes its note: `footnote 2: <the footnote's text>`.
    """
    out = {}
    for f in plan.files:
        lines = _text(remote.get(f["url"], None, plan.hosts), f["url"]).splitlines()
        start = next(
            (i for i, line in enumerate(lines) if line.lstrip().startswith("|") and _cells(line)[:1] == ["Model"]), None
        )
        if start is None or start + 1 >= len(lines):
            raise FetchError(f"{f['url']}: format changed: no table whose first column is 'Model'")
        header = [MARKER.sub("", c) for c in _cells(lines[start])]
        if header != ["Model", "Challenge Accuracy"]:
            raise FetchError(
                f"{f['url']}: format changed: the table's columns are {header}, "
                "expected ['Model', 'Challenge Accuracy']"
            )
        footnotes = {
            m.group(1).translate(SUPERSCRIPT): _plain(m.group(2)) for line in lines if (m := FOOTNOTE.match(line))
        }
        rows = []
        for line in lines[start + 2 :]:
            if not line.lstrip().startswith("|"):
                break
            name, value = _cells(line)[:2]
            marker = MARKER.search(name)
            note = ""
            if marker:
                number = marker.group(1).translate(SUPERSCRIPT)
                name = MARKER.sub("", name)
                note = f"footnote {number}: {footnotes.get(number, '')}".rstrip(": ")
            rows.append([name, value, note])
        if not rows:
            raise FetchError(f"{f['url']}: format changed: the leaderboard table has no rows")
        out[f["name"]] = _csv([["model", "challenge_accuracy_pct", "note"], *rows])
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


SWE_COLUMNS = (
    "leaderboard",
    "name",
    "resolved",
    "date",
    "cost",
    "instance_cost",
    "instance_calls",
    "os_model",
    "os_system",
    "checked",
    "mini-swe-agent_version",
    "tags",
    "folder",
    "site",
    "logs",
    "trajs",
    "warning",
)


def fetch_json_to_csv(plan: Plan, remote: Remote) -> dict[str, bytes]:
    """SWE-bench's data/leaderboards.json flattened to one CSV row per result (without per_instance_details)."""
    out = {}
    for f in plan.files:
        try:
            doc = json.loads(remote.get(f["url"], None, plan.hosts))
            boards = doc["leaderboards"]
            rows = [
                [board["name"], *(_cell(result.get(col)) for col in SWE_COLUMNS[1:])]
                for board in boards
                for result in board["results"]
            ]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise FetchError(
                f"{f['url']}: format changed: expected {{'leaderboards': [{{'name', 'results'}}]}} "
                f"({type(exc).__name__}: {exc})"
            ) from None
        out[f["name"]] = _csv([list(SWE_COLUMNS), *rows], "\r\n")  # as the capture was written
    return out


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _csv(rows: list[list[str]], newline: str = "\n") -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=newline).writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _text(blob: bytes, url: str) -> str:
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FetchError(f"{url}: format changed: not UTF-8 text ({exc})") from None


#: One fetcher per source family (a snapshot's id without its date).
FETCHERS: dict[str, Fetcher] = {
    "aa-leaderboard": fetch_files,
    "aa-api": fetch_aa_api,
    "aa-tokens": fetch_files,
    "epoch": fetch_zip_members,
    "arc-prize": fetch_files,
    "lmarena": fetch_files,
    "eq-bench": fetch_js_string,
    "critpt": fetch_markdown_table,
    "swe-bench": fetch_json_to_csv,
    "pedagogy-models": fetch_files,
}


def family(source_id: str) -> str:
    m = SNAPSHOT_ID.match(source_id)
    return m.group("family") if m else source_id


def is_snapshot(source_id: str) -> bool:
    return SNAPSHOT_ID.match(source_id) is not None


# --------------------------------------------------------------------------- planning


def sources_doc(root: Path) -> dict:
    """scores/sources.yaml, read by the loader's rules (data/load.py: no link followed, strict YAML)."""
    from ..data import load

    problems: list = []
    data = load.read_yaml(root, "scores/sources.yaml", problems)
    if problems:
        raise FetchError("; ".join(p.format() for p in problems[:3]))
    return data if isinstance(data, dict) else {}


def _sources_text(root: Path) -> str:
    """scores/sources.yaml's text for an edit in place, read by the loader's rules."""
    from ..data import load

    problems: list = []
    raw = load.read_regular(_sources_path(root), Path(root), MAX_SOURCES_BYTES, problems)
    if raw is None:
        raise FetchError("; ".join(p.format() for p in problems[:3]) or "scores/sources.yaml: cannot be read")
    return raw.decode("utf-8")


MAX_SOURCES_BYTES = 4 * 1024 * 1024


def plans(root: Path) -> dict[str, Plan]:
    """family -> the newest source of that family whose files have URLs (what a refresh compares against)."""
    found: dict[str, Plan] = {}
    for src in sources_doc(root).get("sources") or []:
        files = [f for f in src.get("files") or [] if f.get("url")]
        if files and family(src["id"]) in FETCHERS:
            found[family(src["id"])] = Plan(src, files)  # later entries are newer snapshots
    return found


def resolve_name(root: Path, name: str) -> Plan:
    """The plan for SOURCE given as a family (`aa-api`) or any of its ids (`aa-api-2026-07`)."""
    known = plans(root)
    if family(name) in known:
        return known[family(name)]
    raise FetchError(
        f"scores/sources.yaml: no fetchable source {name!r} (a source whose files have a url); "
        f"known: {', '.join(sorted(known))}"
    )


# --------------------------------------------------------------------------- checks


def check_format(name: str, data: bytes, old: Path) -> None:
    """The download parses as its kind of file, is complete by its format and keeps the columns the capture has.

    A CSV is complete when its last row has the header's number of fields and, when the current capture ends
    with a line break, it ends with one too: a body cut mid-row is caught without a Content-Length."""
    if len(data) < MIN_BYTES:
        raise FetchError(f"{name}: only {len(data)} bytes; not a data file")
    suffix = Path(name).suffix
    if suffix == ".json":
        try:
            json.loads(data)
        except ValueError as exc:
            raise FetchError(f"{name}: format changed or truncated: not JSON ({exc})") from None
        except RecursionError:
            raise FetchError(f"{name}: format changed: JSON nested too deeply") from None
    elif suffix == ".csv":
        rows = _csv_rows(name, data)
        header = rows[0] if rows else []
        before = _csv_rows(name, old.read_bytes())[:1] if old.is_file() else []
        if before:
            missing = [c for c in before[0] if c not in header]
            if missing:
                raise FetchError(f"{name}: format changed: columns {missing} are gone (now: {header})")
        if len(rows) > 1 and len(rows[-1]) != len(header):
            raise FetchError(
                f"{name}: truncated: the last row has {len(rows[-1])} fields where the header has "
                f"{len(header)} (line {len(data.splitlines())})"
            )
        if old.is_file() and old.read_bytes().endswith(b"\n") and not data.endswith(b"\n"):
            raise FetchError(f"{name}: truncated: the download does not end with a line break, as the capture does")


def _csv_rows(name: str, data: bytes) -> list[list[str]]:
    """A CSV's non-empty rows, read strictly (an open quote at the end is a cut, not a value)."""
    try:
        return [row for row in csv.reader(io.StringIO(_text(data, name), newline=""), strict=True) if row]
    except csv.Error as exc:
        raise FetchError(f"{name}: truncated or format changed: not a CSV ({exc})") from None


def _licence_terms(note: bytes) -> str:
    """The whole notice, with years and runs of spaces ignored: a citation whose year moves with each dump may
    change without a review, but any other word, anywhere in the note (a second licence section), may not."""
    text = note.decode("utf-8", errors="replace")
    return " ".join(re.sub(r"\b(?:19|20)\d\d\b", "<year>", text).split())


def _on_disk(path: Path, sha: str | None) -> bool:
    """The capture on disk is a regular file whose bytes have the recorded hash."""
    if path.is_symlink() or not path.is_file():
        return False
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest() == sha


@dataclasses.dataclass
class Result:
    family: str
    source: str  # the source id the new capture is recorded under
    status: str  # unchanged | updated | new-snapshot | skipped
    message: str = ""
    replaces: str | None = None  # for a new snapshot: the source it follows
    files: list[str] = dataclasses.field(default_factory=list)


def fetch(
    root: Path,
    name: str,
    remote: Remote,
    today: str | None = None,
    allow_shrink: bool = False,
    data_dir: Path | None = None,
) -> Result:
    """Fetch one source family, check it, and write it (or nothing, if it did not change)."""
    root = Path(root)
    today = today or _dt.date.today().isoformat()
    data_dir = Path(data_dir) if data_dir is not None else root / DEFAULT_DATA
    plan = resolve_name(root, name)
    fam = family(plan.id)
    _check_names(root, plan, data_dir)
    try:
        got = FETCHERS[fam](plan, remote)
    except Skipped as exc:
        return Result(fam, plan.id, "skipped", str(exc))
    _check_formats(plan, got, data_dir)
    if all(f.get("sha256") == _sha(got[f["name"]]) for f in plan.files):
        return _unchanged(root, plan, got, data_dir)

    snapshot = is_snapshot(plan.id)
    new_id = _new_snapshot_id(root, fam, today) if snapshot else plan.id
    names = {f["name"]: (_dated_name(f["name"], today) if snapshot else f["name"]) for f in plan.files}
    commits = {f["name"]: latest_commit(remote, f["url"]) for f in plan.files}

    _check_import(root, plan, new_id, got, names, today, allow_shrink)
    _check_rows(plan, got, data_dir, allow_shrink)

    for old_name, new_name in names.items():
        _write_download(root, data_dir, new_name, got[old_name])
    if snapshot:
        _add_snapshot(root, plan, new_id, names, got, commits, today)
        return Result(
            fam, new_id, "new-snapshot", f"new source {new_id} beside {plan.id}", plan.id, sorted(names.values())
        )
    _update_source(root, plan, got, commits, today)
    return Result(fam, plan.id, "updated", "new capture", None, sorted(names.values()))


def _check_names(root: Path, plan: Plan, data_dir: Path) -> None:
    """Names come from reviewed data, but a download never lands outside downloads/ (or the --data folder)."""
    for f in plan.files:
        if (
            not isinstance(f.get("name"), str)
            or posixpath.normpath(f["name"]) != f["name"]
            or f["name"].startswith(("/", "../"))
            or f["name"] == ".."
        ):
            raise FetchError(f"scores/sources.yaml: {f.get('name')}: a file name must stay inside {DEFAULT_DATA}/")
        if data_dir == root / DEFAULT_DATA:  # below the root: no link on the way, downloads/ itself included
            linked = paths.link_problem(root, data_dir / f["name"])
            if linked is not None:
                raise FetchError(f"{linked.format()}; nothing written")
        elif not (data_dir / f["name"]).resolve().is_relative_to(data_dir.resolve()):
            raise FetchError(f"scores/sources.yaml: {f['name']}: a file name must stay inside {DEFAULT_DATA}/")


def _check_formats(plan: Plan, got: dict[str, bytes], data_dir: Path) -> None:
    """Each download is complete in its format, and a licence note keeps its terms."""
    for f in plan.files:
        check_format(f["name"], got[f["name"]], data_dir / f["name"])
        old_note = data_dir / f["name"]
        if (
            f.get("use") == "notice"
            and _sha(got[f["name"]]) != f.get("sha256")
            and (not old_note.is_file() or _licence_terms(got[f["name"]]) != _licence_terms(old_note.read_bytes()))
        ):
            raise FetchError(
                f"{f['name']}: the publisher's licence note changed; read the new terms, then update "
                f"downloads/{f['name']} and its sha256 by hand"
            )


def _unchanged(root: Path, plan: Plan, got: dict[str, bytes], data_dir: Path) -> Result:
    """A download equal to the recorded capture: nothing to do, or the copies on disk that differ restored."""
    fam = family(plan.id)
    stale = [f["name"] for f in plan.files if not _on_disk(data_dir / f["name"], f.get("sha256"))]
    if not stale:
        return Result(fam, plan.id, "unchanged", "the download equals the capture")
    for name in stale:  # the download is the recorded capture; the copy on disk is not
        _write_download(root, data_dir, name, got[name])
    shown = ", ".join(f"{DEFAULT_DATA}/{n}" for n in stale)
    return Result(
        fam,
        plan.id,
        "restored",
        f"{shown} differed from its recorded sha256; rewritten from the download, which matches it",
        None,
        sorted(stale),
    )


def _write_download(root: Path, data_dir: Path, name: str, data: bytes) -> None:
    """A download into downloads/ (by the path rule), or into another --data folder outside the repository."""
    if data_dir == root / DEFAULT_DATA:
        _replace(root, data_dir / name, data)
    else:
        replace_file(data_dir / name, data)


def _check_import(root, plan, new_id, got, names, today, allow_shrink) -> None:
    """Run the importer on the download (in a temporary folder) and compare its result count with today's."""
    readable = [f for f in plan.files if f.get("use", "import") == "import"]
    with tempfile.TemporaryDirectory(prefix="sitegen-fetch-") as tmp:
        paths = []
        for f in readable:
            path = Path(tmp) / names[f["name"]]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(got[f["name"]])
            paths.append(path)
        try:
            _, outcome = run(root, new_id, paths, today)
        except (ImportError_, LookupError, ValueError, TypeError, AttributeError) as exc:  # any misreading
            what = ", ".join(f["name"] for f in readable)
            raise FetchError(
                f"{what}: format changed: the importer cannot read the download: {type(exc).__name__}: {exc}"
            ) from None
    before = imported_count(root, plan.id)  # the results filed under the current id (a new snapshot compares with it)
    after = len(outcome.doc["results"])
    if before and after < before * (1 - MAX_SHRINK) and not allow_shrink:
        raise FetchError(
            f"{plan.id}: the download would shrink the source from {before} to {after} results "
            f"(more than {MAX_SHRINK:.0%} gone); check the source, then pass --allow-shrink"
        )


def _check_rows(plan: Plan, got: dict[str, bytes], data_dir: Path, allow_shrink: bool) -> None:
    """Every file of the source keeps at least 1 - MAX_SHRINK of the capture's rows (CSV) or entries (JSON): the
    check for every kind of source and file, including those that give models and no results (pedagogy-models)."""
    if allow_shrink:
        return
    for f in plan.files:
        old = data_dir / f["name"]
        if not old.is_file() or old.is_symlink():
            continue
        before, after = _entries(f["name"], old.read_bytes()), _entries(f["name"], got[f["name"]])
        if before and before[0] > 0 and after is not None and after[0] < before[0] * (1 - MAX_SHRINK):
            raise FetchError(
                f"{plan.id}: the download would shrink the source from {before[0]} to {after[0]} "
                f"{before[1]} ({f['name']}: {after[0]} {before[1]} where the capture has {before[0]}; "
                f"more than {MAX_SHRINK:.0%} gone); check the source, then pass --allow-shrink"
            )


def _entries(name: str, data: bytes) -> tuple[int, str] | None:
    """How many records a file holds: a CSV's rows below its header; a JSON list's items, or the items of the lists
    and objects a JSON object holds (AA's `data`, LMArena's categories). None for other files."""
    suffix = Path(name).suffix
    try:
        if suffix == ".csv":
            return len(_csv_rows(name, data)) - 1, "rows"
        if suffix == ".json":
            doc = json.loads(data)
            if isinstance(doc, list):
                return len(doc), "entries"
            if isinstance(doc, dict):
                return sum(len(v) for v in doc.values() if isinstance(v, (list, dict))), "entries"
    except (ValueError, RecursionError, FetchError):
        return None
    return None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _new_snapshot_id(root: Path, fam: str, today: str) -> str:
    ids = {s["id"] for s in sources_doc(root).get("sources") or []}
    for candidate in (f"{fam}-{today[:7]}", f"{fam}-{today}"):
        if candidate not in ids:
            return candidate
    raise FetchError(f"scores/sources.yaml: {fam}-{today} exists already; one snapshot a day")


def _dated_name(name: str, today: str) -> str:
    """A snapshot's file name with today's date; a commit suffix (`_6affa2a`) is dropped, it names the old commit."""
    path = Path(name)
    base = DATED_COMMIT.sub(r"\1", path.name)
    if DATE_IN_NAME.search(base):
        base = DATE_IN_NAME.sub(today, base, count=1)
    else:
        base = f"{Path(base).stem}_{today}{Path(base).suffix}"
    return (path.parent / base).as_posix()


# --------------------------------------------------------------------------- scores/sources.yaml


def _sources_path(root: Path) -> Path:
    return Path(root) / "scores" / "sources.yaml"


def _block(text: str, source_id: str) -> tuple[int, int]:
    """The span of one source's entry in sources.yaml's text (from its `- id:` line to the next entry)."""
    m = re.search(rf"^  - id: {re.escape(source_id)}\n", text, re.M)
    if not m:
        raise FetchError(f"scores/sources.yaml: no entry `- id: {source_id}`")
    end = re.compile(r"^  (?:- id:|#)", re.M).search(text, m.end())
    return m.start(), end.start() if end else len(text)


def _update_source(root: Path, plan: Plan, got: dict[str, bytes], commits: dict, today: str) -> None:
    """Record new hashes, commits and the retrieval date in place, keeping the file's layout and comments."""
    text = _sources_text(root)
    start, end = _block(text, plan.id)
    block = text[start:end]
    for f in plan.files:
        i = block.index(f"name: {f['name']}")
        j = block.find("name: ", i + 1)
        j = len(block) if j < 0 else j
        entry = block[i:j]
        entry = re.sub(r"sha256: [0-9a-f]{64}", f"sha256: {_sha(got[f['name']])}", entry)
        if commits.get(f["name"]):
            entry = re.sub(r"commit: [0-9a-f]{7,40}", f"commit: {commits[f['name']]}", entry)
        else:  # the recorded commit no longer describes the file
            entry = re.sub(r"(,\s*|\n\s+)commit: [0-9a-f]{7,40}", "", entry)
        raw = github_raw(f["url"])
        if not raw or f"repository: {raw[0]}/{raw[1]}" not in entry:  # the copy came from a mirror: `url` says where
            entry = re.sub(r"(,\s*|\n\s+)(repository|path): [^,}\n]+", "", entry)
        block = block[:i] + entry + block[j:]
    block = re.sub(r'^(    retrieved: )"?\d{4}-\d{2}-\d{2}"?$', rf'\1"{today}"', block, count=1, flags=re.M)
    _write_sources(root, text[:start] + block + text[end:])


def _add_snapshot(root: Path, plan: Plan, new_id: str, names: dict, got: dict, commits: dict, today: str) -> None:
    """A new source entry after the one it follows; the old entry keeps its files but gives up their URLs."""
    src = plan.source
    old_date = str(src.get("retrieved", ""))
    entry: dict[str, object] = {"id": new_id}
    for key in ("publisher", "name", "url", "licence", "licence_flag", "attribution", "provenance"):
        if key in src:
            entry[key] = src[key].replace(old_date, today) if key == "name" and old_date else src[key]
    entry["retrieved"] = today
    files = []
    for f in plan.files:
        new = {"name": names[f["name"]], "url": f["url"]}
        for key in ("use", "repository", "path", "select"):
            if key in f:
                new[key] = f[key]
        if commits.get(f["name"]):
            new["commit"] = commits[f["name"]]
        new["sha256"] = _sha(got[f["name"]])
        files.append(new)
    entry["files"] = files
    if "download" in src:
        entry["download"] = src["download"]
    dumped = yaml.dump(
        [entry], Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False
    )
    body = "".join("  " + line if line.strip() else line for line in dumped.splitlines(keepends=True))
    body = re.sub(r"^(    retrieved: )\'?(\d{4}-\d{2}-\d{2})\'?$", r'\1"\2"', body, count=1, flags=re.M)
    note = f"  # Fetched {today} by `sitegen fetch {family(new_id)}`: a new snapshot; {plan.id} stays as published.\n"
    text = _sources_text(root)
    start, end = _block(text, plan.id)
    block = text[start:end]
    for f in plan.files:  # the newest snapshot of a family is the one fetched; the old one is history
        block = re.sub(rf"(name: {re.escape(f['name'])})(,\s*url: [^,}}\s]+|\n\s+url: \S+)", r"\1", block, count=1)
    _write_sources(root, text[:start] + block + note + body + text[end:])


class _BlockDumper(yaml.SafeDumper):
    """Indents a list under its key, as the hand-written entries of scores/sources.yaml do."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _write_sources(root: Path, text: str) -> None:
    try:
        yaml.safe_load(text)
    except yaml.YAMLError as exc:  # a bug here must not leave a broken registry behind
        raise FetchError(f"scores/sources.yaml: the update would not parse ({exc}); nothing written") from None
    _replace(root, _sources_path(root), text.encode("utf-8"))


def _replace(root: Path, path: Path, data: bytes) -> None:
    """fetch writes only downloads/ and scores/sources.yaml, through no link (paths.py), atomically."""
    try:
        replace_files(
            root,
            {Path(os.path.abspath(path)).relative_to(Path(os.path.abspath(root))).as_posix(): data},
            under=(f"{DEFAULT_DATA}/", "scores/sources.yaml"),
        )
    except (PathRefused, ValueError) as exc:
        raise FetchError(f"{exc}; nothing written") from None
