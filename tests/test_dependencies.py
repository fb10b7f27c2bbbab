"""Dependencies: declared where the code imports them, pinned for CI, and mkdocs-material only for re-vendoring."""

from __future__ import annotations

import ast
import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VENDOR = ROOT / "generator" / "sitegen" / "static" / "vendor"


def names(reqs: list[str]) -> dict[str, Requirement]:
    return {canonicalize_name(r.name): r for r in map(Requirement, reqs)}


def imported_distributions(folder: Path) -> set[str]:
    """The distributions whose top-level modules the Python files under folder import (standard library aside)."""
    modules = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    local = {p.stem for p in folder.rglob("*.py")} | {p.name for p in folder.rglob("*") if p.is_dir()}
    local |= {p.stem for p in (ROOT / "tools").glob("*.py")}  # the repository's scripts, which tests may import
    modules -= set(sys.stdlib_module_names) | local | {"__future__", "sitegen"}
    owners = md.packages_distributions()
    unknown = sorted(m for m in modules if m not in owners)
    assert unknown == [], f"imported but not installed: {unknown}"
    return {canonicalize_name(d) for m in modules for d in owners[m]}


def test_the_code_imports_exactly_what_it_declares():
    declared = set(names(PROJECT["dependencies"]))
    used = imported_distributions(ROOT / "generator" / "sitegen")
    assert sorted(used - declared) == [], "imported without being declared in [project] dependencies"
    assert sorted(declared - used) == [], "declared in [project] dependencies but never imported"


def test_the_tests_import_only_declared_packages():
    declared = set(names(PROJECT["dependencies"])) | set(names(PROJECT["optional-dependencies"]["test"]))
    assert sorted(imported_distributions(ROOT / "tests") - declared) == []


def vendored_material() -> tuple[str, list[str]]:
    """The mkdocs-material version and asset names vendor.sh copies."""
    script = (VENDOR / "vendor.sh").read_text(encoding="utf-8")
    version = re.search(r"^MATERIAL=(\S+)$", script, re.M).group(1)
    files = re.search(r'^MATERIAL_FILES="([^"]*)"', script, re.M).group(1).split()
    return version, files


def test_mkdocs_material_is_a_dev_extra_pinned_to_the_vendored_version():
    version, files = vendored_material()
    assert "mkdocs-material" not in names(PROJECT["dependencies"])
    assert str(names(PROJECT["optional-dependencies"]["dev"])["mkdocs-material"].specifier) == f"=={version}"
    row = next(line for line in (VENDOR / "VERSIONS").read_text(encoding="utf-8").splitlines()
               if line.startswith("mkdocs-material"))
    assert row.split()[1] == version
    versions = (VENDOR / "VERSIONS").read_text(encoding="utf-8")
    for name in files:
        assert (VENDOR / "material" / name).is_file(), name                  # what the site ships
        assert Path(name).name in versions, name                            # and what VERSIONS records


def fake_tools(tmp_path: Path, version: str, assets: list[str]) -> dict:
    """A PATH whose python reports mkdocs-material `version` with `assets`, and whose npm must not be reached."""
    material = tmp_path / "site-packages" / "material"
    for name in assets:
        (material / "templates" / "assets" / name).parent.mkdir(parents=True, exist_ok=True)
        (material / "templates" / "assets" / name).write_text("/* asset */\n", encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f"#!/bin/sh\necho '{version} {material}'\n", encoding="utf-8")
    (bin_dir / "npm").write_text("#!/bin/sh\necho 'npm reached' >&2\nexit 99\n", encoding="utf-8")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def run_vendor(tmp_path: Path, env: dict) -> subprocess.CompletedProcess:
    work = tmp_path / "vendor"
    shutil.copytree(VENDOR, work)
    return subprocess.run(["sh", "vendor.sh"], cwd=work, env=env, capture_output=True, text=True, timeout=60)


def test_vendor_script_refuses_another_mkdocs_material_version(tmp_path):
    version, files = vendored_material()
    done = run_vendor(tmp_path, fake_tools(tmp_path, "9.9.0", files))
    assert done.returncode == 1
    assert f"mkdocs-material 9.9.0 is installed but {version} is pinned" in done.stderr
    assert "npm reached" not in done.stderr


def test_vendor_script_checks_every_name_it_copies(tmp_path):
    version, files = vendored_material()
    done = run_vendor(tmp_path, fake_tools(tmp_path, version, files[:-1]))
    assert done.returncode == 1
    assert f"has no {files[-1]} under" in done.stderr
    assert "npm reached" not in done.stderr


def constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version and canonicalize_name(name) == name, f"constraints.txt: {line!r} is not name==version"
            assert name not in pins, f"constraints.txt: {name} twice"
            pins[name] = version
    return pins


def test_constraints_pin_every_runtime_and_test_dependency_within_its_range():
    pins = constraints()
    for name, req in {**names(PROJECT["dependencies"]), **names(PROJECT["optional-dependencies"]["test"])}.items():
        assert name in pins, f"constraints.txt does not pin {name}: run python tools/constraints.py"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} is outside {req.specifier}"
    assert "mkdocs-material" not in pins


def test_ci_installs_from_the_constraints():
    test_sh = (ROOT / "tools" / "test.sh").read_text(encoding="utf-8")
    assert "-c \"${SITEGEN_CONSTRAINTS:-constraints.txt}\" -e '.[test]'" in test_sh
    assert "pip install -c constraints.txt -e ." in (ROOT / "README.md").read_text(encoding="utf-8")
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "pip install -c constraints.txt -e ." in pages


def constraints_tool():
    import importlib.util

    spec = importlib.util.spec_from_file_location("constraints_tool", ROOT / "tools" / "constraints.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_constraints_cover_exactly_the_installed_dependency_closure():
    """A dependency added without refreshing constraints.txt would be installed unpinned: the names must agree."""
    tool = constraints_tool()
    assert sorted(tool.closure(tool.direct())) == sorted(constraints())


def test_the_newest_versions_report_lists_what_moved():
    tool = constraints_tool()
    table = tool.diff({"pandas": "3.2.0", "numpy": "2.4.6", "newdep": "1.0"}, {"pandas": "3.1.1", "numpy": "2.4.6"})
    assert table.splitlines() == ["| package | constraints.txt | installed |", "|---|---|---|",
                                  "| newdep | (not pinned) | 1.0 |", "| pandas | 3.1.1 | 3.2.0 |"]
    assert tool.diff({"numpy": "2.4.6"}, {"numpy": "2.4.6"}) == "Every package is at the version constraints.txt pins.\n"
