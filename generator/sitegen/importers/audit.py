"""`sitegen aliases audit`: what in the model registry still needs a person's review.

Kinds of finding, each naming the files to look at:

- near-duplicate: two models whose ids (or display names) fold to one key (separators, dates, effort words,
  token budgets, a first version '-v1-0', '-beta', organisation and provider prefixes such as `qwen-qwen3-…`,
  `fireworks-…` or `amazon.…` ignored; `lookalike.fold`) but that name different releases, in one organisation
  or across two: one release spelled two ways, or two releases to confirm as distinct (checkpoints dated
  differently are not compared: each is its own release);
- spread: configurations of one release whose ids fold to different keys (`claude-4.7-high` next to
  `claude-opus-4.7-…`): rename one (the old id goes under former_ids) or confirm;
- bare: a model with neither effort nor reasoning known, in a release that has other configurations: which one
  does the bare name mean? (the vendor's default, scores/identity.yaml);
- effort-unstated: a reasoning configuration with no effort next to a sibling whose reasoning effort is stated
  (`grok-3-mini` reasoning beside `grok-3-mini-low`): is it one of them, the vendor's default?
- twice: two models of one release in the same unstated configuration (both bare, or both reasoning with no
  effort): one configuration entered twice, each ranked on its own;
- typo: an id within edit distance 2 of another with the same display name (`widget-7b-instrcut` beside
  `widget-7b-instruct`); `sitegen validate` reports the same pairs (`lookalike.typo_pairs`);
- ranked-bare: a model whose mode is unknown, with results on the boards, next to a sibling whose mode is known:
  the release is ranked twice. Merge it where a source identifies it, else exclude its results in
  scores/overrides.yaml with the reason (the rows then show as excluded, unranked);
- unreviewed: a model file `aliases apply` wrote or extended from an unreviewed proposal (`unreviewed: true`);
  a reviewer checks it and removes the mark.
- alias-default (`alias_default_findings`): a bare alias ('o3', 'gpt-oss-120b') that pins a configuration the
  vendor's default (scores/identity.yaml vendor_defaults rules) does not: it belongs to the source that
  identifies it (`source_aliases`).

Pairs that look alike but are different models (or releases) go under `distinct:` in scores/identity.yaml with
the reason; a finding about two models listed there together is not reported. A bare configuration no source
identifies goes under `unresolved:` with the reason (that silences `bare` and `effort-unstated`, never
`ranked-bare` or `twice`).

Every comparison is inside a bucket (one folded key, one release, one display name), never over all pairs of
ids, so the audit stays fast enough to run on every build.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict

# EFFORT_WORDS, ORG_PREFIXES and fold are re-exported: callers and tests read them here
from ..data.lookalike import EFFORT_WORDS, ORG_PREFIXES, different_checkpoints, fold, typo_pairs  # noqa: F401


@dataclasses.dataclass(frozen=True)
class Finding:
    kind: str  # near-duplicate | spread | bare | effort-unstated | twice | typo | ranked-bare | unreviewed
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


def _mode_known(data: dict) -> bool:
    return data.get("effort") is not None or data.get("reasoning") is not None


def _reasoning_effort_stated(data: dict) -> bool:
    effort = data.get("effort")
    return effort is not None and effort != "none"


def audit(
    models: dict[str, dict],
    distinct: set[frozenset],
    unresolved: set[str] | frozenset[str] = frozenset(),
    ranked: dict[str, set[str]] | None = None,
) -> list[Finding]:
    """Findings over model files ({id: data}). Pairs in `distinct` (two model ids, or two release ids) are not
    reported together; a model in `unresolved` (reviewed: no source identifies its configuration) is not
    reported as bare or effort-unstated. `ranked` maps each model with results on the boards to the benchmarks
    of those results (None: not known, the ranked-bare check is skipped)."""

    def reviewed(a: str, b: str) -> bool:
        ra, rb = models[a].get("release"), models[b].get("release")
        return frozenset((a, b)) in distinct or frozenset((ra, rb)) in distinct

    out: list[Finding] = []
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)  # ('ids' | 'names', folded key) -> model ids
    by_release: dict[str, list[str]] = defaultdict(list)
    for mid, data in sorted(models.items()):
        by_key[("ids", fold(mid.split("/", 1)[1]))].append(mid)
        if isinstance(data.get("name"), str) and data["name"].strip():
            by_key[("names", fold(data["name"]))].append(mid)
        by_release[str(data.get("release") or mid)].append(mid)
    seen: set[tuple[str, str]] = set()
    for (what, key), ids in sorted(by_key.items()):
        for a, b in itertools.combinations(ids, 2):
            ra, rb = models[a].get("release"), models[b].get("release")
            if (a, b) in seen or ra == rb or reviewed(a, b) or different_checkpoints(a, b):
                continue
            seen.add((a, b))
            where = "" if a.split("/")[0] == b.split("/")[0] else " in two organisations"
            out.append(
                Finding(
                    "near-duplicate",
                    (a, b),
                    f"{what} fold to '{key}' but name releases {ra} and {rb}{where}",
                    "merge one into the other with `sitegen aliases merge OLD --into "
                    "NEW` if they are one model, else list the pair under distinct: in "
                    "scores/identity.yaml with the reason",
                )
            )
    for release, ids in sorted(by_release.items()):
        keys = {mid: fold(mid.split("/", 1)[1]) for mid in ids}
        for a, b in itertools.combinations(ids, 2):
            if keys[a] != keys[b] and not reviewed(a, b):
                out.append(
                    Finding(
                        "spread",
                        (a, b),
                        f"configurations of {release} spelled differently ('{keys[a]}' vs '{keys[b]}')",
                        "rename one with `sitegen aliases merge` or "
                        "a rename that keeps the old id under former_ids, or list the pair under distinct:",
                    )
                )
        out.extend(_release_findings(release, ids, models, reviewed, unresolved, ranked))
    for a, b in typo_pairs(models, distinct):
        out.append(
            Finding(
                "typo",
                (a, b),
                f"ids within edit distance 2 with one display name '{models[a].get('name')}'",
                "one model entered twice with a mistyped id: merge it with "
                "`sitegen aliases merge OLD --into NEW`, or list the pair under distinct: with the reason",
            )
        )
    for mid, data in sorted(models.items()):
        if data.get("unreviewed"):
            out.append(
                Finding(
                    "unreviewed",
                    (mid,),
                    "written by `aliases apply` from an unreviewed proposal",
                    "check its id, release, effort and aliases, then delete `unreviewed: true`",
                )
            )
    return out


def _bare_alias_names(data: dict) -> list[tuple[str | None, str]]:
    """A model's display name and aliases as `("", name)`, and its source aliases as `(source, name)`."""
    aliases: list = given if isinstance(given := data.get("aliases"), list) else []
    scoped: list = given if isinstance(given := data.get("source_aliases"), list) else []
    names: list[tuple[str | None, str]] = [("", n) for n in [data.get("name")] + aliases if isinstance(n, str) and n]
    names += [(e.get("source"), e["name"]) for e in scoped if isinstance(e, dict) and isinstance(e.get("name"), str)]
    return names


