"""Reproducible builds: the same inputs give the same bytes, whatever the path, hash seed, time zone or locale.

Two copies of one tree, at different absolute paths and outside any git repository (so the shown date comes
from SOURCE_DATE_EPOCH), are built by two fresh interpreters that differ in PYTHONHASHSEED, TZ and LC_ALL.
"""

from __future__ import annotations

import datetime
import html.parser
import subprocess
from pathlib import Path

from hardkit import SCORES, make_tree, model_doc, sitegen, snapshot

# 2026-03-14 12:00 UTC is already 2026-03-15 in Kiritimati (UTC+14): a local-time date would show the 15th.
EPOCH = int(datetime.datetime(2026, 3, 14, 12, tzinfo=datetime.timezone.utc).timestamp())
DATE = "2026-03-14"


def other_locale() -> str:
    """An installed locale other than C.UTF-8 (a real language one if any, else POSIX)."""
    try:
        names = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        names = []
    real = sorted(n for n in names if n.lower() not in ("c", "c.utf8", "c.utf-8", "posix"))
    preferred = [n for n in real if n.lower().replace("-", "").endswith(".utf8")]
    return (preferred or real or ["POSIX"])[0]


def models() -> list[dict]:
    docs = [model_doc(m, s) for m, s in SCORES.items()]
    # Non-ASCII names and equal scores: sort order, collation and ties must not follow the locale or hash seed.
    docs.append(model_doc("zeta/eszett", {"hle": 25, "gpqa-diamond": 85}, name="Straße Ærø 東京"))
    docs.append(model_doc("acme/omega", {"hle": 25, "gpqa-diamond": 85}, name="Éclair Ünïcode",
                          aliases=["éclair", "Eclair"]))
    return docs


def build(root: Path, cwd: Path, env: dict[str, str]):
    env = {"SOURCE_DATE_EPOCH": str(EPOCH), "GIT_CEILING_DIRECTORIES": str(root.parent), **env}
    out = sitegen("build", "--root", str(root), cwd=cwd, env=env)
    assert out.returncode == 0, out.stderr
    return snapshot(root / "site")


def first_difference(a: dict[str, bytes], b: dict[str, bytes]) -> str:
    if sorted(a) != sorted(b):
        return f"file lists differ: only in one {sorted(set(a) ^ set(b))[:10]}"
    for name in sorted(a):
        if a[name] != b[name]:
            la, lb = a[name].splitlines(), b[name].splitlines()
            for i, (x, y) in enumerate(zip(la, lb), start=1):
                if x != y:
                    return f"{name}:{i}:\n  {x[:300]!r}\n  {y[:300]!r}"
            return f"{name}: line counts differ ({len(la)} vs {len(lb)})"
    return ""


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []

    def handle_data(self, data):
        self.text.append(data)


def test_two_builds_at_different_paths_and_settings_are_byte_identical(tmp_path):
    root_a = make_tree(tmp_path / "a" / "repo", models())
    root_b = make_tree(tmp_path / "second copy" / "nested" / "repo", models())
    site_a = build(root_a, tmp_path / "a", {"PYTHONHASHSEED": "1", "TZ": "UTC", "LC_ALL": "C.UTF-8"})
    site_b = build(root_b, tmp_path, {"PYTHONHASHSEED": "4242", "TZ": "Pacific/Kiritimati", "LC_ALL": other_locale()})
    assert len(site_a) > 10
    diff = first_difference(site_a, site_b)
    assert not diff, diff

    # The date on the home page is SOURCE_DATE_EPOCH's UTC date, not the build machine's local date.
    parser = _Text()
    parser.feed(site_a["index.html"].decode("utf-8"))
    text = " ".join(" ".join(parser.text).split())
    assert f"Data last updated {DATE}" in text
    assert "2026-03-15" not in text

    # Nothing in the output names the checkout it was built from.
    for root in (root_a, root_b):
        for needle in {str(root), str(root.parent), root.as_posix(), str(tmp_path)}:
            leaks = [name for name, data in site_a.items() if needle.encode() in data]
            leaks += [name for name, data in site_b.items() if needle.encode() in data]
            assert not leaks, (needle, leaks[:5])
