"""Smaller findings of the second red-team pass, each on its own data."""

from __future__ import annotations

from click.testing import CliRunner

from hardkit import make_tree

from sitegen.cli import main
from sitegen.site.links import external_link, safe_url


def test_links_with_credentials_are_not_links():
    assert safe_url("https://arxiv.org@evil.example/abs/1") is None
    assert safe_url("https://user:pw@example.org/") is None
    assert safe_url("https://example.org/a@b") == "https://example.org/a@b"
    assert str(external_link("paper", "https://arxiv.org@evil.example/")) == "paper"


def test_unknown_ids_get_suggestions_only_up_to_a_budget(tmp_path):
    """5,000 unknown ids must not mean 5,000 fuzzy searches: after 50 names the plain hint is given.
    (Time is measured by benchmarks/bench_unknown_ids.py, not here.)"""
    root = make_tree(tmp_path / "repo")
    lines = ["source: paper", 'retrieved: "2025-06-02"', "results:"]
    for i in range(60):
        lines += [f"  - model: acme/alpha-{i:02d}", "    benchmark: hle", "    value: 10"]
    (root / "scores/imported").mkdir()
    (root / "scores/imported/paper.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--root", str(root)], env={"GITHUB_ACTIONS": "false", "CI": ""})
    out = result.output.splitlines()
    assert out[-1] == "60 errors, 0 warnings"
    assert out[0] == ("scores/imported/paper.yaml:4:12: results[0].model: unknown model 'acme/alpha-00' "
                      "(did you mean 'acme/alpha'?)")
    assert out[49].endswith("unknown model 'acme/alpha-49' (did you mean 'acme/alpha'?)")
    assert out[50] == ("scores/imported/paper.yaml:154:12: results[50].model: unknown model 'acme/alpha-50' "
                       "(add a model file under scores/models/)")


def test_notes_and_override_reasons_are_shown_escaped_beside_their_numbers(tmp_path):
    from hardkit import SCORES, dump, model_doc, sitegen

    alpha = model_doc("acme/alpha", SCORES["acme/alpha"], notes="Model <b>note</b> & more")
    alpha["results"][0]["notes"] = "Result note <script>alert(1)</script>"
    root = make_tree(tmp_path / "repo", [alpha] + [model_doc(m, s) for m, s in SCORES.items() if m != "acme/alpha"])
    dump(root / "scores/imported/paper.yaml", {"source": "paper", "retrieved": "2025-06-02", "results": [
        {"model": "acme/alpha", "benchmark": "mmlu-pro", "value": 7.5}]})
    dump(root / "scores/overrides.yaml", {"overrides": [
        {"model": "acme/alpha", "benchmark": "mmlu-pro", "source": "paper", "value": 75,
         "reason": "The board <i>dropped</i> a digit"}]})
    built = sitegen("build", "--root", str(root), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    page = (root / "site/models/acme/alpha/index.html").read_text(encoding="utf-8")
    assert '<p class="lb-notes">Model &lt;b&gt;note&lt;/b&gt; &amp; more</p>' in page
    rows = {row.split("</a></th>")[0].rsplit(">", 1)[-1]: row for row in page.split("<tr>") if "</a></th>" in row}
    assert "<strong>Corrected:</strong> The board &lt;i&gt;dropped&lt;/i&gt; a digit</td>" in rows["MMLU-Pro"]
    assert ">75" in rows["MMLU-Pro"]
    assert "Result note &lt;script&gt;alert(1)&lt;/script&gt;</td>" in rows["Humanity&#39;s Last Exam"]
    assert "<script>alert(1)" not in page and "<i>dropped" not in page


def test_gh_issue_references_in_upstream_text_are_not_links():
    """GitHub links GH-34 to issue 34 as it does #34; a zero-width space after GH stops it (and only there)."""
    from sitegen.history.pr_comment import md_escape

    assert md_escape("fixed upstream in GH-34, see gh-7") == "fixed upstream in GH\u200b-34, see gh\u200b-7"
    assert md_escape("HIGH-3 GH-x ugh-5 #34") == "HIGH-3 GH-x ugh-5 \\#\u200b34"


def test_serve_answers_a_nul_in_the_path_with_its_404_page(tmp_path):
    """`/%00` reached open() with an embedded NUL: a thread traceback and a dropped connection."""
    import functools
    import http.server
    import threading
    import urllib.error
    import urllib.request

    from sitegen.contrib.serve import Handler

    (tmp_path / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    (tmp_path / "404.html").write_text("<html><body>not here</body></html>", encoding="utf-8")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for path in ("/%00", "/index.html%00", "/a%00b/", "/%2500"):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}{path}", timeout=60)
                raise AssertionError(f"{path}: served")
            except urllib.error.HTTPError as answer:
                assert answer.code == 404, path
                assert b"not here" in answer.read(), path
    finally:
        server.shutdown()
        server.server_close()


def test_a_tiny_price_is_shown_in_decimals_not_in_exponent_notation():
    """A price of 1e-300 showed as `$1e-300`, then as `$0.0000`, which reads as free; prices below a cent get up
    to four decimals, and a price above zero below the fourth reads "<$0.0001". Zero is free: "$0.00"."""
    from sitegen.site.render import fmt_price

    assert [fmt_price(v) for v in (1e-300, 5e-7, 0.00004999, 0.00005, 0.00012, 0.075, 1.5, 0, 0.0, None)] == [
        "<$0.0001", "<$0.0001", "<$0.0001", "$0.0001", "$0.0001", "$0.075", "$1.50", "$0.00", "$0.00", "–"]


def test_what_a_killed_build_or_write_leaves_is_git_ignored():
    """`.site.new-*` (and the other folders and files a killed build, export or data write leaves beside its
    target) showed as untracked; the next build removes them, and git ignores them meanwhile."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    left = [".site.new-1a2b", ".site.old-1a2b", ".export.new-x", "scores/imported/.eq-bench.yaml.new-3c4d",
            "downloads/eq-bench/.eqbench3_leaderboard.csv.new-5e"]
    done = subprocess.run(["git", "check-ignore", "--no-index", *left], cwd=root, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.splitlines() == left
    kept = subprocess.run(["git", "check-ignore", "--no-index", "scores/imported/eq-bench.yaml", "site.new.md"],
                          cwd=root, capture_output=True, text=True, timeout=60)
    assert kept.returncode == 1 and kept.stdout == ""
