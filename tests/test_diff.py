"""`sitegen diff`: a throwaway git repository with realistic commits, and the reasons each board row moved.

The tree holds the real benchmark registry, the real AI IQ and benchmark-boards definitions, two sources and
six models with results on AI IQ benchmarks (implied IQs from the ai-iq.yaml anchors in the comments).
Base AI IQ P80s (nearest rank, ceil(0.8 n)): hle over {95, 110, 120, 130, 140} is 130; gpqa-diamond over
{98, 107, 115, 123, 131} is 123.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen import diff
from sitegen.cli_diff import diff_command

ROOT = Path(__file__).resolve().parents[1]

SOURCES = """\
sources:
  - id: epoch
    name: Epoch AI benchmarking hub
    url: https://epoch.ai/benchmarks
    licence: CC BY 4.0
    attribution: Epoch AI
    provenance: secondary
  - id: model-card
    name: Developer model cards
    url: https://example.org/cards
    licence: unknown
    attribution: The developers
    provenance: primary
"""

# model id -> {benchmark: score}; comments give the implied IQ.
MODELS = {
    "acme/alpha": {"hle": 20, "gpqa-diamond": 80, "aime-2025": 90},      # 130, 123, 124
    "acme/beta": {"hle": 10, "gpqa-diamond": 65, "aime-2025": 60},       # 110, 115, 109
    "acme/gamma": {"gpqa-diamond": 90, "aime-2025": 90},                 # 131, 124; hle imputed min(131, P80 130)
    "acme/delta": {"hle": 5, "gpqa-diamond": 35, "aime-2025": 20},       # 95, 98, 95
    "acme/epsilon": {"hle": 15, "aime-2025": 80},                        # 120, 117; gpqa imputed min(120, 123)
    "globex/zeta": {"hle": 25, "gpqa-diamond": 50, "aime-2025": 100},    # 140, 107, 135
}


def model_yaml(model: str, scores: dict, name: str | None = None) -> str:
    lines = [f"id: {model}", f"name: {name or model.split('/')[1].title()}",
             f"organization: {model.split('/')[0].title()}", "results:"]
    # HLE on AA's question set, the one AI IQ selects.
    lines += [f'  - {{benchmark: {b}, value: {v}, source: epoch, retrieved: "2025-06-01"'
              + (", subset: aa-2684" if b == "hle" else "") + "}" for b, v in scores.items()]
    return "\n".join(lines) + "\n"


def write_model(root: Path, model: str, scores: dict, name: str | None = None) -> None:
    path = root / "scores/models" / f"{model}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(model_yaml(model, scores, name), encoding="utf-8")


def git(root: Path, *args: str, date: str = "2025-07-01T12:00:00+00:00") -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(root.parent)}
    out = subprocess.run(["git", "-C", str(root), *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def commit(root: Path, message: str, date: str = "2025-07-01T12:00:00+00:00") -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, date=date)
    return git(root, "rev-parse", "HEAD")


def base_tree(root: Path) -> None:
    """The base data tree (not committed)."""
    (root / "methodology/indices").mkdir(parents=True)
    shutil.copy(ROOT / "methodology/benchmarks.yaml", root / "methodology/benchmarks.yaml")
    for name in ("ai-iq.yaml", "benchmark-boards.yaml"):
        shutil.copy(ROOT / "methodology/indices" / name, root / "methodology/indices" / name)
    (root / "scores").mkdir()
    (root / "scores/sources.yaml").write_text(SOURCES, encoding="utf-8")
    for model, scores in MODELS.items():
        write_model(root, model, scores)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A repository with a base commit and one commit per kind of change; returns (root, {name: sha})."""
    root = tmp_path_factory.mktemp("repo") / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    shas = {"base": commit(root, "Base data")}
    # 1. epsilon's first real GPQA score replaces its imputed value.
    write_model(root, "acme/epsilon", {**MODELS["acme/epsilon"], "gpqa-diamond": 80})
    shas["flip"] = commit(root, "epsilon: GPQA Diamond from Epoch")
    # 2. alpha's HLE drops 20 -> 15 (IQ 130 -> 120): the HLE P80 moves 130 -> 120, and with it gamma's imputed HLE.
    write_model(root, "acme/alpha", {**MODELS["acme/alpha"], "hle": 15})
    shas["p80"] = commit(root, "alpha: corrected HLE")
    # 3. a new model enters the board.
    write_model(root, "initech/eta", {"hle": 12, "gpqa-diamond": 70, "aime-2025": 70})
    shas["new-model"] = commit(root, "Add initech/eta")
    # 4. delta's GPQA result is removed: its GPQA becomes imputed and it leaves the GPQA board.
    write_model(root, "acme/delta", {"hle": 5, "aime-2025": 20})
    shas["removed"] = commit(root, "delta: drop unverified GPQA")
    # 5. methodology: AIME's top anchor 135 -> 136, which moves zeta (AIME 100) with the same score.
    path = root / "methodology/indices/ai-iq.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("[90, 124], [100, 135]]") == 1
    path.write_text(text.replace("[90, 124], [100, 135]]", "[90, 124], [100, 136]]"), encoding="utf-8")
    shas["anchor"] = commit(root, "AI IQ: AIME top anchor 136")
    return root, shas


