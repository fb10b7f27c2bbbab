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

from sitegen.history import diff, pr_comment
from sitegen.history.git import materialise
from sitegen.cli.diff import diff_command

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
    lines = [f"id: {model}", f"name: {name or model.split('/')[1].title()}", f"release: {model}",
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
    return json.loads(result.stdout)


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
    assert [(r["model"], r["cause"]) for r in d["boards"]["benchmark:gpqa-diamond"]["left"]] == \
        [("acme/delta", "own-results")]
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
    md = result.stdout
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings[0].startswith("## Leaderboard diff:")
    assert {"### Methodology", "### AI IQ (index:ai-iq)"} <= set(headings)
    # the new model, then the six result changes, each with what kind of change it is; then the counts, the detail
    assert md.splitlines()[2:6] == ["**What changed**", "", "- new model: initech/eta",
                                    "- new result: acme/epsilon gpqa-diamond 80 (epoch)"]
    assert "- corrected value: acme/alpha hle/aa-2684 20 → 15 (epoch)" in md
    assert "- removed result: acme/delta gpqa-diamond 35 (epoch)" in md
    assert "- methodology change: methodology/indices/ai-iq.yaml" in md
    assert md.index("**What changed**") < md.index("**What it moves**") < md.index("Counts: ") \
        < md.index("### Methodology")
    assert "### Results" not in md  # all six are in the lead already
    assert "imputed 120 replaced by observed 123" in md
    assert "P80 of hle 130 → 120" in md
    assert "entered initech/eta" in md
    assert "dimensions\\[mathematical\\].benchmarks\\[aime-2025\\].anchors" in md


def test_json_is_deterministic(history):
    root, shas = history
    first = CliRunner().invoke(diff_command, [shas["base"], shas["anchor"], "--root", str(root), "--format", "json"])
    second = CliRunner().invoke(diff_command, [shas["base"], shas["anchor"], "--root", str(root), "--format", "json"])
    assert first.stdout == second.stdout
    assert first.stdout == json.dumps(json.loads(first.stdout), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


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
    assert materialise(root, sha, dest) == sha
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
    out = pr_comment.md_escape(evil)
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


def test_one_new_model_with_five_results_leads_every_board(tmp_path):
    # The contributor's case: one model, five results. Every board it enters is named in the report's first
    # lines with its value and rank; the rows that only shift rank because of it are a count, not a list.
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    write_model(root, "acme/omega", {"hle": 8, "gpqa-diamond": 60, "aime-2025": 50, "mmlu-pro": 70,
                                     "swe-bench-verified": 40})
    base = commit(root, "Base")
    write_model(root, "initech/eta", {"hle": 30, "gpqa-diamond": 95, "aime-2025": 95, "mmlu-pro": 85,
                                      "swe-bench-verified": 70})
    head = commit(root, "Add initech/eta with five results")
    d = run_json(root, base, head)
    entered_on = sorted(k for k, b in d["boards"].items() if [r["model"] for r in b["entered"]] == ["initech/eta"])
    # (its HLE is on AA's question set, a table of its own on the HLE page, not the full-set board)
    assert {"index:ai-iq", "benchmark:gpqa-diamond", "benchmark:aime-2025", "benchmark:mmlu-pro",
            "benchmark:swe-bench-verified"} <= set(entered_on)
    for board in d["boards"].values():
        assert all(m["reasons"] != [{"kind": "others-moved"}] for m in board["moved"])
    # eta tops every benchmark board, so each other row there shifts one rank: counted.
    assert d["boards"]["benchmark:gpqa-diamond"]["rank_shifts"] == 6  # five base models with GPQA, and omega
    assert d["summary"]["rank_shifts"] == sum(b["rank_shifts"] for b in d["boards"].values())

    md = CliRunner().invoke(diff_command, [base, head, "--root", str(root)]).stdout
    lines = md.splitlines()
    assert lines[0].startswith("## Leaderboard diff:") and lines[1] == ""
    assert lines[2:4] == ["**What changed**", ""]
    assert lines[4] == "- new model: initech/eta"
    assert lines[5:10] == [f"- new result: initech/eta {b} {v} (epoch)" for b, v in (
        ("aime-2025", 95), ("gpqa-diamond", 95), ("hle/aa-2684", 30), ("mmlu-pro", 85), ("swe-bench-verified", 70))]
    assert lines[10:13] == ["", "**What it moves**", ""]
    first = lines[13: 13 + len(d["boards"])]
    assert all(line.startswith("- **") for line in first)
    # Index boards first, then each benchmark board, each naming the new model with its value and rank.
    assert "(index:ai-iq)" in first[0]
    for board_id in entered_on:
        line = next(line for line in first if f"({board_id})" in line)
        row = d["boards"][board_id]["entered"][0]
        assert f"entered initech/eta {diff.pr_comment._num(row['value'])} (rank {row['rank']})" in line
    gpqa_line = next(line for line in first if "(benchmark:gpqa-diamond)" in line)
    assert gpqa_line.endswith("; 6 other rows only shifted rank")


# ---------------------------------------------------------------- the pull-request flow, end to end

PR_COMMENT = ROOT / "generator" / "sitegen" / "history" / "pr_comment.py"


def render_as_trusted_job(tmp_path: Path, report_text: str, number: str = "12\n") -> str:
    """What pr-diff-comment.yml's render job does: the base branch's pr_comment.py on the artifact."""
    artifact = tmp_path / "artifact"
    artifact.mkdir(exist_ok=True)
    (artifact / "report.json").write_text(report_text, encoding="utf-8")
    (artifact / "pr-number.txt").write_text(number, encoding="utf-8")
    output = tmp_path / "github-output"
    output.write_text("", encoding="utf-8")
    subprocess.run(["python3", str(PR_COMMENT), "--artifact", str(artifact), "--github-output", str(output)],
                   check=True, capture_output=True, timeout=60)
    text = output.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    assert first == "pr-number=" + number.strip()
    delimiter = rest.split("\n", 1)[0].split("<<", 1)[1]
    return rest.split("\n", 1)[1].rsplit("\n" + delimiter + "\n", 1)[0]


def pr_report(root: Path, base: str, head: str, out: Path, env=None):
    return CliRunner().invoke(diff_command, ["--format", "report", "--out", str(out), base, head, "--root", str(root)],
                              env=env or {})


def test_pull_request_flow_changed_files_warnings_report_comment(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    base = commit(root, "Base")
    # The contributor's PR: a new model whose GPQA Diamond is written as a fraction, and an edit of beta.
    write_model(root, "initech/eta", {"gpqa-diamond": 0.85, "hle": 20, "aime-2025": 70})
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "aime-2025": 61})
    head = commit(root, "Add initech/eta")
    out = tmp_path / "report.json"
    result = pr_report(root, base, head, out, env={"GITHUB_ACTIONS": "true"})
    assert result.exit_code == 0, result.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert rep["status"] == "ok" and rep["errors"] == []
    assert rep["changed_files"] == ["scores/models/acme/beta.yaml", "scores/models/initech/eta.yaml"]
    assert [(w["path"], w["field"]) for w in rep["warnings"]] == [("scores/models/initech/eta.yaml",
                                                                    "results[0].value")]
    assert "::warning file=scores/models/initech/eta.yaml,line=6," in result.output  # an annotation under Actions
    assert rep["diff"]["boards"]["index:ai-iq"]["entered"][0]["model"] == "initech/eta"

    body = render_as_trusted_job(tmp_path, out.read_text(encoding="utf-8"))
    lines = body.splitlines()
    assert lines[0] == "<!-- sitegen-diff -->" and lines[1].startswith("## Leaderboard diff:")
    assert lines[3:5] == ["**What changed**", ""]
    assert "- corrected value: acme/beta aime-2025 60 → 61 (epoch)" in lines
    moves = lines.index("**What it moves**")
    assert lines[moves + 2].startswith("- **AI IQ** (index:ai-iq): entered initech/eta ")
    assert "### New warnings (1)" in body
    assert "scores/models/initech/eta.yaml:6:" in body and "0.85 looks like a fraction" in body
    # The same template renders `sitegen diff`'s own Markdown.
    md = CliRunner().invoke(diff_command, [base, head, "--root", str(root)]).stdout
    assert md.splitlines()[moves + 1] == lines[moves + 2]


def test_pull_request_that_does_not_validate_gets_its_errors(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    base = commit(root, "Base")
    write_model(root, "initech/eta", {"hle": 12})
    path = root / "scores/models/initech/eta.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("source: epoch", "source: epoc"), encoding="utf-8")
    head = commit(root, "Broken")
    out = tmp_path / "report.json"
    result = pr_report(root, base, head, out)
    assert result.exit_code == 1  # the check fails, and the report is still written for the comment
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert rep["status"] == "invalid" and rep["invalid_side"] == "head" and rep["diff"] is None
    assert any(e["path"] == "scores/models/initech/eta.yaml" and e["line"] == 6 for e in rep["errors"])
    body = render_as_trusted_job(tmp_path, out.read_text(encoding="utf-8"))
    assert "**This change does not validate: 1 error.**" in body
    assert "- scores/models/initech/eta.yaml:6:" in body and "epoc" in body


# Within the first 200 characters, which is what the renderer keeps of any one string.
HOSTILE = ("\u202egnp.exe \x1b[31m www.evil.example <!-- sitegen-diff --> x | y\n## heading <script>alert(1)</script> "
           "<img src=x onerror=alert(1)> [click](https://evil.example) ![img](https://evil.example/i.png) "
           "@octocat @org/team #1 `code` **b**")


def hostile_report() -> dict:
    row = {"model": HOSTILE, "value": 1.5, "rank": 1}
    reason = {"kind": "observed-changed", "component": HOSTILE, "old": 1, "new": 2, "old_raw": 3, "new_raw": 4}
    board = {"name": HOSTILE, "group": "index", "status": "changed", "entered": [row], "left": [row],
             "moved": [{"model": HOSTILE, "changed": ["value"], "old": row, "new": {**row, "value": 2},
                        "reasons": [reason, {"kind": HOSTILE, "old_how": HOSTILE, "new_how": HOSTILE}]}],
             "rank_shifts": 3}
    return {"report": 1, "status": "ok", "base": HOSTILE, "head": HOSTILE, "changed_files": [HOSTILE],
            "warnings": [{"path": HOSTILE, "line": 1, "col": 2, "field": HOSTILE, "message": HOSTILE,
                          "hint": HOSTILE}],
            "errors": [],
            "diff": {"boards": {HOSTILE: board}, "methodology": [{"file": HOSTILE, "status": HOSTILE, "keys": [HOSTILE]}],
                     "results": {"added": [{"model": HOSTILE, "benchmark": HOSTILE, "value": "NaN", "source": HOSTILE,
                                            "retrieved": HOSTILE}], "changed": [], "removed": []},
                     "summary": {"boards_affected": [HOSTILE], "models_moved": [HOSTILE]}}}


def assert_inert(body: str) -> None:
    text = body.split("\n", 1)[1]  # the marker line is ours
    for bad in ("<script", "<img", "<!--", "](", "https://", "www.evil", "@octocat", "@org/team", "\u202e", "\x1b",
                "`code`", "**b**"):
        assert bad not in text, bad
    assert "&lt;script&gt;" in text and "@\u200boctocat" in text and "www\u200b.evil" in text
    columns = None
    for line in text.splitlines():
        assert not line.startswith("## heading")  # a newline in a string never starts a Markdown block
        if not line.startswith("|"):
            columns = None
            continue
        pipes = line.count("|") - line.count("\\|")
        columns = pipes if columns is None else columns
        assert pipes == columns, line  # a cell stays a cell: every row has its table's columns


def test_a_hostile_report_renders_inert(tmp_path):
    body = render_as_trusted_job(tmp_path, json.dumps(hostile_report()))
    assert_inert(body)
    assert body.count("<!-- sitegen-diff -->") == 1


@pytest.mark.parametrize("text", [
    "[]", "not json", '{"status": "ok", "diff": {"boards": [1, 2], "results": "x", "summary": 5}}',
    '{"status": "ok", "diff": {"boards": {"b": {"entered": [{"value": NaN}]}}}}',
    '{"status": "invalid", "errors": [{"line": "1; rm", "col": -4, "message": {"a": 1}}]}',
    "[" * 100_000, '{"status": "ok", "base": "' + "x" * 3_000_000 + '"}',
], ids=["list", "not-json", "wrong-types", "nan", "bad-problem", "deep", "too-large"])
def test_a_malformed_report_becomes_a_notice_not_a_crash(tmp_path, text):
    body = render_as_trusted_job(tmp_path, text)
    assert body.startswith("<!-- sitegen-diff -->\n## Leaderboard diff")
    assert len(body) < 65_536
    assert "rm" not in body and "xxxx" not in body


def test_index_definition_changed_in_place_is_a_warning(history, tmp_path):
    root, shas = history
    rep, annotated = diff.report(root, shas["removed"], shas["anchor"])
    (warning,) = [w for w in rep["warnings"] if w["path"] == "methodology/indices/ai-iq.yaml"]
    assert warning["field"] == "dimensions[mathematical].benchmarks[aime-2025].anchors"
    assert warning["message"].startswith("a published index definition changed in place")
    assert "new version file" in warning["hint"]
    text = (root / "methodology/indices/ai-iq.yaml").read_text(encoding="utf-8").splitlines()
    assert text[warning["line"] - 1].startswith("dimensions:")
    assert [p.path for p in annotated] == ["methodology/indices/ai-iq.yaml"]
    # The same edit beside a new version file is how a definition should change: no warning.
    assert diff.definition_warnings([{"file": "methodology/indices/ai-iq.yaml", "status": "changed",
                                      "keys": [warning["field"]]},
                                     {"file": "methodology/indices/ai-iq-v3.yaml", "status": "added", "keys": []}],
                                    root) == []
    # Prose-only edits (name, description) are not a new version.
    assert diff.definition_warnings([{"file": "methodology/indices/ai-iq.yaml", "status": "changed",
                                      "keys": ["description", "history[2]"]}], root) == []


def test_progress_goes_to_stderr_in_ci_and_never_into_the_report(history):
    root, shas = history
    runner = CliRunner()
    ci = runner.invoke(diff_command, [shas["base"], shas["flip"], "--root", str(root), "--format", "json"],
                       env={"GITHUB_ACTIONS": "true"})
    assert ci.stderr.splitlines() == [f"diff: {stage} ({i}/5)" for i, stage in enumerate(diff.DIFF_STAGES, 1)]
    assert json.loads(ci.stdout)["summary"]["boards_affected"]
    quiet = runner.invoke(diff_command, [shas["base"], shas["flip"], "--root", str(root), "--format", "json", "-q"],
                          env={"GITHUB_ACTIONS": "true"})
    assert quiet.stderr == "" and quiet.stdout == ci.stdout
    piped = runner.invoke(diff_command, [shas["base"], shas["flip"], "--root", str(root), "--format", "json"],
                          env={"GITHUB_ACTIONS": "false", "CI": ""})
    assert piped.stderr == ""


def test_the_report_is_capped_in_size():
    row = {"model": "acme/m", "value": 1.0, "rank": 1}
    moved = [{"model": f"acme/m{i}", "changed": ["value"], "old": row, "new": row,
              "reasons": [{"kind": "p80-shift", "component": "hle", "old": 1.0, "new": 2.0}]} for i in range(3000)]
    rep = {"report": 1, "status": "ok", "base": "a", "head": "b", "changed_files": [], "errors": [],
           "warnings": [], "diff": {"boards": {"index:x": {"name": "X", "group": "index", "status": "changed",
                                                          "entered": [row], "left": [], "moved": moved,
                                                          "rank_shifts": 0}},
                                    "results": {"added": [], "changed": [], "removed": []}, "methodology": [],
                                    "summary": {"models_moved": [m["model"] for m in moved]}}}
    assert diff.cap_report(rep, limit=10_000_000) is rep  # under the limit: unchanged
    capped = diff.cap_report(rep, limit=100_000)
    assert len(diff.to_json(capped).encode()) <= 100_000
    assert capped["truncated"] is True and len(capped["diff"]["boards"]["index:x"]["moved"]) == diff.REPORT_LIST_CAP
    assert "shortened" in diff.to_markdown(capped)
    tiny = diff.cap_report(rep, limit=2_000)
    assert tiny["diff"] is None and "too large" in diff.to_markdown(tiny)


def test_rows_entering_for_another_reason_say_so():
    board = {"name": "B", "group": "index", "status": "changed", "moved": [], "rank_shifts": 0, "left": [],
             "entered": [{"model": "a/x", "value": 5.0, "rank": 2, "cause": "methodology"},
                         {"model": "a/y", "value": 4.0, "rank": 3, "cause": "own-results"}]}
    (line,) = diff.pr_comment.headline({"index:b": board})
    assert line == ("- **B** (index:b): entered a/x 5 (rank 2) through the methodology change, a/y 4 (rank 3)")


# ---------------------------------------------------------------- reports that lead with the change (#30)

@pytest.fixture(scope="module")
def changes(tmp_path_factory):
    """Four commits on the base tree: a new model, a one-value correction that moves no rank, a correction that
    moves a composite's ranks, and a re-fetch that changes retrieval dates only."""
    root = tmp_path_factory.mktemp("changes") / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    shas = {"base": commit(root, "Base")}
    write_model(root, "initech/eta", {"hle": 12, "gpqa-diamond": 70, "aime-2025": 70})
    shas["new-model"] = commit(root, "Add initech/eta")
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "aime-2025": 61})
    shas["correction"] = commit(root, "beta: AIME 60 -> 61")
    write_model(root, "acme/gamma", {**MODELS["acme/gamma"], "gpqa-diamond": 60})
    shas["composite"] = commit(root, "gamma: GPQA 90 -> 60")
    path = root / "scores/models/globex/zeta.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"2025-06-01"', '"2025-07-15"'), encoding="utf-8")
    shas["refetch"] = commit(root, "zeta fetched again")
    return root, shas


