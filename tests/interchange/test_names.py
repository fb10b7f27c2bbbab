"""methodology/interchange-names.yaml, the reviewed table of the names other formats give a repository's benchmarks:
read from the repository (none: the empty table, where an exact benchmark id still names itself), checked by its
schema and the cross-file rules (every problem placed, all of them at once), and used by `sitegen interchange`,
`sitegen export --format eee|hf` and `sitegen validate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.data import checks, load
from sitegen.interchange import eee
from sitegen.interchange.records import Benchmarks, NamesTable, Refused

HERE = Path(__file__).parent
OMNICODER = HERE / "fixtures" / "real" / "omnicoder-9b" / "README.md"
ENV = {"GITHUB_ACTIONS": "false"}
#: A registry as the rules read it: benchmark id -> its entry.
REGISTRY = {"quiz": {"id": "quiz", "name": "Quiz", "metrics": [{"id": "calibration"}]}, "trivia": {"id": "trivia"}}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], env=ENV)


def _write(root: Path, text: str) -> Path:
    (root / "methodology").mkdir(parents=True, exist_ok=True)
    path = root / "methodology" / "interchange-names.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _refused(root: Path, registry: dict = REGISTRY) -> list[str]:
    with pytest.raises(Refused) as caught:
        NamesTable.load(root, registry)
    return [p.format() for p in caught.value.problems]


# ------------------------------------------------------------------------------------------------ reading it


def test_the_table_is_read_from_the_repository(tmp_path):
    _write(tmp_path, "# reviewed\nbenchmarks:\n  quiz:\n    name: Quiz Bench\n"
                     "    hub: [{dataset: acme/quiz, config: main}, {dataset: acme/quiz-all}]\n"
                     "    names: [quiz_v1, '007']\n    metrics:\n      calibration: [quiz.cal]\n"
                     "  trivia:\n    names: [trivia.acc]\n"
                     "not:\n  - {name: Quiz Lite, why: a tenth of the questions}\n"
                     "  - {hub: acme/quiz, why: all sets}\n")
    table = NamesTable.load(tmp_path, REGISTRY)
    quiz, trivia = table.entries
    assert (quiz.benchmark, quiz.name, quiz.names) == ("quiz", "Quiz Bench", ("quiz_v1", "007"))
    assert quiz.hubs == (("acme/quiz", "main"), ("acme/quiz-all", None))
    assert quiz.metrics == (("calibration", ("quiz.cal",)),)
    assert (trivia.benchmark, trivia.name, trivia.hubs, trivia.names) == ("trivia", None, (), ("trivia.acc",))
    assert table.refused == (("name", "quiz-lite", "a tenth of the questions"), ("hub", "acme-quiz", "all sets"))
    benchmarks = Benchmarks(dict(REGISTRY), table)
    assert benchmarks.by_name("QUIZ_V1") == ("quiz", "")
    assert benchmarks.by_name("quiz.cal") == ("quiz", "calibration")
    assert benchmarks.by_hub("acme/quiz", "main") == "quiz" and benchmarks.by_hub("acme/quiz") is None
    assert benchmarks.by_hub("ACME/Quiz-All") == "quiz"
    assert benchmarks.refused(None, ["Quiz lite"]) == "a tenth of the questions"
    assert benchmarks.export_name("trivia").name == "trivia"  # no display name, and the registry gives none


def test_no_file_is_the_empty_table_and_a_benchmark_id_still_names_itself(tmp_path):
    (tmp_path / "methodology").mkdir()
    (tmp_path / "methodology" / "benchmarks.yaml").write_text(
        "benchmarks:\n  - {id: quiz, name: Quiz, metrics: [{id: calibration}]}\n", encoding="utf-8")
    benchmarks = Benchmarks.load(tmp_path)
    assert benchmarks.names == NamesTable() and benchmarks.names.entries == () and benchmarks.names.refused == ()
    assert benchmarks.find(None, None, ["quiz"]) == "quiz"
    assert benchmarks.by_name("Quiz") == ("quiz", "")  # the id, case-folded
    assert benchmarks.by_name("quiz_v1") is None and benchmarks.by_hub("acme/quiz") is None
    assert benchmarks.refused("acme/quiz", ["quiz_v1"]) is None
    assert benchmarks.export_name("quiz").name == "Quiz" and benchmarks.export_name("quiz").hub is None
    assert Benchmarks.from_list([{"id": "quiz"}]).names == NamesTable()


def test_a_repository_made_by_sitegen_init_has_no_table_and_validates(tmp_path):
    folder = tmp_path / "leaderboard"
    assert run("init", folder).exit_code == 0
    assert not (folder / "methodology" / "interchange-names.yaml").exists()
    benchmarks = Benchmarks.load(folder)
    assert benchmarks.names == NamesTable() and list(benchmarks.entries) == ["gpqa-diamond"]
    assert benchmarks.by_name("gpqa-diamond") == ("gpqa-diamond", "") and benchmarks.by_name("gpqa_diamond") == (
        "gpqa-diamond", "")  # the same comparison key as the id
    assert benchmarks.by_name("artificial_analysis.gpqa") is None  # this repository's table names it, not this one
    assert (folder / "schemas" / "interchange-names.schema.json").is_file()  # for an editor, should it add one
    result = run("validate", "--root", folder, "--max-warnings", "0")
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------------------- schema problems


def test_a_table_of_another_shape_gets_every_problem_placed(tmp_path):
    _write(tmp_path, "benchmarks:\n  quiz:\n    title: Quiz\n    hub: [{dataset: acme/quiz, split: x}]\n"
                     "    names: quiz_v1\n  Trivia:\n    names: [a]\nnot:\n  - {name: a, hub: b, why: both}\n"
                     "  - {name: c}\nextra: 1\n")
    assert _refused(tmp_path) == [  # a key's form is placed at the mapping that holds it, as in site.yaml
        "methodology/interchange-names.yaml:2:3: benchmarks: text 'Trivia' is not in the expected form "
        "(Lower-case letters, digits, '.', '_' and '-', starting with a letter or digit.)",
        "methodology/interchange-names.yaml:3:5: benchmarks.quiz.title: unknown field 'title' "
        "(allowed: hub, metrics, name, names)",
        "methodology/interchange-names.yaml:4:32: benchmarks.quiz.hub[0].split: unknown field 'split' "
        "(allowed: config, dataset)",
        "methodology/interchange-names.yaml:5:12: benchmarks.quiz.names: expected array, got text 'quiz_v1'",
        "methodology/interchange-names.yaml:9:5: not[0]: matches none or several of the allowed forms "
        "(see the schema's description of this field)",
        "methodology/interchange-names.yaml:10:5: not[1].why: missing field 'why' (this field is required)",
        "methodology/interchange-names.yaml:11:1: extra: unknown field 'extra' (allowed: benchmarks, not)",
    ]


def test_a_file_that_is_not_strict_yaml_is_refused_at_its_place(tmp_path):
    _write(tmp_path, "benchmarks:\n  quiz:\n    names: [a, b\n")
    assert _refused(tmp_path) == ["methodology/interchange-names.yaml:4:1: (file): YAML syntax error: did not find "
                                  "expected ',' or ']' (check the indentation and quoting here)"]


# ---------------------------------------------------------------------------------------- cross-file rules


def test_each_cross_file_rule_places_its_problem(tmp_path):
    _write(tmp_path, """benchmarks:
  quiz:
    name: Quiz Bench
    hub: [{dataset: acme/quiz, config: main}, {dataset: acme/quiz-all}]
    names: [quiz_v1, Quiz Bench (overall)]
    metrics:
      speed: [quiz.speed]
      calibration: [quiz.cal, quiz]
  trivia:
    names: [quiz_v1, QUIZ, trivia.acc, Trivia]
    hub: [{dataset: acme/quiz, config: main}, {dataset: acme/quiz, config: other}]
  quizz:
    names: [x]
