"""The interchange importers on real published files (tests/interchange/fixtures/real/, see its README), against
the project's own benchmark registry and a registry of the models those files name.

Each test lists every result that goes in, exactly, and every result that is refused with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.data import schema
from sitegen.interchange import eee, hf
from sitegen.interchange.records import Benchmarks, resolver

REAL = Path(__file__).parent / "fixtures" / "real"
BENCHMARKS = Benchmarks.load(Path(__file__).resolve().parents[2])
MODELS = {
    "tesslate/omnicoder-9b": {"name": "OmniCoder-9B"},
    "tiiuae/falcon-mamba-7b": {"name": "Falcon Mamba 7B", "aliases": ["falcon-mamba-7b"]},
    "01-ai/yi-1.5-34b-chat": {"name": "Yi-1.5-34B-Chat"},
    "tencentarc/llama-pro-8b-instruct": {"name": "LLaMA-Pro-8B-Instruct"},
}
RESOLVE = resolver(models=MODELS)
EEE_TIGER = "676f4465-ce78-411a-9f5a-c97b3d2eac4f.json"  # TIGER-Lab MMLU-Pro, Yi-1.5-34B-Chat
EEE_OPEN_LLM = "98ea850e-7019-4728-a558-8b1819ec47c2.json"  # HF Open LLM Leaderboard v2, LLaMA-Pro-8B-Instruct
WHOLE_GPQA = "GPQA without the gpqa_diamond config is the whole GPQA set (main, extended and diamond), not GPQA Diamond"


def _card(folder: str):
    return hf.import_model_index((REAL / folder / "README.md").read_text(encoding="utf-8"), source="hf-cards",
                                 retrieved="2026-11-20", benchmarks=BENCHMARKS, resolve=RESOLVE)


def _valid(doc: dict) -> None:
    errors = list(schema.validator("imported").iter_errors(doc))
    assert not errors, [e.message for e in errors]


def test_omnicoder_card_pass_at_k():
    """pass@5 (AIME 2025) and pass@3 (GPQA Diamond) are not primary values; the one pass@1 GPQA result is."""
    imported = _card("omnicoder-9b")
    assert imported.results == [
        {"model": "tesslate/omnicoder-9b", "benchmark": "gpqa-diamond", "value": 83.8, "self_reported": True},
        {"model": "tesslate/omnicoder-9b", "benchmark": "terminal-bench-2", "value": 28.1, "self_reported": True},
    ]
    assert imported.skipped == [
        ("OmniCoder-9B: AIME 2025 pass@5", "pass@5 is not aime-2025's primary value (a single attempt, pass@1), "
                                           "and aime-2025 declares no pass@5 metric"),
        ("OmniCoder-9B: GPQA Diamond pass@3", "pass@3 is not gpqa-diamond's primary value (a single attempt, "
                                              "pass@1), and gpqa-diamond declares no pass@3 metric"),
    ]
    assert imported.unmatched == []
    _valid(imported.doc)


def test_pass_at_k_becomes_a_declared_metric():
    """Where the benchmark declares a pass@k metric, a pass@k result is imported as that metric."""
    with_metric = Benchmarks({**BENCHMARKS.entries, "aime-2025": {
        **BENCHMARKS.entries["aime-2025"],
        "metrics": [{"id": "pass-at-5", "name": "pass@5", "scale": {"min": 0, "max": 100, "unit": "percent"}}]}})
    imported = hf.import_model_index((REAL / "omnicoder-9b" / "README.md").read_text(encoding="utf-8"), source="s",
                                     retrieved="2026-11-20", benchmarks=with_metric, resolve=RESOLVE)
    assert {"model": "tesslate/omnicoder-9b", "benchmark": "aime-2025", "metric": "pass-at-5", "value": 90,
            "self_reported": True} in imported.results


@pytest.mark.parametrize("names,expected", [
    (["accuracy", "pass@1"], ""), (["Pass Rate"], None), (["accuracy", "Pass Rate"], ""),
    (["pass@5"], None), (["pass_at_3"], None), (["pass^4"], None), (["maj@8"], None), (["cons@64"], None),
    (["pass-at-1"], ""), (["pass_at_k"], None),  # k unknown: not the primary value either
])
def test_k_sample_measures_are_not_primary(names, expected):
    assert BENCHMARKS.metric("aime-2025", names) == expected


def test_k_sample_reasons_name_the_measure():
    assert BENCHMARKS.why_not_metric("aime-2025", ["pass^4"]) == (
        "pass^4 is not aime-2025's primary value (a single attempt, pass@1), and aime-2025 declares no pass^4 metric")
    assert BENCHMARKS.why_not_metric("aime-2025", ["maj@8"]).startswith("maj@8 is not aime-2025's primary value")


def test_falcon_mamba_card_open_llm_leaderboard():
    """Open LLM Leaderboard v2 numbers are normalised: the MMLU-Pro one is refused, saying so with its shots;
    GPQA (the whole set) is not GPQA Diamond; the rest are not our benchmarks."""
    imported = _card("falcon-mamba-7b")
    assert imported.results == []
    assert imported.unmatched == []
    assert imported.skipped == [
        ("falcon-mamba-7b: BBH (3-Shot)", "no benchmark mapping for this dataset"),
        ("falcon-mamba-7b: GPQA (0-shot)", WHOLE_GPQA),
        ("falcon-mamba-7b: IFEval (0-Shot)", "no benchmark mapping for this dataset"),
        ("falcon-mamba-7b: MATH Lvl 5 (4-Shot)", "no benchmark mapping for this dataset"),
        ("falcon-mamba-7b: MMLU-PRO (5-shot)", "Open LLM Leaderboard v2 score (normalised: random guessing 0, "
                                               "perfect 100, 5-shot), not a raw mmlu-pro score; not imported"),
        ("falcon-mamba-7b: MuSR (0-shot)", "no benchmark mapping for this dataset"),
    ]


def test_card_shots_are_kept():
    """A raw result with a few-shot setting keeps the setting in its notes."""
    text = (REAL / "falcon-mamba-7b" / "README.md").read_text(encoding="utf-8")
    own = text.replace("name: Open LLM Leaderboard", "name: TII evaluation").replace(
        "https://huggingface.co/spaces/open-llm-leaderboard/open_llm_leaderboard?query=tiiuae/falcon-mamba-7b",
        "https://example.org/falcon-mamba-7b")
    imported = hf.import_model_index(own, source="s", retrieved="2026-11-20", benchmarks=BENCHMARKS, resolve=RESOLVE)
    assert imported.results == [{"model": "tiiuae/falcon-mamba-7b", "benchmark": "mmlu-pro", "value": 14.47,
                                 "url": "https://example.org/falcon-mamba-7b",
                                 "notes": "5-shot (the model card's setting)", "self_reported": True}]


def test_eee_tiger_lab_mmlu_pro():
    """benchmark_hf_repo and metric_id mmlu_pro/overall name MMLU-Pro; the 14 subjects are parts, not MMLU-Pro."""
    imported = eee.import_eee([(REAL / "eee" / EEE_TIGER).read_text(encoding="utf-8")], source="eee-files",
                              benchmarks=BENCHMARKS, resolve=RESOLVE)
    assert imported.doc["retrieved"] == "2026-05-01"  # retrieved_timestamp 1777613486.918081
    assert imported.results == [{"model": "01-ai/yi-1.5-34b-chat", "benchmark": "mmlu-pro",
                                 "harness": "MMLU-Pro leaderboard (TIGER-Lab)", "value": 52.29}]
    subjects = ["Biology", "Business", "Chemistry", "Computer Science", "Economics", "Engineering", "Health",
                "History", "Law", "Math", "Other", "Philosophy", "Physics", "Psychology"]
    assert imported.skipped == [
        (f"01-ai/yi-1.5-34b-chat: MMLU-Pro ({s})",
         f"'mmlu_pro/{s.lower().replace(' ', '_')}' is not a name of mmlu-pro or of one of its metrics in the names "
         "table (methodology/interchange-names.yaml): a part of the benchmark or another measure") for s in subjects]
    assert imported.unmatched == []
    _valid(imported.doc)


def test_eee_open_llm_leaderboard():
    """Open LLM Leaderboard v2 in EEE carries raw accuracies (0-1): MMLU-PRO maps; GPQA is the whole set."""
    imported = eee.import_eee([(REAL / "eee" / EEE_OPEN_LLM).read_text(encoding="utf-8")], source="eee-files",
                              benchmarks=BENCHMARKS, resolve=RESOLVE)
    assert imported.doc["retrieved"] == "2026-02-10"
    assert imported.results == [{"model": "tencentarc/llama-pro-8b-instruct", "benchmark": "mmlu-pro",
                                 "value": 19.46}]
    assert imported.skipped == [
        ("TencentARC/LLaMA-Pro-8B-Instruct: BBH", "no benchmark mapping for this dataset"),
        ("TencentARC/LLaMA-Pro-8B-Instruct: GPQA", WHOLE_GPQA),
        ("TencentARC/LLaMA-Pro-8B-Instruct: IFEval", "no benchmark mapping for this dataset"),
        ("TencentARC/LLaMA-Pro-8B-Instruct: MATH Level 5", "no benchmark mapping for this dataset"),
        ("TencentARC/LLaMA-Pro-8B-Instruct: MUSR", "no benchmark mapping for this dataset"),
    ]
    _valid(imported.doc)


def test_eee_names_table():
    """The adapter names the issue lists mean the benchmarks the table says, with their metrics."""
    assert BENCHMARKS.by_name("artificial_analysis.gpqa") == ("gpqa-diamond", "")
    assert BENCHMARKS.by_name("hle.accuracy") == ("hle", "")
    assert BENCHMARKS.by_name("Humanity's Last Exam (accuracy)") == ("hle", "")
    assert BENCHMARKS.by_name("Humanity's Last Exam (calibration error)") == ("hle", "calibration-error")
    assert BENCHMARKS.by_name("mmlu_pro/overall") == ("mmlu-pro", "")
    assert BENCHMARKS.by_name("mmlu_pro/biology") is None
    assert BENCHMARKS.by_name("artificial_analysis.aime") is None
    assert BENCHMARKS.refused(None, ["artificial_analysis.aime"]) == \
        "Artificial Analysis's \"aime\" is AIME 2024, not AIME 2025"
    assert BENCHMARKS.by_hub("TIGER-Lab/MMLU-Pro") == "mmlu-pro"
    assert BENCHMARKS.by_hub("TIGER-Lab/mmlu_pro_leaderboard_submission") is None  # the submissions, not the set
    assert BENCHMARKS.by_hub("Idavidrein/gpqa") is None and BENCHMARKS.by_hub("Idavidrein/gpqa", "gpqa_diamond")


def test_every_table_entry_is_a_registered_benchmark():
    declared = {b: {m["id"] for m in e.get("metrics", [])} for b, e in BENCHMARKS.entries.items()}
    assert len(BENCHMARKS.names.entries) >= 20 and len(BENCHMARKS.names.refused) >= 3  # the table was read
    for entry in BENCHMARKS.names.entries:
        assert entry.benchmark in declared, entry.benchmark
        assert {m for m, _ in entry.metrics} <= declared[entry.benchmark], entry.benchmark


def _log(*results) -> dict:
    """An EEE log shaped as EEE's adapters write them (only the fields the importer reads)."""
    return {"schema_version": "0.3.0", "retrieved_timestamp": "1777613486",
            "source_metadata": {"evaluator_relationship": "third_party"},
            "model_info": {"id": "01-ai/yi-1.5-34b-chat", "name": "Yi-1.5-34B-Chat"},
            "evaluation_results": list(results)}


