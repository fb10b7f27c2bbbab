"""Importers on small hand-written fixtures, and the byte-for-byte re-import of the real downloaded files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen import importers
from sitegen.cli.imports import import_command
from sitegen.data.registry import Registry
from sitegen.importers.extracts import Context, number, resolve

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "downloads"


def registry(**models):
    return Registry.build({mid: {"id": mid, "name": name, "aliases": aliases}
                           for mid, (name, aliases) in models.items()})


def test_number_is_exact_and_scaled():
    assert number("87%") == 87
    assert number("$3.44") == 3.44
    assert number("0.37520000000000003", 100) == 37.52
    assert number("9.1", "0.2") == 1.82
    assert number("N/A") is None and number("") is None


def test_aa_leaderboard_strips_endpoint_tags_and_keeps_creator_endpoint(tmp_path):
    from sitegen.importers import aa_leaderboard
    cols = ["API Provider", "Model", "License", "Total Response (s)", "Input Price USD/1M Tokens",
            "Output Price USD/1M Tokens"] + list(aa_leaderboard.EVALS)
    evals = ["69", "87%", "85%", "27%", "67%", "43%", "73%", "94%", "76%"]
    rows = [["OpenAI", "GPT-5 (high)", "Proprietary", "71.41", "$1.25", "$10.00"] + evals,
            ["Microsoft Azure", "GPT-5 (high)", "Proprietary", "80.00", "$1.50", "$12.00"] + evals,
            ["Google Vertex", "Gemini 2.5 Pro Vertex", "Proprietary", "30.0", "$1.25", "$10.00"] + evals]
    f = tmp_path / "aa_providers_leaderboard_scrape_2025-08-14_x.csv"
    f.write_text("\n".join(",".join(f'"{c}"' for c in r) for r in [cols] + rows) + "\n")
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", []), "google/gemini-2.5-pro": ("Gemini 2.5 Pro", [])})
    ex = aa_leaderboard.extract([f], None, Context(lambda n: (reg.match(n) or [None])[0]))
    out = resolve(ex, reg, [])
    assert out.doc["retrieved"] == "2025-08-14" and not out.unmatched
    gpt = [r for r in out.doc["results"] if r["model"] == "openai/gpt-5-high"]
    assert {r["benchmark"]: r["value"] for r in gpt}["aa-response-time"] == 71.41
    assert {r["benchmark"]: r["value"] for r in gpt}["hle"] == 27
    price = next(m for m in out.doc["models"] if m["model"] == "openai/gpt-5-high")["pricing"]
    assert price == {"as_of": "2025-08-14", "input_per_mtok": 1.25, "output_per_mtok": 10}
    assert any(m["model"] == "google/gemini-2.5-pro" for m in out.doc["models"])


def test_epoch_hle_percent_interval_calibration_and_unknown_effort_reported(tmp_path):
    """Epoch's "Accuracy Standard Error" for HLE is the leaderboard's 95% half-width: it becomes ci95."""
    f = tmp_path / "hle_external.csv"
    f.write_text("Model version,Accuracy,Release date,Organization,Name,Accuracy Standard Error,Calibration Error,Notes,id\n"
                 "gpt-5-2025-08-07_high,0.2532,2025-08-07,OpenAI,GPT-5,0.0087,50,,a\n"
                 "gpt-5-2025-08-07_unknown,0.2532,2025-08-07,OpenAI,GPT-5,0.0087,50,,b\n")
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", ["gpt-5-2025-08-07_high"])})
    ex = importers.IMPORTERS["epoch"].extract([f], "2026-04-19", Context(lambda n: None))
    out = resolve(ex, reg, [])
    assert [p.name for p in out.unmatched] == ["gpt-5-2025-08-07_unknown"]
    values = {(r["benchmark"], r.get("metric", "")): (r["value"], r.get("ci95"), r.get("stderr"))
              for r in out.doc["results"]}
    assert values == {("hle", ""): (25.32, [24.45, 26.19], None), ("hle", "calibration-error"): (50, None, None)}
    ignored = resolve(ex, reg, [{"source": "epoch", "name": "gpt-5-2025-08-07_unknown", "reason": "effort unknown"}])
    assert not ignored.unmatched and ignored.ignored


def test_critpt_tools_become_harness_percent_as_published(tmp_path):
    f = tmp_path / "critpt.csv"
    f.write_text('model,challenge_accuracy_pct,note\n"GPT-5 (high, code & web)",12.6,\nGPT-5 (high),5.7,\n')
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", [])})
    out = resolve(importers.IMPORTERS["critpt"].extract([f], "2025-11-21", Context(lambda n: None)), reg, [])
    assert [(r.get("harness", ""), r["value"]) for r in out.doc["results"]] == [("", 5.7), ("code & web", 12.6)]


def test_lmarena_ci_and_prices(tmp_path):
    (tmp_path / "leaderboard-text-style-control.json").write_text(
        '{"full": {"gpt-5-high": {"rating": 1440.5, "rating_q025": 1435.25, "rating_q975": 1445.75}}}')
    (tmp_path / "scatterplot-data.json").write_text(
        '[{"name": "GPT-5", "model_api_name": "gpt-5-high", "input_token_price": "1.25", "output_token_price": "10", "license": "Proprietary"}]')
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", ["gpt-5-high"])})
    paths = [tmp_path / "leaderboard-text-style-control.json", tmp_path / "scatterplot-data.json"]
    out = resolve(importers.IMPORTERS["lmarena"].extract(paths, "2025-12-17", Context(lambda n: None)), reg, [])
    assert out.doc["results"][0]["ci95"] == [1435.25, 1445.75]
    assert out.doc["models"][0]["pricing"]["output_per_mtok"] == 10


def test_import_exits_non_zero_on_unmatched(tmp_path):
    (tmp_path / "scores" / "models").mkdir(parents=True)
    f = tmp_path / "eq.csv"
    f.write_text("model_name,elo_norm,ci_low_norm,ci_high_norm\no3,1500.0,1480.0,1520.0\n")
    runner = CliRunner()
    result = runner.invoke(import_command, ["eq-bench", str(f), "--retrieved", "2026-07-31", "--root", str(tmp_path)])
    assert result.exit_code != 0 and "unmatched 'o3'" in result.output
    result = runner.invoke(import_command, ["eq-bench", str(f), "--retrieved", "2026-07-31", "--allow-unmatched",
                                            "--root", str(tmp_path)])
    assert result.exit_code == 0
    assert yaml.safe_load((tmp_path / "scores/imported/eq-bench.yaml").read_text())["results"] == []


def test_reimport_of_real_files_is_byte_identical(tmp_path):
    """Every importer on its files in downloads/ reproduces scores/imported/ exactly."""
    withheld = [c for c in importers.captures(REPO) if not c.redistributable and not (DATA / c.name).is_file()]
    if withheld:
        # not about the environment: no CI machine can have such a file, so CI keeps this skip (tests/conftest.py)
        pytest.skip("not in the repository, as their terms forbid redistribution: "
                    + "; ".join(f"{c.name} ({c.download})" for c in withheld))
    root = tmp_path / "repo"
    shutil.copytree(REPO / "scores", root / "scores")
    for path in (root / "scores" / "imported").glob("*.yaml"):
        if path.name != "ignore.yaml":
            path.unlink()
    for plan in importers.planned(root, DATA):
        _, outcome = importers.run(root, plan.source, list(plan.paths), plan.retrieved)
        assert not outcome.unmatched and not outcome.conflicts, plan.source
        importers.write(root, outcome)
    for path in sorted((REPO / "scores" / "imported").glob("*.yaml")):
        assert (root / "scores" / "imported" / path.name).read_bytes() == path.read_bytes(), path.name


def test_reasoning_read_from_aa_display_names():
    from sitegen.importers.aa_api import reasoning_from_name

    assert [reasoning_from_name(n) for n in (
        "GPT-5 (high)", "GPT-5 (minimal)", "Qwen3 235B (Reasoning)", "Claude Opus 4.5 Thinking",
        "Claude 4.5 Sonnet (Non-reasoning)", "GLM-4.6 (Non-reasoning, high)",
        "Gemini 2.5 Pro", "o3", "Llama 3.1 405B")] == [True, True, True, True, False, False, None, None, None]


def test_lmarena_licence_gives_open_or_closed_weights():
    from sitegen.importers.lmarena import weights_from_licence

    assert [weights_from_licence(x) for x in ("Proprietary", "Apache 2.0", "Llama 3.1 Community", "MRL", None, "")] == [
        "closed", "open", "open", "open", None, None]


def test_epoch_reads_weights_from_the_capabilities_index_and_reasoning_from_the_version_suffix(tmp_path):
    """Model accessibility: open weights (any kind) -> open; API, hosted or unreleased -> closed. Capabilities-index
    rows of models the registry does not know are left out, so metadata never adds unmatched names."""
    from sitegen.importers import epoch

    hle = tmp_path / "hle_external.csv"
    hle.write_text("Model version,Accuracy,Release date,Organization,Name,Accuracy Standard Error,Calibration Error,Notes,id\n"
                   "gpt-5-2025-08-07_high,0.25,2025-08-07,OpenAI,GPT-5,0.01,50,,a\n"
                   "gpt-5.1-2025-11-13_none,0.10,2025-11-13,OpenAI,GPT-5.1,0.01,50,,b\n")
    eci = tmp_path / "epoch_capabilities_index.csv"
    eci.write_text("Model version,ECI Score,Release date,Organization,Country,Model accessibility\n"
                   "gpt-5-2025-08-07_high,150,2025-08-07,OpenAI,USA,API access\n"
                   "Llama-3.1-8B-Instruct,110,2024-07-23,Meta,USA,Open weights (restricted use)\n"
                   "claude-3-7-sonnet-20250219_32K,140,2025-02-24,Anthropic,USA,\n"
                   "not-in-registry,100,2024-01-01,X,USA,Open weights (unrestricted)\n")
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", ["gpt-5-2025-08-07_high"]),
                      "openai/gpt-5.1-none": ("GPT-5.1", ["gpt-5.1-2025-11-13_none"]),
                      "meta/llama-3.1-8b": ("Llama 3.1 8B", ["Llama-3.1-8B-Instruct"]),
                      "anthropic/claude-3.7-sonnet-32k": ("Claude 3.7 Sonnet", ["claude-3-7-sonnet-20250219_32K"])})
    ex = epoch.extract([hle, eci], "2026-04-19", Context(lambda n: (reg.match(n) or [None])[0]))
    out = resolve(ex, reg, [])
    assert not out.unmatched and not out.conflicts
    models = {m["model"]: m for m in out.doc["models"]}
    assert (models["openai/gpt-5-high"]["weights"], models["openai/gpt-5-high"]["reasoning"]) == ("closed", True)
    assert models["openai/gpt-5.1-none"]["reasoning"] is False and "weights" not in models["openai/gpt-5.1-none"]
    assert models["meta/llama-3.1-8b"] == {"model": "meta/llama-3.1-8b", "name_in_source": "Llama-3.1-8B-Instruct",
                                           "released": "2024-07-23", "weights": "open"}
    # blank accessibility says nothing; the thinking budget says reasoning
    assert "weights" not in models["anthropic/claude-3.7-sonnet-32k"]
    assert models["anthropic/claude-3.7-sonnet-32k"]["reasoning"] is True
    assert not any(r["model"] == "meta/llama-3.1-8b" for r in out.doc["results"])  # ECI scores are not imported
    assert [epoch.reasoning_from_version(n) for n in ("o3_unknown", "glm-4.5_thinking", "Qwen2.5-Coder-32B_7b",
                                                      "x_16k", "x_max")] == [None, True, None, True, True]
    with pytest.raises(epoch.ImportError_):
        epoch.weights_from_accessibility("Leaked")


def test_lmarena_names_say_thinking_and_a_misspelt_proprietary_is_closed():
    from sitegen.importers.lmarena import reasoning_from_name, weights_from_licence

    assert [reasoning_from_name(n) for n in ("claude-opus-4-1-20250805-thinking-16k", "olmo-3-32b-think",
                                             "grok-4-1-fast-reasoning", "qwen3-235b-a22b-no-thinking",
                                             "o3-2025-04-16", "gpt-4o")] == [True, True, True, False, None, None]
    assert weights_from_licence("Propretary") == "closed"


def test_aa_leaderboard_metadata_context_window_of_own_endpoint_reasoning_and_no_open_licence(tmp_path):
    from sitegen.importers import aa_leaderboard
    cols = ["API Provider", "Model", "Context Window", "License", "Total Response (s)", "Input Price USD/1M Tokens",
            "Output Price USD/1M Tokens"] + list(aa_leaderboard.EVALS)
    evals = ["60", "80%", "70%", "10%", "50%", "30%", "40%", "50%", "60%"]
    rows = [["Alibaba", "Qwen3 235B (Reasoning)", "131k", "Open", "20", "$0.7", "$8.4"] + evals,
            ["Together.ai", "Qwen3 235B (Reasoning)", "41k", "Open", "10", "$0.6", "$6.0"] + evals,
            ["Google (AI Studio)", "Gemini 2.5 Pro", "1m", "Proprietary", "30", "$1.25", "$10.00"] + evals,
            ["Together.ai", "Llama 3.3 70B", "128k", "Open", "5", "$0.9", "$0.9"] + evals]
    f = tmp_path / "aa_providers_leaderboard_scrape_2025-08-14_x.csv"
    f.write_text("\n".join(",".join(f'"{c}"' for c in r) for r in [cols] + rows) + "\n")
    CREATORS = {**aa_leaderboard.CREATOR_ENDPOINTS, "Alibaba": "alibaba"}
    reg = registry(**{"alibaba/qwen3-235b-reasoning": ("Qwen3 235B (Reasoning)", []),
                      "google/gemini-2.5-pro": ("Gemini 2.5 Pro", []), "meta/llama-3.3-70b": ("Llama 3.3 70B", [])})
    original = aa_leaderboard.CREATOR_ENDPOINTS
    aa_leaderboard.CREATOR_ENDPOINTS = CREATORS
    aa_leaderboard.PREFERENCE = list(CREATORS)
    try:
        ex = aa_leaderboard.extract([f], None, Context(lambda n: (reg.match(n) or [None])[0]))
    finally:
        aa_leaderboard.CREATOR_ENDPOINTS, aa_leaderboard.PREFERENCE = original, list(original)
    models = {m["model"]: m for m in resolve(ex, reg, []).doc["models"]}
    qwen, gemini, llama = (models["alibaba/qwen3-235b-reasoning"], models["google/gemini-2.5-pro"],
                           models["meta/llama-3.3-70b"])
    assert (qwen["weights"], qwen["context_window"], qwen["reasoning"]) == ("open", 131000, True)
    assert "licence" not in qwen  # "Open" is AA's category, not a licence
    assert (gemini["weights"], gemini["licence"], gemini["context_window"]) == ("closed", "Proprietary", 1000000)
    assert "reasoning" not in gemini
    # only a third-party endpoint: its (shorter) window is not the model's, so it stays unknown
    assert "context_window" not in llama and llama["weights"] == "open"


def test_a_source_scoped_alias_wins_at_its_source_only():
    from sitegen.importers.extracts import Extract

    registry = Registry.build({
        "cohere/command-r-mar-24": {"id": "cohere/command-r-mar-24", "name": "Command-R (Mar '24)",
                                    "aliases": ["command-r"]},
        "cohere/command-r-08-2024": {"id": "cohere/command-r-08-2024", "name": "Command R (08-2024)",
                                     "source_aliases": [{"source": "aa", "name": "Command-R"}]},
    })
    at_aa, elsewhere = Extract("aa", "2025-08-14", []), Extract("lmarena", "2025-12-17", [])
    for ex in (at_aa, elsewhere):
        ex.result("Command-R", "quiz", 50)
    assert [r["model"] for r in resolve(at_aa, registry, []).doc["results"]] == ["cohere/command-r-08-2024"]
    assert [r["model"] for r in resolve(elsewhere, registry, []).doc["results"]] == ["cohere/command-r-mar-24"]
    assert registry.match("command-r", "aa") == ["cohere/command-r-08-2024"]
    assert registry.match("command-r") == ["cohere/command-r-mar-24"]


def test_merge_moves_names_results_and_rows_and_keeps_the_old_id(tmp_path):
    from sitegen.data.registry import write_model
    from sitegen.importers.aliases import merge

    write_model(tmp_path, {"id": "acme/w-high", "name": "W (high)", "release": "acme/w", "effort": "high",
                           "organization": "Acme", "aliases": ["w_high"]})
    write_model(tmp_path, {"id": "acme/w-dup", "name": "W-high", "release": "acme/w", "effort": "high",
                           "organization": "Acme", "former_ids": ["acme/w-older"],
                           "results": [{"benchmark": "quiz", "value": 1, "source": "s", "retrieved": "2025-01-01"}]})
    (tmp_path / "scores/imported").mkdir()
    (tmp_path / "scores/imported/s.yaml").write_text("results:\n- model: acme/w-dup\n  value: 2\n")
    merge(tmp_path, "acme/w-dup", "acme/w-high")
    kept = yaml.safe_load((tmp_path / "scores/models/acme/w-high.yaml").read_text())
    assert not (tmp_path / "scores/models/acme/w-dup.yaml").exists()
    assert kept["aliases"] == ["W-high", "w_high"]
    assert kept["former_ids"] == ["acme/w-dup", "acme/w-older"]
    assert kept["results"][0]["value"] == 1
    assert "model: acme/w-high\n" in (tmp_path / "scores/imported/s.yaml").read_text()


def test_aa_importers_file_hle_under_aa_question_set(tmp_path):
    # AA runs HLE on its own set (2,684 text-only questions of the original 3,000): subset aa-2684; other evals
    # stay on the full set. 0.2532 -> 25.32 percent.
    f = tmp_path / "aa_api_v2_llms_full_2026-07-31.json"
    f.write_text('{"data": [{"name": "GPT-5 (high)", "slug": "gpt-5", "evaluations": {"hle": 0.2532, "gpqa": 0.85}}]}')
    reg = registry(**{"openai/gpt-5-high": ("GPT-5 (high)", [])})
    ex = importers.IMPORTERS["aa-api-2026-07"].extract([f], None, Context(lambda n: None), source="aa-api-2026-07")
    out = resolve(ex, reg, [])
    assert {(r["benchmark"], r.get("subset", ""), r["value"]) for r in out.doc["results"]} == {
        ("hle", "aa-2684", 25.32), ("gpqa-diamond", "", 85)}


def test_import_all_check_ends_with_a_one_line_verdict():
    # `import --all --check` counts each source's reviewed skips and ignores in one line (--verbose lists them);
    # its last line says whether the imports are current.
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}  # no CI progress lines
    done = subprocess.run([sys.executable, "-c", "from sitegen.cli import main; main()", "import", "--all",
                           "--check", "--root", str(repo)], capture_output=True, text=True, timeout=1200,  # hang guard
                          env=env)
    assert done.returncode == 0, done.stderr
    count = len(list((repo / "scores" / "imported").glob("*.yaml"))) - 1   # all but ignore.yaml
    assert done.stdout.splitlines()[-1] == f"import --all --check: all {count} imported files are what their downloads give"
    # at most one line per source before the verdict (it printed 741 when every ignored name had its own line)
    lines = done.stderr.splitlines()
    assert len(lines) <= count and all("each for a reviewed reason (--verbose lists them)" in line for line in lines)
    assert "ignored 'llama-3.1-tulu-3-70b'" not in done.stderr


def test_import_report_counts_reviewed_skips_and_ignores_unless_verbose(capsys):
    from types import SimpleNamespace

    from sitegen.cli.imports import _report

    ex = SimpleNamespace(skipped=[("row 4", "no value")])
    outcome = SimpleNamespace(ignored=[("tulu-3-8b", "no registry model"), ("mercury", "not a language model")],
                              unmatched=[SimpleNamespace(name="widget-9", message="matches no model")], conflicts=[])
    assert _report("board", ex, outcome, verbose=False) == 1  # the unmatched name blocks either way
    assert capsys.readouterr().err.splitlines() == [
        "board: 1 row skipped, 2 names ignored, each for a reviewed reason (--verbose lists them)",
        "board: unmatched 'widget-9': matches no model"]
    assert _report("board", ex, outcome, verbose=True) == 1
    assert capsys.readouterr().err.splitlines() == [
        "board: skipped 'row 4': no value", "board: ignored 'tulu-3-8b': no registry model",
        "board: ignored 'mercury': not a language model", "board: unmatched 'widget-9': matches no model"]
    nothing = SimpleNamespace(ignored=[], unmatched=[], conflicts=[])
    assert _report("board", SimpleNamespace(skipped=[]), nothing, verbose=False) == 0
    assert capsys.readouterr().err == ""
