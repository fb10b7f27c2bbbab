"""Progress of a long command on stderr: a bar on a terminal, one line per stage in CI logs, nothing when quiet
(or when stderr is redirected outside CI). Only stage names and counts are shown (no clock), and only on stderr: the output files never depend on it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, Literal, TextIO, TypeVar

import click

#: A click command function.
F = TypeVar("F", bound=Callable[..., Any])


def in_ci() -> bool:
    """Running in CI (GitHub Actions sets both; most other services set CI)."""
    return os.environ.get("GITHUB_ACTIONS") == "true" or os.environ.get("CI", "").lower() in ("true", "1")


def interactive(stream: TextIO) -> bool:
    """A terminal a person watches (not CI, which logs lines, even when it allocates a terminal)."""
    try:
        return stream.isatty() and not in_ci()
    except (AttributeError, ValueError):
        return False


class Progress:
    """Call with each stage's name as it starts: `progress("rendering pages")`. Use as a context manager."""

    def __init__(self, label: str, total: int, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.label, self.total, self.quiet = label, max(total, 1), quiet
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.bar = None
        if not quiet and interactive(self.stream):
            self.bar = click.progressbar(
                length=self.total,
                label=label,
                file=self.stream,
                show_eta=False,
                show_percent=False,
                show_pos=True,
                width=20,
                item_show_func=lambda stage: stage,
            )
            self.bar.__enter__()

    def __call__(self, stage: str) -> None:
        if self.quiet:
            return
        self.done = min(self.done + 1, self.total)
        if self.bar is not None:
            self.bar.update(1, stage)
        elif in_ci():
            click.echo(f"{self.label}: {stage} ({self.done}/{self.total})", file=self.stream)
        # else: output piped or redirected outside CI (a script): nothing

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False


def quiet_option(fn: F) -> F:
    return click.option(
        "--quiet", "-q", is_flag=True, help="No progress on stderr (problems and the summary are still printed)."
    )(fn)
