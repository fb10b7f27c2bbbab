"""Contributor tools: `sitegen new model|result`, `sitegen serve`, the schema reference and CONTRIBUTING.md.

Data trees are copies of tests/validation/base (a valid tree: benchmarks quiz and arena, sources paper and board,
model acme/widget-1), changed by the commands under test and then checked with `sitegen validate`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.data import schema
from sitegen.contrib import serve
from sitegen.cli import main
from sitegen.contrib.scaffold import append_text

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
    result = run("new", "model", "acme-ai/widget-7b", "--name", "Widget 7B: Instruct", "--organization", "Acme AI",
                 "--root", root)
    assert result.exit_code == 0, result.output
    assert "wrote scores/models/acme-ai/widget-7b.yaml" in result.output
    text = (root / "scores/models/acme-ai/widget-7b.yaml").read_text()
    # a tree without schemas: the folder `sitegen init --update` writes them into
    assert text.startswith("# yaml-language-server: $schema=../../../schemas/model.schema.json\n")
    assert yaml.safe_load(text) == {"id": "acme-ai/widget-7b", "name": "Widget 7B: Instruct",
                                    "release": "acme-ai/widget-7b", "organization": "Acme AI"}
    assert validate(root) == (0, "0 errors, 0 warnings\n")


@pytest.mark.parametrize("folder", ["schemas", "generator/sitegen/schemas"])
def test_new_model_points_at_the_schema_where_the_repository_keeps_it(root, folder):
    """A repository made by `sitegen init` keeps its schemas in schemas/, this one in the package's folder."""
    (root / folder).mkdir(parents=True)
    (root / folder / "model.schema.json").write_text("{}\n", encoding="utf-8")
    assert run("new", "model", "acme-ai/widget-7b", "--root", root).exit_code == 0
    model = root / "scores/models/acme-ai/widget-7b.yaml"
    first = model.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=../../../{folder}/model.schema.json"
    assert (model.parent / first.split("=", 1)[1]).resolve() == (root / folder / "model.schema.json").resolve()


def test_new_model_writes_the_schema_line_this_repositorys_model_files_have():
    from sitegen.contrib.scaffold import model_schema_line

    repo = Path(__file__).resolve().parents[1]
    lines = {p.read_text(encoding="utf-8").splitlines()[0] for p in (repo / "scores/models").glob("*/*.yaml")}
    assert lines == {model_schema_line(repo).rstrip("\n")}


def test_new_model_defaults_name_and_organization(root):
    assert run("new", "model", "newco/thing-1", "--root", root).exit_code == 0
    data = yaml.safe_load((root / "scores/models/newco/thing-1.yaml").read_text())
    assert (data["name"], data["organization"]) == ("thing-1", "newco")
    assert validate(root)[0] == 0
    # In an existing folder, the organisation is spelled as its models spell it (no "organization differs" warning).
    assert run("new", "model", "acme/widget-2", "--root", root).exit_code == 0
    assert yaml.safe_load((root / "scores/models/acme/widget-2.yaml").read_text())["organization"] == "Acme"
    assert validate(root) == (0, "0 errors, 0 warnings\n")


