"""A strict YAML reader: plain data with line marks, and a problem for every construct we refuse.

PyYAML's loaders accept far more than a contributor should write (duplicate keys keep the last value,
`no` becomes False, `012` becomes 10, aliases can expand to gigabytes, tags build arbitrary objects).
We read the parser's event stream instead and build the data ourselves, so every value keeps the
line and column it came from and every refusal is a Problem rather than an exception.
"""

from __future__ import annotations

import dataclasses
import pickle
import re
import unicodedata
from typing import Any

import yaml

from ..problems import Problem, field_path

_Loader: type
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
_BAD_CHAR = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)

_SURROGATE = re.compile("[\ud800-\udfff]")

_NODES = frozenset({yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent})
_ENDS = frozenset({yaml.MappingEndEvent, yaml.SequenceEndEvent})

Path = tuple  # a JSON path: keys and list indices from the document root


class Parsed:
    """A parsed file: its data, where each value starts, and where each mapping key starts.

    Pickled (the validation cache, parsecache.py), the marks travel as one pickle of their own, unpickled when first
    asked for: a validation run reads every file's entry but places problems in few of them, and unpickling the
    marks is most of reading an entry."""

    __slots__ = ("data", "_marks", "_packed")

    def __init__(self, data: Any, marks: dict, key_marks: dict) -> None:
        self.data = data  # plain data: a mapping for every data file (parse's `expect`), whatever YAML holds otherwise
        self._marks: tuple[dict, dict] | None = (marks, key_marks)
        self._packed = b""

    @property
    def marks(self) -> dict:
        """Path -> (line, col) of the value."""
        return self._unpacked()[0]

    @property
    def key_marks(self) -> dict:
        """Path -> (line, col) of the key naming that value."""
        return self._unpacked()[1]

    def _unpacked(self) -> tuple[dict, dict]:
        if self._marks is None:
            self._marks = pickle.loads(self._packed)
            self._packed = b""
        return self._marks

    def __reduce__(self) -> tuple:
        packed = self._packed if self._marks is None else pickle.dumps(self._marks, protocol=pickle.HIGHEST_PROTOCOL)
        return _unpickled, (self.data, packed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Parsed):
            return NotImplemented
        return (self.data, self.marks, self.key_marks) == (other.data, other.marks, other.key_marks)

    __hash__ = None  # type: ignore[assignment]  # (its dicts are not hashable)

    def __repr__(self) -> str:
        return f"Parsed(data={self.data!r}, marks={self.marks!r}, key_marks={self.key_marks!r})"

    def mark(self, path: Path) -> tuple[int, int]:
        """The closest known position for a path: its key if it has one, else the nearest parent."""
        marks, key_marks = self._unpacked()
        path = tuple(path)
        while path:
            if path in key_marks:
                return key_marks[path]
            if path in marks:
                return marks[path]
            path = path[:-1]
        return marks.get((), (1, 1))

    def value_mark(self, path: Path) -> tuple[int, int]:
        path = tuple(path)
        marks = self._unpacked()[0]
        return marks[path] if path in marks else self.mark(path)


def _unpickled(data: Any, packed: bytes) -> Parsed:
    """A Parsed read back from its pickle, its marks still packed (Parsed.__reduce__)."""
    parsed = Parsed(data, {}, {})
    parsed._marks, parsed._packed = None, packed
    return parsed


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
            Problem(
                path,
                line,
                col,
                "",
                f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                "save the file as UTF-8 (it looks like Latin-1 or another legacy encoding)",
            )
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
            found.append(Problem(path, number, line.index("\t") + 1, "", "tab in indentation", "indent with spaces"))
    return found


