"""JSON Schema checks of each data file, turned into problems at the line and column of the offending value.

jsonschema-rs answers whether a file is valid; jsonschema, imported only when one is not (or a validator is asked
for), says why: a run over valid files imports no jsonschema (tests/test_validation_records.py)."""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Iterator
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..problems import Problem, field_path
from . import kinds

if TYPE_CHECKING:
    import jsonschema
    import jsonschema_rs
    from jsonschema.exceptions import ValidationError

    from .load import Doc, RawFile

SCHEMA_FOR_KIND = {
    "model": "model.schema.json",
    "imported": "imported.schema.json",
    "overrides": "overrides.schema.json",
    "sources": "sources.schema.json",
    "benchmarks": "benchmarks.schema.json",
    "index": "index.schema.json",
    "ignore": "ignore.schema.json",
    "identity": "identity.schema.json",
    "citation": "citation.schema.json",
    "metadata": "metadata.schema.json",
    "raw": "raw.schema.json",  # one row of a per-question .jsonl file
    "site": "site.schema.json",
    "interchange-names": "interchange-names.schema.json",
}
MAX_PER_FILE = 50


def schema_text(name: str) -> str:
    return resources.files("sitegen").joinpath("schemas", name).read_text(encoding="utf-8")


@functools.cache
def model_id_pattern() -> tuple[re.Pattern, int]:
    """The schema's model id rule (model.schema.json#/$defs/model_id): its pattern and maxLength."""
    rule = json.loads(schema_text("model.schema.json"))["$defs"]["model_id"]
    return re.compile(rule["pattern"]), int(rule["maxLength"])


@functools.cache
def _schemas() -> dict[str, Any]:
    """Every schema's contents by its file name and by its $id: what a $ref names."""
    folder = resources.files("sitegen").joinpath("schemas")
    found = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".schema.json"):
            contents = json.loads(entry.read_text(encoding="utf-8"))
            found[entry.name] = contents
            if "$id" in contents:
                found[contents["$id"]] = contents
    return found


def inline_refs(schema: Any, base: str, depth: int = 0) -> Any:
    """The schema with every $ref replaced by what it points to, so validation needs no reference lookups.

    Our schemas are not recursive; a $ref with sibling keywords becomes an allOf, as Draft 2020-12 reads it.
    """
    if depth > 20:
        raise ValueError("schema references nest too deeply")
    if isinstance(schema, list):
        return [inline_refs(item, base, depth) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        key: (value if key in ("enum", "const") else inline_refs(value, base, depth))
        for key, value in schema.items()
        if key not in ("$ref", "$defs", "$id", "$schema")
    }
    ref = schema.get("$ref")
    if ref is None:
        return out
    file, _, pointer = ref.partition("#")
    file = file or base
    target = _schemas()[file]
    for part in [p for p in pointer.split("/") if p]:
        target = target[part]
    resolved = inline_refs(target, file, depth + 1)
    if not out:
        return resolved
    out.setdefault("allOf", []).insert(0, resolved) if "allOf" in out else out.update(allOf=[resolved])
    return out


@functools.cache
def validator(kind: str) -> jsonschema.protocols.Validator:
    """One compiled validator per kind of file, built once, with references inlined."""
    import jsonschema

    name = SCHEMA_FOR_KIND[kind]
    schema = _schemas()[name]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # A count, seed or precision written 4.0 (or -0.0) would reach range() and Decimal.scaleb as a float:
    # "integer" means a whole number written without a decimal point.
    strict = cls.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return jsonschema.validators.extend(cls, type_checker=strict)(inline_refs(schema, name))


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific errors under a oneOf/anyOf/allOf, as Altair's schema reporting does."""
    if error.context:
        from jsonschema.exceptions import best_match

        best = best_match(error.context)
        if best is not None and best.context:
            yield from _leaves(best)
            return
        if best is not None:
            yield best
            return
    yield error


