"""The only reader of scores/ and methodology/: every data file, strictly parsed, with its problems."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

from .. import paths
from ..problems import Problem
from . import kinds, parsecache, yamlstrict

RESERVED_NAMES = {
    "index",
    "assets",
    "api",
    "search",
    "404",
    "cname",
    "models",
    "benchmarks",
    "static",
    "methodology",
    "compare",
    "downloads",
    "sitemap",
    "robots",
}
WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
_SEGMENT = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")
MAX_RAW_BYTES = 50 * 1024 * 1024
# Files in a folder of one kind that are of another kind.
SPECIAL_FILES = {"scores/imported/ignore.yaml": "ignore"}
#: The reviewed table of the names other formats give the registry's benchmarks (interchange/records.py reads it).
INTERCHANGE_NAMES = "methodology/interchange-names.yaml"


@dataclasses.dataclass(frozen=True)
class Doc:
    """One parsed data file: where it is (relative to the root), what kind it is, and its data with marks."""

    path: str
    kind: str  # model | imported | overrides | ignore | identity | sources | benchmarks | index | citation | metadata
    parsed: yamlstrict.Parsed

    @property
    def data(self) -> Any:
        return self.parsed.data

    def mark(self, *json_path: str | int) -> tuple[int, int]:
        return self.parsed.mark(json_path)

    def value_mark(self, *json_path: str | int) -> tuple[int, int]:
        return self.parsed.value_mark(json_path)


@dataclasses.dataclass(frozen=True)
class RawFile:
    """Per-question results of one model on one benchmark (scores/raw/<benchmark>/<org>/<model>.jsonl)."""

    path: str
    benchmark: str
    model: str
    rows: tuple  # (line number, dict) pairs


@dataclasses.dataclass(frozen=True)
class Repo:
    root: Path
    benchmarks: Doc | None
    sources: Doc | None
    overrides: Doc | None
    ignore: Doc | None
    citation: Doc | None  # CITATION.cff at the root, shown on the site's Cite page
    indices: tuple[Doc, ...]
    models: tuple[Doc, ...]
    imported: tuple[Doc, ...]
    raw: tuple[RawFile, ...]
    pages: tuple[tuple[str, str], ...]  # (file name, Markdown text) of methodology/*.md
    metadata: Doc | None = None  # scores/metadata.yaml: sourced metadata rules for releases, families, organisations
    identity: Doc | None = None  # scores/identity.yaml: per-source naming tables, reviewed distinct pairs
    site: Doc | None = None  # methodology/site.yaml: how the site presents the boards (title, order, charts)
    names: Doc | None = None  # methodology/interchange-names.yaml: other formats' names for the benchmarks
    #: What validation made from these files for the build to take, not make again: "model_records", the records
    #: the cross-file checks shared (checks.run_checks). Not a field of the data: not compared, never copied.
    made: dict[str, Any] = dataclasses.field(default_factory=dict, init=False, compare=False, repr=False)

    def all_docs(self) -> Iterator[Doc]:
        for doc in (
            self.benchmarks,
            self.sources,
            self.overrides,
            self.ignore,
            self.citation,
            self.metadata,
            self.identity,
            self.site,
            self.names,
        ):
            if doc is not None:
                yield doc
        yield from self.indices
        yield from self.models
        yield from self.imported


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _name_problem(rel: str, name: str) -> Problem | None:
    """File names must be plain lower-case slugs ending in .yaml: they become ids and URLs."""
    shown = name.encode("unicode_escape").decode("ascii")
    if any(ch.isspace() for ch in name) or any(ord(ch) < 32 for ch in name):
        return Problem(
            rel,
            0,
            0,
            "",
            f"file name '{shown}' contains white space or control characters",
            "use lower-case letters, digits, '.', '_' and '-'",
        )
    for segment in rel.split("/"):
        base = segment[: -len(".yaml")] if segment == name and name.endswith(".yaml") else segment
        if base.endswith((".", " ")) or base.split(".")[0].lower() in WINDOWS_RESERVED:
            why = "ends in a dot" if base.endswith((".", " ")) else "is a reserved device name on Windows"
            return Problem(rel, 0, 0, "", f"'{segment}' {why}", "rename it; Windows cannot check such a name out")
    stem, dot, ext = name.rpartition(".")
    if not dot or ext != "yaml":
        hint = "rename it to end in .yaml" if ext.lower() in ("yaml", "yml") else "only .yaml data files belong here"
        return Problem(rel, 0, 0, "", f"file name '{shown}' does not end in .yaml", hint)
    return None


def model_id_problems(model_id: str) -> list[Problem]:
    """Why a model id may not become a path (scores/models/<model_id>.yaml), before anything is written: what
    the loader would say about that file. It must match the schema's model id pattern and length (so no '..',
    no third segment, no leading dot) and not be a name the site reserves. Every command that turns an id into
    a path asks this first."""
    from .schema import model_id_pattern

    model_id = str(model_id)
    rel = f"scores/models/{model_id.encode('unicode_escape').decode('ascii')}.yaml"
    pattern, longest = model_id_pattern()
    parts = model_id.split("/")
    if len(parts) != 2 or not all(parts):
        return [
            Problem(
                rel,
                0,
                0,
                "",
                "model files live at scores/models/<org>/<model>.yaml",
                "give the id as ORG/NAME, e.g. acme/widget-7b",
            )
        ]
    for segment in parts:
        if not _SEGMENT.match(segment):
            shown = segment.encode("unicode_escape").decode("ascii")
            return [
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"path segment '{shown}' is not a valid id",
                    "use lower-case letters, digits, '.', '_' and '-', starting with a letter or digit",
                )
            ]
    if not pattern.fullmatch(model_id) or len(model_id) > longest:
        return [Problem(rel, 0, 0, "", f"the id is longer than {longest} characters", "choose a shorter id")]
    for segment in parts:
        if segment.lower() in RESERVED_NAMES:
            return [
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"'{segment}' is a reserved name on the site",
                    "choose another file name; it would clash with a generated page",
                )
            ]
    return []


MAX_PAGE_BYTES = 1024 * 1024


def read_regular(path: Path, root: Path, limit: int, problems: list[Problem]) -> bytes | None:
    """A data file's bytes, if it is a regular file (not a link, device or folder) no larger than limit.

    A pull request can add a symlink: followed, it would load or publish a file from outside the repository
    (or read /dev/zero forever). The file is opened without following links and read up to the limit.
    """
    rel = _rel(path, root)
    linked = paths.link_problem(root, path)  # the file, or a folder on the way to it, top-level ones included
    if linked is not None:
        problems.append(linked)
        return None
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            problems.append(
                Problem(rel, 0, 0, "", "is a symbolic link", "data files must be regular files in the repository")
            )
            return None
        if not stat.S_ISREG(info.st_mode):
            problems.append(
                Problem(rel, 0, 0, "", "is not a regular file", "data files must be regular files in the repository")
            )
            return None
        if info.st_size > limit:  # refuse by size before reading or parsing
            problems.append(
                Problem(
                    rel,
                    1,
                    1,
                    "",
                    f"file is {info.st_size:,} bytes, over the {limit:,}-byte limit",
                    "split it or remove what does not belong",
                )
            )
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        problems.append(Problem(rel, 0, 0, "", f"cannot read file: {exc.strerror}", "check that it is a readable file"))
        return None
    if len(raw) > limit:
        problems.append(
            Problem(rel, 1, 1, "", f"file is over the {limit:,}-byte limit", "split it or remove what does not belong")
        )
        return None
    return raw


def _read_yaml(path: Path, root: Path, kind: str, problems: list[Problem]) -> Doc | None:
    raw = read_regular(path, root, yamlstrict.MAX_BYTES, problems)
    if raw is None:
        return None
    rel = _rel(path, root)
    parsed, found = parsecache.parse(raw, rel, kind)  # kept by the file's digest in a validation run
    problems.extend(found)
    return Doc(rel, kind, parsed) if parsed is not None else None


def _walk(folder: Path, root: Path, problems: list[Problem]) -> list[Path]:
    """Every file below a folder, in a stable order, without following links (a linked folder is a problem)."""
    out: list[Path] = []
    linked = paths.link_problem(root, folder)
    if linked is not None:
        problems.append(linked)
        return out
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in list(dirnames):
            if os.path.islink(os.path.join(dirpath, name)):
                problems.append(
                    Problem(
                        _rel(Path(dirpath) / name, root),
                        0,
                        0,
                        "",
                        "is a symbolic link",
                        "data folders must be real folders in the repository",
                    )
                )
                dirnames.remove(name)
        for name in sorted(filenames):
            out.append(Path(dirpath) / name)
    return sorted(out, key=lambda p: p.as_posix())


def input_files(root: Path) -> list[Path]:
    """Every file sitegen may read: regular files below scores/ and methodology/, and CITATION.cff.

    The one answer to "which data files exist", for the loader and every other reader (the up-to-date digest,
    the importers' model registry). Entries that are not regular files (links, devices, FIFOs, linked folders)
    are listed too, so that adding one changes the digest, but read_data never opens them: no reader follows a
    link to /dev/zero or blocks on a FIFO, and load_repo reports them.
    """
    root = Path(root)
    found: list[Path] = []
    for folder in (root / "scores", root / "methodology"):
        if os.path.lexists(folder):
            problems: list[Problem] = []
            found += _walk(folder, root, problems) if folder.is_dir() else []
            found += [root / p.path for p in problems]  # linked folders, listed but not entered
    if os.path.lexists(root / "CITATION.cff"):
        found.append(root / "CITATION.cff")
    return sorted(found, key=lambda p: p.as_posix())


def regular_bytes(path: Path, limit: int, follow: bool = True) -> tuple[bytes | None, str]:
    """(a file's bytes, '') when it is a regular file of at most `limit` bytes, else (None, why). The file is
    opened without blocking (a FIFO is not waited on) and checked before it is read; no more than `limit` + 1
    bytes are ever read (/dev/zero is refused, not read to the end). `follow=False`: a link is refused, not
    followed (the path's last part; its folders are the caller's to check)."""
    import os
    import stat

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "is not a regular file"
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:
        return None, f"is over the {limit:,}-byte limit for an input file"
    return raw, ""


def read_data(path: Path, root: Path, limit: int = MAX_RAW_BYTES) -> bytes | None:
    """A file's bytes by the loader's rules (regular, not followed through a link, size-capped), or None."""
    return read_regular(Path(path), Path(root), limit, [])


def read_yaml(root: Path, rel: str, problems: list[Problem] | None = None) -> Any:
    """One data file's parsed data by the loader's rules (regular file, no link on the way, strict YAML), or None
    when it is missing, not a regular file or unreadable; for tools that need one file (importers, interchange),
    not a report. Why it is None (other than missing) goes to `problems` when given."""
    problems = [] if problems is None else problems
    path = Path(root) / rel
    linked = paths.link_problem(root, path)
    if linked is not None:
        problems.append(linked)
        return None
    raw = read_regular(path, Path(root), yamlstrict.MAX_BYTES, problems) if os.path.lexists(path) else None
    parsed, found = yamlstrict.parse(raw, rel) if raw is not None else (None, [])
    problems.extend(found)
    return parsed.data if parsed is not None else None


def read_doc(root: Path, rel: str, kind: str, problems: list[Problem]) -> Doc | None:
    """One data file as the loader reads it (read_yaml's rules, with its marks for placed problems), or None when
    it is missing or cannot be read (why, other than missing, goes to `problems`)."""
    path = Path(root) / rel
    return _read_yaml(path, Path(root), kind, problems) if os.path.lexists(path) else None


def _load_models(root: Path, problems: list[Problem]) -> list[Doc]:
    folder = root / "scores" / "models"
    docs: list[Doc] = []
    if not folder.is_dir():
        return docs
    for path in _walk(folder, root, problems):
        rel = _rel(path, root)
        parts = path.relative_to(folder).parts
        problem = _name_problem(rel, parts[-1])
        if problem:
            problems.append(problem)
            continue
        if len(parts) != 2:
            problems.append(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    "model files live at scores/models/<org>/<model>.yaml",
                    "move the file one folder below scores/models",
                )
            )
            continue
        segments = (parts[0], parts[1][: -len(".yaml")])
        bad = [s for s in segments if not _SEGMENT.match(s)]
        if bad:
            shown = bad[0].encode("unicode_escape").decode("ascii")
            problems.append(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"path segment '{shown}' is not a valid id",
                    "use lower-case letters, digits, '.', '_' and '-', starting with a letter or digit",
                )
            )
            continue
        reserved = [s for s in segments if s.lower() in RESERVED_NAMES]
        if reserved:
            problems.append(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"'{reserved[0]}' is a reserved name on the site",
                    "choose another file name; it would clash with a generated page",
                )
            )
            continue
        doc = _read_yaml(path, root, "model", problems)
        if doc:
            docs.append(doc)
    return docs


def _load_flat(folder: Path, root: Path, kind: str, problems: list[Problem]) -> list[Doc]:
    docs: list[Doc] = []
    if not folder.is_dir():
        return docs
    for path in _walk(folder, root, problems):
        rel = _rel(path, root)
        if path.parent != folder:
            problems.append(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    f"unexpected sub-folder in {_rel(folder, root)}",
                    "keep these files directly in the folder",
                )
            )
            continue
        problem = _name_problem(rel, path.name)
        if problem:
            problems.append(problem)
            continue
        doc = _read_yaml(path, root, SPECIAL_FILES.get(rel, kind), problems)
        if doc:
            docs.append(doc)
    return docs


def _load_raw(root: Path, problems: list[Problem]) -> list[RawFile]:
    folder = root / "scores" / "raw"
    out: list[RawFile] = []
    if not folder.is_dir():
        return out
    for path in _walk(folder, root, problems):
        rel = _rel(path, root)
        parts = path.relative_to(folder).parts
        if (
            len(parts) != 3
            or not path.name.endswith(".jsonl")
            or not all(_SEGMENT.match(s) for s in (parts[0], parts[1], parts[2][: -len(".jsonl")]))
        ):
            problems.append(
                Problem(
                    rel,
                    0,
                    0,
                    "",
                    "per-question files live at scores/raw/<benchmark>/<org>/<model>.jsonl",
                    "rename or move the file",
                )
            )
            continue
        raw_bytes = read_regular(path, root, MAX_RAW_BYTES, problems)
        if raw_bytes is None:
            continue
        try:
            text = raw_bytes.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(Problem(rel, 1, 1, "", "file is not valid UTF-8", "save it as UTF-8"))
            continue
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int)
            except (ValueError, RecursionError) as exc:
                problems.append(Problem(rel, number, 1, "", f"not a JSON object: {exc}", "one JSON object per line"))
                continue
            if not isinstance(row, dict):
                problems.append(Problem(rel, number, 1, "", "not a JSON object", "one JSON object per line"))
                continue
            rows.append((number, row))
        out.append(RawFile(rel, parts[0], f"{parts[1]}/{parts[2][: -len('.jsonl')]}", tuple(rows)))
    return out


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed")


def _short_int(text: str) -> int:
    if len(text.lstrip("-")) > yamlstrict.MAX_INT_DIGITS:
        raise ValueError(f"number with {len(text.lstrip('-')):,} digits is too long")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large to be a finite number")
    return value


def load_repo(root: Path | str) -> tuple[Repo, list[Problem]]:
    """Read every data file below root; problems are returned, never raised."""
    with paths.resolved_once(Path(root).resolve()) as resolved:  # not twice for each of the ~900 files
        return _load_repo(resolved)


def _load_repo(root: Path) -> tuple[Repo, list[Problem]]:
    problems: list[Problem] = []

    def single(rel: str, kind: str, required: bool) -> Doc | None:
        path = root / rel
        if not path.is_file():
            if required:
                problems.append(
                    Problem(
                        rel,
                        0,
                        0,
                        "",
                        "required file is missing",
                        "run sitegen from the folder that holds scores/ and methodology/, or pass --root",
                    )
                )
            return None
        return _read_yaml(path, root, kind, problems)

    benchmarks = single("methodology/benchmarks.yaml", "benchmarks", True)
    sources = single("scores/sources.yaml", "sources", True)
    overrides = single("scores/overrides.yaml", "overrides", False)
    metadata = single("scores/metadata.yaml", "metadata", False)
    citation = single("CITATION.cff", "citation", False)
    identity = single("scores/identity.yaml", "identity", False)
    site = single("methodology/site.yaml", "site", False)
    names = single(INTERCHANGE_NAMES, "interchange-names", False)
    indices = _load_flat(root / "methodology" / "indices", root, "index", problems)
    kinds.resolve_kinds(doc.data for doc in indices)  # a generic kind name -> the engine's (data/kinds.py)
    models = _load_models(root, problems)
    imported_all = _load_flat(root / "scores" / "imported", root, "imported", problems)
    imported = [d for d in imported_all if d.kind == "imported"]
    ignore = next((d for d in imported_all if d.kind == "ignore"), None)
    raw = _load_raw(root, problems)
    pages = []
    meth = root / "methodology"
    if meth.is_dir():
        for path in sorted(meth.glob("*.md")):
            raw_page = read_regular(path, root, MAX_PAGE_BYTES, problems)
            if raw_page is None:
                continue
            try:
                pages.append((path.name, raw_page.decode("utf-8")))
            except UnicodeDecodeError:
                problems.append(Problem(_rel(path, root), 1, 1, "", "file is not valid UTF-8", "save it as UTF-8"))
    repo = Repo(
        root,
        benchmarks,
        sources,
        overrides,
        ignore,
        citation,
        tuple(indices),
        tuple(models),
        tuple(imported),
        tuple(raw),
        tuple(pages),
        metadata,
        identity,
        site,
        names,
    )
    return repo, problems
