"""What every importer shares: number parsing, the extract record, name resolution and the stable writer."""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime
import hashlib
import io
import json
import re
from collections.abc import Callable
from decimal import Decimal, DecimalException, InvalidOperation
from pathlib import Path

import yaml

from ..data.load import regular_bytes
from ..data.registry import IMPORTED_HEADER, Registry

RESULT_KEYS = ("model", "benchmark", "metric", "subset", "harness")
DATE_IN_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})")
# A date a row's own name states in parentheses: '(2025-05-06)' or '(20250514)'.
ROW_DATE = re.compile(r"\((\d{4})-?(\d{2})-?(\d{2})\)")


class ImportError_(Exception):
    """A file cannot be imported (wrong format, missing column, no retrieval date).

    `text` is the offending value when the message does not yet say where it is (`number`); `reading` then
    places it in the files being read."""

    def __init__(self, message: str, text: str | None = None):
        super().__init__(message)
        self.text = text


#: No capture is near this (the largest is about 1.3 MB); a bigger input is not a source's file.
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: The largest magnitude a source number may have: past 15 digits a float does not hold it exactly, and no score,
#: price or count comes near (as data/yamlstrict.py's MAX_INT_DIGITS).
MAX_NUMBER = Decimal("1e15")


# --------------------------------------------------------------------------- numbers


def number(text, scale: str | int = 1, digits: int = 6):
    """Parse a source number ('87%', '$3.44', '0.3752000003', 1.5) exactly, scale it and drop float noise.

    Returns None for blanks and 'N/A'. The value is an int when it is integral, else a float rounded to
    `digits` decimals, so the same input always writes the same text.
    """
    if text is None or isinstance(text, bool):
        return None
    raw = str(text).strip().replace("$", "").replace("%", "").replace(",", "")
    if raw in ("", "N/A", "n/a", "-", "None", "null", "nan", "NaN"):
        return None
    try:
        value = Decimal(raw) * Decimal(str(scale))
    except InvalidOperation as exc:
        raise ImportError_(f"not a number: {text!r}", str(text)) from exc
    except DecimalException as exc:  # an exponent past the decimal context's range (1e9999999)
        shown = str(text).strip()
        raise ImportError_(f"{shown!r} is not a finite number within ±{MAX_NUMBER:.0e}", str(text)) from exc
    if not value.is_finite() or abs(value) > MAX_NUMBER:
        raise ImportError_(f"{str(text).strip()!r} is not a finite number within ±{MAX_NUMBER:.0e}", str(text))
    value = round(value, digits)
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def sha256(path: Path) -> str:
    return hashlib.sha256(read_bytes(path)).hexdigest()


def date_from_name(path: Path) -> str | None:
    """The ISO date in a file name such as aa_providers_leaderboard_scrape_2025-08-14_6affa2a.csv."""
    m = DATE_IN_NAME.search(Path(path).name)
    return m.group(1) if m else None


def row_date(text: str | None) -> str | None:
    """The ISO date a row's own name states in parentheses, or None.

    'mini-SWE-agent + Gemini 2.5 Pro (2025-05-06)' -> '2025-05-06'; 'Claude 4 Opus (20250514)' -> '2025-05-14';
    'Devstral (2512)', 'Agent v20250719' or an impossible date such as '(2025-13-01)' -> None.
    """
    for m in ROW_DATE.finditer(text or ""):
        try:
            return datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        except ValueError:
            continue
    return None


def published_day(text: str | None) -> str | None:
    """A source's date for a number as an ISO day: '2026-04-17T11:24:50.000Z' or '2026-04-17' -> '2026-04-17';
    blank or not a real date -> None (the capture date applies)."""
    text = (text or "").strip()[:10]
    try:
        return datetime.date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None


def dated_name(name: str, date: str) -> str:
    """A source name qualified by the date its row states: 'gemini-2.5-pro (2025-05-06)'.

    A model file lists that spelling (a `source_aliases` entry of the source) when the date picks a checkpoint
    other than the one the bare name means, e.g. a preview released before the generally available model.
    """
    return f"{name} ({date})"


def checkpoint_name(name: str, row_text: str | None, resolve: Callable[[str], str | None]) -> str:
    """The name a row is attributed under: `name` qualified by the date its own text states when the registry
    knows that dated spelling (the date decides between checkpoints), else `name` as it stands."""
    date = row_date(row_text)
    if date is not None and resolve(dated_name(name, date)) is not None:
        return dated_name(name, date)
    return name


# --------------------------------------------------------------------------- extract records


