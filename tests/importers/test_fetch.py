"""`sitegen fetch` against a local HTTP server on 127.0.0.1 (no network): the current captures come back byte for
byte, and a truncated download, a changed format, a 404, a changed licence note or a shrunken source each fail with
the file's name and leave the existing capture untouched."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.importers import fetch as fetchers
from sitegen.importers import imported_count, planned

from fetch_server import local_path, serve, upstream_tree

REPO = Path(__file__).resolve().parents[2]
FAMILIES = ["aa-api", "aa-leaderboard", "aa-tokens", "arc-prize", "critpt", "epoch", "eq-bench", "lmarena",
            "pedagogy-models", "swe-bench"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the repository's data (scores/, methodology/, downloads/) to fetch into."""
    root = tmp_path_factory.mktemp("repo")
    for folder in ("scores", "methodology", "downloads"):
        shutil.copytree(REPO / folder, root / folder)
    return root


@pytest.fixture
def root(tree, tmp_path):
    copy = tmp_path / "root"
    shutil.copytree(tree, copy)
    return copy


@pytest.fixture
def upstream(root, tmp_path):
    return upstream_tree(root, tmp_path / "upstream")


def snapshot(root: Path) -> dict[str, str]:
    """Every file under downloads/ and scores/ by hash: what 'untouched' is checked against."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in ("downloads", "scores") for p in sorted((root / folder).rglob("*")) if p.is_file()}


def fetch(root: Path, *args: str, env: dict | None = None):
    return CliRunner().invoke(main, ["fetch", *args, "--root", str(root), "--timeout", "5"],
                              env={"AA_API_KEY": "test-key", **(env or {})})


def refused(root: Path, upstream: Path, source: str, faults: dict | None = None) -> str:
    """Fetches SOURCE, expecting a refusal: exit 1, no traceback, nothing under downloads/ or scores/ changed."""
    before = snapshot(root)
    with serve(upstream, faults) as base:
        done = fetch(root, source, "--base-url", base)
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output and isinstance(done.exception, SystemExit)
    assert snapshot(root) == before
    return done.output


def url_of(root: Path, name: str) -> str:
    for plan in fetchers.plans(root).values():
        for f in plan.files:
            if f["name"] == name:
                return f["url"]
    raise KeyError(name)


def test_every_fetchable_source_has_a_fetcher_and_a_url():
    assert sorted(fetchers.plans(REPO)) == FAMILIES == sorted(fetchers.FETCHERS)


def test_fetch_all_reproduces_the_captures_byte_for_byte(root, upstream):
    before = snapshot(root)
    with serve(upstream) as base:
        done = fetch(root, "--all", "--base-url", base)
    assert done.exit_code == 0, done.output
    assert done.output.count(": unchanged (") == len(FAMILIES), done.output
    assert snapshot(root) == before


def test_the_fetchers_really_rebuild_each_capture(root, upstream):
    """Each fetcher's own output (before any comparison with the capture) is the capture, byte for byte."""
    fetched = {}
    with serve(upstream) as base:
        remote = fetchers.Remote(base, 5)
        for fam, plan in fetchers.plans(root).items():
            got = fetchers.FETCHERS[fam](plan, remote) if fam != "aa-api" else fetchers.fetch_files(
                plan, remote, {"x-api-key": "k"})
            for f in plan.files:
                fetched[f["name"]] = got[f["name"]]
    with_url = {f["name"] for s in yaml.safe_load((REPO / "scores/sources.yaml").read_text(encoding="utf-8"))["sources"]
                for f in s.get("files") or [] if f.get("url")}
    assert len(fetched) == 21 and set(fetched) == with_url  # every file with a url in scores/sources.yaml
    for name, data in fetched.items():
        assert data == (REPO / "downloads" / name).read_bytes(), name


