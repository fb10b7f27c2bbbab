"""What a change does to the published boards: two computed states -> a structured diff, as Markdown or JSON.

`State` is what one side of the comparison needs (boards, results, model ids, methodology data); `diff(old, new)`
is pure. `materialise(root, ref, dest)` copies a git ref's scores/ and methodology/ into a folder by reading
blobs only (no checkout, no attributes, filters or hooks), so nothing from the ref is ever executed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path

from ..indices.compare import diff_board
from . import pr_comment
from .git import materialise, resolve, run_git

#: Result fields that identify one result; a change to any other field is a changed result.
RESULT_KEY = ("model", "benchmark", "metric", "subset", "harness", "source")
#: Result fields compared and reported for a changed result.
RESULT_FIELDS = ("value", "retrieved", "url", "n", "stderr", "ci_low", "ci_high", "self_reported")
#: Keys that name the elements of a list of mappings in methodology YAML (first one present wins).
LIST_ID_KEYS = ("id", "benchmark", "status", "version")
MAX_MARKDOWN_LINES = 200


@dataclasses.dataclass(frozen=True)
class State:
    """One side of a comparison: the published boards and the inputs that explain them."""

    boards: dict  # index id -> board (published index boards)
    benchmark_boards: dict  # benchmark id -> board
    results: list  # frame.result_records
    models: tuple  # model ids with a model file
    methodology: dict  # relative path -> parsed data (benchmarks.yaml, indices/*.yaml) or text (*.md)


def load_state(root: Path, cache: Path | None = None):
    """Validate and compute the tree at root: (State or None, problems).

    With `cache`, the compute cache's folder of the repository the command runs in (build/simcache.py), each file's
    parse and the boards are loaded from it where their inputs are there, and what is computed is added, never
    removing an entry a build keeps. Every entry is keyed by content: the files by their paths below `root` and
    their bytes, the boards by the rows, models and definitions they read, all with the package's code; so a
    ref's copy in a temporary folder finds what a build of that commit, or an earlier diff of it, computed."""
    from ..build import compute, stamp
    from ..data import validate_repo

    root = Path(root)
    inputs = stamp.data_digest(root) if cache is not None else None  # before the files are read (build.compute)
    repo, problems = validate_repo(root, parse_cache=cache is not None, cache=cache)
    if repo is None:
        return None, problems
    # the State holds no as-of view and no API file
    computed = compute(repo, cache, boards_only=True, inputs=inputs, root=root, prune=False)
    methodology = {repo.benchmarks.path: repo.benchmarks.data} if repo.benchmarks is not None else {}
    methodology.update({doc.path: doc.data for doc in repo.indices})
    methodology.update({f"methodology/{name}": text for name, text in repo.pages})
    state = State(
        boards=computed.boards,
        benchmark_boards=computed.benchmark_boards,
        results=computed.result_records,
        models=tuple(sorted(d.data["id"] for d in repo.models)),
        methodology=methodology,
    )
    return state, problems


# ---------------------------------------------------------------- the diff (pure)