def markdown(root: Path, base: str, head: str) -> list[str]:
    result = CliRunner().invoke(diff_command, [base, head, "--root", str(root)])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_report_of_a_new_model_leads_with_its_results_and_the_boards_it_enters(changes):
    root, shas = changes
    lines = markdown(root, shas["base"], shas["new-model"])
    assert lines[2:13] == [
        "**What changed**", "",
        "- new model: initech/eta",
        "- new result: initech/eta aime-2025 70 (epoch)",
        "- new result: initech/eta gpqa-diamond 70 (epoch)",
        "- new result: initech/eta hle/aa-2684 12 (epoch)",
        "", "**What it moves**", "",
        # IQ 114.417 = mean of hle 112.333 (IQ from HLE 12 on the anchors), gpqa 119, aime 112 (ai-iq.yaml)
        "- **AI IQ** (index:ai-iq): entered initech/eta 114.417 (rank 5); 2 other rows only shifted rank",
        "- **AIME 2025** (benchmark:aime-2025): entered initech/eta 70 (rank 5); 2 other rows only shifted rank"]
    assert lines[13] == ("- **GPQA Diamond** (benchmark:gpqa-diamond): entered initech/eta 70 (rank 3); "
                         "3 other rows only shifted rank")
    assert len(lines) <= 25


