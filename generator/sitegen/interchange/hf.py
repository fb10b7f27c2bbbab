"""Hugging Face result formats: the model card's `model-index` metadata and the Hub's `.eval_results/*.yaml`.

model-index (model card front matter)::

    model-index:
      - name: <model>
        results:
          - task: {type: text-generation}
            dataset: {name: GPQA Diamond, type: Idavidrein/gpqa, config: gpqa_diamond, revision: <sha>}
            metrics:
              - {type: accuracy, value: 0.414, name: ..., verified: false, verifyToken: ...}
            source: {name: ..., url: https://...}

.eval_results/<name>.yaml (a list; the model is the repository the file lives in)::

    - dataset: {id: cais/hle, task_id: hle, revision: <sha>}
      value: 20.9
      verifyToken: <token>
      date: "2025-01-15"
      source: {url: https://..., name: ..., user: ...}
      notes: no-tools

Mapping (both directions):
- benchmark: the names table (methodology/interchange-names.yaml) by Hub dataset id (+ config / task_id), else by
  name; the table's `not` entries give the reason a look-alike (GPQA without the Diamond config) is refused.
- metric: a declared secondary metric by type or name; accuracy/score/pass@1/... is the primary metric; any other
  metric is skipped with a reason.
- subset: a dataset config (model-index) or task_id (.eval_results) that the benchmark declares as a subset.
- value: model-index values on a percent benchmark that are at most 1 are fractions (x100), as the `evaluate`
  library writes them; export writes fractions. `.eval_results` values are taken as written (the Hub shows them as
  percentages); a fraction there is caught by the validator's "looks like a fraction" warning.
- self_reported: true unless the Hub verified the number (`verified: true`, or a `verifyToken`).
- url: the result's `source.url`; notes: `.eval_results` notes.
Not carried: harness, n, stderr, intervals (the formats have no field for them); `date` is an evaluation date,
not our retrieval date, so the caller gives the retrieval date.
"""

from __future__ import annotations

import yaml

from .records import (
    SCORE,
    TEXT,
    Benchmarks,
    Imported,
    NamesTable,
    Refused,
    Resolve,
    board_records,
    build_doc,
    clean_number,
    parse_yaml,
    percent_factor,
    problem,
    record,
    resolve_one,
    shape_problems,
)

FORMAT_MODEL_INDEX = "hf-model-index"
FORMAT_EVAL_RESULTS = "hf-eval-results"

#: The fields the model-index reader uses, and their shapes (interchange.records.shape_problems).
_DATASET = {"name": TEXT, "type": TEXT, "config": TEXT, "revision": TEXT}
MODEL_INDEX_SHAPE = {
    "model-index": [
        {
            "name": TEXT,
            "results": [
                {
                    "dataset": _DATASET,
                    "source": {"name": TEXT, "url": TEXT},
                    "metrics": [{"type": TEXT, "name": TEXT, "value": SCORE}],
                }
            ],
        }
    ]
}
_EVAL_RESULT = {
    "dataset": {"id": TEXT, "task_id": TEXT, "revision": TEXT},
    "value": SCORE,
    "notes": TEXT,
    "source": {"url": TEXT, "name": TEXT, "user": TEXT},
}


def _front_matter(text: str, path: str = "model card"):
    """The YAML of a model card (the block between the first two '---' lines) or of a plain YAML file, read by
    the strict reader (no aliases, bounded size and depth; line numbers are the card's); Refused otherwise."""
    stripped = text.lstrip("\ufeff")
    head = stripped.split("\n---", 1)[0][3:] if stripped.startswith("---") else stripped
    if not head.strip():
        return None, {}
    parsed = parse_yaml(head.encode("utf-8"), path)
    return parsed, parsed.data


def _checked(parsed, data, shape, path: str) -> None:
    found = shape_problems(data, shape, path, parsed.mark if parsed is not None else (lambda json_path: (1, 1)))
    if found:
        raise Refused(found)


def _https(url) -> str | None:
    return url if isinstance(url, str) and url.startswith("https://") else None


#: Leaderboards whose model-card numbers are normalised, not the benchmark's raw score: Open LLM Leaderboard v2
#: rescales each benchmark so that random guessing is 0 and a perfect score 100.
NORMALISING_LEADERBOARDS = {
    "huggingface.co/spaces/open-llm-leaderboard/": "Open LLM Leaderboard v2",
}


def _normalised_by(result: dict) -> str | None:
    """The leaderboard whose normalised score a model-index result is, from its source url or name."""
    src = result.get("source") or {}
    url, name = str(src.get("url") or ""), str(src.get("name") or "")
    for prefix, board in NORMALISING_LEADERBOARDS.items():
        if prefix in url or (name and name.casefold() == "open llm leaderboard"):
            return board
    return None


