"""Annotated boards kept by a digest of everything their simulation reads, so a rebuild on the same inputs loads
the intervals, rank intervals and tiers instead of drawing them again.

The key of a board is SHA-256 over the pickled inputs of uncertainty.annotate_index (the definition, the board as
computed, the results, models, benchmarks and per-question rows it is given, the seed salt) and the store's own
`salt` (the build passes reuse.package_digest(): the code, and the versions of numpy, pandas and Python, so a change
to the simulation misses). Equal inputs pickle to equal bytes; inputs that pickle differently only miss, never hit
wrongly. The value is what the annotation changed (a patch, `diff`), pickled: applied, it gives the same objects, so the
output is byte-identical.

Where it is kept is the caller's: `kept_in(store)` with any object that has get(key) -> bytes | None and
put(key, bytes) (build/simcache.py keeps files in a git-ignored folder). Outside a `kept_in` block nothing is kept.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import pickle
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar, cast


class Store(Protocol):
    salt: str

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


_STORE: Store | None = None
#: The last frame digested in each of these argument slots, with its digest: the as-of engine hands every
#: definition of a month the same frames, so each is pickled once (held until the next one replaces it). Only the
#: frames, which no stage changes in place; a board is changed by its annotation, so it is pickled every time.
_LAST: dict[str, tuple[object, bytes]] = {}
FRAMES = ("results", "models", "raw", "benchmarks")
#: The sets `traced()` blocks collect into: every name kept() looks up while one is open is added to each.
_TRACED: list[set[str]] = []


@contextlib.contextmanager
def kept_in(store: Store | None) -> Iterator[None]:
    """Within the block, annotated boards are looked up in and added to `store` (None: nothing is kept)."""
    global _STORE
    outer = _STORE
    _STORE = store
    try:
        yield
    finally:
        _STORE = outer
        _LAST.clear()


def _part(slot: str, value: object) -> bytes:
    last = _LAST.get(slot)
    if last is not None and last[0] is value:
        return last[1]
    digest = hashlib.sha256(pickle.dumps(value, protocol=5)).digest()
    if slot in FRAMES:
        _LAST[slot] = (value, digest)
    return digest


def key(salt: str, **inputs: object) -> str:
    """SHA-256 over the store's salt and each named input's pickle (frames memoised by identity, see _LAST);
    an input given as bytes is taken as its own pickle."""
    digest = hashlib.sha256(salt.encode())
    for name in sorted(inputs):
        value = inputs[name]
        part = hashlib.sha256(value).digest() if type(value) is bytes else _part(name, value)
        digest.update(name.encode() + b"\0" + part)
    return digest.hexdigest()


def diff(before: object, after: object) -> tuple | None:
    """The patch that turns `before` into `after` (None: they are equal): ("=", value) replaces; ("d", {key: patch},
    removed keys) changes a dict, key by key in `after`'s order; ("l", {index: patch}) a list of the same length.
    Only text, numbers, booleans and None are compared; anything else (an array, a tuple) is replaced whole."""
    if type(before) is dict and type(after) is dict:
        sub = {}
        for k, v in after.items():
            p = diff(before[k], v) if k in before else ("=", v)
            if p is not None:
                sub[k] = p
        gone = [k for k in before if k not in after]
        return ("d", sub, gone) if sub or gone else None
    if type(before) is list and type(after) is list and len(before) == len(after):
        sub = {i: p for i, (x, y) in enumerate(zip(before, after)) if (p := diff(x, y)) is not None}
        return ("l", sub) if sub else None
    if type(before) is type(after) and type(after) in _LEAVES and before == after:
        return None
    return ("=", after)


_LEAVES = (str, int, float, bool, type(None))


def apply(value: Any, patch: tuple) -> Any:
    """`value` changed by `patch` (diff's), in place where it is a dict or a list; returns the result. A nested
    dict or list patch is only ever made for an entry `value` has (diff recurses into shared keys only). `value` is
    Any: a dict or a list wherever the patch changes entries (its "d" and "l" kinds), anything where it replaces."""
    kind = patch[0]
    if kind == "=":
        return patch[1]
    if kind == "d":
        for k in patch[2]:
            del value[k]
    for k, p in patch[1].items():  # the leaves ("=") inline: most entries are, and a call each was the cost
        value[k] = p[1] if p[0] == "=" else apply(value[k], p)
    return value


def annotated(board: dict, annotate: Callable[[dict], object], **inputs: object) -> None:
    """Run `annotate(board)` (which changes the board in place), or, inside `kept_in` with an entry for these
    inputs, change the board as that run did instead. An entry is the patch from the board as computed to the board
    as annotated (diff): only what the simulation adds, so it is small and quick to load. A run that misses
    annotates a copy and applies its own patch, as loaded from its pickle, to the board: so the board's objects are
    the same whether they were drawn or loaded, and so are the pickles of every page made from them (reuse.py keys
    pages by those)."""
    if _STORE is None:
        annotate(board)
        return
    pickled = pickle.dumps(board, protocol=5)
    name = key(_STORE.salt, board=pickled, **inputs)
    data = _STORE.get(name)
    if data is not None:
        try:
            patch = loads(data)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
            patch = None  # a damaged entry: computed again, and replaced
        if type(patch) is tuple and patch and patch[0] == "d":
            apply(board, patch)
            return
    work = cast(dict, loads(pickled))  # the board's copy
    annotate(work)
    data = pickle.dumps(diff(loads(pickled), work) or ("d", {}, []), protocol=5)
    apply(board, cast(tuple, loads(data)))
    _STORE.put(name, data)


@contextlib.contextmanager
def traced(names: set[str]) -> Iterator[None]:
    """Within the block, the name of every entry kept() looks up is added to `names` (also inside nested blocks):
    a caller whose own entry is made from others (an as-of month from its rows) keeps their names with it, so the
    store keeps them while it keeps that entry, and a later edit that misses the entry finds them."""
    _TRACED.append(names)
    try:
        yield
    finally:
        _TRACED.pop()


def current() -> Store | None:
    """The store of the innermost `kept_in` block (None outside any, or in a `kept_in(None)` block)."""
    return _STORE


T = TypeVar("T")


def kept(name: str, compute: Callable[[], T]) -> T:
    """`compute()`, or inside `kept_in` the value kept under `name` (a digest of every input of `compute`: the
    caller's; key() makes one). A miss keeps the value's pickle and returns the value as loaded back from it, so
    the objects are the same whether computed or loaded (shared references included); a damaged entry is computed
    again and replaced."""
    if _STORE is None:
        return compute()
    for names in _TRACED:
        names.add(name)
    data = _STORE.get(name)
    if data is not None:
        try:
            return cast(T, loads(data))  # kept from compute() under this name
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
            pass
    data = pickle.dumps(compute(), protocol=5)
    _STORE.put(name, data)
    return cast(T, loads(data))


def kept_row(kind: str, settings: bytes, inputs: bytes, compute: Callable[[], T]) -> T:
    """One row of a board computed on its own: `compute()`, or inside `kept_in` the row kept (kept()) under the
    digest of `kind` (the step and its row's layout), `settings` (a digest of what the step reads besides the row:
    the definition's part) and `inputs` (every input of this row alone, as bytes: a model's result rows, its
    per-question rows). A board whose inputs moved for one model then computes that model's row and takes the
    others' from the store; what it does across rows (ranking, frontiers, the simulation) is its own, run again."""
    if _STORE is None:
        return compute()
    digest = hashlib.sha256(b"row\0" + kind.encode() + b"\0" + settings + hashlib.sha256(inputs).digest())
    return kept(digest.hexdigest(), compute)


def loads(data: bytes) -> object:
    """pickle.loads without the cyclic garbage collector: a patch makes many small objects, none of them garbage,
    and a collection while a build holds every board walks them all (it made loading four times slower)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()
