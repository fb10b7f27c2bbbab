"""Incremental builds (sitegen/reuse.py): after any edit, a build that reuses the previous site's unchanged files is
byte for byte the clean build of the same inputs, record included.

A small tree (hardening/hardkit.make_tree: the real methodology, index definitions and sources, 24 model files
with seeded random scores, the real methodology pages) is built once; then, step after step, seeded random edits
of every kind of input are applied: a result's value (which may move a percentile and so every board), a model's
metadata, a methodology page, an index definition, the sources registry, a model file removed (its page must
disappear) or added, a build setting, the compute cache deleted, the build date, and a template edit (a page
template, a partial or the base: only the pages that use it are rendered again). The same tree as a git
repository, read as `sitegen build` reads it (history.changelog.Record), takes those edits mixed with git's:
commits (some tagged data-*), tags, a commit reworded, checkouts of earlier commits, branches made and switched
to, a checkout with the uncommitted edits carried over, and SOURCE_DATE_EPOCH unset (the shown date is then the
last commit's); and a shallow clone of it is deepened by a fetch. After each step the incremental build in
site/, with the previous site and the compute cache (build/simcache.py) on disk, is compared with a clean build
into another folder with an empty cache.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
from hardkit import ROOT, dump, make_tree, model_doc, snapshot

from sitegen import build, reuse, write
from sitegen.build import simcache, stamp
from sitegen.history.changelog import Record
from sitegen.site import render

BENCHES = ("hle", "gpqa-diamond", "aime-2025", "scicode", "arc-agi-1", "swe-bench-verified", "terminal-bench-2")
EPOCH = 1767225600  # 2026-01-01


def models(rng: random.Random, n: int) -> list[dict]:
    docs = []
    for i in range(n):
        picked = rng.sample(BENCHES, rng.randint(2, len(BENCHES)))
        docs.append(model_doc(f"org{i % 4}/m{i:02d}", {b: round(rng.uniform(2, 95), 1) for b in sorted(picked)}))
    return docs


def model_files(root: Path) -> list[Path]:
    return sorted((root / "scores/models").rglob("*.yaml"))


def edit_result(root: Path, rng: random.Random) -> str:
    path = rng.choice(model_files(root))
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = rng.choice(doc["results"])
    result["value"] = round(min(99.0, max(0.5, result["value"] * rng.uniform(0.5, 1.5))), 1)
    dump(path, doc)
    return f"result {doc['id']} {result['benchmark']}"


def edit_metadata(root: Path, rng: random.Random) -> str:
    path = rng.choice(model_files(root))
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["name"] = f"{doc['name']} {rng.randint(0, 999)}"
    doc["weights"] = rng.choice(["open", "closed"])
    dump(path, doc)
    return f"metadata {doc['id']}"


def edit_methodology(root: Path, rng: random.Random) -> str:
    path = rng.choice(sorted((root / "methodology").glob("*.md")))
    path.write_text(path.read_text(encoding="utf-8") + f"\nEdited {rng.randint(0, 10**6)}.\n", encoding="utf-8")
    return f"methodology {path.name}"


def edit_sources(root: Path, rng: random.Random) -> str:
    path = root / "scores/sources.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    source = doc["sources"][0]  # the one the model files cite
    source["name"] = f"The paper, revision {rng.randint(0, 999)}"
    dump(path, doc)
    return "sources"


def remove_model(root: Path, rng: random.Random) -> str:
    path = rng.choice(model_files(root))
    path.unlink()
    return f"removed {path.stem}"


def add_model(root: Path, rng: random.Random) -> str:
    doc = models(rng, 1)[0]
    doc["id"] = doc["release"] = f"new/n{rng.randint(0, 10**6)}"
    doc["name"] = f"New {doc['id']}"  # models(rng, 1) names it M00, which a model of the tree already is
    dump(root / "scores/models" / f"{doc['id']}.yaml", doc)
    return f"added {doc['id']}"


def edit_definition(root: Path, rng: random.Random) -> str:
    """An index definition's precision: that definition's boards (today's and every month's) change, the others'
    compute cache entries stay valid."""
    path = rng.choice([p for p in sorted((root / "methodology/indices").glob("*.yaml"))
                       if re.search(r"^precision: \d$", p.read_text(encoding="utf-8"), re.M)])
    text = path.read_text(encoding="utf-8")
    digit = rng.choice([d for d in "234" if f"\nprecision: {d}\n" not in text])
    path.write_text(re.sub(r"^precision: \d$", f"precision: {digit}", text, count=1, flags=re.M), encoding="utf-8")
    return f"definition {path.name} precision {digit}"


def edit_settings(root: Path, rng: random.Random) -> str:
    """A build setting (the site's address): no input file changes, so the whole computation comes from the
    compute cache (the fixture sets it empty first, so monkeypatch restores it)."""
    url = f"https://board{rng.randint(0, 999)}.example/"
    os.environ["SITEGEN_SITE_URL"] = url
    return f"settings {url}"


def delete_cache(root: Path, rng: random.Random) -> str:
    """Deleting the compute cache is always safe: the next build computes everything again."""
    shutil.rmtree(root / simcache.FOLDER, ignore_errors=True)
    return "cache deleted"


#: Templates edited by edit_template, served ahead of the package's own files (the tree fixture puts a loader
#: over this dict in front of the environment's, and makes the build's input stamp follow it)
EDITED: dict[str, str] = {}
#: After what edit_template writes into each template it edits: a visible comment, so the edit shows in the output
ANCHORS = {
    "base.html": "</body>",
    "model.html": "{% block content %}",
    "board.html": "{% block content %}",
    "methodology.html": "{% block content %}",
    "partials/macros.html": "Spotted a wrong number",
    "partials/nav.html": 'aria-label="Navigation" data-md-level="0">',
}


def template_source(name: str) -> str:
    return EDITED.get(name) or (Path(render.__file__).parent.parent / "templates" / name).read_text(encoding="utf-8")


def edit_template(root: Path, rng: random.Random, name: str | None = None) -> str:
    """A template edit, as `sitegen serve` sees one within its process: the environment's loader serves the
    edited source, and the package digest (in the build's input stamp) changes with it."""
    name = name or rng.choice(sorted(ANCHORS))
    anchor = ANCHORS[name]
    source = template_source(name)
    assert anchor in source, name
    EDITED[name] = source.replace(anchor, anchor + f"<!-- edited {rng.randint(0, 10**6)} -->", 1)
    # a new loader, as the file loader's own check would see a changed file (the tree fixture restores the first)
    env = render.environment()
    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader(dict(EDITED)), env.loader.loaders[-1]])
    return f"template {name}"


EDITS = (edit_result, edit_metadata, edit_methodology, edit_sources, remove_model, add_model, edit_definition,
         edit_settings, delete_cache, edit_template)


def inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}


def check_against_clean(root: Path, tmp: Path, history: bool = False) -> None:
    """Build site/ incrementally (with the previous site and the compute cache under the root) and tmp/clean from
    nothing (an empty cache folder of its own, as the Pages deploy builds); they must be the same bytes. history:
    both builds read the tree's git history as `sitegen build` does (a history.changelog.Record made for each)."""
    incremental = build.run(root, root / "site", history=Record(root) if history else None)
    assert incremental.summary and not [p for p in incremental.problems if p.severity == "error"], incremental
    if "up to date" not in incremental.summary:
        assert (root / simcache.FOLDER / "compute").is_dir()  # the cache is on by default
    a, b = snapshot(root / "site"), clean_site(root, tmp, history)
    assert sorted(a) == sorted(b), sorted(set(a) ^ set(b))
    assert [name for name in a if a[name] != b[name]] == []


def _settings(monkeypatch) -> None:
    """The build's environment: a fixed date, one render process, no site address; templates served through a
    loader edit_template can put edited sources in front of, and the input stamp following those edits."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    monkeypatch.setenv("SITEGEN_JOBS", "1")
    monkeypatch.setenv("SITEGEN_SITE_URL", "")  # unset, as far as settings() goes; edit_settings sets it
    for name in ("GITHUB_REPOSITORY", "GITHUB_SERVER_URL", "SITEGEN_CACHE"):
        monkeypatch.delenv(name, raising=False)
    EDITED.clear()
    env = render.environment()
    monkeypatch.setattr(env, "loader", jinja2.ChoiceLoader([jinja2.DictLoader({}), env.loader]))
    package = reuse.package_digest
    monkeypatch.setattr(stamp, "package_digest", lambda: package() + repr(sorted(EDITED.items())))


@pytest.fixture(scope="module")
def first_build(tmp_path_factory):
    """The tree and its first build (site/ and the compute cache under the root), made once for the file in the
    same settings as every test's: each test takes a copy (`tree`), as each starts from this same build."""
    root = make_tree(tmp_path_factory.mktemp("incremental") / "repo", models(random.Random(1), 24))
    for page in sorted((ROOT / "methodology").glob("*.md")):
        shutil.copy(page, root / "methodology" / page.name)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _settings(monkeypatch)
        assert build.run(root, root / "site").summary
    return root


