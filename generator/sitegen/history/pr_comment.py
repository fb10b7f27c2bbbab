"""The pull-request comment: a fixed Markdown template over a report that is untrusted data.

The report (JSON, see `sitegen.history.diff.report`) is written by the pull request's own code in an unprivileged job. The
trusted workflow runs *this file from the base branch* on it: every string the report holds is escaped (Markdown
syntax, HTML, links and images, @mentions, autolinks, issue references), every number must be a finite number,
every list is capped, and a report that is not the expected shape renders as a short notice, never as its text.

Standard library only, and runnable as a script (`python3 generator/sitegen/history/pr_comment.py REPORT.json`), so the
trusted job installs nothing: `sitegen diff` uses the same `render` for its Markdown.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

MARKER = "<!-- sitegen-diff -->"
#: The report file is refused above this size (the unprivileged job writes well under it).
MAX_REPORT_BYTES = 2_000_000
#: GitHub refuses comment bodies over 65,536 characters; the rendered body stays under this.
MAX_BODY_CHARS = 60_000
MAX_LINES = 200
MAX_STRING = 200  # characters kept of any one string from the report
HEADLINE_NAMES = 5  # models named per board and kind (entered, left, changed value) in the headline
MAX_PROBLEMS = 50

_MD_ESCAPES = {
    "\\": "\\\\",
    "|": "\\|",
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "`": "&#96;",
    "[": "\\[",
    "]": "\\]",
    "*": "\\*",
    "_": "\\_",
    "~": "\\~",
    "!": "\\!",
    "#": "\\#\u200b",
    "(": "\\(",
    ")": "\\)",
    "$": "\\$",
}
# Control, bidi-override and zero-width characters: shown as U+FFFD so nothing hides or reorders text.
INVISIBLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
WWW = re.compile(r"(www)\.", re.IGNORECASE)
_GH_REF = re.compile(r"\b(gh)-(?=\d)", re.IGNORECASE)  # GH-34 is an issue reference to GitHub, as #34 is


class ReportError(Exception):
    """The report cannot be read (not JSON, too large, not an object)."""


def md_escape(text, limit: int | None = None) -> str:
    """Contributor text made inert in a GitHub comment: one line, no tables, HTML, code, links, images, emphasis,
    autolinks, issue references or @mentions; cut to `limit` characters when given."""
    text = " ".join(str(text).split())  # no newlines: a cell stays a cell
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    text = INVISIBLE.sub("\N{REPLACEMENT CHARACTER}", text)
    text = "".join(_MD_ESCAPES.get(ch, ch) for ch in text)
    text = text.replace("://", ":\u200b//")  # no https:// autolink
    text = WWW.sub("\\1\u200b.", text)  # no www. autolink
    text = _GH_REF.sub("\\1\u200b-", text)  # no GH-34 issue link
    return text.replace("@", "@\u200b")  # a zero-width space after @ stops a mention


def code_span(text, limit: int | None = MAX_STRING) -> str:
    """Contributor or upstream text as one inert inline code span: GitHub renders nothing inside it (no links,
    images, HTML, emphasis or @mentions); the fence is longer than any run of backticks the text holds."""
    text = INVISIBLE.sub("\N{REPLACEMENT CHARACTER}", " ".join(str(text).split()))
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code_block(text: str, info: str = "") -> list[str]:
    """Lines of a fenced code block holding `text` verbatim (invisible characters shown as U+FFFD): the fence is
    longer than any run of backticks in it, so nothing inside closes it."""
    lines = [INVISIBLE.sub("\N{REPLACEMENT CHARACTER}", line.replace("\t", "    ")) for line in str(text).splitlines()]
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{re.sub(r'[^A-Za-z0-9_-]', '', info)}", *lines, fence]


# ---------------------------------------------------------------- defensive readers of untrusted data


def _d(x) -> dict:
    return x if isinstance(x, dict) else {}


def _l(x, cap: int | None = None) -> list:
    out = x if isinstance(x, list) else []
    return out[:cap] if cap is not None else out


def _s(x) -> str:
    """A string field, escaped; numbers shown as numbers; anything else empty."""
    if isinstance(x, str):
        return md_escape(x, MAX_STRING)
    if _is_num(x):
        return _num(x)
    return ""


def _is_num(x) -> bool:
    """sitegen.known's test, copied: this file runs alone (standard library only, nothing else checked out)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _int(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else 0


def _num(x) -> str:
    if not _is_num(x):
        return "—"
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:g}" if isinstance(x, float) else str(x)


