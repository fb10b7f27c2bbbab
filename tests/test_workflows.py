"""The GitHub Actions workflows and repository metadata keep the project's security rules.

The rules (see SECURITY.md): actions pinned to a full commit SHA with the release in a comment,
read-only tokens except where one job needs more, no pull_request_target, a timeout on every
job, no credentials left in a checkout, no ${{ }} expressions pasted into shell or scripts,
and a PR-comment workflow that never runs PR code. actionlint checks everything else.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GITHUB = ROOT / ".github"
WORKFLOWS = GITHUB / "workflows"
WORKFLOW_PATHS = sorted([*WORKFLOWS.glob("*.yml"), *WORKFLOWS.glob("*.yaml")])
WORKFLOW_IDS = [p.name for p in WORKFLOW_PATHS]

SHA_PINNED = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$")
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<ref>[^\s#]+)(?P<rest>.*)$")
VERSION_COMMENT = re.compile(r"^\s+#\s*v\d+\.\d+\.\d+\s*$")

# The only write scopes any job may hold: (workflow file, job id) -> scopes.
WRITE_SCOPES = {
    ("pages.yml", "deploy"): {"pages", "id-token"},
    ("pr-diff-comment.yml", "comment"): {"pull-requests"},
    ("refresh-data.yml", "refresh"): {"contents", "pull-requests", "actions"},
    ("refresh-data.yml", "refresh-aa-api"): {"contents", "pull-requests", "actions"},
}
#: The only jobs that may name a secret (besides github.token) or a GitHub environment: (workflow, job) -> secrets.
SECRET_JOBS = {("refresh-data.yml", "refresh-aa-api"): {"AA_API_KEY"}}


def load(path: Path) -> dict:
    """Parses one workflow file."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def workflow(name: str) -> dict:
    """Parses the workflow called name under .github/workflows/."""
    return load(WORKFLOWS / name)


