"""downloads/: the repository's copies of the files the importers and tests read, as scores/sources.yaml lists them.

The repository works alone: nothing CI or the tests run reads the folder beside it where new downloads arrive.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from sitegen.importers import captures

REPO = Path(__file__).resolve().parents[1]
DOWNLOADS = REPO / "downloads"
MAX_FILE = 5 * 1024 * 1024       # nothing bigger is tracked: git keeps every version
MAX_TOTAL = 10 * 1024 * 1024
CAPTURES = captures(REPO)


@pytest.mark.parametrize("cap", CAPTURES, ids=lambda c: c.name)
def test_every_listed_capture_is_in_downloads_with_its_hash(cap):
    assert cap.sha256, f"scores/sources.yaml: {cap.name}: add sha256 (sha256sum downloads/{cap.name})"
    path = DOWNLOADS / cap.name
    if not cap.redistributable:     # withheld: only the hash is kept, and `download` says how to get the file
        tracked = subprocess.run(["git", "ls-files", "--", f"downloads/{cap.name}"], cwd=REPO, capture_output=True,
                                 text=True, check=True).stdout
        assert tracked == "", f"downloads/{cap.name} may not be redistributed: git rm --cached it"
        return
    assert path.is_file(), f"downloads/{cap.name} is missing: copy it in from where it was downloaded"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == cap.sha256, \
        f"downloads/{cap.name} is not the capture scores/sources.yaml lists (sha256 differs)"


def test_every_file_in_downloads_is_listed_in_sources_and_none_is_too_big():
    listed = {c.name for c in CAPTURES}
    files = sorted(p for p in DOWNLOADS.rglob("*") if p.is_file() and p != DOWNLOADS / "README.md")
    assert [p.relative_to(DOWNLOADS).as_posix() for p in files if p.relative_to(DOWNLOADS).as_posix() not in listed] == []
    too_big = [(p.name, p.stat().st_size) for p in files if p.stat().st_size > MAX_FILE]
    assert too_big == []
    assert sum(p.stat().st_size for p in files) <= MAX_TOTAL


def test_captures_are_kept_byte_for_byte_by_git():
    assert "downloads/** -text" in (REPO / ".gitattributes").read_text(encoding="utf-8").splitlines()


# The folder beside the repository as a relative path, its name joined to a parent path, or the variables
# that pointed there.
BESIDE = re.compile(r'\.\./shared|parent\s*/\s*"shared"|SITEGEN_(?:DATA|SEEDS)')


def test_ci_tests_and_tools_never_read_the_folder_beside_the_repository():
    places = [REPO / ".ci" / "run", *sorted((REPO / "tools").glob("*")), *sorted((REPO / "tests").rglob("*.py")),
              *sorted((REPO / ".github" / "workflows").glob("*.yml"))]
    hits = [f"{p.relative_to(REPO)}: {m.group(0)}" for p in places if p.is_file()
            for m in BESIDE.finditer(p.read_text(encoding="utf-8"))]
    assert hits == []