def _alias_default_finding(mid: str, release: str, claim: str, source: str | None, name: str, rule) -> Finding | None:
    """The alias-default finding of one bare name of `mid` (a `claim` configuration of `release`) under the
    vendor_defaults `rule` that applies to it, or None when the rule agrees."""
    where = f"the alias '{name}'" + (f" at {source}" if source else "")
    if rule is None:
        return Finding(
            "alias-default",
            (mid,),
            f"{where} names the {claim} configuration of {release}, "
            "and no vendor_defaults rule says a bare name means that",
            "make it a source_aliases entry of the source whose listing identifies it, or "
            "add the vendor's documented default as a rule in scores/identity.yaml",
        )
    if rule.configuration != claim:
        return Finding(
            "alias-default",
            (mid,),
            f"{where} names the {claim} configuration of {release}, "
            f"but {rule.where} says a bare name means {rule.configuration}",
            "move the alias to that configuration, or scope it to the source that identifies this one (source_aliases)",
        )
    return None


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
        for source, name in _bare_alias_names(data):
            if not defaults.is_bare(name):
                continue
            rule = defaults.rule_for(table, release, source or None)
            if source and (rule is None or rule.source is None):
                continue  # a scoped alias with no source rule: the source's own listing identifies it
            finding = _alias_default_finding(mid, release, claim, source, name, rule)
            if finding is not None:
                out.append(finding)
    return out


