"""Alias suggestions: propose which registry model a source name means, for a person to review and apply.

`normalise` folds the spellings sources use for one model ('GPT-5 (high)', 'gpt-5-2025-08-07_high',
'gpt-5-high') onto one key. A suggestion is `match` only when exactly one model has that key; a looser
token-set match is only ever offered as `candidates`, never applied, because a wrong merge is worse than a
missing one. Names nothing resembles get a proposed `new` model.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..data import identity, load
from ..data.registry import Registry, key, model_path, model_text
from .extracts import Extract

DATE = re.compile(r"(?<![0-9])(20\d\d-?[01]\d-?[0-3]\d)(?![0-9])")
SEPARATORS = re.compile(r"[\s_/:()\[\],'’+]+")
NOISE = {"instruct", "it", "bf16", "fp8", "fw", "hf", "latest", "api"}

# Organisation names come from one reviewed table, scores/metadata.yaml's `organizations:` (Registry.organizations):
# a source's developer name is looked up among each entry's name and `aka` spellings.
PREFIXES = (
    (("gpt", "o1", "o3", "o4", "chatgpt", "davinci"), "openai"),
    (("claude",), "anthropic"),
    (("gemini", "gemma"), "google"),
    (("llama", "meta-llama"), "meta"),
    (("qwen", "qwq"), "alibaba"),
    (("deepseek",), "deepseek"),
    (("grok",), "xai"),
    (("mistral", "mixtral", "magistral", "codestral", "devstral", "ministral", "pixtral"), "mistral"),
    (("phi",), "microsoft"),
    (("command",), "cohere"),
    (("nova", "amazon"), "amazon"),
    (("kimi",), "kimi"),
    (("glm",), "zai"),
    (("minimax",), "minimax"),
)


def normalise(name: str) -> str:
    """A comparison key: lower case, dates and serving noise removed, separators unified ('-')."""
    text = key(name).replace("’", "'")
    text = DATE.sub(" ", text)
    text = re.sub(r"(?<=\d)p(?=\d)", ".", text)  # Fireworks writes v3p2 for 3.2
    text = re.sub(r"\bv(?=\d)", "", text)
    tokens = [t for t in SEPARATORS.split(text.replace("-", " ")) if t and t not in NOISE]
    return "-".join(tokens)


def token_set(name: str) -> str:
    return "-".join(sorted(normalise(name).split("-")))


def slug(name: str) -> str:
    """A model id segment from a display name: 'GPT-5 (high)' -> 'gpt-5-high'."""
    text = key(name).replace("’", "").replace("'", "").replace("&", " and ").replace("+", " plus ")
    text = re.sub(r"[^a-z0-9.]+", "-", text).strip("-.")
    return re.sub(r"-{2,}", "-", text)


def organization(name: str, hint: str | None, table: dict[str, dict] | None = None) -> tuple[str, str] | None:
    """(folder id, display name) of a new model's developer: the organisations table's entry whose id, name or
    `aka` spelling is the source's hint, else the entry a name prefix points at (gpt -> openai), else the hint
    itself (a developer the table does not know yet: add it there when you accept the proposal)."""
    table = table or {}
    spelled: dict = {}
    for org_id, entry in table.items():
        for spelling in [org_id, entry.get("name", ""), *(entry.get("aka") or [])]:
            spelled.setdefault(key(spelling), org_id)
    if hint and key(hint) in spelled:
        org_id = spelled[key(hint)]
        return org_id, table[org_id]["name"]
    low = key(name)
    for prefixes, org in PREFIXES:
        if low.startswith(prefixes):
            return org, table.get(org, {}).get("name", org)
    if hint and hint.strip():
        return slug(hint), hint.strip()
    return None


def suggest(ex: Extract, registry: Registry, ignores: list[dict]) -> list[dict]:
    """One proposal per source name that does not resolve to exactly one model."""
    ignored = {i["name"] for i in ignores if i.get("source") == ex.source}
    strong: dict[str, set[str]] = {}
    weak: dict[str, set[str]] = {}
    for mid, data in registry.models.items():
        for alias in [data.get("name", "")] + list(data.get("aliases") or []):
            strong.setdefault(normalise(alias), set()).add(mid)
            weak.setdefault(token_set(alias), set()).add(mid)
    names = sorted({n for n, _ in ex.results} | {n for n, _ in ex.models})
    out = []
    for name in names:
        if name in ignored or len(registry.match(name, ex.source)) == 1:
            continue
        # marked until a person has checked it: `aliases apply` carries the mark into the model file, and
        # `aliases audit` lists it until a reviewer deletes it (there or here)
        entry: dict = {"source": ex.source, "name": name, "unreviewed": True}
        hint = ex.hints.get(name, {})
        if hint.get("display"):
            entry["display"] = hint["display"]
        hits = sorted(strong.get(normalise(name), ()))
        if hint.get("display") and not hits:
            hits = sorted(strong.get(normalise(hint["display"]), ()))
        if len(hits) == 1:
            entry["match"] = hits[0]
        elif hits:
            entry["candidates"] = hits
        else:
            loose = sorted(weak.get(token_set(name), ()))
            if loose:
                entry["candidates"] = loose
            else:
                org = organization(name, hint.get("organization"), registry.organizations)
                display = hint.get("display") or name
                if org:
                    entry["new"] = {"id": f"{org[0]}/{slug(display)}", "name": display, "organization": org[1]}
        out.append(entry)
    return out


def _identity(root: Path) -> dict:
    data = load.read_yaml(root, "scores/identity.yaml")
    return data if isinstance(data, dict) else {}


def _id_refused(mid) -> None:
    """An id that is to become a path must be a model id by the schema's pattern (data/load.model_id_problems)."""
    problems = load.model_id_problems(mid) if isinstance(mid, str) else load.model_id_problems(repr(mid))
    if problems:
        raise ValueError(problems[0].format())


