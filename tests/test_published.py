"""When a number became public (`published`): importers' dates, the frame's fallbacks and validate's rules.

Small hand-written inputs; the real data is tested in tests/test_published_realdata.py.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.build import validate_repo
from sitegen.data import frame
from sitegen.importers import epoch, swe_bench
from sitegen.importers.extracts import Context, Extract, published_day
from sitegen.site.render import published_text
from test_frame import tree  # the validation base tree with files laid over it

BASE = Path(__file__).parent / "validation" / "base"
ANY = Context(lambda name: None)


def errors(tmp_path, files) -> list[str]:
    _, problems = validate_repo(tree(tmp_path, files))
    return [p.format() for p in problems if p.severity == "error"]


# ------------------------------------------------------------------ importers


def test_published_day_takes_the_day_of_a_date_or_timestamp():
    assert published_day("2026-04-17T11:24:50.000Z") == "2026-04-17"
    assert published_day(" 2025-05-20 ") == "2025-05-20"
    assert published_day("") is None and published_day(None) is None
    assert published_day("2025-13-01") is None      # not a real date: the capture applies
    assert published_day("2025-05") is None         # a month is not a day


def test_a_result_without_a_source_date_is_public_by_the_capture():
    ex = Extract("src", "2025-12-17", [])
    ex.result("a", "quiz", 50)
    ex.result("b", "quiz", 60, published="2025-11-03T08:00:00Z")
    ex.result("c", "quiz", 70, published="not a date")
    rows = {name: row for name, row in ex.results}
    assert (rows["a"]["published"], rows["a"].get("public_by")) == ("2025-12-17", True)
    assert (rows["b"]["published"], rows["b"].get("public_by")) == ("2025-11-03", None)
    assert (rows["c"]["published"], rows["c"].get("public_by")) == ("2025-12-17", True)


def test_swe_bench_dates_a_row_by_its_submission(tmp_path):
    path = tmp_path / "swebench_leaderboards_2025-12-10.csv"
    path.write_text(
        "leaderboard,name,resolved,date,checked,tags,folder,site\n"
        'Verified,Agent + Widget,41.2,2025-05-20,True,"[""Model: widget-1""]",20250520_agent_widget,https://example.org/\n'
        'Verified,Agent + Gadget,30.0,,True,"[""Model: gadget""]",x_agent_gadget,https://example.org/\n', encoding="utf-8")
    ex = swe_bench.extract([path], None, ANY)
    rows = {name: row for name, row in ex.results}
    assert (rows["widget-1"]["published"], rows["widget-1"].get("public_by")) == ("2025-05-20", None)
    assert (rows["gadget"]["published"], rows["gadget"].get("public_by")) == ("2025-12-10", True)


def test_epoch_dates_own_runs_and_leaderboard_rows_and_not_its_compilations(tmp_path):
    (tmp_path / "frontiermath.csv").write_text(
        "Model version,mean_score,Release date,stderr,Log viewer,Started at,id\n"
        "widget-1_high,0.25,2025-03-01,0.02,,2025-03-04T10:00:00.000Z,run1\n", encoding="utf-8")
    (tmp_path / "terminalbench_external.csv").write_text(
        "Model version,Agent,Accuracy mean,Release date,Accuracy SE,Model Org,Run date,Notes,Source,Source Link,Created,Name,id\n"
        "widget-1_high,Bot,0.5,2025-03-01,0.02,Acme,2025-04-02,,Terminal-Bench v2 Leaderboard,,2025-04-09T00:00:00.000Z,,r1\n"
        "gadget_high,Bot,0.4,2025-03-01,0.02,Acme,,,Terminal-Bench v2 Leaderboard,,2025-04-09T00:00:00.000Z,,r2\n",
        encoding="utf-8")
    (tmp_path / "hle_external.csv").write_text(
        "Model version,Accuracy,Release date,Name,Accuracy Standard Error,Calibration Error,Notes,id\n"
        "widget-1_high,0.1,2025-03-01,w,0.01,80,,h1\n", encoding="utf-8")
    ex = epoch.extract(sorted(tmp_path.glob("*.csv")), "2026-04-19", ANY)
    got = sorted((name, row["benchmark"], row.get("metric", ""), row["published"], row.get("public_by", False))
                 for name, row in ex.results)
    assert got == [
        ("gadget_high", "terminal-bench-2", "", "2025-04-09", False),           # no Run date: Created
        ("widget-1_high", "frontiermath-tier-1-3", "", "2025-03-04", False),    # Started at
        ("widget-1_high", "hle", "", "2026-04-19", True),                       # a compilation: the capture
        ("widget-1_high", "hle", "calibration-error", "2026-04-19", True),
        ("widget-1_high", "terminal-bench-2", "", "2025-04-02", False),         # Run date
    ]


# ------------------------------------------------------------------ frame


def test_published_of_prefers_the_result_then_the_recorded_version_then_the_capture():
    assert frame.published_of({"published": "2025-02-01"}, "2025-06-01", "2025-03-01") == ("2025-02-01", False)
    assert frame.published_of({"published": "2025-02-01", "public_by": True}, "2025-06-01", None) == ("2025-02-01", True)
    assert frame.published_of({}, "2025-06-01", "2025-03-01") == ("2025-03-01", False)
    assert frame.published_of({}, "2025-06-01", None) == ("2025-06-01", True)


PAPER_VERSION = """sources:
  - id: paper
    name: The Quiz paper
    url: https://example.org/paper
    licence: CC BY 4.0
    attribution: Example et al. (2025)
    provenance: primary
    published:
      version: arXiv:2501.00001v2
      date: "2025-04-10"
      url: https://example.org/paper/v2
  - id: board
    name: The Quiz board
    url: https://example.org/board
    licence: MIT
    attribution: Example board
    provenance: secondary
