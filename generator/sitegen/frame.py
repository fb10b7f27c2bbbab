"""Validated files -> tidy pandas frames: the only shape the engine sees. Columns are defined here once."""

from __future__ import annotations

import math

import pandas as pd

RESULT_COLUMNS = {
    "model": "string", "benchmark": "string", "metric": "string", "subset": "string", "harness": "string",
    "value": "float64", "source": "string", "retrieved": "string", "url": "string",
    "n": "float64", "stderr": "float64", "ci_low": "float64", "ci_high": "float64",
    "cost_per_task_usd": "float64", "self_reported": "bool", "notes": "string", "origin": "string",
    "override": "string",
}
MODEL_COLUMNS = {
    "model": "string", "name": "string", "organization": "string", "released": "string", "weights": "string",
    "reasoning": "boolean", "total_b": "float64", "active_b": "float64", "input_per_mtok": "float64",
    "output_per_mtok": "float64", "pricing_as_of": "string", "pricing_source": "string", "manual_iq": "float64",
    "manual_iq_source": "string", "family": "string", "context_window": "float64", "licence": "string",
    "origin": "string", "prices": "object",
    # Model identity: the release a configuration belongs to, its reasoning-effort label and rank (higher = more
    # effort, NaN unknown). Filled with neutral defaults below until the identity work (model ids) supplies them.
    "release": "string", "effort": "string", "effort_rank": "float64",
}
METADATA_FIELDS = ("organization", "released", "weights", "reasoning", "context_window", "licence")


def _num(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan


def _override_key(model, benchmark, source, entry) -> tuple:
    return (model, benchmark, source, entry.get("metric", ""), entry.get("subset", ""), entry.get("harness", ""))


def result_records(repo) -> list[dict]:
    """Every result as a flat record, imported values corrected or excluded by scores/overrides.yaml."""
    overrides = {}
    if repo.overrides is not None:
        for entry in repo.overrides.data.get("overrides", []):
            overrides[_override_key(entry["model"], entry["benchmark"], entry["source"], entry)] = entry
    records = []
    for doc in list(repo.models) + list(repo.imported):
        imported = doc.kind == "imported"
        for result in doc.data.get("results", []):
            model = result["model"] if imported else doc.data["id"]
            source = doc.data["source"] if imported else result["source"]
            value = float(result["value"])
            note = ""
            if imported:
                fix = overrides.get(_override_key(model, result["benchmark"], source, result))
                if fix is not None and fix.get("exclude"):
                    continue
                if fix is not None:
                    value, note = float(fix["value"]), fix["reason"]
            ci = result.get("ci95") or [None, None]
            records.append({
                "model": model, "benchmark": result["benchmark"], "metric": result.get("metric", ""),
                "subset": result.get("subset", ""), "harness": result.get("harness", ""), "value": value,
                "source": source, "retrieved": result.get("retrieved", doc.data.get("retrieved", "")),
                "url": result.get("url", ""), "n": _num(result.get("n")), "stderr": _num(result.get("stderr")),
                "ci_low": _num(ci[0]), "ci_high": _num(ci[1]),
                "cost_per_task_usd": _num(result.get("cost_per_task_usd")),
                "self_reported": bool(result.get("self_reported", False)), "notes": result.get("notes", ""),
                "origin": doc.path, "override": note,
            })
    records.sort(key=lambda r: (r["model"], r["benchmark"], r["metric"], r["subset"], r["harness"], r["source"],
                                r["retrieved"], r["origin"]))
    return records


def results(repo, records: list[dict] | None = None) -> pd.DataFrame:
    records = result_records(repo) if records is None else records
    frame = pd.DataFrame.from_records(records, columns=list(RESULT_COLUMNS))
    return frame.astype(RESULT_COLUMNS)


def model_records(repo) -> list[dict]:
    """One record per model file, with metadata from imported files where the model file is silent.

    Hand-curated fields always win. Among imported files, the most recent pricing (by as_of, then source id)
    wins; other metadata comes from the first imported file in source-id order that has it.
    """
    imported_meta: dict[str, list[tuple[str, str, dict]]] = {}
    for doc in sorted(repo.imported, key=lambda d: d.data["source"]):
        for entry in doc.data.get("models", []):
            imported_meta.setdefault(entry["model"], []).append((doc.data["source"], doc.path, entry))
    records = []
    for doc in sorted(repo.models, key=lambda d: d.data["id"]):
        data = doc.data
        model_id = data["id"]
        meta = {key: data.get(key) for key in METADATA_FIELDS}
        params = dict(data.get("parameters") or {})
        pricing = dict(data["pricing"]) if data.get("pricing") else None
        candidates = imported_meta.get(model_id, [])
        for _, _, entry in candidates:
            for key in METADATA_FIELDS:
                if meta[key] is None and entry.get(key) is not None:
                    meta[key] = entry[key]
            for key, value in (entry.get("parameters") or {}).items():
                params.setdefault(key, value)
        if pricing is None:
            priced = [(e["pricing"]["as_of"], source, e["pricing"]) for source, _, e in candidates if e.get("pricing")]
            if priced:
                as_of, source, best = max(priced, key=lambda t: (t[0], t[1]))
                pricing = dict(best, source=source)
        # Every source's own price, for boards that must use one source's prices (e.g. a paper's).
        prices = {source: dict(e["pricing"]) for source, _, e in candidates if e.get("pricing")}
        if data.get("pricing"):
            prices[data["pricing"]["source"]] = dict(data["pricing"])
        manual = data.get("manual_iq") or {}
        records.append({
            "model": model_id, "name": data["name"], "organization": meta["organization"] or data["organization"],
            "released": meta["released"], "weights": meta["weights"], "reasoning": meta["reasoning"],
            "total_b": _num(params.get("total_b")), "active_b": _num(params.get("active_b")),
            "input_per_mtok": _num(pricing.get("input_per_mtok")) if pricing else math.nan,
            "output_per_mtok": _num(pricing.get("output_per_mtok")) if pricing else math.nan,
            "pricing_as_of": pricing.get("as_of") if pricing else None,
            "pricing_source": pricing.get("source") if pricing else None,
            "manual_iq": _num(manual.get("value")), "manual_iq_source": manual.get("source"),
            "family": data.get("family"), "context_window": _num(meta["context_window"]),
            "licence": meta["licence"], "origin": doc.path, "prices": prices,
            # NEUTRAL DEFAULTS, replaced by the identity branch's real values at merge: every model is its own
            # release with an unknown effort, so AI IQ's family match (same release, known effort) never fires.
            "release": model_id, "effort": "", "effort_rank": math.nan,
        })
    return records


def models(repo, records: list[dict] | None = None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(model_records(repo) if records is None else records, columns=list(MODEL_COLUMNS))
    return frame.astype(MODEL_COLUMNS)
