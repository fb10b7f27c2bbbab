"""Atomic builds: a failed or crashed `sitegen build` leaves the previous site/ exactly as it was.

Each test starts from a small valid tree built once (the file builds it once through the console entry point and
each test takes a copy), records site/ byte for byte, then breaks something and builds again through the console
entry point (sitegen.cli:entry) in a fresh interpreter.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hardkit import listing, make_tree, sitegen, snapshot

MARKER_TEXT = b"Written by sitegen. Each build or export replaces this whole folder.\n"

# Stands in for a renderer that dies half way: it writes two pages, then raises.
CRASHING_RENDERER = '''
import pathlib
import sitegen.site

def render_site(ctx, folder, previous=None, charts_cache=None, pages=None, links=None, check=False):
    folder = pathlib.Path(folder)
    (folder / "index.html").write_text("<!doctype html><title>half</title>", encoding="utf-8")
    (folder / "models").mkdir(exist_ok=True)
    (folder / "models" / "partial.html").write_text("partial", encoding="utf-8")
    raise RuntimeError("renderer exploded half way")

sitegen.site.render_site = render_site
'''


def change_a_score(root: Path) -> None:
    """A valid edit, so that the next build cannot stop early as 'up to date' (site/.sitegen-inputs)."""
    model = root / "scores/models/acme/alpha.yaml"
    model.write_text(model.read_text(encoding="utf-8").replace("value: 12.5", "value: 13.5"), encoding="utf-8")


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    """The tree with its first successful build (site/ and the compute cache), made once for the file: each test
    takes a copy (`built`), as every one of them starts from the same build of the same tree."""
    where = tmp_path_factory.mktemp("atomic")
    root = make_tree(where / "repo")
    first = sitegen("build", "--root", str(root), cwd=where)
    assert first.returncode == 0, first.stderr
    return root


@pytest.fixture
def built(built_once, tmp_path):
    """A tree with a successful build in site/: (root, snapshot of site/, listing of root)."""
    root = tmp_path / "repo"
    shutil.copytree(built_once, root, symlinks=True)
    site = snapshot(root / "site")
    assert "index.html" in site and any(p.startswith("api/") for p in site), sorted(site)[:20]
    return root, site, listing(root)


def test_bad_data_exits_1_and_keeps_the_previous_site(built, tmp_path):
    root, site, entries = built
    model = root / "scores/models/acme/alpha.yaml"
    model.write_text(model.read_text(encoding="utf-8").replace("value: 12.5", "value: twelve"), encoding="utf-8")
    again = sitegen("build", "--root", str(root), cwd=tmp_path)
    assert again.returncode == 1, again.stderr
    assert "scores/models/acme/alpha.yaml:" in again.stderr
    assert "Traceback" not in again.stderr
    assert snapshot(root / "site") == site
    assert listing(root) == entries, "no temporary folder may be left beside site/"


def test_renderer_crash_exits_2_and_keeps_the_previous_site(built, tmp_path):
    root, site, entries = built
    change_a_score(root)
    again = sitegen("build", "--quiet", "--root", str(root), cwd=tmp_path, prelude=CRASHING_RENDERER)
    assert again.returncode == 2, (again.returncode, again.stderr)
    lines = again.stderr.strip().splitlines()
    assert lines == ["sitegen: internal error: RuntimeError: renderer exploded half way "
                     "(set SITEGEN_DEBUG=1 for a traceback)"]
    assert "Traceback" not in again.stderr + again.stdout
    assert snapshot(root / "site") == site
    assert listing(root) == entries, "no temporary folder may be left beside site/"


def test_renderer_crash_on_a_first_build_leaves_no_site_and_no_temp_folder(tmp_path):
    root = make_tree(tmp_path / "repo")
    entries = listing(root)
    out = sitegen("build", "--root", str(root), cwd=tmp_path, prelude=CRASHING_RENDERER)
    assert out.returncode == 2, out.stderr
    # compute finished before the renderer crashed, so its results are kept in the compute cache (build/simcache.py,
    # never output: safe to delete); no site/ and no temporary folder
    assert listing(root) == sorted([*entries, ".sitegen-cache"])


def test_crash_into_an_out_folder_elsewhere_leaves_nothing_beside_it(built, tmp_path):
    root, _, _ = built
    out_dir = tmp_path / "public" / "www"
    first = sitegen("build", "--root", str(root), "--out", str(out_dir), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = snapshot(out_dir)
    change_a_score(root)
    again = sitegen("build", "--root", str(root), "--out", str(out_dir), cwd=tmp_path, prelude=CRASHING_RENDERER)
    assert again.returncode == 2
    assert snapshot(out_dir) == before
    assert listing(out_dir.parent) == ["www"]


def test_check_writes_nothing(built, tmp_path):
    root, _, _ = built
    change_a_score(root)  # a stale site/: --check must still leave it alone
    before = snapshot(root)
    check = sitegen("build", "--check", "--root", str(root), cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert snapshot(root) == before
    assert listing(root) == sorted([".sitegen-cache", "methodology", "scores", "site"])  # the build's cache


def test_check_on_a_fresh_tree_creates_no_site(tmp_path):
    root = make_tree(tmp_path / "repo")
    before = snapshot(root)
    check = sitegen("build", "--check", "--root", str(root), cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert snapshot(root) == before
    assert not (root / "site").exists()
    assert listing(tmp_path) == ["repo"]


def test_a_failed_swap_puts_the_previous_site_back(tmp_path, monkeypatch):
    # Where the atomic exchange is unavailable the swap is two renames (site -> old, new -> site); if the second
    # fails (e.g. EXDEV, a full disk), site/ must be the previous build again, not missing with the old copy
    # parked in a temp folder, and the failure is a problem rather than a crash.
    import os

    from sitegen import write

    out = tmp_path / "site"
    write.atomic_build(out, lambda folder: write.write_files(folder, {"index.html": "old\n"}) or [])
    real_replace = os.replace

    def failing_replace(src, dst):
        if Path(src).name.startswith(".site.new-"):
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(write, "_exchange", lambda a, b: False)
    monkeypatch.setattr(os, "replace", failing_replace)
    problems = write.atomic_build(out, lambda folder: write.write_files(folder, {"index.html": "new\n"}) or [])
    monkeypatch.undo()
    assert [p.format() for p in problems] == [
        "site: --out: cannot write the output: No space left on device (free disk space or choose a writable "
        "folder; the previous output is unchanged)"]
    assert snapshot(out) == {"index.html": b"old\n", ".sitegen-output": MARKER_TEXT}
    assert listing(tmp_path) == ["site"]


def test_the_swap_is_one_atomic_exchange(tmp_path, monkeypatch):
    """On Linux the new folder and the old one trade places in one renameat2 call: no rename of site/ happens."""
    import os

    from sitegen import write

    out = tmp_path / "site"
    write.atomic_build(out, lambda folder: write.write_files(folder, {"index.html": "old\n"}) or [])
    monkeypatch.setattr(os, "replace", lambda *a: pytest.fail("the swap fell back to two renames"))
    assert write.atomic_build(out, lambda folder: write.write_files(folder, {"index.html": "new\n"}) or []) == []
    assert snapshot(out) == {"index.html": b"new\n", ".sitegen-output": MARKER_TEXT}
    assert listing(tmp_path) == ["site"]


def test_the_up_to_date_shortcut_does_not_keep_output_built_for_another_site_url(built, tmp_path):
    # sitemap.xml is written from SITEGEN_SITE_URL (or GITHUB_REPOSITORY); changing it must rebuild.
    root, _, _ = built
    for url in ("https://a.example/board/", "https://b.example/"):
        out = sitegen("build", "--root", str(root), cwd=tmp_path, env={"SITEGEN_SITE_URL": url})
        assert out.returncode == 0, out.stderr
        assert url in (root / "site/sitemap.xml").read_text(encoding="utf-8"), (url, out.stderr)
