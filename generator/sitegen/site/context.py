"""SiteContext: everything the site renders, gathered before any page is written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..data import frame
from ..data.load import Repo
from ..indices.board_types import Board, Row
from ..known import known

SITE_NAME = "Leaderboards"
SITE_DESCRIPTION = (
    "Open, reproducible leaderboards of AI models: every number with its source, every imputed value with its reason."
)


@dataclass(frozen=True)
class Presentation:
    """methodology/site.yaml (schemas/site.schema.json): the order of the boards, what the front page leads with,
    which charts the site draws (each by name: its kind, the boards it plots and its words) and which each page
    shows, the board the models' list shows, and the definitions explained on another's methodology page. The defaults are a site
    without one: boards in id order, no charts, no board on the models' list, each definition on its own page."""

    boards: tuple[str, ...] = ()
    headline_fallback: int = 3
    home_charts: tuple[str, ...] = ()
    model_charts: tuple[str, ...] = ()
    gallery: tuple[str, ...] = ()
    board_charts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: chart name -> {"kind": chart kind, the boards it plots: "board" or "x" and "y", and the texts it gives
    #: (data/chart_texts.CHART_TEXTS: "title", "description", axis titles...; a text left out is the kind's default)},
    #: in the file's order
    charts: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the board whose value the models' list shows beside each model ("": none)
    models_board: str = ""
    #: a definition id or family (its id without "-vN") -> the methodology page (file stem) that explains it
    methodology_pages: dict[str, str] = field(default_factory=dict)
    #: charts.prices.description: the price chart's description ("": its default, charts.price_description)
    price_description: str = ""

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> Presentation:
        """From the file's data (validated by its schema); None: no file."""
        data = data or {}
        charts = data.get("charts") or {}
        return cls(
            tuple(data.get("boards") or ()),
            int((data.get("headline") or {}).get("fallback", 3)),
            tuple(charts.get("home") or ()),
            tuple(charts.get("model") or ()),
            tuple(charts.get("gallery") or ()),
            {bid: tuple(kinds) for bid, kinds in (charts.get("boards") or {}).items()},
            {name: dict(chart) for name, chart in (charts.get("draw") or {}).items()},
            str((data.get("models") or {}).get("board") or ""),
            dict(data.get("methodology_pages") or {}),
            str((charts.get("prices") or {}).get("description") or ""),
        )


@dataclass(frozen=True)
class SiteContext:
    """The computed data the site is rendered from; the renderer never reads the data tree itself."""

    boards: dict[str, Board]
    benchmark_boards: dict[str, Board]
    models: list[dict[str, Any]]
    benchmarks: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    index_defs: dict[str, dict[str, Any]]
    methodology_pages: dict[str, str]
    frontiers: dict[str, Any]
    data_date: str
    api_files: Mapping[str, str] = field(default_factory=dict)  # export.Texts in a build
    site_name: str = SITE_NAME
    site_description: str = SITE_DESCRIPTION
    repo_url: str = ""
    site_url: str = ""
    #: history.changelog.summary_entries: data commits newest first; empty when the build ran without git history
    history: list[dict[str, Any]] = field(default_factory=list)
    #: CITATION.cff's data (yaml.safe_load), or None when there is none
    citation: dict[str, Any] | None = None
    #: per source id: the names it lists that are not attributed to a model, with reason and values
    not_attributed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: imported results a reviewed override excludes (data.frame.excluded_records), each with its reason
    excluded: list[dict[str, Any]] = field(default_factory=list)
    #: indices/asof.compute_asof: every board by month and view, price steps per model, frontiers over time
    as_of: dict[str, Any] = field(default_factory=dict)
    #: per board id: uncertainty.annotate's board["ahead"] (each ranked row's simulated rank in every draw)
    ahead: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: methodology/site.yaml: board order, the front page's fallback, which charts each page shows
    presentation: Presentation = field(default_factory=Presentation)


class Computed(Protocol):
    """What site_context reads of build.Computed (build/ sits above site/ in the layers: the site names the fields it
    reads, not the class)."""

    @property
    def boards(self) -> dict[str, Board]: ...
    @property
    def benchmark_boards(self) -> dict[str, Board]: ...
    @property
    def benchmarks(self) -> list[dict[str, Any]]: ...
    @property
    def sources(self) -> list[dict[str, Any]]: ...
    @property
    def index_defs(self) -> dict[str, dict[str, Any]]: ...
    @property
    def api_files(self) -> Mapping[str, str]: ...
    @property
    def frontiers(self) -> dict[str, Any]: ...
    @property
    def result_records(self) -> list[dict[str, Any]]: ...
    @property
    def model_records(self) -> list[dict[str, Any]]: ...
    @property
    def as_of(self) -> dict[str, Any]: ...
    @property
    def ahead(self) -> dict[str, dict[str, Any]]: ...


def rows_of(boards: Mapping[str, Board], bid: str) -> list[Row]:
    """The rows of board `bid`; none where the build has no such board."""
    board = boards.get(bid)
    return board.get("rows", []) if board is not None else []


def site_context(
    repo: Repo,
    computed: Computed,
    *,
    data_date: str,
    site_url: str = "",
    repo_url: str = "",
    history: Sequence[dict[str, Any]] = (),
) -> SiteContext:
    """The context of a build: build.compute's boards and records, the repository's model files, pages and
    citation, and the build's settings; each model's view (its file's fields, its results, its metadata) here."""
    by_model: dict[str, list] = {}
    for record in computed.result_records:
        by_model.setdefault(record["model"], []).append(record)
    merged = {r["model"]: r for r in computed.model_records}
    models = []
    for doc in sorted(repo.models, key=lambda d: d.data["id"]):
        view = _model_view(doc.data, by_model.get(doc.data["id"], []))
        _fill_metadata(view, merged[doc.data["id"]])
        models.append(view)
    # CITATION.cff, read and checked like every data file (strict YAML, its schema); None when it is missing
    citation = repo.citation.data if repo.citation is not None else None
    site = repo.site.data if repo.site is not None else {}
    return SiteContext(
        site_name=site.get("title", SITE_NAME),
        site_description=site.get("description", SITE_DESCRIPTION),
        presentation=Presentation.from_data(site),
        boards=computed.boards,
        benchmark_boards=computed.benchmark_boards,
        models=models,
        benchmarks=computed.benchmarks,
        sources=computed.sources,
        index_defs=computed.index_defs,
        methodology_pages=dict(repo.pages),
        frontiers=computed.frontiers,
        data_date=data_date,
        api_files=computed.api_files,
        site_url=site_url,
        repo_url=repo_url,
        as_of=computed.as_of,
        ahead=computed.ahead,
        history=list(history),
        citation=citation,
        not_attributed={d.data["source"]: list(d.data.get("not_attributed") or []) for d in repo.imported},
        excluded=frame.excluded_records(repo),
    )


def _model_view(data: dict, results: list[dict]) -> dict:
    return {
        "id": data["id"],
        "name": data["name"],
        "organization": data["organization"],
        "aliases": list(data.get("aliases", [])),
        "family": data.get("family"),
        "notes": data.get("notes"),
        "release": data.get("release"),
        "former_ids": list(data.get("former_ids", [])),
        "base_model": data.get("base_model"),
        "results": [
            {
                "benchmark": r["benchmark"],
                "value": r["value"],
                "metric": r["metric"] or None,
                "subset": r["subset"] or None,
                "harness": r["harness"] or None,
                "source": r["source"],
                "retrieved": r["retrieved"],
                "published": r["published"],
                "public_by": bool(r["public_by"]),
                "url": r["url"] or None,
                "stderr": known(r["stderr"]),
                "ci95": [r["ci_low"], r["ci_high"]] if known(r["ci_low"]) is not None else None,
                "notes": r["notes"] or None,
                "self_reported": r["self_reported"],
                "override": r["override"] or None,
            }
            for r in results
        ],
    }


def _fill_metadata(view: dict, rec: dict) -> None:
    view.update(
        {
            "released": rec["released"],
            "weights": rec["weights"],
            "reasoning": rec["reasoning"],
            "reasoning_state": rec.get("reasoning_state") or "not known",
            "effort": rec["effort"],
            "effort_rank": known(rec["effort_rank"]),
            "parameters": {"total_b": known(rec["total_b"]), "active_b": known(rec["active_b"])},
            "pricing": None
            if known(rec["input_per_mtok"]) is None
            else {
                "input_per_mtok": rec["input_per_mtok"],
                "output_per_mtok": known(rec["output_per_mtok"]),
                "as_of": rec["pricing_as_of"],
                "source": rec["pricing_source"],
            },
            "context_window": known(rec["context_window"]),
            "licence": rec["licence"],
            "context_window_approximate": bool(rec.get("context_window_approximate")),
            "kind": rec.get("kind") or "language",
            "metadata_provenance": rec.get("provenance") or {},
            "manual_iq": None
            if known(rec["manual_iq"]) is None
            else {"value": rec["manual_iq"], "source": rec["manual_iq_source"]},
        }
    )