def triggers(wf: dict) -> dict:
    """The workflow's `on:` as a dict of event -> config (PyYAML reads the key `on` as True)."""
    on = wf.get("on", wf.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {event: None for event in on}
    return dict(on or {})


def steps(wf: dict):
    """Yields (job id, step) for every step of every job."""
    for job_id, job in wf["jobs"].items():
        for step in job.get("steps") or []:
            yield job_id, step


def is_checkout(step: dict) -> bool:
    return str(step.get("uses", "")).startswith("actions/checkout@")


@pytest.fixture(params=WORKFLOW_PATHS, ids=WORKFLOW_IDS)
def workflow_path(request) -> Path:
    return request.param


def test_the_workflows_are_there():
    assert {"ci.yml", "pages.yml", "pr-diff.yml", "pr-diff-comment.yml", "newest-deps.yml"} <= set(WORKFLOW_IDS)


# --- rules for every workflow ------------------------------------------------------------------


def test_every_action_is_pinned_to_a_commit_sha_with_its_version(workflow_path):
    lines = [m for line in workflow_path.read_text(encoding="utf-8").splitlines() if (m := USES_LINE.match(line))]
    wf = load(workflow_path)
    parsed = [step["uses"] for _, step in steps(wf) if "uses" in step]
    parsed += [job["uses"] for job in wf["jobs"].values() if "uses" in job]
    # Every `uses:` the runner sees is on a line of its own that this test can read the comment of.
    assert sorted(m["ref"] for m in lines) == sorted(parsed)
    for m in lines:
        ref = m["ref"]
        if ref.startswith("./"):
            continue  # an action in this repository: pinned by the commit under test
        assert SHA_PINNED.match(ref), f"{workflow_path.name}: {ref} is not pinned to a full commit SHA"
        assert VERSION_COMMENT.match(m["rest"]), (
            f"{workflow_path.name}: {ref} needs its release as a comment on the same line, e.g. '# v1.2.3'"
        )


def test_top_level_permissions_are_read_only(workflow_path):
    wf = load(workflow_path)
    assert "permissions" in wf, f"{workflow_path.name}: set top-level permissions (contents: read)"
    permissions = wf["permissions"]
    assert isinstance(permissions, dict), f"{workflow_path.name}: list permissions scope by scope, not {permissions!r}"
    writes = {scope for scope, level in permissions.items() if level not in ("read", "none")}
    assert not writes, f"{workflow_path.name}: top-level permissions grant {sorted(writes)}"


def test_write_permissions_only_in_the_jobs_that_need_them(workflow_path):
    for job_id, job in load(workflow_path)["jobs"].items():
        permissions = job.get("permissions", {})
        assert isinstance(permissions, dict), f"{workflow_path.name}:{job_id}: list permissions scope by scope"
        writes = {scope for scope, level in permissions.items() if level == "write"}
        allowed = WRITE_SCOPES.get((workflow_path.name, job_id), set())
        assert writes <= allowed, f"{workflow_path.name}:{job_id} may not hold {sorted(writes - allowed)}: write"


def test_never_pull_request_target(workflow_path):
    assert "pull_request_target" not in triggers(load(workflow_path))


def test_every_job_has_a_timeout(workflow_path):
    for job_id, job in load(workflow_path)["jobs"].items():
        timeout = job.get("timeout-minutes")
        assert isinstance(timeout, int) and 0 < timeout <= 60, f"{workflow_path.name}:{job_id}: timeout-minutes"


def test_every_checkout_keeps_no_credentials(workflow_path):
    for job_id, step in steps(load(workflow_path)):
        if is_checkout(step):
            assert (step.get("with") or {}).get("persist-credentials") is False, (
                f"{workflow_path.name}:{job_id}: checkout needs persist-credentials: false"
            )


def test_no_expressions_pasted_into_shell_or_scripts(workflow_path):
    # ${{ }} is substituted into the text before the shell or node parses it, so a PR title or
    # branch name could become code. Pass values through env: and read them as variables.
    for job_id, step in steps(load(workflow_path)):
        for name, text in (("run", step.get("run")), ("script", (step.get("with") or {}).get("script"))):
            if text is not None:
                assert "${{" not in text, f"{workflow_path.name}:{job_id}: ${{{{ }}}} inside {name}:"


# --- each workflow's own shape -----------------------------------------------------------------


def test_ci_runs_what_the_local_gate_runs_on_the_repository_alone():
    """ci.yml runs .ci/run itself (tests, validate, build --check, import --all --check: tests/test_readme.py
    checks its steps) on the oldest Python pyproject.toml allows, with nothing but the checkout."""
    wf = workflow("ci.yml")
    assert {"pull_request", "push"} <= set(triggers(wf))
    assert wf["permissions"] == {"contents": "read"}
    (job,) = wf["jobs"].values()
    assert [step["run"] for step in job["steps"] if "run" in step] == ["bash .ci/run"]
    setup = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/setup-python@"))
    assert ">=" + setup["with"]["python-version"] == tomllib.loads(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    # the cache's key: both files tools/test.sh installs pins from
    keyed = setup["with"]["cache-dependency-path"].split()
    assert keyed == ["constraints.txt", "tests/interchange/eee-requirements.txt"]
    checkout = next(step for step in job["steps"] if is_checkout(step))
    assert set(checkout["with"]) == {"persist-credentials"}      # no other repository or submodule beside it
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python"]


def test_newest_deps_runs_the_gate_unpinned_weekly_and_only_reports():
    wf = workflow("newest-deps.yml")
    on = triggers(wf)
    assert set(on) == {"schedule", "workflow_dispatch"}
    assert len(on["schedule"]) == 1 and on["schedule"][0]["cron"].split()[4] == "1"    # weekly, on Mondays
    assert wf["permissions"] == {"contents": "read"}
    (job,) = wf["jobs"].values()
    assert "permissions" not in job
    assert job["strategy"]["fail-fast"] is False
    assert job["strategy"]["matrix"]["python"][0] == "3.11"
    run = next(step for step in job["steps"] if "bash .ci/run" in step.get("run", ""))
    assert run["env"] == {"SITEGEN_CONSTRAINTS": "/dev/null"}   # tools/test.sh then installs the newest versions
    assert run["shell"] == "bash"                               # pipefail: the tee does not hide a failure
    report = next(step for step in job["steps"] if "GITHUB_STEP_SUMMARY" in step.get("run", ""))
    assert report["if"] == "always()"
    assert ".venv/bin/python tools/constraints.py --diff" in report["run"]


def test_pages_deploys_main_from_a_separate_privileged_job():
    wf = workflow("pages.yml")
    on = triggers(wf)
    assert set(on) == {"push", "workflow_dispatch"}
    assert on["push"] == {"branches": ["main"]}
    assert wf["permissions"] == {"contents": "read"}
    assert wf["concurrency"]["group"]
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    # the build job reads the Pages site's address (configure-pages' base_url, a custom domain included) and
    # builds with it: canonical links, og:url and og:image are absolute from the address Pages serves
    assert build["permissions"] == {"contents": "read", "pages": "read"}
    pages = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/configure-pages@"))
    run = next(step for step in build["steps"] if "sitegen build" in step.get("run", ""))
    assert run["env"]["SITE_URL"] == "${{ steps.%s.outputs.base_url }}" % pages["id"]
    assert run["run"] == 'sitegen build --site-url "$SITE_URL/"'
    assert build["steps"].index(pages) < build["steps"].index(run)
    assert any(step.get("uses", "").startswith("actions/upload-pages-artifact@") for step in build["steps"])
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    # The privileged job runs no repository code: no checkout, no shell.
    assert not any(is_checkout(step) or "run" in step for step in deploy["steps"])
    assert any(step.get("uses", "").startswith("actions/deploy-pages@") for step in deploy["steps"])


def test_pr_diff_runs_unprivileged_and_uploads_data_only():
    wf = workflow("pr-diff.yml")
    assert set(triggers(wf)) == {"pull_request"}
    assert wf["permissions"] == {"contents": "read"}
    (job,) = wf["jobs"].values()
    assert "permissions" not in job
    checkout = next(step for step in job["steps"] if is_checkout(step))
    assert checkout["with"]["fetch-depth"] == 0
    diff = next(step for step in job["steps"] if "sitegen diff" in step.get("run", ""))
    # JSON data only: the Markdown is rendered by the trusted job from the base branch's template.
    assert 'sitegen diff --format report --out pr-diff/report.json "origin/${BASE_REF}" HEAD' in diff["run"]
    assert "--format md" not in diff["run"] and ".md" not in diff["run"]
    assert diff["env"] == {
        "BASE_REF": "${{ github.base_ref }}",
        "PR_NUMBER": "${{ github.event.pull_request.number }}",
    }
    upload = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "pr-diff"
    # Uploaded after a failing report too (the change does not validate): the comment then lists the errors.
    assert upload["if"] == "${{ !cancelled() }}"


def test_pr_diff_comment_never_runs_pr_code():
    wf = workflow("pr-diff-comment.yml")
    on = triggers(wf)
    assert set(on) == {"workflow_run"}
    assert on["workflow_run"] == {"workflows": [workflow("pr-diff.yml")["name"]], "types": ["completed"]}
    assert wf["permissions"] == {}
    render, comment = wf["jobs"]["render"], wf["jobs"]["comment"]
    assert set(wf["jobs"]) == {"render", "comment"}
    # render: the base branch's renderer on the artifact, with no write scope.
    assert render["permissions"] == {"actions": "read", "contents": "read"}
    assert "github.event.workflow_run.event == 'pull_request'" in render["if"]
    assert "github.event.workflow_run.conclusion == 'failure'" in render["if"]
    checkout = next(step for step in render["steps"] if is_checkout(step))
    assert checkout["with"]["ref"] == "${{ github.event.repository.default_branch }}"
    assert checkout["with"]["sparse-checkout"] == "generator/sitegen/history/pr_comment.py"
    download = next(step for step in render["steps"] if step.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["name"] == "pr-diff"
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    runs = [step["run"] for step in render["steps"] if "run" in step]
    assert runs == ['python3 generator/sitegen/history/pr_comment.py --artifact "${ARTIFACT_DIR}" --github-output "${GITHUB_OUTPUT}"']
    assert not any("pip" in step.get("run", "") or "setup-python" in step.get("uses", "") for step in render["steps"])
    # comment: the only write scope, no checkout, no shell.
    assert comment["needs"] == "render"
    assert comment["permissions"] == {"pull-requests": "write"}
    assert not any(is_checkout(step) for step in comment["steps"]), "no checkout in the privileged job"
    assert not any("run" in step for step in comment["steps"]), "no shell in the privileged job"


# --- the comment script, run under node with a fake GitHub API --------------------------------

HARNESS = r"""
const fs = require('fs');
const [scriptPath, statePath] = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
const calls = [];
const core = {
  setFailed: (m) => calls.push(['setFailed', m]),
  warning: (m) => calls.push(['warning', m]),
  info: () => {},
};
const github = {
  paginate: async (fn, args) => { calls.push(['listComments', args.issue_number]); return state.comments; },
  rest: {
    pulls: { get: async (a) => { calls.push(['pulls.get', a.pull_number]); return { data: { head: { sha: state.pr_head } } }; } },
    issues: {
      listComments: () => {},
      createComment: async (a) => { calls.push(['createComment', a.issue_number, a.body]); return { data: { id: 99 } }; },
      updateComment: async (a) => { calls.push(['updateComment', a.comment_id, a.body]); return { data: {} }; },
    },
  },
};
const context = { repo: { owner: 'o', repo: 'r' }, payload: { workflow_run: { head_sha: state.run_head } } };
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const script = new AsyncFunction('require', 'github', 'context', 'core', fs.readFileSync(scriptPath, 'utf8'));
script(require, github, context, core).then(
  () => process.stdout.write(JSON.stringify({ calls })),
  (e) => process.stdout.write(JSON.stringify({ calls, error: String(e.message) })),
);
"""

MARKER = "<!-- sitegen-diff -->"
PR_COMMENT = ROOT / "generator" / "sitegen" / "history" / "pr_comment.py"


def render_job(tmp_path, number="7\n", report: str | Path = '{"report": 1, "status": "ok", "diff": {}}'):
    """Runs the render job's step on an artifact made of number and report; returns (exit code, outputs)."""
    artifact = tmp_path / "artifact"
    artifact.mkdir(exist_ok=True)
    (artifact / "pr-number.txt").write_text(number, encoding="utf-8")
    if isinstance(report, Path):
        (artifact / "report.json").symlink_to(report)
    else:
        (artifact / "report.json").write_text(report, encoding="utf-8")
    output = tmp_path / "github-output"
    output.write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, str(PR_COMMENT), "--artifact", str(artifact), "--github-output", str(output)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    return done.returncode, parse_github_output(output.read_text(encoding="utf-8"))


def parse_github_output(text: str) -> dict:
    """The $GITHUB_OUTPUT file format: name=value lines and name<<DELIMITER blocks."""
    out, lines = {}, iter(text.split("\n"))
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            for inner in lines:
                if inner == delimiter:
                    break
                block.append(inner)
            out[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
    return out


def run_comment_script(tmp_path, number="7", body=MARKER + "\n## 2 scores changed\n", comments=(), pr_head="abc",
                       run_head="abc"):
    """Runs the github-script step of pr-diff-comment.yml's comment job on the render job's outputs."""
    node = shutil.which("node")
    if node is None:
        # about the environment: fails under CI=true (tests/conftest.py); tools/test.sh installs node (with npm)
        pytest.skip("node is not installed")
    job = workflow("pr-diff-comment.yml")["jobs"]["comment"]
    script = next(step for step in job["steps"] if "script" in step.get("with", {}))["with"]["script"]
    (tmp_path / "script.js").write_text(script, encoding="utf-8")
    (tmp_path / "harness.js").write_text(HARNESS, encoding="utf-8")
    state = {"comments": list(comments), "pr_head": pr_head, "run_head": run_head}
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    env = {**os.environ, "PR_NUMBER": number, "BODY": body}
    done = subprocess.run(
        [node, "harness.js", "script.js", "state.json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


def test_comment_script_creates_one_comment(tmp_path):
    out = run_comment_script(tmp_path)
    assert "error" not in out
    created = [c for c in out["calls"] if c[0] == "createComment"]
    assert len(created) == 1
    _, number, body = created[0]
    assert number == 7
    assert body.startswith(MARKER + "\n") and "## 2 scores changed" in body


def test_comment_script_updates_its_own_comment(tmp_path):
    comments = [
        {"id": 5, "user": {"login": "someone"}, "body": MARKER + " copied"},
        {"id": 6, "user": {"login": "github-actions[bot]"}, "body": MARKER + "\nold"},
    ]
    out = run_comment_script(tmp_path, comments=comments)
    assert [c[:2] for c in out["calls"] if c[0].endswith("Comment")] == [["updateComment", 6]]


@pytest.mark.parametrize("number", ["7; rm -rf /", "$(id)", "-1", "0", "07", "7\n8", "abc", "", "12345678901", "7.0"])
def test_comment_script_rejects_anything_but_a_pr_number(tmp_path, number):
    out = run_comment_script(tmp_path, number=number)
    assert [c[0] for c in out["calls"]] == ["setFailed"]


def test_comment_script_posts_only_a_rendered_body(tmp_path):
    out = run_comment_script(tmp_path, body="## not from the renderer\n")
    assert [c[0] for c in out["calls"]] == ["setFailed"]


def test_comment_script_skips_a_pr_whose_head_moved(tmp_path):
    out = run_comment_script(tmp_path, pr_head="def", run_head="abc")
    assert [c[0] for c in out["calls"]] == ["pulls.get", "warning"]


def test_comment_script_caps_the_body(tmp_path):
    out = run_comment_script(tmp_path, body=MARKER + "\n" + "x" * 70_000)
    (body,) = [c[2] for c in out["calls"] if c[0] == "createComment"]
    assert len(body) < 65_536
    assert "Comment cut at" in body


@pytest.mark.parametrize("number", ["7; rm -rf /", "$(id)", "-1", "0", "07", "7\n8", "abc", "", "12345678901", "7.0"])
def test_render_job_rejects_anything_but_a_pr_number(tmp_path, number):
    code, outputs = render_job(tmp_path, number=number)
    assert code == 1 and outputs == {}


def test_render_job_refuses_a_symlinked_report(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("token", encoding="utf-8")
    code, outputs = render_job(tmp_path, report=secret)
    assert code == 1 and outputs == {}


def test_render_job_writes_number_and_body(tmp_path):
    # A body line equal to a fixed delimiter must not end the output early: the delimiter is random.
    report = {"report": 1, "status": "ok", "base": "EOF", "head": "x\nEOF\npr-number=1", "diff": {}}
    code, outputs = render_job(tmp_path, report=json.dumps(report))
    assert code == 0
    assert outputs["pr-number"] == "7"
    assert outputs["body"].startswith(MARKER + "\n## Leaderboard diff: EOF → x EOF pr-number=1")


def test_refresh_data_opens_one_pull_request_per_source_weekly_and_never_in_a_fork():
    from sitegen.importers.fetch import plans

    wf = workflow("refresh-data.yml")
    assert set(triggers(wf)) == {"schedule", "workflow_dispatch"}           # never for a pull request
    (cron,) = [entry["cron"] for entry in triggers(wf)["schedule"]]
    minute, hour, day, month, weekday = cron.split()
    assert (day, month) == ("*", "*") and weekday.isdigit() and minute.isdigit() and hour.isdigit()  # weekly
    assert wf["permissions"] == {"contents": "read"}
    assert set(wf["jobs"]) == {"refresh", "refresh-aa-api"}
    job, aa = wf["jobs"]["refresh"], wf["jobs"]["refresh-aa-api"]
    for j in (job, aa):
        # push the branch, open the pull request, start CI on it (workflow_dispatch): and nothing else
        assert j["permissions"] == {"contents": "write", "pull-requests": "write", "actions": "write"}
        assert j["if"] == "github.event.repository.fork == false"
    # one job, and so one branch (data/refresh-<source>) and one pull request, per fetchable source
    sources = job["strategy"]["matrix"]["source"]
    assert sources == sorted(set(sources)) and sorted([*sources, "aa-api"]) == sorted(plans(ROOT))
    assert job["strategy"]["fail-fast"] is False
    assert job["concurrency"]["group"] == "refresh-data-${{ matrix.source }}"
    assert aa["concurrency"]["group"] == "refresh-data-aa-api"
    for job_id in ("refresh", "refresh-aa-api"):
        (step,) = [step for jid, step in steps(wf) if jid == job_id and "refresh_pr.py" in step.get("run", "")]
        assert 'tools/refresh_pr.py "$SOURCE"' in step["run"]
        assert step["env"]["SOURCE"] == ("${{ matrix.source }}" if job_id == "refresh" else "aa-api")
        (checkout,) = [s for jid, s in steps(wf) if jid == job_id and is_checkout(s)]
        assert checkout["with"]["ref"] == "${{ github.event.repository.default_branch }}"
    assert 'branch = f"data/refresh-{fam}"' in (ROOT / "tools" / "refresh_pr.py").read_text(encoding="utf-8")
    # CI can be started on the refresh branch (a push with GITHUB_TOKEN starts no workflow)
    assert "workflow_dispatch" in triggers(workflow("ci.yml"))
    assert 'CI_WORKFLOW = "ci.yml"' in (ROOT / "tools" / "refresh_pr.py").read_text(encoding="utf-8")


def test_the_aa_api_key_lives_in_an_environment_and_only_its_job_gets_it():
    wf = workflow("refresh-data.yml")
    aa = wf["jobs"]["refresh-aa-api"]
    assert aa["environment"] == "refresh-aa-api"
    (step,) = [step for jid, step in steps(wf) if jid == "refresh-aa-api" and "env" in step
               and "AA_API_KEY" in step["env"]]
    assert step["env"]["AA_API_KEY"] == "${{ secrets.AA_API_KEY }}"
    assert "refresh-aa-api" in (ROOT / "SECURITY.md").read_text(encoding="utf-8")   # maintainers are told to create it


def test_secrets_and_environments_only_in_the_jobs_that_need_them(workflow_path):
    wf = load(workflow_path)
    for job_id, job in wf["jobs"].items():
        text = yaml.safe_dump(job)
        named = set(re.findall(r"secrets\.([A-Za-z_][A-Za-z0-9_]*)", text)) - {"GITHUB_TOKEN"}
        allowed = SECRET_JOBS.get((workflow_path.name, job_id), set())
        assert named <= allowed, (workflow_path.name, job_id, named)
        env = job.get("environment")
        env_name = env.get("name") if isinstance(env, dict) else env
        if env_name is not None:
            assert (workflow_path.name, job_id) in SECRET_JOBS or (workflow_path.name, job_id, env_name) == (
                "pages.yml", "deploy", "github-pages"), (workflow_path.name, job_id, env_name)
    # the secrets the workflow-level env could hand to every job: none
    assert "secrets." not in yaml.safe_dump(wf.get("env") or {})


# --- actionlint --------------------------------------------------------------------------------


def actionlint(name: str = "actionlint") -> str:
    # The test extras put it beside this interpreter (.venv/bin), which is not on PATH when the README's test
    # command runs `.venv/bin/python -m pytest` without activating the environment.
    path = shutil.which(name, path=os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")]))
    if path is None:
        pytest.fail(f"{name} is not installed: install the test extras (pip install -e '.[test]')", pytrace=False)
    return path


def test_actionlint_finds_nothing():
    done = subprocess.run(
        [actionlint(), "-no-color", *map(str, WORKFLOW_PATHS)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, f"actionlint:\n{done.stdout}{done.stderr}"


def test_actionlint_does_flag_a_bad_workflow(tmp_path):
    # Guards the test above against a linter that passes everything.
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request\n"
        "jobs:\n"
        "  echo:\n"
        "    runs-on: ubuntu-24.04\n"
        "    steps:\n"
        "      - run: echo \"${{ github.event.pull_request.title }}\"\n",
        encoding="utf-8",
    )
    done = subprocess.run([actionlint(), "-no-color", str(bad)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "github.event.pull_request.title" in done.stdout


def test_security_md_names_every_write_scope_a_workflow_holds():
    """Each `<scope>: write` a workflow grants is explained in one SECURITY.md bullet that names the workflow."""
    bullets = re.split(r"\n(?=- )", (ROOT / "SECURITY.md").read_text(encoding="utf-8"))
    granted = set()
    for path in WORKFLOW_PATHS:
        wf = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job in (wf.get("jobs") or {}).values():
            granted |= {(path.name, scope) for scope, level in ((job.get("permissions") or {}).items()
                                                               if isinstance(job.get("permissions"), dict) else ())
                        if level == "write"}
    assert ("refresh-data.yml", "contents") in granted and ("pages.yml", "pages") in granted
    missing = [(name, scope) for name, scope in sorted(granted)
               if not any(f"`{name}`" in b and f"`{scope}: write`" in b for b in bullets)]
    assert missing == []


# --- zizmor (security audit, offline; .ci/run runs it too) --------------------------------------


def zizmor(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([actionlint("zizmor"), "--offline", "--no-progress", "--format", "plain", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})


def test_zizmor_finds_nothing_and_the_one_reviewed_finding_says_why():
    done = zizmor(*map(str, WORKFLOW_PATHS))
    assert done.returncode == 0, f"zizmor:\n{done.stdout}{done.stderr}"
    assert "No findings to report" in done.stdout + done.stderr and "(1 ignored" in done.stdout + done.stderr
    ignores = [(path.name, line.strip()) for path in WORKFLOW_PATHS
               for line in path.read_text(encoding="utf-8").splitlines() if "zizmor: ignore" in line]
    assert ignores == [("pr-diff-comment.yml", "workflow_run:  # zizmor: ignore[dangerous-triggers] reviewed above: "
                        "no PR code runs, the artifact is data")]


def test_zizmor_flags_the_workflow_run_trigger_without_its_suppression(tmp_path):
    # Guards the test above: without the inline ignore, zizmor reports the trigger (offline, so it really runs).
    bare = tmp_path / "pr-diff-comment.yml"
    text = (WORKFLOWS / "pr-diff-comment.yml").read_text(encoding="utf-8")
    bare.write_text(re.sub(r"  # zizmor: ignore\[dangerous-triggers\].*", "", text), encoding="utf-8")
    done = zizmor(str(bare), cwd=tmp_path)
    assert done.returncode != 0
    assert "dangerous-triggers" in done.stdout


# --- repository metadata -----------------------------------------------------------------------


def test_dependabot_updates_actions_and_pip_weekly():
    config = yaml.safe_load((GITHUB / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    schedules = {u["package-ecosystem"]: u["schedule"]["interval"] for u in config["updates"]}
    assert schedules == {"github-actions": "weekly", "pip": "weekly"}


def test_codeowners_cover_code_templates_workflows_and_config():
    owned = {}
    for line in (GITHUB / "CODEOWNERS").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            pattern, *owners = line.split()
            owned[pattern] = owners
    for pattern in ["/generator/", "/generator/sitegen/templates/", "/.github/", "/tools/", "/methodology/",
                    "/scores/overrides.yaml", "/scores/sources.yaml", "/pyproject.toml", "/constraints.txt", "/.ci/",
                    "/scores/metadata.yaml", "/scores/identity.yaml", "/scores/imported/ignore.yaml", "/downloads/"]:
        assert owned.get(pattern), f"CODEOWNERS has no owner for {pattern}"
        assert all(owner.startswith("@") for owner in owned[pattern])


def test_every_codeowners_path_exists():
    # A rule for a path that does not exist protects nothing (a stale /mkdocs.yml did exactly that).
    for line in (GITHUB / "CODEOWNERS").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            pattern = line.split()[0]
            assert pattern.startswith("/") and not any(ch in pattern for ch in "*?["), pattern
            path = ROOT / pattern.strip("/")
            assert path.is_dir() if pattern.endswith("/") else path.is_file(), f"CODEOWNERS names missing {pattern}"


def test_security_link_is_the_repositorys_advisory_form():
    config = yaml.safe_load((GITHUB / "ISSUE_TEMPLATE" / "config.yml").read_text(encoding="utf-8"))
    (link,) = [c for c in config["contact_links"] if "security" in c["name"].lower()]
    assert re.fullmatch(r"https://github\.com/[A-Za-z0-9-]+/[A-Za-z0-9._-]+/security/advisories/new", link["url"])
    owner = link["url"].split("/")[3]
    codeowners = (GITHUB / "CODEOWNERS").read_text(encoding="utf-8")
    assert f"@{owner}/" in codeowners  # the same assumed owner in both files


ISSUE_FORM_TYPES = {"markdown", "input", "textarea", "dropdown", "checkboxes"}


@pytest.mark.parametrize("name", ["add-model.yml", "report-wrong-score.yml"])
def test_issue_forms_are_well_formed(name):
    form = yaml.safe_load((GITHUB / "ISSUE_TEMPLATE" / name).read_text(encoding="utf-8"))
    assert form["name"] and form["description"]
    ids = [item["id"] for item in form["body"] if "id" in item]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for item in form["body"]:
        assert item["type"] in ISSUE_FORM_TYPES
        attributes = item["attributes"]
        if item["type"] == "markdown":
            assert attributes["value"]
            continue
        assert item.get("id") and attributes["label"]
        if item["type"] == "dropdown":
            assert attributes["options"]
        if item["type"] == "checkboxes":
            assert all(option["label"] for option in attributes["options"])
    assert any(item.get("validations", {}).get("required") for item in form["body"])


def test_issue_template_config_disables_blank_issues():
    config = yaml.safe_load((GITHUB / "ISSUE_TEMPLATE" / "config.yml").read_text(encoding="utf-8"))
    assert config["blank_issues_enabled"] is False


def test_citation_file_is_cff_1_2_software_without_a_doi():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["message"] and cff["title"] and cff["authors"]
    assert "doi" not in cff and not any(i.get("type") == "doi" for i in cff.get("identifiers", []))


def test_render_job_neutralises_mentions_and_html_from_the_report(tmp_path):
    """The report comes from the pull request's own code: it must not ping anyone or carry raw HTML or links."""
    evil = "cc @org/team and @someone <img src=x onerror=alert(1)> [x](https://evil.example) ![i](https://e/i.png)"
    report = {"report": 1, "status": "invalid", "base": evil, "head": "h", "diff": None,
              "errors": [{"path": evil, "line": 1, "col": 1, "field": "f", "message": evil, "hint": ""}]}
    code, outputs = render_job(tmp_path, report=json.dumps(report))
    assert code == 0
    body = outputs["body"]
    assert "@org/team" not in body and "@\u200borg/team" in body and "@\u200bsomeone" in body
    assert "<img" not in body and "&lt;img" in body
    assert "](" not in body and "https://" not in body
    assert body.startswith(MARKER + "\n")  # the marker is ours and stays an HTML comment
