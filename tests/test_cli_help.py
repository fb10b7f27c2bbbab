"""Every command and option explains itself (as Datasette checks its own CLI)."""

import click
import pytest
from click.testing import CliRunner

from sitegen.cli import main


def _commands(group: click.Group, prefix=()):
    ctx = click.Context(group)
    for name in sorted(group.list_commands(ctx)):  # the entry points' commands too (cli._WithPlugins)
        command = group.get_command(ctx, name)
        yield prefix + (name,), command
        if isinstance(command, click.Group):
            yield from _commands(command, prefix + (name,))


COMMANDS = list(_commands(main))


def test_the_documented_commands_exist():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"validate", "build", "export", "import", "aliases suggest", "stats", "diff", "changelog",
            "new model", "new result", "serve", "interchange"} <= names


@pytest.mark.parametrize("path,command", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_and_option_has_help(path, command):
    assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{' '.join(path)} {param.opts[0]} has no help text"
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_every_data_command_takes_root():
    for path, command in COMMANDS:
        if isinstance(command, click.Group) or path[0] in ("interchange", "init"):  # init writes a new repository into DIR
            continue
        assert any("--root" in p.opts for p in command.params), " ".join(path)
