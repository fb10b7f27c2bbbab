"""Look-alike model ids: the comparison key `sitegen aliases audit` buckets ids by, and the typo detector that
`sitegen aliases audit` and `sitegen validate` share.

Both stay linear in the number of models: ids are grouped by a key first (the folded id, the display name), and
only ids in one group are compared with each other, so a registry of thousands of models is checked on every
build in milliseconds.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict

# Words that state a configuration (an effort level, reasoning on or off): the one list, which
# importers/defaults.py's CONFIG_WORDS extends with the words that only mark a name as not bare.
CONFIGURATION_WORDS = frozenset(
    {"none", "minimal", "low", "medium", "high", "xhigh", "max", "reasoning", "thinking", "think", "adaptive", "effort"}
)
# Dropped from a name before comparing: the configuration words and the 'non' of 'non-reasoning'.
EFFORT_WORDS = CONFIGURATION_WORDS | {"non"}
# Words that mark a release stage or a serving variant, not a different model: 'grok-3-mini-beta' is a name
# of Grok 3 Mini to compare, '-exp' is '-experimental' spelled short. The audit then shows both, and a person
# decides (merge, or `distinct:` with the reason); the key never decides on its own.
STAGE_WORDS = {"beta": "", "exp": "experimental"}
# Organisation and provider prefixes copied from Hugging Face, Bedrock or a host ('qwen-qwen3-32b',
# 'openai-gpt-oss-120b', 'deepseek-ai-deepseek-v4', 'fireworks-kimi-k2p5', 'amazon.nova-premier-v1:0'): dropped
# before comparing.
ORG_PREFIXES = (
    "qwen",
    "openai",
    "deepseek-ai",
    "fireworks",
    "meta-llama",
    "mistralai",
    "google",
    "anthropic",
    "x-ai",
    "xai",
    "moonshotai",
    "zai-org",
    "nvidia",
    "microsoft",
    "amazon",
    "together",
    "novita",
)
_DATE = re.compile(
    r"(?<![0-9])(20\d\d-?[01]\d-?[0-3]\d|[01]\d-20\d\d|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*-\d\d)(?![0-9])"
)
# A month and day with no year ('-02-05' in 'gemini-2.0-pro-exp-02-05'), only after a word, never inside a
# version ('3-5' is Claude 3.5) or before a size ('01-8b').
_MONTH_DAY = re.compile(r"(?<=[a-z]-)(0[1-9]|1[0-2])-([0-2]\d|3[01])(?![0-9a-z.])")
# A four-digit checkpoint date ('-1103' in 'ernie-5.0-preview-1103', '-0924' in 'molmo-7b-d-0924', '-2407' in
# 'mistral-large-2407'): month and day, or month and year, or year and month; never a number like '1776'.
_FOUR_DIGIT_DATE = re.compile(r"(?<=-)((0[1-9]|1[0-2])([0-2]\d|3[01])|(2[3-9])(0[1-9]|1[0-2]))(?![0-9a-z.])")
_MONTHS = {
    m: i
    for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)
}
_BUDGET = re.compile(r"(?<![a-z0-9.])\d+k(?![a-z0-9])")
# A first version written out ('-v1', '-v1-0', '-v1.0', Bedrock's '-v1:0'): the model's only version so far.
_FIRST_VERSION = re.compile(r"(?<![a-z0-9])v1([-.:]0)?(?![0-9.])")


def fold(slug: str) -> str:
    """The comparison key of an id's model part (or a display name), tokens sorted: 'claude-opus-4-7_xhigh' and
    'claude-4-7-opus' -> '4.7-claude-opus', 'claude-4.7-high' -> '4.7-claude'; 'qwen-qwen3-32b', 'qwen-3-32b' and
    'qwen3-32b-reasoning' -> '3-32b-qwen'; 'amazon.nova-premier-v1-0' and 'nova-premier' -> 'nova-premier'."""
    text = slug.casefold().replace("_", "-").replace(" ", "-").replace("(", "").replace(")", "")
    for prefix in ORG_PREFIXES:
        if text.startswith((prefix + "-", prefix + ".", prefix + "/")) and len(text) > len(prefix) + 1:
            rest = text[len(prefix) + 1 :]
            if not rest.startswith(("1", "2", "3", "4", "5", "6", "7", "8", "9")):
                text = rest
                break
    text = _DATE.sub(" ", text)
    text = _MONTH_DAY.sub(" ", text)
    text = _FOUR_DIGIT_DATE.sub(" ", text)
    text = _FIRST_VERSION.sub(" ", text)
    text = _BUDGET.sub(" ", text)  # thinking budgets and output caps: '-32k', '_64K', '120k'
    text = re.sub(r"(?<=\d)p(?=\d)", ".", text)  # k2p5 -> k2.5 (Fireworks)
    text = re.sub(r"(?<=\d)-(?=\d(?![0-9]*b\b))", ".", text)  # 4-7 -> 4.7, but not 3-8b (a size)
    text = re.sub(r"(?<=[a-z]{2})(?=\d)", "-", text)  # qwen3 -> qwen 3, so 'qwen-3' folds the same
    tokens = []
    for token in re.split(r"[-\s/:]+", text):
        token = STAGE_WORDS.get(token, token)
        if token and token not in EFFORT_WORDS:
            tokens.append(token)
    return "-".join(sorted(tokens))


def dates(slug: str) -> list[tuple[int, int | None]]:
    """The checkpoint dates an id carries, as (month, day or None): 'gemini-2.5-flash-preview-04-17' ->
    [(4, 17)], 'gemini-2.5-pro-preview-mar-25' -> [(3, None)], 'mistral-large-2407' -> [(7, None)]."""
    text = slug.casefold().replace("_", "-")
    out: list[tuple[int, int | None]] = []
    for m in _DATE.finditer(text):
        token = m.group(0)
        digits = re.sub(r"\D", "", token)
        if token[:3] in _MONTHS:
            out.append((_MONTHS[token[:3]], None))
        elif len(digits) == 8:
            out.append((int(digits[4:6]), int(digits[6:8])))
        else:  # MM-YYYY
            out.append((int(digits[:2]), None))
    rest = _DATE.sub(" ", text)
    for m in _MONTH_DAY.finditer(rest):
        out.append((int(m.group(1)), int(m.group(2))))
    rest = _MONTH_DAY.sub(" ", rest)
    for m in _FOUR_DIGIT_DATE.finditer(rest):
        if m.group(2):
            out.append((int(m.group(2)), int(m.group(3))))
        else:
            out.append((int(m.group(5)), None))
    return out


def different_checkpoints(a: str, b: str) -> bool:
    """Whether two ids both name a checkpoint date and the dates differ (in the month, or in the day where both
    give one): dated checkpoints are their own releases (issue #26), so such ids are not look-alikes. An id with
    no date beside a dated one, or the same month spelled two ways ('03-25' and 'mar-25'), is still compared."""
    da, db = dates(a), dates(b)
    if not da or not db:
        return False
    (ma, xa), (mb, xb) = da[-1], db[-1]
    return ma != mb or (xa is not None and xb is not None and xa != xb)


def within(a: str, b: str, limit: int = 2) -> bool:
    """Whether the edit distance (insertions, deletions, substitutions, and a swap of two neighbours counted as
    one) between a and b is at most `limit`; a banded computation, so long ids cost O(len * limit)."""
    if abs(len(a) - len(b)) > limit:
        return False
    if a == b:
        return True
    inf = limit + 1
    prev2: dict[int, int] = {}
    prev = {j: j for j in range(min(len(b), limit) + 1)}
    for i in range(1, len(a) + 1):
        cur = {0: i} if i <= limit else {}
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(prev.get(j, inf) + 1, cur.get(j - 1, inf) + 1, prev.get(j - 1, inf) + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, prev2.get(j - 2, inf) + 1)
            cur[j] = best
        if min(cur.values(), default=inf) > limit:
            return False
        prev2, prev = prev, cur
    return prev.get(len(b), inf) <= limit


def _name_key(name: object) -> str:
    return " ".join(str(name).split()).casefold()


def typo_pairs(models: dict[str, dict], distinct: set[frozenset] | frozenset = frozenset()) -> list[tuple[str, str]]:
    """Pairs of model ids (sorted) within edit distance 2 of each other whose files give the same display name:
    one model entered twice with a typo in one id ('acme/widget-7b-instrcut' beside 'acme/widget-7b-instruct').
    Only ids that share a display name are compared. Pairs listed as distinct (by model ids) are left out."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for mid, data in models.items():
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name.strip():
            by_name[_name_key(name)].append(mid)
    out = []
    for ids in by_name.values():
        for a, b in itertools.combinations(sorted(ids), 2):
            if within(a, b) and frozenset((a, b)) not in distinct:
                out.append((a, b))
    return sorted(out)
