"""Click commands for importing sources: `import`, `aliases suggest|apply|merge|audit` and `stats`. No logic here."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
import yaml

from .options import root_option
from .progress import Progress, quiet_option

if TYPE_CHECKING:
    from ..importers import Planned
    from ..importers.extracts import Extract, Outcome

ROOT = root_option(help="Repository root.")
#: The boards issue #10's metadata coverage target is measured on (`stats`): this repository's AI IQ and Artificial
#: Analysis index boards, by id prefix, and LMArena's benchmark board.
COVERAGE_BOARDS = ("ai-iq", "aa-")
COVERAGE_BENCHMARK_BOARDS = ("lmarena-text",)


def _data_dir(root: Path, data: Path | None) -> Path:
    from .. import importers

    return data if data is not None else (root / importers.DEFAULT_DATA)


def _report(source: str, ex: Extract, outcome: Outcome, verbose: bool = True) -> int:
    """Print what did not import cleanly; return the number of blocking problems.

    Skipped rows and ignored names have reviewed reasons (the importer's rules, scores/imported/ignore.yaml): listed
    one a line when `verbose`, else counted in one line per source, so the problems and the verdict stay visible."""
    if verbose:
        for name, reason in ex.skipped:
            click.echo(f"{source}: skipped {name!r}: {reason}", err=True)
        for name, reason in outcome.ignored:
            click.echo(f"{source}: ignored {name!r}: {reason}", err=True)
    elif ex.skipped or outcome.ignored:
        counts = [
            f"{len(ex.skipped)} row{'s' if len(ex.skipped) != 1 else ''} skipped" if ex.skipped else "",
            f"{len(outcome.ignored)} name{'s' if len(outcome.ignored) != 1 else ''} ignored" if outcome.ignored else "",
        ]
        click.echo(
            f"{source}: {', '.join(c for c in counts if c)}, each for a reviewed reason (--verbose lists them)",
            err=True,
        )
    for p in outcome.unmatched:
        click.echo(f"{source}: unmatched {p.name!r}: {p.message}", err=True)
    for c in outcome.conflicts:
        click.echo(f"{source}: conflict: {c}", err=True)
    return len(outcome.unmatched) + len(outcome.conflicts)


@click.command("import")
@click.argument("source", required=False)
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--retrieved", help="Retrieval date (YYYY-MM-DD) when the files do not carry one.")
@click.option("--allow-unmatched", is_flag=True, help="Write even when source names match no model or several.")
@click.option(
    "--allow-shrink",
    is_flag=True,
    help="Write even when the files give more than 20% fewer results than the current imported file.",
)
@click.option("--all", "all_", is_flag=True, help="Re-import every source listed with files in scores/sources.yaml.")
@click.option("--check", is_flag=True, help="With --all: compare with scores/imported/ instead of writing.")
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of downloaded files for --all (default: downloads/ in the root).",
)
@click.option(
    "--verbose",
    is_flag=True,
    help="With --all: list every skipped row and ignored name with its reason "
    "(by default each source's are counted in one line).",
)
@quiet_option
@ROOT
def import_command(
    source: str | None,
    paths: tuple[Path, ...],
    retrieved: str | None,
    allow_unmatched: bool,
    allow_shrink: bool,
    all_: bool,
    check: bool,
    data: Path | None,
    root: Path,
    quiet: bool,
    verbose: bool,
) -> None:
    """Import SOURCE's downloaded PATHs into scores/imported/<source>.yaml. The repository as it would be is
    validated first: an import that would add a validation error writes nothing."""
    from .. import importers
    from ..data.registry import Registry
    from ..importers.extracts import ImportError_

    plans = _plans(source, paths, retrieved, all_, check, root, data)
    registry = Registry.load(root)  # one registry for every source: nothing is written before all are read
    problems, stale, refused, pending = 0, [], 0, []
    # One source needs no progress; --all reads every source.
    with Progress("import", len(plans), quiet or not all_) as progress:
        for plan in plans:
            progress(plan.source)
            try:
                done = importers.import_planned(
                    root,
                    plan,
                    check=check,
                    allow_unmatched=allow_unmatched,
                    allow_shrink=allow_shrink,
                    write_file=False,
                    registry=registry,
                )
            except ImportError_ as exc:
                raise click.ClickException(str(exc)) from exc
            problems += _report(plan.source, done.ex, done.outcome, verbose or not all_)
            if done.action == "stale":
                stale.append(str(done.target.relative_to(root)))
            elif done.action == "shrunk":
                click.echo(f"{plan.source}: {done.shrunk}", err=True)
                refused += 1
            elif done.action == "ready":
                pending.append((plan.source, done.outcome))
    _write_imports(root, pending)
    if stale:
        raise click.ClickException(f"{', '.join(stale)} needs to be updated, run: sitegen import --all --root {root}")
    if refused:
        raise click.ClickException(f"{refused} source{'s' if refused > 1 else ''} not written (see above)")
    if problems and not allow_unmatched:
        raise click.ClickException(
            f"{problems} source names or rows did not import cleanly (see above); "
            "add aliases (sitegen aliases suggest), ignore.yaml entries, or pass --allow-unmatched"
        )
    if check:  # the verdict, last, in one line (what came above is per-source detail)
        click.echo(f"import --all --check: all {len(plans)} imported files are what their downloads give")


def _write_imports(root: Path, pending: list) -> None:
    """Write the imported files of `pending` ((source, outcome) pairs), after checking the repository as it would
    be (data.new_errors, on a copy, all sources at once): an import that would add a validation error writes none
    of them."""
    from .. import importers
    from ..data import load, new_errors
    from ..importers.extracts import imported_path
    from ..paths import PathRefused

    changes = {}
    for _source, outcome in pending:
        target = imported_path(root, outcome.doc["source"])
        rel = target.relative_to(root).as_posix()
        current = load.read_data(target, root) if os.path.lexists(target) else None
        if current is None or current != outcome.text.encode("utf-8"):
            changes[rel] = outcome.text.encode("utf-8")
    try:
        added = new_errors(root, changes) if changes else []
    except PathRefused as exc:
        raise click.ClickException(f"{exc}; nothing written") from None
    if added:
        for p in sorted(added)[:20]:
            click.echo(p.format(), err=True)
        more = f" (the first 20 of {len(added)} shown)" if len(added) > 20 else ""
        raise click.ClickException(
            f"the import would add {len(added)} validation error{'s' if len(added) > 1 else ''}"
            f" (above{more}); nothing written"
        )
    for source, outcome in pending:
        target = imported_path(root, outcome.doc["source"])
        try:
            importers.write(root, outcome)
        except PathRefused as exc:
            raise click.ClickException(f"{source}: {exc}; nothing written") from None
        except OSError as exc:
            raise click.ClickException(
                f"{source}: cannot write {target.relative_to(root)}: {exc.strerror} (the previous file is unchanged)"
            ) from exc
        click.echo(
            f"{source}: wrote {target.relative_to(root)} ({len(outcome.doc['models'])} models, "
            f"{len(outcome.doc['results'])} results)"
        )


def _plans(
    source: str | None,
    paths: tuple[Path, ...],
    retrieved: str | None,
    all_: bool,
    check: bool,
    root: Path,
    data: Path | None,
) -> list[Planned]:
    """The imports the arguments ask for: every planned source (--all), or SOURCE's PATHs."""
    from .. import importers

    if all_:
        if source or paths:
            raise click.UsageError("--all takes no SOURCE or PATH")
        return importers.planned(root, _data_dir(root, data))
    if not source or not paths:
        raise click.UsageError("give SOURCE and at least one PATH, or --all")
    if check:
        raise click.UsageError("--check goes with --all")
    return [importers.Planned(source, tuple(paths), retrieved)]


@click.group("aliases")
def aliases_group() -> None:
    """Propose and apply model aliases for source names."""


@aliases_group.command("suggest")
@click.argument("source")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--retrieved",
    default="0000-00-00",
    show_default=True,
    help="Only needed by importers that insist; suggestions do not use it.",
)
@ROOT
def suggest_command(source: str, paths: tuple[Path, ...], retrieved: str | None, root: Path) -> None:
    """Print, as YAML for review, a match or a new model for every unresolved name of SOURCE."""
    from .. import importers
    from ..data.registry import Registry
    from ..importers import aliases as alias_tools
    from ..importers.extracts import ImportError_, load_ignores, reading

    registry = Registry.load(root)
    ignores = load_ignores(root)
    try:
        with reading(list(paths), source):  # what the files hold is a placed message, never an internal error
            ex = importers.extract(source, list(paths), retrieved, registry, ignores)
    except ImportError_ as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(alias_tools.dump(alias_tools.suggest(ex, registry, ignores)), nl=False)


