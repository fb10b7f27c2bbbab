"""Artificial Analysis model-page scrape with token use (2026-07): tokens to run the AA suite, prices, index.

Only AA's own columns are read (slug, name, type, intel, cost, tokens_m, inp, out); `blended`,
`eff_cost_per_m`, `cost_per_iq`, `iq_per_1k` and `tok_per_iq` were computed by the repository owner and are
ignored. The cost to run the suite has no benchmark id yet; it rides in the tokens result's notes.
"""

from __future__ import annotations

from pathlib import Path

from .extracts import Context, Extract, files_entry, number, pricing, read_dated_csv

SOURCES = ("aa-tokens-2026-07",)
URL = "https://artificialanalysis.ai/models/{slug}"
WEIGHTS = {"Proprietary": "closed", "Open weights": "open"}


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved, rows = read_dated_csv(paths, retrieved, source)
    ex = Extract(source, retrieved, files_entry([path]))
    for row in rows:
        name, url = row["name"].strip(), URL.format(slug=row["slug"].strip())
        ex.hint(name, row["creator"])
        cost = number(row["cost"])
        ex.result(
            name,
            "aa-suite-tokens",
            number(row["tokens_m"]),
            url=url,
            notes=f"cost to run the AA Intelligence Index: {cost} USD" if cost is not None else None,
        )
        ex.result(name, "aa-intelligence-index", number(row["intel"]), url=url)
        ex.model(
            name,
            weights=WEIGHTS.get(row["type"].strip()),
            pricing=pricing(number(row["inp"]), number(row["out"]), retrieved),
        )
    return ex