def test_the_aa_api_is_skipped_without_a_key_and_sends_it_as_a_header(root, upstream):
    with serve(upstream) as base:
        skipped = fetch(root, "--all", "--base-url", base, env={"AA_API_KEY": ""})
        assert skipped.exit_code == 0, skipped.output
        assert "aa-api-2026-07: skipped (set AA_API_KEY" in skipped.output
        alone = fetch(root, "aa-api", "--base-url", base, env={"AA_API_KEY": ""})
        assert alone.exit_code == 1 and "skipped" in alone.output


def truncate_or_404(upstream: Path, url: str, fault: str) -> dict:
    path = "/" + str(local_path(upstream, url).relative_to(upstream))
    if fault == "404":
        local_path(upstream, url).unlink()
        return {}
    return {path: fault}


@pytest.mark.parametrize("source, name, fault, expected", [
    ("lmarena", "lmarena/scatterplot-data.json", "404", "HTTP 404"),
    ("arc-prize", "arc-prize/models.json", "truncate", "truncated download"),
    ("epoch", "epoch-ai-benchmarking-hub/gpqa_diamond.csv", "truncate", "truncated download"),
])
def test_a_404_or_a_truncated_download_fails_and_writes_nothing(root, upstream, source, name, fault, expected):
    url = url_of(root, name)
    output = refused(root, upstream, source, truncate_or_404(upstream, url, fault))
    assert f"{url}: {expected}" in output, output


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CHANGES = {
    # a CSV loses a column the capture has
    "pedagogy-models": (lambda up, root: _rewrite(local_path(up, url_of(root, "pedagogy-benchmark/models.csv")),
                                                   "model", "model_id"), "pedagogy-benchmark/models.csv: format changed"),
    # JSON of another shape: the importer cannot read it
    "arc-prize": (lambda up, root: local_path(up, url_of(root, "arc-prize/evaluations.json")).write_text(
        json.dumps({"data": {"rows": list(range(100))}, "version": 2}), encoding="utf-8"),
        "arc-prize/evaluations.json, arc-prize/models.json: format changed"),
    # the script no longer holds the CSV string
    "eq-bench": (lambda up, root: _rewrite(local_path(up, url_of(root, "eq-bench/eqbench3_leaderboard.csv")),
                                           "leaderboardDataEQBench3 =", "leaderboardData ="),
                 "eqbench3.js: format changed: no leaderboardDataEQBench3"),
    # the README table gained a column
    "critpt": (lambda up, root: _rewrite(local_path(up, url_of(root, "critpt/critpt_readme_leaderboard.csv")),
                                         "| Challenge Accuracy¹ |", "| Challenge Accuracy¹ | Runs |"),
               "README.md: format changed: the table's columns are"),
    # leaderboards.json restructured
    "swe-bench": (lambda up, root: local_path(up, url_of(root, "swe-bench/swebench_leaderboards_2025-12-10.csv"))
                  .write_text(json.dumps({"boards": []}) + " " * 100, encoding="utf-8"),
                  "leaderboards.json: format changed"),
    # JSON cut short without a Content-Length to notice it
    "lmarena": (lambda up, root: local_path(up, url_of(root, "lmarena/scatterplot-data.json")).write_bytes(
        (root / "downloads/lmarena/scatterplot-data.json").read_bytes()[:5000]),
        "lmarena/scatterplot-data.json: format changed or truncated: not JSON"),
}


@pytest.mark.parametrize("source", sorted(CHANGES))
def test_a_changed_format_fails_with_the_file_and_writes_nothing(root, upstream, source):
    change, message = CHANGES[source]
    change(upstream, root)
    output = refused(root, upstream, source)
    assert message in output, output


def edit_epoch_zip(upstream: Path, member: str, old: bytes, new: bytes) -> None:
    archive = local_path(upstream, "https://epoch.ai/data/benchmark_data.zip")
    with zipfile.ZipFile(archive) as z:
        members = {n: z.read(n) for n in z.namelist()}
    assert old in members[f"benchmark_data/{member}"]
    members[f"benchmark_data/{member}"] = members[f"benchmark_data/{member}"].replace(old, new)
    with zipfile.ZipFile(archive, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)


