"""download(): tests read source captures from downloads/; a withheld capture skips only the tests needing it."""

from __future__ import annotations

import pytest

from indexkit import download

SOURCES = """sources:
  - id: kept
    name: Kept
    url: https://example.org/
    licence: CC BY 4.0
    attribution: Example
    provenance: primary
    files:
      - {name: kept/a.csv, sha256: %(h)s}
  - id: withheld
    name: Withheld
    url: https://example.org/
    licence: all rights reserved, no redistribution
    attribution: Example
    provenance: primary
    download: "Fetch b.csv from https://example.org/b.csv"
    files:
      - {name: withheld/b.csv, sha256: %(h)s, redistributable: false}
""" % {"h": "0" * 64}


@pytest.fixture
def root(tmp_path):
    (tmp_path / "scores").mkdir()
    (tmp_path / "scores" / "sources.yaml").write_text(SOURCES, encoding="utf-8")
    return tmp_path


def test_a_kept_capture_is_read_from_downloads(root):
    assert download("kept/a.csv", root) == root / "downloads" / "kept" / "a.csv"


def test_a_withheld_capture_skips_saying_how_to_get_it(root):
    with pytest.raises(pytest.skip.Exception, match=r"withheld/b\.csv: its source's terms forbid redistribution.*"
                                                     r"Fetch b\.csv from https://example\.org/b\.csv"):
        download("withheld/b.csv", root)


def test_a_withheld_capture_someone_downloaded_is_used(root):
    (root / "downloads" / "withheld").mkdir(parents=True)
    (root / "downloads" / "withheld" / "b.csv").write_text("x\n", encoding="utf-8")
    assert download("withheld/b.csv", root).read_text(encoding="utf-8") == "x\n"


def test_an_unlisted_capture_is_an_error(root):
    with pytest.raises(AssertionError, match="not listed in scores/sources.yaml"):
        download("other/c.csv", root)
