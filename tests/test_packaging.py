"""The wheel holds the whole package: every module and data file of the tree.

pyproject.toml finds the packages instead of listing them, so a new
sub-package or data folder cannot be left out of the wheel while every
in-tree test passes. This builds the wheel the README's first command
installs (`pip install .`) from a copy of the tree and compares.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# jongg/'s links to the top-level folders: their files ship under jongg/<folder>/
LINKED = ("compiler", "runtime", "grammar", "rulesets")
BUILT = {".c"}  # sources the install compiles, not ships


def tree_files() -> list[str]:
    """The files of the checkout (tracked, and new ones git does not ignore)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: the tree's files cannot be listed")
    return [f for f in listed.stdout.splitlines() if (ROOT / f).exists()]


def shipped(files: list[str]) -> set[str]:
    """Where each file of the package should stand in the wheel."""
    want = set()
    for f in files:
        top = f.split("/", 1)[0]
        if top in LINKED:
            want.add(f"jongg/{f}")
        elif top == "jongg" and not (ROOT / f).is_symlink():
            want.add(f)
    return {f for f in want if Path(f).suffix not in BUILT}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    work = tmp_path_factory.mktemp("wheel")
    tree = work / "tree"
    for f in tree_files():
        source = ROOT / f
        if source.is_symlink() or source.is_file():
            (tree / f).parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                (tree / f).symlink_to(source.readlink())
            else:
                shutil.copy2(source, tree / f)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                            "-w", str(work / "dist"), str(tree)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    (found,) = (work / "dist").glob("jongg-*.whl")
    return zipfile.ZipFile(found)


def test_every_module_and_data_file_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    want = shipped(tree_files())
    assert len(want) > 150  # the listing did read the tree
    assert sorted(want - names) == []


def test_only_the_jongg_namespace_is_installed(wheel: zipfile.ZipFile) -> None:
    tops = {n.split("/", 1)[0] for n in wheel.namelist() if not n.startswith("jongg-")}
    assert tops == {"jongg"}


def test_every_package_folder_is_a_package(wheel: zipfile.ZipFile) -> None:
    """A folder of Python modules without __init__.py would import only as a
    namespace package, which importlib.resources and mypy treat differently."""
    names = set(wheel.namelist())
    folders = {n.rsplit("/", 1)[0] for n in names if n.endswith(".py")}
    assert sorted(f for f in folders if f"{f}/__init__.py" not in names) == []