def test_a_changed_licence_note_is_refused(root, upstream):
    edit_epoch_zip(upstream, "README.md", b"Commons Attribution license", b"Commons Attribution-NonCommercial license")
    output = refused(root, upstream, "epoch")
    assert "epoch-ai-benchmarking-hub/README.md: the publisher's licence note changed" in output


def test_a_new_citation_year_in_the_licence_note_is_not_a_new_licence(root, upstream):
    edit_epoch_zip(upstream, "README.md", b"year = {2026}", b"year = {2027}")
    with serve(upstream) as base:
        done = fetch(root, "epoch", "--base-url", base)
    assert done.exit_code == 0, done.output
    assert b"year = {2027}" in (root / "downloads/epoch-ai-benchmarking-hub/README.md").read_bytes()


def test_a_shrunken_source_is_refused_unless_allowed(root, upstream):
    script = local_path(upstream, url_of(root, "eq-bench/eqbench3_leaderboard.csv"))
    text = script.read_text(encoding="utf-8")
    head, body = text.split("`", 1)
    rows, tail = body.split("`", 1)
    script.write_text(head + "`" + "\n".join(rows.splitlines()[:11]) + "\n`" + tail, encoding="utf-8")
    before = imported_count(root, "eq-bench")  # what scores/imported/eq-bench.yaml holds now
    assert before > 20
    assert f"eq-bench: the download would shrink the source from {before} to" in refused(root, upstream, "eq-bench")
    with serve(upstream) as base:
        allowed = fetch(root, "eq-bench", "--base-url", base, "--allow-shrink")
    assert allowed.exit_code == 0, allowed.output
    assert len((root / "downloads/eq-bench/eqbench3_leaderboard.csv").read_text().splitlines()) == 11


def test_a_changed_download_is_written_and_recorded(root, upstream):
    script = local_path(upstream, url_of(root, "eq-bench/eqbench3_leaderboard.csv"))
    _rewrite(script, "o3,1500.0,", "o3,1501.5,")
    commits = upstream / "api.github.com/repos/EQ-bench/EQ-bench-site/commits"
    commits.parent.mkdir(parents=True)
    commits.write_text(json.dumps([{"sha": "ab" * 20}]), encoding="utf-8")
    with serve(upstream) as base:
        done = fetch(root, "eq-bench", "--base-url", base)
    assert done.exit_code == 0, done.output
    assert "eq-bench: updated" in done.output
    capture = root / "downloads/eq-bench/eqbench3_leaderboard.csv"
    assert "\no3,1501.5," in capture.read_text(encoding="utf-8")
    entry = next(s for s in yaml.safe_load((root / "scores/sources.yaml").read_text())["sources"] if s["id"] == "eq-bench")
    (f,) = entry["files"]
    assert f["sha256"] == hashlib.sha256(capture.read_bytes()).hexdigest()
    assert f["commit"] == "ab" * 20 and entry["retrieved"] != "2026-07-31"
    assert f["repository"] == "EQ-bench/EQ-bench-site"


def test_a_changed_snapshot_becomes_a_new_source_and_the_old_one_stays(root, upstream):
    name = "artificial-analysis/aa_site_scrape_tokens_cost_2026-07-08.csv"
    path = local_path(upstream, url_of(root, name))
    path.write_bytes(path.read_bytes() + path.read_bytes().splitlines(keepends=True)[-1])  # a duplicated row
    before = snapshot(root)
    with serve(upstream) as base:
        done = fetch(root, "aa-tokens", "--base-url", base)
    assert done.exit_code == 0, done.output
    new_id = done.output.split(":")[0]
    assert new_id.startswith("aa-tokens-") and new_id != "aa-tokens-2026-07"
    after = snapshot(root)
    published = [k for k in before if k != "scores/sources.yaml"]
    assert [after[k] for k in published] == [before[k] for k in published]   # nothing published changed
    sources = {s["id"]: s for s in yaml.safe_load((root / "scores/sources.yaml").read_text())["sources"]}
    old, new = sources["aa-tokens-2026-07"], sources[new_id]
    assert old["files"][0]["sha256"] == "e01ab2aceec933d0ef7ab2bfe994fe400b0b2af75899aade49813d3062c2958c"
    assert "url" not in old["files"][0] and new["files"][0]["url"] == url_of(root, new["files"][0]["name"])
    assert (root / "downloads" / new["files"][0]["name"]).read_bytes() == path.read_bytes()
    assert [p.source for p in planned(root, root / "downloads")].count(new_id) == 1
    assert fetchers.plans(root)["aa-tokens"].id == new_id
    imported = CliRunner().invoke(main, ["import", "--all", "--root", str(root)])
    assert imported.exit_code == 0, imported.output
    assert (root / f"scores/imported/{new_id}.yaml").is_file()
    valid = CliRunner().invoke(main, ["validate", "--root", str(root)])
    assert valid.exit_code == 0, valid.output