def run_json(root: Path, *refs: str) -> dict:
    result = CliRunner().invoke(diff_command, [*refs, "--root", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def moved(d: dict, board: str, model: str) -> dict:
    return next(m for m in d["boards"][board]["moved"] if m["model"] == model)


def kinds(entry: dict) -> dict:
    return {(r["component"] if "component" in r else None): r["kind"] for r in entry["reasons"]}


def test_imputed_replaced_by_observed(history):
    root, shas = history
    d = run_json(root, shas["base"], shas["flip"])
    assert d["results"]["added"] == [{
        "model": "acme/epsilon", "benchmark": "gpqa-diamond", "metric": "", "subset": "", "harness": "",
        "source": "epoch", "value": 80.0, "retrieved": "2025-06-01", "url": "",
        "origin": "scores/models/acme/epsilon.yaml"}]
    entry = moved(d, "index:ai-iq", "acme/epsilon")
    reason = next(r for r in entry["reasons"] if r["component"] == "gpqa-diamond")
    assert (reason["kind"], reason["old_how"], reason["new_how"]) == ("imputed-to-observed", "imputed", "observed")
    assert (reason["old"], reason["new"], reason["source"]) == (120.0, 123.0, "epoch")
    assert d["boards"]["benchmark:gpqa-diamond"]["entered"][0]["model"] == "acme/epsilon"
    assert d["summary"]["boards_affected"] == ["benchmark:gpqa-diamond", "index:ai-iq"]


def test_p80_shift_moves_a_third_model(history):
    root, shas = history
    d = run_json(root, shas["flip"], shas["p80"])
    assert [(r["model"], r["old"]["value"], r["new"]["value"]) for r in d["results"]["changed"]] == \
        [("acme/alpha", 20.0, 15.0)]
    alpha = moved(d, "index:ai-iq", "acme/alpha")
    assert kinds(alpha)["hle"] == "observed-changed"
    gamma = moved(d, "index:ai-iq", "acme/gamma")
    reason = next(r for r in gamma["reasons"] if r["component"] == "hle")
    assert reason["kind"] == "p80-shift"
    assert reason["percentile"] == {"name": "P80", "of": "hle", "old": 130.0, "new": 120.0}
    assert (reason["old"], reason["new"]) == (130.0, 120.0)
    assert "P80 of hle 120.00" in reason["new_reason"]


def test_new_model_enters(history):
    root, shas = history
    d = run_json(root, shas["p80"], shas["new-model"])
    assert d["models"] == {"added": ["initech/eta"], "removed": []}
    assert [r["model"] for r in d["boards"]["index:ai-iq"]["entered"]] == ["initech/eta"]
    assert [r["benchmark"] for r in d["results"]["added"]] == ["aime-2025", "gpqa-diamond", "hle"]
    # (its HLE is on AA's question set, a table of its own on the HLE page, not the full-set board diffed here)
    for bench in ("aime-2025", "gpqa-diamond"):
        assert "initech/eta" in [r["model"] for r in d["boards"][f"benchmark:{bench}"]["entered"]]
    # Others only change rank, or their imputed values follow new P80s; each has a reason.
    for entry in d["boards"]["index:ai-iq"]["moved"]:
        assert entry["reasons"], entry


def test_removed_result(history):
    root, shas = history
    d = run_json(root, shas["new-model"], shas["removed"])
    assert [(r["model"], r["benchmark"], r["value"]) for r in d["results"]["removed"]] == \
        [("acme/delta", "gpqa-diamond", 35.0)]
    assert [r["model"] for r in d["boards"]["benchmark:gpqa-diamond"]["left"]] == ["acme/delta"]
    reason = next(r for r in moved(d, "index:ai-iq", "acme/delta")["reasons"] if r["component"] == "gpqa-diamond")
    assert (reason["kind"], reason["new_how"]) == ("observed-removed", "imputed")


def test_methodology_anchor_edit(history):
    root, shas = history
    d = run_json(root, shas["removed"], shas["anchor"])
    assert d["methodology"] == [{"file": "methodology/indices/ai-iq.yaml", "status": "changed",
                                 "keys": ["dimensions[mathematical].benchmarks[aime-2025].anchors"]}]
    assert d["results"] == {"added": [], "changed": [], "removed": []}
    zeta = next(r for r in moved(d, "index:ai-iq", "globex/zeta")["reasons"] if r["component"] == "aime-2025")
    assert (zeta["kind"], zeta["old"], zeta["new"], zeta["new_raw"]) == ("methodology", 135.0, 136.0, 100.0)
    assert d["boards"]["index:ai-iq"]["methodology_files"] == ["methodology/indices/ai-iq.yaml"]
    assert not any(k.startswith("benchmark:") for k in d["boards"])  # per-benchmark boards do not move


def test_markdown_whole_range(history):
    root, shas = history
    result = CliRunner().invoke(diff_command, [shas["base"], shas["anchor"], "--root", str(root)])
    assert result.exit_code == 0, result.output
    md = result.output
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings[0].startswith("## Leaderboard diff:")
    assert {"### Methodology", "### Results", "### AI IQ (index:ai-iq)"} <= set(headings)
    assert md.index("| boards affected |") < md.index("### Methodology")  # summary first
    assert "imputed 120 replaced by observed 123" in md
    assert "P80 of hle 130 → 120" in md
    assert "Entered: initech/eta" in md
    assert "dimensions\\[mathematical\\].benchmarks\\[aime-2025\\].anchors" in md


def test_json_is_deterministic(history):
    root, shas = history
    first = CliRunner().invoke(diff_command, [shas["base"], shas["anchor"], "--root", str(root), "--format", "json"])
    second = CliRunner().invoke(diff_command, [shas["base"], shas["anchor"], "--root", str(root), "--format", "json"])
    assert first.output == second.output
    assert first.output == json.dumps(json.loads(first.output), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_working_tree_is_the_default_head(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    commit(root, "Base")
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "aime-2025": 70})  # uncommitted
    d = run_json(root, "HEAD")
    assert d["head"] == "working tree"
    assert [(r["model"], r["benchmark"]) for r in d["results"]["changed"]] == [("acme/beta", "aime-2025")]


def test_invalid_side_prints_problems_and_exits_1(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    base = commit(root, "Base")
    (root / "scores/models/acme/beta.yaml").write_text("id: acme/beta\nname: Beta\nresults: [}\n", encoding="utf-8")
    head = commit(root, "Broken")
    result = CliRunner().invoke(diff_command, [base, head, "--root", str(root)])
    assert result.exit_code == 1
    assert "head (" in result.output and "does not validate" in result.output
    assert "scores/models/acme/beta.yaml" in result.output


def test_unknown_ref_is_an_input_error(history):
    root, _ = history
    result = CliRunner().invoke(diff_command, ["no-such-ref", "--root", str(root)])
    assert result.exit_code == 1
    assert "unknown git ref 'no-such-ref'" in result.output
    assert CliRunner().invoke(diff_command, ["--output=x", "--root", str(root)]).exit_code != 0


def test_materialise_reads_blobs_only(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    (root / "scores/models/acme/link.yaml").symlink_to("/etc/passwd")
    (root / ".gitattributes").write_text("*.yaml filter=evil\n", encoding="utf-8")
    sha = commit(root, "Base with a symlink")
    git(root, "config", "filter.evil.smudge", f"touch {tmp_path / 'ran'}")
    dest = tmp_path / "out"
    dest.mkdir()
    assert diff.materialise(root, sha, dest) == sha
    assert not (dest / "scores/models/acme/link.yaml").exists()
    assert not (tmp_path / "ran").exists()
    assert (dest / "scores/models/acme/alpha.yaml").read_text(encoding="utf-8") == \
        model_yaml("acme/alpha", MODELS["acme/alpha"])


def test_root_below_the_repository_top(tmp_path):
    top = tmp_path / "repo"
    root = top / "site-data"
    root.mkdir(parents=True)
    git(top, "init", "-q", "-b", "main")
    base_tree(root)
    base = commit(top, "Base")
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "hle": 11})
    head = commit(top, "beta HLE")
    d = run_json(root, base, head)
    assert [(r["model"], r["benchmark"]) for r in d["results"]["changed"]] == [("acme/beta", "hle")]


def test_markdown_escapes_contributor_text():
    evil = "x | <img src=x onerror=alert(1)> `code` [link](https://evil) @octocat ![i](j)\n# h"
    out = diff.md_escape(evil)
    for bad in ("<", ">", "`", "@octocat", "\n"):
        assert bad not in out
    for special in "|[]!#":  # each one backslash-escaped
        assert re.search(r"(?<!\\)" + re.escape(special), out.replace("&#96;", "")) is None, special
    assert out.count("\\[") == 2 and out.count("\\]") == 2


def test_markdown_is_capped():
    d = {"base": "a", "head": "b", "methodology": [], "models": {"added": [], "removed": []},
         "results": {"added": [{"model": f"m/{i}", "benchmark": "hle", "metric": "", "subset": "", "harness": "",
                                "value": float(i), "source": "s", "retrieved": "2025-01-01"} for i in range(300)],
                     "changed": [], "removed": []},
         "boards": {}, "summary": {"boards_affected": [], "models_moved": [], "results_added": 300,
                                   "results_changed": 0, "results_removed": 0, "methodology_files": [],
                                   "models_added": [], "models_removed": []}}
    lines = diff.to_markdown(d, max_lines=50).splitlines()
    assert len(lines) == 50
    assert lines[-1].startswith("… ") and "more lines cut" in lines[-1]


def test_changed_keys_names_list_items_by_id():
    old = {"a": 1, "dims": [{"id": "x", "w": 1}, {"id": "y", "w": 2}], "tags": [1, 2]}
    new = {"a": 1, "dims": [{"id": "x", "w": 1}, {"id": "y", "w": 3}, {"id": "z"}], "tags": [1, 3], "b": 0}
    assert diff.changed_keys(old, new) == ["b", "dims[y].w", "dims[z]", "tags"]
