"""`sitegen validate`, `sitegen build` and `sitegen export`: thin click commands over data/ and build/."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .options import report, root_option
from .progress import quiet_option


@click.command()
@root_option
@click.option(
    "--warnings", "show_warnings", is_flag=True, help="List warnings too (likely mistakes that can be legitimate)."
)
@click.option(
    "--max-warnings",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Fail (exit 1, listing them) when there are more than N warnings. CI passes 0: main carries none, "
    "so a change that brings one is reviewed (a reviewed entry, or the data fixed) before it lands.",
)
def validate(root: Path, show_warnings: bool, max_warnings: int | None) -> None:
    """Check every data file: YAML, JSON Schema and cross-file rules. Writes nothing."""
    from ..data import validate_repo

    _, problems = validate_repo(root)
    sys.exit(report(problems, show_warnings, max_warnings))


@click.command()
@root_option
@click.option(
    "--check",
    is_flag=True,
    help="Validate, compute every board, render every page and check internal links in a temporary "
    "folder; write nothing to --out.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: site/ under --root; otherwise relative to the current directory).",
)
@click.option("--warnings", "show_warnings", is_flag=True, help="List warnings too.")
@click.option(
    "--site-url",
    envvar="SITEGEN_SITE_URL",
    default="",
    metavar="URL",
    help="The site's public address, e.g. https://owner.github.io/repo/ (also SITEGEN_SITE_URL). Used for "
    "sitemap.xml, the feed, and the links of 404.html, which is served at any depth. Default: GitHub "
    "Pages' address of GITHUB_REPOSITORY when building in GitHub Actions, else the root of the host.",
)
@quiet_option
def build(root: Path, check: bool, out: Path | None, show_warnings: bool, site_url: str, quiet: bool) -> None:
    """Compute every index and render the static site into site/ (replaced only when the build succeeds)."""
    from ..build import BUILD_STAGES, run, settings
    from ..history.changelog import Record
    from .progress import Progress

    if site_url:
        from ..site.links import safe_url

        if safe_url(site_url) is None:
            raise click.BadParameter(
                f"{site_url!r} is not an http(s) address (hint: https://owner.github.io/repo/)", param_hint="--site-url"
            )

    out = out if out is not None else root / "site"
    with Progress("check" if check else "build", len(BUILD_STAGES), quiet) as progress:
        outcome = run(
            root, out, check=check, progress=progress, history=Record(root), config=settings(site_url or None)
        )
    code = report(outcome.problems, show_warnings)
    if code == 0:
        verb = "checked" if check else f"wrote {out}"
        click.echo(f"{verb}: {outcome.summary}", err=True)
    sys.exit(code)


@click.command()
@root_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder, replaced as a whole (default: export/ under --root for the JSON API, which lands "
    "in export/api/v1/ as on the site; export-eee/ or export-hf/ under --root for the other "
    "formats). The defaults are git-ignored.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["api", "eee", "hf"]),
    default="api",
    show_default=True,
    help="api: the JSON API (api/v1/...) with a CSV beside each board; eee: every benchmark board as "
    "Every Eval Ever 0.3.0 JSON; hf: the same rows per model as Hugging Face files "
    "(<model>/model-index.yaml and <model>/.eval_results/sitegen.yaml).",
)
def export(root: Path, out: Path | None, fmt: str) -> None:
    """Write the boards as data files, without the HTML site."""
    from ..build import export_files

    out = out if out is not None else root / ("export" if fmt == "api" else f"export-{fmt}")
    outcome = export_files(root, out, fmt)
    code = report(outcome.problems, False)
    if code == 0:
        click.echo(f"wrote {out}: {outcome.summary}", err=True)
    sys.exit(code)