def test_a_file_name_leading_out_of_downloads_is_refused(root, upstream):
    sources = root / "scores/sources.yaml"
    sources.write_text(sources.read_text(encoding="utf-8").replace(
        "{name: pedagogy-benchmark/models.csv,", "{name: ../models.csv,"), encoding="utf-8")
    output = refused(root, upstream, "pedagogy-models")
    assert "scores/sources.yaml: ../models.csv: a file name must stay inside downloads/" in output


def test_nothing_but_sitegen_fetch_loads_the_fetchers():
    """The build, validate and import paths never reach the network: they do not even import the fetchers."""
    import subprocess
    import sys

    code = ("import sys, sitegen.cli, sitegen.build, sitegen.importers; "
            "sys.exit('sitegen.importers.fetch' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == 0


# --------------------------------------------------------------------------- a client that trusts no server (#31)


def server_path(upstream: Path, url: str) -> str:
    return "/" + local_path(upstream, url).relative_to(upstream).as_posix()


AA_API_FILE = "https://artificialanalysis.ai/api/v2/data/llms/models"


def test_a_cross_host_redirect_is_refused_and_the_key_never_leaves_its_host(root, upstream, tmp_path):
    """The API answers with a redirect to another host: nothing is fetched from it, and it never sees the key."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "mirror").mkdir(parents=True)
    (elsewhere / "mirror/models.json").write_bytes(local_path(upstream, AA_API_FILE).read_bytes())
    with serve(elsewhere) as other:
        before = snapshot(root)
        with serve(upstream, {server_path(upstream, AA_API_FILE): f"redirect {other}/mirror/models.json"}) as base:
            done = fetch(root, "aa-api", "--base-url", base)
        assert done.exit_code == 1, done.output
        host = other.split("//", 1)[1]
        assert f"{AA_API_FILE}: redirected to another host ({host}); refused" in done.output, done.output
        assert snapshot(root) == before
        assert requests_of(other) == []


def test_a_redirect_to_a_host_the_source_lists_is_followed_without_the_key(root, upstream, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "mirror").mkdir(parents=True)
    (elsewhere / "mirror/models.json").write_bytes(local_path(upstream, AA_API_FILE).read_bytes())
    with serve(elsewhere) as other:
        host = other.split("//", 1)[1]
        sources = root / "scores/sources.yaml"
        _rewrite(sources, "  - id: aa-api-2026-07\n", f"  - id: aa-api-2026-07\n    redirect_hosts: [\"{host}\"]\n")
        with serve(upstream, {server_path(upstream, AA_API_FILE): f"redirect {other}/mirror/models.json"}) as base:
            done = fetch(root, "aa-api", "--base-url", base)
        assert done.exit_code == 0, done.output
        assert "aa-api-2026-07: unchanged" in done.output
        seen = requests_of(other)
        assert [path for path, _ in seen] == ["/mirror/models.json"]
        assert not any(k.lower() == "x-api-key" for _, headers in seen for k in headers)


def requests_of(base: str) -> list:
    """The requests the server at `base` received (fetch_server records them per server)."""
    from fetch_server import received
    return received(base)


def test_a_slow_server_cannot_hold_a_download_past_its_deadline(root, upstream):
    """A byte every 0.2 s never trips a per-read timeout; the download's total deadline (--timeout 1) does."""
    import time

    url = url_of(root, "arc-prize/models.json")
    assert len(local_path(upstream, url).read_bytes()) > 300
    before = snapshot(root)
    with serve(upstream, {server_path(upstream, url): "trickle"}) as base:
        start = time.monotonic()
        done = CliRunner().invoke(main, ["fetch", "arc-prize", "--root", str(root), "--timeout", "1",
                                         "--base-url", base])
        elapsed = time.monotonic() - start
    assert done.exit_code == 1, done.output
    assert f"{url}: took longer than 1 s; gave up" in done.output, done.output
    assert elapsed < 30, elapsed  # the server would take 60 s; a busy machine may add seconds to the 1 s
    assert snapshot(root) == before


def _lying_zip(path: Path, member: str, size: int, claimed: int | None) -> None:
    """A zip whose `member` unpacks to `size` zero bytes while its headers claim `claimed` (None: the truth)."""
    import struct

    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in members.items():
            if n != member:
                z.writestr(n, data)
        with z.open(member, "w", force_zip64=False) as out:
            chunk = bytes(1 << 20)
            for _ in range(size >> 20):
                out.write(chunk)
    if claimed is None:
        return
    blob = bytearray(path.read_bytes())
    name = member.encode()
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while True:
            at = blob.find(signature, start)
            if at < 0:
                break
            start = at + 4
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if blob[name_at:name_at + len(name)] == name:
                struct.pack_into("<I", blob, at + offset, claimed)
    path.write_bytes(bytes(blob))


@pytest.mark.parametrize("size, claimed, expected", [
    # the header says 4000 bytes: the member is read in chunks and stops at the lie
    (96 << 20, 4000, "benchmark_data/gpqa_diamond.csv does not unpack to the 4000 bytes its header says"),
    # the header tells the truth: 48 MiB from about 50 KB is more than MAX_RATIO times its packed size
    (48 << 20, None, "benchmark_data/gpqa_diamond.csv would unpack to 50331648 bytes, more than 100 times"),
])
def test_a_zip_bomb_is_refused_before_it_fills_memory(root, upstream, size, claimed, expected):
    """A 2.1 MB zip whose header lied pushed memory to 2 GB: members are read in chunks, within a ratio and a cap."""
    import tracemalloc

    archive = local_path(upstream, "https://epoch.ai/data/benchmark_data.zip")
    _lying_zip(archive, "benchmark_data/gpqa_diamond.csv", size, claimed)
    assert archive.stat().st_size < 1 << 20
    before = snapshot(root)
    with serve(upstream) as base:
        tracemalloc.start()
        try:
            done = fetch(root, "epoch", "--base-url", base)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 24 << 20, (peak, done.output)
    assert done.exit_code == 1, done.output
    assert expected in done.output, done.output
    assert snapshot(root) == before


def test_a_csv_cut_mid_row_without_a_content_length_is_refused(root, upstream):
    url = url_of(root, "pedagogy-benchmark/models.csv")
    path = local_path(upstream, url)
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n")
    path.write_bytes(data[: last + (len(data) - last) // 2])  # the last row cut in its middle
    output = refused(root, upstream, "pedagogy-models", {server_path(upstream, url): "no-length"})
    assert "pedagogy-benchmark/models.csv: truncated: the last row has" in output, output


def test_a_source_without_result_rows_cannot_collapse(root, upstream):
    """pedagogy-models gives models, not results: 12 of its 127 lines must not pass as a new capture."""
    url = url_of(root, "pedagogy-benchmark/models.csv")
    path = local_path(upstream, url)
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:12]))
    output = refused(root, upstream, "pedagogy-models")
    assert "pedagogy-models: the download would shrink the source from" in output, output
    assert "pedagogy-benchmark/models.csv: 11 rows where the capture has 126" in output, output


