"""The data stage: strict YAML, the loader, JSON Schema and cross-file checks, and the frames the engine reads."""

from __future__ import annotations

from pathlib import Path

from ..problems import ERROR


def validate_repo(root: Path):
    """Read and check every file (load -> schema -> checks); the repo is returned only when there are no errors."""
    from . import checks, load, schema

    repo, problems = load.load_repo(root)
    shaped = [p for doc in repo.all_docs() for p in schema.check_doc(doc)]
    shaped += [p for raw in repo.raw for p in schema.check_raw(raw)]
    problems.extend(not_yet_reported(shaped, problems))
    problems.extend(checks.run_checks(repo))
    problems = sorted(set(problems), key=lambda p: (p.path, p.line, p.col, p.field, p.message))
    ok = not any(p.severity == ERROR for p in problems)
    return (repo if ok else None), problems


def not_yet_reported(found, reported) -> list:
    """`found` without the problems at a place (file, line, column) `reported` already names: one error per value.
    The YAML reader says why a value is what it is (an unquoted `no`, a leading zero, `.nan`), so the schema's
    complaint about the same value (expected boolean, got text 'no') would only repeat it."""
    places = {(p.path, p.line, p.col) for p in reported if p.line}
    return [p for p in found if (p.path, p.line, p.col) not in places]