@aliases_group.command("apply")
@click.argument("review", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@ROOT
def apply_command(review: Path, root: Path) -> None:
    """Write the reviewed proposals of REVIEW (the output of suggest, edited) into scores/models/; a bare name
    that pins a configuration the vendor default does not is written as a source alias of its source."""
    from ..data import yamlstrict
    from ..importers import aliases as alias_tools
    from ..importers.extracts import ImportError_, read_bytes

    try:  # the review file is an input like any other: bounded, a regular file, read by the strict YAML reader
        parsed, found = yamlstrict.parse(read_bytes(review, yamlstrict.MAX_BYTES), str(review))
    except ImportError_ as exc:
        raise click.ClickException(str(exc)) from None
    if parsed is None or found:  # an alias bomb or deep nesting is refused at its place, never expanded
        for p in found:
            click.echo(p.format(), err=True)
        count = f"{len(found)} error{'s' if len(found) != 1 else ''}"
        raise click.ClickException(
            f"{count} in the review file (above), not as `aliases suggest` writes it; nothing written"
        )
    doc = parsed.data
    proposals = (doc.get("proposals") if isinstance(doc, dict) else None) or []
    if not isinstance(proposals, list):
        raise click.ClickException(f"{review}: `proposals` is not a list")
    _changed(lambda: alias_tools.apply(root, proposals), echo=click.echo)


def _metadata_stats(root: Path) -> None:
    """How much metadata is known, over the registry and over the models ranked on AI IQ, AA and LMArena."""
    from .. import build
    from ..build import simcache, stamp
    from ..data import metadata, validate_repo

    data = stamp.data_digest(root)  # before the files are read: compute keeps its result under it
    repo, _ = validate_repo(root)
    if repo is None:
        click.echo("\nmetadata known: unknown (the repository does not validate)")
        return
    # the ranked models: no as-of views or API files; through the build's compute cache, removing none of its entries
    computed = build.compute(repo, simcache.folder(root), boards_only=True, inputs=data, root=root, prune=False)
    click.echo(
        "\nmetadata known              models  weights  reasoning  (not stated)  params  context  licence  open (with params)"
    )
    for label, ids in (
        ("all models", None),
        (
            "ranked: AI IQ, AA, LMArena",
            metadata.ranked_models(
                computed.boards, computed.benchmark_boards, COVERAGE_BOARDS, COVERAGE_BENCHMARK_BOARDS
            ),
        ),
    ):
        c = metadata.coverage(computed.model_records, ids)
        click.echo(
            f"{label:<26} {c['models']:>7}  {c['weights']:>7}  {c['reasoning']:>9}  "
            f"{c['reasoning_not_stated']:>12}  {c['parameters']:>6}  "
            f"{c['context_window']:>7}  {c['licence']:>7}  {c['open_weights']} ({c['open_with_parameters']})"
        )


def _changed(fn: Callable[..., Iterable[str]], *args: object, echo: Callable[[str], None] | None = None) -> None:
    """Run a registry edit and list the files it changed (or, with `echo`, print its lines); a refusal is a
    placed message and exit 1, not a traceback."""
    try:
        changed = fn(*args)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    for line in changed:
        (echo or (lambda path: click.echo(f"changed {path}")))(line)


@aliases_group.command("merge")
@click.argument("old")
@click.option("--into", required=True, help="The model id that survives.")
@ROOT
def merge_command(old: str, into: str, root: Path) -> None:
    """Merge model OLD into --into (one configuration entered twice); OLD goes under former_ids."""
    from ..importers import aliases as alias_tools

    _changed(alias_tools.merge, root, old, into)


@aliases_group.command("rename")
@click.argument("old")
@click.argument("new")
@click.option(
    "--organization",
    default=None,
    help="For a rename into another organisation folder (e.g. a fine-tune filed under its base model's "
    "developer): the new organisation's name, from the organisations table in scores/metadata.yaml.",
)
@ROOT
def rename_command(old: str, new: str, organization: str | None, root: Path) -> None:
    """Give model OLD the id NEW; OLD goes under former_ids and its page redirects."""
    from ..importers import aliases as alias_tools

    _changed(alias_tools.rename, root, old, new, organization)


@aliases_group.command("audit")
@ROOT
def audit_command(root: Path) -> None:
    """List what still needs review: near-duplicate ids (across organisations too), releases spread over ids,
    bare configurations, reasoning configurations with no effort, one configuration entered twice, mistyped ids,
    mode-unknown models ranked beside a known sibling, unreviewed aliases, bare aliases that pin a configuration
    the vendor default does not. Exits 1 when there is any."""
    from ..data import load
    from ..data.registry import Registry
    from ..importers import audit

    identity = load.read_yaml(root, "scores/identity.yaml")
    distinct, unresolved = audit.reviewed_sets(identity)
    models = Registry.load(root).models
    findings = audit.audit(
        models, distinct, unresolved, audit.ranked_models(root, models)
    ) + audit.alias_default_findings(models, identity)
    for f in findings:
        click.echo(f.format())
    click.echo(f"{len(findings)} findings")
    if findings:
        raise SystemExit(1)


def stats_kind(results: int, by_hand: int) -> str:
    """How a source's results reach the data: all imported, all entered by hand in model files, or both."""
    if by_hand == 0:
        return "imported"
    return "hand-curated" if by_hand == results else f"imported, {by_hand} by hand"


@click.command("stats")
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of downloaded files, to list unmatched names (default: downloads/ in the root).",
)
@ROOT
def stats_command(data: Path | None, root: Path) -> None:
    """Coverage: models per source, results per benchmark, ignored and unmatched names."""
    from .. import importers
    from ..data import frame, load
    from ..data.registry import Registry
    from ..importers.extracts import load_ignores

    repo, _ = load.load_repo(root)
    records = frame.result_records(repo)
    by_source: dict = {}
    per_bench: Counter = Counter()
    for rec in records:
        models, count = by_source.get(rec["source"], (set(), 0))
        models.add(rec["model"])
        by_source[rec["source"]] = (models, count + 1)
        per_bench[rec["benchmark"]] += 1
    with_results = {rec["model"] for rec in records}
    by_hand = Counter(rec["source"] for rec in records if rec["origin"].startswith("scores/models/"))
    click.echo(f"registry: {len(repo.models)} models; {len(with_results)} with results from {len(by_source)} sources")
    click.echo("\nsource                     models  results  kind")
    for src, (models, count) in sorted(by_source.items()):
        kind = stats_kind(count, by_hand[src])
        click.echo(f"{src:<26} {len(models):>6}  {count:>7}  {kind}")
    click.echo("\nbenchmark                  results")
    for bench, n in sorted(per_bench.items()):
        click.echo(f"{bench:<26} {n:>7}")
    _metadata_stats(root)
    ignores = load_ignores(root)
    click.echo(f"\nignored names: {len(ignores)}")
    for src, n in sorted(Counter(i["source"] for i in ignores).items()):
        click.echo(f"  {src}: {n}")
    folder = _data_dir(root, data)
    if not folder.is_dir():
        click.echo(f"\nunmatched names: unknown ({folder} not found)")
        return
    unmatched, registry = [], Registry.load(root)
    for plan in importers.planned(root, folder):
        _, outcome = importers.run(root, plan.source, list(plan.paths), plan.retrieved, registry)
        unmatched += outcome.unmatched
    click.echo(f"\nunmatched names: {len(unmatched)}")
    for p in unmatched:
        click.echo(f"  {p.source}: {p.name!r}: {p.message}")