def _clean(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _result_key(rec: Mapping) -> tuple:
    return tuple(rec[k] or "" for k in RESULT_KEY)


def _result_view(rec: Mapping) -> dict:
    out = {k: rec[k] for k in RESULT_KEY}
    out.update({k: _clean(rec.get(k)) for k in ("value", "retrieved", "url")})
    out["origin"] = rec.get("origin")
    if rec.get("self_reported") is True:
        out["self_reported"] = True  # the developer's own number: the report says so
    return out


def diff_results(old: list, new: list) -> tuple[dict, int]:
    """Results added, changed (any field besides the key and the retrieval date) and removed, in key order; and
    how many results differ in their retrieval date alone (fetched again, same result: not a change)."""
    a = {_result_key(r): r for r in old}
    b = {_result_key(r): r for r in new}
    changed, retrieval_only = [], 0
    for key in sorted(a.keys() & b.keys()):
        fields = [f for f in RESULT_FIELDS if _clean(a[key].get(f)) != _clean(b[key].get(f))]
        if fields == ["retrieved"]:
            retrieval_only += 1  # fetched again, same result: counted, not a change of results
        elif fields:
            changed.append(
                {
                    **{k: b[key][k] for k in RESULT_KEY},
                    "fields": fields,
                    "old": {f: _clean(a[key].get(f)) for f in ("value", "retrieved", "url")},
                    "new": {f: _clean(b[key].get(f)) for f in ("value", "retrieved", "url")},
                    **({"self_reported": True} if b[key].get("self_reported") is True else {}),
                }
            )
    return {
        "added": [_result_view(b[k]) for k in sorted(b.keys() - a.keys())],
        "changed": changed,
        "removed": [_result_view(a[k]) for k in sorted(a.keys() - b.keys())],
    }, retrieval_only


#: Reason kinds that say a row's own results changed.
OWN_RESULT_KINDS = {"new-observed", "imputed-to-observed", "observed-removed", "observed-changed"}
#: Reason kinds caused by other models' results through imputation.
IMPUTATION_KINDS = {"p80-shift", "imputed-changed"}


def _board_benchmarks(board_id: str, boards: list) -> set[str] | None:
    """The benchmarks a board is computed from (None: not known, any of the model's results may explain it)."""
    group, _, ident = board_id.partition(":")
    if group == "benchmark":
        return {ident}
    found = set()
    for board in boards:
        if not board:
            continue
        if isinstance(board.get("benchmark"), str):
            found.add(board["benchmark"])
        for row in board.get("rows") or []:
            found.update(c["id"] for c in row.get("components") or [] if c.get("kind") == "benchmark")
    return found or None


def _own_result_reasons(model: str, benches: set[str] | None, results: dict) -> list[dict]:
    """The model's own result changes on the board's benchmarks, as reasons: new result, corrected value, removed."""
    out = []
    for group, kind in (("added", "new-observed"), ("changed", "observed-changed"), ("removed", "observed-removed")):
        for r in results[group]:
            if r["model"] != model or (benches is not None and r["benchmark"] not in benches):
                continue
            old = r["old"]["value"] if group == "changed" else r["value"] if group == "removed" else None
            new = r["new"]["value"] if group == "changed" else r["value"] if group == "added" else None
            out.append(
                {
                    "kind": kind,
                    "component": r["benchmark"],
                    "component_kind": "benchmark",
                    "old": old,
                    "new": new,
                    "old_raw": old,
                    "new_raw": new,
                    "source": r["source"],
                    "new_how": "absent" if group == "removed" else "observed",
                    "result": True,
                }
            )
    return out


def true_reasons(board_id: str, entry: dict, results: dict, methodology_files: list, boards: list) -> list[dict]:
    """A moved row's reasons, each computed from what changed (never a default): the row's own results (a new
    result, a corrected value, a removed one), the methodology files that define the board, other models' results
    reaching it through imputation, or other models' results changing the scale its score maps to."""
    benches = _board_benchmarks(board_id, boards)
    own = _own_result_reasons(entry["model"], benches, results)
    own_components = {r["component"] for r in own}
    out = []
    for r in entry["reasons"]:
        reason = _engine_reason(r, own_components, methodology_files)
        if reason is not None:
            out.append(reason)
    corrected = {r["component"] for r in own if r["kind"] == "observed-changed"}
    out = [
        {**r, "correction": True} if r.get("kind") == "observed-changed" and r.get("component") in corrected else r
        for r in out
    ]
    covered = {r.get("component") for r in out if r.get("kind") in OWN_RESULT_KINDS}  # the engine said it already
    out = [r for r in own if r["component"] not in covered] + out
    if not out:
        out = _unexplained_reasons(set(entry["changed"]), methodology_files)
    out.sort(key=lambda r: r.get("kind") not in OWN_RESULT_KINDS)  # the row's own results first
    return out  # empty: only its rank moved (others did), or nothing a reader sees did


def _engine_reason(r: dict, own_components: set, methodology_files: list) -> dict | None:
    """One reason the engine gave, as the report says it (None: not a reason, or one an own-result reason says):
    a value mapped anew with no methodology file changed moved with the scale; a status kept whose value moved
    moved with the methodology files, or else with the scale."""
    kind = r.get("kind")
    same_how = kind == "status-changed" and r.get("old_how") == r.get("new_how")
    mapped = kind == "methodology" and "files" not in r
    if (same_how or mapped) and r.get("old") == r.get("new"):
        return None  # the component's value did not change (only, say, its retrieval date): no reason
    if (same_how or mapped) and r.get("component") in own_components:
        return None  # said by the own-result reason
    if mapped and not methodology_files:
        # same score, new value, no methodology file changed: other rows' results moved the scale
        return {**r, "kind": "scale-changed"}
    if same_how and methodology_files:
        return {**r, "kind": "methodology", "files": methodology_files}
    if same_how:
        return {**r, "kind": "scale-changed"}
    return r


def _unexplained_reasons(changed: set, methodology_files: list) -> list[dict]:
    """The reason of a row no result or engine reason explains: the methodology files, when some changed and more
    than the rank moved; else the scale, when more than rank and source moved; else none."""
    if methodology_files and changed - {"rank"}:
        return [{"kind": "methodology", "files": methodology_files}]
    if changed - {"rank", "source"}:
        return [{"kind": "scale-changed"}]
    return []


def changed_keys(old, new, path: str = "") -> list[str]:
    """Dotted paths where two parsed YAML documents differ; list items named by their id where they have one."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        out = []
        for key in sorted(set(old) | set(new), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in old or key not in new:
                out.append(sub)
            else:
                out.extend(changed_keys(old[key], new[key], sub))
        return out
    if isinstance(old, list) and isinstance(new, list):
        keys = _changed_list_keys(old, new, path)
        if keys is not None:
            return keys
    return [] if old == new else [path or "(document)"]


def _changed_list_keys(old: list, new: list, path: str) -> list[str] | None:
    """changed_keys of two lists of mappings, by their id key or else (same length) by position; None for other
    lists, compared whole."""
    id_key = _list_id_key(old, new)
    if id_key:
        a = {item[id_key]: item for item in old}
        b = {item[id_key]: item for item in new}
        out = []
        for ident in sorted(set(a) | set(b), key=str):
            sub = f"{path}[{ident}]"
            out.extend([sub] if ident not in a or ident not in b else changed_keys(a[ident], b[ident], sub))
        return out
    if len(old) == len(new) and all(isinstance(x, Mapping) for x in old + new):
        return [k for i, (x, y) in enumerate(zip(old, new)) for k in changed_keys(x, y, f"{path}[{i}]")]
    return None


def _list_id_key(old: list, new: list) -> str | None:
    items = old + new
    if not items or not all(isinstance(x, Mapping) for x in items):
        return None
    for key in LIST_ID_KEYS:
        if (
            all(key in x and isinstance(x[key], (str, int)) for x in items)
            and len({x[key] for x in old}) == len(old)
            and len({x[key] for x in new}) == len(new)
        ):
            return key
    return None


def diff_methodology(old: Mapping, new: Mapping) -> list[dict]:
    """Methodology files added, removed or changed; for YAML, the changed keys."""
    out = []
    for path in sorted(set(old) | set(new)):
        if path not in old:
            out.append({"file": path, "status": "added", "keys": []})
        elif path not in new:
            out.append({"file": path, "status": "removed", "keys": []})
        elif old[path] != new[path]:
            keys = changed_keys(old[path], new[path]) if not isinstance(new[path], str) else []
            out.append({"file": path, "status": "changed", "keys": keys})
    return out


def diff(old: State, new: State, base: str = "", head: str = "") -> dict:
    """The structured diff of two states (JSON-ready: plain dicts, lists, strings and numbers)."""
    results, retrieval_only = diff_results(old.results, new.results)
    methodology = diff_methodology(old.methodology, new.methodology)
    changed_models = {r["model"] for group in results.values() for r in group}
    boards: dict[str, dict] = {}
    for group, old_boards, new_boards in (
        ("index", old.boards, new.boards),
        ("benchmark", old.benchmark_boards, new.benchmark_boards),
    ):
        for board_id in sorted(set(old_boards) | set(new_boards)):
            files = _board_files(methodology, group, board_id)
            pair = [old_boards.get(board_id), new_boards.get(board_id)]
            d = _board_diff(f"{group}:{board_id}", pair, changed_models, files, results)
            if d["entered"] or d["left"] or d["moved"] or d["rank_shifts"] or d["status"] != "changed":
                d["group"] = group
                d["methodology_files"] = files
                boards[f"{group}:{board_id}"] = d
    models = {"added": sorted(set(new.models) - set(old.models)), "removed": sorted(set(old.models) - set(new.models))}
    # Sources whose first (or last) results this change brings: a new source is news a reviewer should see.
    sources_before, sources_after = ({r.get("source") for r in side.results} - {None} for side in (old, new))
    # Models whose value, rank or status moved for a reason of their own (rank shifts caused only by others are
    # counted per board in `rank_shifts`, not named).
    moved_models = sorted(
        {m["model"] for d in boards.values() for m in d["moved"] if set(m["changed"]) - {"source"}}
        | {r["model"] for d in boards.values() for r in d["entered"] + d["left"]}
    )
    return {
        "base": base,
        "head": head,
        "summary": {
            "boards_affected": sorted(boards),
            "models_moved": moved_models,
            "rank_shifts": sum(d["rank_shifts"] for d in boards.values()),
            "results_added": len(results["added"]),
            "results_changed": len(results["changed"]),
            "results_removed": len(results["removed"]),
            "results_retrieval_only": retrieval_only,
            "methodology_files": [m["file"] for m in methodology],
            "models_added": models["added"],
            "models_removed": models["removed"],
            "sources_added": sorted(sources_after - sources_before),
            "sources_removed": sorted(sources_before - sources_after),
        },
        "models": models,
        "results": results,
        "methodology": methodology,
        "boards": boards,
    }


def _board_files(methodology: list[dict], group: str, board_id: str) -> list[str]:
    """The changed methodology files that define a board: benchmarks.yaml, and the index's definition or the
    benchmark boards' file."""
    return [
        m["file"]
        for m in methodology
        if m["file"] == "methodology/benchmarks.yaml"
        or (group == "index" and m["file"] == f"methodology/indices/{board_id}.yaml")
        or (group == "benchmark" and m["file"] == "methodology/indices/benchmark-boards.yaml")
    ]


def _board_diff(key: str, pair: list, changed_models: set, files: list[str], results: dict) -> dict:
    """diff_board of a board's two sides, its moved rows given their true reasons; a row with none that only
    moved rank (because other rows did) is counted in rank_shifts, not listed."""
    d = diff_board(pair[0], pair[1], changed_models, files)
    kept = []
    for entry in d["moved"]:
        entry["reasons"] = true_reasons(key, entry, results, files, pair)
        if entry["reasons"]:
            kept.append(entry)
        elif "rank" in entry["changed"]:
            d["rank_shifts"] += 1  # only its rank moved, because other rows did: counted, not listed
    d["moved"] = kept
    return d


#: The stages `diff_refs` reports to its `progress` callback, in order.
DIFF_STAGES = ("reading base", "computing base", "reading head", "computing head", "comparing")


def diff_refs(root: Path, base: str, head: str | None, progress=None, cache: bool = True):
    """Materialise both sides and diff them: (diff or None, {side: problems}).

    The head side's problems include `definition_warnings` (an index definition changed in place).
    `progress(stage)` is called as each of DIFF_STAGES starts. With `cache`, each side is computed through root's
    compute cache (load_state; SITEGEN_CACHE=off, or cache=False, computes both afresh).
    """
    import tempfile

    from ..reuse import cache_folder

    progress = progress or (lambda stage: None)
    root = Path(root)
    folder_of_cache = cache_folder(root) if cache else None
    states: dict[str, State | None] = {}
    problems: dict[str, list] = {}
    commits: dict[str, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="sitegen-diff-") as tmp:
        for side, ref in (("base", base), ("head", head)):
            progress(f"reading {side}")
            if ref is None:
                folder, commits[side] = root, None
            else:
                folder = Path(tmp) / side
                folder.mkdir()
                commits[side] = materialise(root, ref, folder)
            progress(f"computing {side}")
            states[side], problems[side] = load_state(folder, folder_of_cache)
        if states["base"] is None or states["head"] is None:
            return None, problems
        progress(DIFF_STAGES[-1])
        result = diff(states["base"], states["head"], base, head or "working tree")
        problems["head"] = problems["head"] + definition_warnings(result["methodology"], folder)
    result["base_commit"], result["head_commit"] = commits["base"], commits["head"]
    return result, problems


#: Changed keys of an index definition that change what a published version computes.
DEFINITION_KEY = re.compile(r"(?:^|[.\]])(constituents|dimensions|benchmarks|weights?|anchors)(?:[\[.]|$)")


def definition_warnings(methodology: list[dict], head_root: Path) -> list:
    """A published index definition whose weights, constituents or anchors changed in place, while the change
    adds no new version file under methodology/indices/: the published numbers would change under the same name."""
    from ..problems import WARNING, Problem

    if any(m["status"] == "added" and m["file"].startswith("methodology/indices/") for m in methodology):
        return []
    out = []
    for m in methodology:
        if (
            m["status"] != "changed"
            or not m["file"].startswith("methodology/indices/")
            or m["file"].endswith("/benchmark-boards.yaml")
        ):
            continue
        keys = [k for k in m["keys"] if DEFINITION_KEY.search(k)]
        if not keys:
            continue
        top = re.split(r"[.\[]", keys[0], maxsplit=1)[0]
        line = _top_key_line(Path(head_root) / m["file"], top)
        more = f" and {len(keys) - 1} more" if len(keys) > 1 else ""
        out.append(
            Problem(
                m["file"],
                line,
                1 if line else 0,
                keys[0],
                f"a published index definition changed in place ({keys[0]}{more})",
                "add a new version file (e.g. methodology/indices/<id>-v<N>.yaml) and keep this one, "
                "so published numbers keep their meaning",
                WARNING,
            )
        )
    return out


def _top_key_line(path: Path, key: str) -> int:
    """The 1-based line of a top-level `key:` in a YAML file; 0 when not found."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0
    return next((i for i, line in enumerate(lines, 1) if line.startswith(f"{key}:")), 0)


# ---------------------------------------------------------------- the pull-request report (data only)

#: The report the unprivileged job writes stays under this (the trusted renderer refuses far larger ones).
MAX_REPORT_BYTES = 1_000_000
#: Items kept per list when the report must shrink: moved rows per board, results, problems.
REPORT_LIST_CAP = 100


def changed_files(root: Path, base: str, head: str | None) -> set[str]:
    """Paths (relative to root) that differ between base and head; with no head, the working tree including
    untracked files, but not the compute cache's (a build's or a diff's own, which a repository need not ignore)."""
    if head is None:
        out = run_git(root, "diff", "--name-only", "-z", "--relative", resolve(root, base))
        untracked = run_git(root, "ls-files", "--others", "--exclude-standard", "-z")
        caches = _cache_prefixes(Path(root))
        out += b"\0".join(p for p in untracked.split(b"\0") if not p.startswith(caches))
    else:
        out = run_git(root, "diff", "--name-only", "-z", "--relative", resolve(root, base), resolve(root, head))
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}


