"""The data stage: strict YAML, the loader, JSON Schema and cross-file checks, and the frames the engine reads."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import ERROR, Problem

if TYPE_CHECKING:
    from .load import Repo


def validate_repo(
    root: Path, parse_cache: bool = True, keep: bool = False, cache: Path | None = None
) -> tuple[Repo | None, list[Problem]]:
    """Read and check every file (load -> schema -> checks); the repo is returned only when there are no errors.
    With parse_cache, each file's parse and schema problems are taken from the cache's folder by its digest
    (data/parsecache.py), and with keep, kept there: a build keeps them, `sitegen validate` and a check write
    nothing. `cache`: the cache's folder when it is not root's own (`sitegen diff` reads a ref's copy with the
    repository's entries, which are keyed by each file's path below its root and its bytes). The per-file rules'
    verdicts (checks.FILE_RULES) are kept with each file's parse; the cross-file checks run every time."""
    from .. import reuse
    from . import checks, load, parsecache, schema

    folder = (cache if cache is not None else reuse.cache_folder(Path(root))) if parse_cache else None
    with parsecache.kept(folder / parsecache.FOLDER if folder is not None else None, keep):
        repo, problems = load.load_repo(root)
        judge = (checks.today().isoformat(), checks.judge_file)
        shaped = [p for doc in repo.all_docs() for p in parsecache.schema_problems(doc, schema.check_doc, judge)]
        shaped += [p for raw in repo.raw for p in schema.check_raw(raw)]
        problems.extend(not_yet_reported(shaped, problems))
        problems.extend(checks.run_checks(repo))  # the per-file rules' verdicts from the store, the rest run
    problems = sorted(set(problems), key=lambda p: (p.path, p.line, p.col, p.field, p.message))
    ok = not any(p.severity == ERROR for p in problems)
    return (repo if ok else None), problems


def not_yet_reported(found: Iterable[Problem], reported: Iterable[Problem]) -> list[Problem]:
    """`found` without the problems at a place (file, line, column) `reported` already names: one error per value.
    The YAML reader says why a value is what it is (an unquoted `no`, a leading zero, `.nan`), so the schema's
    complaint about the same value (expected boolean, got text 'no') would only repeat it."""
    places = {(p.path, p.line, p.col) for p in reported if p.line}
    return [p for p in found if (p.path, p.line, p.col) not in places]


def validate_change(root: Path, changes: dict[str, bytes | None]) -> list:
    """Every problem `validate_repo` would report once `changes` (a path relative to the root -> its new bytes;
    None: removed) were made, found on a copy of the data tree: nothing in the repository is touched. A command
    that edits several files validates the outcome with this before it writes any of them."""
    import shutil
    import tempfile

    from .. import paths

    root = Path(root).resolve()
    with tempfile.TemporaryDirectory(prefix="sitegen-change-") as tmp:
        copy = Path(tmp) / "repo"
        copy.mkdir()
        for name in ("scores", "methodology"):
            if (root / name).is_dir():
                shutil.copytree(root / name, copy / name, symlinks=True)  # a link stays a link, and is reported
        if (root / "CITATION.cff").is_file() and not (root / "CITATION.cff").is_symlink():
            shutil.copy2(root / "CITATION.cff", copy / "CITATION.cff")
        for rel, data in sorted(changes.items()):
            target = paths.inside(copy, copy / rel)
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        return validate_repo(copy, parse_cache=False)[1]  # a throw-away copy: nothing to keep


def new_errors(root: Path, changes: dict[str, bytes | None]) -> list:
    """The errors `changes` would bring (validate_change) that the repository does not have now: a command may
    write into a repository that already has errors, but never add one. Errors are compared by what they say,
    not where: a rename or merge moves a file's errors with its lines, and only more of one kind is new."""
    from collections import Counter

    after = [p for p in validate_change(root, changes) if p.severity == ERROR]
    if not after:
        return []
    known = Counter((p.message, p.hint) for p in validate_repo(root)[1] if p.severity == ERROR)
    new = []
    for p in sorted(after):
        if known[(p.message, p.hint)] > 0:
            known[(p.message, p.hint)] -= 1
        else:
            new.append(p)
    return new
