"""Every Eval Ever (EEE, schema 0.3.0) JSON: import evaluation logs as records, export boards as evaluation logs.

Exported files follow EEE's datastore layout, data/<benchmark>/<developer>/<model>/<UUID4>.json.

One EEE file is one model evaluated by one evaluator at one retrieval time, with one or more
`evaluation_results`. Mapping (both directions):

| EEE | ours |
|---|---|
| `model_info.id`, then `model_info.name` | `model` (resolved through the registry's names and aliases) |
| `metric_id`, `evaluation_result_id`, `evaluation_name`; else `hf_repo` + `hf_config`, `additional_details.benchmark_hf_repo`, `dataset_name` | `benchmark` (and metric) by methodology/interchange-names.yaml; see `_benchmark` |
| `metric_config.metric_id` / `metric_name` | `metric` ("" for accuracy/score/pass@1/..., else a declared metric; pass@k with k > 1 only as a declared metric) |
| `source_data.additional_details.subset`, `hf_config` | `subset` (when the benchmark declares it) |
| `eval_library.name` (unless "unknown") | `harness` |
| `score_details.score` | `value` (x100 on a percent benchmark when `max_score` is 1) |
| `uncertainty.standard_error.value` | `stderr` (same scaling) |
| `uncertainty.confidence_interval` at level 0.95 | `ci95` |
| `uncertainty.num_samples`, else `source_data.samples_number` | `n` |
| `source_metadata.evaluator_relationship` first_party / collaborative | `self_reported: true` (third_party, other: false) |
| `retrieved_timestamp` (Unix seconds) | `retrieved` (its UTC date) |
| `score_details.details.url` / `.notes` | `url` / `notes` |

A result whose `lower_is_better` contradicts the benchmark's direction is skipped: it is another metric.
"""

from __future__ import annotations

import calendar
import datetime
import json
import uuid
from typing import Any

from ..known import known
from .records import (
    NUMBER,
    PRIMARY_METRICS,
    SCORE,
    TEXT,
    Benchmarks,
    Imported,
    NamesTable,
    Refused,
    Resolve,
    at_k,
    board_records,
    build_doc,
    clean_number,
    norm,
    parse_json,
    percent_factor,
    problem,
    record,
    resolve_one,
    shape_problems,
)

SCHEMA_VERSION = "0.3.0"
NAMESPACE = uuid.UUID("6f1c1d2e-6a77-4d0e-9a38-5e6b1f3c2a10")  # sitegen's namespace for deterministic file ids
SELF_REPORTED: dict[object, bool] = {"first_party": True, "collaborative": True, "third_party": False, "other": False}


def file_id(key: str) -> uuid.UUID:
    """A deterministic file id shaped as EEE requires (version 4, RFC 4122 variant): the name-based UUID of `key`
    in sitegen's namespace with its version bits set to 4. Same key, same id; the ids are as unique as uuid5's."""
    return uuid.UUID(bytes=uuid.uuid5(NAMESPACE, key).bytes, version=4)


def date_of(timestamp) -> str | None:
    """An EEE timestamp (Unix seconds as text, or ISO 8601) as an ISO date in UTC; None when it is not one."""
    if timestamp in (None, "") or isinstance(timestamp, (bool, dict, list)):
        return None
    text = str(timestamp).strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            return datetime.date.fromisoformat(text[:10]).isoformat() if len(text) >= 10 else None
        except ValueError:
            return None
    try:
        return datetime.datetime.fromtimestamp(seconds, datetime.UTC).date().isoformat()
    except (ValueError, OverflowError, OSError):  # NaN, infinity, or past the platform's years
        return None


def _timestamp(value) -> str | None:
    if date_of(value) is None:
        shown = str(value)[:40]
        return f"{shown!r} is not a date (Unix seconds, or an ISO 8601 date)"
    return None