def _resolve_plain(value: str, where: tuple[int, int], path: str, json_path: tuple, problems: list[Problem]) -> object:
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
        problems.append(
            Problem(
                path,
                *where,
                _field(json_path),
                f"unquoted '{value}' is a boolean in YAML 1.1",
                f'write {meant} for a flag, or quote it ("{value}") for text',
            )
        )
        return value
    if value[0] not in _NUMBER_START:  # every number form below starts with a sign, a dot or a digit
        return value
    if _SPECIAL_FLOAT.match(value):
        problems.append(
            Problem(
                path,
                *where,
                _field(json_path),
                f"'{value}' is not a finite number",
                "NaN and infinities are not allowed; leave the value out when unknown",
            )
        )
        return value
    if _INT.match(value):
        digits = value.lstrip("+-")
        if len(digits) > 1 and digits.startswith("0"):
            problems.append(
                Problem(
                    path,
                    *where,
                    _field(json_path),
                    f"number '{value}' has a leading zero",
                    "YAML 1.1 reads it as octal; quote it or drop the zero",
                )
            )
            return value
        if len(digits) > MAX_INT_DIGITS:
            problems.append(
                Problem(
                    path,
                    *where,
                    _field(json_path),
                    f"number with {len(digits):,} digits is too long",
                    f"at most {MAX_INT_DIGITS} digits; check the value",
                )
            )
            return value
        return int(value)
    if _FLOAT.match(value):
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):
            shown = value if len(value) <= 20 else value[:17] + "..."
            problems.append(
                Problem(
                    path,
                    *where,
                    _field(json_path),
                    f"'{shown}' is too large to be a finite number",
                    "NaN and infinities are not allowed; check the exponent",
                )
            )
            return value
        return number
    if _OTHER_NUMBER.match(value):
        problems.append(
            Problem(
                path,
                *where,
                _field(json_path),
                f"'{value}' is read as a number in some YAML versions",
                "quote it if it is text, or write a plain decimal number",
            )
        )
        return value
    return value


def _field(path: Path) -> str:
    """The field a parse problem names, cut to 60 characters (a hostile file can nest deeply)."""
    return field_path(path, limit=60)


def parse(raw: bytes, path: str, expect: tuple | None = (dict,)) -> tuple[Parsed | None, list[Problem]]:
    """Parse one YAML file strictly; return (None, problems) when it cannot be read at all.

    `expect` is the type the document must be (a mapping for every data file); None accepts any, for the readers of
    other formats (interchange), which check the shape themselves."""
    text, problems = _text(raw, path)
    if text is None:
        return None, problems
    builder = _Builder(path, problems)
    loader = None
    try:
        loader = _Loader(text)
        while loader.check_event():
            if not builder.feed(loader.get_event()):
                break
    except _Abort:
        return None, problems
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = exc.problem or exc.context or "invalid YAML"
        problems.append(
            Problem(path, line, col, "", f"YAML syntax error: {message}", "check the indentation and quoting here")
        )
        return None, problems
    except yaml.YAMLError as exc:
        problems.append(Problem(path, 1, 1, "", f"YAML syntax error: {exc}", "check the file's syntax"))
        return None, problems
    finally:
        if loader is not None:
            loader.dispose()

    if problems and any(p.message.startswith("more than one") for p in problems):
        return None, problems
    root = builder.root
    if expect is not None and not isinstance(root, expect):
        kind = "empty" if root is None else type(root).__name__
        line, col = builder.marks.get((), (1, 1))
        problems.append(
            Problem(
                path,
                line,
                col,
                "",
                f"top level is {kind}, not a mapping",
                "a data file is a mapping of field names to values",
            )
        )
        return None, problems
    return Parsed(root, builder.marks, builder.key_marks), problems


def _text(raw: bytes, path: str) -> tuple[str | None, list[Problem]]:
    """The file's text, or None with the problems when it is too large, not UTF-8, indented with tabs or empty."""
    problems: list[Problem] = []
    if len(raw) > MAX_BYTES:
        problems.append(
            Problem(
                path,
                1,
                1,
                "",
                f"file is {len(raw):,} bytes, over the {MAX_BYTES:,}-byte limit",
                "split it or remove what does not belong",
            )
        )
        return None, problems
    text = decode_utf8(raw, path, problems)
    if text is None:
        return None, problems
    tabs = _tabs(text, path)
    if tabs:
        return None, tabs
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return None, [Problem(path, 1, 1, "", "file is empty", "a data file holds one YAML mapping")]
    return text, problems


class _Abort(Exception):
    """Stop reading a file whose structure we refuse (the problem is already recorded)."""


