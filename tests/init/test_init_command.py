"""`sitegen init` (cli/init.py): a new leaderboard repository that validates and builds at once, before `git init`,
holds no Python, keeps the workflow rules of this repository's own workflows, and takes a result by
`sitegen new result`."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.cli import main

ROOT = Path(__file__).resolve().parents[2]
ENV = {"GITHUB_ACTIONS": "false"}


def run(*args: str):
    return CliRunner().invoke(main, list(args), env=ENV)


def workflow_rules():
    """tests/test_workflows.py, the rules this repository's workflows keep, loaded to run on the generated ones."""
    spec = importlib.util.spec_from_file_location("workflow_rules", ROOT / "tests" / "test_workflows.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("init") / "leaderboard"
    result = run("init", str(folder))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("wrote 33 files into ")
    return folder


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_the_repository_has_its_files_and_no_python(repo):
    have = files(repo)
    assert {
        ".github/workflows/ci.yml", ".github/workflows/pages.yml", ".github/workflows/pr-diff.yml",
        ".github/workflows/pr-diff-comment.yml", ".github/sitegen-requirements.txt", ".gitignore", "README.md",
        "CONTRIBUTING.md", "methodology/benchmarks.yaml", "methodology/site.yaml", "methodology/index.md",
        "methodology/overall.md", "methodology/indices/overall.yaml", "methodology/indices/benchmark-boards.yaml",
        "scores/sources.yaml", "schemas/index.schema.json", "schemas/model.schema.json", "schemas/site.schema.json",
    } <= have
    assert len([p for p in have if p.startswith("scores/models/")]) == 5
    assert not [p for p in have if p.endswith((".py", ".pyc"))]
    assert not [p for p in have if "@@" in (repo / p).read_text(encoding="utf-8")]  # every placeholder filled


def test_the_index_is_a_weighted_mean_of_the_one_benchmark_and_the_rows_are_credited(repo):
    index = yaml.safe_load((repo / "methodology/indices/overall.yaml").read_text(encoding="utf-8"))
    assert (index["id"], index["kind"], index["weights"]) == ("overall", "weighted-mean", "relative")
    assert index["constituents"] == [{"benchmark": "gpqa-diamond", "weight": 1}]
    assert "source_snapshot" not in index  # every source feeds it, submitters' too, by the selection rule
    assert index["selection"]["order"] == ["independent-first", "source-precedence", "newest", "highest"]
    (bench,) = yaml.safe_load((repo / "methodology/benchmarks.yaml").read_text(encoding="utf-8"))["benchmarks"]
    assert (bench["id"], bench["scale"]) == ("gpqa-diamond", {"min": 0, "max": 100, "unit": "percent"})
    (source,) = yaml.safe_load((repo / "scores/sources.yaml").read_text(encoding="utf-8"))["sources"]
    assert (source["id"], source["licence"]) == ("epoch-hub", "CC BY 4.0")
    assert source["attribution"].startswith("Epoch AI, 'AI Benchmarking Hub'")
    model = yaml.safe_load((repo / "scores/models/deepseek/deepseek-r1-jan-25.yaml").read_text(encoding="utf-8"))
    (row,) = model["results"]
    assert (row["benchmark"], row["value"], row["source"], row["published"]) == (
        "gpqa-diamond", 69.223485, "epoch-hub", "2025-05-26")
    site = yaml.safe_load((repo / "methodology/site.yaml").read_text(encoding="utf-8"))
    assert (site["title"], site["boards"]) == ("GPQA Diamond leaderboard", ["overall"])


def test_the_schemas_are_the_packages_and_the_files_point_at_them(repo):
    package = ROOT / "generator" / "sitegen" / "schemas"
    for path in package.glob("*.schema.json"):
        assert (repo / "schemas" / path.name).read_bytes() == path.read_bytes()
    first = (repo / "scores/models/deepseek/deepseek-r1-jan-25.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../schemas/model.schema.json"
    assert (repo / "scores/models/deepseek/../../../schemas/model.schema.json").resolve().is_file()


def test_it_validates_and_builds_before_git_init(repo, tmp_path):
    assert not (repo / ".git").exists()
    result = run("validate", "--root", str(repo), "--max-warnings", "0")
    assert result.exit_code == 0, result.output
    out = tmp_path / "site"
    result = run("build", "--root", str(repo), "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    board = json.loads((out / "api" / "v1" / "indices" / "overall.json").read_text(encoding="utf-8"))
    values = {r["model"]: r["value"] for r in board["rows"]}
    assert values["deepseek/deepseek-r1-0528-may-25"] == 76.33  # 76.325758 at the definition's 2 decimals
    assert values["01-ai/yi-1.5-34b-chat"] == 31.98
    assert [r["model"] for r in board["rows"]][0] == "deepseek/deepseek-r1-0528-may-25"
    assert (out / "methodology" / "overall" / "index.html").is_file()
    result = run("build", "--root", str(repo), "--out", str(out), "--check", "--quiet")
    assert result.exit_code == 0, result.output


def test_a_result_is_added_with_new_result(tmp_path):
    folder = tmp_path / "lb"
    assert run("init", str(folder)).exit_code == 0
    result = run("new", "model", "acme/widget-1", "--name", "Widget 1", "--organization", "Acme", "--root", str(folder))
    assert result.exit_code == 0, result.output
    # the schema line points at the repository's own copy, as in the model files init wrote
    made = folder / "scores/models/acme/widget-1.yaml"
    first = made.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../schemas/model.schema.json"
    assert (made.parent / first.split("=", 1)[1]).resolve() == (folder / "schemas/model.schema.json").resolve()
    # the source entry as CONTRIBUTING.md shows it (a made-up lab: this model and its number are test data)
    guide = (folder / "CONTRIBUTING.md").read_text(encoding="utf-8")
    entry = guide.split("```yaml\n", 1)[1].split("   ```", 1)[0]
    assert "  - id: your-lab-2026-01\n" in entry and "--benchmark gpqa-diamond --value 71.5" in guide
    with (folder / "scores/sources.yaml").open("a", encoding="utf-8") as sources:
        sources.write("\n".join(line.removeprefix("   ") for line in entry.splitlines()) + "\n")
    result = run("new", "result", "acme/widget-1", "--benchmark", "gpqa-diamond", "--value", "50.5", "--source",
                 "your-lab-2026-01", "--url", "https://example.org/run", "--retrieved", "2026-04-20", "--root",
                 str(folder))
    assert result.exit_code == 0, result.output
    model = yaml.safe_load((folder / "scores/models/acme/widget-1.yaml").read_text(encoding="utf-8"))
    assert model["results"] == [{"benchmark": "gpqa-diamond", "value": 50.5, "source": "your-lab-2026-01",
                                 "retrieved": "2026-04-20", "url": "https://example.org/run"}]
    assert run("validate", "--root", str(folder), "--max-warnings", "0").exit_code == 0


def test_the_guides_diff_shows_a_submission_before_it_is_committed(tmp_path):
    """CONTRIBUTING.md's step 6 runs before the commit of step 7: its diff reads the working tree."""
    folder = tmp_path / "lb"
    assert run("init", str(folder)).exit_code == 0
    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "sitegen init"], ["checkout", "-q", "-b", "mine"]):
        subprocess.run([*git, *args], cwd=folder, check=True, capture_output=True,
                       env={"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"})
    # steps 3 to 5 (a made-up lab: this model and its number are test data)
    assert run("new", "model", "acme/widget-1", "--name", "Widget 1", "--root", str(folder)).exit_code == 0
    guide = (folder / "CONTRIBUTING.md").read_text(encoding="utf-8")
    entry = guide.split("```yaml\n", 1)[1].split("   ```", 1)[0]
    with (folder / "scores/sources.yaml").open("a", encoding="utf-8") as sources:
        sources.write("\n".join(line.removeprefix("   ") for line in entry.splitlines()) + "\n")
    assert run("new", "result", "acme/widget-1", "--benchmark", "gpqa-diamond", "--value", "70.5", "--source",
               "your-lab-2026-01", "--url", "https://example.org/run", "--retrieved", "2026-04-20", "--root",
               str(folder)).exit_code == 0
    (command,) = [line.split("#")[0].split() for line in (folder / "CONTRIBUTING.md").read_text("utf-8").splitlines()
                  if "sitegen diff" in line]
    assert command[:2] == [".venv/bin/sitegen", "diff"]
    result = CliRunner().invoke(main, [*command[1:], "--root", str(folder), "--quiet"],
                                env=ENV | {"SITEGEN_CACHE": "off"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("## Leaderboard diff: main → working tree\n")
    assert "- new result: acme/widget-1 gpqa-diamond 70.5 (your-lab-2026-01)" in result.output


def test_a_named_benchmark_gets_example_rows_marked_on_every_page(tmp_path):
    folder = tmp_path / "lb"
    result = run("init", str(folder), "--benchmark", "Widget Bench 2")
    assert result.exit_code == 0, result.output
    (bench,) = yaml.safe_load((folder / "methodology/benchmarks.yaml").read_text(encoding="utf-8"))["benchmarks"]
    assert (bench["id"], bench["name"]) == ("widget-bench-2", "Widget Bench 2")
    index = yaml.safe_load((folder / "methodology/indices/overall.yaml").read_text(encoding="utf-8"))
    assert index["constituents"] == [{"benchmark": "widget-bench-2", "weight": 1}]
    models = sorted(p.name for p in (folder / "scores/models/example").iterdir())
    assert models == ["model-a.yaml", "model-b.yaml", "model-c.yaml"]
    out = tmp_path / "site"
    result = run("build", "--root", str(folder), "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 5
    unmarked = [p for p in pages if "example data: replace" not in p.read_text(encoding="utf-8")]
    assert unmarked == []


@pytest.mark.parametrize("args", [["--benchmark", "!!!"], []])
def test_it_refuses_a_non_empty_folder_or_a_nameless_benchmark(tmp_path, args):
    folder = tmp_path / "lb"
    folder.mkdir()
    if not args:
        (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    result = run("init", str(folder), *args)
    assert result.exit_code == 1
    assert ("not empty" if not args else "give a name with letters or digits") in result.output
    assert sorted(p.name for p in folder.iterdir()) == ([] if args else ["notes.txt"])


def test_update_refreshes_the_schemas_only(tmp_path):
    folder = tmp_path / "lb"
    assert run("init", str(folder)).exit_code == 0
    (folder / "schemas" / "index.schema.json").write_text("{}", encoding="utf-8")
    (folder / "README.md").write_text("my own\n", encoding="utf-8")
    result = run("init", str(folder), "--update")
    assert result.exit_code == 0, result.output
    package = ROOT / "generator" / "sitegen" / "schemas" / "index.schema.json"
    assert (folder / "schemas" / "index.schema.json").read_bytes() == package.read_bytes()
    assert (folder / "README.md").read_text(encoding="utf-8") == "my own\n"
    assert run("init", str(tmp_path / "elsewhere"), "--update").exit_code == 1


INSTALLING = ("ci.yml", "pages.yml", "pr-diff-comment.yml")  # each installs from the file in its own checkout


def install_step(folder: Path, name: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """A workflow's "Install sitegen" step run by bash in the repository, with a `python` that only says what pip
    would install (no network)."""
    (step,) = [s for job in yaml.safe_load((folder / ".github/workflows" / name).read_text(encoding="utf-8"))["jobs"]
               .values() for s in job["steps"] if s.get("name") == "Install sitegen"]
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "python").write_text('#!/bin/sh\necho "python $*"; cat "$5"\n', encoding="utf-8")
    (fake / "python").chmod(0o755)
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=folder, capture_output=True, text=True,
                          env={"PATH": f"{fake}:/usr/bin:/bin"}, timeout=60)


#: Installers' records (PEP 610's direct_url.json, as pip and uv write them), hand-written: a git install
#: (`pip install "sitegen @ git+https://github.com/acme/sitegen@v0.2.0"`), a wheel downloaded from a release.
GIT_RECORD = ('{"url": "https://github.com/acme/sitegen", "vcs_info": {"commit_id": '
              '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39", "requested_revision": "v0.2.0", "vcs": "git"}}')
WHEEL_URL = "https://github.com/acme/sitegen/releases/download/v0.2.0/sitegen-0.2.0-py3-none-any.whl"
WHEEL_SHA256 = "857577090ad3f296025da33f7d1b742bea97ad0957e46ee069f23aeb36ec1389"


def test_the_requirement_is_written_where_the_workflows_install_from(tmp_path, monkeypatch):
    """--sitegen SPEC comes first, before where this sitegen was installed from (a git commit here)."""
    monkeypatch.setattr("sitegen.cli.init.install_record", lambda: GIT_RECORD)
    folder = tmp_path / "lb"
    spec = "sitegen @ https://example.org/sitegen-0.1.0-py3-none-any.whl"
    result = run("init", str(folder), "--sitegen", spec)
    assert result.exit_code == 0, result.output
    assert f"the workflows install `{spec}`: the address given to `sitegen init --sitegen`\n" in result.output
    lines = (folder / ".github/sitegen-requirements.txt").read_text(encoding="utf-8").splitlines()
    assert lines[-1] == spec
    assert (f"install `{spec}` (`.github/sitegen-requirements.txt`): the address given to `sitegen init --sitegen`."
            in (folder / "README.md").read_text("utf-8"))
    for name in INSTALLING:
        done = install_step(folder, name, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[0] == "python -m pip install -r .github/sitegen-requirements.txt"
        assert done.stdout.splitlines()[-1] == spec


def test_without_an_address_the_repository_says_it_must_be_set_and_the_workflows_stop(tmp_path):
    """This checkout's package metadata names no source repository (pyproject.toml has no Project-URL): init
    writes no requirement, says so on stderr, in README.md and in the requirement file, and each workflow's
    install step fails with an annotation on that file instead of installing nothing."""
    from sitegen.cli.init import install_record, package_urls, recorded_requirement

    assert package_urls() == []
    # installed editable from this checkout (a local folder: dir_info), or run from it by PYTHONPATH: no address
    assert recorded_requirement(install_record()) is None
    folder = tmp_path / "lb"
    result = CliRunner().invoke(main, ["init", str(folder)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "note: no address to install sitegen from (--sitegen SPEC)" in result.stderr
    text = (folder / ".github/sitegen-requirements.txt").read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.strip() and not line.startswith("#")] == []
    assert "# NOT SET: sitegen init was not told where to install sitegen 0.1.0 from" in text
    assert "**First, say where sitegen is installed from:**" in (folder / "README.md").read_text(encoding="utf-8")
    for name in INSTALLING:
        done = install_step(folder, name, tmp_path)
        assert done.returncode == 1
        assert done.stdout.startswith("::error file=.github/sitegen-requirements.txt::no sitegen to install")


@pytest.mark.parametrize(
    ("urls", "expected"),
    [
        (["Source, https://github.com/acme/sitegen"], "sitegen @ git+https://github.com/acme/sitegen@v0.2.0"),
        (["Homepage, https://acme.org", "Source Code, https://git.acme.org/sitegen/"],
         "sitegen @ git+https://git.acme.org/sitegen@v0.2.0"),
        (["Repository, https://github.com/acme/sitegen.git"], "sitegen @ git+https://github.com/acme/sitegen.git@v0.2.0"),
        (["Homepage, https://acme.org"], None),  # a home page is not where the code is
        (["Source, http://github.com/acme/sitegen"], None),  # https only
        (["Source, https://github.com/acme/sitegen@main"], None),  # no ref of its own: the tag is the version's
        ([], None),
    ],
)
def test_the_default_address_is_the_source_repository_at_the_versions_tag(urls, expected):
    from sitegen.cli.init import default_requirement

    assert default_requirement(urls, "0.2.0") == expected


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (GIT_RECORD, "sitegen @ git+https://github.com/acme/sitegen@3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"),
        # uv's spelling: the .git suffix, no requested_revision (a branch was installed: the commit, not the branch)
        ('{"url":"https://git.acme.org/sitegen.git","vcs_info":{"vcs":"git","commit_id":'
         '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',
         "sitegen @ git+https://git.acme.org/sitegen.git@3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"),
        # a wheel from a URL, its hash as pip records it (both spellings), as the legacy field alone, or none
        (f'{{"url": "{WHEEL_URL}", "archive_info": {{"hash": "sha256={WHEEL_SHA256}", '
         f'"hashes": {{"sha256": "{WHEEL_SHA256}"}}}}}}', f"sitegen @ {WHEEL_URL}#sha256={WHEEL_SHA256}"),
        (f'{{"url": "{WHEEL_URL}", "archive_info": {{"hash": "sha256={WHEEL_SHA256}"}}}}',
         f"sitegen @ {WHEEL_URL}#sha256={WHEEL_SHA256}"),
        (f'{{"url": "{WHEEL_URL}", "archive_info": {{}}}}', f"sitegen @ {WHEEL_URL}"),
        (f'{{"url": "{WHEEL_URL}", "archive_info": {{"hash": "md5=0f343b0931126a20f133d67c2b018a3b"}}}}',
         f"sitegen @ {WHEEL_URL}"),  # no sha256 recorded: nothing for pip to check
    ],
)
def test_the_address_the_installer_recorded_is_the_commit_or_the_url(direct_url, expected):
    from sitegen.cli.init import recorded_requirement

    address = recorded_requirement(direct_url)
    assert address is not None and address.requirement == expected


@pytest.mark.parametrize(
    "direct_url",
    [
        None,  # installed from an index, or from a --find-links folder (tests/init/test_wheel.py's install)
        '{"url":"file:///home/me/sitegen","dir_info":{"editable":true}}',  # `pip install -e .`, this checkout's
        '{"url": "file:///home/me/sitegen", "dir_info": {}}',  # `pip install .`
        f'{{"url": "file:///home/me/wheelhouse/sitegen-0.1.0-py3-none-any.whl", "archive_info": '
        f'{{"hashes": {{"sha256": "{WHEEL_SHA256}"}}}}}}',  # `pip install ./sitegen-0.1.0-py3-none-any.whl`
        '{"url": "file:///home/me/sitegen", "vcs_info": {"vcs": "git", "commit_id": '
        '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # git+file://: a clone on this machine
        '{"url": "ssh://git@github.com/acme/sitegen", "vcs_info": {"vcs": "git", "commit_id": '
        '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # git+ssh: the workflows hold no key
        '{"url": "http://acme.org/sitegen-0.2.0-py3-none-any.whl", "archive_info": {}}',  # http: https only
        '{"url": "https://me:s3cret@git.acme.org/sitegen", "vcs_info": {"vcs": "git", "commit_id": '
        '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # credentials are never copied
        '{"url": "https://${GIT_TOKEN}@git.acme.org/sitegen", "vcs_info": {"vcs": "git", "commit_id": '
        '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # PEP 610's environment-variable credentials
        f'{{"url": "{WHEEL_URL}?token=s3cret", "archive_info": {{}}}}',  # a query may carry a token
        '{"url": "https://acme.org/sitegen 0.2.0.whl", "archive_info": {}}',  # whitespace
        '{"url": "https://hg.acme.org/sitegen", "vcs_info": {"vcs": "hg", "commit_id": "3f1c2a9e8b7d"}}',
        '{"url": "https://github.com/acme/sitegen", "vcs_info": {"vcs": "git", "requested_revision": "main"}}',
        '{"url": "https://github.com/acme/sitegen", "vcs_info": {"vcs": "git", "commit_id": "main"}}',
        '{"url": "https://github.com/acme/mono", "subdirectory": "sitegen", "vcs_info": {"vcs": "git", '
        '"commit_id": "3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # sitegen's pyproject.toml is at its root
        f'{{"url": "{WHEEL_URL}", "archive_info": {{"hashes": {{"sha256": "not-a-digest"}}}}}}',
        f'{{"url": "{WHEEL_URL}"}}',  # neither vcs_info nor archive_info
        '{"vcs_info": {"vcs": "git", "commit_id": "3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}',  # no url
        f'{{"url": "{WHEEL_URL}", "archive_info": ',  # cut short
        '["https://github.com/acme/sitegen"]',
    ],
)
def test_an_address_no_workflow_can_reach_or_not_read_as_one_is_not_taken(direct_url):
    from sitegen.cli.init import recorded_requirement

    assert recorded_requirement(direct_url) is None


def test_the_address_is_the_option_then_the_install_record_then_the_project_url():
    from sitegen.cli.init import Address, choose_address

    source = ["Source, https://github.com/acme/sitegen"]
    commit = "sitegen @ git+https://github.com/acme/sitegen@3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"
    assert choose_address("sitegen @ https://example.org/s.whl", GIT_RECORD, source) == Address(
        "sitegen @ https://example.org/s.whl", "the address given to `sitegen init --sitegen`")
    assert choose_address(None, GIT_RECORD, source) == Address(
        commit, "the git commit this sitegen was installed from")
    local = '{"url": "file:///home/me/sitegen", "dir_info": {}}'
    assert choose_address(None, local, source) == Address(
        "sitegen @ git+https://github.com/acme/sitegen@v0.1.0",
        "this sitegen's source repository (its Project-URL) at its version's tag")
    assert choose_address(None, local, []) is None
    assert choose_address(None, None, []) is None  # never sitegen==0.1.0: PyPI's sitegen is another project


def test_init_writes_the_commit_sitegen_was_installed_from_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr("sitegen.cli.init.install_record", lambda: GIT_RECORD)
    folder = tmp_path / "lb"
    result = run("init", str(folder))
    assert result.exit_code == 0, result.output
    spec = "sitegen @ git+https://github.com/acme/sitegen@3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"
    said = result.output.splitlines()[1]
    assert said == f"the workflows install `{spec}`: the git commit this sitegen was installed from"
    lines = (folder / ".github/sitegen-requirements.txt").read_text(encoding="utf-8").splitlines()
    assert lines[-1] == spec
    assert (f"install `{spec}` (`.github/sitegen-requirements.txt`): the git commit this sitegen was installed from."
            in (folder / "README.md").read_text("utf-8"))
    done = install_step(folder, "ci.yml", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == spec


def test_init_copies_no_credentials_from_the_install_record(tmp_path, monkeypatch):
    record = ('{"url": "https://me:s3cret@git.acme.org/sitegen", "vcs_info": {"vcs": "git", "commit_id": '
              '"3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"}}')
    monkeypatch.setattr("sitegen.cli.init.install_record", lambda: record)
    folder = tmp_path / "lb"
    result = CliRunner().invoke(main, ["init", str(folder)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "note: no address to install sitegen from (--sitegen SPEC)" in result.stderr
    assert "# NOT SET" in (folder / ".github/sitegen-requirements.txt").read_text(encoding="utf-8")
    assert [p for p in files(folder) if "s3cret" in (folder / p).read_text(encoding="utf-8")] == []
    assert "s3cret" not in result.output


class Installed(importlib.metadata.Distribution):
    """A distribution named sitegen whose files are in `site` and whose installer wrote `record`."""

    def __init__(self, site: Path, record: str):
        self.site, self.record = site, record

    def read_text(self, filename):
        return self.record if filename == "direct_url.json" else None

    def locate_file(self, path):
        return self.site / path


def test_the_record_read_is_the_running_sitegens_not_another_installed_one(tmp_path):
    """A checkout on PYTHONPATH beside an installed sitegen (PyPI's, say) runs code the record does not describe."""
    import sitegen
    from sitegen.cli.init import install_record

    running = Path(sitegen.__file__).resolve().parent.parent
    assert install_record(Installed(running, GIT_RECORD)) == GIT_RECORD
    assert install_record(Installed(tmp_path, GIT_RECORD)) is None


def test_the_workflows_keep_this_repositorys_rules(repo):
    rules = workflow_rules()
    paths = sorted((repo / ".github" / "workflows").glob("*.yml"))
    assert [p.name for p in paths] == ["ci.yml", "pages.yml", "pr-diff-comment.yml", "pr-diff.yml"]
    for path in paths:
        rules.test_every_action_is_pinned_to_a_commit_sha_with_its_version(path)
        rules.test_top_level_permissions_are_read_only(path)
        rules.test_write_permissions_only_in_the_jobs_that_need_them(path)
        rules.test_never_pull_request_target(path)
        rules.test_every_job_has_a_timeout(path)
        rules.test_every_checkout_keeps_no_credentials(path)
        rules.test_no_expressions_pasted_into_shell_or_scripts(path)
        rules.test_secrets_and_environments_only_in_the_jobs_that_need_them(path)
    # the workflow_run split: the comment job alone writes, with no checkout and no shell; render runs no PR code
    comment_wf = rules.load(repo / ".github/workflows/pr-diff-comment.yml")
    assert set(rules.triggers(comment_wf)) == {"workflow_run"}
    render, comment = comment_wf["jobs"]["render"], comment_wf["jobs"]["comment"]
    assert comment["permissions"] == {"pull-requests": "write"}
    assert not any(rules.is_checkout(s) or "run" in s for s in comment["steps"])
    checkout = next(s for s in render["steps"] if rules.is_checkout(s))
    assert checkout["with"]["ref"] == "${{ github.event.repository.default_branch }}"
    assert checkout["with"]["sparse-checkout"] == ".github/sitegen-requirements.txt"
    done = subprocess.run([rules.actionlint(), "-no-color", *map(str, paths)], cwd=repo, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, f"actionlint:\n{done.stdout}{done.stderr}"
    done = rules.zizmor(*map(str, paths), cwd=repo)
    assert done.returncode == 0, f"zizmor:\n{done.stdout}{done.stderr}"