#: The fields the importer reads, and their shapes (interchange.records.shape_problems).
LOG_SHAPE = {
    "source_metadata": {"evaluator_relationship": TEXT},
    "model_info": {"id": TEXT, "name": TEXT},
    "retrieved_timestamp": _timestamp,
    "eval_library": {"name": TEXT},
    "evaluation_results": [
        {
            "evaluation_name": TEXT,
            "evaluation_result_id": TEXT,
            "source_data": {
                "hf_repo": TEXT,
                "hf_config": TEXT,
                "dataset_name": TEXT,
                "samples_number": SCORE,
                "additional_details": {"subset": TEXT, "benchmark_hf_repo": TEXT},
            },
            "metric_config": {"metric_id": TEXT, "metric_name": TEXT, "max_score": NUMBER, "score_type": TEXT},
            "score_details": {
                "score": SCORE,
                "details": {"url": TEXT, "notes": TEXT},
                "uncertainty": {
                    "standard_error": {"value": NUMBER},
                    "num_samples": SCORE,
                    "confidence_interval": {"lower": NUMBER, "upper": NUMBER, "confidence_level": NUMBER},
                },
            },
        }
    ],
}


def log_problems(data, path: str) -> list:
    """Where an EEE log does not have the shape the importer reads (placed at the file, by JSON path)."""
    if not isinstance(data, dict):
        kinds: dict[type, str] = {list: "a list", str: "text"}
        kind = kinds.get(type(data), type(data).__name__)
        return [
            problem(
                path,
                (0, 0),
                (),
                f"must be a mapping (one evaluation log), not {kind}",
                "an Every Eval Ever file is one JSON object",
            )
        ]
    return shape_problems(data, LOG_SHAPE, path)


def timestamp_of(date: str) -> str:
    """An ISO date as EEE's retrieved_timestamp: Unix seconds at 00:00 UTC, as text."""
    return str(calendar.timegm(datetime.date.fromisoformat(date).timetuple()))


def import_eee(
    logs,
    *,
    source: str,
    benchmarks: Benchmarks,
    resolve: Resolve,
    retrieved: str | None = None,
    paths: list[str] | None = None,
) -> Imported:
    """EEE evaluation logs (dicts or JSON texts) -> records for scores/imported/<source>.yaml.

    The document's retrieval date is `retrieved`, else the newest `retrieved_timestamp` of the logs; each record
    keeps its own log's date when it differs. Logs that are not JSON or not of the shape the importer reads are
    Refused with every problem, placed in `paths` (the logs' file names)."""
    paths = list(paths or [f"log {i + 1}" for i in range(len(logs))])
    datas = _parsed_logs(logs, paths)
    records: list[dict] = []
    unmatched: list = []
    skipped: list = []
    dates = []
    for data in datas:
        date = _log_records(data, benchmarks, resolve, records, unmatched, skipped)
        if date:
            dates.append(date)
    doc_date = retrieved or (max(dates) if dates else None)
    if doc_date is None:
        raise Refused(
            [
                problem(
                    paths[0] if paths else "(logs)",
                    (0, 0),
                    ("retrieved_timestamp",),
                    "no retrieval date: the logs have no retrieved_timestamp",
                    "give --retrieved",
                )
            ]
        )
    return build_doc(source, doc_date, records, unmatched, skipped)


def _parsed_logs(logs, paths: list[str]) -> list[dict]:
    """The logs as mappings; Refused with every problem when one is not JSON or not of the shape read."""
    datas, found = [], []
    for log, path in zip(logs, paths):
        data = (
            parse_json(log.encode("utf-8") if isinstance(log, str) else log, path)
            if isinstance(log, (str, bytes))
            else log
        )
        found += log_problems(data, path)
        datas.append(data)
    if found:
        raise Refused(found)
    return datas


def _log_records(
    data: dict, benchmarks: Benchmarks, resolve: Resolve, records: list[dict], unmatched: list, skipped: list
) -> str | None:
    """Add one log's records to `records` (its names that match no model to `unmatched`, its results that map to
    no benchmark or metric to `skipped`); returns the log's retrieval date."""
    meta = data.get("source_metadata") or {}
    info = data.get("model_info") or {}
    date = date_of(data.get("retrieved_timestamp"))
    model = resolve_one(resolve, [info.get("id"), info.get("name")], unmatched)
    library = (data.get("eval_library") or {}).get("name")
    library = str(library) if library not in (None, "") else None
    harness = library if library and library.casefold() != "unknown" else None
    self_reported = SELF_REPORTED.get(meta.get("evaluator_relationship"), False)
    for result in data.get("evaluation_results") or []:
        records_for = _result(result, benchmarks, skipped, info.get("id") or info.get("name"))
        if records_for is None or model is None:
            continue
        records.append(record(model=model, harness=harness, self_reported=self_reported, retrieved=date, **records_for))
    return date


