"""SiteContext: everything the site renders, gathered before any page is written."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SiteContext:
    """The computed data the site is rendered from; the renderer never reads the data tree itself."""

    boards: dict[str, dict[str, Any]]
    benchmark_boards: dict[str, dict[str, Any]]
    models: list[dict[str, Any]]
    benchmarks: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    index_defs: dict[str, dict[str, Any]]
    methodology_pages: dict[str, str]
    frontiers: dict[str, Any]
    data_date: str
    api_files: dict[str, str] = field(default_factory=dict)
    site_name: str = "Leaderboards"
    site_description: str = (
        "Open, reproducible leaderboards of AI models: every number with its source, "
        "every imputed value with its reason."
    )
    repo_url: str = ""
    site_url: str = ""
    headline_boards: tuple[str, ...] = ("ai-iq", "aa-intelligence-v3-0", "pedagogy-cdpk", "hle")
    #: history.summary_entries: data commits newest first; empty when the build ran without git history
    history: list[dict[str, Any]] = field(default_factory=list)
    #: CITATION.cff's data (yaml.safe_load), or None when there is none
    citation: dict[str, Any] | None = None
    #: per source id: the names it lists that are not attributed to a model, with reason and values
    not_attributed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: indices/asof.compute_asof: every board by month and view, price steps per model, frontiers over time
    as_of: dict[str, Any] = field(default_factory=dict)
    #: per board id: uncertainty.annotate's board["ahead"] (how often each ranked row is ahead of each other one)
    ahead: dict[str, dict[str, Any]] = field(default_factory=dict)
