"""The data changelog: git history of scores/ and methodology/ -> entries per commit, as Markdown, JSON or Atom.

Read-only: git log, diff-tree and cat-file only; files are parsed with the strict YAML reader and never executed.
Dates are the commits' committer dates in UTC, never the clock.
"""

from __future__ import annotations

import datetime
import re
import tempfile
from pathlib import Path, PurePosixPath

from ..problems import ERROR
from . import diff as diffing
from . import git
from .git import DATA_FOLDERS, GitError, materialise, repo_prefix, run_git
from .pr_comment import INVISIBLE, WWW

#: Result fields that identify a result within one model (the model comes from the file or the row).
KEY = ("benchmark", "metric", "subset", "harness", "source")
COMPARED = ("value", "retrieved", "url", "n", "stderr", "ci95", "self_reported")


def _utc(timestamp: str) -> str:
    return datetime.datetime.fromtimestamp(int(timestamp), datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def log(root: Path) -> list[dict]:
    """First-parent commits that touched scores/ or methodology/, oldest first: sha, parent, date, subject."""
    prefix = repo_prefix(root)
    out = run_git(
        root,
        "log",
        "--first-parent",
        "--reverse",
        "-z",
        "--format=%H%x1f%P%x1f%ct%x1f%s",
        "--",
        *[f"{prefix}{f}" for f in DATA_FOLDERS],
    )
    commits = []
    for record in out.decode("utf-8", "replace").split("\0"):
        if not record.strip():
            continue
        sha, parents, stamp, subject = record.strip("\n").split("\x1f", 3)
        commits.append(
            {"commit": sha, "parent": next(iter(parents.split()), None), "date": _utc(stamp), "subject": subject}
        )
    return commits


def changed_files(root: Path, parent: str | None, sha: str) -> list[tuple[str, str]]:
    """(status letter, path relative to root) of data files the commit changed against its first parent."""
    prefix = repo_prefix(root)
    base = [parent, sha] if parent else ["--root", sha]
    out = run_git(
        root,
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--name-status",
        "--no-commit-id",
        *base,
        "--",
        *[f"{prefix}{f}" for f in DATA_FOLDERS],
    )
    items = [x for x in out.decode("utf-8", "surrogateescape").split("\0") if x]
    return [(items[i][0], items[i + 1][len(prefix) :]) for i in range(0, len(items) - 1, 2)]


def _blob(root: Path, sha: str | None, rel: str):
    """A YAML file's data at a commit, or None when absent or unreadable."""
    if sha is None:
        return None
    from ..data import yamlstrict

    try:
        raw = run_git(root, "cat-file", "blob", f"{sha}:{repo_prefix(root)}{rel}")
    except GitError:
        return None
    parsed, _ = yamlstrict.parse(raw, rel)
    return None if parsed is None else parsed.data


def _results_by_model(rel: str, data) -> dict[str, dict[tuple, dict]]:
    """{model: {result key: result}} from a model file or an imported file."""
    out: dict[str, dict[tuple, dict]] = {}
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return out
    imported = rel.startswith("scores/imported/")
    for result in data["results"]:
        if not isinstance(result, dict):
            continue
        model = result.get("model") if imported else data.get("id")
        source = data.get("source") if imported else result.get("source")
        if not isinstance(model, str):
            continue
        key = tuple(str(result.get(k, "") or "") for k in KEY[:-1]) + (str(source or ""),)
        out.setdefault(model, {})[key] = result
    return out


def _result_view(key: tuple, result: dict) -> dict:
    return {**dict(zip(KEY, key)), "value": result.get("value")}


def _model_id(rel: str) -> str | None:
    parts = PurePosixPath(rel).parts
    if len(parts) == 4 and parts[:2] == ("scores", "models") and parts[3].endswith(".yaml"):
        return f"{parts[2]}/{parts[3][: -len('.yaml')]}"
    return None


def _model_changes(before: dict, after: dict) -> dict[str, dict[str, list]]:
    """Per model, the results one file adds, changes (a COMPARED field) and removes; models without any left out."""
    out = {}
    for m in sorted(set(before) | set(after)):
        a, b = before.get(m, {}), after.get(m, {})
        change = {
            "added": [_result_view(k, b[k]) for k in sorted(b.keys() - a.keys())],
            "changed": [
                {
                    **dict(zip(KEY, k)),
                    "old": a[k].get("value"),
                    "new": b[k].get("value"),
                    "fields": [f for f in COMPARED if a[k].get(f) != b[k].get(f)],
                }
                for k in sorted(a.keys() & b.keys())
                if any(a[k].get(f) != b[k].get(f) for f in COMPARED)
            ],
            "removed": [_result_view(k, a[k]) for k in sorted(a.keys() - b.keys())],
        }
        if any(change.values()):
            out[m] = change
    return out


def _file_results(root: Path, parent: str | None, sha: str, status: str, rel: str) -> dict[str, dict[str, list]]:
    """The result changes of one model or imported file the commit changed (see _model_changes)."""
    before = _results_by_model(rel, _blob(root, parent, rel) if status != "A" else None)
    after = _results_by_model(rel, _blob(root, sha, rel) if status != "D" else None)
    return _model_changes(before, after)


def entry_for(root: Path, commit: dict) -> dict:
    """One changelog entry: models added/removed, results per model, methodology and other files changed."""
    sha, parent = commit["commit"], commit["parent"]
    models: dict[str, list[str]] = {"added": [], "removed": []}
    results: dict[str, dict[str, list]] = {}
    methodology, other = [], []
    for status, rel in changed_files(root, parent, sha):
        word = {"A": "added", "D": "deleted"}.get(status, "changed")
        if rel.startswith("methodology/"):
            old, new = _blob(root, parent, rel), _blob(root, sha, rel)
            keys = diffing.changed_keys(old, new) if rel.endswith(".yaml") and status == "M" else []
            methodology.append({"file": rel, "status": word, "keys": keys})
            continue
        model = _model_id(rel)
        if model and status in ("A", "D"):
            models["added" if status == "A" else "removed"].append(model)
        if not (model or rel.startswith("scores/imported/")) or not rel.endswith(".yaml"):
            other.append({"file": rel, "status": word})
            continue
        for m, change in _file_results(root, parent, sha, status, rel).items():
            mine = results.setdefault(m, {"added": [], "changed": [], "removed": []})
            for kind, rows in change.items():
                mine[kind].extend(rows)
    counts = {kind: sum(len(r[kind]) for r in results.values()) for kind in ("added", "changed", "removed")}
    return {
        "commit": sha,
        "date": commit["date"],
        "subject": commit["subject"],
        "models": {k: sorted(v) for k, v in models.items()},
        "results": {m: results[m] for m in sorted(results)},
        "results_count": counts,
        "methodology": sorted(methodology, key=lambda m: m["file"]),
        "files": sorted(other, key=lambda f: f["file"]),
    }


class _States:
    """Validated, computed states by commit, materialised once each into one temporary folder."""

    def __init__(self, root: Path, tmp: Path):
        self.root, self.tmp = root, tmp
        self.cache: dict[str, tuple[diffing.State | None, list]] = {}

    def get(self, sha: str | None):
        if sha is None:
            return diffing.State(boards={}, benchmark_boards={}, results=[], models=(), methodology={}), []
        if sha not in self.cache:
            folder = self.tmp / sha
            folder.mkdir()
            materialise(self.root, sha, folder)
            self.cache[sha] = diffing.load_state(folder)
        return self.cache[sha]


def board_changes(states: _States, parent: str | None, sha: str) -> dict:
    """What the commit did to the published boards, in brief: boards affected, models moved, entered and left."""
    (old, old_problems), (new, new_problems) = states.get(parent), states.get(sha)
    if old is None or new is None:
        side, problems = ("parent", old_problems) if old is None else ("commit", new_problems)
        errors = [p for p in problems if p.severity == ERROR]
        return {"error": f"the {side} does not validate ({len(errors)} error{'s' if len(errors) != 1 else ''})"}
    d = diffing.diff(old, new)
    return {
        "affected": d["summary"]["boards_affected"],
        "models_moved": d["summary"]["models_moved"],
        "entered": {b: [r["model"] for r in v["entered"]] for b, v in d["boards"].items() if v["entered"]},
        "left": {b: [r["model"] for r in v["left"]] for b, v in d["boards"].items() if v["left"]},
    }


def changelog_entries(root: Path, limit: int | None = None, boards_last: int = 0) -> list[dict]:
    """Changelog entries, newest first: the newest `limit` data commits (all when None).

    The newest `boards_last` entries also carry `boards` (computed by validating and computing the commit and
    its first parent), which takes a few seconds per commit on a large tree.
    """
    root = Path(root)
    commits = log(root)
    if limit is not None:
        commits = commits[-limit:] if limit > 0 else []
    entries = [entry_for(root, c) for c in commits]
    if boards_last > 0 and commits:
        with tempfile.TemporaryDirectory(prefix="sitegen-changelog-") as tmp:
            states = _States(root, Path(tmp))
            for commit, entry in list(zip(commits, entries))[-boards_last:]:
                entry["boards"] = board_changes(states, commit["parent"], commit["commit"])
    return entries[::-1]


# ---------------------------------------------------------------- the fast summary, for the site

_STATUS = {"A": "added", "D": "deleted"}
#: Separates commits in the summary's one `git log`; fields within a header are separated by \x1f.
_RS, _US = "\x1e", "\x1f"


def data_releases(root: Path) -> list[dict]:
    """`data-*` tags, newest first: tag, date (the tagger's, else the commit's, UTC), the tagged commit and its date."""
    out = git.text(
        root,
        "tag",
        "--list",
        "data-*",
        "--format="
        + _US.join(
            [
                "%(refname:strip=2)",
                "%(creatordate:unix)",
                "%(objectname)",
                "%(*objectname)",
                "%(committerdate:unix)",
                "%(*committerdate:unix)",
                "%(contents:subject)",
            ]
        ),
    )
    releases = []
    for line in (out or "").splitlines():
        fields = line.split(_US)
        if len(fields) != 7 or not fields[1].isdigit():
            continue
        tag, created, obj, deref, cdate, deref_cdate, subject = fields
        commit_date = deref_cdate or cdate  # an annotated tag's target commit, else the tagged commit itself
        releases.append(
            {
                "tag": tag,
                "date": _utc(created),
                "commit": deref or obj,
                "commit_date": _utc(commit_date) if commit_date.isdigit() else _utc(created),
                "subject": subject if deref else "",
            }
        )
    return sorted(releases, key=lambda r: (r["commit_date"], r["date"], r["tag"]), reverse=True)


def _summarise(sha: str, stamp: str, parents: str, subject: str, changes: list[tuple[str, str]]) -> dict:
    models: dict[str, list[str]] = {"added": [], "removed": [], "changed": []}
    imported, methodology, files = [], [], []
    for status, rel in sorted(changes, key=lambda c: (c[1], c[0])):
        word = _STATUS.get(status, "changed")
        model = _model_id(rel)
        parts = PurePosixPath(rel).parts
        if model:
            models[{"A": "added", "D": "removed"}.get(status, "changed")].append(model)
        elif len(parts) == 3 and parts[:2] == ("scores", "imported") and rel.endswith(".yaml"):
            imported.append({"source": parts[2][: -len(".yaml")], "status": word})
        elif parts and parts[0] == "methodology":
            index = (
                parts[2][: -len(".yaml")]
                if len(parts) == 3 and parts[1] == "indices" and rel.endswith(".yaml")
                else None
            )
            methodology.append({"file": rel, "status": word, "index": index})
        else:
            files.append({"file": rel, "status": word})
    return {
        "commit": sha,
        "date": _utc(stamp),
        "subject": subject,
        "root": not parents.strip(),
        "models_added": models["added"],
        "models_removed": models["removed"],
        "models_changed": models["changed"],
        "imported": imported,
        "methodology": methodology,
        "files": files,
        "release": None,
    }


def summary_entries(root: Path, limit: int = 200) -> list[dict]:
    """The newest `limit` data commits in brief, newest first, from one `git log` (no file is parsed).

    Per commit: sha, UTC committer date, subject; model ids added, removed and changed (from the paths under
    scores/models/); imported sources regenerated; methodology files changed (indices/<id>.yaml named by index
    id); other data files; and `release`, the earliest `data-*` tag that includes it (None when unreleased).
    `root` is True for a commit without a parent (in a shallow clone, the cut-off, where every file looks
    added); `shallow` says whether the clone is. Not a git repository, or no git -> [].
    """
    root = Path(root)
    if limit <= 0:
        return []
    # --relative: paths relative to root, wherever root sits in the repository; merges diffed to their first parent.
    out = git.text(
        root,
        "log",
        "--first-parent",
        "--diff-merges=first-parent",
        "--no-renames",
        "--relative",
        "--name-status",
        "-z",
        f"-n{int(limit)}",
        f"--format={_RS}%H{_US}%ct{_US}%P{_US}%s",
        "--",
        *DATA_FOLDERS,
    )
    if out is None:
        return []
    entries = []
    for record in out.split(_RS)[1:]:
        header, _, rest = record.partition("\0")
        fields = header.split(_US, 3)
        if len(fields) != 4 or not fields[1].isdigit():
            continue
        items = [x for x in rest.lstrip("\n").split("\0") if x and x != "\n"]
        changes = [(items[i][:1], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        sha, stamp, parents, subject = fields
        entries.append(_summarise(sha, stamp, parents, subject, changes))
    if not entries:
        return []
    shallow = (
        any(e["root"] for e in entries)
        and (git.text(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true"
    )
    for e in entries:
        e["shallow"] = shallow
    _attach_releases(entries, data_releases(root))
    return entries


class Record:
    """What a site build takes from git (build.run's `history`): the last commit's date and what the changelog
    depends on besides the data, read at once for the rebuild check; the changelog's entries when asked."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.committed = git.last_commit_date(self.root)
        self.key = git.history_key(self.root)

    def summary(self) -> list[dict]:
        return summary_entries(self.root)


def _attach_releases(entries: list[dict], releases: list[dict]) -> None:
    """Mark each entry (newest first) with the earliest release that includes it.

    A release includes the commits at or before the one it tags: by position when it tags a listed data commit,
    else by the tagged commit's date.
    """
    position = {e["commit"]: i for i, e in enumerate(entries)}
    for release in sorted(releases, key=lambda r: (r["commit_date"], r["date"], r["tag"]), reverse=True):
        start = position.get(release["commit"])
        if start is None:
            start = next((i for i, e in enumerate(entries) if e["date"] <= release["commit_date"]), len(entries))
        brief = {
            "tag": release["tag"],
            "date": release["date"],
            "commit": release["commit"],
            "subject": release["subject"],
        }
        for e in entries[start:]:
            e["release"] = brief  # older releases overwrite: the earliest release that includes the commit wins


# ---------------------------------------------------------------- renderers


def summary_lines(entry: dict) -> list[str]:
    """Plain-text lines describing one entry (for Markdown items and Atom content)."""
    from ..site.feed import capped  # here, not at the top: importing the site costs a no-change rebuild 0.2 s

    lines = []
    for kind in ("added", "removed"):
        if entry["models"][kind]:
            lines.append(f"Models {kind}: {capped(entry['models'][kind])}")
    if entry["results"]:
        c = {k: sum(len(r[k]) for r in entry["results"].values()) for k in ("added", "changed", "removed")}
        n = len(entry["results"])
        lines.append(f"Results: +{c['added']} ~{c['changed']} -{c['removed']} across {n} model{'s' if n != 1 else ''}")
    for model, change in entry["results"].items():
        parts = []
        for kind, sign in (("added", "+"), ("changed", "~"), ("removed", "-")):
            if change[kind]:
                benches = sorted({r["benchmark"] for r in change[kind]})
                parts.append(f"{sign}{len(change[kind])} ({capped(benches)})")
        lines.append(f"Results of {model}: {' '.join(parts)}")
    for m in entry["methodology"]:
        keys = f": {', '.join(m['keys'])}" if m["keys"] else ""
        lines.append(f"Methodology {m['file']} {m['status']}{keys}")
    for f in entry["files"]:
        lines.append(f"{f['file']} {f['status']}")
    boards = entry.get("boards")
    if boards and "error" in boards:
        lines.append(f"Boards: not computed, {boards['error']}")
    elif boards and boards["affected"]:
        lines.append(
            f"Boards affected: {', '.join(boards['affected'])}; "
            f"{len(boards['models_moved'])} model{'s' if len(boards['models_moved']) != 1 else ''} moved"
        )
    return lines


#: Characters that render (or start something that renders) wherever they stand in a line of text.
_ALWAYS = {"\\": "\\\\", "`": "\\`", "*": "\\*", "[": "\\[", "]": "\\]", "<": "&lt;"}


def md_text(text) -> str:
    """One line of git-log text as Markdown that shows it as written: a backslash only where a character would
    render (emphasis, code, links and images, HTML; `_` and `~` only at a word's edge, `&` only before an entity
    name, `$` only before a non-digit), where pr_comment.md_escape, made for the untrusted pull-request comment,
    escapes every punctuation mark. Links, www. autolinks and @mentions stay inert (a zero-width space)."""
    text = INVISIBLE.sub("\N{REPLACEMENT CHARACTER}", " ".join(str(text).split()))
    out = []
    for i, ch in enumerate(text):
        before, after = text[i - 1 : i], text[i + 1 : i + 2]
        if ch in _ALWAYS:
            out.append(_ALWAYS[ch])
        elif ch in "_~" and not (before.isalnum() and after.isalnum()) and not (before.isspace() and after.isspace()):
            out.append("\\" + ch)
        elif ch == "&" and re.match(r"&#?\w+;", text[i:]):
            out.append("&amp;")
        elif ch == "$" and not after.isdigit():
            out.append("\\$")
        else:
            out.append(ch)
    return WWW.sub("\\1\u200b.", "".join(out).replace("://", ":\u200b//")).replace("@", "@\u200b")


def to_markdown(entries: list[dict], max_lines_per_entry: int = 20) -> str:
    """The changelog as Markdown, newest first; commit text shown as written, inert (md_text)."""
    out = ["# Data changelog", ""]
    if not entries:
        out += ["No commit has changed scores/ or methodology/ yet.", ""]
    for entry in entries:
        out += [f"## {entry['date'][:10]}: {md_text(entry['subject'])} ({entry['commit'][:12]})", ""]
        lines = summary_lines(entry) or ["No data change."]
        if len(lines) > max_lines_per_entry:
            lines = lines[: max_lines_per_entry - 1] + [f"… and {len(lines) - max_lines_per_entry + 1} more"]
        out += [f"- {md_text(line)}" for line in lines] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def atom_feed(entries: list[dict], site_url: str, **options) -> str:
    """The changelog as an Atom 1.0 feed (site/feed.py's writer), each entry described by summary_lines."""
    from ..site import feed

    return feed.atom_feed(entries, site_url, **{"lines": summary_lines, **options})