def _configuration_findings(release, mid, ids, models, reviewed, unresolved, ranked) -> list[Finding]:
    """bare, effort-unstated and ranked-bare: configuration `mid` of `release` (configurations `ids`) against the
    others not reviewed as distinct from it."""
    out: list[Finding] = []
    data = models[mid]
    others = [o for o in ids if o != mid and not reviewed(mid, o)]
    if not _mode_known(data) and mid not in unresolved and others:
        out.append(
            Finding(
                "bare",
                (mid, *others),
                f"{mid} states neither effort nor reasoning next to other configurations of {release}",
                "give it the vendor's default "
                "configuration (scores/identity.yaml vendor_defaults) or merge it into that one",
            )
        )
    stated = [o for o in others if _reasoning_effort_stated(models[o])]
    if data.get("reasoning") is True and data.get("effort") is None and mid not in unresolved and stated:
        out.append(
            Finding(
                "effort-unstated",
                (mid, *stated),
                f"{mid} is a reasoning configuration of "
                f"{release} with no effort, next to configurations whose effort is stated",
                "if a source or the vendor's default identifies its effort, merge it into that "
                "configuration; else list it under unresolved: with the reason",
            )
        )
    ranked_bare = _ranked_bare_finding(release, mid, others, models, ranked)
    return out + ([ranked_bare] if ranked_bare else [])


def _ranked_bare_finding(release, mid, others, models, ranked) -> Finding | None:
    """ranked-bare: `mid`, mode unknown, has results on a benchmark where one of `others`, mode known, has too."""
    own = (ranked or {}).get(mid) or set()
    known = [o for o in others if _mode_known(models[o]) and own & ((ranked or {}).get(o) or set())]
    if _mode_known(models[mid]) or not known:
        return None
    return Finding(
        "ranked-bare",
        (mid, *known),
        f"{mid}, mode unknown, has results on benchmarks "
        f"where configurations of {release} whose mode is known have results too: it may "
        "be one of them, ranked twice",
        "merge it where a source identifies its "
        "configuration, else exclude its results in scores/overrides.yaml with the reason",
    )


def _twice_findings(release, ids, models, reviewed) -> list[Finding]:
    """twice: two configurations of `release` with the same mode and no effort, not reviewed as distinct."""
    out: list[Finding] = []
    unstated: dict[str, list[str]] = defaultdict(list)
    for mid in ids:
        data = models[mid]
        if data.get("effort") is None:
            unstated[
                "reasoning"
                if data.get("reasoning") is True
                else "non-reasoning"
                if data.get("reasoning") is False
                else "not stated"
            ].append(mid)
    for mode, same in sorted(unstated.items()):
        for a, b in itertools.combinations(same, 2):
            if not reviewed(a, b):
                out.append(
                    Finding(
                        "twice",
                        (a, b),
                        f"two configurations of {release} with mode {mode} and no "
                        "effort: one configuration entered twice",
                        "merge one into the other with "
                        "`sitegen aliases merge OLD --into NEW`, or list the pair under distinct: with "
                        "the reason",
                    )
                )
    return out


def _release_findings(release, ids, models, reviewed, unresolved, ranked) -> list[Finding]:
    if len(ids) < 2:
        return []
    out: list[Finding] = []
    for mid in ids:
        out += _configuration_findings(release, mid, ids, models, reviewed, unresolved, ranked)
    return out + _twice_findings(release, ids, models, reviewed)


def _result_key(row: dict, model: str | None, source: str | None) -> tuple:
    return (
        model,
        row.get("benchmark"),
        source,
        row.get("metric") or "",
        row.get("subset") or "",
        row.get("harness") or "",
    )


def ranked_models(root, models: dict[str, dict]) -> dict[str, set[str]]:
    """The benchmarks each model has results on, as the boards see them: in its model file, or in
    scores/imported/ and not excluded by scores/overrides.yaml (read by the data loader, as validate reads them)."""
    from ..data import load

    repo, _ = load.load_repo(root)

    def rows(doc) -> list:
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        return [
            r
            for r in data.get("results" if doc is None or doc.kind != "overrides" else "overrides") or []
            if isinstance(r, dict)
        ]

    excluded = {_result_key(o, o.get("model"), o.get("source")) for o in rows(repo.overrides) if o.get("exclude")}
    out: dict[str, set[str]] = defaultdict(set)
    for mid, data in models.items():
        for row in data.get("results") or []:
            out[mid].add(row.get("benchmark"))
    for doc in repo.imported:
        source = doc.data.get("source") if isinstance(doc.data, dict) else None
        for row in rows(doc):
            if _result_key(row, row.get("model"), source) not in excluded:
                out[row.get("model")].add(row.get("benchmark"))
    return dict(out)