def _allowed_properties(error: ValidationError) -> list[str]:
    """The field names the failing keyword allows in its object: `properties` beside additionalProperties; under
    unevaluatedProperties also what every applied subschema declares (allOf, anyOf, oneOf, and of an if/then/else
    the branch the object takes), so a field of another branch (another index kind's, say) is unknown here."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties":
        return sorted(schema.get("properties", {}))
    return sorted(_property_names(schema, 0, error.instance))


def _property_names(schema: Any, depth: int, instance: Any = None) -> set[str]:
    """Every property name a schema (with its allOf/if-then branches and references) declares; given the
    instance, of an if/then/else only the branch the instance takes."""
    if not isinstance(schema, dict) or depth > 8:
        return set()
    names = set(schema.get("properties", {}))
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []):
            names |= _property_names(sub, depth + 1, instance)
    if instance is None or "if" not in schema:
        branches = [schema.get("then"), schema.get("else")]
    else:
        branches = [schema.get("then") if _holds(schema["if"], instance) else schema.get("else")]
    for branch in branches:
        names |= _property_names(branch, depth + 1, instance)
    ref = schema.get("$ref")
    if ref:
        file, _, pointer = ref.partition("#")
        try:
            doc = _schemas()[file] if file else None
            if doc is None:
                return names
            for part in [p for p in pointer.split("/") if p]:
                doc = doc[part]
            names |= _property_names(doc, depth + 1, instance)
        except (KeyError, TypeError, LookupError):
            pass
    return names


def _holds(condition: Any, instance: Any) -> bool:
    """Whether an `if` subschema (references inlined) accepts the instance."""
    import jsonschema

    return bool(jsonschema.Draft202012Validator(condition).is_valid(instance))


def _owners(schema: Any, key: str, depth: int = 0) -> list[str]:
    """The conditions under which a branch of the schema declares `key`, as `field: value` (the index kinds, say)."""
    if not isinstance(schema, dict) or depth > 8:
        return []
    out = []
    for sub in schema.get("allOf", []):
        out += _owners(sub, key, depth + 1)
    if key in _property_names(schema.get("then"), depth + 1):
        for field, rule in (schema.get("if", {}).get("properties") or {}).items():
            values = [rule["const"]] if "const" in rule else rule.get("enum", [])
            out += [f"{field}: {value}" for value in values]
    return out


def _describe(value: object) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"text '{shown}'"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "nothing (null)"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return "a list" if isinstance(value, list) else "a mapping"


_TYPE_HINTS = {
    ("number", str): "write a plain number without quotes, %, $ or units",
    ("integer", str): "write a whole number without quotes",
    ("integer", float): "write a whole number without a decimal point",
    ("string", int): 'quote it, e.g. "2025-08"; unquoted it is read as a number',
    ("string", float): "quote it; unquoted it is read as a number (3.10 would become 3.1)",
    ("string", bool): "quote it; unquoted true/false are booleans",
    ("boolean", str): "write true or false without quotes",
    ("array", dict): "use a list: each item on its own line starting with '- '",
    ("object", list): "use a mapping of field names to values",
}


class Located(Protocol):
    """Where a file's values are: a load.Doc, or a _Row of a per-question file."""

    @property
    def path(self) -> str: ...

    def mark(self, *json_path: str | int) -> tuple[int, int]: ...

    def value_mark(self, *json_path: str | int) -> tuple[int, int]: ...


def _problems_for(error: ValidationError, doc: Located) -> list[Problem]:
    """The problems one schema error stands for, each at its value (an unknown or missing field: at its key)."""
    path = list(error.absolute_path)
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        # Every key is declared: under unevaluatedProperties a failing sibling keyword (a bad url, say) drops its
        # annotations, so the keys it covered look unevaluated. That keyword's own error is the one to show.
        return _unknown_fields(error, doc, path)
    if error.validator == "required":
        return _missing_fields(error, doc, path)
    line, col = doc.value_mark(*path)
    message, hint = _value_message(error, path)
    return [Problem(doc.path, line, col, field_path(path), message, hint)]


