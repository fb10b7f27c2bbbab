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



def private_uses(text: str, path: Path) -> list[str]:
    """`from <sitegen module> import _name` and `<sitegen module>._name` in the text of the package file at path
    (its place decides what a relative import means)."""
    import ast

    tree = ast.parse(text)
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]  # ("sitegen", "data") for data/checks.py
    modules, out = set(), []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = list(package[:len(package) - node.level + 1]) if node.level else []
        base += node.module.split(".") if node.module else []
        if not base or base[0] != "sitegen":
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                out.append(f"{path.name}:{node.lineno}: imports {alias.name} from {'.'.join(base)}")
            target = PACKAGE.parent.joinpath(*base, alias.name)
            if target.with_suffix(".py").exists() or (target / "__init__.py").exists():
                modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            out.append(f"{path.name}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return out


def test_no_module_uses_another_modules_private_names():
    """A leading underscore means "this module's own": what another module needs is public (no `_name` crosses)."""
    found = [use for path in sorted(PACKAGE.rglob("*.py")) for use in private_uses(path.read_text("utf-8"), path)]
    assert found == []


def test_the_private_name_finder_sees_both_forms():
    text = ("from .rules import _at, check\nfrom .. import problems\nfrom . import frame\nx = frame._key(1)\n"
            "y = problems.Problem\nz = check._private_of_a_function\n")
    assert private_uses(text, PACKAGE / "data" / "checks.py") == [
        "checks.py:1: imports _at from sitegen.data.rules", "checks.py:4: uses frame._key"]


def engine_state() -> set[str]:
    """`module.name` of every process-wide table in indices/: a private module-level dict, list, set or PerFrame,
    a name a function rebinds with `global`, and a function behind functools' cache."""
    import ast

    found = set()
    for path in sorted((PACKAGE / "indices").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                values = node.value.elts if isinstance(node.value, ast.Tuple) and len(names) > 1 else [node.value]
                for name, value in zip(names, values * len(names) if len(values) == 1 else values):
                    called = isinstance(value, ast.Call) and getattr(value.func, "id", None) in (
                        "dict", "list", "set", "PerFrame", "defaultdict")
                    if name.startswith("_") and (called or isinstance(value, (ast.Dict, ast.List, ast.Set))):
                        found.add(f"{path.stem}.{name}")
            if isinstance(node, ast.FunctionDef) and any("cache" in ast.unparse(d) for d in node.decorator_list):
                found.add(f"{path.stem}.{node.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                found |= {f"{path.stem}.{name}" for name in node.names}
    return found


def test_architecture_names_every_process_wide_table_of_the_engine():
    """"Indices are pure" holds with the memo tables ARCHITECTURE.md lists; a new one is listed there or removed."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Process-wide state in the engine", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"`indices/(\w+)\.py: (\w+)`", section)) == {tuple(s.split(".")) for s in engine_state()}


def test_every_claim_names_a_contract_or_test_that_exists():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    table = text.split("## What keeps this page true", 1)[1]
    rows = [row for row in table.splitlines() if row.startswith("| ") and not row.startswith(("| claim", "|---"))]
    contracts = {c["id"] for c in PYPROJECT["tool"]["importlinter"]["contracts"]}
    assert len(rows) >= 10
    for row in rows:
        keeper = row.split(" | ")[-1]
        named = re.findall(r"contract `([\w-]+)`", keeper)
        tests = re.findall(r"`(tests/[\w/.-]+?)(?:::(\w+))?`", keeper)
        assert named or tests, row
        assert set(named) <= contracts, row
        for path, name in tests:
            assert (ROOT / path).exists(), path
            if name:
                assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), (path, name)