@pytest.mark.parametrize("model_id,message", [
    ("acme/Widget", "scores/models/acme/Widget.yaml: (file): path segment 'Widget' is not a valid id (use lower-case "
                    "letters, digits, '.', '_' and '-', starting with a letter or digit)"),
    ("acme/index", "scores/models/acme/index.yaml: (file): 'index' is a reserved name on the site (choose another file "
                   "name; it would clash with a generated page)"),
    ("widget", "scores/models/widget.yaml: (file): model files live at scores/models/<org>/<model>.yaml"),
    ("acme/widget-1", "scores/models/acme/widget-1.yaml: (file): file already exists"),
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


@pytest.mark.parametrize("args,where", [
    # widget-1.yaml has one result (lines 11-14); the new one would be lines 15-18: benchmark, value, source, date.
    (["--source", "boards"], "scores/models/acme/widget-1.yaml:18:5: results[1].source: unknown source 'boards'"),
    (["--benchmark", "quizz"], "scores/models/acme/widget-1.yaml:16:5: results[1].benchmark: unknown benchmark"),
    (["--metric", "brier"], "scores/models/acme/widget-1.yaml:17:5: results[1].metric: unknown metric 'brier'"),
])
def test_new_result_refusal_names_the_line_the_result_would_have(root, args, where):
    options = {"--benchmark": "quiz", "--value": "50", "--source": "board"}
    options.update(dict(zip(args[::2], args[1::2])))
    result = run("new", "result", "acme/widget-1", *[x for kv in options.items() for x in kv], "--root", root)
    assert result.exit_code == 1
    assert where in result.output and ":0:0:" not in result.output


def test_new_result_prints_its_warnings(root):
    # A fraction on a percent benchmark, and a second result from the same source with another date and value.
    result = run("new", "result", "acme/widget-1", "--benchmark", "quiz", "--value", "0.85", "--source", "paper",
                 "--retrieved", "2025-06-20", "--root", root)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "added quiz to scores/models/acme/widget-1.yaml"
    assert lines[1] == ("scores/models/acme/widget-1.yaml:17:12: warning: results[1].value: 0.85 looks like a "
                        "fraction (percent benchmarks are on 0–100: write 85?; if scores below 1% are real on quiz, declare "
                        "plausible: {min: 0, reason: ...} in methodology/benchmarks.yaml)")
    assert lines[2].startswith("scores/models/acme/widget-1.yaml:19:16: warning: results[1].retrieved: a second quiz "
                               "result from paper for acme/widget-1: 0.85 on 2025-06-20, 63.4 on 2025-06-01")
    assert lines[3].startswith("2 warnings: likely mistakes, written anyway")


def test_new_result_unknown_model(root):
    result = run("new", "result", "acme/nope", "--benchmark", "quiz", "--value", "1", "--source", "board",
                 "--root", root)
    assert result.exit_code == 1 and "unknown model 'acme/nope'" in result.output
    assert "create it first with `sitegen new model`" in result.output  # nothing close to suggest
    typo = run("new", "result", "acme/widgte-1", "--benchmark", "quiz", "--value", "1", "--source", "board",
               "--root", root)
    assert typo.exit_code == 1
    assert "scores/models/acme/widgte-1.yaml: (file): unknown model 'acme/widgte-1' (did you mean 'acme/widget-1'?)" \
        in typo.output


def test_append_text_variants():
    result = {"benchmark": "quiz", "value": "1", "source": "board", "retrieved": "2025-07-01"}
    flow_empty = "id: a/b\nresults: []  # none yet\nname: B\n"
    assert append_text(flow_empty, result) == ('id: a/b\nresults:  # none yet\n  - benchmark: quiz\n    value: 1\n'
                                               '    source: board\n    retrieved: "2025-07-01"\nname: B\n')
    zero_indent = "id: a/b\nresults:\n- benchmark: x\n  value: 2\naliases: [a]\n"
    assert append_text(zero_indent, result) == ("id: a/b\nresults:\n- benchmark: x\n  value: 2\n- benchmark: quiz\n"
                                                "  value: 1\n  source: board\n  retrieved: \"2025-07-01\"\n"
                                                "aliases: [a]\n")
    from sitegen.contrib.scaffold import RefusedError

    with pytest.raises(RefusedError, match="flow style"):
        append_text("id: a/b\nresults: [{benchmark: x, value: 1}]\n", result)


# --------------------------------------------------------------------------- serve


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # a hang guard for a busy machine
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _until(condition, seconds: float = 180, touch=None) -> bool:
    """Poll condition() every 0.2 s until it holds or the deadline passes (generous: it returns as soon as the
    condition holds, and a busy machine may take long to rebuild: the real build of _small_tree takes ~6 s at load
    15-20 and may take far longer under `stress-ng --cpu 2`; well past serve's own 30 s wait); `touch()` is
    repeated meanwhile (the watcher may not be watching yet at first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        if touch is not None:
            touch()
        time.sleep(0.2)  # the polling interval
    return condition()


def test_watcher_calls_back_on_change(tmp_path):
    (tmp_path / "scores").mkdir()
    (tmp_path / "methodology").mkdir()
    seen = []
    watcher = serve.Watcher(tmp_path, seen.append, debounce_ms=50, paths=serve.watched_paths(tmp_path)[:2])
    watcher.start()
    try:
        n = iter(range(1000))
        assert _until(lambda: seen, touch=lambda: (tmp_path / "scores" / "new.yaml").write_text(f"x: {next(n)}\n"))
    finally:
        watcher.stop()
        watcher.join(60)  # returns once it has stopped; generous for a busy machine
    assert not watcher.is_alive()
    assert seen[0] == ["scores/new.yaml"]


def test_watched_paths_are_data_methodology_and_templates(tmp_path):
    (tmp_path / "scores").mkdir()
    paths = serve.watched_paths(tmp_path)
    assert paths[0] == tmp_path / "scores"  # methodology/ is absent here, so not watched
    assert serve.PACKAGE / "templates" in paths and serve.PACKAGE / "static" in paths
    assert tmp_path / "site" not in paths


def _stand_in_tree(tmp_path):
    """A root with scores/n.txt and a build that writes its content into index.html (and a 404.html)."""
    (tmp_path / "scores").mkdir()
    (tmp_path / "scores" / "n.txt").write_text("1")
    builds = []

    class Outcome:
        problems: list = []
        summary = "ok"

    def build(root, out):
        builds.append(1)
        out.mkdir(parents=True, exist_ok=True)
        text = (root / "scores" / "n.txt").read_text()
        (out / "index.html").write_text(f"<html><body>build {len(builds)} of {text}</body></html>")
        (out / "404.html").write_text("<html><body>not here</body></html>")
        return Outcome()

    return builds, build


def test_serve_builds_serves_rebuilds_and_reloads(tmp_path):
    """The whole loop on an ephemeral port on 127.0.0.1, with a stand-in build; it stops itself."""
    builds, build = _stand_in_tree(tmp_path)
    seen = {}

    def ready(server, watcher, state):
        host, port = server.server_address[:2]
        base = f"http://{host}:{port}"
        try:
            seen["host"] = host
            seen["first"] = _get(base + "/")
            seen["counter"] = json.loads(_get(base + "/__sitegen/build")[1])["build"]
            seen["script"] = _get(base + "/__sitegen/reload.js")
            seen["missing"] = _get(base + "/no/such/page.html")
            seen["rebuilt"] = _until(lambda: len(builds) >= 2,
                                     touch=lambda: (tmp_path / "scores" / "n.txt").write_text("22"))
            seen["second"] = _get(base + "/index.html")
            seen["counter2"] = json.loads(_get(base + "/__sitegen/build")[1])["build"]
        finally:
            server.shutdown()

    messages = []
    serve.serve(tmp_path, port=0, build=build, debounce_ms=50, ready=ready, echo=messages.append)
    tag = serve.RELOAD_TAG.decode()
    assert seen["host"] == "127.0.0.1"
    assert seen["first"] == (200, f"<html><body>build 1 of 1{tag}</body></html>")  # the reload script, served only here
    assert "<script" not in (tmp_path / "site" / "index.html").read_text()  # never written into the site
    assert seen["script"][0] == 200 and "window.location.reload()" in seen["script"][1]
    assert seen["missing"] == (404, f"<html><body>not here{tag}</body></html>")
    assert seen["rebuilt"]
    assert seen["second"][1].startswith("<html><body>build ") and " of 22" in seen["second"][1]
    assert (seen["counter"], seen["counter2"]) == (1, len(builds))
    assert messages[0] == "start: built ok" and messages[2].startswith("changed scores/n.txt: built ok")


def test_reload_script_reloads_when_the_build_counter_moves(tmp_path):
    """reload.js under node with a fake fetch: no reload while the counter stands, one when it moves."""
    node = shutil.which("node")
    if node is None:
        # about the environment: fails under CI=true (tests/conftest.py); tools/test.sh installs node (with npm)
        pytest.skip("node is not installed")
    harness = tmp_path / "harness.js"
    harness.write_text("""
const fs = require('fs');
const answers = [1, 1, 1, 2];
const calls = [];
global.window = { location: { reload: () => { calls.push('reload'); } } };
global.fetch = (url, options) => {
  calls.push(url + ' ' + options.cache);
  const build = answers.length > 1 ? answers.shift() : answers[0];
  return Promise.resolve({ json: () => Promise.resolve({ build }) });
};
global.setTimeout = (fn) => { if (calls.length < 20) Promise.resolve().then(fn); };
eval(fs.readFileSync(process.argv[2], 'utf8'));
setImmediate(() => setImmediate(() => process.stdout.write(JSON.stringify(calls))));
""")
    done = subprocess.run([node, str(harness), str(serve.RELOAD_JS)], capture_output=True, text=True, timeout=30,
                          check=True)
    calls = json.loads(done.stdout)
    assert calls == ["/__sitegen/build no-store"] * 4 + ["reload"]


def test_serve_fails_at_once_on_a_taken_port(tmp_path):
    builds, build = _stand_in_tree(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(serve.ServeError, match=f"port {port} on 127.0.0.1 is already in use"):
            serve.serve(tmp_path, port=port, build=build, echo=lambda m: None)
        result = run("serve", "--port", port, "--root", tmp_path)
    assert builds == []  # refused before building anything
    assert result.exit_code == 1
    assert f"sitegen serve: port {port} on 127.0.0.1 is already in use" in result.output
    assert "Traceback" not in result.output


def test_serve_warns_when_not_on_loopback(tmp_path):
    builds, build = _stand_in_tree(tmp_path)
    messages = []
    serve.serve(tmp_path, host="0.0.0.0", port=0, build=build, echo=messages.append,
                ready=lambda server, watcher, state: server.shutdown())
    assert messages[0].startswith("warning: serving on 0.0.0.0, not loopback")
    assert serve.is_loopback("127.0.0.1") and serve.is_loopback("::1") and serve.is_loopback("localhost")
    assert not serve.is_loopback("0.0.0.0") and not serve.is_loopback("192.168.1.5")


GOOD_MODEL = ("id: acme/widget-1\nname: Widget 1\nrelease: acme/widget-1\norganization: Acme\nresults:\n"
              "  - {benchmark: hle, value: 63.4, source: epoch, retrieved: \"2025-06-01\"}\n")


def _small_tree(tmp_path):
    """The real methodology and sources with one model: a one-second real build."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "methodology", root / "methodology")
    path = root / "scores/models/acme/widget-1.yaml"
    path.parent.mkdir(parents=True)
    shutil.copy(REPO / "scores/sources.yaml", root / "scores/sources.yaml")
    path.write_text(GOOD_MODEL)
    return root, path, GOOD_MODEL


def test_ctrl_c_stops_serve_and_leaves_no_temporary_folders(tmp_path):
    root, _, _ = _small_tree(tmp_path)
    env = {**os.environ, **ENV, "PYTHONPATH": str(REPO / "generator")}
    # Ctrl+C as a terminal delivers it: a runner that started the suite in the background (SIGINT ignored, which a
    # child inherits) would otherwise leave serve deaf to it
    proc = subprocess.Popen([sys.executable, "-m", "sitegen.cli", "serve", "--port", "0", "--root", str(root)],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines, serving = [], threading.Event()

    def read():  # in a thread, so that waiting for serve's first line has a deadline too
        for line in proc.stderr:
            lines.append(line)
            if line.startswith("serving "):
                serving.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        # serve builds before it serves: a deadline for a busy machine, not the build's usual second
        assert serving.wait(180), lines
        proc.send_signal(signal.SIGINT)
        # serve waits up to 30 s for a running build before it exits (serve.py); the test's deadline is longer
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(30)
    rest = "".join(lines)
    assert proc.returncode == 0, rest
    assert "stopping" in rest and "Traceback" not in rest
    assert (root / "site" / "index.html").is_file()
    # and the compute cache (build/simcache.py, git-ignored)
    assert sorted(p.name for p in root.iterdir()) == [".sitegen-cache", "methodology", "scores", "site"]


def test_serve_survives_a_bad_edit_with_the_real_build(tmp_path):
    """A broken file: the problems are reported, the last good site stays served and the page does not reload;
    fixing it rebuilds and bumps the counter."""
    root, path, good = _small_tree(tmp_path)
    seen, reported = {}, []

    def ready(server, watcher, state):
        host, port = server.server_address[:2]
        try:
            seen["before"] = _get(f"http://{host}:{port}/")[0], state.count
            n = iter(range(1000))
            seen["failed"] = _until(lambda: any("failed" in m for m in messages),
                                    touch=lambda: path.write_text(good.replace("value: 63.4", f"value: [{next(n)}")))
            seen["during"] = _get(f"http://{host}:{port}/")[0], state.count
            seen["fixed"] = _until(lambda: state.count >= 2, touch=lambda: path.write_text(good))
        finally:
            server.shutdown()

    messages = []
    serve.serve(root, port=0, debounce_ms=50, ready=ready, echo=messages.append, report=reported.extend)
    assert seen["before"] == (200, 1)
    assert seen["failed"] and seen["during"] == (200, 1)
    assert any(p.path == "scores/models/acme/widget-1.yaml" and p.severity == "error" for p in reported)
    assert seen["fixed"]
    assert not list(root.glob(".site.*"))  # no temporary build folders left behind


def test_remove_leftovers_only_touches_build_folders(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (tmp_path / ".site.new-abc").mkdir()
    (tmp_path / ".site.old-def").mkdir()
    (tmp_path / ".other.new-x").mkdir()
    removed = serve.remove_leftovers(out, since=0)
    assert sorted(p.name for p in removed) == [".site.new-abc", ".site.old-def"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.new-x", "site"]


def test_server_binds_localhost_by_default():
    server = serve.make_server(HERE, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


# --------------------------------------------------------------------------- schema reference


def test_schema_markdown_has_a_table_per_kind():
    from sitegen.data.schemadoc import schema_markdown

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


def test_schema_markdown_is_made_once_per_version_of_the_schemas(monkeypatch):
    """schema_markdown keeps its text by the schema files' digest: asked again it is not made again (same object),
    an edited schema (here a new top-level field in the site schema) makes it again with the edit, and going back
    to the files as they are gives the first text again."""
    from sitegen.data import schemadoc

    monkeypatch.setattr(schemadoc, "_MADE", {})
    made = []
    real_markdown = schemadoc._markdown
    monkeypatch.setattr(schemadoc, "_markdown", lambda: made.append(1) or real_markdown())
    first = schemadoc.schema_markdown()
    assert schemadoc.schema_markdown() is first and len(made) == 1
    real_text = schema.schema_text
    site = json.loads(real_text("site.schema.json"))
    site["properties"]["zz_new_field"] = {"type": "string", "description": "A field added by this test."}
    edited = json.dumps(site)
    monkeypatch.setattr(schema, "schema_text", lambda name: edited if name == "site.schema.json" else real_text(name))
    second = schemadoc.schema_markdown()
    assert len(made) == 2 and second != first
    assert "| `zz_new_field` | string |  | A field added by this test. |" in second
    assert "zz_new_field" not in first
    monkeypatch.setattr(schema, "schema_text", real_text)
    assert schemadoc.schema_markdown() == first and len(made) == 3  # one version kept: made again


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
    for command in ("validate", "build", "serve", "new", "interchange", "export --format eee", "export --format hf"):
        assert f"sitegen {command}" in text
    assert "sitegen diff" in text and "scores/overrides.yaml" in text


def test_export_format_hf_writes_each_models_hugging_face_files(tmp_path):
    """The one board row (hle 63.4, from epoch) as the model card's model-index (a fraction, as `evaluate` writes
    it) and as an .eval_results entry (as written), which the importer reads back."""
    from sitegen.interchange import hf
    from sitegen.interchange.records import Benchmarks

    root, _, _ = _small_tree(tmp_path)
    result = run("export", "--root", root, "--format", "hf", "--out", tmp_path / "hf")
    assert result.exit_code == 0, result.output
    files = sorted(p.relative_to(tmp_path / "hf").as_posix() for p in (tmp_path / "hf").rglob("*") if p.is_file())
    assert files == [".sitegen-output", "acme/widget-1/.eval_results/sitegen.yaml", "acme/widget-1/model-index.yaml"]
    card = yaml.safe_load((tmp_path / "hf/acme/widget-1/model-index.yaml").read_text())
    (entry,) = card["model-index"]
    assert entry["name"] == "acme/widget-1"
    assert [m["value"] for r in entry["results"] for m in r["metrics"]] == [0.634]
    listed = yaml.safe_load((tmp_path / "hf/acme/widget-1/.eval_results/sitegen.yaml").read_text())
    assert [item["value"] for item in listed] == [63.4]
    registry = Benchmarks.load(root)  # the registry and methodology/interchange-names.yaml the export wrote by
    again = hf.import_model_index((tmp_path / "hf/acme/widget-1/model-index.yaml").read_text(), source="s",
                                  retrieved="2025-06-01", benchmarks=registry, resolve=lambda name: [name])
    assert again.results == [{"model": "acme/widget-1", "benchmark": "hle", "value": 63.4}]


def test_export_without_out_writes_under_the_root_not_api_api(tmp_path, monkeypatch):
    root, _, _ = _small_tree(tmp_path)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run("export", "--root", root).exit_code == 0
    assert run("export", "--root", root, "--format", "eee").exit_code == 0
    assert list(elsewhere.iterdir()) == []  # nothing where the command ran
    assert (root / "export/api/v1").is_dir() and not (root / "export/api/api").exists()
    assert any((root / "export-eee").iterdir())
    ignored = (REPO / ".gitignore").read_text().splitlines()
    assert "/export/" in ignored and "/export-eee/" in ignored


@pytest.mark.parametrize("name", [".widget.yaml.swp", ".widget.yaml.swx", "widget.yaml~", "4913", ".#widget.yaml",
                                  "#widget.yaml#", "widget.yaml___jb_tmp___", ".goutputstream-A1B2C3",
                                  ".widget.yaml.kate-swp", "widget.yaml.tmp", "widget.yaml.orig"])
def test_editor_temporary_files_are_not_changes(name):
    assert serve.is_editor_temp(f"/repo/scores/models/acme/{name}")


@pytest.mark.parametrize("name", ["widget.yaml", "overrides.yaml", "4913.yaml", "sources.md", "site.css"])
def test_data_files_are_changes(name):
    assert not serve.is_editor_temp(f"/repo/scores/{name}")


def test_watcher_reports_the_edited_file_and_not_the_editors_temporary_files(tmp_path):
    (tmp_path / "scores").mkdir()
    seen = []
    watcher = serve.Watcher(tmp_path, seen.append, debounce_ms=50, paths=[tmp_path / "scores"])
    watcher.start()
    n = iter(range(1000))

    def save_like_vim():  # vim's probe file, swap file and backup, then the file itself
        for name in ("4913", ".m.yaml.swp", "m.yaml~"):
            (tmp_path / "scores" / name).write_text(f"{next(n)}\n")
        (tmp_path / "scores" / "m.yaml").write_text(f"x: {next(n)}\n")

    try:
        assert _until(lambda: seen, touch=save_like_vim)
    finally:
        watcher.stop()
        watcher.join(5)
    assert all(batch == ["scores/m.yaml"] for batch in seen)


def test_a_failed_rebuild_is_shown_by_the_build_endpoint_until_a_build_succeeds(tmp_path):
    """The page polls /__sitegen/build: after a failed rebuild it carries the problems (reload.js shows them over
    the last good site); the next good build clears them and moves the counter."""
    from sitegen.problems import Problem

    (tmp_path / "scores").mkdir()
    flag = tmp_path / "scores" / "n.txt"
    flag.write_text("good")

    class Outcome:
        def __init__(self, ok):
            self.summary = "ok" if ok else ""
            self.problems = [] if ok else [
                Problem("scores/models/acme/widget-1.yaml", 7, 12, "results[0].value", "not a number", "write 63.4"),
                Problem("scores/overrides.yaml", 3, 5, "overrides[0]", "far apart", severity="warning")]

    def build(root, out):
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.html").write_text("<html><body>page</body></html>")
        return Outcome(flag.read_text() == "good")

    seen = {}

    def ready(server, watcher, state):
        host, port = server.server_address[:2]
        endpoint = f"http://{host}:{port}/__sitegen/build"
        try:
            seen["start"] = json.loads(_get(endpoint)[1])
            seen["failed"] = _until(lambda: json.loads(_get(endpoint)[1])["failed"], touch=lambda: flag.write_text("bad"))
            seen["during"] = json.loads(_get(endpoint)[1])
            seen["fixed"] = _until(lambda: json.loads(_get(endpoint)[1])["build"] >= 2,
                                   touch=lambda: flag.write_text("good"))
            seen["after"] = json.loads(_get(endpoint)[1])
        finally:
            server.shutdown()

    serve.serve(tmp_path, port=0, build=build, debounce_ms=50, ready=ready, echo=lambda m: None)
    assert seen["start"] == {"build": 1, "failed": []}
    assert seen["failed"] and seen["during"] == {"build": 1, "failed": [
        "changed scores/n.txt: the build failed; the last good site is still served",
        "scores/models/acme/widget-1.yaml:7:12: results[0].value: not a number (write 63.4)"]}  # errors only
    assert seen["fixed"] and seen["after"]["failed"] == []


def test_reload_script_shows_a_failed_rebuild_as_text_and_removes_it_when_fixed(tmp_path):
    """reload.js under node with a fake fetch and document: the problems appear as one text block (never HTML),
    and go when the server no longer reports them."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    harness = tmp_path / "harness.js"
    harness.write_text("""
const fs = require('fs');
const answers = [{build: 1, failed: []}, {build: 1, failed: ['start failed', '<img src=x onerror=alert(1)>']},
                 {build: 1, failed: []}];
const log = [];
const nodes = {};
global.document = {
  getElementById: (id) => nodes[id] || null,
  createElement: (tag) => ({ tag, style: {}, setAttribute() {}, parentNode: null }),
  body: { appendChild: (el) => { el.parentNode = { removeChild: (c) => { delete nodes[c.id]; log.push('removed'); } };
                                   nodes[el.id] = el; log.push('shown ' + el.tag); } },
};
global.window = { location: { reload: () => log.push('reload') } };
global.fetch = () => Promise.resolve({ json: () => Promise.resolve(answers.length > 1 ? answers.shift() : answers[0]) });
let polls = 0;
global.setTimeout = (fn) => { polls += 1; if (polls < 4) Promise.resolve().then(() => {
  const el = nodes['sitegen-serve-failed']; log.push(el ? 'text: ' + el.textContent : 'no banner'); fn(); }); };
eval(fs.readFileSync(process.argv[2], 'utf8'));
setImmediate(() => setImmediate(() => setImmediate(() => process.stdout.write(JSON.stringify(log)))));
""")
    done = subprocess.run([node, str(harness), str(serve.RELOAD_JS)], capture_output=True, text=True, timeout=30,
                          check=True)
    assert json.loads(done.stdout) == ["no banner", "shown pre", "text: start failed\n<img src=x onerror=alert(1)>",
                                       "removed", "no banner"]
