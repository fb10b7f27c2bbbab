"""Contributor tools: `sitegen new model|result`, `sitegen serve`, the schema reference and CONTRIBUTING.md.

Data trees are copies of tests/validation/base (a valid tree: benchmarks quiz and arena, sources paper and board,
model acme/widget-1), changed by the commands under test and then checked with `sitegen validate`.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen import schema, serve
from sitegen.cli import main
from sitegen.contrib import append_text

HERE = Path(__file__).parent
BASE = HERE / "validation" / "base"
REPO = HERE.parent
ENV = {"GITHUB_ACTIONS": "false", "SOURCE_DATE_EPOCH": "1751328000"}  # 2025-07-01


@pytest.fixture
def root(tmp_path) -> Path:
    target = tmp_path / "repo"
    shutil.copytree(BASE, target)
    return target


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], env=ENV)


def validate(root: Path):
    result = run("validate", "--root", root, "--warnings")
    return result.exit_code, result.output


# --------------------------------------------------------------------------- new model


def test_new_model_scaffolds_a_valid_file(root):
    result = run("new", "model", "acme/widget-7b", "--name", "Widget 7B: Instruct", "--organization", "Acme AI",
                 "--root", root)
    assert result.exit_code == 0, result.output
    assert "wrote scores/models/acme/widget-7b.yaml" in result.output
    text = (root / "scores/models/acme/widget-7b.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=../../../generator/sitegen/schemas/model.schema.json\n")
    assert yaml.safe_load(text) == {"id": "acme/widget-7b", "name": "Widget 7B: Instruct", "release": "acme/widget-7b",
                                    "organization": "Acme AI"}
    assert validate(root) == (0, "0 errors, 0 warnings\n")


def test_new_model_defaults_name_and_organization(root):
    assert run("new", "model", "newco/thing-1", "--root", root).exit_code == 0
    data = yaml.safe_load((root / "scores/models/newco/thing-1.yaml").read_text())
    assert (data["name"], data["organization"]) == ("thing-1", "newco")
    assert validate(root)[0] == 0


@pytest.mark.parametrize("model_id,message", [
    ("acme/Widget", "scores/models/acme/Widget.yaml:0:0: (file): path segment 'Widget' is not a valid id (use lower-case "
                    "letters, digits, '.', '_' and '-', starting with a letter or digit)"),
    ("acme/index", "scores/models/acme/index.yaml:0:0: (file): 'index' is a reserved name on the site (choose another file "
                   "name; it would clash with a generated page)"),
    ("widget", "scores/models/widget.yaml:0:0: (file): model files live at scores/models/<org>/<model>.yaml"),
    ("acme/widget-1", "scores/models/acme/widget-1.yaml:0:0: (file): file already exists"),
])
def test_new_model_refuses(root, model_id, message):
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    result = run("new", "model", model_id, "--root", root)
    assert result.exit_code == 1
    assert message in result.output
    assert "nothing written" in result.output
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_new_model_refuses_a_name_the_validator_refuses(root):
    result = run("new", "model", "acme/spoof", "--name", "Wіdget", "--root", root)  # Cyrillic і
    assert result.exit_code == 1
    assert "mixes Latin with Cyrillic letters" in result.output
    assert not (root / "scores/models/acme/spoof.yaml").exists()


# --------------------------------------------------------------------------- new result


def test_new_result_appends_textually(root):
    path = root / "scores/models/acme/widget-1.yaml"
    original = path.read_text().replace("results:\n", "results:  # hand-entered\n") + "# trailing comment\n"
    path.write_text(original)
    result = run("new", "result", "acme/widget-1", "--benchmark", "quiz", "--value", "12.50", "--source", "board",
                 "--metric", "calibration-error", "--subset", "text-only", "--harness", "Acme Agent",
                 "--url", "https://example.org/board#w1", "--self-reported", "--root", root)
    assert result.exit_code == 0, result.output
    text = path.read_text()
    added = ("  - benchmark: quiz\n    metric: calibration-error\n    subset: text-only\n    harness: Acme Agent\n"
             "    value: 12.5\n    source: board\n    retrieved: \"2025-07-01\"\n"
             "    url: https://example.org/board#w1\n    self_reported: true\n")
    assert text == original.replace("# trailing comment\n", added + "# trailing comment\n")
    assert validate(root)[0] == 0


def test_new_result_without_results_key(root):
    assert run("new", "model", "acme/bare", "--root", root).exit_code == 0
    result = run("new", "result", "acme/bare", "--benchmark", "arena", "--value", "1210", "--source", "paper",
                 "--root", root)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((root / "scores/models/acme/bare.yaml").read_text())
    assert data["results"] == [{"benchmark": "arena", "value": 1210, "source": "paper", "retrieved": "2025-07-01"}]
    assert validate(root)[0] == 0


@pytest.mark.parametrize("args,message", [
    (["--benchmark", "quizz"], "unknown benchmark 'quizz' (did you mean 'quiz'?)"),
    (["--source", "boards"], "unknown source 'boards' (did you mean 'board'?)"),
    (["--metric", "brier"], "unknown metric 'brier' (quiz has metrics: calibration-error)"),
    (["--subset", "images"], "unknown subset 'images' (quiz has subsets: text-only)"),
    (["--value", "140"], "140 is outside the benchmark's scale (quiz is on 0–100 percent)"),
    (["--value", "12%"], "'12%' is not a number"),
])
def test_new_result_refuses(root, args, message):
    path = root / "scores/models/acme/widget-1.yaml"
    before = path.read_bytes()
    options = {"--benchmark": "quiz", "--value": "50", "--source": "board"}
    options.update(dict(zip(args[::2], args[1::2])))
    result = run("new", "result", "acme/widget-1", *[x for kv in options.items() for x in kv], "--root", root)
    assert result.exit_code == 1
    assert message in result.output
    assert path.read_bytes() == before


def test_new_result_unknown_model(root):
    result = run("new", "result", "acme/nope", "--benchmark", "quiz", "--value", "1", "--source", "board",
                 "--root", root)
    assert result.exit_code == 1 and "unknown model 'acme/nope'" in result.output


def test_append_text_variants():
    result = {"benchmark": "quiz", "value": "1", "source": "board", "retrieved": "2025-07-01"}
    flow_empty = "id: a/b\nresults: []  # none yet\nname: B\n"
    assert append_text(flow_empty, result) == ('id: a/b\nresults:  # none yet\n  - benchmark: quiz\n    value: 1\n'
                                               '    source: board\n    retrieved: "2025-07-01"\nname: B\n')
    zero_indent = "id: a/b\nresults:\n- benchmark: x\n  value: 2\naliases: [a]\n"
    assert append_text(zero_indent, result) == ("id: a/b\nresults:\n- benchmark: x\n  value: 2\n- benchmark: quiz\n"
                                                "  value: 1\n  source: board\n  retrieved: \"2025-07-01\"\n"
                                                "aliases: [a]\n")
    from sitegen.contrib import RefusedError

    with pytest.raises(RefusedError, match="flow style"):
        append_text("id: a/b\nresults: [{benchmark: x, value: 1}]\n", result)


# --------------------------------------------------------------------------- serve


def test_snapshot_and_changes(tmp_path):
    (tmp_path / "scores").mkdir()
    (tmp_path / "methodology").mkdir()
    (tmp_path / "site").mkdir()
    (tmp_path / "scores" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "site" / "index.html").write_text("x")
    before = serve.snapshot(tmp_path)
    assert list(before) == ["scores/a.yaml"]  # site/ is not watched
    (tmp_path / "scores" / "a.yaml").write_text("a: 22\n")
    (tmp_path / "methodology" / "b.md").write_text("# b\n")
    (tmp_path / "site" / "index.html").write_text("changed")
    assert serve.changes(before, serve.snapshot(tmp_path)) == ["methodology/b.md", "scores/a.yaml"]
    (tmp_path / "scores" / "a.yaml").unlink()
    assert serve.changes(before, serve.snapshot(tmp_path)) == ["methodology/b.md", "scores/a.yaml"]


def test_watcher_calls_back_on_change(tmp_path):
    (tmp_path / "scores").mkdir()
    seen = []
    event = threading.Event()
    watcher = serve.Watcher(tmp_path, lambda paths: (seen.append(paths), event.set()), interval=0.05)
    assert watcher.poll() == []
    watcher.start()
    try:
        (tmp_path / "scores" / "new.yaml").write_text("x: 1\n")
        assert event.wait(5)
    finally:
        watcher.stop()
        watcher.join(5)
    assert seen[0] == ["scores/new.yaml"]


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def test_serve_builds_serves_and_rebuilds(tmp_path):
    """The whole loop on an ephemeral port on 127.0.0.1, with a stand-in build; it stops itself."""
    (tmp_path / "scores").mkdir()
    (tmp_path / "scores" / "n.txt").write_text("1")
    builds = []

    class Outcome:
        problems: list = []
        summary = "ok"

    def build(root, out):
        builds.append(1)
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.html").write_text(f"build {len(builds)} of {(root / 'scores' / 'n.txt').read_text()}")
        return Outcome()

    seen = {}

    def ready(server, watcher):
        host, port = server.server_address[:2]
        try:
            seen["host"] = host
            seen["first"] = _get(f"http://{host}:{port}/")
            (tmp_path / "scores" / "n.txt").write_text("22")
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and len(builds) < 2:
                time.sleep(0.05)
            seen["second"] = _get(f"http://{host}:{port}/index.html")
        finally:
            server.shutdown()

    messages = []
    serve.serve(tmp_path, port=0, build=build, interval=0.05, ready=ready, echo=messages.append)
    assert seen["host"] == "127.0.0.1"
    assert seen["first"] == (200, "build 1 of 1")
    assert seen["second"] == (200, "build 2 of 22")
    assert messages[0] == "start: built ok" and messages[2] == "changed scores/n.txt: built ok"


def test_server_binds_localhost_by_default():
    server = serve.make_server(HERE, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


# --------------------------------------------------------------------------- schema reference


def test_schema_markdown_has_a_table_per_kind():
    from sitegen.schemadoc import schema_markdown

    text = schema_markdown()
    assert text == schema_markdown()  # deterministic
    for kind, name in schema.SCHEMA_FOR_KIND.items():
        assert f"Schema: `{name}`." in text
    assert text.count("| field | type | required | description |") >= len(schema.SCHEMA_FOR_KIND)
    model_section = text[:text.index("## sitegen source registry")]
    rows = {line.split("|")[1].strip(): line for line in model_section.splitlines() if line.startswith("| `")}
    assert "| `id` | string (model id) | yes |" in text
    assert "yes" in rows["`results[].retrieved`"]  # model files: required on each result
    assert "`pricing.source` | string (slug) | yes" in text  # required by the model schema's allOf
    assert "| `results[].model` | string (model id) | yes |" in text  # imported files
    assert "### `kind: weighted-mean`" in text and "`constituents[].weight`" in text
    assert "one of `open`, `closed`" in text
    # Every top-level property of every schema is documented.
    import json

    for name in schema.SCHEMA_FOR_KIND.values():
        for prop in json.loads(schema.schema_text(name)).get("properties", {}):
            assert f"| `{prop}` |" in text, (name, prop)


# --------------------------------------------------------------------------- CONTRIBUTING.md


def _examples() -> list[tuple[str, str]]:
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return re.findall(r'```yaml title="([^"]+)"\n(.*?)```', text, flags=re.S)


def test_contributing_examples_match_their_schemas():
    examples = _examples()
    assert len(examples) >= 7
    kinds = {"model": 0, "sources": 0, "benchmarks": 0, "index": 0, "imported": 0, "overrides": 0}
    for path, body in examples:
        match = re.search(r"\$schema=(\S+/)?(\w+)\.schema\.json", body)
        assert match, path
        kind = {"model": "model", "sources": "sources", "benchmarks": "benchmarks", "index": "index",
                "imported": "imported", "overrides": "overrides"}[match.group(2)]
        kinds[kind] += 1
        depth = path.count("/")
        assert match.group(1) == "../" * depth + "generator/sitegen/schemas/", path  # the editor finds the schema
        errors = list(schema.validator(kind).iter_errors(yaml.safe_load(body)))
        assert not errors, (path, [e.message for e in errors])
    assert all(kinds.values()), kinds


def test_contributing_examples_pass_validation_together(tmp_path):
    root = tmp_path / "repo"
    for path, body in _examples():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    code, output = validate(root)
    assert (code, output) == (0, "0 errors, 0 warnings\n")


def test_contributing_commands_exist():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for command in ("validate", "build", "serve", "new", "interchange", "export --format eee"):
        assert f"sitegen {command}" in text
    assert "sitegen diff" in text and "scores/overrides.yaml" in text
