"""Refresh one source and open (or update) its pull request: what .github/workflows/refresh-data.yml runs.

    python tools/refresh_pr.py SOURCE [--root .] [--base main] [--base-url URL] [--remote origin] [--dry-run]

From a clean checkout of BASE, in a temporary worktree (the checkout itself is never changed): `sitegen fetch
SOURCE`; if nothing changed, stop. Otherwise re-import the source (names that match no model are left out of the
imported file and listed in the pull request with `sitegen aliases suggest`'s proposals, never added) and commit
for the branch data/refresh-<source>:

- the branch does not exist, or holds only this job's commits: the commit goes on BASE and replaces them
  (`--force-with-lease`, so a commit pushed meanwhile is never overwritten);
- the branch holds a commit this job did not make (a reviewer's alias, a fix): the commit goes on top of the
  branch, and the push is a fast-forward: reviewers' work is kept.

The one pull request from that branch *in this repository* (a fork's branch of the same name is never taken) is
created or edited; its body says which boards the source feeds, lists the unmatched names and carries the
`sitegen diff` report; every upstream string in it is an inert code span (`pr_comment.code_span`). A push made
with GITHUB_TOKEN starts no workflow, so the job then starts CI on the branch (`gh workflow run`).
`gh` (GitHub's CLI, GH_TOKEN in the environment) talks to GitHub; $GH names another program (tests).
--dry-run changes nothing (no commit, branch, push or `gh` call) and prints the body.
"""

from __future__ import annotations

import argparse
import json
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
from sitegen.importers.extracts import load_ignores
from sitegen.data.registry import Registry
from sitegen.history.pr_comment import code_block, code_span, md_escape

MAX_BODY = 60000  # GitHub refuses bodies over 65,536 characters
DIFF = [sys.executable, "-c", "from sitegen.cli import main; main()", "diff"]
#: The line every commit of this job carries: how it tells its own commits from reviewers'.
MARK = "Fetched by tools/refresh_pr.py; review the pull request's report."
#: The workflow the job starts on its branch (a push with GITHUB_TOKEN starts none by itself).
CI_WORKFLOW = "ci.yml"


class Failed(Exception):
    pass


def git(root: Path, *args: str, capture: bool = True) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=capture, text=True)
    if done.returncode != 0:  # a push URL may carry a token: never print credentials
        raise Failed(re.sub(r"//[^/@\s]+@", "//***@", f"git {' '.join(args)}: {(done.stderr or '').strip()}"))
    return done.stdout if capture else ""


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
    def spans(items):
        return ", ".join(code_span(n) for n in items)

    lines = []
    named = naming(root, source)
    if replaces:
        pinned = naming(root, replaces)
        lines.append(f"- A new snapshot, {code_span(source)}, beside {code_span(replaces)}; {code_span(replaces)} "
                     "stays as published" + (f" for {spans(pinned)}." if pinned else "."))
        lines.append(f"- No methodology version names {code_span(source)} yet: a new version that should use it "
                     "says so in `methodology/indices/`.")
    if named:
        lines.append(f"- Methodology that names {code_span(source)}: {spans(named)}.")
    benchmarks = sorted({r["benchmark"] for r in doc.get("results") or []})
    if benchmarks:
        lines.append(f"- Benchmark boards it has results on (and the indices built on them): {spans(benchmarks)}.")
    return lines


