"""What the compare page needs to say "A is ahead of B in 97% of simulations": the build's own counts, one file per model.

uncertainty.annotate counts, on every composite board, how many of the seeded simulations put each ranked row
ahead of each other one (board["ahead"]: rows in rank order, and [i, j, a, b] for every pair the simulations do
not settle in rank order). The compare page never computes a share itself; it reads these counts.

Why one small file per model, fetched only for the models a reader picks: AI IQ alone has about 140,000 pairs
whose draws overlap, so every pair in the page (or one file per board) would be over a megabyte to download for
two numbers. Quantised draws per model would be as large (600 models x 1,000 draws) and would lose ties and the
exact counts. Per model, a pair costs about ten bytes and a reader fetches two to four files of a few KB each.
Each pair is stored once, in the file of the better-placed model: the page loads the files of all the models it
compares, so one of them holds it; a pair in neither file is one the better-placed model wins in every draw.
"""

from __future__ import annotations

from typing import Any

#: where the files live, next to the compare page: compare/ahead/<model's number on the compare page>.json
FOLDER = "compare/ahead/"


def ahead_files(ahead: dict[str, dict[str, Any]], number: dict[str, int]) -> dict[str, dict[str, Any]]:
    """{file path: data} for every model with draws on some board; `number` is each model's place in the compare
    page's model list. Per board a model's entry is [its place in the board's rank order, pairs], each pair
    [other model's number, draws it is ahead, draws the other is ahead] with the last left out when there are no
    ties (it is then the simulations less the first)."""
    files: dict[str, dict[str, Any]] = {}
    for bid in sorted(ahead):
        block = ahead[bid]
        models, sims = block["models"], block["simulations"]
        own: list[list[list[int]]] = [[] for _ in models]
        for i, j, a, b in block["pairs"]:
            if models[j] in number:
                own[i].append([number[models[j]], a] if a + b == sims else [number[models[j]], a, b])
        for place, mid in enumerate(models):
            if mid not in number:
                continue
            entry = files.setdefault(f"{FOLDER}{number[mid]}.json", {"model": mid, "boards": {}})
            entry["boards"][bid] = [place, own[place]]
    return files


def simulations(ahead: dict[str, dict[str, Any]], bid: str) -> int | None:
    """The number of simulations the counts of a board are out of (None: the board has none)."""
    block = ahead.get(bid)
    return block["simulations"] if block else None
