"""Pedagogy benchmark models.csv: open weights, parameter count, release month and prices of the paper's models.

Several model_ids are one model served by different providers (e.g. `fw-llama-v3p2-1b-instruct` on Fireworks
and `llama-v3p2-1b-instruct-bf16`); the paper's price is the original-precision one from the most reliable
provider, chosen by `prefer` below.
"""

from __future__ import annotations

from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, pricing, read_csv

SOURCES = ("pedagogy-models",)
URL = "https://github.com/AI-for-Education/pedagogy-benchmark/blob/main/data/models.csv"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("models.csv carries no retrieval date; pass --retrieved")
    if len(paths) != 1:
        raise ImportError_(f"pedagogy-models reads one models.csv, got {len(paths)}")
    path = Path(paths[0])
    rows = read_csv(path)
    ex = Extract(source, retrieved, files_entry([path]))
    for row in rows:
        month, _, year = (row["release_date"] or "").strip().partition("/")
        ex.hint(row["model_id"], row["provider"], row["display_name"])
        size = number(row["size"], "1e-9")
        ex.model(
            row["model_id"].strip(),
            weights={"True": "open", "False": "closed"}.get(row["open"].strip()),
            released=f"{year}-{month}" if year and month else None,
            parameters={"total_b": size} if size else None,
            pricing=pricing(number(row["input_cost"]), number(row["output_cost"]), retrieved),
        )
    return ex


def prefer(model: str, records: list[tuple[str, dict]]) -> tuple[str, dict]:
    """Between two model_ids of one model: the original precision (bf16, no quantisation) from the model's
    own provider or a reference host beats a Fireworks (`fw-`) or FP8 endpoint; then the fuller price; then name."""

    def rank(rec: tuple[str, dict]):
        name, fields = rec
        p = fields.get("pricing") or {}
        return (name.startswith("fw-"), "fp8" in name, "output_per_mtok" not in p, name)

    return sorted(records, key=rank)[0]
