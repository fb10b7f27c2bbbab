"""Validated files -> tidy pandas frames: the only shape the engine sees. Columns are defined here once.

pandas is imported by the two functions that make frames, not here: validation takes the records (model_records,
result_records, published_of) and imports no pandas (tests/test_validation_records.py)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..known import known
from . import identity, metadata

if TYPE_CHECKING:
    import pandas as pd

    from .load import Doc, Repo

RESULT_COLUMNS = {
    "model": "string",
    "benchmark": "string",
    "metric": "string",
    "subset": "string",
    "harness": "string",
    "value": "float64",
    "source": "string",
    "retrieved": "string",
    "published": "string",
    "public_by": "bool",
    "url": "string",
    "n": "float64",
    "stderr": "float64",
    "ci_low": "float64",
    "ci_high": "float64",
    "cost_per_task_usd": "float64",
    "self_reported": "bool",
    "notes": "string",
    "origin": "string",
    "override": "string",
}
MODEL_COLUMNS = {
    "model": "string",
    "name": "string",
    "organization": "string",
    "released": "string",
    "weights": "string",
    "reasoning": "boolean",
    "reasoning_state": "string",
    "total_b": "float64",
    "active_b": "float64",
    "input_per_mtok": "float64",
    "output_per_mtok": "float64",
    "pricing_as_of": "string",
    "pricing_source": "string",
    "manual_iq": "float64",
    "manual_iq_source": "string",
    "family": "string",
    "context_window": "float64",
    "licence": "string",
    "origin": "string",
    "prices": "object",
    "release": "string",
    "effort": "string",
    "effort_rank": "float64",
    # Where each metadata value came from (metadata.label): the model file's path, a source id or a rule's line.
    "weights_source": "string",
    "reasoning_source": "string",
    "parameters_source": "string",
    "context_window_source": "string",
    "licence_source": "string",
    "released_source": "string",
    "context_window_approximate": "boolean",
    "kind": "string",
    "kind_source": "string",  # language (the default) or image-generation; boards filter on it  # the figure is a source's rounding (AA's '131k'), shown with '≈'
    "provenance": "object",  # field -> metadata.resolve's provenance dict (None when unknown)
}
METADATA_FIELDS = ("organization",)


def _num(value: object) -> float:
    """A known number as a float, else NaN: the frames' missing value."""
    value = known(value)
    return math.nan if value is None else value


def override_key(model: object, benchmark: object, source: object, entry: Mapping) -> tuple:
    return (model, benchmark, source, entry.get("metric", ""), entry.get("subset", ""), entry.get("harness", ""))


def excluded_records(repo: Repo) -> list[dict]:
    """The imported results scores/overrides.yaml excludes, each with the override's reason: no board shows them,
    so the benchmark pages list them (model, benchmark, source, value, url, reason), in the imported files' order."""
    excluded = {}
    if repo.overrides is not None:
        for entry in repo.overrides.data.get("overrides", []):
            if entry.get("exclude"):
                excluded[override_key(entry["model"], entry["benchmark"], entry["source"], entry)] = entry
    out = []
    for doc in sorted(repo.imported, key=lambda d: d.data["source"]):
        for result in doc.data.get("results", []):
            fix = excluded.get(override_key(result["model"], result["benchmark"], doc.data["source"], result))
            if fix is not None:
                out.append(
                    {
                        "model": result["model"],
                        "benchmark": result["benchmark"],
                        "metric": result.get("metric", ""),
                        "subset": result.get("subset", ""),
                        "harness": result.get("harness", ""),
                        "source": doc.data["source"],
                        "value": float(result["value"]),
                        "url": result.get("url", ""),
                        "reason": fix["reason"],
                    }
                )
    return out


def source_versions(repo: Repo) -> dict[str, str]:
    """Source id -> the date of the recorded version its hand-entered results were transcribed from
    (`published.date` in scores/sources.yaml; a paper's arXiv version)."""
    out = {}
    if repo.sources is not None:
        for entry in repo.sources.data.get("sources", []):
            date = (entry.get("published") or {}).get("date")
            if date:
                out[entry["id"]] = str(date)
    return out


def published_of(result: dict, retrieved: str, version_date: str | None) -> tuple[str, bool]:
    """(published, public_by) of one result: the date it states; else its source's recorded version's date; else
    the capture it was retrieved in, as "public by" (methodology/sources.md, "When a number became public")."""
    if result.get("published"):
        return str(result["published"]), bool(result.get("public_by", False))
    if version_date:
        return version_date, False
    return retrieved, True