def _cache_prefixes(root: Path) -> tuple[bytes, ...]:
    """The cache folders below root as git names their files: the default one, and SITEGEN_CACHE's if it is there."""
    from ..reuse import CACHE_FOLDER, cache_folder

    names = {CACHE_FOLDER}
    folder = cache_folder(root)
    if folder is not None:
        inside = os.path.relpath(os.path.abspath(folder), os.path.abspath(root))
        if inside != "." and not inside.startswith(".."):
            names.add(Path(inside).as_posix())
    return tuple(f"{name}/".encode("utf-8", "surrogateescape") for name in sorted(names))


def _problem_data(p) -> dict:
    return {
        "path": p.path,
        "line": p.line,
        "col": p.col,
        "field": p.field,
        "message": p.message,
        "hint": p.hint,
        "severity": p.severity,
    }


def new_warnings(head_problems: list, base_problems: list) -> list:
    """The head's warnings the base does not have: what the change brings, wherever it is reported (a new value
    that disagrees with another source's is reported at the other file). A warning is the same one when its file,
    message and hint are, whatever its field's list index (a result added above it shifts `results[i]`); where a
    file has more of one warning than the base, the extra ones are those whose fields the base does not name."""
    from collections import Counter

    from ..problems import ERROR

    def key(p):
        return (p.path, p.message, p.hint)

    base = [p for p in base_problems if p.severity != ERROR]
    spare = Counter(key(p) for p in base)
    fields = {(key(p), p.field) for p in base}
    head = sorted(
        (p for p in head_problems if p.severity != ERROR),
        key=lambda p: ((key(p), p.field) not in fields, p.path, p.line, p.col, p.field, p.message),
    )
    out = []
    for p in head:  # the ones the base names exactly come first, and use up the base's count
        if spare[key(p)] > 0:
            spare[key(p)] -= 1
        else:
            out.append(p)
    return sorted(out, key=lambda p: (p.path, p.line, p.col, p.field, p.message))


