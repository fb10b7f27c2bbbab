"""Every command README.md and CONTRIBUTING.md show works when pasted into a fresh clone (issue #30, item 5).

The commands are read from the documents themselves: each line of a ```sh block (a trailing backslash joins the
next line, a `  # ` starts the comment) and each inline code span that starts a command (`sitegen …`, `python …`,
`bash …`, `.venv/bin/…`, `. .venv/bin/activate`). One clone of this checkout (`git clone`: committed files only,
nothing beside them) runs them in the order the documents give them, with the package this test runs in as the
clone's `.venv` (it was installed from the same constraints.txt; installing it again would need the network). The
commands come in three independent parts (PARTS), each pasted into a fresh clone of its own, so that two test
workers share them: README's, CONTRIBUTING's up to its first `sitegen new` (checks that change no data file), and
CONTRIBUTING's from there on (the example model, its result, the exports and the diff that show it). A reader
following one document in a fresh clone pastes exactly one of these sequences. Each command is then either

- run as shown (exit 0, and for some the output checked),
- a synopsis (placeholders such as SOURCE or [--out DIR]) or a command named in running text without its
  argument: `--help` of that command, which must name every option the synopsis shows, or
- listed in NOT_AS_SHOWN below with the reason and what runs instead: it needs the network, runs until stopped,
  or is the test command itself.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "CONTRIBUTING.md")
VENV = Path(sys.prefix)  # the environment this test runs in: the clone's .venv

#: Commands that need the network, run until stopped, or are the test command: what runs instead, and why.
NOT_AS_SHOWN = {
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e . && .venv/bin/sitegen build": (
        ["python3 -m venv --help", ".venv/bin/pip install --help", ".venv/bin/sitegen build"],
        "pip install needs the network (PyPI): the running test environment, installed from the same "
        "constraints.txt, is the clone's .venv; the build runs"),
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e . && . .venv/bin/activate": (
        ["python3 -m venv --help", ".venv/bin/pip install --help",
         '. .venv/bin/activate && test "$(command -v sitegen)" = "$VIRTUAL_ENV/bin/sitegen"'],
        "pip install needs the network (PyPI); activating the stand-in .venv puts its sitegen first on PATH"),
    "bash tools/test.sh": (["bash -n tools/test.sh"],
                           "the test command: the whole suite (and apt-get / npm when something is missing)"),
    "bash .ci/run": (["bash -n .ci/run"], "the test command followed by the other gates"),
    ".venv/bin/python -m pytest tests/site/test_pages.py": (
        [".venv/bin/python -m pytest --collect-only -q tests/site/test_pages.py"],
        "the test command (one area); collecting it shows the path and its tests are there"),
    "sitegen serve": (["sitegen serve --help"], "runs until stopped (Ctrl+C)"),
    "sitegen fetch SOURCE": (["sitegen fetch --help"], "downloads from the source's URL (network)"),
    "python tools/refresh_pr.py SOURCE --dry-run": (
        ["python tools/refresh_pr.py --help"],
        "the refresh script: fetches (network) and asks GitHub (gh) for the pull request even with --dry-run"),
}
#: Measurements that run for minutes (the harness also installs its peers from the network): --help.
LONG_PREFIXES = {"python benchmarks/": "a performance measurement: minutes of builds (--install-peers: network)"}
#: Commands named in running text without the argument they need: --help.
REFERENCES = {"sitegen import", "sitegen diff", "sitegen fetch", "sitegen aliases suggest"}
#: What some commands must print, beyond exiting 0.
EXPECT = {
    "sitegen validate --warnings": "0 errors, 0 warnings",
    "sitegen validate --max-warnings 0": "0 errors, 0 warnings",
    "sitegen import --all --check": "import --all --check: all ",
    "sitegen aliases audit": "0 findings",
    "python3 --version": "Python 3.",
}

_STARTS = re.compile(r"^(sitegen|python3?|bash|\.venv/bin/\S+|\. \.venv/bin/activate)( |$)")
_PLACEHOLDER = re.compile(r"\[|\||…|\.\.\.|\b[A-Z][A-Z/_]+\b")


def doc_commands() -> list[tuple[str, str]]:
    """(document, command) for every command shown, in document order, each once."""
    found, seen = [], set()
    for name in DOCS:
        text = (ROOT / name).read_text(encoding="utf-8")
        commands = []
        for block in re.finditer(r"```([^`\n]*)\n(.*?)```|`([^`\n]+)`", text, re.S):
            if block.group(3) is not None:  # an inline code span
                span = block.group(3).replace("\\|", "|")
                if _STARTS.match(span) and span != "sitegen":
                    commands.append(span)
            elif block.group(1).split()[:1] in (["sh"], ["bash"], ["console"]):
                for line in block.group(2).replace("\\\n", " ").splitlines():
                    command = " ".join(line.split("  # ", 1)[0].split())
                    if command:
                        commands.append(command)
        for command in commands:
            if command not in seen:
                seen.add(command)
                found.append((name, command))
    return found


#: The parts (test ids), in document order: (document, the start of the command the part begins at; None: the
#: document's first command). Each part ends where the document's next part begins.
PARTS = {"readme": ("README.md", None), "contributing-checks": ("CONTRIBUTING.md", None),
         "contributing-edits": ("CONTRIBUTING.md", "sitegen new ")}


def part_commands(part: str) -> list[tuple[str, str]]:
    """The commands of one part, in document order: a document's commands, split where a command starting with
    the next part's prefix first appears."""
    doc, start = PARTS[part]
    commands = [(d, c) for d, c in doc_commands() if d == doc]
    starts = [prefix for d, prefix in PARTS.values() if d == doc and prefix]
    cut = next((i for i, (_, c) in enumerate(commands) if any(c.startswith(p) for p in starts)), len(commands))
    return commands[cut:] if start else commands[:cut]