@click.command("fetch")
@click.argument("source", required=False)
@click.option("--all", "all_", is_flag=True, help="Fetch every source whose files have a url in scores/sources.yaml.")
@click.option("--base-url", help="Send every request to URL/<host>/<path> instead (a local test server).")
@click.option(
    "--allow-shrink",
    is_flag=True,
    help="Keep a download that loses more than a fifth of the source's results (after checking why).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=60,
    show_default=True,
    help="Seconds a whole download may take (redirects and every chunk).",
)
@ROOT
def fetch_command(
    source: str | None, all_: bool, base_url: str | None, allow_shrink: bool, timeout: float, root: Path
) -> None:
    """Download SOURCE's files again into downloads/, check them and record them in scores/sources.yaml.

    SOURCE is a source id or its family (aa-api). Nothing is written unless every check passes; an unchanged
    download writes nothing. A changed snapshot (an id ending in a month) becomes a new dated source. Run
    `sitegen import --all` afterwards. The Artificial Analysis API needs AA_API_KEY; without it it is skipped.
    """
    from ..importers import fetch as fetchers

    if all_ == bool(source):
        raise click.UsageError("give SOURCE or --all")
    remote = fetchers.Remote(base_url, timeout)
    try:
        names = [source] if source else sorted(fetchers.plans(root))  # one or the other: checked above
    except (OSError, yaml.YAMLError) as exc:
        raise click.ClickException(f"scores/sources.yaml: {exc}") from None
    failed = 0
    for name in names:
        try:
            result = fetchers.fetch(root, name, remote, allow_shrink=allow_shrink)
        except fetchers.FetchError as exc:
            click.echo(f"Error: {exc}", err=True)
            failed += 1
            continue
        detail = f": {', '.join(result.files)}" if result.files else ""
        click.echo(f"{result.source}: {result.status} ({result.message}){detail}")
        if result.status == "skipped" and not all_:
            failed += 1
    if failed:
        raise click.ClickException(
            f"{failed} source{'s' if failed != 1 else ''} not fetched (see above); the existing captures are unchanged"
        )