class _Sentinel:
    def __repr__(self) -> str:
        return "<no key>"


_NO_KEY = _Sentinel()
_ALIAS_KEY = "<alias>"


class _DuplicateKey(str):
    """A repeated key: recorded as a problem; its value is kept under a name that cannot clash."""

    def __new__(cls, key: str, where: tuple[int, int]) -> _DuplicateKey:
        return super().__new__(cls, f"{key}\x00dup{where[0]}:{where[1]}")


@dataclasses.dataclass(slots=True)
class _Frame:
    """An open mapping or sequence: its path from the root and, for a mapping, the key waiting for its value (with
    where that key starts) and the keys seen so far (with where each first stood)."""

    container: dict | list
    path: Path
    key: object = _NO_KEY
    key_mark: tuple[int, int] = (0, 0)  # set with each key, before its value attaches
    seen: dict = dataclasses.field(default_factory=dict)


class _Builder:
    """Builds plain data from the parser's events, one at a time, with the marks of every value and key and a
    problem for every construct refused. The events come from libyaml one by one (about 150,000 on the repository's
    data), so feed tests each event's exact class, most frequent first; the parser builds events of exactly these
    classes."""

    def __init__(self, path: str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        self.stack: list[_Frame] = []
        self.marks: dict[Path, tuple[int, int]] = {}
        self.key_marks: dict[Path, tuple[int, int]] = {}
        self.root: object = None
        self.documents = 0

    def feed(self, event: Any) -> bool:
        """Take one event; False when reading stops here (a second document)."""
        cls = type(event)
        start = event.start_mark
        where = (start.line + 1, start.column + 1)
        if cls in _ENDS:
            self.stack.pop()
            return True
        if cls not in _NODES:
            return self._outside_nodes(event, cls, where)
        top = self.stack[-1] if self.stack else None
        if top is not None and top.key is _NO_KEY and type(top.container) is dict:  # this event is a key
            self._key(event, cls, where, top)
        else:
            self._node(event, cls, where)
        return True

    def _outside_nodes(self, event: Any, cls: type, where: tuple[int, int]) -> bool:
        """A document start (one document, no directives) or an alias (refused); stream start and end and document
        end say nothing."""
        if cls is yaml.DocumentStartEvent:
            self.documents += 1
            if self.documents > 1:
                self.problems.append(
                    Problem(
                        self.path,
                        *where,
                        "",
                        "more than one YAML document",
                        "a data file holds exactly one document; remove the '---' separator",
                    )
                )
                return False
            if event.version is not None or event.tags:
                self.problems.append(
                    Problem(
                        self.path,
                        *where,
                        "",
                        "YAML directives (%YAML, %TAG) are not allowed",
                        "remove the directive line",
                    )
                )
        elif cls is yaml.AliasEvent:
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(self.current_path()),
                    f"alias '*{event.anchor}' is not allowed",
                    "write the value out in full; anchors and aliases are refused",
                )
            )
            top = self.stack[-1] if self.stack else None
            if top is not None and type(top.container) is dict and top.key is _NO_KEY:
                top.key, top.key_mark = _ALIAS_KEY, where
            else:
                self.attach(None, where)
        return True

    def _key(self, event: Any, cls: type, where: tuple[int, int], top: _Frame) -> None:
        """A mapping key: a plain string, written once, with no anchor, tag, merge or invisible character."""
        if cls is not yaml.ScalarEvent:
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(top.path),
                    "a mapping key must be a plain string",
                    "complex keys are not allowed",
                )
            )
            raise _Abort
        if event.anchor is not None or event.tag is not None:
            self.refuse_node_extras(event, where)
        key = event.value
        if event.implicit[0]:
            self._plain_key_problems(key, where, top.path)
        bad = _bad_text(key)
        if bad:
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(top.path),
                    f"key contains {bad}",
                    "remove invisible and control characters",
                )
            )
        if key in top.seen:
            first = top.seen[key]
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(top.path + (key,)),
                    f"duplicate key '{key}'",
                    f"first defined at line {first[0]}; YAML would silently keep the last one",
                )
            )
            key = _DuplicateKey(key, where)
        else:
            top.seen[key] = where
        top.key, top.key_mark = key, where

    def _plain_key_problems(self, key: str, where: tuple[int, int], parent: Path) -> None:
        """An unquoted key that is a merge ('<<') or that YAML would read as something other than a string."""
        if key == "<<":
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(parent),
                    "merge key '<<' is not allowed",
                    "write the merged fields out in full",
                )
            )
            return
        typed = _resolve_plain(key, where, self.path, parent + (key,), self.problems)
        if not isinstance(typed, str):
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(parent + (key,)),
                    f"key '{key}' is read as {type(typed).__name__ if typed is not None else 'null'}, not a string",
                    "keys must be names; quote it if it is really meant",
                )
            )

    def _node(self, event: Any, cls: type, where: tuple[int, int]) -> None:
        """A value: a scalar, typed and checked, or a new mapping or sequence, opened no deeper than MAX_DEPTH."""
        if len(self.stack) >= MAX_DEPTH and cls is not yaml.ScalarEvent:
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    _field(self.current_path()),
                    f"nesting deeper than {MAX_DEPTH} levels",
                    "data files are shallow; check the brackets",
                )
            )
            raise _Abort
        if event.anchor is not None or event.tag is not None:
            self.refuse_node_extras(event, where)
        if cls is yaml.ScalarEvent:
            self.place(self._scalar(event, where), where)
            return
        container: dict | list = {} if cls is yaml.MappingStartEvent else []
        self.stack.append(_Frame(container, self.place(container, where)))

    def _scalar(self, event: Any, where: tuple[int, int]) -> object:
        """A scalar's value: a plain one typed by YAML 1.2's core schema, a quoted or block one as written."""
        if event.implicit[0]:
            value = _resolve_plain(event.value, where, self.path, self.current_path(), self.problems)
        else:
            value = event.value
        if isinstance(value, str):
            bad = _bad_text(value)
            if bad:
                self.problems.append(
                    Problem(
                        self.path,
                        *where,
                        _field(self.current_path()),
                        f"text contains {bad}",
                        "remove invisible and control characters",
                    )
                )
        return value

    def refuse_node_extras(self, event: Any, where: tuple[int, int]) -> None:
        anchor, tag = getattr(event, "anchor", None), getattr(event, "tag", None)
        if anchor is None and tag is None:
            return
        field = _field(self.current_path())
        if anchor:
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    field,
                    f"anchor '&{anchor}' is not allowed",
                    "write the value out in full; anchors and aliases are refused",
                )
            )
        if tag is not None:  # the parser reports a tag only when one is written out
            self.problems.append(
                Problem(
                    self.path,
                    *where,
                    field,
                    f"tag '{tag}' is not allowed",
                    "remove the tag; write plain values and quote strings",
                )
            )

    def current_path(self) -> Path:
        """The path of the value the next event gives."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if type(top.container) is dict and top.key is not _NO_KEY:
            return top.path + (top.key,)
        if type(top.container) is list:
            return top.path + (len(top.container),)
        return top.path

    def place(self, value: object, where: tuple[int, int]) -> Path:
        """Attach a value to the open container, dropping the value of a duplicate key."""
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.container, dict) and isinstance(top.key, _DuplicateKey):
            top.key = _NO_KEY
            return ("\x00dropped",)
        return self.attach(value, where)

    def attach(self, value: object, where: tuple[int, int]) -> Path:
        """Put a value in the open container (or make it the root) and record where it starts; its path."""
        if not self.stack:
            self.root = value
            self.marks[()] = where
            return ()
        top = self.stack[-1]
        container, cpath = top.container, top.path
        if type(container) is list:
            child = cpath + (len(container),)
            container.append(value)
            self.marks[child] = where
            return child
        if top.key is _NO_KEY:  # this value is a key
            raise AssertionError("keys are handled by the caller")
        child = cpath + (top.key,)
        container[top.key] = value  # type: ignore[call-overload]  # a dict here: a list returned above
        self.marks[child] = where
        self.key_marks[child] = top.key_mark
        top.key = _NO_KEY
        return child