def _rel(mid: str) -> str:
    return model_path(Path("."), mid).as_posix()


def _commit(root: Path, changes: dict[str, bytes | None]) -> list[str]:
    """Write `changes` (path below the root -> new bytes, None: removed), all or nothing: each path must lie below
    scores/ and reach no link, and the repository as it would be must bring no new validation error (checked on
    a copy before any file is replaced). Returns the files changed; a refusal is a ValueError, nothing written."""
    from ..data import new_errors
    from ..paths import PathRefused
    from ..write import replace_files

    problems = new_errors(root, changes)
    if problems:
        shown = "\n".join(p.format() for p in sorted(problems)[:20])
        more = f"\n(and {len(problems) - 20} more)" if len(problems) > 20 else ""
        raise ValueError(f"the change would leave the repository invalid; nothing written:\n{shown}{more}")
    try:
        return replace_files(root, changes, under=("scores/",))
    except PathRefused as exc:
        raise ValueError(f"{exc}; nothing written") from None


def scoped_here(name: str, mid: str, models: dict[str, dict], rules: list) -> bool:
    """Whether `name` may only be a source alias of `mid`: a bare name (no effort word) that would pin a
    configuration of a release with others, or an effort, that the vendor's default (scores/identity.yaml
    vendor_defaults rules) does not give it."""
    from . import defaults

    if not defaults.is_bare(name):
        return False
    data = models[mid]
    release = str(data.get("release") or mid)
    siblings = [d for o, d in models.items() if o != mid and str(d.get("release") or o) == release]
    claim = defaults.claims(data, siblings)
    rule = defaults.rule_for(rules, release)
    return claim is not None and (rule is None or rule.configuration != claim)


def _proposal_model(p: dict, name: str, registry: Registry) -> tuple[str, dict] | None:
    """The model a proposal names, `(id, data)`: its `match`, or its `new` model (created in `registry` unless
    it is there already); None for a proposal with neither (left for later)."""
    if p.get("match"):
        mid = p["match"]
        _id_refused(mid)
        if mid not in registry.models:
            raise ValueError(f"{name!r}: no model {mid}")
        return mid, registry.models[mid]
    if not p.get("new"):
        return None
    new = p["new"]
    if not isinstance(new, dict) or not all(isinstance(new.get(k), str) for k in ("id", "name", "organization")):
        raise ValueError(f"{name!r}: `new` needs an id, a name and an organization")
    mid = new["id"]
    _id_refused(mid)
    data = registry.models.get(mid) or {
        **{k: new[k] for k in ("id", "name", "organization")},
        **identity.propose(mid, new["name"]),
    }
    registry.models[mid] = data
    return mid, data


