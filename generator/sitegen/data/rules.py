"""The registry of cross-file rules and what every rule uses to say where a problem is.

checks.py and checks_methodology.py register their rules here (`@check`); checks.run_checks runs them in order.
"""

from __future__ import annotations

from ..problems import Problem

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def list_of(data, key) -> list:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def problem_at(doc, path, field, message, hint="", severity="error", key=True) -> Problem:
    line, col = doc.mark(*path) if key else doc.value_mark(*path)
    return Problem(doc.path, line, col, field, message, hint, severity)


def suggest_id(name: str, known, fallback: str) -> str:
    """'did you mean X?' for the known id closest to an unknown one (difflib over the ids in sorted order, so the
    same input always gets the same hint), else the fallback hint."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else fallback