def test_report_of_a_one_value_correction_says_corrected_value_in_at_most_25_lines(changes):
    root, shas = changes
    lines = markdown(root, shas["new-model"], shas["correction"])
    assert lines[2:10] == [
        "**What changed**", "",
        "- corrected value: acme/beta aime-2025 60 → 61 (epoch)",
        "", "**What it moves**", "",
        "- **AI IQ** (index:ai-iq): changed value: acme/beta 110.75 → 110.95 "
        "(aime-2025: corrected value 109 → 109.4 (score 60 → 61))",
        "- **AIME 2025** (benchmark:aime-2025): changed value: acme/beta 60 → 61 (aime-2025: corrected value 60 → 61)"]
    assert len(lines) <= 25
    text = "\n".join(lines)
    assert "imputation" not in text and "()" not in text and "| — | — |" not in text


def test_report_of_a_correction_that_moves_a_composites_ranks_gives_each_move_its_reason(changes):
    root, shas = changes
    lines = markdown(root, shas["correction"], shas["composite"])
    assert lines[2:7] == ["**What changed**", "", "- corrected value: acme/gamma gpqa-diamond 90 → 60 (epoch)", "",
                          "**What it moves**"]
    # gamma's own correction first, then its HLE, imputed from its own results (capped by the P80 of HLE)
    assert lines[8] == (
        "- **AI IQ** (index:ai-iq): changed value: acme/gamma 127.25 → 118.167, rank 2 → 3 "
        "(gpqa-diamond: corrected value 131 → 112.333 (score 90 → 60); hle: imputed 130 → 112.333 "
        "(imputation inputs changed, P80 of hle 130)); 1 value moved with other models' results (imputation reach); "
        "1 other row only shifted rank")
    assert lines[9] == ("- **GPQA Diamond** (benchmark:gpqa-diamond): changed value: acme/gamma 90 → 60, rank 1 → 4 "
                        "(gpqa-diamond: corrected value 90 → 60); 3 other rows only shifted rank")
    # epsilon's imputed GPQA follows the P80 of GPQA, which gamma's correction lowered: imputation reach
    assert ("| acme/epsilon | 118.5 → 117.917 | 4 | gpqa-diamond: imputed 120 → 117.667 (imputation reach: other "
            "models changed, P80 of gpqa-diamond 123 → 117.667) |") in lines
    assert len(lines) <= 25