def _names_to_add(p: dict, mid: str, data: dict, models: dict[str, dict], rules: list) -> tuple[list[str], list[str]]:
    """The proposal's names model `mid` does not have yet: `(global aliases, source aliases of p's source)`."""
    aliases = data.get("aliases") or []
    scoped = data.get("source_aliases") or []
    extra = [
        n
        for n in (p["name"], p.get("display") if p.get("add_display") else None)
        if n and key(n) != key(data["name"]) and key(n) not in {key(a) for a in aliases}
    ]
    local = [
        n
        for n in extra
        if p.get("source")
        and scoped_here(n, mid, models, rules)
        and (p["source"], key(n)) not in {(e["source"], key(e["name"])) for e in scoped}
    ]
    extra = [n for n in extra if not (p.get("source") and scoped_here(n, mid, models, rules))]
    return extra, local


def _add_names(data: dict, extra: list[str], local: list[str], source: str | None) -> None:
    """Give `data` the global aliases `extra` and the source aliases `local` (of `source`)."""
    aliases = list(data.get("aliases") or [])
    data["aliases"] = sorted(aliases + extra, key=key) if aliases + extra else None
    if data.get("aliases") is None:
        data.pop("aliases")
    if local:
        data["source_aliases"] = list(data.get("source_aliases") or []) + [
            {
                "source": source,
                "name": n,
                "notes": "A bare name that pins this configuration at this "
                "source only (no vendor_defaults rule gives it); the evidence goes here.",
            }
            for n in local
        ]


def apply(root: Path, proposals: list[dict]) -> list[str]:
    """Add each reviewed proposal's name as an alias of its `match`, or create its `new` model. Scoped by
    default: a bare name that pins a configuration the vendor default does not becomes a `source_aliases`
    entry of the proposal's source, not a global alias."""
    from . import defaults

    root = Path(root)
    registry = Registry.load(root)
    rules = defaults.rules(_identity(root))
    done = []
    changes: dict[str, bytes | None] = {}
    for p in proposals:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise ValueError(f"a proposal needs a name: {p!r}")
        target = _proposal_model(p, p["name"], registry)
        if target is None:
            continue
        mid, data = target
        extra, local = _names_to_add(p, mid, data, registry.models, rules)
        exists = model_path(root, mid).exists() or _rel(mid) in changes
        if not (extra or local or not exists):
            continue
        if p.get("unreviewed"):
            data["unreviewed"] = True
        _add_names(data, extra, local, p.get("source"))
        changes[_rel(mid)] = model_text(data).encode("utf-8")
        added = extra + [f"{n} (at {p['source']})" for n in local]
        done.append(f"{mid}: {', '.join(added) or '(new)'}")
    if changes:
        _commit(root, changes)
    return done


def dump(proposals: list[dict]) -> str:
    return yaml.safe_dump({"proposals": proposals}, sort_keys=False, allow_unicode=True, width=1000)


def _repoint(root: Path, old: str, new: str, changes: dict[str, bytes | None]) -> None:
    """Point the rows and references naming `old` at `new`, in `changes`: imported and override rows
    (`model: old`), and in scores/metadata.yaml and scores/identity.yaml every value that is exactly `old` (a
    `match` list entry, a `distinct` pair, an `unresolved` model; a glob pattern is left as it is, and prose
    that mentions the id is not a reference)."""
    rows = re.compile(rf"^(\s*-?\s*model: ){re.escape(old)}$", re.MULTILINE)
    values = re.compile(
        rf"((?:^|[\[,])[ \t]*|(?:^[ \t]*-|:)[ \t]+)([\"']?){re.escape(old)}\2(?=[ \t]*(?:[\],]|#|$))", re.MULTILINE
    )
    files = [(p.relative_to(root).as_posix(), rows) for p in sorted((root / "scores").glob("imported/*.yaml"))]
    files += [("scores/overrides.yaml", rows), ("scores/metadata.yaml", values), ("scores/identity.yaml", values)]

    def repointed(m: re.Match[str]) -> str:
        quote = m.group(2) if m.re is values else ""  # a value keeps its quotes; a row's `model:` has none
        return m.group(1) + quote + new + quote

    for rel, pattern in files:
        if not (root / rel).exists():
            continue
        raw = load.read_data(root / rel, root)
        if raw is None:
            raise ValueError(f"{rel}: cannot be read (a link, not a regular file, or too large); nothing written")
        text = raw.decode("utf-8")
        new_text = pattern.sub(repointed, text)
        if new_text != text:
            changes[rel] = new_text.encode("utf-8")


