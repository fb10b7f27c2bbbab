"""A source's published index (kind `published`): AA's own figure per model, from one snapshot only, ranked."""

from __future__ import annotations

from indexkit import definition, models, results, row
from sitegen.indices import published

SNAP = "aa-api-2026-07"


def test_published_values_from_its_snapshot_only_ranked_with_ties_shared():
    frame = results(
        {"model": "a/one", "benchmark": "aa-intelligence-index", "value": 60.7, "source": SNAP,
         "url": "https://artificialanalysis.ai/models/one"},
        {"model": "a/two", "benchmark": "aa-intelligence-index", "value": 58.9, "source": SNAP},
        {"model": "a/tie", "benchmark": "aa-intelligence-index", "value": 58.9, "source": SNAP},
        # another snapshot's index is on another scale: never on this board
        {"model": "a/old", "benchmark": "aa-intelligence-index", "value": 68.5, "source": "aa-api-2025-10"},
        # a component AA publishes is not the index
        {"model": "a/gpqa", "benchmark": "gpqa-diamond", "value": 80.0, "source": SNAP},
    )
    board = published.compute(definition("aa-intelligence-v4-x"), frame, models())
    assert (board["index"], board["kind"], board["version"], board["source_snapshot"]) == (
        "aa-intelligence-v4-x", "published", "4.x", SNAP)
    assert [(r["model"], r["rank"], r["value"]) for r in board["rows"]] == [
        ("a/one", 1, 60.7), ("a/tie", 2, 58.9), ("a/two", 2, 58.9)]
    one = row(board, "a/one")
    assert (one["status"], one["source"], one["retrieved"], one["url"]) == (
        "published", SNAP, "2025-10-01", "https://artificialanalysis.ai/models/one")
    assert one["coverage"] == {"have": None, "of": None} and "components" not in one
    assert "not recomputed: components not public" in board["description"]