@pytest.fixture
def tree(first_build, tmp_path, monkeypatch):
    _settings(monkeypatch)
    root = tmp_path / "repo"
    shutil.copytree(first_build, root, symlinks=True)  # the content-keyed record and cache hold no path or inode
    return root


@pytest.mark.parametrize("seed", [11, 12])
def test_incremental_build_after_random_edits_equals_a_clean_build(tree, tmp_path, seed):
    rng = random.Random(seed)
    for step in range(len(EDITS)):
        before = inodes(tree / "site")
        done = [edit(tree, rng) for edit in rng.sample(EDITS, rng.randint(1, 2))]
        check_against_clean(tree, tmp_path)
        kept = [rel for rel, ino in inodes(tree / "site").items() if before.get(rel) == ino]
        # files are really reused (hard links to the previous site), not all rewritten
        assert any(rel.startswith("assets/") for rel in kept), (step, done)


def test_an_edited_model_page_is_rendered_again_and_the_others_are_kept(tree, tmp_path):
    before = inodes(tree / "site")
    path = tree / "scores/models/org1/m05.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["name"] = "Renamed"
    dump(path, doc)
    check_against_clean(tree, tmp_path)
    after = inodes(tree / "site")
    assert after["models/org1/m05/index.html"] != before["models/org1/m05/index.html"]
    assert after["models/org1/m09/index.html"] == before["models/org1/m09/index.html"]
    assert after["methodology/ai-iq/index.html"] == before["methodology/ai-iq/index.html"]


def test_a_removed_model_page_disappears(tree, tmp_path):
    (tree / "scores/models/org2/m06.yaml").unlink()
    check_against_clean(tree, tmp_path)
    assert not (tree / "site/models/org2/m06").exists()


def test_a_date_change_reaches_every_page(tree, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH + 86400 * 40))
    check_against_clean(tree, tmp_path)


# Git checkouts. `sitegen build` reads git (history.changelog.Record): the last commit's date (every page's shown
# date when SOURCE_DATE_EPOCH is unset), and the data commits and data-* tags of the changelog page and
# changelog.atom. A checkout changes many files at once, to contents an earlier build saw or to ones no build saw
# (a branch's state with uncommitted edits on top), each with a new mtime.

#: The tree's .gitignore: what a build writes under the root is not the repository's
IGNORED = "/site/\n/.sitegen-cache/\n"


