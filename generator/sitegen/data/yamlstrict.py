"""A strict YAML reader: plain data with line marks, and a problem for every construct we refuse.

PyYAML's loaders accept far more than a contributor should write (duplicate keys keep the last value,
`no` becomes False, `012` becomes 10, aliases can expand to gigabytes, tags build arbitrary objects).
We read the parser's event stream instead and build the data ourselves, so every value keeps the
line and column it came from and every refusal is a Problem rather than an exception.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

import yaml

from ..problems import Problem, field_path

try:  # libyaml's parser is non-recursive and ~8x faster; fall back to the pure-Python one.
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader

MAX_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 32
# The longest integer a data file may spell out: past 15 digits a float no longer holds it exactly, and no count,
# price or score in this project comes near. The per-file schemas set each field's own, much lower, ceiling.
MAX_INT_DIGITS = 15

_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_YAML11_BOOL = {"yes", "no", "on", "off"}
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(?:inf|nan)\Z", re.IGNORECASE)
_NUMBER_START = frozenset("+-.0123456789")
_OTHER_NUMBER = re.compile(r"[-+]?0[xXoObB][0-9a-fA-F_]+\Z|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")

# Text may hold newlines and tabs (block scalars in notes); nothing else that is invisible or reorders text
# (U+2028/U+2029 end a line in JavaScript and some editors but not in YAML).
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")

_SURROGATE = re.compile("[\ud800-\udfff]")

_NODES = frozenset({yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent})
_ENDS = frozenset({yaml.MappingEndEvent, yaml.SequenceEndEvent})

Path = tuple  # a JSON path: keys and list indices from the document root


@dataclasses.dataclass(frozen=True)
class Parsed:
    """A parsed file: its data, where each value starts, and where each mapping key starts."""

    data: object
    marks: dict  # Path -> (line, col) of the value
    key_marks: dict  # Path -> (line, col) of the key naming that value

    def mark(self, path: Path) -> tuple[int, int]:
        """The closest known position for a path: its key if it has one, else the nearest parent."""
        path = tuple(path)
        while path:
            if path in self.key_marks:
                return self.key_marks[path]
            if path in self.marks:
                return self.marks[path]
            path = path[:-1]
        return self.marks.get((), (1, 1))

    def value_mark(self, path: Path) -> tuple[int, int]:
        path = tuple(path)
        return self.marks[path] if path in self.marks else self.mark(path)


def describe_char(ch: str) -> str:
    name = unicodedata.name(ch, "control character")
    return f"U+{ord(ch):04X} {name}"


def _bad_text(value: str) -> str | None:
    if value.isascii() and value.isprintable():  # printable ASCII is U+0020-U+007E: none of the refused characters
        return None
    match = _BAD_CHAR.search(value)
    if match:
        return describe_char(match.group())
    match = _SURROGATE.search(value)
    return f"lone surrogate U+{ord(match.group()):04X}" if match else None


def decode_utf8(raw: bytes, path: str, problems: list[Problem]) -> str | None:
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.append(Problem(path, 1, 1, "", "file starts with a byte-order mark", "save it as UTF-8 without BOM"))
        return None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) > 1 and (raw[0] == 0 or raw[1] == 0)):
        problems.append(Problem(path, 1, 1, "", "file is UTF-16, not UTF-8", "save it as UTF-8"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        problems.append(
            Problem(path, line, col, "", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                    "save the file as UTF-8 (it looks like Latin-1 or another legacy encoding)")
        )
        return None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        problems.append(Problem(path, line, 1, "", "file contains a NUL byte", "save it as UTF-8 text"))
        return None
    return text


def _tabs(text: str, path: str) -> list[Problem]:
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            found.append(Problem(path, number, line.index("\t") + 1, "", "tab in indentation",
                                 "indent with spaces"))
    return found


def _resolve_plain(value: str, where: tuple[int, int], path: str, json_path: tuple, problems: list[Problem]):
    """Type a plain (unquoted) scalar by YAML 1.2's core schema, refusing YAML 1.1 surprises."""
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    lowered = value.lower()
    if lowered in _YAML11_BOOL:
        meant = "true" if lowered in ("yes", "on") else "false"
        problems.append(Problem(path, *where, _field(json_path), f"unquoted '{value}' is a boolean in YAML 1.1",
                                f"write {meant} for a flag, or quote it (\"{value}\") for text"))
        return value
    if value[0] not in _NUMBER_START:  # every number form below starts with a sign, a dot or a digit
        return value
    if _SPECIAL_FLOAT.match(value):
        problems.append(Problem(path, *where, _field(json_path), f"'{value}' is not a finite number",
                                "NaN and infinities are not allowed; leave the value out when unknown"))
        return value
    if _INT.match(value):
        digits = value.lstrip("+-")
        if len(digits) > 1 and digits.startswith("0"):
            problems.append(Problem(path, *where, _field(json_path), f"number '{value}' has a leading zero",
                                    "YAML 1.1 reads it as octal; quote it or drop the zero"))
            return value
        if len(digits) > MAX_INT_DIGITS:
            problems.append(Problem(path, *where, _field(json_path), f"number with {len(digits):,} digits is too long",
                                    f"at most {MAX_INT_DIGITS} digits; check the value"))
            return value
        return int(value)
    if _FLOAT.match(value):
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):
            shown = value if len(value) <= 20 else value[:17] + "..."
            problems.append(Problem(path, *where, _field(json_path), f"'{shown}' is too large to be a finite number",
                                    "NaN and infinities are not allowed; check the exponent"))
            return value
        return number
    if _OTHER_NUMBER.match(value):
        problems.append(Problem(path, *where, _field(json_path), f"'{value}' is read as a number in some YAML versions",
                                "quote it if it is text, or write a plain decimal number"))
        return value
    return value


