"""Importers and exporters for Hugging Face (model-index, .eval_results) and Every Eval Ever JSON.

Each importer reads its fixture in tests/interchange/fixtures/, the records it gives are checked field by field,
and a round trip (records -> export -> import) gives the same records where the formats overlap.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from sitegen.data import schema
from sitegen.interchange import eee, hf
from sitegen.interchange.records import Benchmarks, NamesTable, resolver, to_model_results

FIXTURES = Path(__file__).parent / "fixtures"
UUID4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"

#: A names table as methodology/interchange-names.yaml writes one (this repository's entries for these benchmarks).
NAMES = NamesTable.from_data(yaml.safe_load("""
benchmarks:
  gpqa-diamond:
    name: GPQA Diamond
    hub: [{dataset: Idavidrein/gpqa, config: gpqa_diamond}]
    names: [gpqa_diamond, GPQA Diamond]
  hle:
    name: Humanity's Last Exam
    hub: [{dataset: cais/hle, config: null}]
    names: [HLE, Humanity's Last Exam, hle.accuracy]
    metrics:
      calibration-error: [hle.calibration_error]
  mmlu-pro:
    name: MMLU-Pro
    hub: [{dataset: TIGER-Lab/MMLU-Pro, config: null}]
    names: [mmlu_pro, MMLU-PRO]
  aime-2025:
    hub: [{dataset: math-ai/aime25, config: null}]
    names: [aime25]
  swe-bench-verified:
    name: SWE-bench Verified
    hub: [{dataset: princeton-nlp/SWE-bench_Verified, config: null}]
    names: [swe_bench_verified, SWE-bench Verified]
not:
  - hub: Idavidrein/gpqa
    why: GPQA without the gpqa_diamond config is the whole GPQA set
"""))
REGISTRY = Benchmarks.from_list([
    {"id": "gpqa-diamond", "name": "GPQA Diamond", "scale": {"min": 0, "max": 100, "unit": "percent"},
     "higher_is_better": True, "url": "https://example.org/gpqa"},
    {"id": "mmlu-pro", "name": "MMLU-Pro", "scale": {"min": 0, "max": 100, "unit": "percent"},
     "higher_is_better": True, "url": "https://example.org/mmlu-pro"},
    {"id": "hle", "name": "Humanity's Last Exam", "scale": {"min": 0, "max": 100, "unit": "percent"},
     "higher_is_better": True, "url": "https://example.org/hle", "subsets": ["text-only"],
     "metrics": [{"id": "calibration-error", "name": "Calibration error",
                  "scale": {"min": 0, "max": 100, "unit": "percent"}, "higher_is_better": False}]},
    {"id": "swe-bench-verified", "name": "SWE-bench Verified", "scale": {"min": 0, "max": 100, "unit": "percent"},
     "higher_is_better": True, "url": "https://example.org/swe"},
    {"id": "lmarena-text", "name": "LMArena Text", "scale": {"unit": "elo"}, "higher_is_better": True,
     "url": "https://example.org/arena"},
], NAMES)
MODELS = {"acme/widget-7b-instruct": {"name": "Widget 7B Instruct", "aliases": ["Widget-7B-Instruct"]}}
RESOLVE = resolver(models=MODELS)
W = "acme/widget-7b-instruct"


def _valid_imported(doc: dict) -> None:
    errors = list(schema.validator("imported").iter_errors(doc))
    assert not errors, [e.message for e in errors]


def _strip(records, *drop):
    return sorted(({k: v for k, v in r.items() if k not in drop} for r in records),
                  key=lambda r: json.dumps(r, sort_keys=True))


# --------------------------------------------------------------------------- Hugging Face model-index


def test_model_index_import():
    imported = hf.import_model_index((FIXTURES / "model-card.md").read_text(), source="hf-model-cards",
                                     retrieved="2025-06-01", benchmarks=REGISTRY, resolve=RESOLVE)
    assert imported.results == [
        {"model": W, "benchmark": "gpqa-diamond", "value": 41.4, "url": "https://example.org/widget-7b#evaluation",
         "self_reported": True},
        {"model": W, "benchmark": "hle", "subset": "text-only", "value": 5.2, "self_reported": True},
        {"model": W, "benchmark": "hle", "metric": "calibration-error", "subset": "text-only", "value": 81,
         "self_reported": True},
        {"model": W, "benchmark": "mmlu-pro", "value": 52.31},  # verified by the Hub: independent
    ]
    assert imported.doc["source"] == "hf-model-cards" and imported.doc["retrieved"] == "2025-06-01"
    assert imported.unmatched == [("Some Other Model", "matches no model")]
    assert ("acme/Widget-7B-Instruct: GLUE SST2", "no benchmark mapping for this dataset") in imported.skipped
    assert ("acme/Widget-7B-Instruct: MMLU-Pro macro F1", "not a metric mmlu-pro declares") in imported.skipped
    _valid_imported(imported.doc)


def test_model_index_round_trip():
    first = hf.import_model_index((FIXTURES / "model-card.md").read_text(), source="s", retrieved="2025-06-01",
                                  benchmarks=REGISTRY, resolve=RESOLVE)
    text = hf.to_model_index(first.results, benchmarks=REGISTRY)
    again = hf.import_model_index(text, source="s", retrieved="2025-06-01", benchmarks=REGISTRY, resolve=RESOLVE)
    assert again.results == first.results
    assert again.unmatched == [] and again.skipped == []
    assert text == hf.to_model_index(list(reversed(first.results)), benchmarks=REGISTRY)  # order-independent


# --------------------------------------------------------------------------- Hugging Face .eval_results


def _eval_results():
    out = []
    for name in ("gpqa.yaml", "hle.yaml"):
        out.append(hf.import_eval_results((FIXTURES / "eval_results" / name).read_text(), model="acme/Widget-7B-Instruct",
                                          source="hf-eval-results", retrieved="2025-06-02", benchmarks=REGISTRY,
                                          resolve=RESOLVE))
    return out


def test_eval_results_import():
    gpqa, hle = _eval_results()
    assert gpqa.results == [{"model": W, "benchmark": "gpqa-diamond", "value": 41.4,
                             "url": "https://example.org/widget-7b#evaluation", "self_reported": True}]
    assert hle.results == [
        {"model": W, "benchmark": "hle", "value": 5.2, "url": "https://huggingface.co/spaces/example/hle-traces"},
        {"model": W, "benchmark": "hle", "subset": "text-only", "value": 5.9, "notes": "With tools",
         "self_reported": True},
    ]
    assert hle.skipped == [("acme/Widget-7B-Instruct: example/unknown-benchmark default",
                            "no benchmark mapping for this dataset")]
    for imported in (gpqa, hle):
        _valid_imported(imported.doc)


def test_eval_results_round_trip():
    for first in _eval_results():
        text = hf.to_eval_results(first.results, benchmarks=REGISTRY)
        again = hf.import_eval_results(text, model=W, source="s", retrieved="2025-06-02", benchmarks=REGISTRY,
                                       resolve=RESOLVE)
        # A verifyToken cannot be recreated, so whether the Hub verified a number does not survive export.
        assert _strip(again.results, "self_reported") == _strip(first.results, "self_reported")


# --------------------------------------------------------------------------- Every Eval Ever


def _eee_logs():
    return [(FIXTURES / "eee" / name).read_text() for name in ("widget-first-party.json", "widget-third-party.json")]


def test_eee_import():
    imported = eee.import_eee(_eee_logs(), source="example-evals", benchmarks=REGISTRY, resolve=RESOLVE)
    assert imported.doc["retrieved"] == "2025-07-01"  # the newest log; the older one keeps its own date
    assert imported.results == [
        {"model": W, "benchmark": "gpqa-diamond", "harness": "inspect_ai", "value": 38.89, "n": 198, "stderr": 3.47,
         "ci95": [32.09, 45.69], "retrieved": "2025-06-01"},
        {"model": W, "benchmark": "hle", "metric": "calibration-error", "subset": "text-only", "harness": "inspect_ai",
         "value": 79.5, "retrieved": "2025-06-01"},
        {"model": W, "benchmark": "lmarena-text", "value": 1210, "self_reported": True},
        {"model": W, "benchmark": "swe-bench-verified", "value": 22.4, "url": "https://example.org/widget-7b#swe-bench",
         "n": 500, "self_reported": True},  # n from source_data.samples_number
    ]
    reasons = dict(imported.skipped)
    assert reasons["acme/Widget-7B-Instruct: hle"] == "lower_is_better contradicts hle's direction"
    assert reasons["acme/Widget-7B-Instruct: simpleqa"] == "no benchmark mapping for this dataset"
    _valid_imported(imported.doc)


def test_eee_round_trip_and_determinism():
    first = eee.import_eee(_eee_logs(), source="example-evals", benchmarks=REGISTRY, resolve=RESOLVE)
    files = eee.to_eee(first.results, benchmarks=REGISTRY, models={W: {"name": "Widget 7B Instruct",
                                                                       "organization": "Acme AI"}},
                       retrieved=first.doc["retrieved"], source="example-evals")
    assert list(files) == sorted(files) and len(files) == 4
    # EEE's datastore layout: data/<collection>/<developer>/<model>/<UUID4>.json
    assert all(re.fullmatch(rf"data/[a-z0-9-]+/acme/widget-7b-instruct/{UUID4}\.json", p) for p in files)
    again = eee.import_eee(list(files.values()), source="example-evals", benchmarks=REGISTRY, resolve=RESOLVE)
    assert again.results == first.results and again.doc == first.doc
    assert again.skipped == [] and again.unmatched == []
    # Same input, same bytes; keys sorted; the EEE fields the brief names are there.
    assert files == eee.to_eee(list(reversed(first.results)), benchmarks=REGISTRY,
                               models={W: {"name": "Widget 7B Instruct", "organization": "Acme AI"}},
                               retrieved=first.doc["retrieved"], source="example-evals")
    for text in files.values():
        assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
        log = json.loads(text)
        assert log["schema_version"] == "0.3.0"
        assert log["source_metadata"]["evaluator_relationship"] in ("first_party", "third_party")
        assert log["retrieved_timestamp"].isdigit()
        assert {"name", "id"} <= set(log["model_info"])
        result = log["evaluation_results"][0]
        assert {"evaluation_name", "source_data", "metric_config", "score_details"} <= set(result)


def test_eee_uncertainty_shape():
    files = eee.to_eee([{"model": W, "benchmark": "gpqa-diamond", "value": 41.4, "stderr": 3.5, "ci95": [34.5, 48.3],
                         "n": 198, "self_reported": True, "retrieved": "2025-06-01", "source": "acme-card"}],
                       benchmarks=REGISTRY)
    (log,) = [json.loads(t) for t in files.values()]
    score = log["evaluation_results"][0]["score_details"]
    assert score["uncertainty"] == {"standard_error": {"value": 3.5}, "num_samples": 198,
                                    "confidence_interval": {"lower": 34.5, "upper": 48.3, "confidence_level": 0.95}}
    assert log["retrieved_timestamp"] == "1748736000"
    assert log["evaluation_results"][0]["metric_config"]["max_score"] == 100


def test_eee_export_needs_a_retrieval_date():
    """EEE requires retrieved_timestamp: a record with no date of its own and no `retrieved=` is refused by name."""
    record = {"model": W, "benchmark": "gpqa-diamond", "value": 41.4}
    with pytest.raises(ValueError, match="acme/widget-7b-instruct on gpqa-diamond: no retrieval date"):
        eee.to_eee([record], benchmarks=REGISTRY)
    (log,) = [json.loads(t) for t in eee.to_eee([record], benchmarks=REGISTRY, retrieved="2025-06-01").values()]
    assert log["retrieved_timestamp"] == "1748736000"


def test_hf_import_to_eee_and_back():
    """Across formats: a model card's records survive EEE export and import (without HF's url-less fields)."""
    first = hf.import_model_index((FIXTURES / "model-card.md").read_text(), source="s", retrieved="2025-06-01",
                                  benchmarks=REGISTRY, resolve=RESOLVE)
    files = eee.to_eee(first.results, benchmarks=REGISTRY, retrieved="2025-06-01", source="s")
    again = eee.import_eee(list(files.values()), source="s", benchmarks=REGISTRY, resolve=RESOLVE)
    assert again.results == first.results


def test_model_results_shape():
    imported = eee.import_eee(_eee_logs(), source="example-evals", benchmarks=REGISTRY, resolve=RESOLVE)
    by_model = to_model_results(imported.doc)
    rows = by_model[W]
    assert all(r["source"] == "example-evals" and r["retrieved"] for r in rows)
    doc = {"id": W, "name": "Widget 7B Instruct", "release": W, "organization": "Acme AI", "results": rows}
    assert not list(schema.validator("model").iter_errors(doc))


def test_benchmark_lookup():
    assert REGISTRY.find("Idavidrein/gpqa", "gpqa_main") is None  # another GPQA set
    assert REGISTRY.find("Idavidrein/gpqa", "gpqa_diamond") == "gpqa-diamond"
    assert REGISTRY.find(None, None, ["GPQA Diamond"]) == "gpqa-diamond"
    assert REGISTRY.find(None, None, ["swe-bench-verified"]) == "swe-bench-verified"
    assert REGISTRY.find("cais/hle", "text-only") == "hle"
    assert REGISTRY.find("TIGER-Lab/MMLU-Pro") == "mmlu-pro"
    assert REGISTRY.find("math-ai/aime25") is None  # mapped, but not in this registry


@pytest.mark.parametrize("value,max_score,expected", [(0.5, 1, 50), (50, 100, 50), (0.5, None, 50), (12, None, 12)])
def test_percent_scaling(value, max_score, expected):
    from sitegen.interchange.records import clean_number, percent_factor

    assert clean_number(value, percent_factor("percent", max_score, value)) == expected
