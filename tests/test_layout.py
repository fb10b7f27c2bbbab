"""The package's shape: the import-linter contracts hold, and ARCHITECTURE.md's layout table matches the tree."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "sitegen"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def layout_rows() -> list[str]:
    """The first cell of each row of ARCHITECTURE.md's package layout table, e.g. "data/" or "export.py"."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Package layout", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.M)


def test_the_import_contracts_hold():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "generator"),
                                                                    os.environ.get("PYTHONPATH")]))}
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_cover_every_folder_and_module_of_the_package():
    layered = {name.strip().removeprefix("sitegen.")
               for contract in PYPROJECT["tool"]["importlinter"]["contracts"] if contract["type"] == "layers"
               for layer in contract["layers"] for name in re.split(r"[|:]", layer)}
    code = {p.name if p.is_dir() else p.stem for p in PACKAGE.iterdir()
            if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.name != "__init__.py")}
    assert code == layered


def test_architecture_names_every_top_level_folder_and_module():
    named = layout_rows()
    top = {p.name + "/" for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    top |= {p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    assert set(named) == top, "ARCHITECTURE.md's layout table and generator/sitegen/ differ"
    assert len(named) == len(set(named))


def test_every_path_architecture_names_in_the_package_exists():
    """Each row's own folder or module exists, and so does every file its description names (looked for in the
    row's folder, the package and the repository): rows that name a single module are checked too."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Package layout", 1)[1].split("\n## ", 1)[0]
    checked = 0
    for row in section.splitlines()[1:]:
        cells = row.split(" | ")
        if not row.startswith("| `") or len(cells) < 2:
            continue
        own = PACKAGE / cells[0].strip("| `")
        assert own.is_dir() if cells[0].strip("| `").endswith("/") else own.is_file(), f"{cells[0]}: no such path"
        bases = (own, PACKAGE, ROOT) if own.is_dir() else (PACKAGE, ROOT)
        for name in re.findall(r"`([\w/]+\.(?:py|js|yaml))`", cells[1]):
            assert any((base / name).exists() for base in bases), f"{cells[0]}: no {name}"
            checked += 1
    assert checked > 0


def test_architecture_lists_the_folders_in_the_order_of_the_layers():
    """Bottom layer first, as data flows: the table's order is the contract's, read upwards."""
    (layers,) = [c["layers"] for c in PYPROJECT["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    level = {name.strip().removeprefix("sitegen."): i for i, layer in enumerate(reversed(layers))
             for name in re.split(r"[|:]", layer)}
    shown = [level[n] for n in (name.removesuffix("/").removesuffix(".py") for name in layout_rows()) if n in level]
    assert shown == sorted(shown) and len(shown) == len(level)
