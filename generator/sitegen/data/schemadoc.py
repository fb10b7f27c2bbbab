"""The JSON Schemas as Markdown for a site page: one table per kind of file (field, type, required, description)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from importlib import resources

from . import schema

#: Section order and the file each kind of schema describes.
FILES = (
    ("model", "scores/models/<org>/<model>.yaml"),
    ("sources", "scores/sources.yaml"),
    ("benchmarks", "methodology/benchmarks.yaml"),
    ("overrides", "scores/overrides.yaml"),
    ("imported", "scores/imported/<source>.yaml"),
    ("index", "methodology/indices/<id>.yaml"),
    ("site", "methodology/site.yaml"),
    ("interchange-names", "methodology/interchange-names.yaml"),
)
MAX_DEPTH = 6

#: schema_markdown's text by the digest of the schema files it was made from (_schemas_digest): the page depends on
#: them only (and on this code, fixed for the life of a process), so a process makes it once per version of them
_MADE: dict[str, str] = {}


def _load(name: str) -> dict:
    return json.loads(schema.schema_text(name))


def _resolve(node: dict, current: str) -> tuple[dict, str, str | None]:
    """Follow $ref (within a file or to another schema file): the target, its file, and the definition's name."""
    name = None
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 10:
        seen += 1
        file, _, pointer = node["$ref"].partition("#")
        file = file or current
        target = _load(file)
        for part in [p for p in pointer.split("/") if p]:
            target = target[part]
        name = pointer.rsplit("/", 1)[-1] if pointer else None
        merged = {k: v for k, v in node.items() if k != "$ref"}
        combined = {**target, **merged}
        if "properties" in target and "properties" in merged:  # a $ref'd base plus fields of its own
            combined["properties"] = {**target["properties"], **merged["properties"]}
        if "required" in target or "required" in merged:
            combined["required"] = list(dict.fromkeys([*target.get("required", []), *merged.get("required", [])]))
        node = combined
        current = file
    return node, current, name


def _type(node: dict, ref_name: str | None) -> str:
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{json.dumps(v) if isinstance(v, bool) else v}`" for v in node["enum"])
    kind = node.get("type")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        items = node.get("items") or {}
        inner = _type(*_resolve(items, "")[::2]) if "$ref" not in items else None
        if "$ref" in items:
            target, _, name = _resolve(items, _current_file[0])
            inner = _type(target, name)
        return f"list of {inner}" if inner else "list"
    if kind is None and "allOf" in node:
        for part in node["allOf"]:
            target, _, name = _resolve(part, _current_file[0])
            if target.get("type"):
                return _type(target, name)
    text = kind or "any"
    if ref_name and ref_name not in ("result", "pricing", "parameters"):
        text += f" ({ref_name.replace('_', ' ')})"
    return text


_current_file = [""]


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _describe(node: dict) -> str:
    parts = []
    if node.get("description"):
        parts.append(node["description"])
    limits = []
    for key, word in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
        if key in node:
            limits.append(f"{word} {node[key]}")
    if limits:
        parts.append("Range: " + ", ".join(limits) + ".")
    if "default" in node:
        parts.append(f"Default: `{json.dumps(node['default'])}`.")
    return _cell(" ".join(parts))


def _object_props(node: dict, file: str) -> tuple[dict, set]:
    """Properties and required names of an object schema, including those of allOf parts and a $ref'd base."""
    node, file, _ = _resolve(node, file)
    props = dict(node.get("properties", {}))
    required = set(node.get("required", []))
    for part in node.get("allOf", []):
        if "if" in part:
            continue
        target, _, _ = _resolve(part, file)
        props.update(target.get("properties", {}))
        required |= set(target.get("required", []))
    return props, required


def _rows(node: dict, file: str, prefix: str, depth: int, rows: list) -> None:
    props, required = _object_props(node, file)
    for key in props:
        target, target_file, ref_name = _resolve(props[key], file)
        _current_file[0] = target_file
        field = f"{prefix}{key}"
        rows.append((field, _type(target, ref_name), "yes" if key in required else "", _describe(target)))
        if depth >= MAX_DEPTH:
            continue
        if target.get("type") == "object" and target.get("properties"):
            _rows(target, target_file, field + ".", depth + 1, rows)
        elif target.get("type") == "array":
            items, items_file, _ = _resolve(target.get("items") or {}, target_file)
            if items.get("type") == "object" or items.get("properties"):
                _rows(items, items_file, field + "[].", depth + 1, rows)
        elif "allOf" in target:  # e.g. a $ref'd object with extra required fields
            _rows(target, target_file, field + ".", depth + 1, rows)


def _table(rows: Iterable[Sequence[object]]) -> list[str]:
    out = ["| field | type | required | description |", "|---|---|---|---|"]
    out += [f"| `{f}` | {_cell(t)} | {r} | {d} |" for f, t, r, d in rows]
    return out


def _schemas_digest() -> str:
    """SHA-256 over every schema file's name and text, as _load reads them (a $ref may lead to any of them)."""
    names = sorted(e.name for e in resources.files("sitegen").joinpath("schemas").iterdir() if e.name.endswith(".json"))
    digest = hashlib.sha256()
    for name in names:
        digest.update(f"{name}\0{schema.schema_text(name)}\0".encode())
    return digest.hexdigest()


def schema_markdown() -> str:
    """Every JSON Schema as Markdown: per kind of file, a table of its fields (nested fields dotted, list items []).
    Made once per version of the schema files in a process (_MADE): a build, and each build `sitegen serve` makes,
    takes it from there unless a schema changed."""
    before = _schemas_digest()
    made = _MADE.get(before)
    if made is None:
        made = _markdown()
        if _schemas_digest() == before:  # kept only when no schema changed while it was made
            _MADE.clear()  # one version kept: the schemas as they are now
            _MADE[before] = made
    return made


def _markdown() -> str:
    """schema_markdown's text, made from the schema files."""
    lines = [
        "# Data file reference",
        "",
        "Generated from the JSON Schemas in `generator/sitegen/schemas/`, the single source of truth for the "
        "shape of every data file. Nested fields are written with dots, list items with `[]`.",
        "",
    ]
    listed = dict(FILES)
    kinds = [(k, w) for k, w in FILES if k in schema.SCHEMA_FOR_KIND]
    kinds += [(k, "") for k in schema.SCHEMA_FOR_KIND if k not in listed]
    for kind, where in kinds:
        name = schema.SCHEMA_FOR_KIND[kind]
        doc = _load(name)
        lines += [
            f"## {doc.get('title', name)}",
            "",
            (f"File: `{where}`. " if where else "") + f"Schema: `{name}`.",
            "",
        ]
        if doc.get("description"):
            lines += [_cell(doc["description"]), ""]
        rows: list = []
        _rows(doc, name, "", 0, rows)
        lines += _table(rows) + [""]
        branches = [part for part in doc.get("allOf", []) if "if" in part and "then" in part]
        for part in branches:
            kind = part["if"].get("properties", {}).get("kind", {})
            names = " or ".join(f"`kind: {k}`" for k in kind.get("enum") or [kind.get("const")])
            target, target_file, _ = _resolve(part["then"], name)
            sub: list = []
            _rows(target, target_file, "", 0, sub)
            if sub:
                lines += [f"### {names}", "", *_table(sub), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
