"""Authoring helpers behind `sitegen new`: scaffold a model file, append a result to one without rewriting it.

Both refuse bad input with the validator's own messages and validate the repository as it would be (on a copy,
data.validate_change) before they replace the file atomically (write.replace_file): a contributor never ends up
with a file that fails, and a refused request writes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ..data import checks, identity, load, new_errors, yamlstrict
from ..data.rules import BENCHMARK_HINT, SOURCE_HINT, metric_hint, subset_hint, suggest_id
from ..problems import ERROR, Problem

#: Where a repository keeps its JSON Schemas, first found first: the copy `sitegen init` writes into a new repository
#: (`sitegen init --update` refreshes it), then the package's own folder in the repository sitegen is built from.
SCHEMA_FOLDERS = ("schemas", "generator/sitegen/schemas")
# Field order of a hand-written result, as in the README's example.
RESULT_ORDER = (
    "benchmark",
    "metric",
    "subset",
    "harness",
    "value",
    "source",
    "retrieved",
    "url",
    "n",
    "stderr",
    "notes",
    "self_reported",
)
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ._()+/-]*\Z")
_YAML_WORDS = {"yes", "no", "on", "off", "y", "n", "true", "false", "null", "nan", "inf"}


class RefusedError(Exception):
    """The request cannot be carried out; `problems` say why, in the validator's words."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.format() for p in problems))
        self.problems = problems


def model_path(root: Path, model_id: str) -> Path:
    return Path(root) / "scores" / "models" / f"{model_id}.yaml"


def _rel(model_id: str) -> str:
    return f"scores/models/{model_id}.yaml"


model_id_problems = load.model_id_problems  # what the loader would say about the file, before it exists


def _existing_problems(root: Path, model_id: str) -> list[Problem]:
    rel = _rel(model_id)
    if model_path(root, model_id).exists():
        return [Problem(rel, 0, 0, "", "file already exists", "add results with `sitegen new result`, or edit it")]
    folder = Path(root) / "scores" / "models"
    if folder.is_dir():
        wanted = rel.casefold()
        for path in sorted(folder.glob("*/*.yaml")):
            other = path.relative_to(root).as_posix()
            if other.casefold() == wanted:
                return [
                    Problem(
                        rel,
                        0,
                        0,
                        "id",
                        f"collides with {other} when case is ignored",
                        "ids must differ by more than letter case (case-insensitive file systems merge them)",
                    )
                ]
    return []


