"""The README's promises: its two front-door commands and its example model file."""

import re
from pathlib import Path

from sitegen.data import load, schema, yamlstrict

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


INSTALL_AND_BUILD = "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e . && .venv/bin/sitegen build"
TEST = "bash tools/test.sh"


def readme_commands() -> list[tuple[str, str]]:
    """The README's first code block: (command, comment) per line."""
    block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).strip().splitlines()
    return [(cmd.strip(), comment.strip()) for cmd, _, comment in (line.partition("  # ") for line in block)]


def test_readme_starts_with_the_two_commands():
    assert README.split("```sh", 1)[0].strip() == "# sitegen"        # nothing before them
    (build, build_note), (test, test_note) = readme_commands()
    # A virtual environment (PEP 668: Debian's and Ubuntu's python3 refuse pip install outside one), pinned versions.
    assert build == INSTALL_AND_BUILD
    assert test == TEST
    # The Python version, and the Debian package venv needs there, said where the command is.
    assert "Python >= 3.11" in build_note and "apt-get install python3-venv" in build_note
    assert "python3-venv" in test_note and "chromium" in test_note


def test_the_python_version_the_readme_names_is_the_one_pyproject_requires():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == ">=3.11"
    assert "Python 3.11 or newer" in README


def test_the_test_command_makes_the_venv_the_ci_runs_in():
    script = (ROOT / "tools" / "test.sh").read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    # Creates .venv with python3 (installing Debian's python3-venv when venv cannot bootstrap pip), checks >= 3.11.
    assert "python3 -m venv --clear .venv || { apt_install python3-venv && python3 -m venv --clear .venv; }" in lines
    assert "if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then" in lines
    # Installs the same pins as the README's first command, plus the test extras, and runs pytest in .venv.
    # (through uv, pinned, which pip installs into .venv first: the same pins, downloaded in parallel)
    assert ".venv/bin/python -m pip install --disable-pip-version-check -q uv==0.13.9" in lines
    assert (".venv/bin/uv pip install -q --python .venv/bin/python "
            "-c \"${SITEGEN_CONSTRAINTS:-constraints.txt}\" -e '.[test]'") in lines
    # chromium from apt when missing, in the background beside the Python installs, waited for before npm's apt-get
    start = lines.index("if ! command -v chromium >/dev/null 2>&1; then")
    assert lines[start + 1:start + 3] == ["apt_install chromium &", "chromium_pid=$!"]
    assert start < lines.index(".venv/bin/python -m pip install --disable-pip-version-check -q uv==0.13.9")
    waited = lines.index('wait "$chromium_pid" || { echo "tools/test.sh: installing chromium (apt-get) failed" >&2; exit 1; }')
    assert waited < lines.index("command -v npm >/dev/null 2>&1 || apt_install npm")
    # axe-core for the browser tests' accessibility check, from the lock file's pinned version and integrity
    assert "npm ci --prefix tests/site/axe --no-audit --no-fund --silent" in lines
    # bytecode for .venv and sitegen made once (uv writes none; .ci/run sets PYTHONDONTWRITEBYTECODE), before pytest
    compiled = lines.index(".venv/bin/python -m compileall -q -j 0 generator/sitegen \\")
    assert lines[compiled + 2] == "bytecode_pid=$!"
    assert compiled < lines.index('wait "$bytecode_pid" || echo "tools/test.sh: some of .venv\'s or sitegen\'s files '
                                  'were not compiled to bytecode" >&2') < len(lines) - 1
    # on every core, each file on one worker (tests/conftest.py); the caller's arguments last, so `-n 0` wins
    assert lines[-1] == '.venv/bin/python -m pytest -n auto --dist loadgroup --no-loadscope-reorder "$@"'
    # .ci/run is the test command followed by the other gates, in the environment the test command made.
    run = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
           if line.strip() and not line.lstrip().startswith("#")]
    first = run.index(TEST)
    assert run[first + 1] == 'export VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH"'
    # two lanes on the two cores: mypy, the importers' check and the workflows' security audit in the background,
    # stopping at the first failure; the rest in the foreground; then the script waits for the lane and fails with it
    start, end = run.index("("), run.index(') >"$background_log" 2>&1 &')
    assert run[start + 1:end] == ["set -e", "mypy", "sitegen import --all --check --root .",
                                  "zizmor --offline --no-progress .github/workflows"]
    assert run[end + 1:end + 3] == ["background=$!", """trap 'kill "$background" 2>/dev/null || true; rm -f "$background_log"' EXIT"""]
    assert run[end + 3:end + 8] == ["ruff check generator/sitegen", "ruff format --check generator/sitegen",
                                    "sitegen validate --max-warnings 0 --root .", "sitegen build --check --root .",
                                    # a smoke run of the performance harness (benchmarks/harness.py): seconds
                                    "python benchmarks/harness.py --sizes 50 --repeat 1"]
    assert run[end + 8:end + 12] == ["status=0", 'wait "$background" || status=$?', 'cat "$background_log"',
                                     'if [ "$status" -ne 0 ]; then']
    assert run[-2:] == ['exit "$status"', "fi"]


def test_example_model_file_is_valid():
    example = re.search(r"```yaml\n(# yaml-language-server.*?)```", README, re.S).group(1)
    parsed, problems = yamlstrict.parse(example.encode("utf-8"), "scores/models/acme/widget-7b-instruct.yaml")
    assert problems == []
    doc = load.Doc("scores/models/acme/widget-7b-instruct.yaml", "model", parsed)
    assert schema.check_doc(doc) == []
    assert parsed.data["id"] == "acme/widget-7b-instruct"


def test_readme_says_where_every_source_is_downloaded():
    import yaml

    sources = yaml.safe_load((ROOT / "scores" / "sources.yaml").read_text(encoding="utf-8"))["sources"]
    section = README.split("## Refreshing a source", 1)[1].split("\n## ", 1)[0]
    for source in sources:
        assert f"| `{source['id']}` |" in section, source["id"]
