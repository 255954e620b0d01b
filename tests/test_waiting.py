"""What a person waits on shows progress: the per-suit tables' bar appears
once a build has taken a second, at a terminal, unless --quiet."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from jongg.commands import console as waiting

from .conftest import run_cli


def _terminal() -> tuple[Console, io.StringIO]:
    screen = io.StringIO()
    return Console(file=screen, force_terminal=True, width=80), screen


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_build_under_a_second_shows_nothing() -> None:
    console, screen = _terminal()
    clock = Clock()
    with waiting.table_building(console=console, clock=clock) as hear:
        for done in range(1, 11):
            clock.now += 0.05  # half a second in all
            hear(done, 10)
    assert screen.getvalue() == ""


def test_a_build_past_a_second_shows_a_bar_of_the_tables() -> None:
    console, screen = _terminal()
    clock = Clock()
    with waiting.table_building(console=console, clock=clock) as hear:
        for done in range(1, 11):
            clock.now += 0.3
            hear(done, 10)
    shown = screen.getvalue()
    assert "building the card's per-suit tables" in shown
    assert "10/10" in shown  # the bar followed the build to its end


@pytest.mark.parametrize("quiet,terminal", [(True, True), (False, False)])
def test_quiet_or_not_a_terminal_shows_nothing(quiet: bool, terminal: bool) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=terminal, width=80)
    clock = Clock()
    with waiting.table_building(quiet, console=console, clock=clock) as hear:
        for done in range(1, 11):
            clock.now += 0.5
            hear(done, 10)
    assert screen.getvalue() == ""


def test_compiling_a_card_that_builds_tables_shows_the_bar(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`jongg compile` of a user's card of free groups, on a fresh cache:
    the real build reports to the bar (shown at once here, not after a
    second, so the test does not depend on this machine's speed)."""
    card = tmp_path / "pairs.yaml"
    card.write_text("card: two-sets\ndeck: classic-136\nhand_size: 8\nyear: 2026\nlines:\n"
                    "  - {id: two, hand: \"2[set] [pair]\", value: 25}\n")
    monkeypatch.setenv("JONGG_CACHE_DIR", str(tmp_path / "cache"))
    console, screen = _terminal()
    monkeypatch.setattr(waiting, "plain_console", lambda stderr=False: console)
    monkeypatch.setattr(waiting, "AFTER", 0.0)
    status, out, _ = run_cli(capsys, "compile", str(card))
    assert status == 0 and "per-suit tables of the structural lines: built in" in out
    assert "building the card's per-suit tables" in screen.getvalue()
    # built once: the second time they are loaded from the cache, and no bar is shown
    console2, screen2 = _terminal()
    monkeypatch.setattr(waiting, "plain_console", lambda stderr=False: console2)
    status, out, _ = run_cli(capsys, "compile", str(card))
    assert status == 0 and "per-suit tables of the structural lines: loaded" in out
    assert screen2.getvalue() == ""