def git(root: Path, *args: str, when: int | None = None) -> str:
    """A git command in the tree, without the machine's configuration; a commit's identity is fixed and its dates
    (author's, committer's, an annotated tag's) are `when` days after EPOCH."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{EPOCH + 86400 * when} +0000"
    identity = ("-c", "user.name=Sitegen Test", "-c", "user.email=test@example.org")
    done = subprocess.run(["git", *identity, "-C", str(root), *args], env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def tag(root: Path, kind: str, ref: str = "HEAD") -> str:
    """Tag ref data-00n, the n-th data tag, lightweight (kind "light") or annotated, dated as the commit."""
    name = f"data-{len(git(root, 'tag', '--list', 'data-*').split()) + 1:03d}"
    when = (int(git(root, "log", "-1", "--format=%ct", ref)) - EPOCH) // 86400
    git(root, "tag", *(["-a", "-m", f"Release {name}"] if kind == "annotated" else []), name, ref, when=when)
    return name


def commit(root: Path, kind: str = "") -> str:
    """Commit the whole tree (nothing changed: an empty commit, which still moves HEAD) as "Edit n", n counting
    every commit ever made (the reflog's too), two a day from 2 January 2026 (commit n's date is n // 2 + 1 days
    after EPOCH: a commit may have the date of the one before it); tagged (tag's `kind`) when kind is given."""
    n = int(git(root, "rev-list", "--all", "--reflog", "--count")) + 1
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", f"Edit {n}", when=n // 2 + 1)
    return f"commit {n}" + (f" {tag(root, kind)}" if kind else "")


def git_commit(root: Path, rng: random.Random) -> str:
    """Commit what the edits since the last commit changed, sometimes tagged."""
    return commit(root, rng.choice(["", "", "light", "annotated"]))


def git_tag(root: Path, rng: random.Random) -> str:
    """Tag a commit of the history: no file and no date changes, the changelog's releases do."""
    sha = rng.choice(git(root, "rev-list", "--all").split())
    return f"tag {sha[:7]} {tag(root, rng.choice(['light', 'annotated']), sha)}"


def git_reword(root: Path, rng: random.Random) -> str:
    """Amend the last commit's message, its tree and dates kept: only HEAD changes (and the changelog's words)."""
    when = (int(git(root, "log", "-1", "--format=%ct")) - EPOCH) // 86400
    git(root, "commit", "-q", "--amend", "--allow-empty", "--only", "-m", f"Reworded {rng.randint(0, 999)}",
        when=when)
    return "reword"


def checkout(root: Path, *args: str) -> None:
    """git checkout -f: uncommitted edits dropped, and the data files no commit holds removed."""
    git(root, "checkout", "-q", "-f", *args)
    git(root, "clean", "-q", "-f", "-d", "--", "scores", "methodology")


def git_checkout(root: Path, rng: random.Random) -> str:
    """Check out (detached) a commit of the tree's history: its files go back to a state an earlier step built."""
    sha = rng.choice(git(root, "rev-list", "--all").split())
    checkout(root, "--detach", sha)
    return f"checkout {sha[:7]}"


def git_switch(root: Path, rng: random.Random) -> str:
    """Switch to another branch made earlier, or to a new branch started at a commit of the history."""
    branches = git(root, "for-each-ref", "--format=%(refname:short)", "refs/heads").split()
    others = [b for b in branches if b != git(root, "branch", "--show-current")]
    if others and rng.random() < 0.5:
        name = rng.choice(others)
        checkout(root, name)
    else:
        name = f"side-{len(branches)}"
        checkout(root, "-b", name, rng.choice(git(root, "rev-list", "--all").split()))
    return f"switch {name}"


def git_checkout_keeping_edits(root: Path, rng: random.Random) -> str:
    """Check out a commit of the history with the uncommitted edits carried over on top (as git checkout carries
    them; a file the two sides both changed takes the edit, as stash, checkout and stash pop resolved so): a
    state no build saw."""
    folders = ("scores", "methodology")
    edited = git(root, "diff", "--name-only", "-z", "HEAD", "--", *folders).split("\0")
    edited += git(root, "ls-files", "-z", "--others", "--exclude-standard", "--", *folders).split("\0")
    kept = {rel: (root / rel).read_bytes() if (root / rel).exists() else None for rel in edited if rel}
    sha = rng.choice(git(root, "rev-list", "--all").split())
    checkout(root, "--detach", sha)
    for rel, data in kept.items():
        if data is None:
            (root / rel).unlink(missing_ok=True)
        else:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
    return f"checkout {sha[:7]} keeping {len(kept)} edited"


def git_date(root: Path, rng: random.Random) -> str:
    """SOURCE_DATE_EPOCH unset (the shown date is the last commit's, history/git.last_commit_date), or set again
    (the fixture sets it first, so monkeypatch restores it)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        del os.environ["SOURCE_DATE_EPOCH"]
        return "date from the last commit"
    os.environ["SOURCE_DATE_EPOCH"] = str(EPOCH + 86400 * rng.randint(0, 60))
    return "date from SOURCE_DATE_EPOCH"


GIT_EDITS = (git_commit, git_tag, git_reword, git_checkout, git_switch, git_checkout_keeping_edits, git_date)


@pytest.fixture(scope="module")
def git_build(first_build, tmp_path_factory):
    """first_build's tree as a git repository (site/ and the compute cache ignored): commit 1, the whole tree, and
    commit 2, a result's edit, tagged data-001 (annotated); built with its history, made once for the file."""
    root = Path(shutil.copytree(first_build, tmp_path_factory.mktemp("checkouts") / "repo", symlinks=True))
    (root / ".gitignore").write_text(IGNORED, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    commit(root)
    edit_result(root, random.Random(2))
    commit(root, "annotated")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _settings(monkeypatch)
        assert build.run(root, root / "site", history=Record(root)).summary
    return root


@pytest.fixture
def git_tree(git_build, tmp_path, monkeypatch):
    _settings(monkeypatch)
    return Path(shutil.copytree(git_build, tmp_path / "repo", symlinks=True))


def test_a_checkout_takes_the_history_and_the_date_back_to_its_commits(git_tree, tmp_path, monkeypatch):
    """The site shows the tree's history (its changelog, its release); without SOURCE_DATE_EPOCH the shown date is
    the last commit's: a checkout of commit 1 shows 2 January and its changelog without commit 2, its branch back
    3 January and both commits, each the clean build's."""
    changelog = (git_tree / "site/changelog/index.html").read_text(encoding="utf-8")
    assert "Edit 1" in changelog and "Edit 2" in changelog and "data-001" in changelog
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    home = git_tree / "site/index.html"
    for args, date, second in ((["--detach", "HEAD~1"], "2026-01-02", False), (["main"], "2026-01-03", True)):
        checkout(git_tree, *args)
        check_against_clean(git_tree, tmp_path, history=True)
        assert f"Data last updated {date}" in home.read_text(encoding="utf-8"), args
        changelog = (git_tree / "site/changelog/index.html").read_text(encoding="utf-8")
        assert ("Edit 2" in changelog) is second, args


def test_a_fetch_that_deepens_a_shallow_clone_rebuilds_its_changelog(git_tree, tmp_path):
    """A shallow clone of the tree (commit 2 only, with the full tree's site and cache copied in), then a fetch
    that deepens it: HEAD, the tags and the files are the same all along, and the changelog lists commit 2 alone,
    then commit 1 too (history/git.history_key holds the clone's cut: without it both builds stopped as up to
    date)."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-local", f"file://{git_tree}", str(clone))
    for folder in ("site", simcache.FOLDER):
        shutil.copytree(git_tree / folder, clone / folder, symlinks=True)
    check_against_clean(clone, tmp_path, history=True)
    assert "Edit 1" not in (clone / "site/changelog/index.html").read_text(encoding="utf-8")
    git(clone, "fetch", "-q", "--unshallow")
    check_against_clean(clone, tmp_path, history=True)
    assert "Edit 1" in (clone / "site/changelog/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("seed", [21, 22])
def test_incremental_build_after_random_edits_and_checkouts_equals_a_clean_build(git_tree, tmp_path, seed):
    """Every git edit twice, in a random order: once alone (a tag or a reword changes no file and no date: the build's
    stamp must see it) and once with one other random edit before or after it. The git edits: commits (tagged or
    not), tags, a commit reworded, checkouts of the history, branches, uncommitted edits carried over, the date
    from the last commit."""
    rng = random.Random(seed)
    moves = [(move, others) for move in GIT_EDITS for others in (0, 1)]
    for step, (move, others) in enumerate(rng.sample(moves, len(moves))):
        before = inodes(git_tree / "site")
        edits = [move, *rng.sample(EDITS, others)]
        done = [edit(git_tree, rng) for edit in rng.sample(edits, len(edits))]
        check_against_clean(git_tree, tmp_path, history=True)
        kept = [rel for rel, ino in inodes(git_tree / "site").items() if before.get(rel) == ino]
        assert any(rel.startswith("assets/") for rel in kept), (step, done)


def rerendered(before: dict[str, list], site: Path) -> set[str]:
    """The pages whose key in reuse's record changed since `before`: the ones rendered again."""
    after = reuse.load_record(site)
    return {rel for rel, entry in after.items() if rel.endswith(".html") and before.get(rel, [None])[0] != entry[0]}


def pages_of(site: Path, *patterns: str) -> set[str]:
    """The rendered pages (redirects left out: their bytes are their key) whose path matches one of patterns."""
    record = reuse.load_record(site)
    return {
        rel
        for rel, entry in record.items()
        if rel.endswith(".html") and not entry[0].startswith("bytes:") and any(re.fullmatch(p, rel) for p in patterns)
    }


@pytest.mark.parametrize(
    ("template", "patterns"),
    [
        ("model.html", [r"models/[^/]+/[^/]+/index\.html"]),
        ("board.html", [r"boards/.*index\.html"]),
        ("methodology.html", [r"methodology/(.+/)?index\.html"]),
        ("base.html", [r".*"]),
        ("partials/nav.html", [r".*"]),
        # macros.html: what imports it (home, board, benchmark, charts, model, models), not the others
        ("partials/macros.html", [r"index\.html", r"boards/.*", r"benchmarks/.+/index\.html", r"charts/index\.html",
                                  r"models/.*"]),
    ],
)
def test_a_template_edit_re_renders_only_the_pages_that_use_it(tree, tmp_path, template, patterns):
    """A page's key covers its own template and those it extends, includes or imports (render.template_digest),
    not every template: after one template's edit exactly the pages rendered from it change key, and the
    incremental site is still the clean build's, byte for byte."""
    before = reuse.load_record(tree / "site")
    edit_template(tree, random.Random(8), template)
    check_against_clean(tree, tmp_path)
    expected = pages_of(tree / "site", *patterns)
    assert expected and len(expected) < len(pages_of(tree / "site", ".*")) or patterns == [r".*"]
    assert rerendered(before, tree / "site") == expected
    if template in ("model.html", "base.html"):
        assert b"<!-- edited " in (tree / "site/models/org1/m09/index.html").read_bytes()
    if template == "model.html":
        assert b"<!-- edited " not in (tree / "site/boards/ai-iq/index.html").read_bytes()


def test_a_page_depends_on_the_templates_it_reaches(monkeypatch):
    """template_digest: a template's own source and those it extends, includes and imports, transitively; a name
    computed at render time reaches every template; an edit is seen when the loader says the source changed."""
    sources = {
        "base.html": "<body>{% block content %}{% endblock %}</body>",
        "page.html": '{% extends "base.html" %}{% from "m.html" import x %}{% block content %}{{ x() }}{% endblock %}',
        "m.html": '{% macro x() %}{% include "inner.html" %}{% endmacro %}',
        "inner.html": "inner",
        "other.html": '{% extends "base.html" %}',
        "dynamic.html": "{% include name %}",
    }
    env = render._Environment(loader=jinja2.DictLoader(sources))
    assert env._dependencies("page.html") == {"page.html", "base.html", "m.html", "inner.html"}
    assert env._dependencies("other.html") == {"other.html", "base.html"}
    assert env._dependencies("dynamic.html") == set(sources)
    page, other, base = (env.template_digest(n) for n in ("page.html", "other.html", "base.html"))
    sources["inner.html"] = "inner, edited"
    assert env.template_digest("page.html") != page
    assert (env.template_digest("other.html"), env.template_digest("base.html")) == (other, base)
    sources["base.html"] = "<main>{% block content %}{% endblock %}</main>"
    assert env.template_digest("other.html") != other and env.template_digest("base.html") != base


def test_a_template_file_edit_is_seen_within_a_process(tmp_path):
    """`sitegen serve` rebuilds in its process: a template file edited on disk changes the digests of the pages
    that use it (the file loader's own up-to-date check, the one Jinja2 reloads by)."""
    (tmp_path / "base.html").write_text("<p>{% block content %}{% endblock %}</p>")
    (tmp_path / "page.html").write_text('{% extends "base.html" %}{% block content %}a{% endblock %}')
    env = render._Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
    first = env.template_digest("page.html")
    assert env.template_digest("page.html") == first
    (tmp_path / "base.html").write_text("<div>{% block content %}{% endblock %}</div>")
    os.utime(tmp_path / "base.html", ns=(1, 1))  # a different modification time, however fast the edit was
    assert env.template_digest("page.html") != first


def _counting_env(sources: dict[str, str], store) -> tuple[render._Environment, list[str]]:
    """A template environment over `sources` keeping references in `store`, and the list of sources it parses."""
    env = render._Environment(loader=jinja2.DictLoader(sources))
    env.references = store
    parsed: list[str] = []
    parse = env.parse
    env.parse = lambda source, *a, **k: parsed.append(source) or parse(source, *a, **k)  # type: ignore[method-assign]
    return env, parsed


def test_template_references_are_parsed_once_per_source(tmp_path):
    """template_digest with the compute cache's reference store: the digests are those of a process without it
    (cold, warm, off alike); a warm store parses nothing; only an edited template is parsed again, and an edit that
    adds an include changes the including template's digest; a damaged entry is parsed again."""
    sources = {
        "base.html": "<body>{% block content %}{% endblock %}</body>",
        "page.html": '{% extends "base.html" %}{% block content %}page{% endblock %}',
        "inner.html": "inner",
        "dynamic.html": "{% include name %}",
    }
    names = sorted(sources)

    def digests(env):
        return [env.template_digest(n) for n in names]

    off, parsed = _counting_env(sources, None)
    expected = digests(off)
    assert len(parsed) == 4
    store = simcache.FileStore(tmp_path / "templates", "salt")
    cold, parsed = _counting_env(sources, store)
    assert digests(cold) == expected and len(parsed) == 4
    assert len(list((tmp_path / "templates").glob("*.pickle"))) == 4  # one entry per source, written whole
    warm, parsed = _counting_env(sources, simcache.FileStore(tmp_path / "templates", "salt"))
    assert digests(warm) == expected and parsed == []
    assert warm._source("dynamic.html")[2] is None and warm._source("page.html")[2] == ("base.html",)

    sources["page.html"] = '{% extends "base.html" %}{% block content %}{% include "inner.html" %}{% endblock %}'
    edited, parsed = _counting_env(sources, simcache.FileStore(tmp_path / "templates", "salt"))
    after = digests(edited)
    assert parsed == [sources["page.html"]]  # only the edited template
    assert edited._dependencies("page.html") == {"page.html", "base.html", "inner.html"}
    changed = {n for n, a, b in zip(names, after, expected) if a != b}
    assert changed == {"page.html", "dynamic.html"}  # and what may include any template
    assert after == digests(_counting_env(sources, None)[0])  # as a process without the store

    other_salt, parsed = _counting_env(sources, simcache.FileStore(tmp_path / "templates", "other code"))
    assert digests(other_salt) == after and len(parsed) == 4  # the code's digest salts the entries: all miss
    for entry in (tmp_path / "templates").glob("*.pickle"):
        entry.write_bytes(b'{"not": "a list"}')
    damaged, parsed = _counting_env(sources, simcache.FileStore(tmp_path / "templates", "salt"))
    assert digests(damaged) == after and len(parsed) == 4


def test_references_kept_reads_every_template_once_and_restores(tmp_path, monkeypatch):
    """references_kept on the package's environment: on entry every template is read into the store and loaded,
    compiled once or taken compiled from the store (so forked render workers parse and compile nothing, and the
    build's prune keeps two entries per template); on exit the environment has no store again; a read-only store
    (build --check) writes nothing."""
    env = render.environment()
    templates = env.list_templates()
    assert "base.html" in templates and "partials/nav.html" in templates
    compiled = _count_compiles(env, monkeypatch)
    looking = simcache.FileStore(tmp_path / "check", "salt", writable=False)
    with render.references_kept(looking):
        assert env.references is looking and isinstance(env.bytecode_cache, render._CompiledKept)
    assert env.references is None and env.bytecode_cache is None and not (tmp_path / "check").exists()
    assert sorted(compiled) == sorted(templates)  # each loaded on entry: the forked workers compile none
    compiled.clear()
    store = simcache.FileStore(tmp_path / "templates", "salt")
    with render.references_kept(store):
        digest = env.template_digest("model.html")
    assert env.references is None and env.bytecode_cache is None
    sources = {env._source(n)[1] for n in templates}
    # per template its references (by its source's digest) and its compiled code ("compiled\0" + Jinja2's keys)
    assert sources < store.used and len(store.used - sources) == len(templates)
    assert all(key.startswith("compiled\0") for key in store.used - sources)
    assert len(list((tmp_path / "templates").glob("*.pickle"))) == len(sources) + len(templates)
    assert sorted(compiled) == sorted(templates)
    compiled.clear()
    with render.references_kept(simcache.FileStore(tmp_path / "templates", "salt")):  # the next build's process
        assert env.template_digest("model.html") == digest
    assert compiled == []  # every template loaded from the store
    with render.references_kept(None):
        assert env.references is None and env.template_digest("model.html") == digest
    assert sorted(compiled) == sorted(templates)  # kept nowhere: compiled on entry, once each


def _count_compiles(env: jinja2.Environment, monkeypatch) -> list[str]:
    """The names of the templates `env` compiles from now on (for the test's duration)."""
    compiled: list[str] = []
    compile_ = env.compile

    def counted(source, name=None, *args, **kwargs):
        compiled.append(name)
        return compile_(source, name, *args, **kwargs)

    monkeypatch.setattr(env, "compile", counted)
    return compiled


def test_compiled_templates_are_kept_by_name_and_source(tmp_path, monkeypatch):
    """_CompiledKept, Jinja2's bytecode cache over the reference store: a warm store compiles nothing and renders
    the same; an edited template is compiled again (and only it), as is every template under another salt (the
    code's digest: Jinja2's version, the environment's options) and every damaged entry."""
    sources = {
        "base.html": "<b>{% block content %}{% endblock %}</b>",
        "page.html": '{% extends "base.html" %}{% block content %}{{ x }}{% endblock %}',
    }
    folder = tmp_path / "templates"

    def rendered(salt: str) -> tuple[str, list[str]]:
        """page.html rendered by a new environment (as a new process) over the store, and what it compiled."""
        env = render._Environment(loader=jinja2.DictLoader(sources))
        env.bytecode_cache = render._CompiledKept(simcache.FileStore(folder, salt))
        compiled = _count_compiles(env, monkeypatch)
        return env.get_template("page.html").render(x=1), sorted(compiled)

    assert rendered("salt") == ("<b>1</b>", ["base.html", "page.html"])
    assert len(list(folder.glob("*.pickle"))) == 2
    assert rendered("salt") == ("<b>1</b>", [])
    sources["page.html"] = sources["page.html"].replace("{{ x }}", "[{{ x }}]")
    assert rendered("salt") == ("<b>[1]</b>", ["page.html"])
    assert rendered("other code") == ("<b>[1]</b>", ["base.html", "page.html"])
    for entry in folder.glob("*.pickle"):  # not Jinja2's header; or Jinja2's header and no checksum after it
        entry.write_bytes(b"garbage" if entry.stat().st_size % 2 else jinja2.bccache.bc_magic + b"\x00garbage")
    assert rendered("salt") == ("<b>[1]</b>", ["base.html", "page.html"])


def test_a_build_keeps_one_reference_entry_per_template_source(tree):
    """A build keeps each template's references and compiled code in the compute cache (templates/), one entry of
    each per template it rendered with: after a template edit the edited template's entries replace the old ones
    (pruned)."""
    env = render.environment()
    folder = tree / simcache.FOLDER / "templates"
    store = simcache.FileStore(folder, reuse.code_digest())
    templates = env.list_templates()
    before = {store._name(env._source(n)[1]) for n in templates}
    kept = {p.stem for p in folder.glob("*.pickle")}
    assert before < kept and len(kept) == 2 * len(templates)  # its references, and its compiled code
    edit_template(tree, random.Random(3), "model.html")
    assert build.run(tree, tree / "site").summary
    after = {store._name(env._source(n)[1]) for n in templates}
    assert len(after - before) == 1 and len(before - after) == 1
    now = {p.stem for p in folder.glob("*.pickle")}
    assert after < now and len(now) == 2 * len(templates)
    assert len(now - kept) == 2 and len(kept - now) == 2  # model.html's two entries replaced, the old pruned


def test_a_file_changed_by_hand_is_not_reused(tree, tmp_path):
    page = tree / "site/models/org1/m09/index.html"
    page.write_bytes(page.read_bytes().replace(b"</body>", b"<p>tampered</p></body>"))
    edit_result(tree, random.Random(4))
    check_against_clean(tree, tmp_path)
    assert b"tampered" not in page.read_bytes()


def test_the_package_digest_follows_template_and_static_edits_within_a_process(tmp_path, monkeypatch):
    """`sitegen serve` rebuilds in one process after a template or static edit: the digest (and with it every
    page's key and the build's input stamp) must change then, while the code stays what was imported."""
    pkg = tmp_path / "pkg"
    (pkg / "templates").mkdir(parents=True)
    (pkg / "static").mkdir()
    (pkg / "code.py").write_text("x = 1\n")
    (pkg / "templates/base.html").write_text("<p>a</p>")
    (pkg / "static/site.css").write_text("p {}")
    monkeypatch.setattr(reuse, "_PACKAGE", pkg)
    reuse._code_digest.cache_clear()
    try:
        first = reuse.package_digest()
        assert reuse.package_digest() == first
        (pkg / "templates/base.html").write_text("<p>b</p>")
        second = reuse.package_digest()
        (pkg / "static/site.css").write_text("p { color: red }")
        third = reuse.package_digest()
        assert len({first, second, third}) == 3
        (pkg / "code.py").write_text("x = 2\n")
        assert reuse.package_digest() == third  # the running code is the one imported
        reuse._code_digest.cache_clear()  # a new process reads the new code
        assert reuse.package_digest() != third
    finally:
        reuse._code_digest.cache_clear()


def test_a_new_version_of_a_library_that_writes_output_changes_the_code_digest(monkeypatch):
    """The compute cache and the pages are keyed by reuse.code_digest: a new orjson (which writes the JSON API's
    texts, export._text) or jinja2 must miss, as a new version may write other bytes; another package leaves it."""
    real = reuse.library_version
    bumped: set[str] = set()
    monkeypatch.setattr(reuse, "library_version", lambda name: real(name) + ("-next" if name in bumped else ""))
    reuse._code_digest.cache_clear()
    try:
        digests = {}
        for name in ("", "orjson", "jinja2", "pytest"):
            bumped.clear()
            bumped.add(name)
            reuse._code_digest.cache_clear()
            digests[name] = reuse.code_digest()
        assert digests["orjson"] != digests[""] and digests["jinja2"] != digests[""]
        assert digests["pytest"] == digests[""]  # not a library of the output
        assert digests["orjson"] != digests["jinja2"]
    finally:
        reuse._code_digest.cache_clear()


def test_an_environment_only_change_of_the_server_url_rebuilds_what_it_reaches(tree, tmp_path, monkeypatch):
    """GITHUB_SERVER_URL (with GITHUB_REPOSITORY) makes the repository's address on every page that links to it; changing only it
    must not stop as "up to date": the build's Settings, resolved once, are in the stamp."""
    monkeypatch.setenv("GITHUB_REPOSITORY", "owner/board")
    monkeypatch.setenv("SITEGEN_SITE_URL", "https://owner.github.io/board/")
    check_against_clean(tree, tmp_path)
    page = tree / "site/methodology/index.html"
    assert b"https://github.com/owner/board" in page.read_bytes()
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://git.example.org/")
    again = build.run(tree, tree / "site")
    assert "up to date" not in again.summary, again
    assert b"https://git.example.org/owner/board" in page.read_bytes()
    assert b"https://github.com/owner/board" not in page.read_bytes()
    check_against_clean(tree, tmp_path)
    assert "up to date" in build.run(tree, tree / "site").summary  # and with nothing changed, it stops at once


def test_every_build_setting_changes_the_stamp(tree, monkeypatch):
    from sitegen.build import stamp

    def digest(config):
        return stamp.inputs_digest(tree, {f"settings.{k}": v for k, v in dataclasses.asdict(config).items()})

    base = build.settings()
    assert base == build.Settings("1767225600", "", "")  # SOURCE_DATE_EPOCH set, the rest unset (fixture)
    seen = {digest(base)}
    for field in dataclasses.fields(build.Settings):
        seen.add(digest(dataclasses.replace(base, **{field.name: "changed"})))
    assert len(seen) == 1 + len(dataclasses.fields(build.Settings))


def test_settings_are_resolved_from_the_environment_once(monkeypatch):
    for name in ("SOURCE_DATE_EPOCH", "SITEGEN_SITE_URL", "GITHUB_REPOSITORY", "GITHUB_SERVER_URL"):
        monkeypatch.delenv(name, raising=False)
    assert build.settings() == build.Settings("", "", "")
    monkeypatch.setenv("GITHUB_REPOSITORY", "Owner/Board")
    assert build.settings() == build.Settings("", "https://owner.github.io/board/", "https://github.com/Owner/Board")
    monkeypatch.setenv("GITHUB_REPOSITORY", "owner/owner.github.io")  # a user site is served from the host's root
    assert build.settings().site_url == "https://owner.github.io/"
    monkeypatch.setenv("GITHUB_SERVER_URL", " https://ghe.example.com/ ")
    monkeypatch.setenv("SITEGEN_SITE_URL", "https://board.example/")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert build.settings() == build.Settings("", "https://board.example/", "https://ghe.example.com/owner/owner.github.io")
    assert build.settings("https://given.example/").site_url == "https://given.example/"  # --site-url comes first


def test_a_check_or_a_settings_change_after_a_build_computes_nothing(tree, monkeypatch):
    """The whole computation is kept by the data's digest (build/simcache.py): `build --check` of the same data,
    or a build whose only change is a setting, loads it; an edited file misses and computes."""
    monkeypatch.setattr(build, "_compute", lambda *a, **k: pytest.fail("computed again"))
    checked = build.run(tree, tree / "unused", check=True)
    assert checked.summary and not [p for p in checked.problems if p.severity == "error"]
    monkeypatch.setenv("SITEGEN_SITE_URL", "https://elsewhere.example/")
    assert "up to date" not in build.run(tree, tree / "site").summary
    edit_result(tree, random.Random(5))
    with pytest.raises(pytest.fail.Exception, match="computed again"):
        build.run(tree, tree / "site")


def test_sitegen_cache_off_keeps_nothing(tree, tmp_path, monkeypatch):
    shutil.rmtree(tree / simcache.FOLDER)
    monkeypatch.setenv("SITEGEN_CACHE", "off")
    edit_result(tree, random.Random(6))
    assert build.run(tree, tree / "site").summary
    assert not (tree / simcache.FOLDER).exists()
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "elsewhere"))
    edit_result(tree, random.Random(7))
    assert build.run(tree, tree / "site").summary
    assert (tmp_path / "elsewhere" / "compute").is_dir() and not (tree / simcache.FOLDER).exists()