def _field(path: Path) -> str:
    """The field a parse problem names, cut to 60 characters (a hostile file can nest deeply)."""
    return field_path(path, limit=60)


def parse(raw: bytes, path: str, expect: tuple | None = (dict,)) -> tuple[Parsed | None, list[Problem]]:
    """Parse one YAML file strictly; return (None, problems) when it cannot be read at all.

    `expect` is the type the document must be (a mapping for every data file); None accepts any, for the readers of
    other formats (interchange), which check the shape themselves."""
    problems: list[Problem] = []
    if len(raw) > MAX_BYTES:
        problems.append(Problem(path, 1, 1, "", f"file is {len(raw):,} bytes, over the {MAX_BYTES:,}-byte limit",
                                "split it or remove what does not belong"))
        return None, problems
    text = decode_utf8(raw, path, problems)
    if text is None:
        return None, problems
    tabs = _tabs(text, path)
    if tabs:
        return None, tabs
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return None, [Problem(path, 1, 1, "", "file is empty", "a data file holds one YAML mapping")]

    marks: dict = {}
    key_marks: dict = {}
    root = None
    # Stack of open containers: [container, json_path, pending_key, pending_key_mark, seen_keys]
    stack: list[list] = []
    documents = 0

    def attach(value, event_pos):
        nonlocal root
        if not stack:
            root = value
            marks[()] = event_pos
            return ()
        top = stack[-1]
        container, cpath = top[0], top[1]
        if type(container) is list:
            child = cpath + (len(container),)
            container.append(value)
            marks[child] = event_pos
            return child
        if top[2] is _NO_KEY:  # this value is a key
            raise AssertionError("keys are handled by the caller")
        key, key_pos = top[2], top[3]
        child = cpath + (key,)
        container[key] = value
        marks[child] = event_pos
        key_marks[child] = key_pos
        top[2] = _NO_KEY
        return child

    def refuse_node_extras(event, where):
        anchor, tag = getattr(event, "anchor", None), getattr(event, "tag", None)
        if anchor is None and tag is None:
            return
        field = _field(current_path())
        if anchor:
            problems.append(Problem(path, *where, field, f"anchor '&{event.anchor}' is not allowed",
                                    "write the value out in full; anchors and aliases are refused"))
        tag = getattr(event, "tag", None)
        if tag is not None:  # the parser reports a tag only when one is written out
            problems.append(Problem(path, *where, field, f"tag '{tag}' is not allowed",
                                    "remove the tag; write plain values and quote strings"))

    def current_path() -> Path:
        if not stack:
            return ()
        top = stack[-1]
        if type(top[0]) is dict and top[2] is not _NO_KEY:
            return top[1] + (top[2],)
        if type(top[0]) is list:
            return top[1] + (len(top[0]),)
        return top[1]

    # The events come from libyaml one by one (about 150,000 on the repository's data), so the loop tests each
    # event's exact class, most frequent first; the parser builds events of exactly these classes.
    loader = None
    try:
        loader = _Loader(text)
        while loader.check_event():
            event = loader.get_event()
            cls = type(event)
            start = event.start_mark
            where = (start.line + 1, start.column + 1)
            if cls in _ENDS:
                stack.pop()
                continue
            if cls not in _NODES:
                if cls is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        problems.append(Problem(path, *where, "", "more than one YAML document",
                                                "a data file holds exactly one document; remove the '---' separator"))
                        break
                    if event.version is not None or event.tags:
                        problems.append(Problem(path, *where, "", "YAML directives (%YAML, %TAG) are not allowed",
                                                "remove the directive line"))
                elif cls is yaml.AliasEvent:
                    problems.append(Problem(path, *where, _field(current_path()), f"alias '*{event.anchor}' is not allowed",
                                            "write the value out in full; anchors and aliases are refused"))
                    if stack and type(stack[-1][0]) is dict and stack[-1][2] is _NO_KEY:
                        stack[-1][2] = _ALIAS_KEY
                        stack[-1][3] = where
                    else:
                        attach(None, where)
                continue  # stream start and end, document end

            top = stack[-1] if stack else None
            if top is not None and top[2] is _NO_KEY and type(top[0]) is dict:  # this event is a key
                if cls is not yaml.ScalarEvent:
                    problems.append(Problem(path, *where, _field(top[1]), "a mapping key must be a plain string",
                                            "complex keys are not allowed"))
                    raise _Abort
                if event.anchor is not None or event.tag is not None:
                    refuse_node_extras(event, where)
                key = event.value
                if event.implicit[0] and event.value == "<<":
                    problems.append(Problem(path, *where, _field(top[1]), "merge key '<<' is not allowed",
                                            "write the merged fields out in full"))
                elif event.implicit[0]:
                    typed = _resolve_plain(key, where, path, top[1] + (key,), problems)
                    if not isinstance(typed, str):
                        problems.append(Problem(path, *where, _field(top[1] + (key,)),
                                                f"key '{key}' is read as {type(typed).__name__ if typed is not None else 'null'}, not a string",
                                                "keys must be names; quote it if it is really meant"))
                bad = _bad_text(key)
                if bad:
                    problems.append(Problem(path, *where, _field(top[1]), f"key contains {bad}",
                                            "remove invisible and control characters"))
                if key in top[4]:
                    first = top[4][key]
                    problems.append(Problem(path, *where, _field(top[1] + (key,)), f"duplicate key '{key}'",
                                            f"first defined at line {first[0]}; YAML would silently keep the last one"))
                    key = _DuplicateKey(key, where)
                else:
                    top[4][key] = where
                top[2], top[3] = key, where
                continue

            if len(stack) >= MAX_DEPTH and cls is not yaml.ScalarEvent:
                problems.append(Problem(path, *where, _field(current_path()),
                                        f"nesting deeper than {MAX_DEPTH} levels", "data files are shallow; check the brackets"))
                raise _Abort
            if event.anchor is not None or event.tag is not None:
                refuse_node_extras(event, where)
            if cls is yaml.ScalarEvent:
                if event.implicit[0]:
                    value = _resolve_plain(event.value, where, path, current_path(), problems)
                else:
                    value = event.value
                if isinstance(value, str):
                    bad = _bad_text(value)
                    if bad:
                        problems.append(Problem(path, *where, _field(current_path()), f"text contains {bad}",
                                                "remove invisible and control characters"))
                _place(stack, attach, value, where)
            elif cls is yaml.MappingStartEvent:
                container: dict = {}
                cpath = _place(stack, attach, container, where)
                stack.append([container, cpath, _NO_KEY, None, {}])
            else:
                container_list: list = []
                cpath = _place(stack, attach, container_list, where)
                stack.append([container_list, cpath, _NO_KEY, None, {}])
    except _Abort:
        return None, problems
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = exc.problem or exc.context or "invalid YAML"
        problems.append(Problem(path, line, col, "", f"YAML syntax error: {message}", "check the indentation and quoting here"))
        return None, problems
    except yaml.YAMLError as exc:
        problems.append(Problem(path, 1, 1, "", f"YAML syntax error: {exc}", "check the file's syntax"))
        return None, problems
    finally:
        if loader is not None:
            loader.dispose()

    if problems and any(p.message.startswith("more than one") for p in problems):
        return None, problems
    if expect is not None and not isinstance(root, expect):
        kind = "empty" if root is None else type(root).__name__
        problems.append(Problem(path, *marks.get((), (1, 1)), "", f"top level is {kind}, not a mapping",
                                "a data file is a mapping of field names to values"))
        return None, problems
    return Parsed(root, marks, key_marks), problems


class _Abort(Exception):
    """Stop reading a file whose structure we refuse (the problem is already recorded)."""


class _Sentinel:
    def __repr__(self) -> str:
        return "<no key>"


_NO_KEY = _Sentinel()
_ALIAS_KEY = "<alias>"


class _DuplicateKey(str):
    """A repeated key: recorded as a problem; its value is kept under a name that cannot clash."""

    def __new__(cls, key: str, where):
        return super().__new__(cls, f"{key}\x00dup{where[0]}:{where[1]}")


def _place(stack, attach, value, where):
    """Attach a value to the open container, dropping the value of a duplicate key."""
    if stack and isinstance(stack[-1][0], dict) and isinstance(stack[-1][2], _DuplicateKey):
        stack[-1][2] = _NO_KEY
        return ("\x00dropped",)
    return attach(value, where)