def report(root: Path, base: str, head: str | None, progress=None, cache: bool = True):
    """The pull-request report: the diff, the warnings the change brings, or the errors that stop it.

    Returns (report dict, the problems to annotate). Plain JSON-ready data only: the trusted job renders it
    with its own template (pr_comment.py), so nothing here is Markdown. `cache`: diff_refs'.
    """
    from ..problems import ERROR

    root = Path(root)
    changed = changed_files(root, base, head)
    result, problems = diff_refs(root, base, head, progress, cache)
    head_name = head or "working tree"
    out = {"report": 1, "base": base, "head": head_name, "changed_files": sorted(changed)}
    if result is None:
        side = "head" if any(p.severity == ERROR for p in problems["head"]) else "base"
        errors = [p for p in problems[side] if p.severity == ERROR]
        warnings = new_warnings(problems["head"], problems["base"])
        out.update(
            status="invalid",
            invalid_side=side,
            errors=[_problem_data(p) for p in errors],
            warnings=[_problem_data(p) for p in warnings],
            diff=None,
        )
        return cap_report(out), errors + warnings
    warnings = new_warnings(problems["head"], problems["base"])
    out.update(status="ok", errors=[], warnings=[_problem_data(p) for p in warnings], diff=result)
    return cap_report(out), warnings


