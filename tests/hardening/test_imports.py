"""Imports cannot silently wipe a source: empty or shrunken downloads are refused, bad encodings and truncated
JSON are clear errors, and the imported file is replaced atomically (faults injected at sitegen.write.put_file)."""

from __future__ import annotations

import yaml
from click.testing import CliRunner

from hardkit import listing, make_tree, model_doc, sitegen

from sitegen import write
from sitegen.cli.imports import import_command

HEADER = "model_name,elo_norm,ci_low_norm,ci_high_norm\n"
ROWS = [f"M{i},{1500 + i}.0,{1480 + i}.0,{1520 + i}.0\n" for i in range(1, 6)]


def tree(tmp_path, rows=ROWS):
    """A valid tree with five models, and a first import of eq-bench with all five results."""
    make_tree(tmp_path, [model_doc(f"acme/m{i}", {}, name=f"M{i}") for i in range(1, 6)])
    first = run(tmp_path, HEADER + "".join(rows))
    assert first.exit_code == 0, first.output
    return tmp_path / "scores/imported/eq-bench.yaml"


def run(root, text=None, *extra, raw: bytes | None = None):
    csv = root / "eq.csv"
    csv.write_bytes(raw if raw is not None else text.encode("utf-8"))
    return CliRunner().invoke(import_command, ["eq-bench", str(csv), "--retrieved", "2026-07-31", "--root", str(root),
                                               *extra])


def results(path) -> int:
    return len(yaml.safe_load(path.read_text(encoding="utf-8"))["results"])


def test_empty_download_is_refused(tmp_path):
    (tmp_path / "scores/models").mkdir(parents=True)
    result = run(tmp_path, HEADER)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "eq-bench: the files give no results (an empty or truncated download?); nothing written",
        "Error: 1 source not written (see above)"]
    assert not (tmp_path / "scores/imported").exists()


def test_download_that_drops_most_results_needs_allow_shrink(tmp_path):
    imported = tree(tmp_path)
    before = imported.read_bytes()
    result = run(tmp_path, HEADER + "".join(ROWS[:3]))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "eq-bench: 3 results where eq-bench.yaml has 5: more than 20% would be dropped (a truncated download?); "
        "nothing written. Pass --allow-shrink if the source really shrank",
        "Error: 1 source not written (see above)"]
    assert imported.read_bytes() == before
    assert run(tmp_path, HEADER + "".join(ROWS[:4])).exit_code == 0  # one of five (20%) is allowed
    assert results(imported) == 4
    assert run(tmp_path, HEADER + ROWS[0], "--allow-shrink").exit_code == 0
    assert results(imported) == 1


def test_latin_1_utf_16_and_bom_are_clear_errors(tmp_path):
    imported = tree(tmp_path)
    before = imported.read_bytes()
    cases = {
        (HEADER + "Modèle,1500.0,1480.0,1520.0\n").encode("latin-1"):
            "eq.csv:2:4: (file): byte 0xe8 is not valid UTF-8 (save the file as UTF-8 (it looks like Latin-1 or another "
            "legacy encoding))",
        (HEADER + "".join(ROWS)).encode("utf-16"): "eq.csv:1:1: (file): file is UTF-16, not UTF-8 (save it as UTF-8)",
        b"\xef\xbb\xbf" + (HEADER + "".join(ROWS)).encode("utf-8"):
            "eq.csv:1:1: (file): file starts with a byte-order mark (save it as UTF-8 without BOM)",
    }
    for raw, message in cases.items():
        result = run(tmp_path, raw=raw)
        assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
        assert result.output.splitlines() == [f"Error: eq-bench: {message}"]
    assert imported.read_bytes() == before


