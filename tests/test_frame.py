"""Frames: overrides applied to imported results, and which metadata wins when files disagree."""

from __future__ import annotations

import math

import pandas as pd
import shutil
from pathlib import Path

from sitegen.data import frame
from sitegen.build import validate_repo

BASE = Path(__file__).parent / "validation" / "base"


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(BASE, root)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


BOARD = """source: board
retrieved: "2025-06-02"
models:
  - model: acme/widget-1
    organization: Acme Imported
    licence: Apache-2.0
    context_window: 32768
    pricing: {input_per_mtok: 0.4, output_per_mtok: 1.0, as_of: "2025-07-01"}
  - model: acme/gadget
    released: "2024-11"
    weights: closed
    pricing: {input_per_mtok: 2.0, as_of: "2025-07-01"}
results:
  - model: acme/widget-1
    benchmark: quiz
    value: 61
  - model: acme/gadget
    benchmark: quiz
    value: 40
  - model: acme/gadget
    benchmark: arena
    value: 1200
"""
GADGET = "id: acme/gadget\nname: Gadget\nrelease: acme/gadget\norganization: Acme\n"


def load(tmp_path, files):
    repo, problems = validate_repo(tree(tmp_path, files))
    assert repo is not None, [p.format() for p in problems]
    return repo


def test_overrides_correct_or_exclude_imported_results(tmp_path):
    overrides = """overrides:
  - model: acme/gadget
    benchmark: quiz
    source: board
    value: 44
    reason: the board swapped two rows
  - model: acme/gadget
    benchmark: arena
    source: board
    exclude: true
    reason: a preliminary rating
"""
    repo = load(tmp_path, {"scores/imported/board.yaml": BOARD, "scores/models/acme/gadget.yaml": GADGET,
                           "scores/overrides.yaml": overrides})
    rows = {(r["model"], r["benchmark"], r["source"]): r for r in frame.result_records(repo)}
    assert rows[("acme/gadget", "quiz", "board")]["value"] == 44.0
    assert rows[("acme/gadget", "quiz", "board")]["override"] == "the board swapped two rows"
    assert ("acme/gadget", "arena", "board") not in rows
    assert rows[("acme/widget-1", "quiz", "board")]["value"] == 61.0  # untouched
    assert rows[("acme/widget-1", "quiz", "paper")]["override"] == ""


def test_hand_curated_metadata_wins_and_unknown_stays_unknown(tmp_path):
    repo = load(tmp_path, {"scores/imported/board.yaml": BOARD, "scores/models/acme/gadget.yaml": GADGET})
    models = {r["model"]: r for r in frame.model_records(repo)}
    widget, gadget = models["acme/widget-1"], models["acme/gadget"]
    # The model file says Acme, open weights, and its own price from the board source: those stand.
    assert widget["organization"] == "Acme" and widget["weights"] == "open"
    assert (widget["input_per_mtok"], widget["output_per_mtok"], widget["pricing_source"]) == (0.5, 1.5, "board")
    # What the model file does not say comes from the imported file.
    assert widget["licence"] == "Apache-2.0" and widget["context_window"] == 32768
    assert (gadget["released"], gadget["weights"]) == ("2024-11", "closed")
    # An input-only price stays input-only: the output price is unknown, never 0.
    assert gadget["input_per_mtok"] == 2.0 and math.isnan(gadget["output_per_mtok"])
    assert gadget["pricing_source"] == "board"
    assert math.isnan(gadget["total_b"]) and gadget["reasoning"] is None


def test_frames_have_the_declared_columns_and_types(tmp_path):
    repo = load(tmp_path, {"scores/imported/board.yaml": BOARD, "scores/models/acme/gadget.yaml": GADGET})
    results, models = frame.results(repo), frame.models(repo)
    assert list(results.columns) == list(frame.RESULT_COLUMNS)
    assert list(models.columns) == list(frame.MODEL_COLUMNS)
    assert {str(t) for t in results.dtypes} <= {"string", "float64", "bool"}
    # Sorted by model, benchmark, ..., source: the same frame whatever the file order.
    assert list(results["model"]) == sorted(results["model"])