def scalar(value: object) -> str:
    """One YAML scalar as the strict reader accepts it: plain when unambiguous, else double-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if re.match(
        r"https://[^\s\"'#]*(#[^\s\"']*)?\Z", text
    ):  # a link reads best unquoted; '#' after no space is no comment
        return text
    if (
        _PLAIN.match(text)
        and text.casefold() not in _YAML_WORDS
        and not text.endswith(" ")
        and ": " not in text
        and " #" not in text
    ):
        return text
    import json

    return json.dumps(text, ensure_ascii=False)


def number_text(text: str) -> str:
    """A value as typed on the command line, as a plain YAML number ('41.40' -> '41.4', '07' -> '7')."""
    try:
        value = Decimal(str(text).strip())
    except InvalidOperation:
        raise RefusedError(
            [
                Problem(
                    "", 0, 0, "value", f"'{text}' is not a number", "write a plain number without quotes, %, $ or units"
                )
            ]
        ) from None
    if not value.is_finite():
        raise RefusedError([Problem("", 0, 0, "value", f"'{text}' is not a finite number", "write a plain number")])
    out = format(value.normalize(), "f")
    return "0" if out in ("-0", "0") else out


def model_schema_line(root: Path) -> str:
    """The editor's schema comment of a model file (scores/models/<org>/<model>.yaml) in this repository: the path
    to its model schema; the copy `sitegen init` writes when the repository has neither folder."""
    folder = next((f for f in SCHEMA_FOLDERS if (Path(root) / f / "model.schema.json").is_file()), SCHEMA_FOLDERS[0])
    return f"# yaml-language-server: $schema=../../../{folder}/model.schema.json\n"


def model_text(model_id: str, name: str, organization: str, schema_line: str) -> str:
    """A new model file: the schema line and the required fields, with the optional ones as comments."""
    return (
        schema_line
        + f"id: {model_id}\n"
        + f"name: {scalar(name)}\n"
        + f"release: {identity.propose(model_id, name)['release']}\n"
        + f"organization: {scalar(organization)}\n"
        + "# Optional fields (see CONTRIBUTING.md): effort, released, weights, reasoning, parameters, aliases, family,\n"
        + "# context_window, licence, pricing, results. Add results with `sitegen new result`.\n"
    )


def _new_warnings(before: list[Problem], after: list[Problem], rel: str) -> list[Problem]:
    """Warnings in the file just written, and those the write caused elsewhere (e.g. another source's value now
    disagrees): what the contributor should look at."""
    seen = {(p.path, p.field, p.message, p.hint) for p in before}
    return [p for p in after if p.path == rel or (p.path, p.field, p.message, p.hint) not in seen]


def _place(old_text: str, new_text: str, problems: list[Problem], index: int) -> list[Problem]:
    """Registry problems of a result about to be appended, placed at the line and column its field would have in
    the file (`results[index].source`), instead of the file alone."""
    old, new = old_text.splitlines(), new_text.splitlines()
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), len(old))
    block = range(start, start + len(new) - len(old))
    out = []
    for p in problems:
        line, col = 0, 0
        for i in block:
            match = re.match(rf"(\s*(?:-\s+)?){re.escape(p.field)}:", new[i])
            if match:
                line, col = i + 1, len(match.group(1)) + 1
                break
        out.append(dataclasses.replace(p, line=line, col=col, field=f"results[{index}].{p.field}") if line else p)
    return out


def usual_organization(root: Path, folder: Path) -> str | None:
    """The organisation name most models in an org folder give (ties: alphabetical), so a new model spells it
    the same way; None for a new folder. Read by the loader's rules (no link followed)."""
    counts: dict[str, int] = {}
    for path in sorted(Path(folder).glob("*.yaml")) if Path(folder).is_dir() else []:
        raw = load.read_data(path, Path(root), yamlstrict.MAX_BYTES)
        parsed = yamlstrict.parse(raw, path.name)[0] if raw is not None else None
        org = parsed.data.get("organization") if parsed is not None and isinstance(parsed.data, dict) else None
        if isinstance(org, str):
            counts[org] = counts.get(org, 0) + 1
    return min(counts, key=lambda o: (-counts[o], o)) if counts else None


def new_model(root: Path, model_id: str, name: str | None = None, organization: str | None = None) -> Path:
    """Write scores/models/<model_id>.yaml; raise RefusedError (and write nothing) when it would not validate."""
    root = Path(root)
    problems = model_id_problems(model_id) or _existing_problems(root, model_id)
    if problems:
        raise RefusedError(problems)
    org, slug = model_id.split("/")
    path = model_path(root, model_id)
    organization = organization or usual_organization(root, path.parent) or org
    data = model_text(model_id, name or slug, organization, model_schema_line(root)).encode("utf-8")
    problems = new_errors(root, {_rel(model_id): data})  # the repository as it would be, on a copy
    if problems:
        raise RefusedError(problems)
    _write(root, path, data)
    return path


def _write(root: Path, path: Path, data: bytes) -> None:
    """Replace one model file atomically, by the path rule (no link below the root is written through)."""
    from ..paths import PathRefused
    from ..write import replace_file

    try:
        replace_file(path, data, root=root)
    except PathRefused as exc:
        raise RefusedError([exc.problem]) from None


# --------------------------------------------------------------------------- results


@dataclasses.dataclass(frozen=True)
class Registries:
    benchmarks: dict  # id -> entry
    sources: set


def registries(root: Path) -> Registries:
    repo, problems = load.load_repo(Path(root))
    bad = [p for p in problems if p.path in ("methodology/benchmarks.yaml", "scores/sources.yaml")]
    if bad or repo.benchmarks is None or repo.sources is None:
        raise RefusedError(
            bad or [Problem("methodology/benchmarks.yaml", 0, 0, "", "registry cannot be read", "run sitegen validate")]
        )
    benchmarks = {b["id"]: b for b in repo.benchmarks.data.get("benchmarks", []) if isinstance(b, dict) and "id" in b}
    sources = {s["id"] for s in repo.sources.data.get("sources", []) if isinstance(s, dict) and "id" in s}
    return Registries(benchmarks, sources)