def how(command: str) -> tuple[str, list[str]]:
    """('run' | 'instead' | 'help', the shell commands to run)."""
    if command in NOT_AS_SHOWN:
        return "instead", NOT_AS_SHOWN[command][0]
    for prefix in LONG_PREFIXES:
        if command.startswith(prefix):
            return "help", [" ".join(command.split()[:2]) + " --help"]
    if command in REFERENCES or _PLACEHOLDER.search(re.sub(r'"[^"]*"', '""', command)):  # quoted text is text
        return "help", [_verbs(command) + " --help"]
    return "run", [command]


def _verbs(command: str) -> str:
    """`sitegen aliases merge OLD --into NEW` -> `sitegen aliases merge`: the words before the first argument."""
    words = []
    for word in command.split():
        if word.startswith("-") or _PLACEHOLDER.search(word) or not re.fullmatch(r"[a-z][a-z0-9-]*", word):
            break
        words.append(word)
    return " ".join(words)


def test_the_documents_show_commands_and_every_exception_is_still_shown():
    commands = [c for _, c in doc_commands()]
    assert len(commands) >= 30
    shown = set(commands)
    assert set(NOT_AS_SHOWN) <= shown, set(NOT_AS_SHOWN) - shown  # no stale exception
    assert REFERENCES <= shown
    kinds = [how(c)[0] for c in commands]
    assert kinds.count("run") >= 15 and kinds.count("instead") == len(NOT_AS_SHOWN) and kinds.count("help") >= 10


def test_the_parts_are_every_command_once_in_document_order():
    parts = {part: part_commands(part) for part in PARTS}
    assert [pair for commands in parts.values() for pair in commands] == doc_commands()
    assert all(len(commands) >= 5 for commands in parts.values()), {p: len(c) for p, c in parts.items()}
    assert parts["contributing-edits"][0][1].startswith("sitegen new model ")
    assert not any(c.startswith("sitegen new ") for _, c in parts["contributing-checks"])


def test_the_readme_command_table_is_one_table():
    # a paragraph inside it once turned its last three rows (new, serve, interchange) into raw text
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Commands\n", 1)[1].split("\n## ", 1)[0]
    table = section.strip().split("\n\n", 1)[0].splitlines()
    assert table[:2] == ["| command | what it does |", "|---|---|"]
    assert all(line.startswith("| `sitegen ") and line.endswith(" |") for line in table[2:])
    rows = " ".join(table)
    for verb in ("validate", "build", "export", "import", "fetch", "aliases", "stats", "diff", "changelog", "new",
                 "serve", "interchange"):
        assert f"`sitegen {verb}" in rows, verb


