"""The `sitegen` command line: click commands only; the work happens in the pipeline modules.

One module per group of verbs: build.py (validate, build, export), imports.py (import, aliases, stats, fetch),
diff.py (diff, changelog), contrib.py (new, serve, interchange); options.py holds what they share."""

from __future__ import annotations

import os
import sys

import click

from .. import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """Build an AI-model leaderboard site from YAML score files.

    Data lives in scores/ (models, imported sources, overrides, the source registry) and
    methodology/ (benchmarks, index definitions, prose). Every command reports input problems
    as path:line:col: field: message (hint), all at once, and exits 1 when there is an error.
    """


# Each verb module is a thin layer over its stage (imported here, below main, which they are added to).
from . import build, contrib, diff, imports, init  # noqa: E402

for command, name in (
    (build.validate, "validate"),
    (build.build, "build"),
    (build.export, "export"),
    (imports.import_command, "import"),
    (imports.aliases_group, "aliases"),
    (imports.stats_command, "stats"),
    (imports.fetch_command, "fetch"),
    (diff.diff_command, "diff"),
    (diff.changelog_command, "changelog"),
    (contrib.new_group, "new"),
    (contrib.serve_command, "serve"),
    (contrib.interchange_import, "interchange"),
    (init.init_command, "init"),
):
    main.add_command(command, name)


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
