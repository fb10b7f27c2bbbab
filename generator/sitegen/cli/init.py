"""`sitegen init`: a new leaderboard repository, ready to build, from the files under sitegen/init/.

The repository holds no Python: `scores/` with one benchmark, its source and a few models; `methodology/` with the
per-benchmark selection rule and one composite index (a generic kind, YAML alone); `methodology/site.yaml`; the JSON
Schemas copied into `schemas/` (so editors validate; `--update` refreshes them); `.github/` workflows for CI, the
pull-request report and the Pages deploy; README and CONTRIBUTING for submitters. Without `--benchmark` the rows are
real: five models' GPQA Diamond runs from Epoch AI's Benchmarking Hub (CC BY 4.0, credited in scores/sources.yaml);
with it, the benchmark is NAME and its rows are made-up examples, marked "example data: replace" on every page.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import click

from .. import __version__

#: The package's templates: common/ in every repository, then real/ (Epoch's rows) or example/ (for --benchmark).
TEMPLATES = Path(__file__).resolve().parent.parent / "init"
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
#: Template names that stand for dot-files (a dot-file may be left out of a package's data).
DOTTED = {"_github": ".github", "_gitignore": ".gitignore"}
REAL = {
    "BENCHMARK_ID": "gpqa-diamond",
    "BENCHMARK_NAME": "GPQA Diamond",
    "SOURCE_ID": "epoch-hub",
    "TITLE": "GPQA Diamond leaderboard",
    "DESCRIPTION": "GPQA Diamond results, each with its source; a leaderboard made with sitegen.",
    "DATA_NOTE": "The starting rows are five models' GPQA Diamond runs from Epoch AI's Benchmarking Hub "
    "(https://epoch.ai/benchmarks, CC BY 4.0; credited in scores/sources.yaml). Replace them with your own "
    "benchmark's results.",
}


def slug(name: str) -> str:
    """'My Bench 2' -> 'my-bench-2': a benchmark id from its name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def placeholders(benchmark: str | None, requirement: str) -> dict[str, str]:
    """The values the templates' @@NAME@@ placeholders take."""
    if benchmark is None:
        values = dict(REAL)
    else:
        values = {
            "BENCHMARK_ID": slug(benchmark),
            "BENCHMARK_NAME": benchmark.replace('"', "'"),
            "SOURCE_ID": "example-source",
            "TITLE": f"{benchmark} leaderboard (example data: replace)".replace('"', "'"),
            "DESCRIPTION": "Example data: replace. The models and numbers here are made up to show the shape.",
            "DATA_NOTE": "Example data: replace. The models and numbers in scores/ were made up by sitegen init "
            "to show the shape of the files; no model was run.",
        }
    return values | {"REQUIREMENT": requirement}


def template_files(benchmark: str | None) -> dict[str, Path]:
    """Relative path in the new repository -> its template, common/ first, then real/ or example/."""
    out: dict[str, Path] = {}
    for part in ("common", "real" if benchmark is None else "example"):
        base = TEMPLATES / part
        for path in sorted(base.rglob("*")):
            if path.is_file():
                rel = path.relative_to(base).parts
                out["/".join(DOTTED.get(p, p) for p in rel)] = path
    return out


def fill(text: str, values: dict[str, str]) -> str:
    """A template's text with every @@NAME@@ replaced; an unknown name is a bug in the templates."""

    def one(match: re.Match) -> str:
        return values[match.group(1)]

    return re.sub(r"@@([A-Z_]+)@@", one, text)


def copy_schemas(folder: Path) -> list[str]:
    """The package's JSON Schemas into folder/schemas/, replacing what is there; the names written."""
    target = folder / "schemas"
    target.mkdir(parents=True, exist_ok=True)
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    for name in names:
        shutil.copyfile(SCHEMAS / name, target / name)
    return names


def write_repository(folder: Path, benchmark: str | None, requirement: str) -> list[str]:
    """Every file of a new leaderboard repository into folder (which must be empty or missing); the paths written."""
    values = placeholders(benchmark, requirement)
    written = []
    for rel, template in template_files(benchmark).items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fill(template.read_text(encoding="utf-8"), values), encoding="utf-8")
        written.append(rel)
    written += [f"schemas/{name}" for name in copy_schemas(folder)]
    return sorted(written)


@click.command("init")
@click.argument("folder", metavar="[DIR]", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--benchmark",
    metavar="NAME",
    help="Your benchmark's name; its rows are then made-up examples, marked 'example data: replace'. "
    "Without it the repository starts with real rows (Epoch AI's GPQA Diamond runs, CC BY 4.0).",
)
@click.option(
    "--sitegen",
    "requirement",
    metavar="SPEC",
    default=f"sitegen=={__version__}",
    show_default=True,
    help="What CI and Pages install (a pip requirement: a version, or 'sitegen @ URL' of a wheel).",
)
@click.option(
    "--update", is_flag=True, help="Refresh the JSON Schemas in DIR/schemas/ from this sitegen; nothing else."
)
def init_command(folder: Path, benchmark: str | None, requirement: str, update: bool):
    """Write a new leaderboard repository into DIR (default: here), ready for `sitegen build`.

    DIR must be empty or missing. The repository builds at once, before `git init` too; push it to GitHub and
    its workflows check every pull request, comment what it does to the rankings, and publish to Pages.
    """
    if update:
        if not (folder / "methodology").is_dir() and not (folder / "scores").is_dir():
            click.echo(f"{folder}: no scores/ or methodology/ here: not a leaderboard repository", err=True)
            sys.exit(1)
        names = copy_schemas(folder)
        click.echo(f"refreshed {len(names)} schemas in {folder / 'schemas'} (sitegen {__version__})")
        return
    if benchmark is not None and not slug(benchmark):
        click.echo(f"--benchmark {benchmark!r}: give a name with letters or digits", err=True)
        sys.exit(1)
    if folder.is_symlink() or folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        click.echo(f"{folder}: not empty; sitegen init writes only into an empty or new folder", err=True)
        sys.exit(1)
    written = write_repository(folder, benchmark, requirement)
    click.echo(f"wrote {len(written)} files into {folder}")
    click.echo(f"next: cd {folder} && sitegen build && sitegen serve")