not:
  - {name: Trivia Acc, why: looks alike}
  - {hub: acme/quiz-all, why: not it}
  - {hub: acme/quiz, why: all sets}
  - {name: Quiz Lite, why: a tenth}
""")
    assert _refused(tmp_path) == [
        "methodology/interchange-names.yaml:7:7: benchmarks.quiz.metrics.speed: 'speed' is not a metric quiz "
        "declares (quiz has metrics: calibration)",
        "methodology/interchange-names.yaml:8:31: benchmarks.quiz.metrics.calibration[1]: 'quiz' is the id of "
        "benchmark quiz, which it always names (an exact benchmark id names itself: remove it here)",
        "methodology/interchange-names.yaml:10:13: benchmarks.trivia.names[0]: 'quiz_v1' is also a name of quiz "
        "(benchmarks.quiz.names[0]) (a name means one benchmark and metric: keep it where it belongs)",
        "methodology/interchange-names.yaml:10:22: benchmarks.trivia.names[1]: 'QUIZ' is the id of benchmark "
        "quiz, which it always names (an exact benchmark id names itself: remove it here)",
        "methodology/interchange-names.yaml:11:11: benchmarks.trivia.hub[0]: this dataset is also listed for quiz "
        "(benchmarks.quiz.hub[0]) (a Hub dataset (with its config) is one benchmark: keep it where it belongs)",
        "methodology/interchange-names.yaml:12:3: benchmarks.quizz: unknown benchmark 'quizz' "
        "(did you mean 'quiz'?)",
        "methodology/interchange-names.yaml:15:12: not[0].name: 'Trivia Acc' is refused but names trivia "
        "(benchmarks.trivia.names[2]) (list a name either as a benchmark's or under not, never both)",
        "methodology/interchange-names.yaml:16:11: not[1].hub: 'acme/quiz-all' is refused but is quiz, all of it "
        "(benchmarks.quiz.hub[1]) (refuse a dataset only where the table lists some of its configs)",
    ]


def test_a_name_of_its_own_benchmark_twice_or_a_refused_config_dataset_is_no_problem(tmp_path):
    _write(tmp_path, "benchmarks:\n  quiz:\n    name: Quiz\n    names: [quiz, QUIZ-v1, quiz_v1]\n"
                     "    hub: [{dataset: acme/quiz, config: main}, {dataset: acme/quiz, config: main}]\n"
                     "  trivia: {}\nnot:\n  - {hub: acme/quiz, why: all sets}\n")
    assert NamesTable.load(tmp_path, REGISTRY).refused == (("hub", "acme-quiz", "all sets"),)


def test_the_rules_run_in_validation_and_an_unknown_registry_id_gets_the_registry_hint(tmp_path):
    _write(tmp_path, "benchmarks:\n  zzz:\n    names: [z]\n")
    doc = load.read_doc(tmp_path, load.INTERCHANGE_NAMES, "interchange-names", [])
    assert doc is not None and doc.kind == "interchange-names"
    repo = load.Repo(root=tmp_path, benchmarks=None, sources=None, overrides=None, ignore=None, citation=None,
                     indices=(), models=(), imported=(), raw=(), pages=(), names=doc)
    assert [p.format() for p in checks.run_checks(repo) if p.path == load.INTERCHANGE_NAMES] == [
        "methodology/interchange-names.yaml:2:3: benchmarks.zzz: unknown benchmark 'zzz' "
        "(benchmark ids are listed in methodology/benchmarks.yaml)"]


# ------------------------------------------------------------------------------------------- the commands


def test_validate_reports_the_tables_problems_with_the_rest(root):
    _write(root, "benchmarks:\n  gpqa-diamond:\n    names: [hle]\n  gpqa-diamnd:\n    names: [x]\n    title: y\n")
    result = run("validate", "--root", root)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("methodology/interchange-names.yaml")]
    assert lines == [
        "methodology/interchange-names.yaml:3:13: benchmarks.gpqa-diamond.names[0]: 'hle' is the id of benchmark "
        "hle, which it always names (an exact benchmark id names itself: remove it here)",
        "methodology/interchange-names.yaml:4:3: benchmarks.gpqa-diamnd: unknown benchmark 'gpqa-diamnd' "
        "(did you mean 'gpqa-diamond'?)",
        "methodology/interchange-names.yaml:6:5: benchmarks.gpqa-diamnd.title: unknown field 'title' "
        "(allowed: hub, metrics, name, names)",
    ]


def test_interchange_refuses_with_the_tables_problems_and_writes_nothing(root):
    _write(root, "benchmarks:\n  gpqa-diamnd:\n    names: [x]\n")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    result = run("interchange", "hf-model-index", "hf-cards", OMNICODER, "--retrieved", "2026-11-20", "--root", root)
    assert result.exit_code == 1
    assert "methodology/interchange-names.yaml:2:3: benchmarks.gpqa-diamnd: unknown benchmark 'gpqa-diamnd' " \
           "(did you mean 'gpqa-diamond'?)" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before


def test_interchange_without_a_table_matches_ids_only(root):
    """The card's "GPQA Diamond" is gpqa-diamond's id by the comparison key; "Terminal-Bench 2.0" is a name only
    this repository's table gives terminal-bench-2."""
    args = ("interchange", "hf-model-index", "hf-cards", OMNICODER, "--retrieved", "2026-11-20", "--print")
    with_table = run(*args, "--root", root)
    assert with_table.exit_code == 0, with_table.output
    assert [r["benchmark"] for r in yaml.safe_load(with_table.stdout)["results"]] == ["gpqa-diamond",
                                                                                      "terminal-bench-2"]
    (root / "methodology" / "interchange-names.yaml").unlink()
    result = run(*args, "--root", root)
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout)["results"] == [
        {"model": "tesslate/omnicoder-9b", "benchmark": "gpqa-diamond", "value": 83.8, "self_reported": True}]
    assert "hf-cards: skipped 'OmniCoder-9B: Terminal-Bench 2.0': no benchmark mapping for this dataset" \
        in result.stderr


