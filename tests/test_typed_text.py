"""Text from people and from rule files is shown as it is written: never read
as rich markup, never a crash. A person may type anything at any prompt;
titles and seat names may hold brackets; NO_COLOR means no escape codes."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from rich.console import Console

from jongg import terminal
from jongg.runtime.game.state import Mode

from .conftest import interruptible, run_cli
from .rig import game

pexpect = pytest.importorskip("pexpect")

HOSTILE = ["[/]", "discard [/]", "[bold]x", "²", "①", "d ①", "discard ²", "9" * 5000,
           "claim [/] on ²", "m ²", "offer ²", "vote [/]"]


def kind(prompt: str) -> str:
    if prompt.startswith("your turn"):
        return "turn"
    if "p: pass" in prompt:
        return "claim"
    if prompt.startswith("pass "):
        return "pass"
    return "choice"


def plain_answer(prompt: str, tries: int) -> str:
    """What a person means after the hostile lines: a position, or the
    answer the question takes (a count, a vote, Enter after a round)."""
    if kind(prompt) == "claim":
        return "p"
    if "y: yes" in prompt:
        return "n"
    if "press Enter" in prompt:
        return ""
    if "0-" in prompt:
        return "0"
    return str(tries - len(HOSTILE) + 1)


def test_every_prompt_answers_markup_and_odd_numbers_with_a_message(tmp_path: Path) -> None:
    """Every kind of prompt of the Card Game (Charleston passes, votes,
    turns, claim windows) gets each hostile line, then a plain answer. The
    console reads markup, as rich's does by default: the table must not
    hand it anything to read."""
    screen = io.StringIO()
    console = Console(file=screen, width=120, highlight=False)
    seen: dict[str, int] = {}
    last = ["", 0]

    def read(prompt: str) -> str:
        screen.write(prompt + "\n")
        if prompt != last[0]:  # a new prompt: every hostile line first
            last[0], last[1] = prompt, 0
            seen[kind(prompt)] = seen.get(kind(prompt), 0) + 1
        if sum(seen.values()) > 60 and len(seen) == 4 or sum(seen.values()) > 400:
            raise EOFError
        tries = last[1]
        last[1] = tries + 1
        if tries < len(HOSTILE):
            return HOSTILE[tries]
        assert tries < len(HOSTILE) + 40, f"stuck at {prompt!r}"
        return plain_answer(prompt, tries)

    table = terminal.start(game("mjcg", 4), seat=0, agents=["greedy"], seed=3,
                           mode=Mode.GUARDED, log=tmp_path / "g.jsonl", console=console,
                           fast=True, read=read)
    with pytest.raises(terminal.Quit):
        table.play()
    table.writer.close()
    assert set(seen) == {"turn", "claim", "pass", "choice"}, seen
    text = screen.getvalue()
    for said in ("cannot read '[/]' (type help for the commands)", "unknown tile '[/]'; ",
                 "unknown tile '²'; american-152 tiles are ", "that is too long for a command",
                 "cannot read the action 'claim [/] on ²'"):
        assert said in text


def test_typed_numbers_are_ascii_digits_and_few() -> None:
    assert terminal.typed_number("12") == 12
    for word in ("²", "①", "٣", "9" * 5000, "-1", "1.5", ""):
        assert terminal.typed_number(word) is None


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text('variant: house\nextends: nymj\ntitle: "NYMJ [house rules] [/]"\n'
                    'players: {min: 4}\n'
                    'seats: {names: ["[/b]", "[bold]Two", "Three [x]", "Four"]}\n')
    return path


def test_a_title_and_seat_names_with_brackets_are_shown_as_written(
        house: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_cli(capsys, "variant", "check", str(house))[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    status, out, _ = run_cli(capsys, "play", str(house), "--fast", "--seed", "1", "--log",
                             str(tmp_path / "h.jsonl"))
    assert status == 0
    assert "NYMJ [house rules] [/]\nround 1 · " in out and "[/b] (you), Ma" in out
    assert "[bold]Two" in out and "Three [x]" in out


def test_simulate_shows_seat_names_with_brackets_and_keeps_its_table(
        house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "simulate", str(house), "--games", "2", "--quiet")
    assert status == 0
    assert "[/b]" in out and "[bold]Two" in out and "invariant violations: 0" in out


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return dict(env, COLUMNS="120", LINES="50", TERM="xterm-256color", **extra)


def test_no_color_sends_no_escape_codes_at_all(tmp_path: Path) -> None:
    """rich alone honours NO_COLOR for colours but still sends bold."""
    child = pexpect.spawn(sys.executable, ["-m", "jongg", "play", "nymj", "--fast", "--seed",
                                           "5", "--log", "n.jsonl"], cwd=str(tmp_path),
                          env=_env(NO_COLOR="1"), encoding="utf-8", timeout=120,
                          dimensions=(50, 120), preexec_fn=interruptible)
    child.expect(r"your turn: discard a tile[^\n>]*> ")
    screen = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "your hand  Red" in screen and "\x1b[" not in screen


def test_a_terminal_that_is_not_one_gets_no_escape_codes(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "jongg", "play", "nymj", "--fast", "--seed",
                           "5", "--log", "p.jsonl"], input="1\nquit\n", capture_output=True,
                          text=True, cwd=tmp_path, env=_env(), timeout=300)
    assert done.returncode == 0 and "your hand  Red" in done.stdout
    assert "\x1b[" not in done.stdout + done.stderr
