"""Parsed data files, their schema problems and the verdicts of the per-file rules, kept by each file's digest: a
rebuild parses, schema-checks and judges only the files whose bytes changed since the last run; the cross-file
rules (checks.py) run every time.

An entry is named by SHA-256 of the package's code (reuse.code_digest: the parser, the schemas, the rules, the
libraries' and Python's versions), the file's kind, its path and its bytes, so it is what parsing those bytes there
gives: the parsed data with its marks, the YAML reader's problems and the schema's, each with its path:line:col, and
what each per-file rule (checks.FILE_RULES: a rule whose verdict on a file reads only that file and the date) found
in it, with the day they were judged on (a verdict of another day is judged again). Entries live in
`parse/` of the compute cache's folder (reuse.cache_folder; SITEGEN_CACHE=off keeps nothing), are written whole
or not at all (a new file, then a rename), read without following a link, and a run keeps only the entries it
used. Deleting them is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .. import reuse
from ..problems import Problem
from . import yamlstrict

if TYPE_CHECKING:
    from .load import Doc

#: The entries' folder inside the cache's.
FOLDER = "parse"
#: A per-file rule's verdict on one file: its problems, and whether it raised after them (checks.judge_file)
Verdict = tuple[list[Problem], bool]
#: The per-file rules' verdicts on one file: (the day they were judged on, ISO; rule name -> verdict)
Verdicts = tuple[str, dict[str, Verdict]]
#: (today, ISO; what judges a file's verdicts: checks.judge_file)
Judge = tuple[str, Callable[["Doc"], Verdicts]]
#: What an entry holds: the parsed file (None when it does not parse), the reader's problems, the schema's (None until
#: the schema has checked it) and the per-file rules' verdicts (None until they are judged)
_Entry = tuple[yamlstrict.Parsed | None, list[Problem], list[Problem] | None, Verdicts | None]


class Store:
    """One validation run's view of the entries in `folder`."""

    def __init__(self, folder: Path, keep: bool = True):
        self.folder, self.keep = Path(folder), keep
        self.salt = reuse.code_digest()
        self.used: set[str] = set()
        self.names: dict[tuple[str, str], str] = {}  # (path, kind) -> the entry this run parsed it by
        self.entries: dict[str, _Entry] = {}  # this run's, by name: read, or made and written once checked
        self.ok = reuse.no_link_on_the_way(self.folder, 3)

    def _name(self, raw: bytes, rel: str, kind: str) -> str:
        head = f"{self.salt}\0{kind}\0{rel}\0".encode()
        return hashlib.sha256(head + raw).hexdigest()

    def _read(self, name: str) -> _Entry | None:
        if not self.ok:
            return None
        try:
            fd = os.open(self.folder / f"{name}.pickle", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as f:
                entry = pickle.loads(f.read())
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
            return None  # damaged: parsed again and replaced
        return entry if isinstance(entry, tuple) and len(entry) == 4 else None

    def _write(self, name: str, entry: _Entry) -> None:
        if not (self.ok and self.keep):
            return
        try:
            reuse.write_cache_entry(self.folder, name, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            return  # a cache that cannot be written is only slower

    def parse(self, raw: bytes, rel: str, kind: str) -> tuple[yamlstrict.Parsed | None, list[Problem]]:
        """yamlstrict.parse(raw, rel), from the entry of these bytes when there is one."""
        name = self._name(raw, rel, kind)
        self.used.add(name)
        self.names[(rel, kind)] = name
        entry = self.entries.get(name) or self._read(name)
        if entry is None:
            parsed, found = yamlstrict.parse(raw, rel)
            entry = (parsed, list(found), [] if parsed is None else None, None)  # nothing to check when nothing parsed
            if parsed is None:
                self._write(name, entry)
        self.entries[name] = entry
        return entry[0], list(entry[1])

    def schema_problems(
        self, doc: Doc, check: Callable[[Doc], Iterable[Problem]], judge: Judge | None = None
    ) -> list[Problem]:
        """check(doc) (schema.check_doc), from the entry the document was parsed by when it has them; and with
        judge, (today, checks.judge_file), the per-file rules' verdicts on it, judged again when the entry has none
        of today."""
        name = self.names.get((doc.path, doc.kind))
        entry = self.entries.get(name) if name is not None else None
        if name is None or entry is None:
            return list(check(doc))
        found = entry[2]
        verdicts = entry[3]
        changed = found is None
        if found is None:
            found = list(check(doc))
        if judge is not None and (verdicts is None or verdicts[0] != judge[0]):
            verdicts = judge[1](doc)
            changed = True
        if changed:
            # written now, before anything later in the run could change the parsed data
            self.entries[name] = (entry[0], entry[1], found, verdicts)
            self._write(name, self.entries[name])
        return list(found)

    def verdict(self, doc: Doc, rule: str, day: str) -> Verdict | None:
        """A per-file rule's verdict on doc, judged on `day`, from the entry the document was parsed by; None when
        there is none (the rule then judges the file itself)."""
        name = self.names.get((doc.path, doc.kind))
        entry = self.entries.get(name) if name is not None else None
        verdicts = entry[3] if entry is not None else None
        if verdicts is None or verdicts[0] != day or rule not in verdicts[1]:
            return None
        problems, raised = verdicts[1][rule]
        return list(problems), raised

    def prune(self) -> None:
        """Remove the entries this run did not use (and any left half-written)."""
        if self.ok and self.keep:
            reuse.prune_cache(self.folder, self.used)


#: The store of the validation run in progress (set by `kept`), else None: load.py parses afresh.
_CURRENT: list[Store | None] = [None]


@contextlib.contextmanager
def kept(folder: Path | None, keep: bool = True) -> Iterator[Store | None]:
    """Within the block, data files are parsed through a Store over `folder` (None: no cache)."""
    store = Store(folder, keep) if folder is not None else None
    outer = _CURRENT[0]
    _CURRENT[0] = store
    try:
        yield store
    finally:
        _CURRENT[0] = outer
    if store is not None:
        store.prune()


def parse(raw: bytes, rel: str, kind: str) -> tuple[yamlstrict.Parsed | None, list[Problem]]:
    """yamlstrict.parse(raw, rel) through the current run's store, when there is one."""
    store = _CURRENT[0]
    if store is None:
        parsed, found = yamlstrict.parse(raw, rel)
        return parsed, list(found)
    return store.parse(raw, rel, kind)


def schema_problems(doc: Doc, check: Callable[[Doc], Iterable[Problem]], judge: Judge | None = None) -> list[Problem]:
    """check(doc) through the current run's store, when there is one (which also keeps judge(doc))."""
    store = _CURRENT[0]
    return list(check(doc)) if store is None else store.schema_problems(doc, check, judge)


def verdict(doc: Doc, rule: str, day: str) -> Verdict | None:
    """A per-file rule's verdict on doc judged on `day`, kept by the current run's store; None without one."""
    store = _CURRENT[0]
    return None if store is None else store.verdict(doc, rule, day)