def test_export_takes_the_display_names_and_datasets_from_the_table(root, tmp_path):
    (root / "scores" / "imported" / "eee-files.yaml").write_text(
        "source: eee-files\nretrieved: '2026-01-02'\nresults:\n- model: 01-ai/yi-1.5-34b-chat\n"
        "  benchmark: gpqa-diamond\n  value: 40\n", encoding="utf-8")
    _write(root, "benchmarks:\n  gpqa-diamond:\n    name: GPQA (the Diamond set)\n"
                 "    hub: [{dataset: acme/gpqa, config: diamond}]\n")
    assert run("export", "--root", root, "--format", "eee", "--out", tmp_path / "named").exit_code == 0
    (root / "methodology" / "interchange-names.yaml").unlink()
    assert run("export", "--root", root, "--format", "eee", "--out", tmp_path / "plain").exit_code == 0

    def logs(folder: Path) -> list[dict]:
        found = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.json"))]
        return [log for log in found if log["evaluation_results"][0]["evaluation_name"] == "gpqa-diamond"]

    [named], [plain] = logs(tmp_path / "named"), logs(tmp_path / "plain")
    source, plain_source = named["evaluation_results"][0]["source_data"], plain["evaluation_results"][0]["source_data"]
    assert source["dataset_name"] == "GPQA (the Diamond set)" and source["hf_repo"] == "acme/gpqa"
    assert plain_source["dataset_name"] == "GPQA Diamond" and "hf_repo" not in plain_source  # the registry's name

