"""`sitegen diff` and `sitegen changelog`: thin click commands over diff.py and history.py."""

from __future__ import annotations

import sys
from pathlib import Path

import click

ROOT_HELP = "Folder that holds scores/ and methodology/ (default: the current directory)."


def _root_option(fn):
    return click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
                        show_default=True, help=ROOT_HELP)(fn)


@click.command()
@click.argument("base")
@click.argument("head", required=False)
@_root_option
@click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md", show_default=True,
              help="Markdown for a pull-request comment, or the same structure as JSON (sorted keys).")
@click.option("--max-lines", type=click.IntRange(min=10), default=200, show_default=True,
              help="Cut the Markdown after this many lines, with a note.")
def diff_command(base: str, head: str | None, root: Path, fmt: str, max_lines: int):
    """Show what the change from git ref BASE to HEAD (default: the working tree) does to the published boards.

    Results added, changed and removed; index values and ranks that move; models entering or leaving a board;
    and why each moved. Each side is read from git without running anything from it, then validated and computed.
    """
    from . import diff
    from .problems import ERROR

    try:
        result, problems = diff.diff_refs(root, base, head)
    except diff.GitError as exc:
        raise click.ClickException(str(exc)) from None
    if result is None:
        for side, ref in (("base", base), ("head", head or "working tree")):
            errors = [p for p in problems[side] if p.severity == ERROR]
            if errors:
                click.echo(f"{side} ({ref}) does not validate: {len(errors)} error{'s' if len(errors) != 1 else ''}",
                           err=True)
                for problem in errors:
                    click.echo(f"  {problem.format()}", err=True)
        sys.exit(1)
    click.echo(diff.to_json(result) if fmt == "json" else diff.to_markdown(result, max_lines), nl=False)


@click.command()
@_root_option
@click.option("--format", "fmt", type=click.Choice(["md", "atom", "json"]), default="md", show_default=True,
              help="md: a Markdown changelog; atom: an Atom 1.0 feed; json: the entries as data.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Only the newest N commits that touched scores/ or methodology/ (default: all).")
@click.option("--boards", "boards_last", type=click.IntRange(min=0), default=10, show_default=True,
              help="Also compute the board changes (models moved) of the newest N of those commits; 0 skips this.")
@click.option("--site-url", default="https://example.org/", show_default=True,
              help="The site's address, for the Atom feed's links and ids.")
def changelog_command(root: Path, fmt: str, limit: int | None, boards_last: int, site_url: str):
    """The data changelog from git history: models, results and methodology files changed per commit."""
    from . import diff, history

    try:
        entries = history.changelog_entries(root, limit, boards_last=boards_last)
    except diff.GitError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        click.echo(diff.to_json(entries), nl=False)
    elif fmt == "atom":
        click.echo(history.atom_feed(entries, site_url), nl=False)
    else:
        click.echo(history.to_markdown(entries), nl=False)