def result_records(repo: Repo) -> list[dict]:
    """Every result as a flat record, imported values corrected or excluded by scores/overrides.yaml."""
    versions = source_versions(repo)
    overrides = {}
    if repo.overrides is not None:
        for entry in repo.overrides.data.get("overrides", []):
            if "value" in entry or entry.get("exclude"):  # a pre_release entry only dates the result (checks.py)
                overrides[override_key(entry["model"], entry["benchmark"], entry["source"], entry)] = entry
    records = []
    for doc in list(repo.models) + list(repo.imported):
        imported = doc.kind == "imported"
        for result in doc.data.get("results", []):
            model = result["model"] if imported else doc.data["id"]
            source = doc.data["source"] if imported else result["source"]
            value = float(result["value"])
            note = ""
            if imported:
                fix = overrides.get(override_key(model, result["benchmark"], source, result))
                if fix is not None and fix.get("exclude"):
                    continue
                if fix is not None:
                    value, note = float(fix["value"]), fix["reason"]
            ci = result.get("ci95") or [None, None]
            retrieved = result.get("retrieved", doc.data.get("retrieved", ""))
            published, public_by = published_of(result, retrieved, None if imported else versions.get(source))
            records.append(
                {
                    "model": model,
                    "benchmark": result["benchmark"],
                    "metric": result.get("metric", ""),
                    "subset": result.get("subset", ""),
                    "harness": result.get("harness", ""),
                    "value": value,
                    "source": source,
                    "retrieved": retrieved,
                    "published": published,
                    "public_by": public_by,
                    "url": result.get("url", ""),
                    "n": _num(result.get("n")),
                    "stderr": _num(result.get("stderr")),
                    "ci_low": _num(ci[0]),
                    "ci_high": _num(ci[1]),
                    "cost_per_task_usd": _num(result.get("cost_per_task_usd")),
                    "self_reported": bool(result.get("self_reported", False)),
                    "notes": result.get("notes", ""),
                    "origin": doc.path,
                    "override": note,
                }
            )
    records.sort(
        key=lambda r: (
            r["model"],
            r["benchmark"],
            r["metric"],
            r["subset"],
            r["harness"],
            r["source"],
            r["retrieved"],
            r["origin"],
        )
    )
    return records


def results(repo: Repo, records: list[dict] | None = None) -> pd.DataFrame:
    import pandas as pd

    records = result_records(repo) if records is None else records
    frame = pd.DataFrame.from_records(records, columns=list(RESULT_COLUMNS))
    return frame.astype(RESULT_COLUMNS)


#: The source id of a vendor's list price entered by hand (a model file's `list_prices`).
VENDOR = "vendor"


def price_precedence(repo: Repo) -> dict[str, int]:
    """Each source's `price_precedence` in scores/sources.yaml (methodology/cost.md): {source id: number}, only
    for the sources that state one."""
    entries = repo.sources.data.get("sources") if repo.sources is not None else None
    return {
        s["id"]: int(s["price_precedence"])
        for s in entries or []
        if isinstance(s, Mapping) and isinstance(s.get("price_precedence"), int)
    }


def price_tier(source: str, precedence: Mapping[str, int] | None = None) -> float:
    """Precedence of a price's source (methodology/cost.md), lower wins: the vendor's list price entered by hand
    first, then each source by its `price_precedence` (frame.price_precedence; sources with the same number count
    as one source, newest price first), then every source without one."""
    if source == VENDOR:
        return 0
    return (precedence or {}).get(source, math.inf)


def newest_first(day: str) -> tuple:
    """A sort key that puts later ISO dates first."""
    return tuple(-ord(c) for c in str(day))


def price_observations(record: Mapping) -> list[dict]:
    """Every dated price a model's record carries: each source's price and each hand-entered vendor list price."""
    out = []
    for source, price in sorted((record.get("prices") or {}).items()):
        if price.get("as_of"):
            out.append(
                {
                    "date": str(price["as_of"]),
                    "input": known(price.get("input_per_mtok")),
                    "output": known(price.get("output_per_mtok")),
                    "source": source,
                }
            )
    for entry in record.get("list_prices") or []:
        out.append(
            {
                "date": str(entry["as_of"]),
                "input": known(entry.get("input_per_mtok")),
                "output": known(entry.get("output_per_mtok")),
                "source": VENDOR,
                "url": entry.get("url"),
                "captured": bool(entry.get("capture")),
            }
        )
    return out


