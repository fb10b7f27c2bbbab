"""Model identity: a *release* (what a lab ships) and its *configurations* (reasoning mode and effort).

A model file is one configuration. `release: <org>/<release-slug>` names the release it belongs to and
`effort` places it in the effort order:

    none < minimal < low < medium < high < xhigh < max          (ranks 0, 1, 2, 3, 4, 5, 6)

or `effort: {budget_tokens: N}`, a thinking budget, which sits in that order by its size: 1,024 tokens ranks
as `low` (2) and every factor of four more tokens is one level up (4K medium, 16K high, 64K xhigh), i.e.
rank = 2 + log4(N / 1024), kept strictly between `minimal` and `max` (1 < rank < 6). A configuration whose
effort nobody states has no `effort` (rank unknown, NaN); `reasoning: false` then still places it at `none`.

`parse` reads the effort a name spells ('(high)', '(Thinking 16K)', 'Adaptive Reasoning, Max Effort',
'_32K', '-non-reasoning') and what is left of the name once it is removed: the release slug. It proposes;
the model file, reviewed, decides.
"""

from __future__ import annotations

import math
import re

EFFORT_LEVELS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
EFFORT_RANK = {level: float(i) for i, level in enumerate(EFFORT_LEVELS)}
BUDGET_FLOOR, BUDGET_CEILING = 1.25, 5.75  # keeps budgets strictly between minimal and max


def budget_rank(tokens: int) -> float:
    """A thinking budget's place in the effort order: 1K = low (2), each factor 4 one level up."""
    rank = 2.0 + math.log(tokens / 1024.0, 4)
    return min(max(rank, BUDGET_FLOOR), BUDGET_CEILING)


def effort_label(effort: object) -> str | None:
    """The display label of a model file's `effort` value: 'high', '16K thinking tokens'; None when absent."""
    if effort is None:
        return None
    if isinstance(effort, dict):
        tokens = int(effort["budget_tokens"])
        return f"{tokens // 1024}K thinking tokens" if tokens % 1024 == 0 else f"{tokens} thinking tokens"
    return str(effort)


def effort_rank(effort: object, reasoning: bool | None = None) -> float:
    """Higher = more effort; NaN when unknown. `reasoning: false` without an effort means `none`."""
    if isinstance(effort, dict):
        return budget_rank(int(effort["budget_tokens"]))
    if isinstance(effort, str) and effort in EFFORT_RANK:
        return EFFORT_RANK[effort]
    if effort is None and reasoning is False:
        return 0.0
    return math.nan


def effective(effort: object, reasoning: bool | None) -> tuple[object, bool | None]:
    """(effort value, reasoning): a stated effort decides reasoning; `reasoning: false` alone means `none`."""
    if effort is None and reasoning is False:
        effort = "none"
    if effort is not None:
        reasoning = effort != "none"
    return effort, reasoning


def propose(model_id: str, name: str | None = None) -> dict:
    """The identity fields a new model file starts with, read from its id and name, for review."""
    org, model_slug = model_id.split("/", 1)
    release, effort = parse(model_slug, name)
    out: dict = {"release": f"{org}/{release}"}
    if effort is not None:
        out["effort"] = effort
    return out


# -- reading effort out of names ----------------------------------------------------------------------------

_LEVEL = r"(minimal|low|medium|high|xhigh|max)"
# Tail patterns on a slug (lower case, '-' separated), tried in order; each gives (effort, is_reasoning).
_TAILS = (
    (re.compile(r"-non-reasoning(-(low|medium|high|max)-effort)?$"), lambda m: "none"),
    (re.compile(r"-(adaptive-)?reasoning-" + _LEVEL + r"-effort$"), lambda m: m.group(2)),
    (re.compile(r"-thinking-" + _LEVEL + r"$"), lambda m: m.group(1)),
    (re.compile(r"-(\d+)k-thinking$"), lambda m: {"budget_tokens": int(m.group(1)) * 1024}),
    (re.compile(r"-thinking-(\d+)k$"), lambda m: {"budget_tokens": int(m.group(1)) * 1024}),
    (re.compile(r"-\d+k-" + _LEVEL + r"$"), lambda m: m.group(1)),
    (re.compile(r"-" + _LEVEL + r"$"), lambda m: m.group(1)),
)
# Claude ids from ARC Prize: 'claude-opus-4-6-32k' is a 32K thinking budget.
_CLAUDE_BUDGET = re.compile(r"^(claude-.*?)-(\d+)k$")
_REASONING_TAIL = re.compile(r"-reasoning$")


def _marked(name: str | None, word: str) -> bool:
    """Whether a display name marks `word` as a configuration: '(high)', '(120K, High)', '_high', 'Thinking Max'.

    Without a name every match counts (used to fold names for comparison). With one, 'Qwen3 Max' or
    'Devstral Medium' keep their word: there it is part of the product's name.
    """
    if name is None:
        return True
    return re.search(r"([(_,]|thinking)[^)]*(?<![a-z])(" + word + r")(?![a-z])", name, re.IGNORECASE) is not None


def parse(slug: str, name: str | None = None) -> tuple[str, object]:
    """(release slug, effort) proposed from a model id's slug; effort None when the name does not say.

    'gpt-5-high' -> ('gpt-5', 'high'); 'claude-opus-4-thinking-16k' -> ('claude-opus-4', {'budget_tokens':
    16384}); 'qwen3-8b-reasoning' -> ('qwen3-8b', None) (reasoning, effort not stated); 'gpt-4o' ->
    ('gpt-4o', None). With the display `name`, an effort or reasoning word counts only where the name marks
    it as a configuration (see `_marked`).
    """
    for pattern, effort in _TAILS:
        m = pattern.search(slug)
        if m:
            value = effort(m)
            word = value if isinstance(value, str) and value != "none" else None
            if word is None or pattern.pattern.startswith("-thinking") or _marked(name, word):
                return slug[: m.start()], value
    m = _CLAUDE_BUDGET.match(slug)
    if m:
        return m.group(1), {"budget_tokens": int(m.group(2)) * 1024}
    m = _REASONING_TAIL.search(slug)
    if m and _marked(name, "reasoning"):
        return slug[: m.start()], None
    return slug, None


def says_reasoning(slug: str) -> bool | None:
    """True/False when the slug says reasoning or non-reasoning outright; None otherwise."""
    if "non-reasoning" in slug:
        return False
    if slug.endswith("-reasoning") or "-reasoning-" in slug or "thinking" in slug:
        return True
    return None