def test_a_retrieval_date_alone_is_not_a_change_of_results(changes):
    root, shas = changes
    d = run_json(root, shas["composite"], shas["refetch"])
    assert d["results"] == {"added": [], "changed": [], "removed": []}
    assert d["summary"]["results_retrieval_only"] == 3 and d["boards"] == {}
    assert markdown(root, shas["composite"], shas["refetch"])[2:5] == [
        "No change to the data, the methodology or any published board.", "",
        "- 3 results fetched again with the same value (retrieval date only): not a change of results"]


def _state(rows, results):
    return diff.State(boards={"hle": {"name": "HLE accuracy", "kind": "hle", "benchmark": "hle", "rows": rows}},
                      benchmark_boards={}, results=results, models=("xai/grok-2",), methodology={})


def _hle_result(value):
    return {"model": "xai/grok-2", "benchmark": "hle", "metric": None, "subset": None, "harness": None,
            "source": "hle-paper", "value": value, "retrieved": "2026-11-22", "url": "https://arxiv.org/abs/2501.14249"}


def test_a_correction_on_a_board_without_components_is_a_corrected_value_not_imputation():
    # Grok 2's HLE 3.0 -> 3.9: the HLE index's rows carry no components, so the engine gives no reason; the
    # report computes it from the results (it used to fall back to "moved with other models' results").
    old = _state([{"model": "xai/grok-2", "value": 3.0, "rank": 29, "status": "published", "components": []}],
                 [_hle_result(3.0)])
    new = _state([{"model": "xai/grok-2", "value": 3.9, "rank": 29, "status": "published", "components": []}],
                 [_hle_result(3.9)])
    d = diff.diff(old, new)
    (entry,) = d["boards"]["index:hle"]["moved"]
    assert [(r["kind"], r["component"], r["old"], r["new"]) for r in entry["reasons"]] == \
        [("observed-changed", "hle", 3.0, 3.9)]
    (line,) = pr_comment.headline(d["boards"])
    assert line == ("- **HLE accuracy** (index:hle): changed value: xai/grok-2 3 → 3.9 "
                    "(hle: corrected value 3 → 3.9 (hle-paper))")