def rename(root: Path, old: str, new: str, organization: str | None = None) -> list[str]:
    """Give model `old` the id `new`; the old id goes under former_ids (its page redirects). Returns the files
    changed.

    A rename into another organisation folder (a fine-tune filed under its base model's developer) needs the new
    organisation's display name, `organization`, and moves the release with it (`<new org>/<release slug>`); it
    is refused while another configuration still names the old release, which would split the release.
    """
    root = Path(root)
    _id_refused(new)
    registry = Registry.load(root)
    if old not in registry.models or new in registry.models:
        raise ValueError(f"rename needs an existing model {old!r} and a free id {new!r}")
    old_org, new_org = old.split("/")[0], new.split("/")[0]
    data = dict(registry.models[old], id=new)
    if new_org != old_org:
        if not organization:
            raise ValueError(
                f"{new} is in another organisation than {old}: give the new organisation's name (--organization)"
            )
        release = str(data.get("release") or old)
        siblings = sorted(
            mid for mid, other in registry.models.items() if mid != old and other.get("release") == release
        )
        if siblings:
            raise ValueError(
                f"{', '.join(siblings)} also belong to release {release}: rename every configuration of "
                "a release, or none"
            )
        data["organization"] = organization
        data["release"] = f"{new_org}/{release.split('/', 1)[1]}" if release.startswith(f"{old_org}/") else release
    elif organization:
        raise ValueError("--organization is only for a rename into another organisation")
    data["former_ids"] = sorted(set(data.get("former_ids") or []) | {old})
    changes: dict[str, bytes | None] = {_rel(new): model_text(data).encode("utf-8"), _rel(old): None}
    _repoint(root, old, new, changes)
    return _commit(root, changes)


def _merge_names(src: dict, dst: dict) -> None:
    """Give model `dst` the display name, aliases and source aliases of `src` that it does not have yet."""
    taken = {key(dst["name"])} | {key(a) for a in dst.get("aliases") or []}
    aliases = list(dst.get("aliases") or [])
    for name in [src["name"], *(src.get("aliases") or [])]:
        if key(name) not in taken:
            aliases.append(name)
            taken.add(key(name))
    if aliases:
        dst["aliases"] = sorted(aliases, key=key)
    held = {(e["source"], key(e["name"])) for e in dst.get("source_aliases") or []}
    moved = [e for e in src.get("source_aliases") or [] if (e["source"], key(e["name"])) not in held]
    if moved:
        dst["source_aliases"] = list(dst.get("source_aliases") or []) + moved


def merge(root: Path, old: str, into: str) -> list[str]:
    """Merge model `old` into `into`: one configuration entered twice becomes one file.

    `into` gains old's display name, aliases and source aliases (so re-imports resolve to it), its results, and
    `old` (with old's own former ids) under `former_ids`; old's file is removed; imported and override rows
    naming `old` are pointed at `into`. Returns the files changed.
    """
    root = Path(root)
    _id_refused(into)
    registry = Registry.load(root)
    if old not in registry.models or into not in registry.models or old == into:
        raise ValueError(f"merge needs two different existing models, got {old!r} and {into!r}")
    src, dst = registry.models[old], registry.models[into]
    _merge_names(src, dst)
    former = [f for f in (dst.get("former_ids") or []) if f != old]
    dst["former_ids"] = sorted(set(former) | {old} | set(src.get("former_ids") or []))
    if src.get("results"):  # a result both files give, word for word, is kept once
        kept = list(dst.get("results") or [])
        dst["results"] = kept + [r for r in src["results"] if r not in kept]
    changes: dict[str, bytes | None] = {_rel(into): model_text(dst).encode("utf-8"), _rel(old): None}
    _repoint(root, old, into, changes)
    return _commit(root, changes)