def test_a_second_licence_section_appended_to_the_note_is_refused(root, upstream):
    archive = local_path(upstream, "https://epoch.ai/data/benchmark_data.zip")
    with zipfile.ZipFile(archive) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members["benchmark_data/README.md"] += b"\n## Additional terms\n\nLicense: non-commercial use only.\n"
    with zipfile.ZipFile(archive, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)
    output = refused(root, upstream, "epoch")
    assert "epoch-ai-benchmarking-hub/README.md: the publisher's licence note changed" in output, output


def test_unchanged_only_when_the_file_on_disk_matches_its_recorded_hash(root, upstream):
    capture = root / "downloads/eq-bench/eqbench3_leaderboard.csv"
    good = capture.read_bytes()
    capture.write_bytes(good.replace(b"o3,1500.0,", b"o3,1999.0,", 1))
    with serve(upstream) as base:
        done = fetch(root, "eq-bench", "--base-url", base)
    assert done.exit_code == 0, done.output
    assert "unchanged" not in done.output, done.output
    assert "eq-bench: restored (downloads/eq-bench/eqbench3_leaderboard.csv differed from its recorded sha256" \
        in done.output, done.output
    assert capture.read_bytes() == good


def test_a_json_file_that_loses_its_entries_is_refused_even_when_the_results_hold(root, upstream):
    """arc-prize/models.json describes the models; 10 of its 184 entries must not pass because the scores
    (evaluations.json) are intact."""
    url = url_of(root, "arc-prize/models.json")
    path = local_path(upstream, url)
    path.write_text(json.dumps(json.loads(path.read_bytes())[:10], indent=2), encoding="utf-8")
    output = refused(root, upstream, "arc-prize")
    assert "arc-prize/models.json: 10 entries where the capture has 184" in output, output


