"""`sitegen diff` and `sitegen changelog`: thin click commands over history/diff.py and history/changelog.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import echo_problems, root_option
from .progress import Progress, quiet_option

if TYPE_CHECKING:
    from ..problems import Problem


@click.command()
@click.argument("base")
@click.argument("head", required=False)
@root_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "json", "report"]),
    default="md",
    show_default=True,
    help="md: the review comment; json: the diff as data (sorted keys); report: the pull-request report "
    "(JSON: the diff, the warnings the change brings, or the errors), written even when the "
    "change does not validate.",
)
@click.option(
    "--max-lines",
    type=click.IntRange(min=10),
    default=200,
    show_default=True,
    help="Cut the Markdown after this many lines, with a note.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of standard output (under GitHub Actions, the report's warnings "
    "and errors are then printed as annotations).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Compute both sides afresh: load nothing from the compute cache (.sitegen-cache/ under --root, or "
    "SITEGEN_CACHE's folder; SITEGEN_CACHE=off does the same) and add nothing to it.",
)
@quiet_option
def diff_command(
    base: str, head: str | None, root: Path, fmt: str, max_lines: int, out: Path | None, no_cache: bool, quiet: bool
) -> None:
    """Show what the change from git ref BASE to HEAD (default: the working tree) does to the published boards.

    Each board leads with the models that entered, left or changed value, and why; rows that only shifted rank
    because of those are counted. Then results added, changed and removed, and methodology keys changed. Each
    side is read from git without running anything from it, then validated and computed, through the compute cache
    a build keeps (entries keyed by content: a side computed before, by a build of its commit or an earlier diff,
    is loaded; nothing a build keeps is removed).
    """
    from ..history import diff
    from ..history.git import GitError
    from ..problems import ERROR

    def emit(text: str) -> None:
        if out is None:
            click.echo(text, nl=False)
        else:
            out.write_text(text, encoding="utf-8")

    progress = Progress("diff", len(diff.DIFF_STAGES), quiet)
    try:
        with progress:
            if fmt in ("report", "md"):
                rep, shown = diff.report(root, base, head, progress, cache=not no_cache)
            else:
                result, problems = diff.diff_refs(root, base, head, progress, cache=not no_cache)
    except GitError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "md":
        if rep["status"] != "ok":
            side = rep["invalid_side"]
            _not_valid(side, base if side == "base" else head or "working tree", shown)
            sys.exit(1)
        emit(diff.to_markdown(rep, max_lines))  # the diff with the warnings, as the PR comment shows it
    elif fmt == "report":
        emit(diff.to_json(rep))
        echo_problems(shown, annotate=out is not None)
        sys.exit(1 if rep["status"] != "ok" else 0)
    elif result is None:
        for side, ref in (("base", base), ("head", head or "working tree")):
            if any(p.severity == ERROR for p in problems[side]):
                _not_valid(side, ref, problems[side])
        sys.exit(1)
    else:
        emit(diff.to_json(result))


def _not_valid(side: str, ref: str, problems: list[Problem]) -> None:
    """Say on standard error that one side does not validate, with its errors."""
    from ..problems import ERROR

    errors = [p for p in problems if p.severity == ERROR]
    click.echo(f"{side} ({ref}) does not validate: {len(errors)} error{'s' if len(errors) != 1 else ''}", err=True)
    for problem in errors:
        click.echo(f"  {problem.format()}", err=True)


@click.command()
@root_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "atom", "json"]),
    default="md",
    show_default=True,
    help="md: a Markdown changelog; atom: an Atom 1.0 feed; json: the entries as data.",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Only the newest N commits that touched scores/ or methodology/ (default: all).",
)
@click.option(
    "--boards",
    "boards_last",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Also compute the board changes (models moved) of the newest N of those commits; 0 skips this.",
)
@click.option(
    "--site-url",
    default="https://example.org/",
    show_default=True,
    help="The site's address, for the Atom feed's links and ids.",
)
def changelog_command(root: Path, fmt: str, limit: int | None, boards_last: int, site_url: str) -> None:
    """The data changelog from git history: models, results and methodology files changed per commit."""
    from ..history import changelog as history
    from ..history import diff
    from ..history.git import GitError

    try:
        entries = history.changelog_entries(root, limit, boards_last=boards_last)
    except GitError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        click.echo(diff.to_json(entries), nl=False)
    elif fmt == "atom":
        click.echo(history.atom_feed(entries, site_url), nl=False)
    else:
        click.echo(history.to_markdown(entries), nl=False)