def _unknown_fields(error: ValidationError, doc: Located, path: list[str | int]) -> list[Problem]:
    instance: dict[str, Any] = error.instance if isinstance(error.instance, dict) else {}
    allowed = _allowed_properties(error)
    known = set(allowed)
    out = []
    for key in sorted(k for k in instance if k not in known):
        line, col = doc.mark(*path, key)
        close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else ("allowed: " + ", ".join(allowed) if allowed else "")
        if owners := _owners(error.schema, key):  # a field of another branch: say whose, then what is allowed
            hint = f"a field only where {' or '.join(owners)}; {hint}"
        shown = key.split("\x00")[0]
        out.append(Problem(doc.path, line, col, field_path(path + [shown]), f"unknown field '{shown}'", hint))
    return out


def _missing_fields(error: ValidationError, doc: Located, path: list[str | int]) -> list[Problem]:
    required = cast(list[str], error.validator_value)  # a `required` keyword's value: the names
    missing = [name for name in required if name not in (cast(Any, error.instance) or {})]
    line, col = doc.mark(*path) if path else getattr(doc, "whole", (1, 1))
    return [
        Problem(doc.path, line, col, field_path(path + [name]), f"missing field '{name}'", "this field is required")
        for name in missing
    ]


_RANGE_WORDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
}
_SIZE_KEYWORDS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties")


def _value_message(error: ValidationError, path: list[str | int]) -> tuple[str, str]:
    """(message, hint) for a value that breaks one keyword of its schema."""
    # the value and the keyword's own value are JSON: any type, checked by the branch that reads them
    keyword, value, rule = error.validator, error.instance, cast(Any, error.validator_value)
    if keyword == "type":
        expected = rule if isinstance(rule, str) else rule[0]
        return f"expected {expected}, got {_describe(value)}", _TYPE_HINTS.get((expected, type(value)), "")
    if keyword == "pattern":
        description = error.schema.get("description", "") if isinstance(error.schema, dict) else ""
        return f"{_describe(value)} is not in the expected form", description or f"must match {rule}"
    if keyword == "enum":
        options = ", ".join(json.dumps(o) if isinstance(o, bool) else str(o) for o in rule)
        return f"{_describe(value)} is not allowed", f"one of: {options}"
    if keyword == "const":
        return f"{_describe(value)} is not allowed", f"the only allowed value is {json.dumps(rule)}"
    if keyword in _RANGE_WORDS:
        return f"{value} is out of range", f"must be {_RANGE_WORDS[keyword]} {rule}"
    if keyword in _SIZE_KEYWORDS:
        words, hint = _size_words(keyword, rule)
        return f"{_describe(value)} {words}", hint
    if keyword == "uniqueItems":
        return "items are repeated", "each entry may appear once"
    if keyword == "oneOf" and path and path[-1] != "":
        return "matches none or several of the allowed forms", "see the schema's description of this field"
    return error.message, ""


def _size_words(keyword: str, limit: int) -> tuple[str, str]:
    """(what is wrong, hint) for a text, list or mapping outside its size limit."""
    return {
        "minLength": (
            "is empty" if limit == 1 else f"is shorter than {limit} characters",
            "write a value or leave the field out",
        ),
        "maxLength": (f"is longer than {limit} characters", "shorten it"),
        "minItems": (f"has fewer than {limit} items", f"give at least {limit}"),
        "maxItems": (f"has more than {limit} items", f"give at most {limit}"),
        "minProperties": ("is empty", "give at least one field or leave it out"),
    }[keyword]


@functools.cache
def fast_validator(kind: str) -> jsonschema_rs.Validator:
    """A compiled jsonschema-rs validator for the same inlined schema: it answers "valid?" ~100x faster.

    Only its yes is used; any file it rejects goes through the Python validator, whose errors carry the paths
    our messages need. tests/test_schema_agreement.py checks both agree on the rejection corpus and the data.
    """
    import jsonschema_rs

    name = SCHEMA_FOR_KIND[kind]
    schema = dict(inline_refs(_schemas()[name], name))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return jsonschema_rs.validator_for(schema)


