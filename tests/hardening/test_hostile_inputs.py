"""No internal error on any input (#31 item 4): model cards, .eval_results files and Every Eval Ever JSON given to
`sitegen interchange`, CSV/JSON captures given to `sitegen import`, and special files given as either: each hostile
shape ends in exit 1 with a placed message (`path:line:col: field: message`), never a traceback (exit 2), within a
bounded time and memory.

Each case runs the console entry point in a fresh interpreter with a time limit and an address-space limit, so a
case that would expand an alias bomb or read /dev/zero to the end fails the test instead of the machine."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hardkit import make_tree

LIMIT_SECONDS = 40       # of CPU: far above a refusal (about 2 s), far below what an unbounded read takes
HANG_SECONDS = 300       # of wall clock, only a hang guard: a busy machine stretches it, not the CPU time
ADDRESS_SPACE = 3 << 30  # the interpreter with every dependency imported uses well under 1 GB

CARD = """---
license: apache-2.0
model-index:
{index}
---
# A model
"""


def card(index: str) -> str:
    return CARD.format(index=index)


BOMB = "a: &a [{name: x, results: [{dataset: {name: GPQA Diamond}, metrics: [{type: accuracy, value: 0.5}]}]}]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))

EEE_OK = {"schema_version": "0.3.0", "retrieved_timestamp": "1767225600",
          "source_metadata": {"evaluator_relationship": "third_party"},
          "model_info": {"id": "acme/alpha", "name": "Alpha"},
          "evaluation_results": [{"evaluation_name": "GPQA Diamond", "source_data": {"dataset_name": "GPQA Diamond"},
                                  "metric_config": {"max_score": 1}, "score_details": {"score": 0.5}}]}


def eee(**changes) -> str:
    doc = json.loads(json.dumps(EEE_OK))
    for dotted, value in changes.items():
        target = doc
        *parents, last = dotted.split("__")
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value
    return json.dumps(doc, indent=2)


# (id, command kind, file name, file text (None: a special path; an int: that size), where the message is placed,
#  what it says)
CASES = [
    # Hugging Face model cards (model-index) and .eval_results files
    ("card-index-is-a-mapping", "card", "README.md", card("  name: alpha"),
     "README.md:3:1: model-index:", "must be a list"),
    ("card-entry-is-text", "card", "README.md", card("  - just text"),
     "README.md:4:5: model-index[0]:", "must be a mapping"),
    ("card-results-is-a-number", "card", "README.md", card("  - name: alpha\n    results: 5"),
     "README.md:5:5: model-index[0].results:", "must be a list"),
    ("card-dataset-is-a-list", "card", "README.md",
     card("  - name: alpha\n    results:\n      - dataset: [GPQA, Diamond]\n        metrics: []"),
     "README.md:6:9: model-index[0].results[0].dataset:", "must be a mapping"),
    ("card-metric-is-text", "card", "README.md",
     card("  - name: alpha\n    results:\n      - dataset: {name: GPQA Diamond}\n        metrics: [accuracy]"),
     "README.md:7:19: model-index[0].results[0].metrics[0]:", "must be a mapping"),
    ("card-value-overflows", "card", "README.md",
     card("  - name: alpha\n    results:\n      - dataset: {name: GPQA Diamond}\n"
          "        metrics: [{type: accuracy, value: 1.0e+999}]"),
     "README.md:7:", "model-index[0].results[0].metrics[0].value: '1.0e+999' is too large to be a finite number"),
    ("card-value-too-large", "card", "README.md",
     card("  - name: alpha\n    results:\n      - dataset: {name: GPQA Diamond}\n"
          "        metrics: [{type: accuracy, value: 1.0e+300}]"),
     "README.md:7:", "model-index[0].results[0].metrics[0].value: 1e+300 is out of range"),
    ("card-alias-bomb", "card", "README.md", "---\n" + BOMB + "model-index: *j\n---\n",
     "README.md:3:", "alias '*a' is not allowed"),
    ("card-deep-nesting", "card", "README.md", "---\nmodel-index: " + "[" * 5000 + "]" * 5000 + "\n---\n",
     "README.md:2:", "nesting deeper than"),
    ("card-not-yaml", "card", "README.md", "---\nmodel-index: [a, b\n---\n",
     "README.md:", "YAML syntax error"),
    ("card-too-big", "card", "README.md", "---\nlicense: mit\n---\n" + "x" * (17 << 20),
     "README.md: (file):", "is over the 16,777,216-byte limit"),
    ("card-result-is-null", "card", "README.md", card("  - name: alpha\n    results: [null]"),
     "README.md:5:15: model-index[0].results[0]:", "must be a mapping, not null"),
    ("eval-results-is-a-number", "eval-results", "gpqa.yaml", "42\n",
     "gpqa.yaml:1:1: (file):", "must be a list"),
    ("eval-results-dataset-is-text", "eval-results", "gpqa.yaml", "- dataset: Idavidrein/gpqa\n  value: 50\n",
     "gpqa.yaml:1:3: [0].dataset:", "must be a mapping"),
    # Every Eval Ever
    ("eee-top-level-list", "eee", "log.json", "[1, 2]", "log.json: (file):", "must be a mapping"),
    ("eee-results-is-a-mapping", "eee", "log.json", eee(evaluation_results={"a": 1}),
     "log.json:", "evaluation_results: must be a list"),
    ("eee-result-is-null", "eee", "log.json", eee(evaluation_results__0=None),
     "log.json:", "evaluation_results[0]: must be a mapping, not null"),
    ("eee-model-info-is-text", "eee", "log.json", eee(model_info="acme/alpha"),
     "log.json:", "model_info: must be a mapping"),
    ("eee-timestamp-overflows", "eee", "log.json", eee(retrieved_timestamp="1e999"),
     "log.json:", "retrieved_timestamp: '1e999' is not a date"),
    ("eee-score-details-is-a-list", "eee", "log.json", eee(evaluation_results__0__score_details=[0.5]),
     "log.json:", "evaluation_results[0].score_details: must be a mapping"),
    ("eee-stderr-is-text", "eee", "log.json",
     eee(evaluation_results__0__score_details={"score": 0.5, "uncertainty": {"standard_error": {"value": "abc"}}}),
     "log.json:", "evaluation_results[0].score_details.uncertainty.standard_error.value: must be a number"),
    ("eee-interval-bound-is-a-mapping", "eee", "log.json",
     eee(evaluation_results__0__score_details={"score": 0.5, "uncertainty": {
         "confidence_interval": {"lower": {"x": 1}, "upper": 0.6}}}),
     "log.json:", "evaluation_results[0].score_details.uncertainty.confidence_interval.lower: must be a number"),
    ("eee-max-score-is-text", "eee", "log.json", eee(evaluation_results__0__metric_config={"max_score": "one"}),
     "log.json:", "evaluation_results[0].metric_config.max_score: must be a number"),
    ("eee-score-has-401-digits", "eee", "log.json", eee(evaluation_results__0__score_details={"score": 10 ** 400}),
     "log.json:", "evaluation_results[0].score_details.score: a 401-digit number is out of range"),
    ("eee-number-past-python-int-limit", "eee", "log.json", '{"schema_version": "0.3.0", "n": ' + "7" * 5000 + "}",
     "log.json:1:1: (file):", "is not valid JSON"),
    ("eee-deep-nesting", "eee", "log.json", "[" * 100000 + "]" * 100000, "log.json:1:1: (file):", "nested too deeply"),
    # captures given to `sitegen import`
    ("import-csv-overflow", "import-eq", "eq.csv",
     "model_name,elo_norm,ci_low_norm,ci_high_norm\nM1,1e999,1480,1520\n", "eq.csv:2:4: elo_norm:", "1e999"),
    ("import-csv-exponent", "import-eq", "eq.csv",
     "model_name,elo_norm,ci_low_norm,ci_high_norm\nM1,1500,1480,1e9999999\n", "eq.csv:2:14: ci_high_norm:",
     "1e9999999"),
    ("import-csv-huge", "import-eq", "eq.csv",
     "model_name,elo_norm,ci_low_norm,ci_high_norm\nM1,1500,1e300,1520\n", "eq.csv:2:9: ci_low_norm:", "1e300"),
    ("import-csv-field-over-csv-limit", "import-eq", "eq.csv",
     'model_name,elo_norm,ci_low_norm,ci_high_norm\nM2,1500,1480,1520\n"' + "a" * 200000 + '",1500,1480,1520\n',
     "eq.csv:3:1: (file):", "cannot be read as CSV: field larger than field limit"),
    ("suggest-csv-field-over-csv-limit", "suggest-eq", "eq.csv",
     'model_name,elo_norm,ci_low_norm,ci_high_norm\n"' + "a" * 200000 + '",1500,1480,1520\n',
     "eq.csv:2:1: (file):", "cannot be read as CSV"),
    ("suggest-csv-overflow", "suggest-eq", "eq.csv",
     "model_name,elo_norm,ci_low_norm,ci_high_norm\nM1,1e999,1480,1520\n", "eq.csv:2:4: elo_norm:", "1e999"),
    ("import-json-wrong-types", "import-arc", "evaluations.json", '{"rows": "not a list"}',
     "evaluations.json:1:1: (file):", "not the shape the arc-prize importer reads"),
    ("import-json-items-are-text", "import-arc", "evaluations.json", '["a", "b"]',
     "evaluations.json:1:1: (file):", "not the shape the arc-prize importer reads"),
    ("import-json-number-past-python-int-limit", "import-arc", "evaluations.json", "[" + "7" * 5000 + "]",
     "evaluations.json:1:1: (file):", "is not valid JSON"),
    # every kind is bounded in size before it is read (an int: a sparse file of that many bytes)
    ("eval-results-too-big", "eval-results", "gpqa.yaml", (16 << 20) + 1,
     "gpqa.yaml: (file):", "is over the 16,777,216-byte limit"),
    ("eee-too-big", "eee", "log.json", (16 << 20) + 1, "log.json: (file):", "is over the 16,777,216-byte limit"),
    ("import-csv-too-big", "import-eq", "eq.csv", (64 << 20) + 1, "eq.csv: (file):", "is over the 67,108,864-byte limit"),
    ("import-json-too-big", "import-arc", "evaluations.json", (64 << 20) + 1,
     "evaluations.json: (file):", "is over the 67,108,864-byte limit"),
    # the review file `aliases apply` reads: YAML by the strict reader (no aliases, bounded depth and size)
    ("apply-alias-bomb", "apply", "review.yaml", BOMB + "proposals: *j\n", "review.yaml:1:4: a:",
     "anchor '&a' is not allowed"),
    ("apply-deep-nesting", "apply", "review.yaml", "proposals: " + "[" * 100000 + "]" * 100000 + "\n",
     "review.yaml:1:", "nesting deeper than 32 levels"),
    ("apply-too-big", "apply", "review.yaml", (5 << 20) + 1, "review.yaml: (file):", "is over the 5,242,880-byte limit"),
    ("apply-not-yaml", "apply", "review.yaml", "proposals: [a, b\n", "review.yaml:", "YAML syntax error"),
    # special files
    ("apply-dev-zero", "apply", "/dev/zero", None, "/dev/zero: (file):", "not a regular file"),
    ("card-dev-zero", "card", "/dev/zero", None, "/dev/zero: (file):", "not a regular file"),
    ("eee-dev-zero", "eee", "/dev/zero", None, "/dev/zero: (file):", "not a regular file"),
    ("import-dev-zero", "import-eq", "/dev/zero", None, "/dev/zero: (file):", "not a regular file"),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return make_tree(tmp_path_factory.mktemp("hostile") / "repo")


def _limits():  # in the child: a runaway allocation or computation fails there, not on the machine
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (LIMIT_SECONDS, LIMIT_SECONDS))


def run_cli(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess | None, float]:
    """The command's outcome (None if it hung) and the CPU seconds it used: what the input cost, whatever else the
    machine was doing meanwhile."""
    env = {k: v for k, v in os.environ.items() if k not in ("SITEGEN_DEBUG", "GITHUB_ACTIONS", "CI")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def cpu() -> float:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    try:
        done = subprocess.run([sys.executable, "-c", "from sitegen.cli import entry\nentry()\n", *args], cwd=cwd,
                              env=env, capture_output=True, text=True, timeout=HANG_SECONDS, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        return None, cpu()
    return done, cpu()


def command(kind: str, path: str, repo: Path) -> list[str]:
    common = ["--root", str(repo)]
    if kind == "card":
        return ["interchange", "hf-model-index", "paper", path, "--retrieved", "2026-01-01", "--print", *common]
    if kind == "eval-results":
        return ["interchange", "hf-eval-results", "paper", path, "--retrieved", "2026-01-01", "--model", "acme/alpha",
                "--print", *common]
    if kind == "eee":
        return ["interchange", "eee", "paper", path, "--print", *common]
    if kind == "import-eq":
        return ["import", "eq-bench", path, "--retrieved", "2026-01-01", *common]
    if kind == "apply":
        return ["aliases", "apply", path, *common]
    if kind == "suggest-eq":
        return ["aliases", "suggest", "eq-bench", path, *common]
    if kind == "import-arc":
        models = Path(path).with_name("models.json")
        models.write_text("[]", encoding="utf-8")
        return ["import", "arc-prize", path, str(models), "--retrieved", "2026-01-01", *common]
    raise AssertionError(kind)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_input_is_a_placed_message_and_exit_1(case, repo, tmp_path):
    name, kind, file_name, text, where, says = case
    if text is None:
        path = file_name
    elif isinstance(text, int):
        path = str(tmp_path / file_name)
        with open(path, "wb") as sparse:
            sparse.truncate(text)
    else:
        path = str(tmp_path / file_name)
        Path(path).write_text(text, encoding="utf-8")
    done, cpu = run_cli(command(kind, path, repo), tmp_path)
    assert done is not None, f"{name}: still running after {HANG_SECONDS} s"
    assert done.returncode != -signal.SIGXCPU, f"{name}: stopped after {LIMIT_SECONDS} s of CPU"
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 1, (done.returncode, done.stderr[-3000:])
    shown = done.stderr.replace(str(tmp_path) + "/", "")
    placed = [line[line.index(where):] for line in shown.splitlines() if where in line]
    assert placed and any(says in line for line in placed), shown[-3000:]
    # path:line:col, or the path alone for the whole file
    assert all(re.match(r"^(?:.+:\d+:\d+|[^:]+): (?:\(file\)|[^ :]+): .+", line) for line in placed), placed
    assert cpu < LIMIT_SECONDS / 2, cpu