def result_problems(result: dict, reg: Registries, rel: str) -> list[Problem]:
    """The cross-file checks of one result, in checks.py's words, before anything is written."""
    out = []
    benchmark = result["benchmark"]
    if benchmark not in reg.benchmarks:
        out.append(
            Problem(
                rel,
                0,
                0,
                "benchmark",
                f"unknown benchmark '{benchmark}'",
                suggest_id(benchmark, reg.benchmarks, BENCHMARK_HINT),
            )
        )
    source = result["source"]
    if source not in reg.sources:
        out.append(
            Problem(
                rel,
                0,
                0,
                "source",
                f"unknown source '{source}'",
                suggest_id(source, reg.sources, SOURCE_HINT),
            )
        )
    entry = reg.benchmarks.get(benchmark)
    if entry is not None:
        metrics: list[Any] = [m.get("id") for m in entry.get("metrics", []) if isinstance(m, dict)]
        metric = result.get("metric")
        if metric is not None and metric not in metrics:
            out.append(Problem(rel, 0, 0, "metric", f"unknown metric '{metric}'", metric_hint(benchmark, metrics)))
        subset = result.get("subset")
        subsets = entry.get("subsets", [])
        if subset is not None and subset not in subsets:
            out.append(Problem(rel, 0, 0, "subset", f"unknown subset '{subset}'", subset_hint(benchmark, subsets)))
    return out


def result_lines(result: dict, dash_indent: int, key_indent: int) -> list[str]:
    """One result as block-style YAML lines: '- benchmark: ...' then one key per line."""
    lines: list[str] = []
    for key in RESULT_ORDER:
        if key not in result or result[key] is None:
            continue
        value = result[key]
        text = value if key == "value" else scalar(value)
        if key == "retrieved":
            text = f'"{value}"'
        prefix = " " * dash_indent + "- " if not lines else " " * key_indent
        lines.append(f"{prefix}{key}: {text}\n")
    return lines


def _block_end(lines: list[str], start: int, key_col: int) -> int:
    """Index just past the last content line of the block that starts at lines[start] (the `results:` line)."""
    last = start
    for i in range(start + 1, len(lines)):
        stripped = lines[i].strip()
        if not stripped:
            continue
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
        if stripped.startswith("#"):
            if indent > key_col:
                last = i
            continue
        if (
            indent > key_col
            or (indent == key_col and stripped.startswith("- "))
            or (indent == key_col and stripped == "-")
        ):
            last = i
            continue
        break
    return last + 1


def append_text(text: str, result: dict, rel: str = "model.yaml") -> str:
    """The file's text with one result appended to `results:`; everything else is kept byte for byte."""
    parsed, problems = yamlstrict.parse(text.encode("utf-8"), rel)
    if parsed is None or not isinstance(parsed.data, dict):
        raise RefusedError(problems or [Problem(rel, 1, 1, "", "not a YAML mapping", "run sitegen validate")])
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    data = parsed.data
    if "results" not in data:
        return "".join(lines) + "results:\n" + "".join(result_lines(result, 2, 4))
    key_line, key_col = parsed.key_marks[("results",)]
    key_col -= 1
    existing = data["results"]
    header = lines[key_line - 1]
    if not isinstance(existing, list):
        raise RefusedError(
            [Problem(rel, key_line, key_col + 1, "results", "results is not a list", "make it a list of results")]
        )
    if not existing:
        if not re.match(r"\s*results:\s*\[\s*\]\s*(#.*)?$", header.rstrip("\n")):
            raise RefusedError(
                [
                    Problem(
                        rel,
                        key_line,
                        key_col + 1,
                        "results",
                        "cannot append to this empty list",
                        "write `results: []` on one line, or add the first result by hand",
                    )
                ]
            )
        comment = header[header.index("]") + 1 :].strip()
        lines[key_line - 1] = " " * key_col + "results:" + (f"  {comment}" if comment else "") + "\n"
        new = result_lines(result, key_col + 2, key_col + 4)
        return "".join(lines[:key_line] + new + lines[key_line:])
    first_line, first_col = parsed.marks[("results", 0)]
    if first_line == key_line:
        raise RefusedError(
            [
                Problem(
                    rel,
                    key_line,
                    key_col + 1,
                    "results",
                    "results is written in flow style [...]",
                    "write each result on its own lines starting with '- ' and run again",
                )
            ]
        )
    item_line = lines[first_line - 1]
    dash_indent = len(item_line) - len(item_line.lstrip(" "))
    key_indent = first_col - 1
    if not item_line.lstrip(" ").startswith("-") or key_indent <= dash_indent:
        raise RefusedError(
            [
                Problem(
                    rel,
                    first_line,
                    first_col,
                    "results[0]",
                    "each result must be a mapping",
                    "write '- benchmark: ...' for each result",
                )
            ]
        )
    end = _block_end(lines, key_line - 1, key_col)
    return "".join(lines[:end] + result_lines(result, dash_indent, key_indent) + lines[end:])


