"""Problems found in the input: collected everywhere, reported once, sorted."""

from __future__ import annotations

import dataclasses
import re

ERROR = "error"
WARNING = "warning"

# Characters that could forge a GitHub workflow command or a fake report line when echoed to a CI log.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def printable(text: str) -> str:
    """Escape control, bidi and zero-width characters so a message cannot rewrite the log it goes to."""
    text = text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def field_path(path, limit: int | None = None) -> str:
    """A problem's field from its path in the document: `results[2].value` for ("results", 2, "value"); cut to
    `limit` characters (ending in "...") when given."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out if limit is None or len(out) <= limit else out[: limit - 3] + "..."


@dataclasses.dataclass(frozen=True, order=True)
class Problem:
    """One input problem at a place in a file; line and col are 1-based, 0 when the whole file is meant."""

    path: str
    line: int
    col: int
    field: str
    message: str
    hint: str = ""
    severity: str = ERROR

    def format(self) -> str:
        """`path:line:col: field: message (hint)`; a problem with the whole file (line 0) names the path alone."""
        where = f"{self.path}:{self.line}:{self.col}: " if self.line else (f"{self.path}: " if self.path else "")
        field = self.field or "(file)"
        hint = f" ({self.hint})" if self.hint else ""
        tag = "" if self.severity == ERROR else "warning: "
        return printable(f"{where}{tag}{field}: {self.message}{hint}")

    def annotation(self) -> str:
        """The GitHub Actions workflow command for this problem."""

        def esc(text: str, prop: bool = False) -> str:
            text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            if prop:
                text = text.replace(":", "%3A").replace(",", "%2C")
            return text

        field = self.field or "(file)"
        hint = f" ({self.hint})" if self.hint else ""
        location = f"file={esc(self.path, True)},line={max(self.line, 1)},col={max(self.col, 1)}"
        return f"::{self.severity} {location}::{esc(printable(f'{field}: {self.message}{hint}'))}"
