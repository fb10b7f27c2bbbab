"""Refresh one source and open (or update) its pull request: what .github/workflows/refresh-data.yml runs.

    python tools/refresh_pr.py SOURCE [--root .] [--base main] [--base-url URL] [--remote origin] [--dry-run]

On a clean checkout of BASE: `sitegen fetch SOURCE`; if nothing changed, stop. Otherwise re-import the source
(names that match no model are left out of the imported file and listed in the pull request with
`sitegen aliases suggest`'s proposals, never added), commit on the branch data/refresh-<source>, push it
(force: the branch is always BASE plus one commit) and create or edit the one pull request from that branch,
whose body says which boards the source feeds, lists the unmatched names and carries the `sitegen diff` report.
`gh` (GitHub's CLI, GH_TOKEN in the environment) opens the pull request; $GH names another program (tests).
--dry-run does everything but push and `gh`, and prints the body.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from sitegen import importers
from sitegen.importers import aliases as alias_tools
from sitegen.importers import fetch as fetchers
from sitegen.importers.common import load_ignores
from sitegen.importers.registry import Registry

MAX_BODY = 60000  # GitHub refuses bodies over 65,536 characters
DIFF = [sys.executable, "-c", "from sitegen.cli import main; main()", "diff"]


class Failed(Exception):
    pass


def git(root: Path, *args: str, capture: bool = True) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=capture, text=True)
    if done.returncode != 0:  # a push URL may carry a token: never print credentials
        raise Failed(re.sub(r"//[^/@\s]+@", "//***@", f"git {' '.join(args)}: {(done.stderr or '').strip()}"))
    return done.stdout if capture else ""


def neutral(text: str) -> str:
    """Source names are data from the internet: no @mentions and no raw HTML in the pull request."""
    return text.replace("@", "@\u200b").replace("<", "&lt;")


def reimport(root: Path, source: str):
    """Re-import `source` from downloads/ and write scores/imported/<source>.yaml without the unmatched names."""
    plan = next((p for p in importers.planned(root, root / importers.DEFAULT_DATA) if p.source == source), None)
    if plan is None:
        raise Failed(f"scores/sources.yaml: {source} lists no file to import")
    ex, outcome = importers.run(root, plan.source, list(plan.paths), plan.retrieved)
    importers.write(root, outcome)
    suggestions = ""
    if outcome.unmatched:
        registry, ignores = Registry.load(root), load_ignores(root)
        suggestions = alias_tools.dump(alias_tools.suggest(ex, registry, ignores))
    return outcome, suggestions


def naming(root: Path, source: str) -> list[str]:
    """The index definitions in methodology/indices/ that name `source` (as a value anywhere in the file)."""
    def values(node):
        if isinstance(node, dict):
            for v in node.values():
                yield from values(v)
        elif isinstance(node, list):
            for v in node:
                yield from values(v)
        else:
            yield node

    return sorted(p.stem for p in (root / "methodology" / "indices").glob("*.yaml")
                  if source in values(yaml.safe_load(p.read_text(encoding="utf-8"))))


def boards(root: Path, source: str, doc: dict, replaces: str | None) -> list[str]:
    """Which published boards the source feeds: the methodology files that name it, and its benchmarks."""
    lines = []
    named = naming(root, source)
    if replaces:
        pinned = naming(root, replaces)
        lines.append(f"- A new snapshot, `{source}`, beside `{replaces}`; `{replaces}` stays as published"
                     + (f" for {', '.join(f'`{n}`' for n in pinned)}." if pinned else "."))
        lines.append(f"- No methodology version names `{source}` yet: a new version that should use it says so "
                     "in `methodology/indices/`.")
    if named:
        lines.append(f"- Methodology that names `{source}`: {', '.join(f'`{n}`' for n in named)}.")
    benchmarks = sorted({r["benchmark"] for r in doc.get("results") or []})
    if benchmarks:
        lines.append(f"- Benchmark boards it has results on (and the indices built on them): "
                     f"{', '.join(f'`{b}`' for b in benchmarks)}.")
    return lines


def readme_row(text: str, old: str, new: str) -> str:
    """The README's "where to download" table gets a row for a new snapshot source, copied from the one it follows."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(f"| `{old}` |"):
            lines.insert(i + 1, line.replace(f"| `{old}` |", f"| `{new}` |", 1))
            return "".join(lines)
    return text


