"""The front door: docs/api.md runs as written, and `import jongg` is small
and lazy."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_the_api_tour_runs_as_written(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The tour runs as a module of its own (so a function it defines can go
    to worker processes, as a reader's script's would), in a folder of its
    own (it writes files)."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert len(blocks) >= 6
    tour = types.ModuleType("api_tour")
    monkeypatch.setitem(sys.modules, "api_tour", tour)
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), tour.__dict__)  # noqa: S102 - our own docs
    out = capsys.readouterr().out
    assert "<Card 'sample'" in out and "unknown tile" in out and "cannot act now" in out


def test_import_jongg_loads_nothing_heavy() -> None:
    """The front door loads its names on first use: importing it (as the
    command line does) pulls in neither NumPy nor the compiler."""
    code = ("import sys, jongg; print(jongg.__version__); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'lark', 'jsonschema', 'rich') or m.startswith('jongg.compiler')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    version, heavy = done.stdout.splitlines()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert heavy == "[]"


def test_every_exported_name_resolves() -> None:
    import jongg

    for name in jongg.__all__:
        assert getattr(jongg, name) is not None
    with pytest.raises(AttributeError):
        jongg.no_such_name  # noqa: B018


def test_an_agent_of_ones_own_plays_from_the_command_line(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    (tmp_path / "mybots.py").write_text(
        "class FirstChoice:\n    name = 'first'\n"
        "    def __init__(self, seed, seat):\n        pass\n"
        "    def act(self, seen, legal):\n        return legal[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from .conftest import run_cli

    status, out, _ = run_cli(capsys, "simulate", "nymj", "--games", "2", "--quiet",
                             "--agents", "greedy,mybots:FirstChoice", "--json")
    assert status == 0 and '"mybots:FirstChoice"' in out
    status, _, err = run_cli(capsys, "simulate", "nymj", "--games", "1",
                             "--agents", "mybots:Nothing")
    assert status == 1 and "has no 'Nothing'" in err
