"""The pages whose views are built only where they are rendered (site/assembly._Deferred: the boards', the
benchmarks', the front page and the compare page) are keyed by what their views are built from (_Facts): a key that
is unchanged after an edit stands for the same data, and an edit changes the keys of the pages it reaches only.

The tree, its first build and the edits are tests/test_incremental.py's (24 model files with seeded random scores)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import yaml

import test_incremental
from sitegen import build, reuse
from sitegen.site import assembly, ogimage
from test_incremental import check_against_clean, dump, edit_methodology, inodes, kept_and_changed_keys, planned

#: test_incremental's fixtures: the tree each test copies, and its first build (which `tree` copies)
tree = test_incremental.tree
first_build = test_incremental.first_build

def deferred_outputs(seen: dict) -> dict[str, tuple[str | None, bytes]]:
    """Every deferred page's key as render_files makes it without the page's views (its fields and view inputs,
    with its page and charts) and what the key stands for: the page's whole data and charts, pickled."""
    out = {}
    for page in seen["pages"]:
        if isinstance(page.data, assembly._Deferred):
            data = page.data()
            charts = assembly._page_charts(page, data, seen["charts"])
            assert assembly._page_charts(page, page.data.chart_fields(), seen["charts"]) == charts
            inputs = page.data.inputs()
            assert inputs is not None, page.path
            shown = dataclasses.replace(page, data={})  # its path, template, title and description
            key = reuse.key_of(shown, inputs, charts)
            assert key is not None, page.path
            out[page.path] = (key, pickle.dumps((data, charts)))
    return out


def test_a_deferred_page_key_covers_its_data(tree, monkeypatch):
    """After each edit, every board, benchmark, front and compare page whose key is unchanged has the same data
    (its views built) as before; a result's edit changes the keys of the pages that show it and leaves the others
    (a benchmark the model has no result on)."""
    rng = random.Random(7)
    before = deferred_outputs(planned(tree, monkeypatch))
    assert {"index.html", "compare/index.html"} <= set(before)
    assert any(p.startswith("boards/") and "/releases/" in p for p in before)
    assert any(p.startswith("benchmarks/") for p in before)
    kept, changed = kept_and_changed_keys(tree, monkeypatch, rng, before, deferred_outputs)  # keys are never None here
    # the tree's one board (AI IQ) reads every result; a benchmark's page only its own
    assert {p for p in kept if p.startswith("benchmarks/")} and {p for p in changed if p.startswith("benchmarks/")}
    assert {"boards/ai-iq/index.html", "boards/ai-iq/releases/index.html", "compare/index.html"} <= changed


def test_a_result_edit_changes_the_keys_of_the_pages_that_show_it_only(tree, monkeypatch):
    """A model's first result moved by a tenth (as issue #33's one-file edit): its benchmark's page and the compare
    page (every value) change keys; the benchmarks it has no result on keep theirs."""
    path = sorted((tree / "scores/models").rglob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    seen = planned(tree, monkeypatch)
    before = deferred_outputs(seen)
    mid = path.relative_to(tree / "scores/models").with_suffix("").as_posix()
    doc = yaml.safe_load(text)
    bench = doc["results"][0]["benchmark"]
    others = {r["benchmark"] for r in doc["results"]}
    doc["results"][0]["value"] = round(doc["results"][0]["value"] + 0.1, 1)
    dump(path, doc)
    after = deferred_outputs(planned(tree, monkeypatch))
    moved = {p for p in before if before[p][0] != after[p][0]}
    urls = seen["urls"]
    assert urls.benchmark[bench] in moved and "compare/index.html" in moved, (mid, sorted(moved))
    untouched = {urls.benchmark[b] for b in urls.benchmark if b not in others}
    assert untouched and not untouched & moved


def test_a_social_image_is_drawn_again_only_when_what_it_shows_changes(tree, tmp_path, monkeypatch):
    """The social images are keyed by what they are drawn from (assembly._social_images): a methodology page's edit
    draws none (each is the previous site's file), a result's edit draws the board card it changes, and the
    site is the clean build's."""
    drawn: list[str] = []
    card = ogimage.card
    monkeypatch.setattr(ogimage, "card", lambda *a: drawn.append(a[1]) or card(*a))

    def images() -> dict[str, int]:
        return {rel: ino for rel, ino in inodes(tree / "site").items() if rel.startswith(ogimage.FOLDER)}

    before = images()
    assert set(before) == {ogimage.SITE_IMAGE, ogimage.board_image("ai-iq")}  # the tree has one board
    edit_methodology(tree, random.Random(3))
    assert build.run(tree, tree / "site").summary
    assert drawn == [] and images() == before
    path = tree / "scores/models/org0/m00.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["results"][0]["value"] = 99.0  # to the top of AI IQ: its card's first line
    dump(path, doc)
    assert build.run(tree, tree / "site").summary
    board = ogimage.board_image("ai-iq")
    assert "AI IQ" in drawn and images()[board] != before[board]
    check_against_clean(tree, tmp_path)