def _deciding(observations: list[dict], day: str, precedence: Mapping[str, int] | None = None) -> dict | None:
    """The observation that sets the price on `day` (methodology/cost.md).

    From the vendor's first list price on, the vendor's newest list price dated on or before `day`: a list price
    has the day it took effect. Before it, the other sources' prices are captures, each saying what the price was
    on the day it was read, not since when: the highest-precedence source among them (price_tier; the sources of
    one precedence newest first) speaks for the whole period, its newest price dated on or before `day`, else its
    first one (a lower source's earlier price is about the same period, so it disagrees, it does not set a price
    that the higher source then changes). None before the first price."""
    vendor = [o for o in observations if o["source"] == VENDOR]
    known = [o for o in vendor if o["date"] <= day]
    if known:
        return max(known, key=lambda o: o["date"])
    start = min((o["date"] for o in vendor), default=None)
    captures = [o for o in observations if o["source"] != VENDOR and (start is None or o["date"] < start)]
    if not any(o["date"] <= day for o in captures):
        return None
    tier = min(price_tier(o["source"], precedence) for o in captures)
    top = [o for o in captures if price_tier(o["source"], precedence) == tier]
    known = [o for o in top if o["date"] <= day]
    if not known:
        return min(top, key=lambda o: (o["date"], o["source"]))
    return min(known, key=lambda o: (newest_first(o["date"]), o["source"]))


def price_history(record: Mapping, precedence: Mapping[str, int] | None = None) -> tuple[list[dict], list[dict]]:
    """(steps, disagreements) of one model's prices; `precedence` is frame.price_precedence's (None: every source
    but the vendor's list price alike).

    A step is a dated change of the price in force (_deciding), made by the source that sets it for that period:
    {date (from when it holds), input, output, source (, url, captured for a list price; source_date where the
    source dates its price later than the step, a capture speaking for the period before it)}. A price that
    differs from the one in force on its own date is a disagreement, kept with the price it disagrees with
    ("in_force": date, input, output, source), never a step."""
    observations = price_observations(record)
    steps: list[dict] = []
    disagreements = []
    for day in sorted({o["date"] for o in observations}):
        decider = _deciding(observations, day, precedence)
        if decider is None:
            continue
        if not steps or (steps[-1]["input"], steps[-1]["output"]) != (decider["input"], decider["output"]):
            steps.append(
                {**decider, "date": day, **({"source_date": decider["date"]} if decider["date"] != day else {})}
            )
        for other in (o for o in observations if o["date"] == day and o is not decider):
            if (other["input"], other["output"]) != (decider["input"], decider["output"]):
                disagreements.append(
                    {**other, "in_force": {k: decider.get(k) for k in ("date", "input", "output", "source")}}
                )
    return steps, disagreements


def model_records(repo: Repo) -> list[dict]:
    """One record per model file, with metadata from imported files and scores/metadata.yaml where it is silent.

    Weights, reasoning, parameters, context window and licence follow metadata.resolve's precedence (model file
    > reviewed rule > a source's per-model value > release > family > organisation rule) and record where each came from.
    Organisation comes from the model file. Today's price is the one in force at the end of the model's price
    history (price_history: the vendor's list price, then the sources by their `price_precedence` in
    scores/sources.yaml, then the others). Then each release's weights, parameters, licence, release date and list price are given to its
    configurations that lack them, where the ones that state them agree (metadata.inherit_release).
    """
    imported_meta: dict[str, list[tuple[str, str, dict]]] = {}
    for doc in sorted(repo.imported, key=lambda d: d.data["source"]):
        for entry in doc.data.get("models", []):
            imported_meta.setdefault(entry["model"], []).append((doc.data["source"], doc.path, entry))
    rules = metadata.rules_of(repo.metadata)
    precedence = price_precedence(repo)
    records = [
        _model_record(doc, imported_meta.get(doc.data["id"], []), rules, precedence)
        for doc in sorted(repo.models, key=lambda d: d.data["id"])
    ]
    metadata.inherit_release(records)  # release-level facts, once per release (disagreements: sitegen validate)
    return records


