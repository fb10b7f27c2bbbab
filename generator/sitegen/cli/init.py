"""`sitegen init`: a new leaderboard repository, ready to build, from the files under sitegen/init/.

The repository holds no Python: `scores/` with one benchmark, its source and a few models; `methodology/` with the
per-benchmark selection rule and one composite index (a generic kind, YAML alone); `methodology/site.yaml`; the JSON
Schemas copied into `schemas/` (so editors validate; `--update` refreshes them); `.github/` workflows for CI, the
pull-request report and the Pages deploy; README and CONTRIBUTING for submitters. Without `--benchmark` the rows are
real: five models' GPQA Diamond runs from Epoch AI's Benchmarking Hub (CC BY 4.0, credited in scores/sources.yaml);
with it, the benchmark is NAME and its rows are made-up examples, marked "example data: replace" on every page.

The workflows install the sitegen that made the repository, from the address in `.github/sitegen-requirements.txt`,
the first of: `--sitegen SPEC`; where the running sitegen was installed from, as its installer recorded it (PEP 610's
direct_url.json: a git commit on an https host, or a wheel's or sdist's https URL with its sha256), never a local
folder or file; its source repository at its version's tag (the package metadata's Project-URL); else "NOT SET",
and every workflow stops at its first step until one is put there. Never `sitegen==VERSION`: the name on PyPI is
another project's.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import click

from .. import __version__

if TYPE_CHECKING:
    import importlib.metadata

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
    "# NOT SET: sitegen init was not told where to install sitegen {version} from, it was installed from no address a\n"
    "# workflow can reach (a local folder or file, or an index), and the package names no source repository.\n"
    "# Put one pip requirement on the line below, e.g. a wheel your workflows can download:\n"
    "#   sitegen @ https://github.com/YOU/YOUR-REPO/releases/download/v{version}/sitegen-{version}-py3-none-any.whl\n"
    "# (or run `sitegen init --sitegen SPEC` into an empty folder). Until then every workflow stops at its first step."
)


#: An address a workflow on GitHub can reach: https, with no whitespace, credentials (`user:pass@`), ref, query or
#: fragment of its own (a query can carry a token; init adds the ref and the hash).
REACHABLE = re.compile(r"https://[^\s@#?]+\Z")
#: A git commit id (SHA-1, or SHA-256 in a repository that uses it) and a sha256 digest, as direct_url.json holds them.
COMMIT = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?\Z")
SHA256 = re.compile(r"[0-9a-f]{64}\Z")


class Address(NamedTuple):
    """What the workflows install (a pip requirement) and where init took it from, as init and the README say it."""

    requirement: str
    origin: str


def default_requirement(project_urls: Iterable[str], version: str) -> str | None:
    """The sitegen that made the repository, as a pip requirement: its source repository at the version's tag
    (`sitegen @ git+URL@vVERSION`), from the package metadata's Project-URL ("Label, URL"); None without one."""
    for entry in project_urls:
        label, _, url = entry.partition(",")
        url = url.strip()
        if re.sub(r"[^a-z0-9]", "", label.lower()) in SOURCE_LABELS and REACHABLE.match(url):
            return f"sitegen @ git+{url.removesuffix('/')}@v{version}"
    return None


def recorded_requirement(direct_url: str | None) -> Address | None:
    """Where the running sitegen was installed from, as a pip requirement, from its installer's record (PEP 610's
    direct_url.json text): a git commit (`sitegen @ git+URL@COMMIT`) or an archive's URL (`sitegen @ URL`, with
    `#sha256=` when the hash is recorded). None without a record, for a local folder or file (no workflow reaches
    it), and for anything else this does not read as that: the caller falls back."""
    import json  # here, not at the top: every command imports this module, `init` alone reads it

    try:
        record = json.loads(direct_url) if direct_url is not None else None
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(url := record.get("url"), str) or not REACHABLE.match(url):
        return None
    if "subdirectory" in record:  # sitegen's pyproject.toml is at its repository's root
        return None
    if isinstance(vcs := record.get("vcs_info"), dict):
        return git_commit(url, vcs)
    if isinstance(archive := record.get("archive_info"), dict):
        return archive_url(url, archive)
    return None


def git_commit(url: str, vcs: dict) -> Address | None:
    """A git install's record (`vcs_info`) as the commit it installed; None for another VCS or no commit id."""
    commit = vcs.get("commit_id")
    if vcs.get("vcs") != "git" or not isinstance(commit, str) or not COMMIT.match(commit):
        return None
    return Address(f"sitegen @ git+{url}@{commit}", "the git commit this sitegen was installed from")