def test_a_redirect_on_the_same_host_is_followed_by_hand_and_keeps_the_key(root, upstream):
    """The API moved its file to another path on its own host: followed, and the key still goes with it."""
    moved = local_path(upstream, AA_API_FILE).with_name("models-v3")
    moved.write_bytes(local_path(upstream, AA_API_FILE).read_bytes())
    target = server_path(upstream, AA_API_FILE).rsplit("/", 1)[0] + "/models-v3"
    with serve(upstream, {server_path(upstream, AA_API_FILE): f"redirect {target}"}) as base:
        done = fetch(root, "aa-api", "--base-url", base)
        seen = requests_of(base)
    assert done.exit_code == 0, done.output
    assert "aa-api-2026-07: unchanged" in done.output
    assert [p for p, h in seen if p == target and h.get("x-api-key") == "test-key"] == [target]


@pytest.mark.parametrize("fault", ["", "no-length"])
def test_a_body_past_the_size_limit_is_refused_while_it_streams(root, upstream, monkeypatch, fault):
    """MAX_BYTES holds with a Content-Length (refused before the body is read) and without one (refused at the
    chunk that passes it): the limit is lowered here so that a real capture is over it."""
    url = url_of(root, "arc-prize/evaluations.json")  # the source's first file
    size = len(local_path(upstream, url).read_bytes())
    assert size > 4096
    monkeypatch.setattr(fetchers, "MAX_BYTES", 4096)
    output = refused(root, upstream, "arc-prize", {server_path(upstream, url): fault} if fault else None)
    assert f"{url}: larger than 4096 bytes; not a file this source publishes" in output, output


def test_a_compressed_body_is_refused_not_unpacked(root, upstream):
    """Only plain bodies are read: a server that answers gzip although asked for identity is refused, so no
    decompression happens outside the zip reader's limits."""
    url = url_of(root, "arc-prize/models.json")
    output = refused(root, upstream, "arc-prize", {server_path(upstream, url): "gzip"})
    assert f"{url}: the server sent gzip-encoded data; only plain data is read" in output, output


def test_a_redirect_loop_stops_after_max_redirects(root, upstream):
    url = url_of(root, "arc-prize/models.json")
    path = server_path(upstream, url)
    output = refused(root, upstream, "arc-prize", {path: f"redirect {path}"})
    assert f"{url}: more than {fetchers.MAX_REDIRECTS} redirects; refused" in output, output