def _shots(dataset: dict, args: dict) -> int | None:
    shots = args.get("num_few_shot", dataset.get("num_few_shot"))
    return shots if isinstance(shots, int) and not isinstance(shots, bool) and shots >= 0 else None


def import_model_index(
    text: str, *, source: str, retrieved: str, benchmarks: Benchmarks, resolve: Resolve, path: str = "model card"
) -> Imported:
    """A model card's model-index -> records for scores/imported/<source>.yaml.

    Refused (listed in `skipped` with the reason): datasets the names table does not map or says are another set;
    metrics the benchmark does not declare, pass@k with k > 1 unless the benchmark declares that metric; and
    scores a leaderboard normalised (Open LLM Leaderboard v2), which are not the benchmark's raw score. The card's
    few-shot setting, when it gives one, is kept in `notes`. A card that is not strict YAML or whose model-index
    has another shape is Refused with placed problems (`path`: the card's name in them)."""
    parsed, data = _front_matter(text, path)
    if not isinstance(data, dict):
        raise Refused([problem(path, (1, 1), (), "the front matter must be a mapping", "a model card's metadata")])
    _checked(parsed, data, MODEL_INDEX_SHAPE, path)
    records: list[dict] = []
    unmatched: list = []
    skipped: list[tuple[str, str]] = []
    for entry in data.get("model-index") or []:
        name = str(entry.get("name", ""))
        model = resolve_one(resolve, [name], unmatched)
        for result in entry.get("results") or []:
            records += _index_result(result, name, model, benchmarks, skipped)
    return build_doc(source, retrieved, records, unmatched, skipped)


def _index_result(
    result: dict, name: str, model: str | None, benchmarks: Benchmarks, skipped: list[tuple[str, str]]
) -> list[dict]:
    """The records of one model-index result of model `name` (`model` once resolved, else none); what is not
    imported goes to `skipped` with the reason."""
    dataset = result.get("dataset") or {}
    args: dict = given if isinstance(given := dataset.get("args"), dict) else {}
    label = f"{name}: {dataset.get('name') or dataset.get('type')}"
    names = [dataset.get("name"), dataset.get("config"), dataset.get("type")]
    bench = benchmarks.find(dataset.get("type"), dataset.get("config"), names)
    if bench is None:
        why = benchmarks.refused(dataset.get("type"), names)
        skipped.append((label, why or "no benchmark mapping for this dataset"))
        return []
    shots = _shots(dataset, args)
    board = _normalised_by(result)
    if board is not None:
        setting = f", {shots}-shot" if shots is not None else ""
        skipped.append(
            (
                label,
                f"{board} score (normalised: random guessing 0, perfect 100{setting}), "
                f"not a raw {bench} score; not imported",
            )
        )
        return []
    subset = benchmarks.subset(bench, [args.get("subset"), dataset.get("config")])
    url = _https((result.get("source") or {}).get("url"))
    records = []
    for metric in result.get("metrics") or []:
        metric_names = [metric.get("type"), metric.get("name")]
        what = f"{label} {metric.get('name') or metric.get('type')}"
        metric_id = benchmarks.metric(bench, metric_names)
        if metric_id is None:
            skipped.append((what, benchmarks.why_not_metric(bench, metric_names)))
            continue
        value = metric.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            skipped.append((what, "value is not a number"))
            continue
        if model is None:
            continue
        factor = percent_factor(benchmarks.unit(bench, metric_id), None, value)
        records.append(
            record(
                model=model,
                benchmark=bench,
                metric=metric_id,
                subset=subset,
                value=clean_number(value, factor),
                url=url,
                notes=f"{shots}-shot (the model card's setting)" if shots is not None else None,
                self_reported=not bool(metric.get("verified")),
            )
        )
    return records


