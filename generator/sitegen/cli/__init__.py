"""The `sitegen` command line: click commands only; the work happens in the pipeline modules.

One module per group of verbs: build.py (validate, build, export), diff.py (diff, changelog), contrib.py (new, serve,
interchange), init.py (init); options.py holds what they share. Commands outside the core come from the entry-point
group `sitegen.commands` of the installed distributions: this repository's importers' commands (imports.py:
import, aliases, stats, fetch) are declared there in pyproject.toml, so the core never imports them by name."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from .. import __version__

if TYPE_CHECKING:
    from importlib import metadata

#: The entry-point group whose `name = "module:command"` entries add commands (pyproject.toml declares this
#: repository's import commands in it).
COMMANDS_GROUP = "sitegen.commands"


class _WithPlugins(click.Group):
    """The core's commands, then the entry-point group's, read the first time a name is not a core command or the
    whole list is asked for (--help): `sitegen build` neither imports importlib.metadata nor scans the installed
    distributions (about 65 ms of every command's start, and of the no-change rebuild's 0.3 s)."""

    plugins_read = False

    def read_plugins(self) -> None:
        if self.plugins_read:
            return
        self.plugins_read = True
        from importlib import metadata

        for line in add_plugin_commands(self, metadata.entry_points(group=COMMANDS_GROUP)):
            click.echo(line, err=True)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self.read_plugins()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.read_plugins()
        return super().list_commands(ctx)


@click.group(cls=_WithPlugins, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """Build an AI-model leaderboard site from YAML score files.

    Data lives in scores/ (models, imported sources, overrides, the source registry) and
    methodology/ (benchmarks, index definitions, prose). Every command reports input problems
    as path:line:col: field: message (hint), all at once, and exits 1 when there is an error.
    """


# Each verb module is a thin layer over its stage (imported here, below main, which they are added to).
from . import build, contrib, diff, init  # noqa: E402

for command, name in (
    (build.validate, "validate"),
    (build.build, "build"),
    (build.export, "export"),
    (diff.diff_command, "diff"),
    (diff.changelog_command, "changelog"),
    (contrib.new_group, "new"),
    (contrib.serve_command, "serve"),
    (contrib.interchange_import, "interchange"),
    (init.init_command, "init"),
):
    main.add_command(command, name)


def add_plugin_commands(group: click.Group, entries: Iterable[metadata.EntryPoint]) -> list[str]:
    """Add each entry point's command under its name, in name order; a name the group has already is left to the
    core's command. Returns one line per entry that could not be loaded (the rest still load)."""
    failed = []
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.name in group.commands:
            continue
        try:
            command = entry.load()
        except Exception as exc:  # a broken plug-in must not take the core's commands with it
            failed.append(f"sitegen: command {entry.name!r} ({entry.value}) not loaded: {type(exc).__name__}: {exc}")
            continue
        group.add_command(command, entry.name)
    return failed


def entry() -> None:
    """Console entry point: input problems exit 1; anything unexpected exits 2 with a short message."""
    try:
        main(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # an internal error, not bad input: no traceback for the user
        if os.environ.get("SITEGEN_DEBUG"):
            raise
        click.echo(
            f"sitegen: internal error: {type(exc).__name__}: {exc} (set SITEGEN_DEBUG=1 for a traceback)", err=True
        )
        sys.exit(2)