def test_frame_applies_rules_from_scores_metadata_yaml_with_provenance(tmp_path):
    files = {
        "scores/models/acme/gadget.yaml": "id: acme/gadget\nname: Gadget\nrelease: acme/gadget\norganization: Acme\n",
        "scores/imported/board.yaml": ('source: board\nretrieved: "2025-06-02"\nmodels:\n'
                                       "  - model: acme/gadget\n    licence: Acme Licence\nresults: []\n"),
        "scores/metadata.yaml": ("rules:\n"
                                 "  - match: [acme/*]\n    level: organization\n    weights: closed\n"
                                 "    licence: Proprietary\n    source: Acme publishes no weights\n"
                                 "    url: https://example.org/acme\n"),
    }
    repo = load(tmp_path, files)
    models = {r["model"]: r for r in frame.model_records(repo)}
    gadget, widget = models["acme/gadget"], models["acme/widget-1"]
    assert (gadget["weights"], gadget["weights_source"]) == ("closed", "scores/metadata.yaml:2")
    assert (gadget["licence"], gadget["licence_source"]) == ("Acme Licence", "board")  # the source beats the rule
    assert gadget["reasoning"] is None and gadget["reasoning_source"] is None and math.isnan(gadget["total_b"])
    # widget-1's file says open weights: the organisation rule does not override it.
    assert (widget["weights"], widget["weights_source"]) == ("open", "scores/models/acme/widget-1.yaml")
    assert list(frame.models(repo).columns) == list(frame.MODEL_COLUMNS)


def test_release_effort_and_effort_rank(tmp_path):
    high = "id: acme/gadget-high\nname: Gadget (high)\nrelease: acme/gadget\neffort: high\norganization: Acme\n"
    budget = ("id: acme/gadget-8k\nname: Gadget (8K)\nrelease: acme/gadget\neffort: {budget_tokens: 8192}\n"
              "organization: Acme\n")
    repo = load(tmp_path, {"scores/imported/board.yaml": BOARD, "scores/models/acme/gadget.yaml": GADGET,
                           "scores/models/acme/gadget-high.yaml": high, "scores/models/acme/gadget-8k.yaml": budget})
    models = frame.models(repo).set_index("model")
    assert models.loc["acme/gadget-high", ["release", "effort", "effort_rank"]].tolist() == ["acme/gadget", "high", 4.0]
    assert bool(models.loc["acme/gadget-high", "reasoning"]) is True  # effort decides reasoning
    # 8K thinking tokens: 2 + log4(8192 / 1024) = 3.5, between medium and high
    assert models.loc["acme/gadget-8k", ["effort", "effort_rank"]].tolist() == ["8K thinking tokens", 3.5]
    # widget-1 states no effort but reasoning: false, so it sits at none; gadget states neither: unknown
    assert models.loc["acme/widget-1", ["release", "effort", "effort_rank"]].tolist() == ["acme/widget-1", "none", 0.0]
    assert pd.isna(models.loc["acme/gadget", "effort"]) and math.isnan(models.loc["acme/gadget", "effort_rank"])
    assert str(models["effort_rank"].dtype) == "float64"


def test_reasoning_state_keeps_not_stated_apart_from_not_known(tmp_path):
    """A reviewed rule's `reasoning: not stated` (the vendor is silent) is its own state; a model nobody has entered
    stays 'not known'; a stated mode (the file's effort, a source's value) wins over the rule."""
    files = {
        "scores/models/acme/gadget.yaml": GADGET,  # no mode anywhere but the rule: not stated
        "scores/models/acme/gizmo.yaml": "id: acme/gizmo\nname: Gizmo\nrelease: acme/gizmo\norganization: Acme\n",
        "scores/models/acme/gadget-high.yaml": ("id: acme/gadget-high\nname: Gadget (high)\nrelease: acme/gadget\n"
                                                "effort: high\norganization: Acme\n"),
        "scores/models/acme/doohickey.yaml": ("id: acme/doohickey\nname: Doohickey\nrelease: acme/doohickey\n"
                                              "organization: Acme\n"),
        "scores/imported/board.yaml": ('source: board\nretrieved: "2025-06-02"\nmodels:\n'
                                       "  - model: acme/doohickey\n    reasoning: false\nresults: []\n"),
        "scores/metadata.yaml": ("rules:\n"
                                 "  - match: [acme/gadget*, acme/doohickey]\n    level: release\n"
                                 "    reasoning: not stated\n    source: Acme's docs give no default mode\n"
                                 "    url: https://example.org/acme-docs\n"),
    }
    repo = load(tmp_path, files)
    models = {r["model"]: r for r in frame.model_records(repo)}
    state = {m: (r["reasoning"], r["reasoning_state"], r["reasoning_source"]) for m, r in models.items()}
    assert state["acme/gadget"] == (None, "not stated", "scores/metadata.yaml:2")
    assert state["acme/gizmo"] == (None, "not known", None)
    assert state["acme/gadget-high"] == (True, "yes", "scores/models/acme/gadget-high.yaml")  # effort decides
    assert state["acme/doohickey"] == (False, "no", "board")  # the source states it; the rule only fills silence
    assert state["acme/widget-1"] == (False, "no", "scores/models/acme/widget-1.yaml")
    assert math.isnan(models["acme/gadget"]["effort_rank"])  # not stated is no effort either
    assert str(frame.models(repo)["reasoning_state"].dtype) == "string"


