"""What the compare page needs to say "A is ahead of B in 97% of simulations": each model's simulated ranks, a file
per model.

uncertainty.annotate keeps, on every composite board, the rank of each ranked row with draws in every one of the
board's seeded simulations (board["ahead"]["draws"]: models x draws, rows in rank order). The page counts, over the
draws, those in which one model's rank is smaller than the other's, those in which it is larger, and the rest
(ties): the same draws the rank ranges come from, so the same counts as the build would find pair by pair.

Why ranks per model, not counts per pair: the pairs whose draws overlap grow with the square of the models (about
140,000 on AI IQ alone with this repository's data, 87 million with 20,000 synthetic models, where counting them
took minutes and gigabytes), the ranks linearly (models x draws), and any two models' files give their exact counts.
Why one file per model, fetched only for the models a reader picks: a whole board's ranks would be 600 x 1,000
numbers to download for two counts. Each board's ranks of a model are written as its best rank and the base64 of
each draw's offset from it, little-endian, in the fewest bytes that hold the largest (1 when its ranks span fewer
than 256 places, as most do): 1.3 KB per board at 1,000 draws. With this repository's data the 678 files are 2.7 KB
at the median and 15 KB at most (a model on all ten boards), 2.6 MB in all (the counts per pair were 1.26 MB, but
grew with the square of the models); a reader fetches two to four of them, and the compare page itself carries only
a flag per model and the simulation count per board.
"""

from __future__ import annotations

import base64
from typing import Any

#: where the files live, next to the compare page: compare/ahead/<model's number on the compare page>.json
FOLDER = "compare/ahead/"


def ahead_files(ahead: dict[str, dict[str, Any]], number: dict[str, int]) -> dict[str, dict[str, Any]]:
    """{file path: data} for every model with draws on some board; `number` is each model's place in the compare
    page's model list. Per board a model's entry is [best rank, bytes per draw, base64 of the offsets]: in draw d
    its rank is best + the little-endian unsigned number in bytes d*w .. d*w+w-1 of the decoded offsets."""
    files: dict[str, dict[str, Any]] = {}
    for bid in sorted(ahead):
        block = ahead[bid]
        for mid, ranks in zip(block["models"], block["draws"]):
            if mid not in number:
                continue
            best = int(ranks.min()) if ranks.size else 1
            span = int(ranks.max()) - best if ranks.size else 0
            width = 1 if span < 2**8 else 2 if span < 2**16 else 4
            offsets = base64.b64encode((ranks - best).astype(f"<u{width}").tobytes()).decode("ascii")
            files.setdefault(f"{FOLDER}{number[mid]}.json", {"model": mid, "boards": {}})["boards"][bid] = [
                best,
                width,
                offsets,
            ]
    return files


def simulations(ahead: dict[str, dict[str, Any]], bid: str) -> int | None:
    """The number of simulations the counts of a board are out of (None: the board has none)."""
    block = ahead.get(bid)
    return block["simulations"] if block else None
