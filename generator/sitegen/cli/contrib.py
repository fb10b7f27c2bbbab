"""Click commands for contributors: `new model|result`, `serve`, and interchange (`interchange`; EEE export is `sitegen export --format eee`).
No logic here: contrib/scaffold.py, contrib/serve.py and interchange/ do the work."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from .options import root_option

if TYPE_CHECKING:
    from ..contrib.scaffold import RefusedError
    from ..interchange.records import Benchmarks, Imported, Refused, Resolve

ROOT = root_option(help="Folder that holds scores/ and methodology/.")


def _refused(exc: RefusedError | Refused) -> NoReturn:
    for problem in exc.problems:
        click.echo(problem.format(), err=True)
    n = len(exc.problems)
    click.echo(f"{n} error{'s' if n != 1 else ''}; nothing written", err=True)
    sys.exit(1)


@click.group("new")
def new_group() -> None:
    """Create a model file or add a result to one, checked as `sitegen validate` checks it."""


@new_group.command("model")
@click.argument("model_id", metavar="ORG/NAME")
@click.option("--name", help="Display name (default: NAME).")
@click.option(
    "--organization", help="The developer (default: the name the other models in scores/models/ORG/ give, else ORG)."
)
@ROOT
def new_model_command(model_id: str, name: str | None, organization: str | None, root: Path) -> None:
    """Write scores/models/ORG/NAME.yaml with the schema line and the required fields."""
    from ..contrib.scaffold import RefusedError, new_model

    try:
        path = new_model(root, model_id, name=name, organization=organization)
    except RefusedError as exc:
        _refused(exc)
    click.echo(f"wrote {path.relative_to(root).as_posix()}")


@new_group.command("result")
@click.argument("model_id", metavar="ORG/NAME")
@click.option("--benchmark", required=True, help="A benchmark id from methodology/benchmarks.yaml.")
@click.option("--value", required=True, help="The number, on the benchmark's scale (percent benchmarks 0-100).")
@click.option("--source", required=True, help="A source id from scores/sources.yaml.")
@click.option("--url", help="A https:// link to the number itself.")
@click.option("--metric", help="A secondary metric the benchmark declares (default: its primary metric).")
@click.option("--subset", help="A subset the benchmark declares (default: the full benchmark).")
@click.option("--harness", help="The agent or scaffold that ran the benchmark.")
@click.option("--self-reported", is_flag=True, help="The number comes from the model's developer.")
@click.option("--retrieved", help="Retrieval date YYYY-MM-DD (default: today).")
@ROOT
def new_result_command(
    model_id: str,
    benchmark: str,
    value: str,
    source: str,
    url: str | None,
    metric: str | None,
    subset: str | None,
    harness: str | None,
    self_reported: bool,
    retrieved: str | None,
    root: Path,
) -> None:
    """Append a result to scores/models/ORG/NAME.yaml, keeping its comments and layout.

    Refuses (and writes nothing) what `sitegen validate` would reject; prints the warnings the result brings,
    such as a fraction on a percent benchmark or a value another source disagrees with."""
    from ..contrib.scaffold import RefusedError, new_result

    warnings: list = []
    try:
        path = new_result(
            root,
            model_id,
            benchmark=benchmark,
            value=value,
            source=source,
            url=url,
            metric=metric,
            subset=subset,
            harness=harness,
            self_reported=self_reported,
            retrieved=retrieved,
            on_warning=warnings.append,
        )
    except RefusedError as exc:
        _refused(exc)
    click.echo(f"added {benchmark} to {path.relative_to(root).as_posix()}")
    for problem in warnings:
        click.echo(problem.format(), err=True)
    if warnings:
        click.echo(
            f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}: likely mistakes, written anyway; "
            "check them before you commit",
            err=True,
        )


@click.command("serve")
@click.option("--port", type=int, default=8000, show_default=True, help="Port (0 picks a free one).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; loopback only by default (any other address prints a warning).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: site/ under --root).",
)
@ROOT
def serve_command(port: int, host: str, out: Path | None, root: Path) -> None:
    """Build the site, serve it, rebuild when data, methodology or templates change, and reload the open page.

    The port is bound first, so a taken port fails at once. A failed rebuild prints its problems and keeps
    serving the last good site. Ctrl+C stops and removes the build's temporary folders.
    """
    from ..contrib.serve import ServeError, serve
    from .options import report

    try:
        serve(
            root,
            host=host,
            port=port,
            out=out,
            echo=lambda m: click.echo(m, err=True),
            report=lambda problems: report(problems, False) if problems else None,
        )
    except ServeError as exc:
        click.echo(f"sitegen serve: {exc}", err=True)
        sys.exit(1)


FORMATS = ("hf-model-index", "hf-eval-results", "eee")


def _interchange_read(
    fmt: str,
    source: str,
    paths: tuple[Path, ...],
    retrieved: str | None,
    model_name: str | None,
    benchmarks: Benchmarks,
    resolve: Resolve,
) -> Imported:
    """The files of one `interchange` call as one imported document (interchange.records.Refused when any cannot be
    read: not a regular file, too big, not UTF-8, not strict YAML/JSON, or of another shape)."""
    from ..interchange import eee, hf
    from ..interchange.records import decode, read_input

    raws = [(str(p), read_input(p)) for p in paths]
    if fmt == "eee":
        return eee.import_eee(
            [raw for _, raw in raws],
            source=source,
            benchmarks=benchmarks,
            resolve=resolve,
            retrieved=retrieved,
            paths=[name for name, _ in raws],
        )
    assert retrieved is not None  # interchange_import refuses a Hugging Face format without --retrieved
    docs = []
    for name, raw in raws:
        text = decode(raw, name)
        if fmt == "hf-model-index":
            docs.append(
                hf.import_model_index(
                    text, source=source, retrieved=retrieved, benchmarks=benchmarks, resolve=resolve, path=name
                )
            )
        else:
            assert model_name is not None  # and hf-eval-results without --model
            docs.append(
                hf.import_eval_results(
                    text,
                    model=model_name,
                    source=source,
                    retrieved=retrieved,
                    benchmarks=benchmarks,
                    resolve=resolve,
                    path=name,
                )
            )
    outcome = docs[0]
    for more in docs[1:]:
        outcome.doc["results"].extend(more.doc["results"])
        outcome.unmatched.extend(more.unmatched)
        outcome.skipped.extend(more.skipped)
    outcome.doc["results"].sort(
        key=lambda r: tuple(str(r.get(k, "")) for k in ("model", "benchmark", "metric", "subset", "harness"))
    )
    return outcome


@click.command("interchange")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(FORMATS))
@click.argument("source")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--retrieved", help="Retrieval date YYYY-MM-DD (required for the Hugging Face formats).")
@click.option("--model", "model_name", help="hf-eval-results: the Hub repository the files come from (org/name).")
@click.option("--print", "to_stdout", is_flag=True, help="Print the document instead of writing it.")
@click.option("--force", is_flag=True, help="Replace scores/imported/SOURCE.yaml when it exists.")
@ROOT
def interchange_import(
    fmt: str,
    source: str,
    paths: tuple[Path, ...],
    retrieved: str | None,
    model_name: str | None,
    to_stdout: bool,
    force: bool,
    root: Path,
) -> None:
    """Import model cards, .eval_results files or EEE JSON into scores/imported/SOURCE.yaml.

    SOURCE is a source id registered in scores/sources.yaml. The file is written only when it validates as
    `sitegen validate` would check it, and an existing one only with --force; otherwise nothing is written and
    the command exits 1."""
    from ..interchange.records import Benchmarks, Refused, imported_text, resolver, target_problems, write_imported

    try:  # --print writes nothing, so an existing file does not matter; an unregistered SOURCE still does
        problems = target_problems(root, source, force or to_stdout)
    except FileNotFoundError as exc:
        raise click.ClickException(f"{exc.filename}: not found (run from the repository root, or pass --root)") from exc
    except Refused as exc:
        _refused(exc)
    if problems:
        _refused(Refused(problems))
    if fmt != "eee" and not retrieved:
        raise click.UsageError("--retrieved is required for the Hugging Face formats")
    if fmt == "hf-eval-results" and not model_name:
        raise click.UsageError("--model is required for hf-eval-results")
    try:  # the names table and every input are read bounded and strictly; whatever they hold, placed messages, exit 1
        benchmarks, resolve = Benchmarks.load(root), resolver(root)
        outcome = _interchange_read(fmt, source, paths, retrieved, model_name, benchmarks, resolve)
    except Refused as exc:
        _refused(exc)
    for name, why in outcome.unmatched:
        click.echo(f"{source}: unmatched {name!r}: {why}", err=True)
    for what, why in outcome.skipped:
        click.echo(f"{source}: skipped {what!r}: {why}", err=True)
    text = imported_text(outcome.doc, ", ".join(sorted(p.name for p in paths)))
    if to_stdout:
        click.echo(text, nl=False)
        return
    try:
        target = write_imported(root, source, text, force)
    except Refused as exc:
        _refused(exc)
    except OSError as exc:
        raise click.ClickException(
            f"{source}: cannot write scores/imported/{source}.yaml: {exc.strerror} (the previous file is unchanged)"
        ) from None
    click.echo(f"{source}: wrote {target.relative_to(root).as_posix()} ({len(outcome.doc['results'])} results)")
