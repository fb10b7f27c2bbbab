"""What the verb modules share: the --root option, and how a command reports the problems it found."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from ..problems import Problem

#: A click command function, before or after its decorators.
F = TypeVar("F", bound=Callable[..., Any])

ROOT_HELP = "Folder that holds scores/ and methodology/ (default: the current directory)."


def _checked_root(ctx: click.Context, param: click.Parameter, root: Path) -> Path:
    """The --root every command takes, refused (placed problems, exit 1, nothing read or written) when its
    scores/, methodology/ or downloads/ is a symbolic link (paths.py: no link is followed below the root)."""
    from ..paths import top_level_problems

    problems = top_level_problems(root)
    if problems:
        report(problems, False)
        click.echo("nothing read or written", err=True)
        ctx.exit(1)
    return root


def root_option(fn: F | None = None, *, help: str = ROOT_HELP) -> Any:
    """The --root option, checked by the path rule before the command runs."""
    option = click.option(
        "--root",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help=help,
        callback=_checked_root,
    )
    return option(fn) if fn is not None else option


def report(problems: Iterable[Problem], show_warnings: bool, max_warnings: int | None = None) -> int:
    """Print problems (and GitHub annotations under Actions); return the exit code they call for: 1 on any error,
    or on more warnings than `max_warnings` allows (they are then listed, as the reason for the failure)."""
    from ..problems import ERROR

    errors = [p for p in problems if p.severity == ERROR]
    warnings = [p for p in problems if p.severity != ERROR]
    too_many = max_warnings is not None and len(warnings) > max_warnings
    shown = errors + (warnings if show_warnings or too_many else [])
    shown.sort(key=lambda p: (p.path, p.line, p.col, p.field, p.message))
    echo_problems(shown)
    summary = f"{len(errors)} error{'s' if len(errors) != 1 else ''}, {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
    if too_many:
        summary += f" (more than --max-warnings {max_warnings} allows: review each, or fix the data)"
    elif warnings and not show_warnings:
        summary += " (list them with --warnings)"
    click.echo(summary, err=True)
    return 1 if errors or too_many else 0


def echo_problems(problems: Sequence[Problem], annotate: bool = True) -> None:
    """Each problem on standard error, then, under GitHub Actions and when `annotate`, each as an annotation on
    standard output."""
    for problem in problems:
        click.echo(problem.format(), err=True)
    if annotate and os.environ.get("GITHUB_ACTIONS") == "true":
        for problem in problems:
            click.echo(problem.annotation())