@dataclasses.dataclass
class Extract:
    """What one source's files say, keyed by the names the source uses (before alias resolution)."""

    source: str
    retrieved: str
    files: list[dict]
    results: list[tuple[str, dict]] = dataclasses.field(default_factory=list)
    models: list[tuple[str, dict]] = dataclasses.field(default_factory=list)
    # Rows left out on purpose by the importer's documented policy (not name problems): (name, reason).
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    # What the source says about who makes a model and how it shows it, for `aliases suggest` only.
    hints: dict[str, dict] = dataclasses.field(default_factory=dict)

    def hint(self, name: str, organization: str | None = None, display: str | None = None) -> None:
        h = self.hints.setdefault(name.strip(), {})
        if organization and organization.strip():
            h.setdefault("organization", organization.strip())
        if display and display.strip():
            h.setdefault("display", display.strip())

    def result(self, name: str, benchmark: str, value, published: str | None = None, **extra) -> None:
        """A result; `published` is the date the source states for the number (ISO, a longer timestamp is cut to
        the day). Without one the number is public by this capture: `published` is the retrieval date and
        `public_by` says so (methodology/sources.md, "When a number became public")."""
        if value is None:
            return
        row = {"benchmark": benchmark, "value": value}
        row.update({k: v for k, v in extra.items() if v not in (None, "", [])})
        day = published_day(published)
        row["published"] = day or self.retrieved
        if day is None:
            row["public_by"] = True
        self.results.append((name.strip(), row))

    def model(self, name: str, **fields) -> None:
        row = {k: v for k, v in fields.items() if v not in (None, "", {}, [])}
        self.models.append((name.strip(), row))


@dataclasses.dataclass(frozen=True)
class Context:
    """What an extractor may ask while reading: the model a name resolves to (None when unmatched), and the model
    a reviewed `source_aliases` entry of this source gives a name (None unless a model file scopes it here)."""

    resolve: Callable[[str], str | None]
    scoped: Callable[[str], str | None] = lambda name: None


def one_dated_file(paths: list[Path], retrieved: str | None, source: str, what: str) -> tuple[Path, str]:
    """The one file a source is read from and its retrieval date (the option, else the date in its file name)."""
    if len(paths) != 1:
        raise ImportError_(f"{source} reads one {what}, got {len(paths)} files")
    path = Path(paths[0])
    retrieved = retrieved or date_from_name(path)
    if not retrieved:
        raise ImportError_(f"{path.name}: no date in the file name; pass --retrieved")
    return path, retrieved


def read_dated_csv(paths: list[Path], retrieved: str | None, source: str, what: str = "CSV") -> tuple[Path, str, list]:
    """The one CSV a source is read from, its retrieval date and its rows."""
    path, retrieved = one_dated_file(paths, retrieved, source, what)
    return path, retrieved, read_csv(path)


