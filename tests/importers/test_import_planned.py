"""importers.import_planned: what importing one planned source did (written, same, stale, unmatched, shrunk), on a
hand-written eq-bench download and five model files."""

from __future__ import annotations

import pytest
import yaml

from sitegen import importers
from sitegen.importers.extracts import ImportError_

HEADER = "model_name,elo_norm,ci_low_norm,ci_high_norm\n"
ROWS = [f"M{i},{1500 + i}.0,{1480 + i}.0,{1520 + i}.0\n" for i in range(1, 6)]


def plan(root, text: str) -> importers.Planned:
    """Five models acme/m1..m5 named M1..M5, and an eq-bench download holding `text`."""
    for i in range(1, 6):
        path = root / "scores/models/acme" / f"m{i}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"id: acme/m{i}\nname: M{i}\norganization: Acme\n", encoding="utf-8")
    (root / "eq.csv").write_text(text, encoding="utf-8")
    return importers.Planned("eq-bench", (root / "eq.csv",), "2026-07-31")


def imported(root) -> list[tuple[str, float]]:
    doc = yaml.safe_load((root / "scores/imported/eq-bench.yaml").read_text(encoding="utf-8"))
    return [(r["model"], r["value"]) for r in doc["results"]]


def test_written_then_the_same_file_then_stale_when_the_download_changes(tmp_path):
    done = importers.import_planned(tmp_path, plan(tmp_path, HEADER + "".join(ROWS)))
    assert (done.action, done.shrunk) == ("written", None)
    assert done.target == tmp_path / "scores/imported/eq-bench.yaml"
    assert imported(tmp_path) == [("acme/m1", 1501.0), ("acme/m2", 1502.0), ("acme/m3", 1503.0),
                                  ("acme/m4", 1504.0), ("acme/m5", 1505.0)]
    assert importers.import_planned(tmp_path, plan(tmp_path, HEADER + "".join(ROWS)), check=True).action == "same"
    before = done.target.read_bytes()
    changed = HEADER + "".join(ROWS[:4]) + "M5,1600.0,1580.0,1620.0\n"
    assert importers.import_planned(tmp_path, plan(tmp_path, changed), check=True).action == "stale"
    assert done.target.read_bytes() == before  # a check writes nothing


def test_an_unmatched_name_is_not_written_unless_allowed(tmp_path):
    text = HEADER + "".join(ROWS) + "Nobody,1400.0,1380.0,1420.0\n"
    done = importers.import_planned(tmp_path, plan(tmp_path, text))
    assert done.action == "unmatched"
    assert [p.name for p in done.outcome.unmatched] == ["Nobody"]
    assert not done.target.exists()
    assert importers.import_planned(tmp_path, plan(tmp_path, text), allow_unmatched=True).action == "written"
    assert len(imported(tmp_path)) == 5


def test_a_shrunken_download_is_refused_with_the_reason_unless_allowed(tmp_path):
    importers.import_planned(tmp_path, plan(tmp_path, HEADER + "".join(ROWS)))
    done = importers.import_planned(tmp_path, plan(tmp_path, HEADER + "".join(ROWS[:3])))
    assert done.action == "shrunk"
    assert done.shrunk == ("3 results where eq-bench.yaml has 5: more than 20% would be dropped (a truncated "
                           "download?); nothing written. Pass --allow-shrink if the source really shrank")
    assert len(imported(tmp_path)) == 5
    done = importers.import_planned(tmp_path, plan(tmp_path, HEADER + "".join(ROWS[:3])), allow_shrink=True)
    assert done.action == "written"
    assert len(imported(tmp_path)) == 3


def test_a_missing_download_is_an_import_error_naming_the_source(tmp_path):
    planned = plan(tmp_path, HEADER + "".join(ROWS))
    (tmp_path / "eq.csv").unlink()
    with pytest.raises(ImportError_, match=r"^eq-bench: .*eq\.csv"):
        importers.import_planned(tmp_path, planned)
    assert not (tmp_path / "scores/imported").exists()