def test_truncated_json_names_the_place(tmp_path):
    (tmp_path / "scores/models").mkdir(parents=True)
    ratings = tmp_path / "leaderboard-text-style-control.json"
    ratings.write_text('{"full": {"gpt-5-high": {"rating": 1440.5, "rat', encoding="utf-8")
    prices = tmp_path / "scatterplot-data.json"
    prices.write_text("[]", encoding="utf-8")
    result = CliRunner().invoke(import_command, ["lmarena", str(ratings), str(prices), "--retrieved", "2025-12-17",
                                                 "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "Error: lmarena: leaderboard-text-style-control.json:1:44: (file): ends early (a truncated download?): "
        "Unterminated string starting at (download the file again)"]


def test_disk_full_while_writing_keeps_the_previous_file(tmp_path, monkeypatch):
    imported = tree(tmp_path)
    before = imported.read_bytes()

    def full(path, data):
        path.write_bytes(data[:10])  # part of the file reaches the disk, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(write, "put_file", full)
    result = run(tmp_path, HEADER + "".join(ROWS[1:]) + "M6,1400.0,1380.0,1420.0\n", "--allow-unmatched")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: eq-bench: cannot write scores/imported/eq-bench.yaml: No space left on device (the previous file is "
        "unchanged)")
    assert imported.read_bytes() == before
    assert listing(imported.parent) == ["eq-bench.yaml"]


KILL_ON_WRITE = '''
import os, signal
import sitegen.write as w
def put_file(path, data):
    path.write_bytes(data[:10])
    os.kill(os.getpid(), signal.SIGKILL)
w.put_file = put_file
'''


def test_killed_import_keeps_the_previous_file_and_the_next_import_cleans_up(tmp_path):
    imported = tree(tmp_path)
    before = imported.read_bytes()
    csv = tmp_path / "eq.csv"
    csv.write_text(HEADER + "".join(reversed(ROWS)), encoding="utf-8")
    args = ("import", "eq-bench", str(csv), "--retrieved", "2026-08-01", "--root", str(tmp_path))
    killed = sitegen(*args, cwd=tmp_path, prelude=KILL_ON_WRITE)
    assert killed.returncode == -9
    assert imported.read_bytes() == before
    names = listing(imported.parent)
    assert len(names) == 2 and names[0].startswith(".eq-bench.yaml.new-")
    again = sitegen(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert listing(imported.parent) == ["eq-bench.yaml"]
    assert "2026-08-01" in imported.read_text(encoding="utf-8")


def test_interchange_import_reads_strictly_and_writes_atomically(tmp_path, monkeypatch):
    from sitegen.cli.contrib import interchange_import

    import shutil
    from pathlib import Path

    shutil.copytree(Path(__file__).parents[1] / "validation/base", tmp_path, dirs_exist_ok=True)  # source 'board'
    cut = tmp_path / "run.json"
    cut.write_text('{"schema_version": "0.3.0", "evaluation_results": [{"x": 1', encoding="utf-8")
    result = CliRunner().invoke(interchange_import, ["eee", "board", str(cut), "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [  # placed in the path as given, as every problem is
        f"{cut}:1:59: (file): ends early (a truncated download?): Expecting ',' delimiter (download the file again)",
        "1 error; nothing written"]
    card = tmp_path / "README.md"
    card.write_bytes("---\nmodel-index: []\n---\n".encode("utf-16"))
    args = ["hf-model-index", "board", str(card), "--retrieved", "2025-06-01", "--force", "--root", str(tmp_path)]
    result = CliRunner().invoke(interchange_import, args)
    assert result.output.splitlines() == [f"{card}:1:1: (file): file is UTF-16, not UTF-8 (save it as UTF-8)",
                                          "1 error; nothing written"]
    card.write_text("---\nmodel-index: []\n---\n", encoding="utf-8")
    imported = tmp_path / "scores/imported/board.yaml"
    imported.parent.mkdir()
    imported.write_text("previous\n", encoding="utf-8")

    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(write, "put_file", full)
    result = CliRunner().invoke(interchange_import, args)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: board: cannot write scores/imported/board.yaml: No space left on device (the previous file is unchanged)")
    assert listing(imported.parent) == ["board.yaml"] and imported.read_text(encoding="utf-8") == "previous\n"


def test_import_that_would_add_a_validation_error_writes_nothing(tmp_path):
    """The repository as the import would leave it is validated first (on a copy): results for a benchmark the
    methodology does not define are refused, nothing written; errors the tree has already do not block it."""
    import shutil
    from pathlib import Path

    shutil.copytree(Path(__file__).parents[1] / "validation/base", tmp_path, dirs_exist_ok=True)  # no eq-bench-3
    sources = tmp_path / "scores/sources.yaml"
    sources.write_text(sources.read_text(encoding="utf-8") + (
        "  - id: eq-bench\n    name: EQ-Bench\n    url: https://eqbench.com/\n    licence: MIT\n"
        "    attribution: EQ-Bench\n    provenance: primary\n"), encoding="utf-8")
    widget = "id: acme/m{0}\nname: M{0}\nrelease: acme/m{0}\norganization: Acme\n"
    for i in (1, 2):
        (tmp_path / f"scores/models/acme/m{i}.yaml").write_text(widget.format(i), encoding="utf-8")
    result = run(tmp_path, HEADER + "".join(ROWS[:2]), "--allow-unmatched")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "scores/imported/eq-bench.yaml:12:14: results[0].benchmark: unknown benchmark 'eq-bench-3' (benchmark ids "
        "are listed in methodology/benchmarks.yaml)",
        "scores/imported/eq-bench.yaml:20:14: results[1].benchmark: unknown benchmark 'eq-bench-3' (benchmark ids "
        "are listed in methodology/benchmarks.yaml)",
        "Error: the import would add 2 validation errors (above); nothing written"]
    assert not (tmp_path / "scores/imported").exists()

    benchmarks = tmp_path / "methodology/benchmarks.yaml"
    benchmarks.write_text(benchmarks.read_text(encoding="utf-8") + (
        "  - id: eq-bench-3\n    name: EQ-Bench 3\n    category: emotional\n    scale: {unit: elo}\n"
        "    higher_is_better: true\n    url: https://eqbench.com/\n    description: Emotional intelligence.\n"),
        encoding="utf-8")
    (tmp_path / "scores/models/acme/broken.yaml").write_text("id: acme/other\nname: Broken\n", encoding="utf-8")
    result = run(tmp_path, HEADER + "".join(ROWS[:2]), "--allow-unmatched")  # the broken file is not its doing
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["eq-bench: wrote scores/imported/eq-bench.yaml (2 models, 2 results)"]
