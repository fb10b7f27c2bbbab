"""The build takes the model records validation made (checks.run_checks leaves them on the repo, build._compute
takes them once) instead of making them again: they must be what frame.model_records makes. The cross-file rule
release_facts_agree reads the releases' disagreements from them (metadata.release_disagreements) without changing
them: metadata.inherit_release runs once, in frame.model_records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
from hardkit import make_tree, model_doc

from sitegen import build
from sitegen.data import frame, metadata, validate_repo


def _release_tree(tmp_path: Path) -> Path:
    """One release, acme/alpha, in three configurations: a month and a day that agree (the day is kept and given
    to the month's and the silent one), parameters stated by one (given to the others), a licence two state
    differently (a disagreement: given to none, a warning)."""
    models = [
        model_doc("acme/alpha-high", name="Alpha (high)", scores={"hle": 20}, release="acme/alpha", released="2025-03-14",
                  parameters={"total_b": 70}, licence="MIT", reasoning=True),
        model_doc("acme/alpha-low", name="Alpha (low)", scores={"hle": 10}, release="acme/alpha", released="2025-03", licence="Apache-2.0"),
        model_doc("acme/alpha-mini", name="Alpha (mini)", scores={"hle": 5}, release="acme/alpha"),
        model_doc("zeta/gamma", {"hle": 5}),
    ]
    del models[2]["released"]
    return make_tree(tmp_path / "repo", models)


def test_validation_leaves_the_records_frame_model_records_makes(tmp_path):
    repo, problems = validate_repo(_release_tree(tmp_path), parse_cache=False)
    assert repo is not None, [p.format() for p in problems]
    assert [p.message for p in problems if "disagree" in p.message] == [
        "configurations of acme/alpha disagree on licence: acme/alpha-high MIT, acme/alpha-low Apache-2.0"
    ]
    made = repo.made["model_records"]
    assert made == frame.model_records(repo)
    by_id = {r["model"]: r for r in made}
    assert [by_id[m]["released"] for m in ("acme/alpha-high", "acme/alpha-low", "acme/alpha-mini")] == [
        "2025-03-14", "2025-03-14", "2025-03-14"]
    assert by_id["acme/alpha-low"]["provenance"]["released"]["from"] == "acme/alpha-high"
    assert [by_id[m]["total_b"] for m in ("acme/alpha-low", "acme/alpha-mini")] == [70, 70]
    assert by_id["acme/alpha-mini"]["licence"] is None  # disputed: not given


def test_the_release_rule_reads_the_records_without_inheriting_again(tmp_path, monkeypatch):
    calls = []
    inherit = metadata.inherit_release
    monkeypatch.setattr(metadata, "inherit_release", lambda records: calls.append(len(records)) or inherit(records))
    repo, problems = validate_repo(_release_tree(tmp_path), parse_cache=False)
    assert repo is not None, [p.format() for p in problems]
    assert calls == [4]  # frame.model_records' own pass over the four models: the rule runs none
    records = repo.made["model_records"]
    before = [dict(r, provenance=dict(r["provenance"])) for r in records]
    # the same disagreement the warning above names, read from the inherited records, which it leaves as they were
    assert metadata.release_disagreements(records) == [
        ("acme/alpha", "licence", {"acme/alpha-high": "MIT", "acme/alpha-low": "Apache-2.0"})]
    assert records == before


def test_the_build_computes_the_same_with_validations_records_as_with_its_own(tmp_path):
    repo, problems = validate_repo(_release_tree(tmp_path), parse_cache=False)
    assert repo is not None, [p.format() for p in problems]
    assert "model_records" in repo.made
    taken = build._compute(repo, boards_only=True)
    assert "model_records" not in repo.made  # taken once: a second compute makes its own
    made = build._compute(repo, boards_only=True)
    assert taken.model_records == made.model_records
    pd.testing.assert_frame_equal(taken.models, made.models)
    assert taken.boards == made.boards


def test_on_the_real_data_validations_records_are_frame_model_records(real_repo):
    kept = real_repo.made.get("model_records")
    if kept is None:  # a test before this one took them (build._compute): validate again
        found, _ = validate_repo(real_repo.root)
        kept = found.made["model_records"]
    assert len(kept) > 800
    assert kept == frame.model_records(real_repo)


_IMPORTS = (
    "import json, sys; from sitegen.data import validate_repo; "
    "repo, problems = validate_repo(sys.argv[1], parse_cache=False); "
    "print(json.dumps([repo is not None, [p.message for p in problems], len(repo.made['model_records']) if repo else 0, "
    "[m for m in ('pandas', 'jsonschema', 'referencing') if m in sys.modules]]))"
)


def test_validating_valid_files_imports_no_pandas_and_no_jsonschema(tmp_path):
    """The records are plain dicts (pandas is the build's, frame.results/models) and jsonschema-rs says the files
    are valid (jsonschema explains a rejected one): `sitegen validate` after an edit starts neither."""
    run = subprocess.run(
        [sys.executable, "-c", _IMPORTS, str(_release_tree(tmp_path))], capture_output=True, text=True, check=True
    )
    ok, messages, records, imported = json.loads(run.stdout)
    assert ok and records == 4
    assert messages == [
        "configurations of acme/alpha disagree on licence: acme/alpha-high MIT, acme/alpha-low Apache-2.0"
    ]
    assert imported == []


def test_a_file_the_schema_rejects_is_explained_by_jsonschema(tmp_path):
    root = _release_tree(tmp_path)
    model = root / "scores" / "models" / "zeta" / "gamma.yaml"
    model.write_text(model.read_text(encoding="utf-8") + "colour: blue\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", _IMPORTS, str(root)], capture_output=True, text=True, check=True)
    ok, messages, _, imported = json.loads(run.stdout)
    assert not ok
    assert "unknown field 'colour'" in messages
    assert imported == ["jsonschema", "referencing"]  # (no pandas: an error stops before the build)