def _benchmark(result: dict, benchmarks: Benchmarks) -> tuple[str | None, str | None, str]:
    """(benchmark, metric or None = read it from metric_config, why not) for one EEE result, by the names table.

    The result's own names (metric_id, evaluation_result_id, evaluation_name) are looked up first. Failing that, its
    dataset (hf_repo with hf_config, additional_details.benchmark_hf_repo, dataset_name) maps it only when it
    names nothing more specific: 'MMLU-Pro (Biology)' on TIGER-Lab/MMLU-Pro is a part of MMLU-Pro, not MMLU-Pro."""
    data = result.get("source_data") or {}
    config = result.get("metric_config") or {}
    own = [config.get("metric_id"), result.get("evaluation_result_id"), result.get("evaluation_name")]
    for name in own:
        hit = benchmarks.by_name(name)
        if hit:
            return hit[0], (hit[1] or None), ""
    dataset_name = data.get("dataset_name")
    bench, why = _dataset_benchmark(data, own, benchmarks)
    if bench is None:
        return None, None, why
    why = _other_name(own, bench, dataset_name, benchmarks)
    if why:
        return None, None, why
    return bench, None, ""


def _dataset_benchmark(data: dict, own: list, benchmarks: Benchmarks) -> tuple[str | None, str]:
    """(benchmark, "") of a result's dataset (hf_repo with hf_config, additional_details.benchmark_hf_repo,
    dataset_name), or (None, why not)."""
    extra = data.get("additional_details") or {}
    hubs = [(data.get("hf_repo"), data.get("hf_config")), (extra.get("benchmark_hf_repo"), None)]
    dataset_name = data.get("dataset_name")
    bench = next((b for b in (benchmarks.by_hub(*h) for h in hubs) if b), None)
    if bench is None:
        hit = benchmarks.by_name(dataset_name)
        bench = hit[0] if hit else None
    if bench is None:
        why = next((w for w in (benchmarks.refused(h, own + [dataset_name]) for h, _ in hubs) if w), None)
        return None, why or "no benchmark mapping for this dataset"
    return bench, ""


def _other_name(own: list, bench: str, dataset_name: str | None, benchmarks: Benchmarks) -> str:
    """Why a result on `bench`'s dataset is not `bench`: one of its own names is neither the dataset's, a primary
    metric's, nor a metric of `bench` (a part of the benchmark or another measure); "" when none is."""
    for name in own:
        if name in (None, "") or norm(name) in PRIMARY_METRICS or norm(name) == norm(dataset_name or ""):
            continue
        if at_k([name]) is not None or benchmarks.metric(bench, [name]) not in (None, ""):
            continue  # a metric name: judged with the metric below
        return (
            f"{name!r} is not a name of {bench} or of one of its metrics in the names table "
            "(methodology/interchange-names.yaml): a part of the benchmark or another measure"
        )
    return ""


def _result(result: dict, benchmarks: Benchmarks, skipped: list, model_name) -> dict | None:
    """One EEE result as record fields; None (and the reason in `skipped`) when it maps to no benchmark, no
    metric, the other direction, or has no score."""
    data = result.get("source_data") or {}
    extra = data.get("additional_details") or {}
    config = result.get("metric_config") or {}
    label = f"{model_name}: {result.get('evaluation_name')}"
    bench, metric, why = _benchmark(result, benchmarks)
    if bench is None:
        skipped.append((label, why))
        return None
    metric = _metric(config, bench, metric, benchmarks, label, skipped)
    if metric is None:
        return None
    details = result.get("score_details") or {}
    score = details.get("score")
    if known(score) is None:
        skipped.append((label, "score is not a number"))
        return None
    bounded = config.get("max_score") if config.get("score_type", "continuous") == "continuous" else None
    factor = percent_factor(benchmarks.unit(bench, metric), bounded, score)
    stderr, ci95, n = _uncertainty(details.get("uncertainty") or {}, data, factor)
    notes = (details.get("details") or {}).get("notes")
    url = (details.get("details") or {}).get("url")
    return {
        "benchmark": bench,
        "metric": metric,
        "subset": benchmarks.subset(bench, [extra.get("subset"), data.get("hf_config")]),
        "value": clean_number(score, factor),
        "stderr": stderr,
        "ci95": ci95,
        "n": n,
        "url": url if isinstance(url, str) and url.startswith("https://") else None,
        "notes": notes,
    }