def _arrow(a, b) -> str:
    return _num(b) if a == b else f"{_num(a)} → {_num(b)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- pieces of the template

#: Reason kinds caused by the row's own results (listed first): the rest follow from methodology or other rows.
OWN_KINDS = (
    "new-observed",
    "imputed-to-observed",
    "observed-removed",
    "observed-changed",
    "source-changed",
    "status-changed",
)


def _paren(text: str) -> str:
    """` (text)`, or nothing for empty text: a reason never prints "()"."""
    return f" ({text})" if text.strip() else ""


def describe_reason(r) -> str:
    """One reason as a short escaped phrase."""
    r = _d(r)
    c = _s(r.get("component"))
    kind = r.get("kind")
    phrase = _own_reason(kind, r, c)
    if phrase is None:
        phrase = _other_reason(kind, r, c)
    return phrase if phrase is not None else f"{c}: {_s(r.get('old_how'))} → {_s(r.get('new_how'))}"


def _own_reason(kind, r: dict, c: str) -> str | None:
    """A reason of the row's own results (OWN_KINDS but source-changed) as a phrase; None for another kind."""
    src = _paren(_s(r.get("source")))
    if r.get("result") is True:  # a benchmark board's own result
        if kind == "new-observed":
            return f"{c}: new result {_num(r.get('new'))}{src}"
        if kind == "observed-changed":
            return f"{c}: corrected value {_arrow(r.get('old'), r.get('new'))}{src}"
        if kind == "observed-removed":
            return f"{c}: result {_num(r.get('old'))} removed{src}"
    if kind == "new-observed":
        return f"new observed {c} {_num(r.get('new'))}{src}"
    if kind == "imputed-to-observed":
        return f"{c}: imputed {_num(r.get('old'))} replaced by observed {_num(r.get('new'))}{src}"
    if kind == "observed-removed":
        return f"{c}: observed {_num(r.get('old'))} removed, now {_s(r.get('new_how'))} {_num(r.get('new'))}"
    if kind == "observed-changed":
        raw = f" (score {_arrow(r.get('old_raw'), r.get('new_raw'))})" if _is_num(r.get("old_raw")) else ""
        label = "corrected value" if r.get("correction") is True else "own result"
        return f"{c}: {label} {_arrow(r.get('old'), r.get('new'))}{raw}"
    return None


def _other_reason(kind, r: dict, c: str) -> str | None:
    """A reason from methodology, a source or other rows as a phrase; None for another kind."""
    if kind == "methodology" and "files" in r:
        return "methodology: " + ", ".join(_s(f) for f in _l(r["files"], 10))
    if kind == "methodology":
        return (
            f"{c}: same score {_num(r.get('new_raw'))} now maps to {_arrow(r.get('old'), r.get('new'))} (methodology)"
        )
    if kind == "scale-changed":
        return (
            f"{c}: {_arrow(r.get('old'), r.get('new'))}, own result unchanged (other models' results moved the scale)"
        )
    if kind in ("p80-shift", "imputed-changed"):
        p = _d(r.get("percentile"))
        extra = f", {_s(p.get('name'))} of {_s(p.get('of'))} {_arrow(p.get('old'), p.get('new'))}" if p else ""
        why = "imputation reach: other models changed" if kind == "p80-shift" else "imputation inputs changed"
        return f"{c}: imputed {_arrow(r.get('old'), r.get('new'))} ({why}{extra})"
    if kind == "source-changed":
        return f"same value from {_s(r.get('old_source'))} → {_s(r.get('source'))}"
    if kind == "others-moved":
        return "other models moved"
    return None


def _why(row) -> str:
    return "; ".join(filter(None, (describe_reason(r) for r in _l(_d(row).get("reasons"), 6))))


def _own_first(rows: list) -> list:
    """Rows moved by their own results first, then by methodology, then by other rows (stable within each)."""
    return sorted((r for r in rows if isinstance(r, dict)), key=cause_order)


def cause_order(row) -> int:
    """0: the row's own results; 1: methodology; 2: other rows (imputation inputs, ranks)."""
    kinds = {_d(r).get("kind") for r in _l(_d(row).get("reasons"))}
    return 0 if kinds & set(OWN_KINDS) else 1 if "methodology" in kinds else 2


def _board_order(boards: dict) -> list:
    """Index boards first, then benchmark boards; by id within each."""
    items = [(k, v) for k, v in boards.items() if isinstance(k, str) and isinstance(v, dict)]
    return sorted(items, key=lambda kv: (kv[1].get("group") != "index", kv[0]))