@pytest.fixture
def clone(tmp_path_factory, real_computed):
    """A fresh clone of this checkout, with the running environment as its .venv, and origin/main to diff against.

    The clone is given this checkout's compute cache (git-ignored, so a clone has none), which real_computed
    (tests/conftest.py) has just filled with the computation of the same data by the same code: the pasted builds
    load it instead of computing the real data cold once more (~50 CPU s; the cold computation runs once per test
    run, in real_computed). The entries are keyed by the data's and the code's digests, so a checkout whose data
    differs from its last commit simply computes."""
    from sitegen.build import simcache

    where = tmp_path_factory.mktemp("docs") / "sitegen"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(where)], check=True, timeout=300)
    (where / ".venv").symlink_to(VENV, target_is_directory=True)
    cache = simcache.folder(ROOT)
    if cache is not None and cache.is_dir():
        shutil.copytree(cache, where / simcache.FOLDER, symlinks=True, copy_function=_link_or_copy)
    # `sitegen diff origin/main`: a clone of a checkout without a main branch (CI's detached head) has no
    # origin/main; its own commit stands in for it
    has_main = subprocess.run(["git", "rev-parse", "-q", "--verify", "refs/remotes/origin/main"], cwd=where,
                              capture_output=True).returncode == 0
    if not has_main:
        subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=where, check=True)
    return where


def _link_or_copy(src: str, dst: str) -> None:
    """A hard link where both are on one file system (a cache entry is written whole under a new name, never
    changed in place), else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("GITHUB_ACTIONS", "CI", "SITEGEN_DEBUG", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join([str(VENV / "bin"), env.get("PATH", "/usr/bin:/bin")])
    return env


@pytest.mark.parametrize("part", list(PARTS))
def test_every_command_works_when_pasted_into_a_fresh_clone(clone, part):
    failures = []
    for doc, command in part_commands(part):
        kind, steps = how(command)
        for step in steps:
            done = subprocess.run(["bash", "-c", step], cwd=clone, env=_env(), capture_output=True, text=True,
                                  timeout=900)  # a hang guard, not a wait
            output = done.stdout + done.stderr
            print(f"{kind}: {step}: exit {done.returncode}", flush=True)  # with -s: progress of a long run
            if done.returncode != 0:
                failures.append(f"{doc}: `{command}` ({step}) exited {done.returncode}: {output[-1500:]}")
                continue
            if kind == "help":
                missing = [o for o in re.findall(r"(?<![\w-])--[a-z][a-z-]*", command) if o not in output]
                if missing:
                    failures.append(f"{doc}: `{command}`: --help does not name {missing}")
            expected = EXPECT.get(command)
            if expected and expected not in output:
                failures.append(f"{doc}: `{command}` did not print {expected!r}: {output[-1500:]}")
    assert failures == []
    # what the pasted commands made, in the clone: the site; the example model and its result, the exports
    if part == "readme":
        assert (clone / "site" / "index.html").is_file()
    if part == "contributing-edits":
        model = (clone / "scores/models/ai2/example-7b-instruct.yaml").read_text(encoding="utf-8")
        assert "benchmark: hle" in model and "value: 12.5" in model and "source: hle-paper" in model
        assert (clone / "export/api/v1").is_dir() and any((clone / "export-eee").iterdir())


@pytest.mark.parametrize(("command", "kind", "steps"), [
    ("sitegen validate --warnings", "run", ["sitegen validate --warnings"]),
    ("sitegen aliases merge OLD --into NEW", "help", ["sitegen aliases merge --help"]),
    ("sitegen export [--format api|eee] [--out DIR]", "help", ["sitegen export --help"]),
    ("sitegen new result ORG/NAME …", "help", ["sitegen new result --help"]),
    ("sitegen diff", "help", ["sitegen diff --help"]),
    ("python benchmarks/harness.py --install-peers", "help", ["python benchmarks/harness.py --help"]),
    ("sitegen serve", "instead", ["sitegen serve --help"]),
])
def test_how_each_kind_of_command_is_run(command, kind, steps):
    assert how(command) == (kind, steps)