def test_a_page_key_does_not_depend_on_which_equal_values_are_one_object():
    """A computation's result and the same result read back from the cache are equal but share objects
    differently (unpickling makes one string of equal ones); the pages' keys, and with them site/.sitegen-pages,
    must not tell them apart. A value that contains itself has no key: its page is always rendered."""
    one, other = "".join(["org1/", "m01"]), "".join(["org1/", "m01"])  # built at run time: two objects
    assert one == other and one is not other
    assert reuse.key_of([one, one]) == reuse.key_of([one, other])
    row = {"model": one, "value": 1.5}
    assert reuse.key_of({"board": [row], "rows": [row]}) == reuse.key_of({"board": [row], "rows": [dict(row)]})
    assert reuse.key_of([1.5]) != reuse.key_of([1.50000001]) and reuse.key_of((1,)) != reuse.key_of([1])
    loop: list = []
    loop.append(loop)
    assert reuse.key_of(loop) is None


def test_output_reuses_an_unchanged_file_and_never_one_through_a_link(tmp_path):
    """reuse.Output takes a previous file only when its key matches, its bytes still hash to the record's entry,
    and neither it nor a folder on the way to it is a link (each folder checked once, the file opened without
    following a link): otherwise the file is made afresh."""
    old = tmp_path / "old"
    (old / "a").mkdir(parents=True)
    (old / "a/same.html").write_bytes(b"same")
    (old / "a/edited.html").write_bytes(b"edited by hand")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/inner.html").write_bytes(b"inner")
    (old / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "target.html").write_bytes(b"target")
    (old / "a/link.html").symlink_to(tmp_path / "target.html")
    os.mkfifo(old / "a/fifo.html")
    sha = {name: reuse._sha256(data) for name, data in
           (("same", b"same"), ("edited", b"as built"), ("inner", b"inner"), ("target", b"target"))}
    record = {"a/same.html": ["k1", sha["same"]], "a/edited.html": ["k2", sha["edited"]],
              "linked/inner.html": ["k3", sha["inner"]], "a/link.html": ["k4", sha["target"]],
              "a/fifo.html": ["k5", sha["same"]], "a/other-key.html": ["k6", sha["same"]]}
    (old / reuse.RECORD).write_text(json.dumps(record), encoding="utf-8")
    made = []
    out = reuse.Output(tmp_path / "new", old)

    def put(rel: str, key: str) -> list:
        return out.put(rel, key, lambda: made.append(rel) or b"fresh")

    assert put("a/same.html", "k1") == ["k1", sha["same"]]
    assert os.path.samefile(tmp_path / "new/a/same.html", old / "a/same.html")  # linked, not written
    for rel, key in (("a/edited.html", "k2"), ("linked/inner.html", "k3"), ("a/link.html", "k4"),
                     ("a/fifo.html", "k5"), ("a/other-key.html", "k7")):
        assert put(rel, key) == [key, reuse._sha256(b"fresh")]
        assert (tmp_path / "new" / rel).read_bytes() == b"fresh" and not (tmp_path / "new" / rel).is_symlink()
    assert made == ["a/edited.html", "linked/inner.html", "a/link.html", "a/fifo.html", "a/other-key.html"]
    assert (tmp_path / "target.html").read_bytes() == b"target"  # nothing written through a link
    assert (tmp_path / "elsewhere/inner.html").read_bytes() == b"inner"