@functools.cache
def integer_fields(kind: str) -> frozenset[str]:
    """The field names under which kind's schema declares an integer anywhere ("*": also under a name it does not
    list, through additionalProperties and the like, or with no field name at all).

    jsonschema-rs takes 4.0 as an integer, ours does not: a whole float is checked by ours only where an integer
    may be expected. Over-approximated on purpose: every schema node is walked (if/then, not, anyOf included),
    and a node's field is the last `properties` name above it, which is the name of the field it is applied to.
    """
    found: set[str] = set()

    def walk(node: Any, field: str) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, field)
            return
        if not isinstance(node, dict):
            return
        kinds = node.get("type")
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            found.add(field)
        for word, value in node.items():
            if word in ("enum", "const"):
                continue  # values, not schemas
            if word == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    walk(sub, name)
            elif word in (
                "additionalProperties",
                "patternProperties",
                "unevaluatedProperties",
                "propertyNames",
                "dependentSchemas",
            ):
                walk(value, "*")
            else:
                walk(value, field)

    walk(inline_refs(_schemas()[SCHEMA_FOR_KIND[kind]], SCHEMA_FOR_KIND[kind]), "*")
    return frozenset(found)


def _whole_floats(data: Any, fields: frozenset[str], field: str = "*") -> bool:
    """Whether a whole float (4.0) sits under one of these field names (any, when "*" is one of them). A walk with
    a list of what is left to look at, not a call per value: it runs over every file a validation reads."""
    every = "*" in fields
    todo = [(data, field)]
    while todo:
        node, name = todo.pop()
        if isinstance(node, float):
            if node.is_integer() and (every or name in fields):
                return True
        elif isinstance(node, dict):
            todo.extend((v, k if isinstance(k, str) else "*") for k, v in node.items())
        elif isinstance(node, list):
            todo.extend((v, name) for v in node)
    return False


def check_doc(doc: Doc) -> list[Problem]:
    """Validate one parsed file against its kind's schema (an index definition as written: data/kinds.py)."""
    data = kinds.as_written(doc.data) if doc.kind == "index" else doc.data
    fast = fast_validator(doc.kind)
    if fast.is_valid(data) and not _whole_floats(data, integer_fields(doc.kind)):
        return []  # (the fast validator takes 4.0 as an integer; a file with one where an integer may be goes through ours)
    found: list[Problem] = []
    silent = []
    for error in validator(doc.kind).iter_errors(data):
        for leaf in _leaves(error):
            problems = _problems_for(leaf, doc)
            if not problems:
                silent.append(leaf)
            found.extend(problems)
    for leaf in silent:  # a failure nothing else explains must still be reported
        field = field_path(list(leaf.absolute_path))
        if not any(p.field.startswith(field) for p in found):
            line, col = doc.mark(*leaf.absolute_path)
            found.append(Problem(doc.path, line, col, field, leaf.message, "this field does not belong here"))
    unique = sorted(set(found))
    if len(unique) > MAX_PER_FILE:
        extra = len(unique) - MAX_PER_FILE
        unique = unique[:MAX_PER_FILE] + [
            Problem(doc.path, 0, 0, "", f"{extra} more problems not shown", "fix the ones above and run again")
        ]
    return unique


class _Row:
    """A row of a .jsonl file where a Doc is expected: every position is the row's line."""

    def __init__(self, path: str, line: int) -> None:
        self.path, self.line, self.whole = path, line, (line, 1)

    def mark(self, *_json_path: str | int) -> tuple[int, int]:
        return self.line, 1

    value_mark = mark


def check_raw(raw: RawFile) -> list[Problem]:
    """Validate each row of a per-question file (load.RawFile) against raw.schema.json."""
    fast = fast_validator("raw")
    found: list[Problem] = []
    for line, row in raw.rows:
        if fast.is_valid(row) and not _whole_floats(row, integer_fields("raw")):
            continue
        for error in validator("raw").iter_errors(row):
            for leaf in _leaves(error):
                found.extend(_problems_for(leaf, _Row(raw.path, line)))
        if len(found) > MAX_PER_FILE:
            return found[:MAX_PER_FILE] + [
                Problem(raw.path, 0, 0, "", "more problems not shown", "fix the ones above and run again")
            ]
    return found