def archive_url(url: str, archive: dict) -> Address | None:
    """A wheel's or sdist's record (`archive_info`) as its URL, checked by its sha256 when one is recorded (in
    `hashes`, or the legacy `hash` "sha256=..."); None when the hash recorded is not one."""
    hashes = archive.get("hashes")
    digest = hashes.get("sha256") if isinstance(hashes, dict) else None
    legacy = archive.get("hash")
    if digest is None and isinstance(legacy, str) and legacy.startswith("sha256="):
        digest = legacy.removeprefix("sha256=")
    if digest is None:
        return Address(f"sitegen @ {url}", "the URL this sitegen was installed from")
    if not isinstance(digest, str) or not SHA256.match(digest):
        return None
    return Address(f"sitegen @ {url}#sha256={digest}", "the URL this sitegen was installed from, checked by its sha256")


def choose_address(given: str | None, direct_url: str | None, project_urls: Iterable[str]) -> Address | None:
    """What the workflows install, the first of: `--sitegen SPEC`, where this sitegen was installed from, its source
    repository at its version's tag; None when init knows none of them."""
    if given:
        return Address(given, "the address given to `sitegen init --sitegen`")
    if recorded := recorded_requirement(direct_url):
        return recorded
    if tagged := default_requirement(project_urls, __version__):
        return Address(tagged, "this sitegen's source repository (its Project-URL) at its version's tag")
    return None


def package_urls() -> list[str]:
    """The installed sitegen's Project-URL entries (none when the metadata has none)."""
    import importlib.metadata  # here, not at the top: every command imports this module, `init` alone reads it

    try:
        return importlib.metadata.metadata("sitegen").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return []


def install_record(distribution: importlib.metadata.Distribution | None = None) -> str | None:
    """The installer's record of where the running sitegen came from (direct_url.json; None without one), when the
    installed distribution named sitegen is the one running: not, say, another sitegen beside a checkout on
    PYTHONPATH, which was installed from somewhere else."""
    import importlib.metadata

    try:
        distribution = distribution or importlib.metadata.distribution("sitegen")
    except importlib.metadata.PackageNotFoundError:
        return None
    running = Path(__file__).resolve().parent.parent / "__init__.py"
    if Path(str(distribution.locate_file("sitegen/__init__.py"))).resolve() != running:
        return None
    return distribution.read_text("direct_url.json")


def slug(name: str) -> str:
    """'My Bench 2' -> 'my-bench-2': a benchmark id from its name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def install_values(address: Address | None) -> dict[str, str]:
    """The placeholders that say what the workflows install and where init took it from, or that it must be set."""
    if address is not None:
        return {
            "REQUIREMENT": address.requirement,
            "INSTALL_NOTE": f"CI, the PR report, Pages and the commands above install `{address.requirement}` "
            f"(`.github/sitegen-requirements.txt`): {address.origin}.",
        }
    return {
        "REQUIREMENT": UNSET.format(version=__version__),
        "INSTALL_NOTE": "**First, say where sitegen is installed from:** `.github/sitegen-requirements.txt` names "
        "no sitegen yet, because `sitegen init` was not told where to install it from (`--sitegen SPEC`) and the "
        "sitegen that ran it was installed from no address a workflow can reach. Put one pip requirement in it, "
        "e.g. `sitegen @ https://…/sitegen-"
        f"{__version__}-py3-none-any.whl`, a wheel your workflows can download. Until then CI, the PR report and "
        "Pages stop at their first step, and the commands above install nothing.",
    }


def placeholders(benchmark: str | None, address: Address | None) -> dict[str, str]:
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
    return values | install_values(address)


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


def write_repository(folder: Path, benchmark: str | None, address: Address | None) -> list[str]:
    """Every file of a new leaderboard repository into folder (which must be empty or missing); the paths written."""
    values = placeholders(benchmark, address)
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
    "where this sitegen was installed from, as its installer recorded it (the git commit, git+URL@COMMIT, or the "
    "wheel's https URL with its sha256; not a local folder or file); else its source repository at its version's "
    "tag (git+URL@vVERSION) when its package metadata names one (Project-URL 'Source'); else the repository says "
    "SPEC must still be set.",
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
    address = choose_address(requirement, install_record(), package_urls())
    written = write_repository(folder, benchmark, address)
    click.echo(f"wrote {len(written)} files into {folder}")
    if address is not None:
        click.echo(f"the workflows install `{address.requirement}`: {address.origin}")
    else:
        click.echo(
            "note: no address to install sitegen from (--sitegen SPEC): set one in .github/sitegen-requirements.txt "
            "before pushing; the workflows stop until it is set (README.md says how)",
            err=True,
        )
    click.echo(f"next: cd {folder} && sitegen build && sitegen serve")