def test_library_versions_come_from_the_first_dist_info_folder_on_the_path(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, dists in ((first, ["PyYAML-6.0.3.dist-info", "markdown_it_py-4.3.0.dist-info", "jinja2-notes"]),
                          (second, ["pyyaml-5.4.dist-info", "orjson-3.13.0.dist-info", "Jinja2-3.1.6.dist-info"])):
        for name in dists:
            (folder / name).mkdir(parents=True)
    path = [str(tmp_path / "missing"), str(first), str(second)]
    assert reuse.library_version("pyyaml", path) == "6.0.3"  # the first folder wins, names compared as PEP 503
    assert reuse.library_version("markdown-it-py", path) == "4.3.0"
    assert reuse.library_version("jinja2", path) == "3.1.6"  # a folder without .dist-info is not a distribution
    assert reuse.library_version("orjson", path) == "3.13.0"
    assert reuse.library_version("no-such-library-here", path) == "-"


def test_library_versions_agree_with_importlib_metadata():
    from importlib import metadata

    for name in reuse._LIBRARIES:
        assert reuse.library_version(name) == metadata.version(name)


# ----------------------------------------------------------------------------- as-of months across a rebuild
# (indices/asof.asof_part: a definition whose inputs an edit did not reach is loaded whole; of the others, a month
# whose frame does not hold the edited row is loaded by its own key, and only the months that hold it are computed)

#: Release month and capture day of the dated tree's three cohorts: 2025-01 to 2025-06, so an edit of a late
#: model's result is after the month boundaries of every earlier month, and an early model's before them all.
COHORTS = (("2025-01", "2025-01-20"), ("2025-04", "2025-04-20"), ("2025-06", "2025-06-15"))


def dated_models() -> list[dict]:
    rng = random.Random(5)
    docs = []
    for i, doc in enumerate(models(rng, 18)):
        released, retrieved = COHORTS[i // 6]
        doc["released"] = released
        for result in doc["results"]:
            result["retrieved"] = retrieved
        docs.append(doc)
    return docs


@pytest.fixture(scope="module")
def dated_build(tmp_path_factory):
    """The dated tree and its first build, made once; each test takes a copy (`dated`), as `tree` does."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        _settings(monkeypatch)
        root = make_tree(tmp_path_factory.mktemp("dated") / "repo", dated_models())
        assert build.run(root, root / "site").summary
    return root


@pytest.fixture
def dated(dated_build, tmp_path, monkeypatch):
    _settings(monkeypatch)
    return Path(shutil.copytree(dated_build, tmp_path / "repo", symlinks=True))


def engine_calls(monkeypatch) -> list[tuple[str, frozenset]]:
    """Every as-of or today's engine run from now on: (definition id, the models of the results it was given)."""
    from sitegen.indices import asof

    calls: list[tuple[str, frozenset]] = []
    engine = asof.compute_boards

    def recorded(res, models, benchmarks, defs, raw=None):
        calls.extend((index_id, frozenset(res["model"])) for index_id in defs)
        return engine(res, models, benchmarks, defs, raw)

    monkeypatch.setattr(asof, "compute_boards", recorded)
    return calls


def month_file(root: Path, board: str, month: str) -> bytes:
    return (root / "site/api/v1/indices" / board / f"{month}.json").read_bytes()


def readers(benchmark: str) -> set[str]:
    """The index definitions of the tree that read `benchmark` (indices/asof.benchmarks_read)."""
    from sitegen.indices import asof

    found = set()
    for path in sorted((ROOT / "methodology/indices").glob("*.yaml")):
        definition = yaml.safe_load(path.read_text(encoding="utf-8"))
        if benchmark in asof.benchmarks_read(definition):
            found.add(definition["id"])
    return found


def set_result(root: Path, model: str, benchmark: str, value: float) -> None:
    """Set (or add, captured with the model's other results) the model's result on `benchmark`."""
    path = root / "scores/models" / f"{model}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    found = [r for r in doc["results"] if r["benchmark"] == benchmark]
    if found:
        found[0]["value"] = value
    else:
        doc["results"].append(dict(doc["results"][0], benchmark=benchmark, value=value))
    dump(path, doc)


def rebuild_counting(root: Path, monkeypatch) -> list[tuple[str, frozenset]]:
    """Rebuild site/ incrementally, and the engine runs it made (engine_calls)."""
    calls = engine_calls(monkeypatch)
    assert build.run(root, root / "site").summary
    monkeypatch.undo()
    _settings(monkeypatch)  # undo() took the build's settings too
    return calls


#: The first cohort (released January 2025): the only models of January's and February's frames.
FIRST = {f"org{i % 4}/m{i:02d}" for i in range(6)}


def test_an_edit_after_the_month_boundaries_recomputes_only_the_months_that_hold_it(dated, tmp_path, monkeypatch):
    # m15 is released in June 2025 (its results captured 15 June): no month before June holds its rows
    doc = yaml.safe_load((dated / "scores/models/org3/m15.yaml").read_text(encoding="utf-8"))
    benchmark = doc["results"][0]["benchmark"]
    before = {m: month_file(dated, "ai-iq", m) for m in ("2025-03", "2025-05", "2025-06")}
    set_result(dated, "org3/m15", benchmark, 99.0)
    rebuilt = rebuild_counting(dated, monkeypatch)
    assert rebuilt, "the edit reaches today's boards and June's"
    assert all("org3/m15" in present for _, present in rebuilt)  # no month without the edited row is computed
    assert {index_id for index_id, _ in rebuilt} <= readers(benchmark)  # nor a definition that does not read it
    assert month_file(dated, "ai-iq", "2025-03") == before["2025-03"]
    assert month_file(dated, "ai-iq", "2025-05") == before["2025-05"]
    check_against_clean(dated, tmp_path)  # the incremental site is the clean build's, byte for byte


def test_an_edit_before_the_month_boundaries_reaches_every_month_and_equals_a_clean_build(dated, tmp_path,
                                                                                           monkeypatch):
    # m00 is released in January 2025: its result is in every month's frame, both views
    benchmark = "gpqa-diamond"
    assert "ai-iq" in readers(benchmark)
    set_result(dated, "org0/m00", benchmark, 98.5)
    rebuilt = rebuild_counting(dated, monkeypatch)
    assert {index_id for index_id, _ in rebuilt} <= readers(benchmark)
    assert ("ai-iq", frozenset(FIRST)) in rebuilt  # January's AI IQ board, computed again
    check_against_clean(dated, tmp_path)


def test_an_edit_that_changes_a_p80_population_reaches_the_months_after_it_only(dated, tmp_path, monkeypatch):
    # a new result of a late model on an AI IQ benchmark it had none of: that benchmark's P80 population grows
    # from June on; the earlier months keep their populations and their files
    doc = yaml.safe_load((dated / "scores/models/org2/m14.yaml").read_text(encoding="utf-8"))
    benchmark = next(b for b in BENCHES if b not in {r["benchmark"] for r in doc["results"]})
    assert "ai-iq" in readers(benchmark)
    before = {m: month_file(dated, "ai-iq", m) for m in ("2025-01", "2025-04", "2025-05", "2025-06")}
    set_result(dated, "org2/m14", benchmark, 97.0)
    rebuilt = rebuild_counting(dated, monkeypatch)
    assert any(index_id == "ai-iq" for index_id, _ in rebuilt)
    assert all("org2/m14" in present for _, present in rebuilt)
    assert month_file(dated, "ai-iq", "2025-06") != before["2025-06"]
    for month in ("2025-01", "2025-04", "2025-05"):
        assert month_file(dated, "ai-iq", month) == before[month], month
    check_against_clean(dated, tmp_path)


# Row-incremental months (indices/simcache.kept_row): a month an edit reaches computes only the rows whose own
# inputs moved (Pedagogy's rows: each model's accuracy and exact interval), then ranks and draws the frontiers again.

#: Two models of each cohort with a published CDPK accuracy: Pedagogy's boards hold rows from January on.
CDPK = {"org0/m00": 61.2, "org1/m01": 55.4, "org2/m06": 70.3, "org3/m07": 48.9, "org0/m12": 66.6, "org1/m13": 52.0}


def set_cdpk(root: Path, model: str, value: float) -> None:
    """Set (or add, captured with the model's other results) the model's CDPK accuracy."""
    path = root / "scores/models" / f"{model}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    found = [r for r in doc["results"] if r["benchmark"] == "pedagogy-cdpk"]
    if found:
        found[0]["value"] = value
    else:
        doc["results"].append(dict(doc["results"][0], benchmark="pedagogy-cdpk", value=value))
    dump(path, doc)


@pytest.fixture
def taught(dated, monkeypatch):
    """The dated tree with CDPK accuracies, built (its compute cache holds every month's rows). Its Pedagogy
    definition takes the tree's own source (the Pedagogy paper's numbers are public from June 2025 only, after the
    cohorts' captures)."""
    path = dated / "methodology/indices/pedagogy.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\nsources: [pedagogy-paper]\n" in text
    path.write_text(text.replace("\nsources: [pedagogy-paper]\n", "\nsources: [paper]\n"), encoding="utf-8")
    for model, value in CDPK.items():
        set_cdpk(dated, model, value)
    assert build.run(dated, dated / "site").summary
    return dated


def rows_counting(root: Path, monkeypatch) -> list[str]:
    """Rebuild site/ incrementally, and the CDPK rows it computed (not taken from the store)."""
    from sitegen.indices import pedagogy

    computed: list[str] = []
    row = pedagogy._row

    def spy(model, results, rows_raw, definition, board):
        if board["id"] == "pedagogy-cdpk":
            computed.append(model)
        return row(model, results, rows_raw, definition, board)

    monkeypatch.setattr(pedagogy, "_row", spy)
    assert build.run(root, root / "site").summary
    monkeypatch.undo()
    _settings(monkeypatch)
    return computed


def cdpk_ranks(root: Path, month: str) -> dict[str, int | None]:
    board = json.loads(month_file(root, "pedagogy-cdpk", month))
    return {row["model"]: row["rank"] for row in board["views"]["known"]["rows"]}


def test_an_edit_to_one_models_row_in_past_months_computes_that_row_only(taught, tmp_path, monkeypatch):
    # m06 (April's cohort) from 70.3 to 40.1: its row in April's to June's months and today's moves, and the others'
    # ranks with it; January's to March's files hold no m06 and stay
    before = {m: month_file(taught, "pedagogy-cdpk", m) for m in ("2025-01", "2025-03")}
    assert cdpk_ranks(taught, "2025-05")["org2/m06"] == 1
    set_cdpk(taught, "org2/m06", 40.1)
    computed = rows_counting(taught, monkeypatch)
    assert set(computed) == {"org2/m06"}  # every other model's row of every month came from the store
    for month, text in before.items():
        assert month_file(taught, "pedagogy-cdpk", month) == text, month
    ranks = cdpk_ranks(taught, "2025-05")
    assert ranks["org2/m06"] == 4 and ranks["org0/m00"] == 1  # re-ranked around the reused rows
    check_against_clean(taught, tmp_path)


def test_a_new_row_changes_the_months_population_and_the_reused_rows_are_re_ranked(taught, tmp_path, monkeypatch):
    # m08 (April's cohort) had no CDPK accuracy: from April on, the board ranks one model more, ahead of all others
    before = month_file(taught, "pedagogy-cdpk", "2025-03")
    set_cdpk(taught, "org0/m08", 90.0)
    computed = rows_counting(taught, monkeypatch)
    assert set(computed) == {"org0/m08"}
    assert month_file(taught, "pedagogy-cdpk", "2025-03") == before
    ranks = cdpk_ranks(taught, "2025-06")
    assert ranks["org0/m08"] == 1 and ranks["org2/m06"] == 2 and len(ranks) == 7
    check_against_clean(taught, tmp_path)


# The page store (reuse.PageStore: the compute cache's rendered pages by page key) and the chart specs kept by how
# each chart is drawn (site/charts.kept_specs): `build --check` renders into a temporary folder without a previous
# site, so every page whose key is unchanged comes from the store; what it renders must still be the clean build's.

SITE_YAML = ROOT / "methodology/site.yaml"
CHART_WORDS = "description: Distribution of AI IQ across ranked models"


def edit_site_yaml(root: Path, rng: random.Random) -> str:
    """methodology/site.yaml: a chart's words (its spec and the pages that show it change: the model pages, its
    board's, the gallery)."""
    path = root / "methodology/site.yaml"
    text = path.read_text(encoding="utf-8")
    assert CHART_WORDS in text
    path.write_text(text.replace(CHART_WORDS, f"{CHART_WORDS} {rng.randint(0, 10**6)}", 1), encoding="utf-8")
    return "site.yaml"


def clean_site(root: Path, tmp: Path, history: bool = False) -> dict[str, bytes]:
    """A clean build of root's inputs into tmp/clean (an empty cache folder of its own, as the Pages deploy
    builds); history: reading root's git history (check_against_clean)."""
    clean, cache = tmp / "clean", tmp / "clean-cache"
    shutil.rmtree(clean, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    outer = os.environ.get("SITEGEN_CACHE")
    os.environ["SITEGEN_CACHE"] = str(cache)
    try:
        assert build.run(root, clean, history=Record(root) if history else None).summary
    finally:
        if outer is None:
            del os.environ["SITEGEN_CACHE"]
        else:
            os.environ["SITEGEN_CACHE"] = outer
    return snapshot(clean)


def checked_site(root: Path, monkeypatch) -> tuple[dict[str, str], set[str]]:
    """`build --check`'s site, each file by its bytes' SHA-256 (taken before its folder is removed), and the pages it
    took from the page store. A check writes only the pages it renders (and the record, the stamp): a page taken
    from the store is named in the record and hashed here from the store's entry, any other file is named with the
    digest of the bytes it made (reuse.Output)."""
    import hashlib

    import sitegen.site

    seen: dict = {}
    render_site = sitegen.site.render_site

    def keep(ctx, folder, **kwargs):
        done = render_site(ctx, folder, **kwargs)
        store = root / simcache.FOLDER / reuse.PAGES_FOLDER
        written = snapshot(Path(folder))
        assert all(rel.endswith(".html") for rel in set(written) - {reuse.RECORD, stamp.STAMP}), sorted(written)
        named = {rel: entry for rel, entry in reuse.load_record(Path(folder)).items() if rel not in written}
        seen["stored"] = {rel for rel, entry in named.items() if rel.endswith(".html")}
        seen["files"] = {
            **{rel: hashlib.sha256(data).hexdigest() for rel, data in written.items()},
            **{rel: entry[1] for rel, entry in named.items()},
            **{rel: hashlib.sha256((store / named[rel][0]).read_bytes()).hexdigest() for rel in seen["stored"]},
        }
        return done

    monkeypatch.setattr(sitegen.site, "render_site", keep)
    outcome = build.run(root, root / "unused", check=True)
    monkeypatch.setattr(sitegen.site, "render_site", render_site)  # a build after it renders as ever
    assert outcome.summary and not [p for p in outcome.problems if p.severity == "error"], outcome
    assert not (root / "unused").exists()
    return seen["files"], seen["stored"]


def hashed(files: dict[str, bytes]) -> dict[str, str]:
    """Each file's SHA-256, as checked_site gives a check's files."""
    import hashlib

    return {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}


@pytest.fixture
def charted(tree):
    """The tree with the real methodology/site.yaml (its charts drawn) built into site/: its pages in the store."""
    shutil.copy(SITE_YAML, tree / "methodology/site.yaml")
    assert build.run(tree, tree / "site").summary
    return tree


@pytest.mark.parametrize("edit", [edit_template, edit_site_yaml, edit_result], ids=["template", "site.yaml", "data"])
def test_build_check_takes_unchanged_pages_from_the_page_store_and_no_stale_one(charted, tmp_path, monkeypatch, edit):
    """After a template edit (model.html and the rest at random), a site.yaml edit or a data edit, `build --check`
    renders the pages whose key changed and takes every other from the store: its folder is the clean build's, byte
    for byte (a page taken under a key its inputs no longer have would differ), and it wrote nothing to the store."""
    store = charted / simcache.FOLDER / reuse.PAGES_FOLDER
    before = snapshot(store)
    done = edit(charted, random.Random(21))
    files, stored = checked_site(charted, monkeypatch)
    clean = hashed(clean_site(charted, tmp_path))
    assert sorted(files) == sorted(set(clean) - {stamp.STAMP, write.MARKER}), done  # both written after it
    assert [name for name in files if files[name] != clean[name]] == [], done
    pages = {rel for rel in files if rel.endswith(".html")}
    assert stored and stored < pages, (done, len(stored), len(pages))  # most taken from the store, some rendered
    assert snapshot(store) == before  # a check writes nothing


def test_a_stale_store_entry_would_be_caught(charted, tmp_path, monkeypatch):
    """The comparison above sees a stale page: an entry that holds another page's bytes under a key (its record
    saying so, as a key that missed an input would) makes the check's folder differ from the clean build."""
    store = charted / simcache.FOLDER / reuse.PAGES_FOLDER
    record = reuse.load_record(charted / "site")
    a, b = record["models/org1/m05/index.html"][0], record["models/org1/m09/index.html"][0]
    (store / a).unlink()
    os.link(store / b, store / a)
    entries = json.loads((store / reuse.PAGES_RECORD).read_text(encoding="utf-8"))
    entries[a] = entries[b]
    (store / reuse.PAGES_RECORD).write_text(json.dumps(entries), encoding="utf-8")
    files, _ = checked_site(charted, monkeypatch)
    clean = hashed(clean_site(charted, tmp_path))
    # the page, and the record of the page's bytes
    assert [name for name in files if files[name] != clean[name]] == [reuse.RECORD, "models/org1/m05/index.html"]


def test_build_check_scans_only_the_pages_whose_bytes_it_has_not_seen(charted, monkeypatch):
    """The link store (build/links.py): a build leaves it holding its pages' link targets, so a check after it scans
    no page, and a check after a data edit only the pages whose bytes the edit changed (each page tested against
    the written files all the same), writing nothing to the store; the next build keeps exactly its own pages."""
    import hashlib
    import pickle

    from sitegen.build import links

    scanned: list[str] = []
    targets = write.link_targets

    def counted(text, page_dir, base="/"):
        scanned.append(hashlib.sha256(text.encode()).hexdigest())
        return targets(text, page_dir, base)

    monkeypatch.setattr(write, "link_targets", counted)
    store = charted / simcache.FOLDER / links.FOLDER
    kept = snapshot(store)
    before, _ = checked_site(charted, monkeypatch)
    pages = sorted(rel for rel in before if rel.endswith(".html"))
    assert scanned == [] and len(pickle.loads(next(store.iterdir()).read_bytes())) == len(pages)
    edit_result(charted, random.Random(24))
    after, _ = checked_site(charted, monkeypatch)
    changed = sorted(rel for rel in after if rel.endswith(".html") and after[rel] != before.get(rel))
    assert 0 < len(changed) < len(pages)
    assert sorted(scanned) == sorted(after[rel] for rel in changed)
    assert snapshot(store) == kept  # a check writes nothing
    scanned.clear()
    assert build.run(charted, charted / "site").summary
    assert sorted(scanned) == sorted(after[rel] for rel in changed)
    (entry,) = store.iterdir()
    assert set(pickle.loads(entry.read_bytes())) == {
        write.link_key(digest, os.path.dirname(rel), "/") for rel, digest in after.items() if rel.endswith(".html")
    }


def test_a_build_into_an_empty_folder_takes_its_pages_from_the_store(charted, tmp_path):
    """Without a previous site (another --out, or site/ deleted) a build takes the unchanged pages from the store
    and leaves it holding exactly its own pages."""
    shutil.rmtree(charted / "site")
    edit_result(charted, random.Random(22))
    check_against_clean(charted, tmp_path)
    store = charted / simcache.FOLDER / reuse.PAGES_FOLDER
    record = reuse.load_record(charted / "site")
    pages = {entry[0] for entry in record.values() if not entry[0].startswith(("bytes:", "file:"))}
    assert set(json.loads((store / reuse.PAGES_RECORD).read_text(encoding="utf-8"))) == pages
    assert set(os.listdir(store)) == pages | {reuse.PAGES_RECORD}
    linked = [rel for rel, entry in record.items() if entry[0] in pages
              and os.path.samefile(store / entry[0], charted / "site" / rel)]
    assert len(linked) == len(pages)


def test_a_data_edit_builds_only_the_charts_whose_drawing_changed(charted, monkeypatch):
    """Each chart's spec is kept by how it is drawn (its altair calls, not its rows): a data edit that moves one
    result re-draws no chart whose titles and scales it leaves alone; a chart's title edit re-draws that chart;
    a template edit loads every chart whole. (The small tree draws three charts: AI IQ's distribution, its anchor
    curves and its best over time.)"""
    made: list[str] = []  # the specs made with altair (each then kept)
    put = simcache.FileStore.put

    def counted(store, key, data):
        if store.folder.name == "chart-specs":
            made.append(key)
        put(store, key, data)

    monkeypatch.setattr(simcache.FileStore, "put", counted)
    specs = charted / simcache.FOLDER / "chart-specs"
    drawn = len(os.listdir(specs))
    assert drawn >= 3
    edit_result(charted, random.Random(23))
    assert build.run(charted, charted / "site").summary
    after_data = len(made)
    assert after_data < drawn, (after_data, drawn)
    made.clear()
    edit_site_yaml(charted, random.Random(24))
    assert build.run(charted, charted / "site").summary
    assert len(made) == 1  # the chart whose words changed, only
    made.clear()
    edit_template(charted, random.Random(25), "model.html")
    assert build.run(charted, charted / "site").summary
    assert made == []


def small_data(root: Path) -> Path:
    """A data tree of three files, written before the digest is taken."""
    dump(root / "scores/models/a/one.yaml", {"id": "a/one", "results": []})
    dump(root / "scores/models/a/two.yaml", {"id": "a/two", "results": []})
    (root / "methodology").mkdir(parents=True)
    (root / "methodology/index.md").write_text("# Methodology\n", encoding="utf-8")
    return root


def test_the_data_digest_is_checked_again_by_the_files_states_without_reading_them(tmp_path, monkeypatch):
    """stamp.still (a build's check, after reading, that the files are still the digest's): the files' states
    taken before data_digest read them, compared; a file is read again only when its ctime lies within RACY_NS of
    that reading (a change in the same tick of the clock would not show)."""
    root = small_data(tmp_path)
    digest = stamp.data_digest(root)
    monkeypatch.setattr(stamp, "RACY_NS", 0)  # the files were written before the reading started: none is racy
    monkeypatch.setattr(stamp, "_file_sha", lambda *a: pytest.fail("a file was read again"))
    assert stamp.still(root, digest)
    two = root / "scores/models/a/two.yaml"
    before = two.stat()
    two.write_text(two.read_text(encoding="utf-8").replace("a/two", "a/tw2"), encoding="utf-8")  # same size
    os.utime(two, ns=(before.st_atime_ns, before.st_mtime_ns))  # and its mtime put back: its ctime still moves
    assert not stamp.still(root, digest)


def test_the_data_digest_check_sees_an_added_file_and_a_change_within_the_clocks_tick(tmp_path, monkeypatch):
    root = small_data(tmp_path)
    digest = stamp.data_digest(root)
    assert stamp.still(root, digest)  # everything is racy here (written just now): read again, unchanged
    dump(root / "scores/models/a/three.yaml", {"id": "a/three", "results": []})
    assert not stamp.still(root, digest)
    (root / "scores/models/a/three.yaml").unlink()
    assert stamp.still(root, digest)
    # a write the file's state does not show (a coarse clock: the same times, size and inode) is found by reading
    # it again, as its ctime is within RACY_NS of the reading
    states = {p: stamp._state(p) for p in stamp._LAST[root][1]}
    one = root / "scores/models/a/one.yaml"
    one.write_text(one.read_text(encoding="utf-8").replace("a/one", "a/on1"), encoding="utf-8")
    monkeypatch.setattr(stamp, "_state", lambda p: states[p])
    assert not stamp.still(root, digest)
    # a digest this process did not take is taken afresh
    assert not stamp.still(root, "0" * 64)


def test_a_build_that_fails_half_way_publishes_nothing_and_leaves_the_store_whole(charted, tmp_path, monkeypatch):
    """A disk that fills while pages are written: the build reports it and site/ stays the previous build's, byte
    for byte and file for file; the store's record is the previous build's (what the failed build linked there
    holds the bytes of its keys); the next build is the clean build's."""
    site_before = snapshot(charted / "site")
    store = charted / simcache.FOLDER / reuse.PAGES_FOLDER
    record_before = (store / reuse.PAGES_RECORD).read_bytes()
    edit_template(charted, random.Random(26), "model.html")  # every model page rendered again
    put_file = write.put_file
    written: list[str] = []

    def filling(path, data):
        written.append(str(path))
        if len([p for p in written if p.endswith(".html")]) > 5:
            raise OSError(28, "No space left on device")
        put_file(path, data)

    monkeypatch.setattr(write, "put_file", filling)
    failed = build.run(charted, charted / "site")
    assert [p for p in failed.problems if p.severity == "error"], failed
    assert snapshot(charted / "site") == site_before
    assert (store / reuse.PAGES_RECORD).read_bytes() == record_before
    monkeypatch.setattr(write, "put_file", put_file)
    check_against_clean(charted, tmp_path)


def planned(root: Path, monkeypatch) -> dict:
    """A build of root, with what site/assembly.plan was given and made: the pages (the model pages' data unbuilt,
    site/assembly._ModelData), the context, its URLs, lookups and charts."""
    from sitegen.site import assembly

    seen: dict = {}
    plan = assembly.plan

    def keep(ctx, urls, lk, charts):
        seen.update(ctx=ctx, urls=urls, lk=lk, charts=charts, pages=plan(ctx, urls, lk, charts))
        return seen["pages"]

    monkeypatch.setattr(assembly, "plan", keep)
    shutil.rmtree(root / "planned", ignore_errors=True)  # a folder of its own: site/ may be up to date
    assert build.run(root, root / "planned").summary
    return seen


def kept_and_changed_keys(tree: Path, monkeypatch, rng: random.Random, before: dict, outputs) -> tuple[set, set]:
    """Six edits in turn (two results, a model's metadata, the sources, a definition, a new model); after each, every
    output of `outputs` (path -> (key, what the key stands for)) whose key is unchanged must stand for the same data as
    before (a key that missed an input fails here). The paths whose key stayed, and those whose key moved (a key of
    None, an output made every time, counts as moved)."""
    kept: set[str] = set()
    changed: set[str] = set()
    for edit in (edit_result, edit_result, edit_metadata, edit_sources, edit_definition, add_model):
        done = edit(tree, rng)
        after = outputs(planned(tree, monkeypatch))
        for path in set(before) & set(after):
            if before[path][0] is not None and before[path][0] == after[path][0]:
                assert before[path][1] == after[path][1], (done, path)
                kept.add(path)
            else:
                changed.add(path)
        before = after
    return kept, changed


def keyed_outputs(seen: dict) -> dict[str, tuple[str | None, bytes]]:
    """Every model page's and board file's key made without its data (the model page's inputs, the board file's
    key) and what the key stands for: the model page's data and charts (pickled), the board file's bytes."""
    from sitegen.site import assembly

    out = {}
    for page in seen["pages"]:
        if isinstance(page.data, assembly._ModelData):
            data = page.data()
            shown = (data, assembly._page_charts(page, data, seen["charts"]))
            assert assembly._page_charts(page, page.data.chart_fields(), seen["charts"]) == shown[1]
            out[page.path] = (reuse.key_of(page.data.inputs()), pickle.dumps(shown))
    for path, (key, make) in assembly._board_files(seen["ctx"], seen["urls"], seen["lk"], seen["pages"]).items():
        out[path] = (key, make())
    return out


def test_a_key_made_without_the_data_covers_the_data(tree, monkeypatch):
    """A model page's key is made from its inputs without its view being built, and a board file's (cells.json,
    each as-of month's texts) from what it is made from (site/assembly._ModelData, _board_files): after each edit,
    every model page and board file whose key is unchanged has the same data or bytes as before (a key that missed
    an input would fail here), and the edits leave some keys unchanged and change others."""
    rng = random.Random(5)
    before = keyed_outputs(planned(tree, monkeypatch))
    assert any(p.endswith("cells.json") for p in before) and any("/asof/" in p for p in before)
    kept, changed = kept_and_changed_keys(tree, monkeypatch, rng, before, keyed_outputs)
    assert {p for p in kept if p.startswith("models/")} and {p for p in changed if p.startswith("models/")}
    assert {p for p in kept if p.startswith("boards/")} and {p for p in changed if p.startswith("boards/")}


def test_an_edit_re_makes_only_the_board_files_it_changes(tree, tmp_path):
    """A result's edit on one board: the board files (cells.json, the as-of months' texts) whose bytes it changes
    are made again, every other is the previous site's file (the same inode), and the site is the clean build's."""
    before = inodes(tree / "site")
    path = tree / "scores/models/org1/m05.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["results"][0]["value"] = round(doc["results"][0]["value"] / 2 + 1, 1)
    dump(path, doc)
    old = {rel: (tree / "site" / rel).read_bytes() for rel in before if rel.startswith("boards/")}
    check_against_clean(tree, tmp_path)
    after = inodes(tree / "site")
    files = [rel for rel in old if rel.endswith(".json") and rel in after]
    same = [rel for rel in files if (tree / "site" / rel).read_bytes() == old[rel]]
    assert same and len(same) < len(files)
    assert [rel for rel in same if after[rel] != before[rel]] == []  # every unchanged board file is reused