def _metric(
    config: dict, bench: str, metric: str | None, benchmarks: Benchmarks, label: str, skipped: list
) -> str | None:
    """The result's metric of `bench` ("" for the primary one): `metric` when its name gave one, else read from
    metric_config; None (and the reason in `skipped`) when there is none, or its direction is the other one."""
    metric_names = [n for n in (config.get("metric_id"), config.get("metric_name")) if n and not benchmarks.by_name(n)]
    if metric is None:
        metric = benchmarks.metric(bench, metric_names)
    elif (at_k(metric_names) or ("", 1))[1] > 1:
        metric = None
    if metric is None:
        skipped.append(
            (
                f"{label} {config.get('metric_id') or config.get('metric_name') or ''}".rstrip(),
                benchmarks.why_not_metric(bench, metric_names),
            )
        )
        return None
    if "lower_is_better" in config and bool(config["lower_is_better"]) == benchmarks.higher_is_better(bench, metric):
        skipped.append((label, f"lower_is_better contradicts {bench}{'/' + metric if metric else ''}'s direction"))
        return None
    return metric


def _uncertainty(uncertainty: dict, data: dict, factor: int) -> tuple[object, list | None, int | None]:
    """(stderr, ci95, n) of a result's uncertainty, scaled by `factor`; a confidence interval only at 0.95."""
    stderr = (uncertainty.get("standard_error") or {}).get("value")
    interval = uncertainty.get("confidence_interval") or {}
    ci95 = None
    if "lower" in interval and "upper" in interval and interval.get("confidence_level", 0.95) == 0.95:
        ci95 = [clean_number(interval["lower"], factor), clean_number(interval["upper"], factor)]
    n = uncertainty.get("num_samples") or data.get("samples_number")
    return clean_number(stderr, factor), ci95, (int(n) if isinstance(n, int) and n > 0 else None)


# --------------------------------------------------------------------------- export


def to_eee(
    records: list[dict],
    *,
    benchmarks: Benchmarks,
    models: dict | None = None,
    sources: dict | None = None,
    retrieved: str | None = None,
    source: str | None = None,
) -> dict[str, str]:
    """Records -> EEE files {path: JSON text}: one file per record, deterministic names and sorted keys.

    Paths follow EEE's datastore layout, data/<collection>/<developer>/<model>/<UUID4>.json: the collection is
    the benchmark id, developer and model the two halves of our model id (which is what model_info.id holds).

    `models` maps a model id to {name, organization}; `sources` maps a source id to its registry entry;
    `retrieved` and `source` apply to records without their own (an imported file's date and source)."""
    models = models or {}
    sources = sources or {}
    out = {}
    for r in records:
        if source and not r.get("source"):
            r = {**r, "source": source}
        date = r.get("retrieved") or retrieved
        if not date:  # EEE requires retrieved_timestamp
            raise ValueError(f"{r['model']} on {r['benchmark']}: no retrieval date (the record's own, or retrieved=)")
        doc = _log(r, date, benchmarks, models.get(r["model"], {}), sources.get(r.get("source", ""), {}))
        key = "|".join(str(r.get(k, "")) for k in ("model", "benchmark", "metric", "subset", "harness", "source"))
        key += f"|{date}"
        org, _, name = r["model"].partition("/")
        path = f"data/{r['benchmark']}/{org}/{name}/{file_id(key)}.json"
        out[path] = json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return dict(sorted(out.items()))


def _num(value):
    value = known(value)
    return None if value is None else clean_number(value, 1, 10)


def _scale(entry: dict, metric: str) -> dict:
    """The scale of a benchmark's metric ("" for the primary one: the benchmark's own)."""
    scale = entry.get("scale", {})
    for m in entry.get("metrics", []):
        if m["id"] == metric:
            scale = m.get("scale", {})
    return scale


def _source_data(entry: dict, names, subset: str) -> dict[str, Any]:
    """EEE's source_data of a benchmark: its Hugging Face dataset, else its URL; and the subset."""
    data: dict[str, Any]
    if names.hub:
        data = {"dataset_name": names.name, "source_type": "hf_dataset", "hf_repo": names.hub}
        if names.config:
            data["hf_config"] = names.config
    else:
        data = {"dataset_name": names.name, "source_type": "url", "url": [entry["url"]]}
    if subset:
        data["additional_details"] = {"subset": subset}
    return data


