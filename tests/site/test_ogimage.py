"""Social preview images: one per board and one for the site, drawn in the font Pillow ships, byte-identical on
every run; the pages name them (og:image), and name themselves (og:title, canonical link and og:url only with a
site URL)."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys

from PIL import Image

from fixtures import make_context
from test_pages import Doc
from sitegen.site import ogimage, render_files

ROWS = [("1. Claude Opus 5 (Adaptive Reasoning, Max Effort)", "60.7 points"), ("2. o3 (medium)", "87.9%")]


def test_a_card_is_a_1200_by_630_png_in_the_sites_colours():
    png = ogimage.card("Leaderboards", "AI IQ", ROWS, "2 ranked")
    img = Image.open(io.BytesIO(png))
    assert (img.format, img.size, img.mode) == ("PNG", (1200, 630), "P")
    rgb = img.convert("RGB")
    assert rgb.getpixel((5, 5)) == ogimage.BAND and rgb.getpixel((5, 300)) == ogimage.PAPER
    # text is drawn: the row area holds ink, antialiased (more than two colours)
    assert len(rgb.crop((64, 280, 900, 400)).getcolors(maxcolors=1 << 16)) > 2
    assert not img.info.keys() - {"dpi", "transparency"}  # no date, software or other text chunk


def test_cards_are_byte_identical_across_runs_and_differ_with_their_data():
    code = ("import sys, hashlib; from sitegen.site import ogimage; "
            "sys.stdout.write(hashlib.sha256(ogimage.card('Leaderboards', 'AI IQ', "
            "[('1. Claude Opus 5 (Adaptive Reasoning, Max Effort)', '60.7 points'), ('2. o3 (medium)', '87.9%')], "
            "'2 ranked')).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    import hashlib
    assert runs == {hashlib.sha256(ogimage.card("Leaderboards", "AI IQ", ROWS, "2 ranked")).hexdigest()}
    assert ogimage.card("Leaderboards", "AI IQ", ROWS[:1], "2 ranked") != ogimage.card(
        "Leaderboards", "AI IQ", ROWS, "2 ranked")


def test_characters_the_shipped_font_lacks_get_stand_ins():
    assert ogimage._drawable("Pedagogy — CDPK · 3×") == "Pedagogy - CDPK · 3x"
    assert ogimage._drawable("Élan") == "Elan" and ogimage._drawable("模型") == "??"


def test_one_image_per_board_and_one_for_the_site_named_by_each_page():
    ctx = dataclasses.replace(make_context(40), site_url="https://acme.github.io/boards/")
    files = render_files(ctx)
    images = sorted(p for p in files if p.startswith(ogimage.FOLDER))
    assert images == sorted([ogimage.SITE_IMAGE] + [ogimage.board_image(b) for b in ctx.boards])
    assert all(files[p].startswith(b"\x89PNG") for p in images)

    def metas(path):
        doc = Doc(files[path].decode())
        tags = {a.get("property") or a.get("name"): a.get("content") for t, a in doc.elements if t == "meta"}
        links = [a["href"] for t, a in doc.elements if t == "link" and a.get("rel") == "canonical"]
        return tags, links

    bid = sorted(ctx.boards)[0]
    board_path = next(p for p in files if p.startswith("boards/") and p.endswith(f"{bid}/index.html"))
    tags, canonical = metas(board_path)
    assert tags["og:image"] == "https://acme.github.io/boards/" + ogimage.board_image(bid)
    assert canonical == [tags["og:url"]] == ["https://acme.github.io/boards/" + board_path.removesuffix("index.html")]
    assert tags["twitter:card"] == "summary_large_image"
    home, canonical = metas("index.html")
    assert home["og:title"] == ctx.site_name != "Home"
    assert home["og:image"] == "https://acme.github.io/boards/og/site.png"
    assert canonical == [home["og:url"]] == ["https://acme.github.io/boards/"]
    assert home["og:description"] == ctx.site_description
    model_path = next(p for p in files if p.startswith("models/") and p.count("/") == 3)
    model, _ = metas(model_path)
    assert model["og:image"].endswith("/og/site.png") and model["og:title"] not in ("", ctx.site_name)


def test_without_a_site_url_no_canonical_link_or_og_url_and_a_relative_image():
    files = render_files(make_context(40))
    doc = Doc(files["index.html"].decode())
    tags = {a.get("property") or a.get("name"): a.get("content") for t, a in doc.elements if t == "meta"}
    assert "og:url" not in tags and not [a for t, a in doc.elements if t == "link" and a.get("rel") == "canonical"]
    assert tags["og:image"] == "og/site.png"
