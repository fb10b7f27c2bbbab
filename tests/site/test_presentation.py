"""methodology/site.yaml: the site's title, board order, front-page fallback and chart wiring come from the file
(schemas/site.schema.json), not from Python."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.site.context import Presentation, SiteContext
from sitegen.site.pages import board_ids

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardening"))
from hardkit import make_tree  # noqa: E402

ENV = {"GITHUB_ACTIONS": "false", "SOURCE_DATE_EPOCH": "1751328000"}


def _ctx(bids, presentation=Presentation()):
    return SiteContext(boards={b: {"rows": []} for b in bids}, benchmark_boards={}, models=[], benchmarks=[],
                       sources=[], index_defs={}, methodology_pages={}, frontiers={}, data_date="2026-01-01",
                       presentation=presentation)


def test_without_a_file_boards_follow_in_id_order_and_no_chart_is_wired():
    assert Presentation.from_data(None) == Presentation()
    assert Presentation() == Presentation((), 3, (), (), (), {})
    assert board_ids(_ctx(["zeta", "alpha", "mid"])) == ["alpha", "mid", "zeta"]


def test_the_file_orders_the_boards_it_names_and_the_rest_follow_in_id_order():
    p = Presentation.from_data({"boards": ["zeta", "gone", "mid"], "headline": {"fallback": 2},
                                "charts": {"home": ["a-chart"], "model": ["b", "a"], "gallery": ["c"],
                                           "boards": {"zeta": ["a-chart"], "mid": []}}})
    assert p == Presentation(("zeta", "gone", "mid"), 2, ("a-chart",), ("b", "a"), ("c",),
                             {"zeta": ("a-chart",), "mid": ()})
    assert board_ids(_ctx(["alpha", "mid", "zeta", "beta"], p)) == ["zeta", "mid", "alpha", "beta"]


def test_this_repositorys_file_places_its_boards():
    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "methodology" / "site.yaml").read_text(encoding="utf-8"))
    p = Presentation.from_data(data)
    assert p.boards[:2] == ("ai-iq", "ai-eq") and p.headline_fallback == 3
    assert p.home_charts == ("iq-vs-cost", "aa-vs-price", "pedagogy-frontier")
    assert set(p.board_charts) <= set(p.boards)


def test_a_build_takes_the_title_and_description_from_the_file(tmp_path):
    root = make_tree(tmp_path / "repo")
    (root / "methodology" / "site.yaml").write_text(
        "title: Quiz boards\ndescription: Boards of a quiz.\nboards: [hle, ai-iq]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--root", str(root), "--out", str(tmp_path / "site"), "--quiet"],
                                env=ENV)
    assert result.exit_code == 0, result.output
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<title>Quiz boards" in home and "Boards of a quiz." in home
    assert "Leaderboards" not in home.split("</head>")[0]