"""
BOARD = """source: board
retrieved: "2025-06-02"
results:
  - model: acme/widget-1
    benchmark: quiz
    value: 61
    published: "2025-05-30"
  - model: acme/widget-1
    benchmark: arena
    value: 1200
    published: "2025-06-02"
    public_by: true
"""


def test_frame_carries_published_and_public_by_for_every_result(tmp_path):
    repo, problems = validate_repo(tree(tmp_path, {"scores/sources.yaml": PAPER_VERSION,
                                                   "scores/imported/board.yaml": BOARD}))
    assert repo is not None, [p.format() for p in problems]
    rows = {(r["benchmark"], r["source"]): (r["retrieved"], r["published"], r["public_by"])
            for r in frame.result_records(repo)}
    assert rows == {("quiz", "paper"): ("2025-06-01", "2025-04-10", False),   # the paper's recorded version
                    ("quiz", "board"): ("2025-06-02", "2025-05-30", False),
                    ("arena", "board"): ("2025-06-02", "2025-06-02", True)}
    results = frame.results(repo)
    assert str(results["published"].dtype) == "string" and str(results["public_by"].dtype) == "bool"


def test_the_model_page_says_public_by_for_a_capture_date():
    assert published_text({"published": "2025-06-02", "public_by": True}) == "public by 2025-06-02"
    assert published_text({"published": "2025-05-30", "public_by": False}) == "2025-05-30"
    assert published_text({"published": ""}) == "–"


# ------------------------------------------------------------------ validate


WIDGET = (BASE / "scores/models/acme/widget-1.yaml").read_text(encoding="utf-8")


def test_a_pre_release_result_with_its_link_is_accepted(tmp_path):
    dated = WIDGET.replace('    retrieved: "2025-06-01"\n',
                           '    retrieved: "2025-06-01"\n    published: "2025-02-20"\n'
                           '    published_url: https://example.org/paper/v1\n    pre_release: true\n')
    assert errors(tmp_path, {"scores/models/acme/widget-1.yaml": dated}) == []


def test_an_imported_result_before_the_release_needs_a_reviewed_override(tmp_path):
    early = BOARD.replace('published: "2025-05-30"', 'published: "2025-02-20"')
    assert errors(tmp_path, {"scores/imported/board.yaml": early}) == [
        "scores/imported/board.yaml:7:16: results[0].published: published 2025-02-20 is before acme/widget-1's "
        "release (2025-03) (if it really was public before the release, add a reviewed entry to "
        "scores/overrides.yaml (model, benchmark, source, pre_release: true, published_url, reason); else correct "
        "the model's release date or which model the source's name means)"]
    override = ("overrides:\n  - model: acme/widget-1\n    benchmark: quiz\n    source: board\n    pre_release: true\n"
                "    published_url: https://example.org/board/early\n    reason: run with early access\n")
    assert errors(tmp_path / "b", {"scores/imported/board.yaml": early, "scores/overrides.yaml": override}) == []
    # an excluded result is on no board: its date is not checked
    excluded = ("overrides:\n  - model: acme/widget-1\n    benchmark: quiz\n    source: board\n    exclude: true\n"
                "    reason: another model's row\n")
    assert errors(tmp_path / "c", {"scores/imported/board.yaml": early, "scores/overrides.yaml": excluded}) == []


def test_a_pre_release_override_only_dates_the_result_and_keeps_its_value(tmp_path):
    override = ("overrides:\n  - model: acme/widget-1\n    benchmark: quiz\n    source: board\n    pre_release: true\n"
                "    published_url: https://example.org/board/early\n    reason: run with early access\n")
    repo, problems = validate_repo(tree(tmp_path, {"scores/imported/board.yaml": BOARD,
                                                   "scores/overrides.yaml": override}))
    assert repo is not None, [p.format() for p in problems]
    rows = {(r["benchmark"], r["source"]): (r["value"], r["override"]) for r in frame.result_records(repo)}
    assert rows[("quiz", "board")] == (61.0, "")