def test_unranked_rows_and_empty_reasons_never_print_and_no_empty_parentheses():
    moved = [{"model": "a/unranked", "changed": ["status"], "old": {"value": None, "rank": None},
              "new": {"value": None, "rank": None}, "reasons": [{"kind": "status-changed", "component": "x",
                                                                  "old_how": "absent", "new_how": "excluded"}]},
             {"model": "a/silent", "changed": ["value"], "old": {"value": 1.0, "rank": 3},
              "new": {"value": 2.0, "rank": 3}, "reasons": []}]
    d = {"boards": {"index:x": {"name": "X", "group": "index", "status": "changed", "entered": [], "left": [],
                                "moved": moved, "rank_shifts": 0}},
         "results": {"added": [], "changed": [], "removed": []}, "methodology": [], "summary": {}}
    text = pr_comment.render(d)
    assert "a/unranked" not in text and "a/silent" not in text and "| — | — |" not in text
    # the board's line says no published value or rank changed, and counts the rows left unlisted
    assert pr_comment.headline(d["boards"]) == [
        "- **X** (index:x): no published value or rank changed (2 rows not listed: no value, rank or reason to show)"]
    assert pr_comment.describe_reason({"kind": "new-observed", "component": "hle", "new": 5, "result": True}) == \
        "hle: new result 5"   # no source: no "()"