def cap_report(rep: dict, limit: int = MAX_REPORT_BYTES) -> dict:
    """Shrink a report to under `limit` bytes of JSON: first long lists (marked `truncated`), then the detail."""
    if len(to_json(rep).encode()) <= limit:
        return rep
    rep = json.loads(to_json(rep))
    rep["truncated"] = True
    rep["changed_files"] = rep["changed_files"][:REPORT_LIST_CAP]
    for key in ("errors", "warnings"):
        rep[key] = rep[key][:REPORT_LIST_CAP]
    d = rep.get("diff") or {}
    for group in (d.get("results") or {}).values():
        del group[REPORT_LIST_CAP:]
    for board in (d.get("boards") or {}).values():
        board["moved"] = sorted(board["moved"], key=pr_comment.cause_order)[:REPORT_LIST_CAP]
    if d:
        d["summary"]["models_moved"] = d["summary"]["models_moved"][:REPORT_LIST_CAP]
    if len(to_json(rep).encode()) > limit and d:
        for board in d["boards"].values():
            board["moved"], board["entered"], board["left"] = [], board["entered"][:5], board["left"][:5]
        d["results"] = {k: [] for k in d["results"]}
    if len(to_json(rep).encode()) > limit:
        rep["diff"] = None
    return rep


# ---------------------------------------------------------------- renderers


def to_json(d: object) -> str:
    """Deterministic JSON: sorted keys, two-space indent, a final newline."""
    return json.dumps(d, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def to_markdown(d: Mapping, max_lines: int = MAX_MARKDOWN_LINES) -> str:
    """The review comment for a diff (or a report): each board's entries, exits and value changes first."""
    return pr_comment.render(d, max_lines)