def _title(board_id: str, b: dict, bold: bool = True) -> str:
    name = md_escape(b.get("name") if isinstance(b.get("name"), str) and b.get("name") else board_id, MAX_STRING)
    return f"{f'**{name}**' if bold else name} ({md_escape(board_id, MAX_STRING)})"


#: Why a row entered or left a board, when not because of the model's own results (which need no saying).
ENTRY_CAUSES = {"methodology": "through the methodology change", "other": "through another change to the data"}


def _entry(row) -> str:
    row = _d(row)
    cause = f" {ENTRY_CAUSES[row['cause']]}" if row.get("cause") in ENTRY_CAUSES else ""
    if not _is_num(row.get("value")) and isinstance(row.get("status"), str):
        return f"{_s(row.get('model'))} (no value: {_s(row.get('status'))}){cause}"
    rank = f"rank {_num(row.get('rank'))}" if _is_num(row.get("rank")) else "unranked"
    return f"{_s(row.get('model'))} {_num(row.get('value'))} ({rank}){cause}"


def _rank_move(row) -> str:
    """ ", rank 2 → 3" when the row's rank moved (nothing otherwise)."""
    old, new = _d(_d(row).get("old")).get("rank"), _d(_d(row).get("new")).get("rank")
    return f", rank {_arrow(old, new)}" if old != new and (_is_num(old) or _is_num(new)) else ""


def _printable(row) -> bool:
    """A moved row worth a line: it has a reason, and a value or a rank on one side (never "— | —")."""
    old, new = _d(_d(row).get("old")), _d(_d(row).get("new"))
    return bool(_why(row)) and any(
        _is_num(x) for x in (old.get("value"), new.get("value"), old.get("rank"), new.get("rank"))
    )


def _value_moved(row) -> bool:
    return bool({"value", "status"} & set(_l(_d(row).get("changed"))))


def headline(boards: dict) -> list[str]:
    """One line per board: what entered, left and changed value (with why), then a count of rank-only shifts."""
    return [f"- {_title(board_id, b)}: " + "; ".join(_headline_parts(b)) for board_id, b in _board_order(boards)]


def _headline_parts(b: dict) -> list[str]:
    """A board's headline: its status, the rows that entered and left, the values changed by their own results or
    methodology (named), those that followed other rows (counted), other moves and rank-only shifts (counted)."""
    parts = []
    status = b.get("status")
    if status in ("added", "removed"):
        parts.append(f"board {status}")
    parts += _entered_left(b)
    moved = [m for m in _l(b.get("moved")) if isinstance(m, dict) and _printable(m)]
    changed = [m for m in _own_first(moved) if _value_moved(m) and cause_order(m) < 2]
    if changed:
        parts.append(_changed_values(changed))
    followers = [m for m in moved if _value_moved(m) and cause_order(m) == 2]
    if followers:
        parts.append(_followed(followers))
    other = len(moved) - len(changed) - len(followers)
    if other > 0:
        parts.append(f"{_plural(other, 'row')} moved rank or source for a reason of its own (below)")
    shifts = _int(b.get("rank_shifts"))
    if shifts:
        parts.append(f"{_plural(shifts, 'other row')} only shifted rank")
    if not parts:  # only rows without a value or rank on either side (never listed) changed
        hidden = len([m for m in _l(b.get("moved")) if isinstance(m, dict)]) - len(moved)
        parts.append(
            "no published value or rank changed"
            + _paren(f"{_plural(hidden, 'row')} not listed: no value, rank or reason to show" if hidden else "")
        )
    return parts


def _entered_left(b: dict) -> list[str]:
    """ "entered …" and "left …", each naming up to HEADLINE_NAMES rows."""
    parts = []
    for label, key in (("entered", "entered"), ("left", "left")):
        rows = _l(b.get(key))
        if rows:
            shown = ", ".join(_entry(r) for r in rows[:HEADLINE_NAMES])
            more = f" and {len(rows) - HEADLINE_NAMES} more" if len(rows) > HEADLINE_NAMES else ""
            parts.append(f"{label} {shown}{more}")
    return parts


