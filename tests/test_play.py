"""`jongg play` driven through a pseudo-terminal, as a person would: a fixed
screen size, no colours, a scripted player against bots with --fast. The
screen text is checked, not only the exit code."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPTS = {
    "turn": r"your turn: discard a tile[^\n>]*> ",
    "claim": r"\? [^\n>]*p: pass > ",
    "pass": r"choose a tile to pass \(\d of \d\) > ",
    "choice": r"1: (?:vote|offer|blind)[^\n>]*> ",
}
ROUND_OVER = r"round 1 over"


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120", LINES="50", TERM="dumb")
    return pexpect.spawn(sys.executable, ["-m", "jongg", "play", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=120, dimensions=(50, 120))


def answer(child: pexpect.spawn, kind: str, tries: int) -> None:
    """A simple player: discards and passes from the left, lets discards go,
    votes and offers the first choice; a refused tile (a joker in a pass) is
    followed by the next position."""
    if kind in ("turn", "pass"):
        child.sendline(str(1 + tries))
    elif kind == "claim":
        child.sendline("p")
    else:
        child.sendline("1")


def play_until(child: pexpect.spawn, end: str, limit: int = 400) -> str:
    """Answer prompts until `end` shows; the screen text seen."""
    seen = ""
    tries = 0
    patterns = [end, *PROMPTS.values(), r"is not legal now"]
    kinds = ["end", *PROMPTS, "refused"]
    for _ in range(limit):
        index = child.expect(patterns)
        seen += child.before + child.after
        kind = kinds[index]
        if kind == "end":
            return seen
        if kind == "refused":
            tries += 1
            continue
        answer(child, kind, tries if kind in ("turn", "pass") else 0)
        if kind not in ("turn", "pass"):
            tries = 0
    raise AssertionError(f"{end!r} never came:\n{seen[-2000:]}")


def test_a_person_plays_a_round_of_nymj_recovers_from_mistakes_and_asks_a_hint(
        tmp_path: Path) -> None:
    child = spawn("nymj", "--fast", "--seed", "5", "--log", "game.jsonl", cwd=tmp_path)
    child.expect(PROMPTS["turn"])
    screen = child.before
    assert "you are Seat 1" in screen and "game.jsonl" in screen
    for words in ("tokens: Seat 1 10", "Seat 1 (you), Ma: 11 in hand", "your hand: 1:"):
        assert words in screen
    child.sendline("discard Q9")  # an unknown tile: one line, the same prompt
    child.expect(r"unknown tile 'Q9'")
    child.expect(PROMPTS["turn"])
    child.sendline("claim mahjong")  # not legal on one's own turn
    child.expect(r"'claim mahjong' is not legal now \(type help\)")
    child.expect(PROMPTS["turn"])
    child.sendline("hint")
    child.expect(r"three-sets-and-a-pair: \d+ away")
    child.expect(PROMPTS["turn"])
    child.sendline("help")
    child.expect(r"legal now: discard ")
    child.expect(PROMPTS["turn"])
    child.sendline("1")
    child.expect(r"Seat 1 discards ")
    seen = play_until(child, ROUND_OVER)
    assert "Seat 2 discards" in seen
    child.expect(r"tokens: Seat 1 \d+")
    after = child.before + child.after
    assert "wins with three-sets-and-a-pair" in seen + after or \
        "the wall is empty" in seen + after
    play_until(child, r"your turn: discard a tile[^\n>]*> |p: pass > ")
    child.sendline("quit")
    child.expect(r"stopped at state \w+; resume with: jongg play --resume game.jsonl")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_person_plays_a_round_of_the_card_game_charleston_included(tmp_path: Path) -> None:
    child = spawn("mjcg", "--fast", "--seed", "2", "--log", "g.jsonl", cwd=tmp_path)
    child.expect(PROMPTS["pass"])
    assert "points: East 650" in child.before and "your hand: 1:" in child.before
    child.sendline("J")  # a joker may never be passed (MJCG-08)
    child.expect(r"'pass J' is not legal now|unknown|not legal")
    seen = play_until(child, ROUND_OVER, limit=600)
    assert "1: vote yes" in seen  # the second Charleston is put to the vote
    assert "your turn: discard a tile" in seen
    child.expect(list(PROMPTS.values()))  # the next round asks something
    child.sendintr()  # Ctrl-C: a clean stop, the log kept
    child.expect(r"stopped at state \w+; resume with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "g.jsonl").exists()


def _hand(screen: str) -> str:
    found = re.findall(r"your hand: ([^\n]*)", screen)
    assert found, screen[-1000:]
    return found[-1].strip()


def test_quit_and_resume_continue_exactly_where_the_game_stopped(tmp_path: Path) -> None:
    child = spawn("nymj", "--fast", "--seed", "8", "--log", "r.jsonl", cwd=tmp_path)
    for _ in range(3):
        play_until(child, PROMPTS["turn"])
        child.sendline("1")
    hand = _hand(play_until(child, PROMPTS["turn"]))
    child.sendeof()  # end of input: a clean stop
    child.expect(r"stopped at state (\w+); resume with: jongg play --resume r.jsonl")
    digest = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    again = spawn("--resume", "r.jsonl", "--fast", cwd=tmp_path)
    again.expect(r"resuming nymj from r.jsonl \((\d+) decisions played, state (\w+)\)")
    assert int(again.match.group(1)) == sum('"action"' in x for x in lines)
    assert again.match.group(2) == digest  # the very state the game stopped in
    assert _hand(play_until(again, PROMPTS["turn"], limit=1)) == hand  # the same turn
    again.sendline("1")
    again.expect(r"Seat 1 discards")
    again.sendline("quit")
    again.sendline("quit")
    again.expect(pexpect.EOF)
    again.close()
    grown = (tmp_path / "r.jsonl").read_text().splitlines()
    assert grown[:len(lines)] == lines and len(grown) > len(lines)
    assert grown[0].startswith('{"log":"jongg"') and '"human"' in grown[0]


def test_strict_mode_lets_a_person_err_and_shows_the_penalty(tmp_path: Path) -> None:
    child = spawn("nymj", "--fast", "--strict", "--seed", "5", "--log", "s.jsonl",
                  cwd=tmp_path)
    child.expect(PROMPTS["turn"])
    assert "m: end the round" in child.after or "m: " in child.after
    child.sendline("m")  # Mah Jongg declared on an incomplete hand
    child.expect(r"Seat 1's hand is dead for this round")
    child.expect(r"Seat 2 discards")
    child.sendintr()  # while the bots play on: still a clean stop
    child.expect(r"stopped at state \w+; resume with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("args,message", [
    (["play"], "play: name a variant (or --resume LOG)"),
    (["play", "nymj", "--seat", "9"], "--seat: give 1 to 4"),
    (["play", "nymj", "--agents", "wizard"], "--agents: unknown agent 'wizard'"),
    (["play", "--resume", "no/such.jsonl"], "--resume: no/such.jsonl"),
    (["play", "nosuch"], "unknown variant 'nosuch'"),
])
def test_bad_play_arguments_get_a_message(capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str) -> None:
    from jongg.cli import main

    assert main(args) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_resume_refuses_a_log_without_a_person(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from jongg.cli import main

    assert main(["simulate", "nymj", "--games", "1", "--quiet", "--log-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    log = next(tmp_path.glob("*.jsonl"))
    assert main(["play", "--resume", str(log)]) == 1
    assert "not a game played at the terminal" in capsys.readouterr().err
