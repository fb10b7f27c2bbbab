"""The smallest valid tree (tests/validation/base: one model, two benchmarks, two sources, no index definitions,
no methodology pages) builds, checks its links and exports: no benchmark-boards definition means no benchmark
board, and the sidebar and the 404 page name no section the tree does not have."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from sitegen.cli import main
from sitegen.indices.boards import compute_benchmark_boards

BASE = Path(__file__).parents[1] / "validation/base"
ENV = {"GITHUB_ACTIONS": "false", "CI": "", "GITHUB_REPOSITORY": "", "SITEGEN_DEBUG": ""}


def test_no_benchmark_boards_definition_gives_no_benchmark_board():
    import pandas as pd

    results = pd.DataFrame({"model": ["acme/widget-1"], "benchmark": ["quiz"], "value": [63.4]})
    models = pd.DataFrame({"model": ["acme/widget-1"]})
    assert compute_benchmark_boards(results, models, [{"id": "quiz", "name": "Quiz"}], {}) == {}


def test_minimal_tree_builds_checks_and_exports(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(BASE, root)
    runner = CliRunner()
    checked = runner.invoke(main, ["build", "--check", "--root", str(root)], env=ENV)
    assert checked.exit_code == 0, checked.output
    assert checked.output.splitlines()[-2:] == [
        "0 errors, 0 warnings", "checked: 1 models, 0 index boards, 0 benchmark boards, ~1 pages"]
    site = tmp_path / "site"
    built = runner.invoke(main, ["build", "--root", str(root), "--out", str(site)], env=ENV)
    assert built.exit_code == 0, built.output
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert pages == ["404.html", "benchmarks/arena/index.html", "benchmarks/index.html", "benchmarks/quiz/index.html",
                     "changelog/index.html", "charts/index.html", "cite/index.html", "compare/index.html",
                     "contributing/data-format/index.html", "downloads/index.html", "index.html",
                     "models/acme/widget-1/index.html", "models/index.html"]
    home = (site / "index.html").read_text(encoding="utf-8")
    sidebar = home[home.index('aria-label="Navigation"'):]
    sidebar = sidebar[:sidebar.index("</nav>")]
    assert '"md-ellipsis">Leaderboards<' not in sidebar and '"md-ellipsis">Methodology<' not in sidebar
    assert '"md-ellipsis">Benchmarks<' in sidebar
    assert 'methodology/"' not in (site / "404.html").read_text(encoding="utf-8")
    assert "63.4" in (site / "models/acme/widget-1/index.html").read_text(encoding="utf-8")
    exported = runner.invoke(main, ["export", "--root", str(root), "--out", str(tmp_path / "api")], env=ENV)
    assert exported.exit_code == 0, exported.output