def readme_row(text: str, old: str, new: str) -> str:
    """The README's "where to download" table gets a row for a new snapshot source, copied from the one it follows."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(f"| `{old}` |"):
            lines.insert(i + 1, line.replace(f"| `{old}` |", f"| `{new}` |", 1))
            return "".join(lines)
    return text


def body(result, outcome, suggestions: str, board_lines: list[str], report: str, notes: list[str] = ()) -> str:
    """The pull request's body. Every string that comes from upstream (names, messages) is an inert code span or
    escaped text; the report is `sitegen diff`'s, which escapes every string it prints."""
    parts = [f"Automated refresh of {code_span(result.family)} by `tools/refresh_pr.py` "
             f"(`sitegen fetch {md_escape(result.family)}`).",
             "",
             f"- Source: {code_span(result.source)}, retrieved {md_escape(outcome.doc['retrieved'])}: "
             f"{md_escape(result.message)}.",
             f"- Files: {', '.join(code_span(f'downloads/{n}') for n in result.files)}.",
             f"- {code_span(f'scores/imported/{result.source}.yaml')}: {len(outcome.doc['models'])} models, "
             f"{len(outcome.doc['results'])} results.",
             *notes,
             "", "## Boards this touches", "", *board_lines, ""]
    if outcome.unmatched:
        parts += ["## Names that match no model", "",
                  "Not imported until a reviewer adds an alias, a model or an ignore entry (`sitegen aliases apply`"
                  " takes the reviewed proposals):", ""]
        parts += [f"- {code_span(p.name)}: {md_escape(p.message)}" for p in outcome.unmatched]
        parts += ["", "Proposals from `sitegen aliases suggest`:", "", *code_block(suggestions.rstrip(), "yaml"), ""]
    if outcome.conflicts:
        parts += ["## Conflicts", "", *[f"- {md_escape(c)}" for c in outcome.conflicts], ""]
    parts += ["## What changes on the site (`sitegen diff`)", "", report.strip() or "_No board changes._", ""]
    text = "\n".join(parts)
    if len(text) > MAX_BODY:
        text = text[:text.rfind("\n", 0, MAX_BODY) + 1] + "\n_Cut here: run `sitegen diff` on the branch for the rest._\n"
    return text


def gh_run(root: Path, *args: str) -> str:
    gh = os.environ.get("GH", "gh")
    try:
        return subprocess.run([gh, *args], cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise Failed(f"{gh} {' '.join(args[:2])}: {getattr(exc, 'stderr', '') or exc}".strip()) from None


def own_pull_request(root: Path, branch: str, base: str) -> str | None:
    """The number of the open pull request from `branch` of this repository into `base`, if any.
    `gh pr list --head` also lists forks' branches of the same name: those are never taken."""
    listed = json.loads(gh_run(root, "pr", "list", "--head", branch, "--base", base, "--state", "open",
                               "--json", "number,headRefName,isCrossRepository,headRepositoryOwner") or "[]")
    owner = os.environ.get("GITHUB_REPOSITORY_OWNER", "")
    for pr in listed if isinstance(listed, list) else []:
        head_owner = (pr.get("headRepositoryOwner") or {}).get("login", "")
        if pr.get("isCrossRepository") is False and pr.get("headRefName") == branch \
                and (not owner or head_owner.lower() == owner.lower()):
            return str(int(pr["number"]))
    return None


def open_or_update(root: Path, branch: str, base: str, title: str, text: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False, encoding="utf-8") as fh:
        fh.write(text)
    try:
        number = own_pull_request(root, branch, base)
        if number:
            gh_run(root, "pr", "edit", number, "--title", title, "--body-file", fh.name)
            done = f"updated pull request #{number}"
        else:
            gh_run(root, "pr", "create", "--base", base, "--head", branch, "--title", title, "--body-file", fh.name)
            done = "opened a pull request"
    finally:
        os.unlink(fh.name)
    gh_run(root, "workflow", "run", CI_WORKFLOW, "--ref", branch)
    return f"{done}; started {CI_WORKFLOW} on {branch}"


def remote_tip(root: Path, remote: str, branch: str, dry_run: bool) -> str | None:
    """The commit the remote's branch points at (None: no such branch). In a dry run an unreachable remote
    counts as no branch."""
    try:
        out = git(root, "ls-remote", "--heads", remote, f"refs/heads/{branch}")
    except Failed:
        if dry_run:
            return None
        raise
    return out.split()[0] if out.strip() else None


def foreign_commits(root: Path, tip: str, base_commit: str) -> list[str]:
    """Commits on the branch (not in base) that this job did not make: without its mark, or by another committer."""
    me = subprocess.run(["git", "-C", str(root), "config", "user.email"], capture_output=True, text=True).stdout.strip()
    me = os.environ.get("GIT_COMMITTER_EMAIL", me)
    out = git(root, "log", "--format=%H%x00%ce%x00%B%x01", tip, "--not", base_commit)
    foreign = []
    for entry in filter(str.strip, out.split("\x01")):
        sha, email, message = entry.strip("\n").split("\x00", 2)
        if MARK not in message or email != me:
            foreign.append(sha)
    return foreign


def refresh(root: Path, source: str, base: str, base_url: str | None, remote: str, dry_run: bool) -> str:
    if git(root, "status", "--porcelain").strip():
        raise Failed(f"{root}: the work tree has changes; refresh from a clean checkout of {base}")
    base_commit = git(root, "rev-parse", "HEAD").strip()
    try:
        fam = fetchers.family(fetchers.resolve_name(root, source).id)
    except fetchers.FetchError as exc:
        raise Failed(str(exc)) from None
    branch = f"data/refresh-{fam}"
    tip = remote_tip(root, remote, branch, dry_run)
    scratch = f"refs/refresh-pr/{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="refresh-pr-") as tmp:
        work = Path(tmp) / "work"
        git(root, "worktree", "add", "-q", "--detach", str(work), base_commit)
        try:
            return _refresh_in(root, work, source, base, base_url, remote, dry_run, base_commit, branch, tip, scratch)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(work)], capture_output=True)
            subprocess.run(["git", "-C", str(root), "worktree", "prune"], capture_output=True)
            subprocess.run(["git", "-C", str(root), "update-ref", "-d", scratch], capture_output=True)