def _model_record(
    doc: Doc, candidates: list[tuple[str, str, dict]], rules: metadata.RuleSet, precedence: Mapping[str, int]
) -> dict:
    """One model file's record before its release's facts are inherited; candidates: (source, path, entry) of each
    imported file's per-model metadata for it, in source-id order; precedence: price_precedence's."""
    data = doc.data
    meta = _stated_metadata(data, candidates)
    values, provenance = metadata.resolve(data, [(source, e) for source, _, e in candidates], rules)
    params = values["parameters"] or {}
    # Every source's own price, for boards that must use one source's prices (e.g. a paper's).
    prices = {source: dict(e["pricing"]) for source, _, e in candidates if e.get("pricing")}
    if data.get("pricing"):
        prices[data["pricing"]["source"]] = dict(data["pricing"])
    manual = data.get("manual_iq") or {}
    # The file's effort decides reasoning; without an effort, reasoning: false places it at none. A rule's
    # 'not stated' is no mode: `reasoning` stays unknown and `reasoning_state` says the vendor is silent.
    stated = values["reasoning"] if isinstance(values["reasoning"], bool) else None
    effort, reasoning = identity.effective(data.get("effort"), stated)
    if data.get("effort") is not None:
        provenance["reasoning"] = {"by": "model"}
    record = {
        "model": data["id"],
        "name": data["name"],
        "organization": meta["organization"] or data["organization"],
        "released": values["released"],
        "weights": values["weights"],
        "reasoning": reasoning,
        "reasoning_state": metadata.reasoning_state(values["reasoning"] if reasoning is None else reasoning),
        "total_b": _num(params.get("total_b")),
        "active_b": _num(params.get("active_b")),
        **_price_columns(_pricing_today(data, prices, precedence)),
        "manual_iq": _num(manual.get("value")),
        "manual_iq_source": manual.get("source"),
        "family": data.get("family"),
        "context_window": _num(values["context_window"]),
        "licence": values["licence"],
        "origin": doc.path,
        "prices": prices,
        "list_prices": [dict(e) for e in data.get("list_prices") or []],
        "release": data["release"],
        "effort": identity.effort_label(effort),
        "effort_rank": identity.effort_rank(effort, reasoning),
        "former_ids": list(data.get("former_ids") or []),
        "kind": values["kind"] or metadata.KINDS[0],
    }
    for key in metadata.FIELDS:
        record[f"{key}_source"] = metadata.label(provenance[key], doc.path)
    record["context_window_approximate"] = _window_approximate(provenance["context_window"], candidates)
    record["provenance"] = provenance
    return record


def _stated_metadata(data: dict, candidates: list[tuple[str, str, dict]]) -> dict:
    """METADATA_FIELDS as the model file states them, else as the first imported file that does."""
    meta = {key: data.get(key) for key in METADATA_FIELDS}
    for _, _, entry in candidates:
        for key in METADATA_FIELDS:
            if meta[key] is None and entry.get(key) is not None:
                meta[key] = entry[key]
    return meta


def _price_columns(pricing: dict | None) -> dict:
    """Today's price as the record's columns (NaN and None without one)."""
    return {
        "input_per_mtok": _num(pricing.get("input_per_mtok")) if pricing else math.nan,
        "output_per_mtok": _num(pricing.get("output_per_mtok")) if pricing else math.nan,
        "pricing_as_of": pricing.get("as_of") if pricing else None,
        "pricing_source": pricing.get("source") if pricing else None,
    }


def _window_approximate(window: dict | None, candidates: list[tuple[str, str, dict]]) -> bool:
    """Whether the context window came from a source that marks it approximate."""
    return bool(
        window
        and window["by"] == "source"
        and any(source == window["source"] and e.get("context_window_approximate") for source, _, e in candidates)
    )


def _pricing_today(data: dict, prices: dict[str, dict], precedence: Mapping[str, int]) -> dict | None:
    """The model file's `pricing`, replaced by the price in force at the end of the model's price history when it
    has one: the same precedence as every past date's (price_history)."""
    pricing = dict(data["pricing"]) if data.get("pricing") else None
    steps, _ = price_history({"prices": prices, "list_prices": data.get("list_prices")}, precedence)
    if not steps:
        return pricing
    now = steps[-1]
    return {
        "input_per_mtok": now["input"],
        "output_per_mtok": now["output"],
        "as_of": now.get("source_date", now["date"]),
        "source": now["source"],
    }


def release_disagreements(repo: Repo) -> list[tuple[str, str, dict]]:
    """(release, field, {model id: value}) where a release's configurations disagree (metadata.inherit_release)."""
    # model_records has inherited already; a disagreement is never filled, so asking again finds the same ones
    return metadata.inherit_release(model_records(repo))


def models(repo: Repo, records: list[dict] | None = None) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame.from_records(model_records(repo) if records is None else records, columns=list(MODEL_COLUMNS))
    return frame.astype(MODEL_COLUMNS)
