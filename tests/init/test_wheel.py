"""The wheel, installed as a stranger installs it: into a fresh virtual environment from local files only
(`--no-index --find-links .wheelhouse`, which tools/test.sh prepares), then a new leaderboard made with it in an
empty folder outside this repository, built, given a result by pull-request-style commit, diffed, and looked at
in Chromium. No network: everything comes from the wheelhouse."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Built by tools/test.sh (git-ignored): this package's wheel and its dependencies' at the constraints.txt versions.
WHEELHOUSE = ROOT / ".wheelhouse"


#: A submitter's own source entry (the model and its number are made up for the test).
WIDGET_SOURCE = """\
  - id: widget-lab
    name: Widget Lab's own run (test data)
    url: https://example.org/widget-run
    licence: CC BY 4.0
    attribution: Widget Lab (test data)
    provenance: primary
"""


def browser_helpers():
    """tests/site/test_browser.py's page opener and watcher (console errors, CSP, off-host requests)."""
    spec = importlib.util.spec_from_file_location("browser_helpers", ROOT / "tests" / "site" / "test_browser.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sh(*args: str, cwd: Path, env: dict) -> str:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin/ folder of a fresh virtual environment with the wheel installed from the wheelhouse alone."""
    wheels = sorted(WHEELHOUSE.glob("sitegen-*.whl"))
    if not wheels:
        pytest.skip(f"no sitegen wheel in {WHEELHOUSE}: tools/test.sh builds it")  # fails under CI=true (conftest)
    env_dir = tmp_path_factory.mktemp("wheel-venv") / "venv"
    # uv (tools/test.sh installs it next to this interpreter) installs the same local wheels in seconds where pip
    # takes a minute; either way nothing but the wheelhouse is read. With uv the environment needs no pip of its own
    # (ensurepip: ~7 CPU s, benchmarks/ci-time.md).
    uv = Path(sys.executable).with_name("uv")
    venv.EnvBuilder(with_pip=not uv.exists(), clear=True).create(env_dir)
    bin_dir = env_dir / "bin"
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    if uv.exists():
        install = [str(uv), "pip", "install", "-q", "--python", str(bin_dir / "python"), "--no-cache"]
    else:
        install = [str(bin_dir / "python"), "-m", "pip", "install", "-q"]
    sh(*install, "--no-index", "--find-links", str(WHEELHOUSE), "sitegen", cwd=env_dir, env=env)
    located = sh(str(bin_dir / "python"), "-c", "import sitegen; print(sitegen.__file__)", cwd=env_dir, env=env)
    assert str(env_dir) in located and str(ROOT) not in located  # the wheel's copy, not this checkout
    return bin_dir


def test_the_wheel_makes_builds_and_diffs_a_new_leaderboard(installed, tmp_path, chromium):
    assert not tmp_path.resolve().is_relative_to(ROOT)
    # PYTHONDONTWRITEBYTECODE (.ci/run sets it) is left out: uv installs no bytecode, so otherwise each of the eight
    # `sitegen` runs below compiled pandas, altair and the wheel's sitegen from source again; pip, as a stranger
    # installs, compiles at install. Here the first run writes what it imports and the later ones read it.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}
    env |= {"PATH": f"{installed}{os.pathsep}{env.get('PATH', '')}", "GITHUB_ACTIONS": "false",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "SITEGEN_CACHE": "off"}
    sitegen = str(installed / "sitegen")
    work = tmp_path / "leaderboard"
    work.mkdir()
    assert "wrote 33 files" in sh(sitegen, "init", cwd=work, env=env)
    # installed from a --find-links folder, as from an index: the installer records no direct_url.json (uv's and pip's
    # installs alike), and this package names no Project-URL, so init has no address for the workflows
    assert "# NOT SET" in (work / ".github" / "sitegen-requirements.txt").read_text(encoding="utf-8")
    sh(sitegen, "build", "--check", "--quiet", cwd=work, env=env)
    sh(sitegen, "build", "--quiet", cwd=work, env=env)  # before git init: dates come from the data

    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "init.defaultBranch=main"]
    sh(*git, "init", "-q", cwd=work, env=env)
    sh(*git, "add", "-A", cwd=work, env=env)
    sh(*git, "commit", "-q", "-m", "sitegen init", cwd=work, env=env)
    sh(sitegen, "new", "model", "acme/widget-1", "--name", "Widget 1", "--organization", "Acme", cwd=work, env=env)
    with (work / "scores" / "sources.yaml").open("a", encoding="utf-8") as sources:  # as CONTRIBUTING.md says
        sources.write(WIDGET_SOURCE)
    sh(sitegen, "new", "result", "acme/widget-1", "--benchmark", "gpqa-diamond", "--value", "88.5", "--source",
       "widget-lab", "--url", "https://example.org/widget-run", "--retrieved", "2026-04-20", cwd=work, env=env)
    sh(*git, "add", "-A", cwd=work, env=env)
    sh(*git, "commit", "-q", "-m", "Widget 1 on GPQA Diamond", cwd=work, env=env)
    sh(sitegen, "build", "--quiet", cwd=work, env=env)
    report = sh(sitegen, "diff", "HEAD~1", "HEAD", cwd=work, env=env)
    assert "- new result: acme/widget-1 gpqa-diamond 88.5 (widget-lab)" in report
    assert "- **Overall** (index:overall): entered acme/widget-1 88.5 (rank 1); 5 other rows only shifted rank" in report

    site = work / "site"
    helpers = browser_helpers()
    handler = functools.partial(helpers._Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = helpers._Browser(chromium)
    try:
        ctx, page, watch = helpers._open(browser, base, "boards/overall/")
        table = page.inner_text("table")
        assert table.index("Widget 1") < table.index("DeepSeek R1 0528")  # 88.5 leads 76.33
        assert watch.problems == [], watch.problems
        ctx.close()
        ctx, page, watch = helpers._open(browser, base, "models/acme/widget-1/")
        text = page.inner_text("article")
        assert "Widget 1" in text and "88.5" in text and "GPQA Diamond" in text
        assert watch.problems == [], watch.problems
        ctx.close()
        ctx, page, watch = helpers._open(browser, base, "methodology/overall/")
        text = page.inner_text("article")
        assert "methodology/indices/overall.yaml" in text and "weighted" in text.lower()
        assert "gpqa-diamond" in text or "GPQA Diamond" in text
        assert watch.problems == [], watch.problems
        ctx.close()
    finally:
        for opened in browser.opened:
            opened.close()
        httpd.shutdown()
        httpd.server_close()