def test_the_cut_drops_the_long_tail_never_the_lead():
    changed = [{"model": f"m/{i:03}", "benchmark": "hle", "metric": "", "subset": "", "harness": "", "source": "s",
                "fields": ["value"], "old": {"value": i, "retrieved": "2026-01-01"},
                "new": {"value": i + 1, "retrieved": "2026-01-01"}} for i in range(300)]
    d = {"boards": {}, "methodology": [], "results": {"added": [], "changed": changed, "removed": []},
         "summary": {"results_changed": 300, "results_retrieval_only": 295}}
    lines = pr_comment.render(d, max_lines=40).splitlines()
    assert len(lines) <= 40
    assert lines[2:4] == ["**What changed**", ""] and lines[4] == "- corrected value: m/000 hle 0 → 1 (s)"
    assert "- and 290 more result changes (under Results)" in lines
    assert "- 295 results fetched again with the same value (retrieval date only): not a change of results" in lines
    assert lines[-1].startswith("… ") and "more lines cut" in lines[-1]


def test_a_self_reported_result_is_said_so_in_the_lead():
    base = {"model": "a/x", "benchmark": "hle", "metric": None, "subset": None, "harness": None, "source": "card",
            "value": 5.0, "retrieved": "2026-01-01", "url": "https://example.org/card", "self_reported": True}
    results, same = diff.diff_results([], [base])
    assert same == 0 and results["added"][0]["self_reported"] is True
    d = {"boards": {}, "methodology": [], "results": results, "summary": {}}
    assert "- new result: a/x hle 5 (card, self-reported)" in pr_comment.render(d).splitlines()


