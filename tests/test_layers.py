"""The house's one rule: imports point down the layers.

    jongg (front doors) > runtime.agents > runtime.game > runtime.matching > runtime (model)

and the runtime never imports the compiler. Read from the source (every
import statement, lazy ones inside functions included), so a new module is
checked the day it is written.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# layer of each package, highest first; a module may import only its own layer or lower ones
LAYERS = {
    "jongg.runtime.agents": 3,
    "jongg.runtime.game": 2,
    "jongg.runtime.matching": 1,
    "jongg.runtime": 0,
}
FOLDERS = {"jongg.runtime": ROOT / "runtime", "jongg.compiler": ROOT / "compiler"}


def module_name(path: Path) -> str:
    for package, folder in FOLDERS.items():
        if path.is_relative_to(folder):
            parts = path.relative_to(folder).with_suffix("").parts
            return ".".join((package, *parts)).removesuffix(".__init__")
    raise ValueError(path)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, relative ones made absolute."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def layer(module: str) -> int | None:
    best = None
    for package, level in LAYERS.items():
        if (module == package or module.startswith(package + ".")) and \
                (best is None or len(package) > len(best[0])):
            best = (package, level)
    return None if best is None else best[1]


def runtime_files() -> list[Path]:
    return sorted((ROOT / "runtime").rglob("*.py"))


@pytest.mark.parametrize("path", runtime_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path: Path) -> None:
    mine = layer(module_name(path))
    assert mine is not None
    wrong = []
    for line, target in imports(path):
        if target.startswith("jongg.compiler") or target.startswith("jongg.cli") or \
                (target.startswith("jongg.") and not target.startswith("jongg.runtime")):
            wrong.append(f"line {line}: {target} (the runtime never imports the compiler "
                         "or the front doors)")
            continue
        theirs = layer(target)
        if theirs is not None and theirs > mine:
            wrong.append(f"line {line}: {target} is a higher layer")
    assert wrong == []


def test_the_scan_reads_every_layer() -> None:
    seen = {layer(module_name(p)) for p in runtime_files()}
    assert seen == set(LAYERS.values())
    # and it does catch an upward import
    assert layer("jongg.runtime.agents.planner") == 3 > layer("jongg.runtime.game.state") == 2


ENGINE = ROOT / "runtime" / "matching"
ORACLE = {"reference.py", "samples.py"}  # the oracle, and the hand sampler built on it


@pytest.mark.parametrize("path", sorted(p for p in ENGINE.glob("*.py") if p.name not in ORACLE),
                         ids=lambda p: p.name)
def test_the_engine_shares_no_code_with_the_oracle(path: Path) -> None:
    """The compiled matcher never borrows the reference's code, so agreement
    between the two proves both."""
    used = [f"line {line}: {target}" for line, target in imports(path)
            if target.startswith("jongg.runtime.matching.reference")]
    assert used == []


def test_the_oracle_borrows_no_engine_code() -> None:
    used = [target for line, target in imports(ENGINE / "reference.py")
            if target.startswith("jongg.runtime.matching.")
            and not target.startswith("jongg.runtime.matching.answers")]
    assert used == []


# -- small modules: no Python file of the tree over 600 lines ------------------------------

MOST_LINES = 600
SKIPPED = {".git", ".venv", "build", "dist", "node_modules"}


def python_files(root: Path) -> list[Path]:
    """Every .py file under `root`, the tree's own (not a virtual environment's,
    a build's, or the in-package links that repeat runtime/ and compiler/)."""
    out = []
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts
        if any(p in SKIPPED or p.endswith(".egg-info") for p in parts):
            continue
        if any(p.is_symlink() for p in [path, *path.parents] if p.is_relative_to(root)):
            continue
        out.append(path)
    return sorted(out)


def too_long(root: Path) -> list[str]:
    return [f"{p.relative_to(root)}: {n} lines" for p in python_files(root)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES]


def test_no_python_file_is_over_600_lines() -> None:
    """One job a module: a file past 600 lines is split by job (docs/design.md)."""
    assert too_long(ROOT) == []


def test_the_line_count_sees_a_long_file_anywhere(tmp_path: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "long.py").write_text("x = 1\n" * 601)
    (tmp_path / "short.py").write_text("x = 1\n" * 600)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "theirs.py").write_text("x = 1\n" * 900)
    assert too_long(tmp_path) == ["deep/er/long.py: 601 lines"]
    assert len(python_files(ROOT)) > 200  # the scan reads the tree, tests and bench included
