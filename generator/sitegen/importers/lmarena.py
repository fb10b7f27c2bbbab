"""LMArena (arena-catalog): overall text rating with style control, category `full`, and its price table.

The rating's 2.5%/97.5% quantiles become `ci95`. scatterplot-data.json (optional) gives $/1M prices and
licences, keyed by `model_api_name`, which is also the leaderboard's key.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, pricing, read_json

SOURCES = ("lmarena",)
URL = "https://lmarena.ai/leaderboard/text"
RATINGS = "leaderboard-text-style-control.json"
PRICES = "scatterplot-data.json"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the LMArena files carry no retrieval date; pass --retrieved")
    by_name = {Path(p).name: Path(p) for p in paths}
    if RATINGS not in by_name or set(by_name) - {RATINGS, PRICES}:
        raise ImportError_(f"lmarena reads {RATINGS} (and optionally {PRICES}), got {sorted(by_name)}")
    ordered = [by_name[n] for n in (RATINGS, PRICES) if n in by_name]
    ex = Extract(source, retrieved, files_entry(ordered))
    board = read_json(by_name[RATINGS], parse_float=Decimal)["full"]
    for name, r in board.items():
        ex.result(name, "lmarena-text", number(r["rating"]), ci95=[number(r["rating_q025"]), number(r["rating_q975"])])
    if PRICES in by_name:
        for p in read_json(by_name[PRICES]):
            ex.hint(p["model_api_name"], p.get("organization"), p.get("name"))
            licence = (p.get("license") or "").strip() or None
            licence = "Proprietary" if licence == "Propretary" else licence  # one entry misspells it
            ex.model(
                p["model_api_name"],
                licence=licence,
                weights=weights_from_licence(licence),
                reasoning=reasoning_from_name(p["model_api_name"]),
                pricing=pricing(number(p.get("input_token_price")), number(p.get("output_token_price")), retrieved),
            )
    return ex


def weights_from_licence(licence: str | None) -> str | None:
    """LMArena's licence column: "Proprietary" (once misspelt "Propretary") means closed weights; a named licence
    (Apache 2.0, MIT, Llama, Qwen, CC-BY-NC, MRL, ...) is the licence of published weights."""
    if not licence:
        return None
    return "closed" if licence.lower() in ("proprietary", "propretary") else "open"


def reasoning_from_name(name: str) -> bool | None:
    """What an LMArena model name says: "-thinking"/"-think"/"-reasoning" is a reasoning configuration and
    "-no-thinking" one with reasoning off; a bare name says nothing (o3 reasons without saying so)."""
    words = name.lower().split("-")
    for i, word in enumerate(words):
        if word in ("thinking", "think", "reasoning"):
            return not (i > 0 and words[i - 1] in ("no", "non"))
    return None