def test_the_report_lists_only_the_warnings_the_change_brings():
    """A warning main already has is not the change's, even in a file it touches or after a result added above it
    shifted its index; a second copy of the same warning in that file is new, and is the one at the new field."""
    from sitegen.problems import ERROR, WARNING, Problem

    def warn(path, line, field, message, hint="h"):
        return Problem(path, line, 12, field, message, hint, WARNING)

    old = warn("scores/imported/epoch.yaml", 10, "results[3].value", "0.4 looks like a fraction")
    base = [old, warn("scores/models/a/b.yaml", 6, "results[0].value", "a/b quiz: x gives 80, y gives 60"),
            Problem("scores/models/a/c.yaml", 1, 1, "id", "an error on the base", "", ERROR)]
    shifted = warn("scores/imported/epoch.yaml", 16, "results[4].value", "0.4 looks like a fraction")
    again = warn("scores/imported/epoch.yaml", 30, "results[9].value", "0.4 looks like a fraction")
    elsewhere = warn("scores/models/a/b.yaml", 6, "results[0].value", "a/b quiz: x gives 80, y gives 50")
    assert diff.new_warnings([shifted], base) == []
    assert diff.new_warnings([shifted, again], base) == [again]  # neither field is the base's: the first is the old one
    assert diff.new_warnings([old, again], base) == [again]  # the base's own field is the old one
    assert diff.new_warnings([old, elsewhere], base) == [elsewhere]  # a changed value: a new disagreement
    assert diff.new_warnings([Problem("x.yaml", 1, 1, "f", "an error", "", ERROR)], []) == []
    assert diff.new_warnings([old], []) == [old]


def test_a_whole_file_problem_names_the_path_alone_in_the_comment():
    from sitegen.problems import Problem

    whole = {"path": "scores/models/acme/x.yml", "line": 0, "col": 0, "field": "", "message": "does not end in .yaml",
             "hint": "rename it", "severity": "error"}
    placed = {**whole, "line": 3, "col": 5, "field": "name"}
    assert pr_comment._problem(whole) == "- scores/models/acme/x.yml: (file): does not end in .yaml (rename it)"
    assert pr_comment._problem(placed) == "- scores/models/acme/x.yml:3:5: name: does not end in .yaml (rename it)"
    assert Problem("a.yaml", 0, 0, "", "m", "h").format() == "a.yaml: (file): m (h)"
    assert Problem("", 0, 0, "value", "'x' is not a number", "").format() == "value: 'x' is not a number"


def test_the_diff_computes_the_boards_alone_and_they_are_the_builds(tmp_path):
    """load_state skips the as-of views and the API files (build.compute(boards_only=True)), which take most of a
    compute and which the State never holds; the boards it compares are the build's, to the byte."""
    from sitegen.build import compute
    from sitegen.data import validate_repo

    root = tmp_path / "data"
    root.mkdir()
    base_tree(root)
    repo, _ = validate_repo(root)
    full, alone = compute(repo), compute(repo, boards_only=True)
    assert full.as_of["boards"] and full.api_files and (alone.as_of, alone.api_files) == ({}, {})
    assert sorted(full.boards) == sorted(alone.boards) == ["ai-iq"] and alone.benchmark_boards
    state, _ = diff.load_state(root)
    for got in (alone, state):
        assert diff.to_json(got.boards) == diff.to_json(full.boards)
        assert diff.to_json(got.benchmark_boards) == diff.to_json(full.benchmark_boards)


def test_a_source_a_change_brings_or_empties_is_named_in_the_lead():
    old_result = {**_hle_result(3.0)}
    card = {**_hle_result(4.0), "model": "xai/grok-3", "source": "xai-card", "self_reported": True}
    old = diff.State(boards={}, benchmark_boards={}, results=[old_result], models=("xai/grok-2",), methodology={})
    new = diff.State(boards={}, benchmark_boards={}, results=[card], models=("xai/grok-2",), methodology={})
    d = diff.diff(old, new)
    assert (d["summary"]["sources_added"], d["summary"]["sources_removed"]) == (["xai-card"], ["hle-paper"])
    lines = pr_comment.render(d).splitlines()
    assert lines[2:7] == ["**What changed**", "", "- new source (its first results): xai-card",
                          "- source with no results left: hle-paper",
                          "- new result: xai/grok-3 hle 4 (xai-card, self-reported)"]
    same = diff.diff(old, old)["summary"]
    assert (same["sources_added"], same["sources_removed"]) == ([], [])


# ---------------------------------------------------------------- the compute cache (build.compute, load_state)


@pytest.fixture
def computes(monkeypatch):
    """Every computation of boards from here on (build._compute, which the cache skips), by boards_only."""
    from sitegen import build

    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    made: list[bool] = []
    real = build._compute

    def counted(repo, boards_only=False):
        made.append(boards_only)
        return real(repo, boards_only)

    monkeypatch.setattr(build, "_compute", counted)
    return made