def _changed_values(changed: list) -> str:
    """ "changed value: …", naming up to HEADLINE_NAMES rows with their old and new values and why."""
    shown = "; ".join(
        f"{_s(m.get('model'))} {_arrow(_d(m.get('old')).get('value'), _d(m.get('new')).get('value'))}"
        f"{_rank_move(m)} ({_why(m)})"
        for m in changed[:HEADLINE_NAMES]
    )
    more = f"; and {len(changed) - HEADLINE_NAMES} more below" if len(changed) > HEADLINE_NAMES else ""
    return f"changed value: {shown}{more}"


def _followed(followers: list) -> str:
    """How many values moved with other models' results, and how (imputation reach, scale)."""
    kinds = {_d(r).get("kind") for m in followers for r in _l(m.get("reasons"))}
    how = [
        w
        for k, w in (("imputation", "imputation reach"), ("scale", "scale"))
        if (k == "imputation" and kinds & {"p80-shift", "imputed-changed"})
        or (k == "scale" and "scale-changed" in kinds)
    ]
    return f"{_plural(len(followers), 'value')} moved with other models' results{_paren(', '.join(how))}"


#: Result changes named in the lead (the rest are counted there and listed under "Results").
LEAD_RESULTS = 10
RESULT_CHANGES = (("added", "new result"), ("changed", "corrected value"), ("removed", "removed result"))


def _bench(r: dict) -> str:
    return "/".join(_s(r.get(x)) for x in ("benchmark", "metric", "subset", "harness") if r.get(x))


def _result_line(change: str, label: str, r: dict) -> str:
    if change == "changed":
        value = _arrow(_d(r.get("old")).get("value"), _d(r.get("new")).get("value"))
        if _d(r.get("old")).get("value") == _d(r.get("new")).get("value"):
            label = "changed " + ", ".join(_s(f) for f in _l(r.get("fields"), 5) if f != "retrieved")
    else:
        value = _num(r.get("value"))
    own = ", self-reported" if r.get("self_reported") is True else ""
    return f"- {label}: {_s(r.get('model'))} {_bench(r)} {value} ({_s(r.get('source'))}{own})"


def lead(d: dict) -> list[str]:
    """The first lines: the models and sources added or removed, every changed value (up to LEAD_RESULTS) with what kind of
    change it is, the results whose retrieval date alone changed (one count), and the methodology files changed."""
    results, s = _d(d.get("results")), _d(d.get("summary"))
    rows = [(change, label, _d(r)) for change, label in RESULT_CHANGES for r in _l(results.get(change))]
    lines = [
        f"- {label}: {', '.join(_s(m) for m in _l(s.get(key), HEADLINE_NAMES))}"
        + (f" and {len(_l(s.get(key))) - HEADLINE_NAMES} more" if len(_l(s.get(key))) > HEADLINE_NAMES else "")
        for key, label in (
            ("models_added", "new model"),
            ("models_removed", "removed model"),
            ("sources_added", "new source (its first results)"),
            ("sources_removed", "source with no results left"),
        )
        if _l(s.get(key))
    ]
    lines += [_result_line(*row) for row in rows[:LEAD_RESULTS]]
    if len(rows) > LEAD_RESULTS:
        lines.append(f"- and {len(rows) - LEAD_RESULTS} more result changes (under Results)")
    files = _l(s.get("methodology_files"))
    if files:
        lines.append(f"- methodology change: {', '.join(_s(f) for f in files[:10])}")
    same = _int(s.get("results_retrieval_only"))
    if same:
        lines.append(
            f"- {_plural(same, 'result')} fetched again with the same value (retrieval date only): "
            "not a change of results"
        )
    return lines


def _problem(p) -> str:
    p = _d(p)
    line = _int(p.get("line"))  # 0: the whole file, named by its path alone (as Problem.format does)
    where = f"{_s(p.get('path'))}:{line}:{_int(p.get('col'))}" if line else _s(p.get("path"))
    hint = f" ({_s(p.get('hint'))})" if p.get("hint") else ""
    return f"- {where}: {_s(p.get('field')) or '(file)'}: {_s(p.get('message'))}{hint}"


