"""The complexity gate (issue 32 item 2): every function of the package at radon's cyclomatic complexity 20 or
less (grade C or better), or with a `# complexity: <reason>` comment on the line directly above its `def` (or its
first decorator) saying why it stays whole.

radon counts what ruff's C901 does not (each `and`/`or`, each comprehension's `for` and `if`), so this is the
stricter of the two gates; .ci/run runs both.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Function

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "sitegen"
LIMIT = 20
REASON = re.compile(r"^\s*# complexity: \S")


def first_lines(tree: ast.AST) -> dict[int, int]:
    """{a def's line: the line its first decorator (or the def itself) starts on}."""
    return {
        node.lineno: min([node.lineno] + [d.lineno for d in node.decorator_list])
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def too_complex(source: str, path: str, limit: int = LIMIT) -> list[str]:
    """`path:line: name (complexity N)` for each function or method above limit whose first line is not directly
    under a `# complexity: <reason>` comment."""
    lines = source.splitlines()
    starts = first_lines(ast.parse(source))
    found = []
    for block in cc_visit(source):
        if not isinstance(block, Function) or block.complexity <= limit:
            continue
        above = starts[block.lineno] - 2  # the line above the first line, 0-based
        if above >= 0 and REASON.match(lines[above]):
            continue
        found.append(f"{path}:{block.lineno}: {block.fullname} (complexity {block.complexity})")
    return found


def branches(n: int) -> str:
    """The body of a function with complexity n + 1: n `if`s in a row."""
    return "".join(f"    if x == {i}:\n        x += 1\n" for i in range(n)) + "    return x\n"


def test_a_function_above_the_limit_is_named_with_its_line_and_complexity():
    source = "import os\n\n\ndef busy(x):\n" + branches(20)
    assert too_complex(source, "m.py") == ["m.py:4: busy (complexity 21)"]


def test_a_function_at_the_limit_passes():
    assert too_complex("def busy(x):\n" + branches(19), "m.py") == []


def test_and_or_count_as_branches():
    """ruff's C901 gives both 20: it does not count the `and`."""
    plain = "def busy(x, a, b):\n    if a:\n        x += 1\n" + branches(18)
    assert too_complex(plain, "m.py") == []
    joined = "def busy(x, a, b):\n    if a and b:\n        x += 1\n" + branches(18)
    assert too_complex(joined, "m.py") == ["m.py:1: busy (complexity 21)"]


def test_a_reason_on_the_line_above_lets_a_function_stay_whole():
    source = "# complexity: one table of cases, read top to bottom\ndef busy(x):\n" + branches(25)
    assert too_complex(source, "m.py") == []


def test_a_reason_goes_above_the_decorators():
    source = "import functools\n\n\n# complexity: a dispatch table\n@functools.cache\ndef busy(x):\n" + branches(25)
    assert too_complex(source, "m.py") == []
    between = "import functools\n\n\n@functools.cache\n# complexity: a dispatch table\ndef busy(x):\n" + branches(25)
    assert too_complex(between, "m.py") == ["m.py:6: busy (complexity 26)"]


def test_a_comment_without_a_reason_or_further_up_does_not_count():
    bare = "# complexity:\ndef busy(x):\n" + branches(25)
    assert too_complex(bare, "m.py") == ["m.py:2: busy (complexity 26)"]
    gap = "# complexity: a dispatch table\n\ndef busy(x):\n" + branches(25)
    assert too_complex(gap, "m.py") == ["m.py:3: busy (complexity 26)"]
    other = "# noqa: C901\ndef busy(x):\n" + branches(25)
    assert too_complex(other, "m.py") == ["m.py:2: busy (complexity 26)"]


def test_methods_are_named_by_their_class():
    source = "class Board:\n    def rank(self, x):\n" + "".join(
        "    " + line + "\n" for line in branches(21).splitlines()
    )
    assert too_complex(source, "m.py") == ["m.py:2: Board.rank (complexity 22)"]


def test_every_function_of_the_package_is_at_most_complexity_20_or_says_why():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += too_complex(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    # every one is named, not the first of a truncated diff
    assert not found, "split into named parts, or say why not in a `# complexity: <reason>` line above:\n" + "\n".join(
        found
    )