def _metric_config(bench: str, metric: str, entry: dict, benchmarks: Benchmarks) -> dict[str, Any]:
    """EEE's metric_config of a benchmark's metric: id, name, unit, direction and (when the scale has them) bounds."""
    scale = _scale(entry, metric)
    unit = scale.get("unit", "")
    config = {
        "metric_id": metric or ("accuracy" if unit == "percent" else "score"),
        "metric_name": next((m["name"] for m in entry.get("metrics", []) if m["id"] == metric), entry["name"]),
        "metric_unit": unit,
        "lower_is_better": not benchmarks.higher_is_better(bench, metric),
    }
    if "min" in scale and "max" in scale:
        config.update({"score_type": "continuous", "min_score": scale["min"], "max_score": scale["max"]})
    return config


def _score_details(r: dict) -> dict[str, Any]:
    """EEE's score_details of a record: the score, its uncertainty, and the record's url, notes, how and source."""
    uncertainty: dict[str, Any] = {}
    stderr = _num(r.get("stderr"))
    if stderr is not None:
        uncertainty["standard_error"] = {"value": stderr}
    ci = r.get("ci95")
    if ci and _num(ci[0]) is not None and _num(ci[1]) is not None:
        uncertainty["confidence_interval"] = {"lower": _num(ci[0]), "upper": _num(ci[1]), "confidence_level": 0.95}
    if r.get("n"):
        uncertainty["num_samples"] = int(r["n"])
    score: dict[str, Any] = {"score": _num(r["value"])}
    if uncertainty:
        score["uncertainty"] = uncertainty
    details = {k: str(r[k]) for k in ("url", "notes", "how") if r.get(k)}
    details.update({"sitegen_source": r["source"]} if r.get("source") else {})
    if details:
        score["details"] = details
    return score


def _log(r: dict, date: str, benchmarks: Benchmarks, model: dict, source: dict) -> dict:
    """One record as one EEE evaluation log."""
    bench, metric, subset = r["benchmark"], r.get("metric", ""), r.get("subset", "")
    entry = benchmarks.entries[bench]
    data = _source_data(entry, benchmarks.export_name(bench), subset)
    config = _metric_config(bench, metric, entry, benchmarks)
    score = _score_details(r)
    result_id = "/".join([bench, metric or "primary", subset or "full"])
    source_id = r.get("source", "")
    return {
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": f"{bench}/{r['model']}/{timestamp_of(date)}",
        "retrieved_timestamp": timestamp_of(date),
        "source_metadata": {
            "source_name": source.get("name", source_id or "sitegen"),
            "source_type": "documentation",
            "source_organization_name": source.get("publisher", source.get("name", source_id or "unknown")),
            "evaluator_relationship": "first_party" if r.get("self_reported") else "third_party",
            **({"source_organization_url": source["url"]} if source.get("url") else {}),
        },
        "eval_library": {"name": r.get("harness") or "unknown", "version": "unknown"},
        "model_info": {
            "name": model.get("name") or r["model"],
            "id": r["model"],
            **({"developer": model["organization"]} if model.get("organization") else {}),
            "additional_details": {"deployment_type": "unknown", "model_availability": "unknown"},
        },
        "evaluation_results": [
            {
                "evaluation_result_id": result_id,
                "evaluation_name": bench,
                "source_data": data,
                "metric_config": config,
                "score_details": score,
            }
        ],
    }


def export_eee(computed, names: NamesTable | None = None) -> dict[str, str]:
    """Every published benchmark board as EEE JSON files {path: text}, deterministic (sorted keys and paths).
    `names`: the repository's names table (NamesTable.from_doc), which gives the display names and Hub datasets."""
    benchmarks = Benchmarks.from_list(computed.benchmarks, names)
    models = {}
    for row in computed.models.to_dict("records"):
        models[row["model"]] = {
            k: row.get(k) if isinstance(row.get(k), str) else None for k in ("name", "organization")
        }
    sources = {s["id"]: s for s in computed.sources}
    return to_eee(board_records(computed), benchmarks=benchmarks, models=models, sources=sources)