def cached_repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository (its cache git-ignored, as sitegen init writes it) with a base and a one-value change."""
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    (root / ".gitignore").write_text("/.sitegen-cache/\n/site/\n", encoding="utf-8")
    base = commit(root, "Base")
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "gpqa-diamond": 70})
    return root, base, commit(root, "beta: GPQA Diamond 65 -> 70")


def cache_entries(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in (root / ".sitegen-cache").rglob("*.pickle")}


def test_a_second_diff_of_the_same_refs_loads_both_sides_from_the_cache_and_says_the_same(tmp_path, computes):
    root, base, head = cached_repo(tmp_path)
    first = run_json(root, base, head)
    assert computes == [True, True] and moved(first, "benchmark:gpqa-diamond", "acme/beta")["new"]["value"] == 70
    assert {e.split("/")[1] for e in cache_entries(root)} == {"compute", "blocks"}  # parses are loaded, not kept (a build keeps them)
    # each side is materialised into a new temporary folder: its entries are keyed by its content, not its path
    assert run_json(root, base, head) == first and computes == [True, True]
    assert run_json(root, base, head) == first and computes == [True, True]
    # a diff of another change against the same base computes the new head alone
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "gpqa-diamond": 75})
    other = commit(root, "beta: GPQA Diamond 65 -> 75")
    assert moved(run_json(root, base, other), "benchmark:gpqa-diamond", "acme/beta")["new"]["value"] == 75
    assert computes == [True, True, True]
    # the working tree as head: the same tree as `other`, and its cache is not a change of the tree
    rep, _ = diff.report(root, base, None)
    assert rep["changed_files"] == ["scores/models/acme/beta.yaml"] and rep["diff"]["results"]["changed"]
    assert computes == [True, True, True]  # the working tree's data is `other`'s: loaded


def test_no_cache_and_sitegen_cache_off_compute_both_sides_afresh_and_keep_nothing(tmp_path, computes, monkeypatch):
    root, base, head = cached_repo(tmp_path)
    first = run_json(root, base, head)
    kept = cache_entries(root)
    result = CliRunner().invoke(diff_command, [base, head, "--root", str(root), "--format", "json", "--no-cache"])
    assert result.exit_code == 0 and json.loads(result.stdout) == first
    assert computes == [True] * 4
    monkeypatch.setenv("SITEGEN_CACHE", "off")
    assert run_json(root, base, head) == first and computes == [True] * 6
    assert cache_entries(root) == kept


def test_a_diff_finds_the_builds_entries_and_removes_none_of_them(tmp_path, computes, monkeypatch):
    """CI's cache holds the base commit's build: the diff loads the base's boards from its entries (today's
    boards and each simulated board, by the rows they read), adds its own and removes nothing the build keeps."""
    from sitegen import build
    from sitegen.build.simcache import FileStore
    from sitegen.problems import ERROR

    root, base, head = cached_repo(tmp_path)
    git(root, "checkout", "-q", base)
    assert not [p for p in build.run(root, root / "site").problems if p.severity == ERROR]
    assert computes == [False]
    built = cache_entries(root)
    git(root, "checkout", "-q", "main")
    found: list[str] = []
    get = FileStore.get

    def spy(self, key):
        data = get(self, key)
        if data is not None:
            found.append(f"{self.folder.name}/{self._path(key).name}")  # the entry's file (named by salt and key)
        return data

    monkeypatch.setattr(FileStore, "get", spy)
    d = run_json(root, base, head)
    assert moved(d, "benchmark:gpqa-diamond", "acme/beta")["new"]["value"] == 70
    assert cache_entries(root) >= built  # nothing the build keeps was removed
    blocks = {e.split("/", 1)[1] for e in built if e.startswith(".sitegen-cache/blocks/")}
    # the base's boards came from the build's entries: AI IQ's today, and the GPQA and AIME boards' intervals
    assert len(blocks & set(found)) >= 3
    assert computes == [False, True, True]  # the base's boards alone, not the build's whole computation


def test_the_cache_folder_is_not_a_changed_file_even_where_git_does_not_ignore_it(tmp_path, computes, monkeypatch):
    root = tmp_path / "data"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    base_tree(root)
    base = commit(root, "Base")  # no .gitignore: the cache folders are untracked files to git
    write_model(root, "acme/beta", {**MODELS["acme/beta"], "aime-2025": 61})
    (root / "notes.txt").write_text("an untracked file is a change\n", encoding="utf-8")
    for where in (None, root / "elsewhere"):
        if where is not None:
            monkeypatch.setenv("SITEGEN_CACHE", str(where))
        rep, _ = diff.report(root, base, None)
        rep, _ = diff.report(root, base, None)  # now with the cache's entries there
        assert (where or root / ".sitegen-cache").is_dir()
        assert rep["changed_files"] == ["notes.txt", "scores/models/acme/beta.yaml"]
    assert computes == [True] * 4  # in each folder both sides computed once, then loaded