def _adapter_result(name, metric_id, score, unit, max_score, lower=False) -> dict:
    return {"evaluation_name": name, "source_data": {"dataset_name": name, "source_type": "url"},
            "metric_config": {"metric_id": metric_id, "metric_unit": unit, "lower_is_better": lower,
                              "score_type": "continuous", "min_score": 0, "max_score": max_score},
            "score_details": {"score": score}}


def test_eee_adapter_names():
    """Artificial Analysis's and the HLE (Scale SEAL) adapter's names, on their own scales."""
    log = _log(
        _adapter_result("artificial_analysis.gpqa", "artificial_analysis.gpqa", 0.781, "proportion", 1.0),
        _adapter_result("artificial_analysis.aime", "artificial_analysis.aime", 0.9, "proportion", 1.0),
        _adapter_result("Humanity's Last Exam (accuracy)", "hle.accuracy", 25.3, "percent", 100.0),
        _adapter_result("Humanity's Last Exam (calibration error)", "hle.calibration_error", 50, "percent", 100.0,
                        lower=True),
    )
    imported = eee.import_eee([log], source="s", benchmarks=BENCHMARKS, resolve=RESOLVE)
    assert imported.results == [
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "gpqa-diamond", "value": 78.1},
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "hle", "value": 25.3},
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "hle", "metric": "calibration-error", "value": 50},
    ]
    assert imported.skipped == [("01-ai/yi-1.5-34b-chat: artificial_analysis.aime",
                                 "Artificial Analysis's \"aime\" is AIME 2024, not AIME 2025")]
