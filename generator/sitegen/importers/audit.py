"""`sitegen aliases audit`: what in the model registry still needs a person's review.

Four kinds of finding, each naming the files to look at:

- near-duplicate ids: two models whose ids fold to one key (separators, dates, effort words, token budgets
  and organisation prefixes such as `qwen-qwen3-…` or `openai-gpt-oss-…` ignored) but that name different
  releases: one release spelled two ways, or two releases to confirm as distinct;
- release spread over ids: configurations of one release whose ids fold to different keys (`claude-4.7-high`
  next to `claude-opus-4.7-…`): rename one (the old id goes under former_ids) or confirm;
- bare configuration: a model with neither effort nor reasoning known, in a release that has other
  configurations: which one does the bare name mean? (the vendor's default, scores/identity.yaml);
- unreviewed: a model file `aliases apply` wrote or extended from an unreviewed proposal (`unreviewed: true`);
  a reviewer checks it and removes the mark.
- alias-default (`alias_default_findings`): a bare alias ('o3', 'gpt-oss-120b') that pins a configuration the
  vendor's default (scores/identity.yaml vendor_defaults rules) does not: it belongs to the source that
  identifies it (`source_aliases`).

Pairs that look alike but are different models (or releases) go under `distinct:` in scores/identity.yaml with
the reason; a finding about two models listed there together is not reported. A bare configuration no source
identifies goes under `unresolved:` with the reason.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import defaultdict

EFFORT_WORDS = {"none", "minimal", "low", "medium", "high", "xhigh", "max", "reasoning", "non", "thinking", "think",
                "adaptive", "effort"}
# Organisation prefixes copied from Hugging Face or provider names ('qwen-qwen3-32b', 'openai-gpt-oss-120b',
# 'deepseek-ai-deepseek-v4', 'fireworks-kimi-k2p5'): dropped before comparing.
ORG_PREFIXES = ("qwen", "openai", "deepseek-ai", "fireworks", "meta-llama", "mistralai", "google", "anthropic",
                "x-ai", "xai", "moonshotai", "zai-org", "nvidia", "microsoft")
_DATE = re.compile(r"(?<![0-9])(20\d\d-?[01]\d-?[0-3]\d|[01]\d-20\d\d|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                   r"[a-z]*-\d\d)(?![0-9])")
_BUDGET = re.compile(r"(?<![a-z0-9.])\d+k(?![a-z0-9])")


def fold(slug: str) -> str:
    """The comparison key of an id's model part, tokens sorted: 'claude-opus-4-7_xhigh' and 'claude-4-7-opus'
    -> '4.7-claude-opus', 'claude-4.7-high' -> '4.7-claude'; 'qwen-qwen3-32b', 'qwen-3-32b' and
    'qwen3-32b-reasoning' -> '3-32b-qwen'."""
    text = slug.casefold().replace("_", "-")
    for prefix in ORG_PREFIXES:
        if text.startswith(prefix + "-") and len(text) > len(prefix) + 1:
            rest = text[len(prefix) + 1:]
            if not rest.startswith(("1", "2", "3", "4", "5", "6", "7", "8", "9")):
                text = rest
                break
    text = _DATE.sub(" ", text)
    text = _BUDGET.sub(" ", text)  # thinking budgets and output caps: '-32k', '_64K', '120k'
    text = re.sub(r"(?<=\d)p(?=\d)", ".", text)  # k2p5 -> k2.5 (Fireworks)
    text = re.sub(r"(?<=\d)-(?=\d(?![0-9]*b\b))", ".", text)  # 4-7 -> 4.7, but not 3-8b (a size)
    text = re.sub(r"(?<=[a-z]{2})(?=\d)", "-", text)  # qwen3 -> qwen 3, so 'qwen-3' folds the same
    tokens = [t for t in re.split(r"[-\s]+", text) if t and t not in EFFORT_WORDS]
    return "-".join(sorted(tokens))


@dataclasses.dataclass(frozen=True)
class Finding:
    kind: str  # near-duplicate | spread | bare | unreviewed
    models: tuple[str, ...]
    message: str
    hint: str

    def format(self) -> str:
        return f"{self.kind}: {', '.join(self.models)}: {self.message} ({self.hint})"


def reviewed_sets(identity: dict | None) -> tuple[set[frozenset], set[str]]:
    """From scores/identity.yaml: the distinct pairs (of model ids or of release ids) and the unresolved models."""
    identity = identity or {}
    pairs = {frozenset(e.get("models") or e.get("releases") or ()) for e in identity.get("distinct") or []}
    unresolved = {e["model"] for e in identity.get("unresolved") or []}
    return pairs, unresolved


def audit(models: dict[str, dict], distinct: set[frozenset], unresolved: set[str] = frozenset()) -> list[Finding]:
    """Findings over model files ({id: data}). Pairs in `distinct` (two model ids, or two release ids) are not
    reported together; a model in `unresolved` (reviewed: no source identifies its configuration) is not
    reported as bare."""
    def reviewed(a: str, b: str) -> bool:
        ra, rb = models[a].get("release"), models[b].get("release")
        return frozenset((a, b)) in distinct or frozenset((ra, rb)) in distinct

    out: list[Finding] = []
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_release: dict[str, list[str]] = defaultdict(list)
    for mid, data in sorted(models.items()):
        org, slug = mid.split("/", 1)
        by_key[(org, fold(slug))].append(mid)
        by_release[str(data.get("release") or mid)].append(mid)
    for (_, key), ids in sorted(by_key.items()):
        for a, b in itertools.combinations(ids, 2):
            ra, rb = models[a].get("release"), models[b].get("release")
            if ra != rb and not reviewed(a, b):
                out.append(Finding("near-duplicate", (a, b), f"ids fold to '{key}' but name releases {ra} and {rb}",
                                   "give both the same release if it is one, else list the pair under distinct: "
                                   "in scores/identity.yaml with the reason"))
    for release, ids in sorted(by_release.items()):
        keys = {mid: fold(mid.split("/", 1)[1]) for mid in ids}
        for a, b in itertools.combinations(ids, 2):
            if keys[a] != keys[b] and not reviewed(a, b):
                out.append(Finding("spread", (a, b), f"configurations of {release} spelled differently "
                                   f"('{keys[a]}' vs '{keys[b]}')", "rename one with `sitegen aliases merge` or "
                                   "a rename that keeps the old id under former_ids, or list the pair under distinct:"))
        for mid in ids:
            data = models[mid]
            if len(ids) > 1 and data.get("effort") is None and data.get("reasoning") is None and mid not in unresolved:
                others = [o for o in ids if o != mid and not reviewed(mid, o)]
                if others:
                    out.append(Finding("bare", (mid, *others), f"{mid} states neither effort nor reasoning next to "
                                       f"other configurations of {release}", "give it the vendor's default "
                                       "configuration (scores/identity.yaml vendor_defaults) or merge it into that one"))
    for mid, data in sorted(models.items()):
        if data.get("unreviewed"):
            out.append(Finding("unreviewed", (mid,), "written by `aliases apply` from an unreviewed proposal",
                               "check its id, release, effort and aliases, then delete `unreviewed: true`"))
    return out


def alias_default_findings(models: dict[str, dict], identity: dict | None) -> list[Finding]:
    """alias-default: a bare global alias (or display name) pins a configuration only where the vendor's default
    is that configuration (scores/identity.yaml vendor_defaults rules); a bare alias scoped to a source that has
    a rule of its own (source_defaults) agrees with that rule. A name that identifies a configuration at one
    source only belongs in that model's `source_aliases`."""
    from . import defaults

    table = defaults.rules(identity)
    by_release: dict[str, list[str]] = defaultdict(list)
    for mid, data in models.items():
        by_release[str(data.get("release") or mid)].append(mid)
    out: list[Finding] = []
    for mid, data in sorted(models.items()):
        release = str(data.get("release") or mid)
        claim = defaults.claims(data, [models[o] for o in by_release[release] if o != mid])
        if claim is None:
            continue
        aliases = data.get("aliases") if isinstance(data.get("aliases"), list) else []
        scoped = data.get("source_aliases") if isinstance(data.get("source_aliases"), list) else []
        names = [("", n) for n in [data.get("name")] + aliases if isinstance(n, str) and n]
        names += [(e.get("source"), e["name"]) for e in scoped if isinstance(e, dict) and isinstance(e.get("name"), str)]
        for source, name in names:
            if not defaults.is_bare(name):
                continue
            rule = defaults.rule_for(table, release, source or None)
            if source and (rule is None or rule.source is None):
                continue  # a scoped alias with no source rule: the source's own listing identifies it
            where = f"the alias '{name}'" + (f" at {source}" if source else "")
            if rule is None:
                out.append(Finding("alias-default", (mid,), f"{where} names the {claim} configuration of {release}, "
                                   "and no vendor_defaults rule says a bare name means that",
                                   "make it a source_aliases entry of the source whose listing identifies it, or "
                                   "add the vendor's documented default as a rule in scores/identity.yaml"))
            elif rule.configuration != claim:
                out.append(Finding("alias-default", (mid,), f"{where} names the {claim} configuration of {release}, "
                                   f"but {rule.where} says a bare name means {rule.configuration}",
                                   "move the alias to that configuration, or scope it to the source that "
                                   "identifies this one (source_aliases)"))
    return out
