"""Social preview images (og:image): one PNG for the site and one per board, drawn at build time.

The text is set in the font Pillow ships inside its package (Aileron, ImageFont.load_default), so no system font
is read; the PNG carries no date or other metadata, so the same data gives the same bytes on every run.
"""

from __future__ import annotations

import functools
import io
import unicodedata
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .context import SiteContext
from .numbers import with_unit

#: where the images go, under the site root
FOLDER = "og/"
SITE_IMAGE = FOLDER + "site.png"
SIZE = (1200, 630)  # the size Open Graph and Twitter's large card crop least
INK, BAND, PAPER = (33, 33, 33), (63, 81, 181), (255, 255, 255)  # indigo: the site's primary colour
# The card is drawn in grey levels and saved as a palette image (a third of the pixels to compress, ten times
# faster to save): levels 0-127 blend the band's indigo into white (0 the band, 127 its white text), levels
# 128-255 the ink into white (128 the ink, 255 the paper; the footer's grey between).
PALETTE = [round(a + (255 - a) * i / 127) for i in range(128) for a in BAND] + [
    round(a + (255 - a) * i / 127) for i in range(128) for a in INK
]
L_BAND, L_BAND_TEXT, L_INK, L_MUTED, L_PAPER = 0, 127, 128, 161, 255
ROWS = 5
MARGIN = 64


def board_image(bid: str) -> str:
    """The image of a board, relative to the site root."""
    return f"{FOLDER}{bid}.png"


@functools.cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    # Pillow built without FreeType gives its one bitmap font at a fixed size: the layout below needs the size
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("the social images need Pillow with FreeType (its default font at a given size)")
    return font


@functools.cache
def _has_glyph(char: str) -> bool:
    """Whether the shipped font draws the character (else it draws the empty box of a missing glyph)."""
    font = _font(40)
    return char.isspace() or bytes(font.getmask(char)) != bytes(font.getmask("\ue000"))  # a private-use point


#: stand-ins for characters the shipped font lacks
STAND_IN = {"—": "-", "–": "-", "−": "-", "×": "x"}


def _drawable(text: str) -> str:
    """The text with each character the font lacks replaced by a stand-in, or "?"."""
    return "".join(c if _has_glyph(c) else STAND_IN.get(c) or _base_letter(c) for c in text)


def _base_letter(char: str) -> str:
    """An accented letter's base letter where the font has it ("é" -> "e"), else "?"."""
    base = unicodedata.normalize("NFKD", char)[:1]
    return base if base and base != char and _has_glyph(base) else "?"


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """The text cut to `width` pixels, with an ellipsis where it was cut."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float, lines: int) -> list[str]:
    """The text wrapped on spaces into at most `lines` lines of `width` pixels (the last one cut if it must be)."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and draw.textlength(f"{line} {words[0]}", font=font) <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words:
        out[-1] = _fit(draw, f"{out[-1]} {' '.join(words)}", font, width)
    return out


def card(site_name: str, title: str, lines: list[tuple[str, str]], footer: str) -> bytes:
    """One 1200×630 PNG: the site's name on a band, a title, up to ROWS (label, value) lines and a footer."""
    site_name, title, footer = _drawable(site_name), _drawable(title), _drawable(footer)
    lines = [(_drawable(label), _drawable(value)) for label, value in lines]
    img = Image.new("L", SIZE, L_PAPER)
    draw = ImageDraw.Draw(img)
    width = SIZE[0] - 2 * MARGIN
    draw.rectangle((0, 0, SIZE[0], 96), fill=L_BAND)
    draw.text((MARGIN, 30), _fit(draw, site_name, _font(36), width), font=_font(36), fill=L_BAND_TEXT)
    y = 128
    big = _font(52)
    for line in _wrap(draw, title, big, width, 2):
        draw.text((MARGIN, y), line, font=big, fill=L_INK)
        y += 64
    y += 20
    for label, value in lines[:ROWS]:
        value_w = draw.textlength(value, font=_font(34))
        room = width - value_w - 32
        # a long name (its configuration is part of it) is set smaller before it is cut
        row = next((_font(s) for s in (34, 30, 26) if draw.textlength(label, font=_font(s)) <= room), _font(26))
        draw.text((MARGIN, y + (34 - row.size) // 2), _fit(draw, label, row, room), font=row, fill=L_INK)
        draw.text((SIZE[0] - MARGIN - value_w, y), value, font=_font(34), fill=L_INK)
        y += 50
    draw.text((MARGIN, SIZE[1] - 64), _fit(draw, footer, _font(28), width), font=_font(28), fill=L_MUTED)
    out = Image.frombytes("P", SIZE, img.tobytes())
    out.putpalette(PALETTE)
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=False, compress_level=3)
    return buf.getvalue()


def images(ctx: SiteContext, views: dict[str, dict[str, Any]], headline: list[str]) -> dict[str, bytes]:
    """{path: PNG} for the site (its headline boards, each with how many models it ranks) and for each board view
    (views.board_view's, keyed by board id: its top rows with their values, formatted as the board formats them)."""
    out = {
        SITE_IMAGE: card(
            ctx.site_name,
            ctx.site_description,
            [(views[b]["title"], f"{views[b]['n_ranked']} ranked") for b in headline if b in views],
            f"{len(ctx.models)} models · {len(ctx.boards)} boards · data as of {ctx.data_date}",
        )
    }
    for bid, view in sorted(views.items()):
        top = [
            (f"{r['rank']}. {r['name']}", with_unit(r["value"], view["unit"], view["digits"]))
            for r in view["rows"]
            if r["rank"] is not None and r["value"] is not None
        ][:ROWS]
        out[board_image(bid)] = card(
            ctx.site_name, view["title"], top, f"{view['n_ranked']} ranked · data as of {ctx.data_date}"
        )
    return out