def import_eval_results(
    text: str,
    *,
    model: str,
    source: str,
    retrieved: str,
    benchmarks: Benchmarks,
    resolve: Resolve,
    path: str = ".eval_results file",
) -> Imported:
    """One `.eval_results/*.yaml` file of the Hub repository `model` -> records (Refused: not strict YAML, or
    not a list of results of the documented shape)."""
    parsed = parse_yaml(text.encode("utf-8"), path) if text.strip() else None
    entries = parsed.data if parsed is not None else []
    if not isinstance(entries, (list, dict)):
        raise Refused(
            [
                problem(
                    path,
                    (1, 1),
                    (),
                    "must be a list of results (or one result mapping)",
                    "an .eval_results file lists {dataset, value, ...} entries",
                )
            ]
        )
    _checked(parsed, entries, [_EVAL_RESULT] if isinstance(entries, list) else _EVAL_RESULT, path)
    records: list[dict] = []
    unmatched: list = []
    skipped: list[tuple[str, str]] = []
    model_id = resolve_one(resolve, [model], unmatched)
    for entry in entries if isinstance(entries, list) else [entries]:
        dataset = entry.get("dataset") or {}
        label = f"{model}: {dataset.get('id')} {dataset.get('task_id') or ''}".strip()
        names = [dataset.get("task_id"), dataset.get("id")]
        bench = benchmarks.find(dataset.get("id"), dataset.get("task_id"), names)
        if bench is None:
            why = benchmarks.refused(dataset.get("id"), names)
            skipped.append((label, why or "no benchmark mapping for this dataset"))
            continue
        value = entry.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            skipped.append((label, "value is not a number"))
            continue
        if model_id is None:
            continue
        src = entry.get("source") or {}
        notes = entry.get("notes")
        records.append(
            record(
                model=model_id,
                benchmark=bench,
                subset=benchmarks.subset(bench, [dataset.get("task_id")]),
                value=clean_number(value),
                url=_https(src.get("url")),
                notes=str(notes) if notes not in (None, "") else None,
                self_reported=not entry.get("verifyToken"),
            )
        )
    return build_doc(source, retrieved, records, unmatched, skipped)


# --------------------------------------------------------------------------- export


def _dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)


def _sorted(records):
    return sorted(records, key=lambda r: tuple(str(r.get(k, "")) for k in ("model", "benchmark", "metric", "subset")))


def to_model_index(records: list[dict], *, benchmarks: Benchmarks) -> str:
    """Records -> a model-index YAML document (one entry per model, named by its id); fractions on percent scales."""
    by_model: dict[str, list] = {}
    for r in _sorted(records):
        by_model.setdefault(r["model"], []).append(r)
    index = []
    for model, rows in by_model.items():
        results = []
        for r in rows:
            bench, metric, subset = r["benchmark"], r.get("metric", ""), r.get("subset", "")
            names = benchmarks.export_name(bench)
            dataset = {"name": names.name, "type": names.hub or bench}
            if names.config:
                dataset["config"] = names.config
                if subset:
                    dataset["args"] = {"subset": subset}
            elif subset:
                dataset["config"] = subset
            unit = benchmarks.unit(bench, metric)
            value = clean_number(r["value"] / 100 if unit == "percent" else r["value"], 1, 8)
            metric_type = metric or ("accuracy" if unit == "percent" else "score")
            item = {
                "task": {"type": "text-generation"},
                "dataset": dataset,
                "metrics": [{"type": metric_type, "value": value, "verified": not r.get("self_reported", False)}],
            }
            if r.get("url"):
                item["source"] = {"name": r.get("source", "sitegen"), "url": r["url"]}
            results.append(item)
        index.append({"name": model, "results": results})
    return _dump({"model-index": index})


def to_eval_results(records: list[dict], *, benchmarks: Benchmarks) -> str:
    """Records of one model -> an `.eval_results` YAML list (values as written; no verifyToken can be made)."""
    out = []
    for r in _sorted(records):
        bench, subset = r["benchmark"], r.get("subset", "")
        names = benchmarks.export_name(bench)
        entry = {
            "dataset": {"id": names.hub or bench, "task_id": names.config or subset or bench.replace("-", "_")},
            "value": r["value"],
        }
        if r.get("url"):
            entry["source"] = {"url": r["url"], "name": r.get("source", "sitegen")}
        if r.get("notes"):
            entry["notes"] = r["notes"]
        out.append(entry)
    return _dump(out)


def export_hf(computed, names: NamesTable | None = None) -> dict[str, str]:
    """Every published benchmark board's rows (the records the Every Eval Ever export takes), per model, as the
    two Hugging Face files a model repository carries: `<model id>/model-index.yaml`, the model card's
    `model-index` front matter, and `<model id>/.eval_results/sitegen.yaml`. {path: text}, deterministic. `names`:
    the repository's names table (NamesTable.from_doc), which gives each benchmark's Hub dataset; none: ids only."""
    benchmarks = Benchmarks.from_list(computed.benchmarks, names)
    by_model: dict[str, list[dict]] = {}
    for r in board_records(computed):
        by_model.setdefault(r["model"], []).append(r)
    files = {}
    for model in sorted(by_model):
        files[f"{model}/model-index.yaml"] = to_model_index(by_model[model], benchmarks=benchmarks)
        files[f"{model}/.eval_results/sitegen.yaml"] = to_eval_results(by_model[model], benchmarks=benchmarks)
    return files