def _problems(title: str, problems: list) -> list[str]:
    if not problems:
        return []
    lines = [f"### {title} ({len(problems)})", ""]
    lines += [_problem(p) for p in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        lines.append(f"- … and {len(problems) - MAX_PROBLEMS} more: run `sitegen validate` locally")
    return lines + [""]


def details(d: dict) -> list[str]:
    """The sections under the headline: counts, methodology, the results the lead did not name, then each
    board's rows the headline did not name, with why (unranked rows without values never print)."""
    s = _d(d.get("summary"))
    lines = [
        f"Counts: {_plural(len(_l(s.get('boards_affected'))), 'board')} affected; "
        f"{_plural(len(_l(s.get('models_moved'))), 'model')} moved (own value, rank or status); "
        f"{_int(s.get('rank_shifts'))} rank shifts caused only by other rows; results added / changed / removed "
        f"{_int(s.get('results_added'))} / {_int(s.get('results_changed'))} / {_int(s.get('results_removed'))}; "
        f"models added / removed {len(_l(s.get('models_added')))} / {len(_l(s.get('models_removed')))}; "
        f"{_plural(len(_l(s.get('methodology_files'))), 'methodology file')} changed.",
        "",
    ]
    lines += _methodology_section(_l(d.get("methodology")))
    lines += _results_section(_d(d.get("results")))
    for board_id, b in _board_order(_d(d.get("boards"))):
        lines += _board_section(board_id, b)
    return lines


def _methodology_section(methodology: list) -> list[str]:
    """### Methodology: each changed file with its status and changed keys."""
    if not methodology:
        return []
    lines = ["### Methodology", ""]
    for m in methodology:
        m = _d(m)
        keys = _l(m.get("keys"), 20)
        shown = f": {', '.join(_s(k) for k in keys)}" if keys else ""
        lines.append(f"- {_s(m.get('file'))} {_s(m.get('status'))}{shown}")
    return lines + [""]


def _results_section(results: dict) -> list[str]:
    """### Results: a table of every result change, when there are more than the lead names."""
    rows = [(change, _d(r)) for change, _ in RESULT_CHANGES for r in _l(results.get(change))]
    if len(rows) <= LEAD_RESULTS:
        return []
    lines = ["### Results", "", "| change | model | benchmark | value | source |", "|---|---|---|---|---|"]
    for change, r in rows:
        side = _d(r.get("new")) if change == "changed" else r
        value = (
            _arrow(_d(r.get("old")).get("value"), side.get("value")) if change == "changed" else _num(r.get("value"))
        )
        lines.append(
            f"| {change} | {_s(r.get('model'))} | {_bench(r)} | {value} | "
            f"{_s(r.get('source'))}{_paren(_s(side.get('retrieved')))} |"
        )
    return lines + [""]


def _board_section(board_id: str, b: dict) -> list[str]:
    """A board's moved rows that its headline line did not name, in a table with why; nothing when none."""
    changed = [m for m in _own_first(_l(b.get("moved"))) if _printable(m) and _value_moved(m) and cause_order(m) < 2]
    shown_in_headline = {id(m) for m in changed[:HEADLINE_NAMES]}
    moved = [m for m in _own_first(_l(b.get("moved"))) if id(m) not in shown_in_headline and _printable(m)]
    if not moved:
        return []  # its headline line said all there is
    lines = [f"### {_title(board_id, b, bold=False)}", "", "| model | value | rank | why |", "|---|---|---|---|"]
    for m in moved:
        lines.append(
            f"| {_s(m.get('model'))} | {_arrow(_d(m.get('old')).get('value'), _d(m.get('new')).get('value'))} | "
            f"{_arrow(_d(m.get('old')).get('rank'), _d(m.get('new')).get('rank'))} | {_why(m)} |"
        )
    return lines + [""]


def render(report, max_lines: int = MAX_LINES) -> str:
    """The comment body (without the marker) for a report or a bare diff; never raises on a hostile report."""
    try:
        return _render(_d(report), max_lines)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        return "## Leaderboard diff\n\nThe report could not be read; run `sitegen diff` locally.\n"


def _render(report: dict, max_lines: int) -> str:
    d = _d(report.get("diff")) if "diff" in report else report
    base, head = report.get("base", d.get("base", "")), report.get("head", d.get("head", ""))
    lines = [f"## Leaderboard diff: {_s(base)} → {_s(head)}", ""]
    errors, warnings = _l(report.get("errors")), _l(report.get("warnings"))
    if report.get("status") == "invalid" or errors:
        if report.get("invalid_side") == "base":
            lines += [
                f"**The base branch does not validate: {_plural(len(errors), 'error')}**, so the boards "
                "cannot be compared. Merge or rebase on a base that does.",
                "",
            ]
        else:
            lines += [
                f"**This change does not validate: {_plural(len(errors), 'error')}.** The boards are "
                "compared again once it does; `sitegen validate --warnings` shows the same list.",
                "",
            ]
        lines += _problems("Errors", errors) + _problems("New warnings", warnings)
        return _cap(lines, max_lines)
    if "diff" in report and not isinstance(report.get("diff"), dict):
        lines += ["The board report was too large to include; run `sitegen diff` locally.", ""]
        return _cap(lines + _problems("New warnings", warnings), max_lines)
    if report.get("truncated") is True:
        lines += ["_Long lists in this report were shortened; `sitegen diff --format json` has everything._", ""]
    boards = _d(d.get("boards"))
    nothing = (
        not boards
        and not _l(d.get("methodology"))
        and not any(_l(_d(d.get("results")).get(k)) for k in ("added", "changed", "removed"))
    )
    if nothing:
        lines += ["No change to the data, the methodology or any published board.", ""]
        lines += lead(d)[-1:] + [""] if _int(_d(d.get("summary")).get("results_retrieval_only")) else []
        return _cap(lines + _problems("New warnings", warnings), max_lines)
    first = lead(d)
    if first:
        lines += ["**What changed**", "", *first, ""]
    if boards:
        lines += ["**What it moves**", "", *headline(boards), ""]
    lines += _problems("New warnings", warnings)
    lines += details(d)
    return _cap(lines, max_lines)


def _cap(lines: list[str], max_lines: int) -> str:
    if len(lines) > max_lines:
        cut = len(lines) - (max_lines - 2)
        lines = lines[: max_lines - 2] + ["", f"… {cut} more lines cut; `sitegen diff --format json` has everything."]
    text = "\n".join(lines).rstrip("\n") + "\n"
    if len(text) > MAX_BODY_CHARS:
        text = text[: text.rfind("\n", 0, MAX_BODY_CHARS - 100) + 1] + "\n… cut at the comment size limit.\n"
    return text


# ---------------------------------------------------------------- the trusted job's entry point


def read_report(path, max_bytes: int = MAX_REPORT_BYTES) -> dict:
    """Parse the report file: at most max_bytes, strict JSON (no NaN), an object."""
    with open(path, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ReportError(f"the report is larger than {max_bytes} bytes")

    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    try:
        report = json.loads(data.decode("utf-8"), parse_constant=no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ReportError(f"the report is not JSON: {type(exc).__name__}") from None
    if not isinstance(report, dict):
        raise ReportError("the report is not a JSON object")
    return report


def comment_body(path) -> str:
    """The whole comment for the report file at path: marker first, so the bot finds and replaces it."""
    try:
        body = render(read_report(path))
    except (OSError, ReportError) as exc:
        body = f"## Leaderboard diff\n\nThe report could not be read ({md_escape(exc, MAX_STRING)}); run `sitegen diff` locally.\n"
    return f"{MARKER}\n{body}"


PR_NUMBER = re.compile(r"[1-9][0-9]{0,9}\Z")


def read_pr_number(path) -> int:
    """The artifact's pr-number.txt: a plain positive integer and nothing else."""
    with open(path, "rb") as f:
        text = f.read(33).decode("ascii", "replace")
    text = text[:-1] if text.endswith("\n") else text
    if not PR_NUMBER.match(text):
        raise ReportError("pr-number.txt is not a pull request number")
    return int(text)


def github_outputs(artifact: Path | str, output: Path | str) -> None:
    """Write `pr-number` and `body` for the comment job to the $GITHUB_OUTPUT file, with a delimiter the body
    cannot contain."""
    import secrets

    artifact = Path(artifact)
    for name in ("pr-number.txt", "report.json"):
        if (artifact / name).is_symlink():
            raise ReportError(f"{name} in the artifact is a symbolic link")
    number = read_pr_number(artifact / "pr-number.txt")
    body = comment_body(artifact / "report.json")
    delimiter = f"sitegen_{secrets.token_hex(16)}"
    assert delimiter not in body
    with open(output, "a", encoding="utf-8") as f:
        f.write(f"pr-number={number}\nbody<<{delimiter}\n{body}\n{delimiter}\n")


def main(argv: list[str]) -> int:
    usage = (
        "usage: pr_comment.py REPORT.json                       print the comment body\n"
        "       pr_comment.py --artifact DIR --github-output FILE  write pr-number and body outputs"
    )
    if len(argv) == 1 and not argv[0].startswith("-"):
        sys.stdout.write(comment_body(argv[0]))
        return 0
    if len(argv) == 4 and argv[0] == "--artifact" and argv[2] == "--github-output":
        try:
            github_outputs(argv[1], argv[3])
        except (OSError, ReportError) as exc:
            print(f"pr_comment.py: {exc}", file=sys.stderr)
            return 1
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