def body(result, outcome, suggestions: str, board_lines: list[str], report: str) -> str:
    parts = [f"Automated refresh of `{result.family}` by `tools/refresh_pr.py` (`sitegen fetch {result.family}`).",
             "",
             f"- Source: `{result.source}`, retrieved {outcome.doc['retrieved']}: {result.message}.",
             f"- Files: {', '.join(f'`downloads/{n}`' for n in result.files)}.",
             f"- `scores/imported/{result.source}.yaml`: {len(outcome.doc['models'])} models, "
             f"{len(outcome.doc['results'])} results.",
             "", "## Boards this touches", "", *board_lines, ""]
    if outcome.unmatched:
        parts += ["## Names that match no model", "",
                  "Not imported until a reviewer adds an alias, a model or an ignore entry (`sitegen aliases apply`"
                  " takes the reviewed proposals):", ""]
        parts += [f"- `{p.name}`: {p.message}" for p in outcome.unmatched]
        parts += ["", "Proposals from `sitegen aliases suggest`:", "", "```yaml", suggestions.rstrip(), "```", ""]
    if outcome.conflicts:
        parts += ["## Conflicts", "", *[f"- {c}" for c in outcome.conflicts], ""]
    parts += ["## What changes on the site (`sitegen diff`)", "", report.strip() or "_No board changes._", ""]
    text = neutral("\n".join(parts))
    if len(text) > MAX_BODY:
        text = text[:MAX_BODY] + "\n\n_Cut here: run `sitegen diff` on the branch for the rest._\n"
    return text


def open_or_update(root: Path, branch: str, base: str, title: str, text: str) -> str:
    gh = os.environ.get("GH", "gh")
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False, encoding="utf-8") as fh:
        fh.write(text)
    try:
        listed = subprocess.run([gh, "pr", "list", "--head", branch, "--base", base, "--state", "open",
                                 "--json", "number", "--jq", ".[0].number"],
                                cwd=root, capture_output=True, text=True, check=True).stdout.strip()
        if listed:
            subprocess.run([gh, "pr", "edit", listed, "--title", title, "--body-file", fh.name], cwd=root, check=True)
            return f"updated pull request #{listed}"
        subprocess.run([gh, "pr", "create", "--base", base, "--head", branch, "--title", title,
                        "--body-file", fh.name], cwd=root, check=True)
        return "opened a pull request"
    except (OSError, subprocess.CalledProcessError) as exc:
        raise Failed(f"{gh}: {exc}") from None
    finally:
        os.unlink(fh.name)


def refresh(root: Path, source: str, base: str, base_url: str | None, remote: str, dry_run: bool) -> str:
    if git(root, "status", "--porcelain").strip():
        raise Failed(f"{root}: the work tree has changes; refresh from a clean checkout of {base}")
    base_commit = git(root, "rev-parse", "HEAD").strip()
    try:
        result = fetchers.fetch(root, source, fetchers.Remote(base_url))
    except fetchers.FetchError as exc:
        raise Failed(str(exc)) from None
    if result.status in ("unchanged", "skipped"):
        return f"{result.source}: {result.status} ({result.message}); nothing to do"
    outcome, suggestions = reimport(root, result.source)
    branch = f"data/refresh-{result.family}"
    title = f"Data: refresh {result.family} ({result.source}, retrieved {outcome.doc['retrieved']})"
    readme = root / "README.md"
    if result.replaces and readme.is_file():
        readme.write_text(readme_row(readme.read_text(encoding="utf-8"), result.replaces, result.source),
                          encoding="utf-8")
    git(root, "checkout", "-q", "-B", branch)
    git(root, "add", "--", "downloads", "scores", *(["README.md"] if readme.is_file() else []))
    git(root, "commit", "-q", "-m", f"{title}\n\nFetched by tools/refresh_pr.py; review the pull request's report.")
    diff = subprocess.run([*DIFF, base_commit, "HEAD", "--root", str(root)], capture_output=True, text=True)
    report = diff.stdout if diff.returncode == 0 else f"`sitegen diff` failed:\n\n```\n{diff.stderr.strip()}\n```"
    text = body(result, outcome, suggestions, boards(root, result.source, outcome.doc, result.replaces), report)
    if dry_run:
        return text
    git(root, "push", "-q", "--force", remote, f"HEAD:refs/heads/{branch}")
    return f"{result.source}: pushed {branch}; " + open_or_update(root, branch, base, title, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--base", default="main", help="The branch the pull request goes into.")
    parser.add_argument("--base-url", help="Fetch from URL/<host>/<path> instead (a local test server).")
    parser.add_argument("--remote", default="origin", help="Where to push the branch (a remote name or URL).")
    parser.add_argument("--dry-run", action="store_true", help="Commit locally and print the body; no push, no gh.")
    args = parser.parse_args(argv)
    try:
        print(refresh(args.root.resolve(), args.source, args.base, args.base_url, args.remote, args.dry_run))
    except Failed as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