def read_bytes(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """A downloaded file's bytes, or ImportError_ placed at the file: not a regular file, unreadable or too big."""
    raw, why = regular_bytes(Path(path), limit)
    if raw is None:
        raise ImportError_(f"{path}: (file): {why} (give the downloaded file itself)")
    return raw


def read_text(path: Path) -> str:
    """A downloaded file as UTF-8 text, or ImportError_ naming the place: a BOM, UTF-16, Latin-1 or a NUL byte."""
    from ..data.yamlstrict import decode_utf8

    problems: list = []
    text = decode_utf8(read_bytes(path), Path(path).name, problems)
    if text is None:
        raise ImportError_(problems[0].format())
    return text


def read_csv(path: Path) -> list[dict]:
    """A CSV's rows as dicts (header row first), read strictly as UTF-8; a row the csv module cannot read (a field
    past its 131,072-character limit) is an ImportError_ at the line the row starts on, not an internal error."""
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ImportError_(
            f"{Path(path).name}:{reader.line_num + 1}:1: (file): cannot be read as CSV: {exc} "
            "(the download may be cut off or not a CSV)"
        ) from None
    if any(None in row for row in rows):
        line = next(i for i, row in enumerate(rows, 2) if None in row)
        raise ImportError_(
            f"{Path(path).name}:{line}:1: (file): a row has more fields than the header "
            "(the download may be cut off or not a CSV)"
        )
    return rows


def read_json(path: Path, **options):
    """A JSON file, read strictly: a truncated or invalid download is an ImportError_ with its line and column."""
    try:
        return json.loads(read_text(path), **options)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated")
        what = "ends early (a truncated download?)" if cut else "is not valid JSON"
        raise ImportError_(
            f"{Path(path).name}:{exc.lineno}:{exc.colno}: (file): {what}: {exc.msg} (download the file again)"
        ) from exc
    except RecursionError as exc:
        raise ImportError_(f"{Path(path).name}:1:1: (file): is nested too deeply (download the file again)") from exc
    except ValueError as exc:  # a number past Python's 4,300-digit limit for int() of text
        raise ImportError_(
            f"{Path(path).name}:1:1: (file): is not valid JSON: {str(exc)[:120]} (download the file again)"
        ) from exc


SHAPE_ERRORS = (
    AttributeError,
    TypeError,
    ValueError,
    KeyError,
    IndexError,
    InvalidOperation,
    OverflowError,
    RecursionError,
)


@contextlib.contextmanager
def reading(paths: list[Path], source: str):
    """Turn what an extractor trips over into a placed ImportError_: a value `number` refused is placed at its row
    and column; a file of another shape (a list where the importer reads a mapping, text where it reads a number)
    is placed at the first file. Nothing an input holds becomes an internal error."""
    first = Path(paths[0]).name if paths else source
    try:
        yield
    except ImportError_ as exc:
        if exc.text is None:
            raise
        raise ImportError_(_place(paths, exc.text, str(exc))) from None
    except KeyError as exc:
        raise ImportError_(
            f"{first}:1:1: (file): {exc} is missing: not the shape the {source} importer reads "
            "(compare the file with the capture in downloads/)"
        ) from None
    except SHAPE_ERRORS as exc:
        raise ImportError_(
            f"{first}:1:1: (file): not the shape the {source} importer reads "
            f"({type(exc).__name__}: {str(exc)[:200]}) (compare the file with the capture in "
            "downloads/)"
        ) from None


def _place(paths: list[Path], text: str, message: str) -> str:
    """`path:line:col: column: message` for the first cell (CSV) or spot (other files) that holds `text`."""
    wanted = text.strip()
    for path in paths:
        raw, _ = regular_bytes(Path(path), MAX_INPUT_BYTES)
        if raw is None:
            continue
        content = raw.decode("utf-8", errors="replace")
        name = Path(path).name
        if name.endswith(".csv"):
            reader = csv.reader(io.StringIO(content, newline=""))
            header = None
            for row in reader:
                if header is None:
                    header = row
                    continue
                for i, cell in enumerate(row):
                    if cell.strip() == wanted:
                        line = reader.line_num
                        at = content.splitlines()[line - 1].find(cell) + 1 if line <= len(content.splitlines()) else 1
                        column = header[i] if i < len(header) else f"column {i + 1}"
                        return f"{name}:{line}:{max(at, 1)}: {column}: {message} (check the download)"
        at = content.find(wanted)
        if at >= 0:
            line = content.count("\n", 0, at) + 1
            col = at - (content.rfind("\n", 0, at) + 1) + 1
            return f"{name}:{line}:{col}: (file): {message} (check the download)"
    first = Path(paths[0]).name if paths else "(input)"
    return f"{first}: (file): {message} (check the download)"


def files_entry(paths: list[Path]) -> list[dict]:
    return [{"name": Path(p).name, "sha256": sha256(p)} for p in paths]


def pricing(inp, out, as_of: str) -> dict | None:
    """A pricing block; None without an input price. AA writes 0/0 for 'no public price'.

    Some sources give only the input price (the Pedagogy paper's cost axis uses only that); the output price is
    then left out, and token cost, which needs both, stays unknown.
    """
    if inp is None:
        return None
    if not inp and not out:
        return None
    block = {"as_of": as_of}
    if inp is not None:
        block["input_per_mtok"] = inp
    if out is not None:
        block["output_per_mtok"] = out
    return block


# --------------------------------------------------------------------------- resolution


@dataclasses.dataclass(frozen=True, order=True)
class NameProblem:
    """A source name that matched no model, or more than one."""

    source: str
    name: str
    message: str


@dataclasses.dataclass
class Outcome:
    doc: dict
    text: str
    unmatched: list[NameProblem]
    ignored: list[tuple[str, str]]
    conflicts: list[str]


def load_ignores(root: Path) -> list[dict]:
    from ..data.load import read_yaml

    data = read_yaml(root, "scores/imported/ignore.yaml") or {}
    return list(data.get("ignore") or [])


def _result_sort_key(row: dict):
    return tuple(str(row.get(k, "")) for k in RESULT_KEYS) + (repr(row.get("value")), str(row.get("notes", "")))


def _map_names(
    extract: Extract, registry: Registry, ignored_names: dict[str, str], names: list[str]
) -> tuple[dict[str, str], list[NameProblem], list[tuple[str, str]]]:
    """Each source name's model id: `(mapping, names matching none or several, (name, reason) ignored)`."""
    mapping: dict[str, str] = {}
    unmatched: list[NameProblem] = []
    ignored: list[tuple[str, str]] = []
    for name in names:
        if name in ignored_names:
            ignored.append((name, ignored_names[name]))
            continue
        hits = registry.match(name, extract.source)
        if len(hits) == 1:
            mapping[name] = hits[0]
        elif not hits:
            unmatched.append(NameProblem(extract.source, name, "matches no model"))
        else:
            unmatched.append(NameProblem(extract.source, name, "matches several models: " + ", ".join(hits)))
    return mapping, unmatched, ignored


def _resolved_results(extract: Extract, mapping: dict[str, str], conflicts: list[str]) -> list[dict]:
    """The rows of resolved names, each key once, sorted; two different values for one key go to `conflicts`."""
    results: dict[tuple, dict] = {}
    for name, row in extract.results:
        if name not in mapping:
            continue
        full = {"model": mapping[name], **row}
        key = tuple(full.get(k, "") for k in RESULT_KEYS)
        if key in results:
            if results[key] == full:
                continue  # the same number listed twice (data README: duplicated rows); one is enough
            conflicts.append(
                f"{extract.source}: {name!r} gives {full['value']} for {key[1]} {' '.join(k for k in key[2:] if k)}"
                f" but another row gives {results[key]['value']} for {mapping[name]}; add an ignore or an override"
            )
            continue
        results[key] = full
    return sorted(results.values(), key=_result_sort_key)


def _model_entries(
    extract: Extract,
    mapping: dict[str, str],
    prefer: Callable[[str, list[tuple[str, dict]]], tuple[str, dict]] | None,
    conflicts: list[str],
) -> list[dict]:
    """One metadata entry per resolved model, by id; records that differ go to `prefer`, or to `conflicts`."""
    by_model: dict[str, list[tuple[str, dict]]] = {}
    for name, fields in extract.models:
        if name in mapping:
            by_model.setdefault(mapping[name], []).append((name, fields))
    for name in mapping:
        by_model.setdefault(mapping[name], [])
    models = []
    for model in sorted(by_model):
        records = sorted(by_model[model], key=lambda r: r[0])
        names_here = sorted({n for n, m in mapping.items() if m == model})
        if len({repr(sorted(f.items())) for _, f in records}) > 1:
            if prefer is None:
                conflicts.append(f"{extract.source}: {model} has differing metadata under {', '.join(names_here)}")
                chosen = records[0]
            else:
                chosen = prefer(model, records)
        else:
            chosen = records[0] if records else (names_here[0], {})
        entry = {"model": model, "name_in_source": chosen[0] if records else names_here[0], **chosen[1]}
        models.append(entry)
    return models


def _not_attributed(extract: Extract, ignored: list[tuple[str, str]]) -> list[dict]:
    """Names deliberately not attributed (ignore.yaml), with the reason and the primary values they carry, so
    a board can say which of the source's rows it leaves out and why."""
    left_out = []
    for name, reason in sorted(ignored):
        values: dict = {}
        for n, row in extract.results:
            if n == name and not row.get("metric") and not row.get("subset"):
                values.setdefault(row["benchmark"], row["value"])
        if values:
            left_out.append(
                {
                    "name": name,
                    "reason": reason,
                    "results": [{"benchmark": b, "value": v} for b, v in sorted(values.items())],
                }
            )
    return left_out


def resolve(
    extract: Extract,
    registry: Registry,
    ignores: list[dict],
    prefer: Callable[[str, list[tuple[str, dict]]], tuple[str, dict]] | None = None,
) -> Outcome:
    """Map every source name to a model id; build the imported document; report what did not resolve.

    `prefer(model, [(name, fields), ...])` chooses between two metadata records of one model (e.g. the
    same model served by two providers); without it the records must agree.
    """
    ignored_names = {i["name"]: i["reason"] for i in ignores if i.get("source") == extract.source}
    names = sorted({n for n, _ in extract.results} | {n for n, _ in extract.models})
    mapping, unmatched, ignored = _map_names(extract, registry, ignored_names, names)
    stale = sorted(set(ignored_names) - set(names))
    conflicts = [f"ignore.yaml names {n!r} for {extract.source}, which the source no longer has" for n in stale]
    results = _resolved_results(extract, mapping, conflicts)
    doc = {
        "source": extract.source,
        "retrieved": extract.retrieved,
        "files": extract.files,
        "models": _model_entries(extract, mapping, prefer, conflicts),
        "results": results,
    }
    left_out = _not_attributed(extract, ignored)
    if left_out:
        doc["not_attributed"] = left_out
    return Outcome(doc, dump(doc), sorted(unmatched), ignored, conflicts)


# --------------------------------------------------------------------------- writing


def dump(doc: dict) -> str:
    """The imported file's text: header, then sorted, block-style YAML; same input, same bytes."""
    files = ", ".join(f["name"] for f in doc["files"])
    body = yaml.safe_dump(doc, sort_keys=True, allow_unicode=True, width=1000, default_flow_style=False)
    return IMPORTED_HEADER.format(source=doc["source"], files=files) + body


def imported_path(root: Path, source: str) -> Path:
    return Path(root) / "scores" / "imported" / f"{source}.yaml"
