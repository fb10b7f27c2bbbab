"""The vendor-defaults table of scores/identity.yaml, read as rules: which configuration a bare name means.

A *bare* name states no configuration: no effort word ('high', 'xhigh', 'max', 'non-reasoning', 'thinking',
'adaptive', 'effort', ...) and no thinking budget ('16k'). Which configuration of its release it means is the
vendor's documented API default, written per vendor as rules:

    vendor_defaults:
    - vendor: OpenAI
      ...
      rules:
      - releases: [openai/o3, openai/o4-mini]   # release ids (scores/models/*: `release`)
        bare: {effort: medium}                   # or {reasoning: true}: reasoning on, effort not stated

and, where one source's own listing identifies what the vendor leaves open, a rule scoped to that source with
its evidence (`source_defaults`). A configuration is then one of the effort levels, 'reasoning' (reasoning on,
effort not stated, next to a non-reasoning sibling) or 'budget'; a name that matches a configuration the rules
do not fix is scoped to the source that identifies it (a model file's `source_aliases`) or ignored.
"""

from __future__ import annotations

import dataclasses
import re

from ..data.lookalike import CONFIGURATION_WORDS

# Words that state a configuration (data/lookalike.py's list, and 'reasoner', 'mode unknown', 'not stated'); a name
# with none of them (and no budget such as '16k') is bare.
CONFIG_WORDS = CONFIGURATION_WORDS | {"reasoner", "unknown", "stated"}
_BUDGET = re.compile(r"\d+k")


def is_bare(name: str) -> bool:
    """True when `name` states no configuration: 'o3', 'GPT-OSS-120B', 'gemini-2.5-flash', 'claude-fable-5'.
    'o3 (high)', 'claude-opus-4-6-thinking', 'gpt-oss-120b_high', 'Claude 3.7 Sonnet (Thinking 16K)' are not."""
    tokens = re.split(r"[^0-9a-z]+", str(name).casefold())
    return not any(t in CONFIG_WORDS or _BUDGET.fullmatch(t) for t in tokens)


@dataclasses.dataclass(frozen=True)
class Rule:
    releases: frozenset[str]
    configuration: str  # an effort level, or 'reasoning' (on, effort not stated)
    where: str  # 'vendor_defaults[2] (Google)' or 'source_defaults[0] (lmarena)'
    source: str | None = None  # set for a rule scoped to one source


def _configuration(bare: object) -> str | None:
    if not isinstance(bare, dict):
        return None
    if isinstance(bare.get("effort"), str):
        return bare["effort"]
    if bare.get("reasoning") is True:
        return "reasoning"
    return None


def _items(value) -> list:
    return value if isinstance(value, list) else []


def _releases(rule: dict) -> frozenset[str]:
    return frozenset(r for r in _items(rule.get("releases")) if isinstance(r, str))


def rules(identity: dict | None) -> list[Rule]:
    """Every rule of scores/identity.yaml: the vendors' (vendor_defaults[*].rules) and the sources'
    (source_defaults), in file order. Entries of the wrong shape are passed over (validate reports them)."""
    identity = identity if isinstance(identity, dict) else {}
    out = []
    for i, vendor in enumerate(_items(identity.get("vendor_defaults"))):
        for rule in _items(vendor.get("rules")) if isinstance(vendor, dict) else []:
            config = _configuration(rule.get("bare")) if isinstance(rule, dict) else None
            if config is not None:
                out.append(Rule(_releases(rule), config, f"vendor_defaults[{i}] ({vendor.get('vendor')})"))
    for i, rule in enumerate(_items(identity.get("source_defaults"))):
        config = _configuration(rule.get("bare")) if isinstance(rule, dict) else None
        if config is not None and isinstance(rule.get("source"), str):
            out.append(Rule(_releases(rule), config, f"source_defaults[{i}] ({rule['source']})", rule["source"]))
    return out


def rule_for(all_rules: list[Rule], release: str, source: str | None = None) -> Rule | None:
    """The rule that fixes what a bare name of `release` means at `source`: one scoped to that source first,
    else the vendor's; None when no rule covers the release."""
    scoped = [r for r in all_rules if r.source is not None and r.source == source and release in r.releases]
    if scoped:
        return scoped[0]
    return next((r for r in all_rules if r.source is None and release in r.releases), None)


def configuration(data: dict, siblings: list[dict]) -> str | None:
    """Which configuration a model file states: its effort level, 'budget' for a thinking budget, 'none' for
    `reasoning: false`, 'reasoning' for `reasoning: true` without an effort when a sibling configuration of its
    release does not reason (otherwise the mode says nothing about the others); None when nothing is stated."""
    effort, reasoning = data.get("effort"), data.get("reasoning")
    if isinstance(effort, dict):
        return "budget"
    if effort is not None:
        return str(effort)
    if reasoning is False:
        return "none"
    if reasoning is True and any(s.get("effort") == "none" or s.get("reasoning") is False for s in siblings):
        return "reasoning"
    return None


def claims(data: dict, siblings: list[dict]) -> str | None:
    """The configuration a bare name on this model file would pin, or None when it pins none: in a release with
    other configurations, whatever the file states; alone in its release, only an effort other than none
    (a bare name for a model that has no other mode says nothing)."""
    config = configuration(data, siblings)
    if config is None or (not siblings and config == "none"):
        return None
    return config
