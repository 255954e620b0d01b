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
    "jongg.runtime.scoring": 2,  # a hand's score: reads the game's formulas
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


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, relative ones made absolute
    (`module`: the file's own name, when it is not in runtime/ or compiler/)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module or module_name(path)
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


# -- the compiler and the front doors -------------------------------------------------
# The front doors, highest first: a module may import its own package, those of
# its level or lower, and the runtime; the compiler only through jongg.api, the
# one gateway a Python user calls too. The API and the presentation share a
# level: the API explains a filling in the presentation's words, and the
# presentation reads a card's printed form through the API.
FRONT = {
    "jongg.cli": 9,
    "jongg.commands": 8,
    "jongg.web": 7,
    "jongg.terminal": 7,
    "jongg.cardlab": 6,
    "jongg.runs": 5,
    "jongg.api": 4,
    "jongg.present": 4,
}
# (module, import, why): the only compiler imports the front doors make beside jongg.api
GATEWAY_EXCEPTIONS = {
    ("jongg.cli", "jongg.compiler.shelf"): "the help lists the shipped names at once, "
                                            "without loading the compiler",
}
LINKED = {"compiler", "runtime", "grammar", "rulesets"}


def front_files() -> list[Path]:
    return sorted(p for p in (ROOT / "jongg").rglob("*.py")
                  if p.relative_to(ROOT / "jongg").parts[0] not in LINKED)


def front_module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts).removesuffix(".__init__")


def front_imports(path: Path) -> list[tuple[int, str]]:
    return imports(path, front_module(path))


def front_layer(module: str) -> tuple[str, int] | None:
    for package, level in FRONT.items():
        if module == package or module.startswith(package + "."):
            return package, level
    return None


def front_problems(module: str, found: list[tuple[int, str]]) -> list[str]:
    mine = front_layer(module)
    if mine is None:  # jongg/__init__.py and __main__.py: the package's own door
        return []
    wrong = []
    for line, target in found:
        if target.startswith("jongg.compiler") and mine[0] != "jongg.api":
            if not any(mine[0] == door and (target == allowed or
                                            target.startswith(allowed + "."))
                       for door, allowed in GATEWAY_EXCEPTIONS):
                wrong.append(f"line {line}: {target} (front doors reach the compiler "
                             "through jongg.api)")
            continue
        theirs = front_layer(target)
        if theirs is not None and theirs[0] != mine[0] and theirs[1] > mine[1]:
            wrong.append(f"line {line}: {target} is above {mine[0]}")
    return wrong


@pytest.mark.parametrize("path", front_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_front_doors_point_down_and_reach_the_compiler_through_the_api(path: Path) -> None:
    assert front_problems(front_module(path), front_imports(path)) == []


def test_every_front_door_has_a_layer() -> None:
    """A new sub-package of jongg/ must be given its place before it is used."""
    packages = {p.parent for p in front_files() if p.parent != ROOT / "jongg"}
    modules = {p for p in front_files() if p.parent == ROOT / "jongg"}
    named = {front_layer(front_module(p)) for p in (*packages, *modules)
             if p.name not in ("__init__.py", "__main__.py")}
    assert None not in {front_layer(front_module(p / "__init__.py")) for p in packages}
    assert None not in named


def compiler_files() -> list[Path]:
    return sorted((ROOT / "compiler").rglob("*.py"))


@pytest.mark.parametrize("path", compiler_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_compiler_imports_no_front_door_and_no_agent(path: Path) -> None:
    """The compiler knows its target (the runtime's model, its game and matching
    artifacts) and nothing above: no agent, no front door."""
    wrong = [f"line {line}: {target}" for line, target in imports(path)
             if target.startswith("jongg.runtime.agents")
             or (target.startswith("jongg.") and not target.startswith(
                 ("jongg.runtime", "jongg.compiler", "jongg.grammar", "jongg.rulesets")))]
    assert wrong == []


def test_the_front_door_scan_catches_a_shortcut() -> None:
    """The scan itself bites: a shortcut into the compiler and an upward import
    are both caught, and the gateway passes."""
    assert front_problems("jongg.web.server", [(3, "jongg.compiler.card")]) == [
        "line 3: jongg.compiler.card (front doors reach the compiler through jongg.api)"]
    assert front_problems("jongg.runs.simulate", [(5, "jongg.commands.game")]) == [
        "line 5: jongg.commands.game is above jongg.runs"]
    assert front_problems("jongg.web.server", [(1, "jongg.api"), (2, "jongg.present.text"),
                                              (4, "jongg.runtime.game.state")]) == []


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
