"""Shared helpers: shipped cards, and hands written as tile codes; a private
cache for the test session."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from jongg.compiler.card import load_card
from jongg.runtime.card import Card
from jongg.runtime.matching.reference import Hand
from jongg.runtime.tiles import parse_tiles

TEST_CARDS = Path(__file__).parent / "cards"  # cards written for the tests

# this session's own folders, each named in the environment by its variable,
# removed at the session's end
_FOLDERS = pytest.StashKey[dict[str, str]]()


def pytest_configure(config: pytest.Config) -> None:
    """Point JONGG_CACHE_DIR at a fresh folder for this session, so tests never
    read or write the user's cache. Made by the controlling process only:
    xdist workers and the subprocesses tests start inherit the environment,
    so they share it. A caller who set JONGG_CACHE_DIR keeps their own.

    With PYTHONDONTWRITEBYTECODE set, every xdist worker and every jongg the
    tests start would compile jongg from source again. The variable's wish is
    that no .pyc lands beside the sources: so the workers and children write
    theirs into a folder of this session's own (PYTHONPYCACHEPREFIX)."""
    if hasattr(config, "workerinput"):
        return
    config.stash[_FOLDERS] = {}
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        _session_folder(config, "PYTHONPYCACHEPREFIX", "jongg-test-bytecode-")
    if not os.environ.get("JONGG_CACHE_DIR"):
        _session_folder(config, "JONGG_CACHE_DIR", "jongg-test-cache-")


def _session_folder(config: pytest.Config, variable: str, prefix: str) -> None:
    folder = tempfile.mkdtemp(prefix=prefix)
    os.environ[variable] = folder
    config.stash[_FOLDERS][variable] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for variable, folder in config.stash.get(_FOLDERS, {}).items():
        os.environ.pop(variable, None)
        shutil.rmtree(folder, ignore_errors=True)
        if variable == "PYTHONPYCACHEPREFIX":
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # as the caller had it


ARTIFACTS = "JONGG_TEST_ARTIFACTS"  # a folder kept after the run (.ci/run sets it)


@pytest.fixture
def artifacts(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Where a test keeps what a person may want to look at afterwards
    (screenshots): $JONGG_TEST_ARTIFACTS/<the test's name> when set, else
    the test's temporary folder (pytest keeps the last few runs')."""
    root = os.environ.get(ARTIFACTS)
    if not root:
        return tmp_path
    folder = Path(root) / request.node.name.replace("/", "_")[:120]
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def in_c_or_python(built: object) -> list[object]:
    """The two ways of a query the optional C accelerator serves, as
    parameters of `in_c`: in C (skipped where `built`, its function, is
    None) and in Python."""
    return [pytest.param(True, id="in C", marks=pytest.mark.skipif(
                built is None, reason="the C accelerator is not built here")),
            pytest.param(False, id="in Python")]


@cache
def card(name: str) -> Card:
    """A shipped card, or one of tests/cards/ by its name."""
    path = TEST_CARDS / f"{name}.yaml"
    return load_card(str(path) if path.exists() else name)


def hand(c: Card, concealed: str, exposed: Sequence[str] = ()) -> Hand:
    deck = c.deck
    return Hand(tuple(parse_tiles(deck, concealed)),
                tuple(tuple(parse_tiles(deck, e)) for e in exposed))


def card_from_lines(*lines: str, deck: str = "american-152", size: int = 14,
                    extra: str = "") -> Card:
    """A card compiled from YAML line entries, e.g. '{id: a, hand: "...", value: 25}'."""
    from jongg.compiler.card import compile_card_document
    from jongg.compiler.source import load_text

    body = "\n".join(f"  - {line}" for line in lines)
    text = f"card: t\ndeck: {deck}\nhand_size: {size}\nyear: 2026\n{extra}lines:\n{body}\n"
    return compile_card_document(load_text(text, "t.yaml"))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr), never a traceback."""
    from jongg.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "internal error" not in out + err
    return status, out, err


def where(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the `occurrence`-th `needle` in `text`."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def interruptible() -> None:
    """In a child about to run jongg: Ctrl-C as a terminal delivers it. A
    signal a process ignores stays ignored across exec, and Python then never
    raises KeyboardInterrupt; a test process may have been left ignoring
    SIGINT by a library it ran, and the child must not inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def _ctrl_c_as_pytest_set_it() -> object:
    """After each test, Ctrl-C as pytest set it: a library a test ran may leave
    SIGINT ignored, and every process the later tests start (jongg under
    pexpect, simulate, the card report) would inherit that and never be
    interrupted."""
    yield
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