def test_todays_price_follows_source_precedence_not_the_newest_date(tmp_path):
    # LMArena's price is newer than the AA snapshot's, but AA outranks LMArena: each source's price_precedence in
    # scores/sources.yaml (methodology/cost.md)
    aa = ('source: aa-api-2025-10\nretrieved: "2025-10-14"\nmodels:\n  - model: acme/gadget\n'
          '    pricing: {input_per_mtok: 0.15, output_per_mtok: 0.15, as_of: "2025-10-14"}\nresults: []\n')
    arena = ('source: lmarena\nretrieved: "2025-12-17"\nmodels:\n  - model: acme/gadget\n'
             '    pricing: {input_per_mtok: 2.0, output_per_mtok: 6.0, as_of: "2025-12-17"}\nresults: []\n')

    def files(rank: dict[str, int]) -> dict[str, str]:
        sources = (BASE / "scores/sources.yaml").read_text(encoding="utf-8") + "".join(
            f"  - {{id: {sid}, name: {sid}, url: https://example.org/{sid}, licence: MIT, attribution: x, "
            f"provenance: secondary{f', price_precedence: {rank[sid]}' if sid in rank else ''}}}\n"
            for sid in ("aa-api-2025-10", "lmarena"))
        return {"scores/sources.yaml": sources, "scores/imported/aa-api-2025-10.yaml": aa,
                "scores/imported/lmarena.yaml": arena, "scores/models/acme/gadget.yaml": GADGET}

    def gadget(folder: str, rank: dict[str, int]) -> dict:
        repo, problems = validate_repo(tree(tmp_path / folder, files(rank)))
        assert not [p.format() for p in problems if p.severity == "error"]
        return next(r for r in frame.model_records(repo) if r["model"] == "acme/gadget")

    ranked = gadget("ranked", {"aa-api-2025-10": 1, "lmarena": 2})
    assert (ranked["input_per_mtok"], ranked["pricing_source"]) == (0.15, "aa-api-2025-10")
    assert sorted(ranked["prices"]) == ["aa-api-2025-10", "lmarena"]  # both kept for the price history
    # AA alone ranked: LMArena, stating none, comes after it all the same
    assert gadget("aa-only", {"aa-api-2025-10": 1})["pricing_source"] == "aa-api-2025-10"
    # no source ranked: every one alike, so the newest price (LMArena's) holds today
    alike = gadget("alike", {})
    assert (alike["input_per_mtok"], alike["pricing_source"]) == (2.0, "lmarena")


def test_a_hand_entered_vendor_list_price_sets_todays_price(tmp_path):
    # The vendor's list price (the model file's list_prices) outranks every imported price, AA's newer snapshot
    # included; its newest entry is today's price, and the record says it is the vendor's (methodology/cost.md).
    aa = ('source: aa-api-2025-10\nretrieved: "2025-10-14"\nmodels:\n  - model: acme/gadget\n'
          '    pricing: {input_per_mtok: 0.15, output_per_mtok: 0.15, as_of: "2025-10-14"}\nresults: []\n')
    sources = (BASE / "scores/sources.yaml").read_text(encoding="utf-8") + (
        "  - {id: aa-api-2025-10, name: aa, url: https://example.org/aa, licence: MIT, attribution: x, "
        "provenance: secondary}\n")
    listed = GADGET + (
        "list_prices:\n"
        "- {as_of: '2025-04-16', input_per_mtok: 1, output_per_mtok: 4, url: 'https://acme.example/launch', "
        "note: launch price}\n"
        "- {as_of: '2025-06-10', input_per_mtok: 0.2, output_per_mtok: 0.8, url: 'https://acme.example/cut', "
        "note: the announced cut}\n")
    root = tree(tmp_path, {"scores/sources.yaml": sources, "scores/imported/aa-api-2025-10.yaml": aa,
                           "scores/models/acme/gadget.yaml": listed})
    repo, problems = validate_repo(root)
    assert not [p.format() for p in problems if p.severity == "error"]
    gadget = next(r for r in frame.model_records(repo) if r["model"] == "acme/gadget")
    assert (gadget["input_per_mtok"], gadget["output_per_mtok"], gadget["pricing_as_of"],
            gadget["pricing_source"]) == (0.2, 0.8, "2025-06-10", "vendor")
    assert sorted(gadget["prices"]) == ["aa-api-2025-10"]  # AA's differing price stays for the price history
