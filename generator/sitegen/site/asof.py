"""The board page's date control: what it needs in the page (a few hundred bytes) and the names file it loads.

The boards themselves are the API's pre-computed `api/v1/indices/<id>/<yyyy-mm>.json` (indices/asof.py); the page
lists the months as ranges and asof.js fetches a month's file only when a reader chooses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .context import SiteContext
from .numbers import number
from .pages import Urls

NAMES_FILE = "asof-names.json"
#: beside the board page: one file per month, the texts of that month's values (asof.js shows them as they are)
TEXTS_FOLDER = "asof/"


def month_ranges(months: list[str]) -> str:
    """Sorted "YYYY-MM" months as runs of consecutive months: "2023-07/2024-02 2024-05/2024-05"."""
    runs: list[list[str]] = []
    for month in sorted(months):
        if runs and _next(runs[-1][1]) == month:
            runs[-1][1] = month
        else:
            runs.append([month, month])
    return " ".join(f"{a}/{b}" for a, b in runs)


def _next(month: str) -> str:
    y, m = int(month[:4]), int(month[5:7])
    return f"{y + m // 12:04d}-{m % 12 + 1:02d}"


def control(ctx: SiteContext, bid: str, digits: int) -> dict[str, Any] | None:
    """The date control's data for a board page: the months of each view (as ranges) and the decimals the
    board's table shows values with; None when the board has no as-of months."""
    per_month: Mapping[str, Mapping] = ((ctx.as_of or {}).get("boards") or {}).get(bid) or {}
    if not per_month:
        return None
    gone = ((ctx.as_of or {}).get("superseded") or {}).get(_definition(per_month, bid)) or {}
    return {
        "id": bid,
        "known": month_ranges([m for m, v in per_month.items() if v.get("known")]),
        "released": month_ranges([m for m, v in per_month.items() if v.get("released")]),
        # months whose known view is empty because a later version had replaced this one: offered, to say so
        "superseded": month_ranges([m for m, v in per_month.items() if not v.get("known") and m in gone]),
        # the newest date in the data: today's board speaks for it, never for a later day
        "data_date": (ctx.as_of or {}).get("data_date") or ctx.data_date,
        "digits": digits,
    }


def _definition(per_month: Mapping[str, Mapping], bid: str) -> str:
    """The definition (index version) the as-of boards of `bid` were computed with; `bid` where none says."""
    return next(
        (v["definition"] for views in per_month.values() for v in views.values() if v and v.get("definition")), bid
    )


def names(ctx: SiteContext, urls: Urls, bid: str) -> dict[str, list]:
    """Model id -> [name, page path from the site root, organisation] for every model with a value on any as-of
    board of `bid`."""
    by_id = {m["id"]: m for m in ctx.models}
    seen: set[str] = set()
    for views in (((ctx.as_of or {}).get("boards") or {}).get(bid) or {}).values():
        for board in views.values():
            for row in (board or {}).get("rows", []):
                if row.get("value") is not None:
                    seen.add(row["model"])
    return {
        mid: [
            str((by_id.get(mid) or {}).get("name") or mid),
            urls.model_href(mid) or "",
            str((by_id.get(mid) or {}).get("organization") or ""),
        ]
        for mid in sorted(seen)
    }


def months(ctx: SiteContext, bid: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The as-of months of `bid` in order, each with its views' boards: what `texts` writes a file for."""
    return sorted((((ctx.as_of or {}).get("boards") or {}).get(bid) or {}).items())


def texts(ctx: SiteContext, bid: str, digits: int) -> dict[str, dict[str, dict[str, list]]]:
    """The shown text of every as-of board's numbers, one file per month (TEXTS_FOLDER + "<yyyy-mm>.json"):
    {view: {model id: [value, interval low, interval high]}}, each written by numbers.number with the decimals of
    today's board, so a value reads the same on the as-of board as on today's (None where there is none)."""
    return {f"{TEXTS_FOLDER}{month}.json": month_text(views, digits) for month, views in months(ctx, bid)}


def month_text(views: Mapping[str, Any], digits: int) -> dict[str, dict[str, list]]:
    """One month's file of `texts`: made from that month's views and the decimals only (a key of the two covers
    it, site/assembly._board_files)."""
    data = {}
    for view, board in sorted(views.items()):
        rows = {}
        for row in (board or {}).get("rows", []):
            iv = row.get("interval")
            low, high = (iv[0], iv[1]) if isinstance(iv, (list, tuple)) and len(iv) == 2 else (None, None)
            shown = [None if x is None else number(x, digits) for x in (row.get("value"), low, high)]
            if shown != [None, None, None]:
                rows[row["model"]] = shown
        data[view] = rows
    return data