def _refresh_in(root, work, source, base, base_url, remote, dry_run, base_commit, branch, tip, scratch) -> str:
    notes, foreign = [], []
    if tip:
        # into a scratch ref (no remote-tracking ref, no FETCH_HEAD): deleted again when the run ends
        git(work, "fetch", "-q", "--no-tags", "--no-write-fetch-head", "--refmap=", remote,
            f"+refs/heads/{branch}:{scratch}")
        foreign = foreign_commits(work, tip, base_commit)
        if foreign:
            git(work, "checkout", "-q", "--detach", tip)
            notes.append(f"- The branch holds {len(foreign)} commit{'s' if len(foreign) != 1 else ''} this job did "
                         f"not make ({', '.join(code_span(c[:12]) for c in foreign[:10])}): this refresh is a new "
                         "commit on top of them; nothing was force-pushed.")
    try:
        result = fetchers.fetch(work, source, fetchers.Remote(base_url))
    except fetchers.FetchError as exc:
        raise Failed(str(exc)) from None
    if result.status in ("unchanged", "skipped"):
        where = f" (compared with {branch}, which has reviewers' commits)" if foreign else ""
        return f"{result.source}: {result.status} ({result.message}){where}; nothing to do"
    outcome, suggestions = reimport(work, result.source)
    title = f"Data: refresh {result.family} ({result.source}, retrieved {outcome.doc['retrieved']})"
    readme = work / "README.md"
    if result.replaces and readme.is_file():
        readme.write_text(readme_row(readme.read_text(encoding="utf-8"), result.replaces, result.source),
                          encoding="utf-8")
    git(work, "add", "--", "downloads", "scores", *(["README.md"] if readme.is_file() else []))
    git(work, "commit", "-q", "-m", f"{title}\n\n{MARK}")
    since = git(work, "merge-base", base_commit, "HEAD").strip()
    diff = subprocess.run([*DIFF, since, "HEAD", "--root", str(work)], capture_output=True, text=True)
    report = diff.stdout if diff.returncode == 0 else \
        "`sitegen diff` failed:\n\n" + "\n".join(code_block(diff.stderr.strip()))
    text = body(result, outcome, suggestions, boards(work, result.source, outcome.doc, result.replaces), report,
                notes)
    if dry_run:
        return text
    if foreign:   # a fast-forward on top of reviewers' commits
        git(work, "push", "-q", remote, f"HEAD:refs/heads/{branch}")
    else:         # only this job's own commits are replaced, and only if nobody pushed since it looked
        git(work, "push", "-q", f"--force-with-lease=refs/heads/{branch}:{tip or ''}", remote,
            f"HEAD:refs/heads/{branch}")
    return f"{result.source}: pushed {branch}; " + open_or_update(root, branch, base, title, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--base", default="main", help="The branch the pull request goes into.")
    parser.add_argument("--base-url", help="Fetch from URL/<host>/<path> instead (a local test server).")
    parser.add_argument("--remote", default="origin", help="Where to push the branch (a remote name or URL).")
    parser.add_argument("--dry-run", action="store_true", help="Change nothing (no commit, branch, push or gh) and print the body.")
    args = parser.parse_args(argv)
    try:
        print(refresh(args.root.resolve(), args.source, args.base, args.base_url, args.remote, args.dry_run))
    except Failed as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
