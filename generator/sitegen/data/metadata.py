"""Which metadata value a model gets, and where it came from.

Precedence, most specific first (methodology/sources.md, "Model metadata"): a hand-set or vendor-stated fact
beats a scraped one.

1. the model file's own value (scores/models/<org>/<model>.yaml);
2. a reviewed rule (scores/metadata.yaml, a rule with `reviewed: <reason>`): a reviewer's recorded choice where
   sources disagree with each other or with a rule; release, then family, then organisation level;
3. a source's per-model value (scores/imported/<source>.yaml `models:`), the first source in source-id order that
   has one;
4. a release rule, 5. a family rule, 6. an organisation rule (scores/metadata.yaml), the first matching rule of
   the level in file order; two rules of one level that disagree about a model are an error.

Any disagreement left open is an error (`checks.metadata_sources_agree`, `checks.metadata_rules_agree_with_sources`)
until the model file or a reviewed rule settles the field, so the order of 3 and 4-6 never decides a published
value on its own: an unreviewed rule only fills what every source leaves unsaid.

Unknown stays unknown (None): nothing is guessed. `parameters` is one block (total and active together), so a
model never mixes one place's total with another's active count.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .load import Doc

FIELDS = ("weights", "reasoning", "parameters", "context_window", "licence", "released", "kind")
KINDS = ("language", "image-generation")  # a model's `kind`; language when nothing says otherwise
# Facts of a release, not of one configuration: every configuration of a release shows one value (inherit_release).
RELEASE_FIELDS = ("weights", "parameters", "licence", "released", "pricing")
# Fields whose sources are not compared with each other or with rules: one licence has several spellings, and
# sources date a release a few days apart (announcement, API availability). Configurations of one release are
# compared instead (inherit_release), where a disagreement is a warning until a reviewed rule settles it.
NOT_COMPARED = ("licence", "released")
#: A reviewed rule's `reasoning: not stated`: the vendor's documentation was searched and does not state the mode.
NOT_STATED = "not stated"
#: A configuration's reasoning state, as the frame, the API and the site's filters spell it.
REASONING_STATES = ("yes", "no", NOT_STATED, "not known")
LEVELS = ("release", "family", "organization")  # most specific first
METADATA_FILE = "scores/metadata.yaml"


def is_literal(pattern: str) -> bool:
    """Whether a glob pattern has no wildcard (*, ? or [): fnmatchcase then matches the id it spells and no other."""
    return isinstance(pattern, str) and not any(ch in pattern for ch in "*?[")


@functools.cache
def _matcher(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a model id matches any of the glob patterns (fnmatchcase): the ids the patterns spell as a set, the
    others as one compiled regex. The checks ask every rule about every model, and a call per pattern cost a second
    a build; most patterns are ids, and compiling them was most of a validation run's cost of the rules."""
    ids = frozenset(p for p in patterns if is_literal(p))
    globs = [p for p in patterns if not is_literal(p)]
    if not globs:
        return lambda model_id: model_id in ids
    match = re.compile("|".join(fnmatch.translate(p) for p in globs)).match
    return lambda model_id: model_id in ids or match(model_id) is not None


@dataclasses.dataclass(frozen=True)
class Rule:
    """One entry of scores/metadata.yaml."""

    index: int
    line: int
    match: tuple[str, ...]
    level: str
    values: dict
    source: str
    url: str
    reviewed: str | None = None  # why a reviewer chose this value over a disagreeing source

    def matches(self, model_id: str) -> bool:
        return _matcher(self.match)(model_id)

    @property
    def label(self) -> str:
        return f"{METADATA_FILE}:{self.line}"


class RuleSet(tuple[Rule, ...]):
    """The rules of scores/metadata.yaml in file order, grouped by the organisation their patterns name.

    A pattern whose organisation part has no wildcard ('openai/gpt-4*') can only match ids in that organisation,
    so a model is tested against its organisation's rules and the few whose organisation is a wildcard, not
    every rule: resolving every model stays linear as models and rules grow together.
    """

    by_org: dict[str, list[Rule]]  # organisation -> its rules
    any_org: list[Rule]  # the rules whose organisation is a wildcard

    def __new__(cls, rules: Iterable[Rule]) -> RuleSet:
        self = super().__new__(cls, rules)
        self.by_org = {}
        self.any_org = []
        for rule in self:
            orgs = {literal_org(pattern) for pattern in rule.match}
            named = {org for org in orgs if org is not None}
            if len(named) < len(orgs):  # a pattern of this rule may match any organisation
                self.any_org.append(rule)
            else:
                for org in named:
                    self.by_org.setdefault(org, []).append(rule)
        return self

    def candidates(self, model_id: str) -> list[Rule]:
        """The rules that may match a model id, in file order (a superset of those that do)."""
        own = self.by_org.get(model_id.partition("/")[0], [])
        if not self.any_org:
            return own
        return sorted(own + self.any_org, key=lambda rule: rule.index)  # a rule is in one group or the other


def literal_org(pattern: str) -> str | None:
    """The organisation a glob pattern is confined to ('openai' for 'openai/gpt-4*'), None when it is not."""
    if not isinstance(pattern, str):
        return None  # (a file with schema errors; matching it fails where it did before)
    org, slash, _ = pattern.partition("/")
    return org if slash and not any(ch in org for ch in "*?[") else None


def rules_of(doc: Doc | None) -> RuleSet:
    """The rules of a validated scores/metadata.yaml (none without the file)."""
    if doc is None:
        return RuleSet(())
    out = []
    for i, entry in enumerate(doc.data.get("rules") or []):
        values = {key: entry[key] for key in FIELDS if key in entry}
        out.append(
            Rule(
                i,
                doc.mark("rules", i)[0],
                tuple(entry["match"]),
                entry["level"],
                values,
                entry["source"],
                entry["url"],
                entry.get("reviewed"),
            )
        )
    return RuleSet(out)


def matching(rules: Sequence[Rule], model_id: str) -> list[Rule]:
    """The rules (a RuleSet or any list of rules) that match a model id, in file order."""
    candidates = rules.candidates(model_id) if isinstance(rules, RuleSet) else rules
    return [rule for rule in candidates if rule.matches(model_id)]


def rule_values(rules: Sequence[Rule], model_id: str) -> dict[str, tuple[object, Rule]]:
    """field -> (value, rule) from the most specific matching rule that sets the field."""
    return values_of(matching(rules, model_id))


def values_of(matched: list[Rule]) -> dict[str, tuple[object, Rule]]:
    """field -> (value, rule) from the most specific of these matching rules (in file order) that sets it."""
    out: dict[str, tuple[object, Rule]] = {}
    for level in LEVELS:
        for rule in matched:
            if rule.level == level:
                for key, value in rule.values.items():
                    out.setdefault(key, (value, rule))
    return out


def reviewed_values(rules: Sequence[Rule], model_id: str) -> dict[str, tuple[object, Rule]]:
    """field -> (value, rule) from the most specific matching reviewed rule that sets the field."""
    return values_of([rule for rule in matching(rules, model_id) if rule.reviewed])


def _rule_provenance(rule: Rule) -> dict:
    out = {"by": "rule", "level": rule.level, "source": rule.source, "url": rule.url, "origin": rule.label}
    if rule.reviewed:
        out["reviewed"] = rule.reviewed
    return out


def resolve(model: dict, imported: list[tuple[str, dict]], rules: Sequence[Rule]) -> tuple[dict, dict]:
    """(values, provenance) for one model.

    `model` is the model file's data; `imported` its (source id, entry) pairs in source-id order. Provenance per
    field: {"by": "model", "origin": path} | {"by": "source", "source": id} | {"by": "rule", "level", "source",
    "url", "origin"[, "reviewed"]} — or None when the value is unknown.
    """
    matched = matching(rules, model["id"])
    reviewed = values_of([rule for rule in matched if rule.reviewed])
    fallback = values_of([rule for rule in matched if not rule.reviewed])
    values: dict = dict.fromkeys(FIELDS)
    provenance: dict = dict.fromkeys(FIELDS)
    for key in FIELDS:
        if model.get(key) is not None:
            values[key] = model[key]
            provenance[key] = {"by": "model"}
            continue
        if key in reviewed:
            values[key], rule = reviewed[key]
            provenance[key] = _rule_provenance(rule)
            continue
        for source, entry in imported:
            if entry.get(key) is not None:
                values[key] = entry[key]
                provenance[key] = {"by": "source", "source": source}
                break
        else:
            if key in fallback:
                values[key], rule = fallback[key]
                provenance[key] = _rule_provenance(rule)
    return values, provenance


def reasoning_state(reasoning: object) -> str:
    """'yes' / 'no' for a known mode, 'not stated' where a reviewed rule records that the vendor is silent,
    'not known' where nobody has entered it (None)."""
    if reasoning is True:
        return "yes"
    if reasoning is False:
        return "no"
    return NOT_STATED if reasoning == NOT_STATED else "not known"


def label(provenance: dict | None, model_path: str) -> str | None:
    """A one-word answer to 'where did this come from': the model file's path, a source id, or the rule's line."""
    if provenance is None:
        return None
    if provenance["by"] == "model":
        return model_path
    if provenance["by"] == "release":
        return provenance["from"]
    if provenance["by"] == "source":
        return provenance["source"]
    return provenance["origin"]


def ranked_models(
    boards: dict, benchmark_boards: dict, index_prefixes: tuple[str, ...], benchmark_ids: tuple[str, ...]
) -> set[str]:
    """Models ranked on the index boards whose id starts with one of `index_prefixes` (a whole id is its own
    prefix) or on the benchmark boards `benchmark_ids`: the boards a coverage target is measured on (`sitegen
    stats` names this repository's)."""
    out: set[str] = set()
    for bid, board in boards.items():
        if bid.startswith(index_prefixes):
            out |= {r["model"] for r in board["rows"] if r.get("rank") is not None}
    for bid in benchmark_ids:
        out |= {r["model"] for r in (benchmark_boards.get(bid) or {}).get("rows", []) if r.get("rank") is not None}
    return out


def coverage(model_records: list[dict], ids: set[str] | None = None) -> dict[str, int]:
    """How many of the models (all, or `ids`) have each field known; `models` is how many were counted."""
    rows = [r for r in model_records if ids is None or r["model"] in ids]
    known = {"models": len(rows)}
    for key in ("weights", "reasoning", "licence"):
        known[key] = sum(r[key] is not None for r in rows)
    # reasoning not known, but a reviewed rule records that the vendor is silent: shown as such, never guessed
    known["reasoning_not_stated"] = sum(r.get("reasoning_state") == NOT_STATED for r in rows)
    for key, column in (("parameters", "total_b"), ("context_window", "context_window")):
        known[key] = sum(isinstance(r[column], (int, float)) and r[column] == r[column] for r in rows)
    opened = [r for r in rows if r["weights"] == "open"]
    known["open_weights"] = len(opened)
    known["open_with_parameters"] = sum(r["total_b"] == r["total_b"] for r in opened)
    return known


def _same_date(values: list[str]) -> str | None:
    """The one date that YYYY-MM and YYYY-MM-DD values all describe (the most precise), None when they differ."""
    days = {v for v in values if len(v) == 10}
    months = {v[:7] for v in values}
    if len(months) != 1 or len(days) > 1:
        return None
    return next(iter(days)) if days else next(iter(months))


def _release_value(records: list[dict], field: str) -> tuple[object, dict | None] | None:
    """What the configurations of one release say about a field: (value, sibling it is taken from) when every
    configuration that knows it agrees, else None; ("unknown", None) when none knows it."""
    known = [(r, _field_value(r, field)) for r in records]
    known = [(r, v) for r, v in known if v is not None]
    if not known:
        return "unknown", None
    if field == "released":
        date = _same_date([str(v) for _, v in known])  # dates are text
        if date is None:
            return None
        return date, next(r for r, v in known if v == date)
    first = known[0][1]
    return (first, known[0][0]) if all(v == first for _, v in known) else None


def _field_value(record: dict, field: str) -> object:
    if field == "parameters":
        total = record["total_b"]
        return (
            None
            if total != total
            else (total, None if record["active_b"] != record["active_b"] else record["active_b"])
        )
    if field == "pricing":
        price = record["input_per_mtok"]
        return None if price != price else (price, record["output_per_mtok"])
    return record[field]


def inherit_release(records: list[dict]) -> list[tuple[str, str, dict]]:
    """Give every configuration of a release the release's weights, parameters, licence, release date and list
    price where it has none, when the configurations that state the field agree (a month and a day in it agree;
    the day is kept). Changes the records in place; the provenance of a filled field is {"by": "release", "from":
    the sibling's id, "via": the sibling's provenance}. Returns the disagreements, (release, field, {model id:
    value}), for `sitegen validate` to report: none of them is filled, since no sibling's value is the release's.
    List prices are passed on within one reasoning mode only (_inherit_prices) and never reported."""
    by_release: dict[str, list[dict]] = {}
    for record in records:
        by_release.setdefault(record["release"], []).append(record)
    disagreements = []
    for release, group in sorted(by_release.items()):
        if len(group) < 2:
            continue
        for field in RELEASE_FIELDS:
            if field == "pricing":
                _inherit_prices(group)
                continue
            found = _release_value(group, field)
            if found is None:
                disagreements.append((release, field, _stated(group, field)))
                continue
            value, sibling = found
            if sibling is None:
                continue
            for record in group:
                if record is sibling or _field_value(record, field) == value:
                    continue
                _fill(record, sibling, field)
    return disagreements


def release_disagreements(records: list[dict]) -> list[tuple[str, str, dict]]:
    """inherit_release's disagreements, read without changing a record: (release, field, {model id: value}) where
    the configurations of a release that state a field (prices aside) do not agree. The same before inheritance
    and after it (a disputed field is never filled, and filling one field changes no other's), so `sitegen
    validate` asks the records the build takes without running inherit_release over them again."""
    by_release: dict[str, list[dict]] = {}
    for record in records:
        by_release.setdefault(record["release"], []).append(record)
    return [
        (release, field, _stated(group, field))
        for release, group in sorted(by_release.items())
        if len(group) > 1
        for field in RELEASE_FIELDS
        if field != "pricing" and _release_value(group, field) is None
    ]


def _stated(group: list[dict], field: str) -> dict[str, object]:
    """{model id: value} of the configurations of a release that state `field`."""
    return {r["model"]: _field_value(r, field) for r in group if _field_value(r, field) is not None}


def _inherit_prices(group: list[dict]) -> None:
    """A configuration without a list price takes the one its release's priced configurations of the same mode
    agree on (all of them when its own mode is not known): vendors may price thinking apart (Qwen3's thinking
    output costs three times its non-thinking output), so a reasoning price never reaches a non-reasoning
    configuration or the other way round."""
    priced = [r for r in group if _field_value(r, "pricing") is not None]
    for record in group:
        if _field_value(record, "pricing") is not None:
            continue
        mode = record.get("reasoning")
        donors = [r for r in priced if mode is None or r.get("reasoning") == mode]
        if donors and all(_field_value(r, "pricing") == _field_value(donors[0], "pricing") for r in donors):
            _fill(record, donors[0], "pricing")


def _fill(record: dict, sibling: dict, field: str) -> None:
    via = (sibling.get("provenance") or {}).get(field)
    if field == "parameters":
        record["total_b"], record["active_b"] = sibling["total_b"], sibling["active_b"]
    elif field == "pricing":
        for key in ("input_per_mtok", "output_per_mtok", "pricing_as_of", "pricing_source"):
            record[key] = sibling[key]
        via = {"by": "source", "source": sibling["pricing_source"]} if sibling["pricing_source"] else None
    else:
        record[field] = sibling[field]
    record.setdefault("provenance", {})[field] = {"by": "release", "from": sibling["model"], "via": via}
    if field in FIELDS:  # the record's `<field>_source` column (pricing keeps the price's own source)
        record[f"{field}_source"] = sibling["model"]
