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
from collections.abc import Iterable
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


#: Project-URL labels that name the source repository (PEP 753's "source" and its aliases, normalised).
SOURCE_LABELS = {"source", "sourcecode", "repository", "code", "github", "gitlab"}
#: What .github/sitegen-requirements.txt says in place of a requirement when init knows no address to install from.
UNSET = (
    "# NOT SET: sitegen init was not told where to install sitegen {version} from, and the package names no source\n"
    "# repository. Put one pip requirement on the line below, e.g. a wheel your workflows can download:\n"
    "#   sitegen @ https://github.com/YOU/YOUR-REPO/releases/download/v{version}/sitegen-{version}-py3-none-any.whl\n"
    "# (or run `sitegen init --sitegen SPEC` into an empty folder). Until then every workflow stops at its first step."
)


def default_requirement(project_urls: Iterable[str], version: str) -> str | None:
    """The sitegen that made the repository, as a pip requirement: its source repository at the version's tag
    (`sitegen @ git+URL@vVERSION`), from the package metadata's Project-URL ("Label, URL"); None without one."""
    for entry in project_urls:
        label, _, url = entry.partition(",")
        url = url.strip()
        if re.sub(r"[^a-z0-9]", "", label.lower()) in SOURCE_LABELS and re.match(r"https://[^\s@#?]+\Z", url):
            return f"sitegen @ git+{url.removesuffix('/')}@v{version}"
    return None


def package_urls() -> list[str]:
    """The installed sitegen's Project-URL entries (none when the metadata has none)."""
    import importlib.metadata  # here, not at the top: every command imports this module, `init` alone reads it

    try:
        return importlib.metadata.metadata("sitegen").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return []


def slug(name: str) -> str:
    """'My Bench 2' -> 'my-bench-2': a benchmark id from its name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def install_values(requirement: str | None) -> dict[str, str]:
    """The placeholders that say what the workflows install: the requirement, or that it must still be set."""
    if requirement is not None:
        return {
            "REQUIREMENT": requirement,
            "INSTALL_NOTE": f"CI, the PR report, Pages and the commands above install `{requirement}` "
            "(`.github/sitegen-requirements.txt`).",
        }
    return {
        "REQUIREMENT": UNSET.format(version=__version__),
        "INSTALL_NOTE": "**First, say where sitegen is installed from:** `.github/sitegen-requirements.txt` names "
        "no sitegen yet, because `sitegen init` was not told where to install it from (`--sitegen SPEC`). Put one "
        "pip requirement in it, e.g. `sitegen @ https://…/sitegen-"
        f"{__version__}-py3-none-any.whl`, a wheel your workflows can download. Until then CI, the PR report and "
        "Pages stop at their first step, and the commands above install nothing.",
    }


def placeholders(benchmark: str | None, requirement: str | None) -> dict[str, str]:
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
    return values | install_values(requirement)


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


def write_repository(folder: Path, benchmark: str | None, requirement: str | None) -> list[str]:
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
    help="What CI, the PR report and Pages install: a pip requirement, e.g. 'sitegen @ URL' of a wheel. Default: "
    "this sitegen's source repository at its version's tag (git+URL@vVERSION) when its package metadata names "
    "one (Project-URL 'Source'); else the repository says SPEC must still be set.",
)
@click.option(
    "--update", is_flag=True, help="Refresh the JSON Schemas in DIR/schemas/ from this sitegen; nothing else."
)
def init_command(folder: Path, benchmark: str | None, requirement: str | None, update: bool):
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
    requirement = requirement or default_requirement(package_urls(), __version__)
    written = write_repository(folder, benchmark, requirement)
    click.echo(f"wrote {len(written)} files into {folder}")
    if requirement is None:
        click.echo(
            "note: no address to install sitegen from (--sitegen SPEC): set one in .github/sitegen-requirements.txt "
            "before pushing; the workflows stop until it is set (README.md says how)",
            err=True,
        )
    click.echo(f"next: cd {folder} && sitegen build && sitegen serve")