def new_result(
    root: Path,
    model_id: str,
    *,
    benchmark: str,
    value: str,
    source: str,
    url: str | None = None,
    metric: str | None = None,
    subset: str | None = None,
    harness: str | None = None,
    self_reported: bool = False,
    retrieved: str | None = None,
    on_warning: Callable[[Problem], None] | None = None,
) -> Path:
    """Append one result to a model file (today's retrieval date by default); refuse what would not validate.

    `on_warning` is called with each warning the new result brings (in the file, or caused elsewhere)."""
    root = Path(root)
    rel = _rel(model_id)
    path = _existing_model_file(root, model_id)
    result = {
        "benchmark": benchmark,
        "metric": metric,
        "subset": subset,
        "harness": harness,
        "value": number_text(value),
        "source": source,
        "retrieved": retrieved or authoring_date(),
        "url": url,
        "self_reported": True if self_reported else None,
    }
    old_bytes = _read_model_file(root, path, rel)
    old_text = old_bytes.decode("utf-8")
    new_text = append_text(old_text, result, rel)
    problems = result_problems(result, registries(root), rel)
    if problems:
        parsed, _ = yamlstrict.parse(old_bytes, rel)
        existing = parsed.data.get("results") if parsed is not None and isinstance(parsed.data, dict) else None
        raise RefusedError(_place(old_text, new_text, problems, len(existing) if isinstance(existing, list) else 0))
    _write_if_valid(root, path, rel, new_text, on_warning)
    return path


def _write_if_valid(
    root: Path, path: Path, rel: str, new_text: str, on_warning: Callable[[Problem], None] | None
) -> None:
    """Write new_text to a model file unless the repository as it would be has an error it does not have now;
    then call on_warning with each warning the change brings."""
    from ..data import validate_change, validate_repo

    after = validate_change(root, {rel: new_text.encode("utf-8")})  # the repository as it would be, on a copy
    errors = [p for p in after if p.severity == ERROR]
    before = validate_repo(root)[1] if errors or on_warning is not None else []
    known = {(p.path, p.field, p.message) for p in before if p.severity == ERROR}
    problems = [p for p in errors if (p.path, p.field, p.message) not in known]
    if problems:
        raise RefusedError(problems)
    _write(root, path, new_text.encode("utf-8"))
    if on_warning is not None:
        warnings_after = [p for p in after if p.severity != ERROR]
        for problem in _new_warnings([p for p in before if p.severity != ERROR], warnings_after, rel):
            on_warning(problem)


def _existing_model_file(root: Path, model_id: str) -> Path:
    """The model file of model_id; refused (RefusedError) when the id is malformed or names no model file."""
    rel = _rel(model_id)
    problems = model_id_problems(model_id)
    path = model_path(root, model_id)
    if not problems and not path.is_file():
        known = [
            p.relative_to(root / "scores/models").with_suffix("").as_posix()
            for p in (root / "scores/models").glob("*/*.yaml")
        ]
        hint = suggest_id(model_id, known, "create it first with `sitegen new model`")
        problems = [Problem(rel, 0, 0, "", f"unknown model '{model_id}'", hint)]
    if problems:
        raise RefusedError(problems)
    return path


def _read_model_file(root: Path, path: Path, rel: str) -> bytes:
    """A model file's bytes, read by the loader's rules; refused with the loader's problem when it cannot be."""
    data = load.read_data(path, root, yamlstrict.MAX_BYTES)
    if data is None:
        problems: list[Problem] = []
        load.read_regular(path, root, yamlstrict.MAX_BYTES, problems)
        raise RefusedError(
            problems or [Problem(rel, 0, 0, "", "cannot read the file", "check that it is a regular file")]
        )
    return data


def authoring_date() -> str:
    """Today's date for a new result: SOURCE_DATE_EPOCH when set (scripted, reproducible runs), else the clock."""
    import datetime
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date().isoformat()
    return checks.today().isoformat()
