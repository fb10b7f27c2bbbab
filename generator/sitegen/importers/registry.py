"""The model registry as importers see it: scores/models/<org>/<model>.yaml, indexed by name and aliases."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import yaml

MODEL_HEADER = "# yaml-language-server: $schema=../../../generator/sitegen/schemas/model.schema.json\n"
# Key order of a model file as people read it; anything else follows alphabetically.
MODEL_KEY_ORDER = (
    "id",
    "name",
    "release",
    "effort",
    "reasoning",
    "former_ids",
    "organization",
    "base_model",
    "family",
    "released",
    "weights",
    "parameters",
    "context_window",
    "licence",
    "pricing",
    "aliases",
    "source_aliases",
    "results",
)


# A snapshot's source id ends in its date ('aa-tokens-2026-07'); without it, the source family ('aa-tokens').
SNAPSHOT_DATE = re.compile(r"-\d{4}-\d{2}(?:-\d{2})?$")


def key(name: str) -> str:
    """How a source name is compared with an alias: exact text, case and outer spaces ignored."""
    return " ".join(str(name).split()).casefold()


@dataclasses.dataclass
class Registry:
    models: dict[str, dict]  # id -> parsed model file
    index: dict[str, set[str]]  # key(name or alias) -> ids
    scoped: dict[tuple[str, str], set[str]] = dataclasses.field(default_factory=dict)  # (source, key) -> ids
    # scores/metadata.yaml's organisations table: folder id -> {"id", "name", "aka"}, in file order
    organizations: dict[str, dict] = dataclasses.field(default_factory=dict)
    # (source family, key) -> the dated snapshots that scope that name, oldest first
    snapshots: dict[tuple[str, str], list[str]] = dataclasses.field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> Registry:
        from ..data import load, yamlstrict

        base = Path(root) / "scores" / "models"
        models: dict[str, dict] = {}
        for path in load.input_files(Path(root)):  # the loader's files, read by its rules (no links, no FIFOs)
            if path.parent.parent != base or path.suffix != ".yaml":
                continue
            raw = load.read_data(path, Path(root), yamlstrict.MAX_BYTES)
            if raw is None:  # a link, FIFO or device: validate reports it
                continue
            parsed = yamlstrict.parse(raw, path.name)[0]
            data = parsed.data if parsed is not None else {}
            models[str(data.get("id") or path.relative_to(base).with_suffix("").as_posix())] = data
        return cls.build(models, organizations_table(root))

    @classmethod
    def build(cls, models: dict[str, dict], organizations: dict[str, dict] | None = None) -> Registry:
        index: dict[str, set[str]] = {}
        for mid, data in models.items():
            for name in [data.get("name", "")] + list(data.get("aliases") or []):
                if name:
                    index.setdefault(key(name), set()).add(mid)
        scoped: dict[tuple[str, str], set[str]] = {}
        for mid, data in models.items():
            for entry in data.get("source_aliases") or []:
                scoped.setdefault((entry["source"], key(entry["name"])), set()).add(mid)
        snapshots: dict[tuple[str, str], list[str]] = {}
        for source, name_key in sorted(scoped):
            family = SNAPSHOT_DATE.sub("", source)
            if family != source:
                snapshots.setdefault((family, name_key), []).append(source)
        return cls(models, index, scoped, dict(organizations or {}), snapshots)

    def match(self, name: str, source: str | None = None) -> list[str]:
        """The ids whose name or aliases equal `name` (case-insensitively); several means ambiguous.

        An alias scoped to `source` (a model file's `source_aliases`) wins over the global names: it is how a
        name that means different models at different sources ('Command-R') is attributed at one of them. A new
        snapshot of a source (`sitegen fetch` names it '<family>-<date>') inherits the scoping of the newest
        earlier snapshot of that family.
        """
        if source is not None and (source, key(name)) in self.scoped:
            return sorted(self.scoped[(source, key(name))])
        if source is not None and SNAPSHOT_DATE.search(source):
            # a later snapshot of a source lists its names as the newest earlier snapshot that scoped them does
            # (a fetched 'aa-tokens-2026-11' reads AA's slugs as 'aa-tokens-2026-07' did); an older one does not
            earlier = [s for s in self.snapshots.get((SNAPSHOT_DATE.sub("", source), key(name)), ()) if s < source]
            if earlier:
                return sorted(self.scoped[(earlier[-1], key(name))])
        return sorted(self.index.get(key(name), ()))

    def organization_slug(self, mid: str) -> str:
        return mid.split("/", 1)[0]


def organizations_table(root: Path) -> dict[str, dict]:
    """scores/metadata.yaml's `organizations:` as folder id -> entry (empty without the file or the table)."""
    from ..data import load, yamlstrict

    path = Path(root) / "scores" / "metadata.yaml"
    raw = load.read_data(path, Path(root), yamlstrict.MAX_BYTES) if path.is_file() else None
    parsed = yamlstrict.parse(raw, path.name)[0] if raw is not None else None
    entries = (parsed.data or {}).get("organizations") if parsed is not None and isinstance(parsed.data, dict) else None
    return {e["id"]: e for e in entries or [] if isinstance(e, dict) and isinstance(e.get("id"), str)}


def model_text(data: dict) -> str:
    """A model file's text in the house order, with the schema comment first."""
    ordered = {k: data[k] for k in MODEL_KEY_ORDER if k in data}
    ordered.update({k: data[k] for k in sorted(data) if k not in ordered})
    body = yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)
    return MODEL_HEADER + body


def model_path(root: Path, mid: str) -> Path:
    return Path(root) / "scores" / "models" / f"{mid}.yaml"


def write_model(root: Path, data: dict) -> Path:
    """Replace one model file atomically; its id must be a model id (no other path) and no link below the root
    is written through (paths.py)."""
    from ..data import load
    from ..write import replace_file

    problems = load.model_id_problems(data["id"])
    if problems:
        raise ValueError(problems[0].format())
    path = model_path(root, data["id"])
    replace_file(path, model_text(data).encode("utf-8"), root=root)
    return path
