"""`jongg play` driven through a pseudo-terminal, as a person would: a fixed
screen size, no colours, a scripted player against bots with --fast. The
screen text is checked, not only the exit code."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

from jongg.runtime.agents.bots import Agent, GreedyAgent
from jongg.runtime.game.log import Header, LogWriter
from jongg.runtime.game.state import Mode, State
from jongg.terminal import HUMAN, Quit, TerminalGame

from .conftest import interruptible
from .rig import act, game, rigged

pexpect = pytest.importorskip("pexpect")

PROMPTS = {
    "turn": r"your turn: discard a tile[^\n>]*> ",
    "claim": r"\? [^\n>]*p: pass > ",
    "pass": r"(?:pass \d tiles \w+, to \w+|set aside on rack \d) \([^\n>]*\) > ",
    "vote": r"\? y: yes  n: no > ",
    "count": r"(?:offer how many|unseen), 0-\d\? > ",
    "enter": r"press Enter for round \d+ > ",
}
ROUND_OVER = r"round 1 over"


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120", LINES="50", TERM="dumb")
    return pexpect.spawn(sys.executable, ["-m", "jongg", "play", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 120),
                         preexec_fn=interruptible)


def answer(child: pexpect.spawn, kind: str, tries: int, vote: str = "y") -> None:
    """A simple player: discards and passes from the left, lets discards go,
    votes `vote`, offers and passes blind none, goes on after a round's
    result; a refused tile (a joker in a pass) is followed by the next
    position."""
    if kind in ("turn", "pass"):
        child.sendline(str(1 + tries))
    elif kind == "claim":
        child.sendline("p")
    elif kind == "vote":
        child.sendline(vote)
    elif kind == "count":
        child.sendline("0")
    else:
        child.sendline("")


def says(child: pexpect.spawn, line: str, *replies: str, prompt: str = "turn") -> None:
    """Type a line; the program answers with each reply in turn, then the same prompt."""
    child.sendline(line)
    for reply in replies:
        child.expect(reply)
    child.expect(PROMPTS[prompt])


def play_until(child: pexpect.spawn, end: str, limit: int = 400, vote: str = "y") -> str:
    """Answer prompts until `end` shows; the screen text seen."""
    seen = ""
    tries = 0
    last = ""
    patterns = [end, *PROMPTS.values(), r"is not legal now|may not be passed"]
    kinds = ["end", *PROMPTS, "refused"]
    for _ in range(limit):
        index = child.expect(patterns)
        seen += child.before + child.after
        kind = kinds[index]
        if kind == "end":
            return seen
        if kind == "refused":
            tries += 1
            last = kind
            continue
        offset = tries
        if kind == "pass":  # positions hold still while a pass is chosen: the next one along
            chosen = re.search(r"\(((?:\S+ )*\S+) chosen, \d+ more\)", child.after)
            if not chosen and last != "refused":
                tries = offset = 0
            offset += len(chosen.group(1).split()) if chosen else 0
        answer(child, kind, offset if kind in ("turn", "pass") else 0, vote)
        if kind not in ("turn", "pass"):
            tries = 0
        last = kind
    raise AssertionError(f"{end!r} never came:\n{seen[-2000:]}")


def test_a_person_plays_a_round_of_nymj_recovers_from_mistakes_and_asks_a_hint(
        tmp_path: Path) -> None:
    child = spawn("nymj", "--fast", "--seed", "5", "--log", "game.jsonl", cwd=tmp_path)
    child.expect(PROMPTS["turn"])
    screen = child.before
    assert "you are Seat 1" in screen and "game.jsonl" in screen
    for words in ("tokens: Seat 1 10", "Seat 1 (you), Ma: 11 in hand", "your hand  "):
        assert words in screen
    says(child, "discard Q9", r"unknown tile 'Q9'")  # an unknown tile: one line, same prompt
    says(child, "claim mahjong",  # not legal on one's own turn
         r"'claim mahjong' is not legal now \(type help\)")
    says(child, "hint", r"three-sets-and-a-pair \(no card value, \w+\): \d+ away",
         r"suggested discard: ")
    says(child, "help", r"legal now: discard ")
    child.sendline("1")
    child.expect(r"You discard ")
    seen = play_until(child, ROUND_OVER)
    assert "Seat 2 discards" in seen
    child.expect(r"tokens: Seat 1 \d+")
    after = child.before + child.after
    assert re.search(r"wins? with three-sets-and-a-pair \(no card value\)", seen + after) or \
        "the wall is empty" in seen + after
    play_until(child, r"your turn: discard a tile[^\n>]*> |p: pass > ")
    child.sendline("quit")
    child.expect(r"stopped at state \w+; resume with: jongg play --resume (\S+)\r?\n")
    assert child.match.group(1) == str(tmp_path / "game.jsonl")  # works from any folder
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_person_plays_a_round_of_the_card_game_charleston_included(tmp_path: Path) -> None:
    child = spawn("mjcg", "--fast", "--seed", "6", "--log", "g.jsonl", cwd=tmp_path)
    child.expect(PROMPTS["pass"])
    assert "points: East 650" in child.before and "your hand  " in child.before
    child.sendline("J")  # a joker may never be passed (MJCG-08)
    child.expect(r"jokers may not be passed here")
    seen = play_until(child, ROUND_OVER, limit=600)
    assert "vote: dance again (a second Charleston)? y: yes  n: no" in seen
    assert "your turn: discard a tile" in seen
    child.expect(list(PROMPTS.values()))  # the next round asks something
    child.sendintr()  # Ctrl-C: a clean stop, the log kept
    child.expect(r"stopped at state \w+; resume with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "g.jsonl").exists()


def _hand(screen: str) -> str:
    """The tiles of the last hand shown (the row under the suits' names)."""
    found = re.findall(r"your hand +[^\n]*\n([^\n]*)\n", screen)
    assert found, screen[-1000:]
    return found[-1].strip()


def test_quit_and_resume_continue_exactly_where_the_game_stopped(tmp_path: Path) -> None:
    child = spawn("nymj", "--fast", "--seed", "8", "--log", "r.jsonl", cwd=tmp_path)
    for _ in range(3):
        play_until(child, PROMPTS["turn"])
        child.sendline("1")
    hand = _hand(play_until(child, PROMPTS["turn"]))
    child.sendeof()  # end of input: a clean stop
    child.expect(r"stopped at state (\w+); resume with: jongg play --resume \S+/r.jsonl")
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
    again.expect(r"You discard ")
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
    child.expect(r"Your hand is dead for this round")
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


def test_a_summary_of_bots_that_win_ends_by_saying_where_to_go_next(
        capsys: pytest.CaptureFixture[str]) -> None:
    from jongg.cli import main

    assert main(["simulate", "nymj", "--games", "1", "--agents", "greedy", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"rounds won: [1-9]", out)  # greedy bots win rounds worth watching
    assert out.rstrip().splitlines()[-3:] == [
        "next: play it yourself: jongg play nymj (jongg play --help lists every variant)",
        "      write a card: docs/notation.md, then jongg card check CARD.yaml",
        "      report on a card: jongg card report sample (how each line plays)"]


def test_play_help_lists_the_variants_the_commands_and_the_seeds_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    from jongg.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("one of classic, imperial-siamese, mjcg,", "default: a fresh random one",
                  "in-game commands:", "undo take back the last tile", "card [LINE]",
                  "--glyphs"):
        assert words in out


def test_resume_refuses_a_log_without_a_person(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from jongg.cli import main

    assert main(["simulate", "nymj", "--games", "1", "--quiet", "--log-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    log = next(tmp_path.glob("*.jsonl"))
    assert main(["play", "--resume", str(log)]) == 1
    assert "not a game played at the terminal" in capsys.readouterr().err


# -- several racks (Siamese): one pool of tiles, every rack shown apart -----------


PLEDGE = r"declare Atomic Cat \(the atomic line\) on rack 1\? y: yes  n: no > "


def first_turn(child: pexpect.spawn) -> str:
    """Say no to any pledge asked right after the deal; the screen of the
    first turn."""
    while child.expect([PROMPTS["turn"], PROMPTS["vote"]]) == 1:
        child.sendline("n")
    return str(child.before)


def test_siamese_shows_both_racks_of_both_players_and_the_pool(tmp_path: Path) -> None:
    child = spawn("siamese", "--fast", "--seed", "5", "--log", "s.jsonl", cwd=tmp_path)
    child.expect(PLEDGE)  # SMJ-27: right after the deal, before East's 28th tile
    assert "East (you), dealer: 27 in hand" in child.before
    child.sendline("n")
    child.expect(PROMPTS["turn"])
    screen = child.before
    assert re.search(r"wall \d+ \(die \d, drawn from \w+'s\)", screen)  # cut by a die
    for seat in ("East (you), dealer: 28 in hand", "West (right): 27 in hand"):
        assert seat in screen
    assert screen.count("rack 1: nothing exposed") == 2
    assert screen.count("rack 2: nothing exposed") == 2
    assert "rack 3" not in screen
    assert "your pool (28 tiles, for your 2 racks)" in screen
    assert "your hand" not in screen
    child.sendline("quit")
    child.expect(r"stopped at state \w+; resume with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_pledged_rack_shows_its_tiles_set_aside_and_off_ends_the_pledge(
        tmp_path: Path) -> None:
    child = spawn("siamese", "--fast", "--seed", "5", "--log", "p.jsonl", cwd=tmp_path)
    child.expect(PLEDGE)
    child.sendline("y")
    child.expect(r"You pledge rack 1 to the atomic line")
    child.expect(r"set aside on rack 1 \(choose 13: codes \((\w+ ){2}\w+\) or positions\) > ")
    child.sendline("1 2 3")  # the 13 tiles set aside: some at once, then one at a time
    for n in range(10, 0, -1):  # positions hold still until all 13 are chosen
        child.expect(rf"set aside on rack 1 \((\w+ )+chosen, {n} more\) > ")
        child.sendline(str(14 - n))
    child.expect(PROMPTS["turn"])
    screen = child.before
    assert re.search(r"rack 1: pledged to the atomic line, set aside:( \w+){13}(?:  |\r?\n)",
                     screen)
    assert "your pool (15 tiles, for your 2 racks)" in screen  # 28 less the 13 aside
    assert "(off: go off the pledge)" in child.after
    child.sendline("hint")
    child.expect(r"rack 1: pledged to atomic-cat \(value \d+\): ")
    child.expect(PROMPTS["turn"])
    child.sendline("off")
    child.expect(r"You go off the pledge on rack 1")
    child.expect(PROMPTS["turn"])
    assert "your pool (28 tiles, for your 2 racks)" in child.before
    assert "off: go off the pledge" not in child.after
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_m_with_nothing_to_declare_says_so_and_asks_again(tmp_path: Path) -> None:
    child = spawn("siamese", "--fast", "--seed", "5", "--log", "m.jsonl", cwd=tmp_path)
    first_turn(child)
    child.sendline("m")
    child.expect(r"no Mah Jongg to declare now[^\n]*\n")
    child.expect(PROMPTS["turn"])
    assert child.before.strip() == ""  # one line, then the same prompt
    says(child, "m 2", r"rack 2 has no Mah Jongg to declare now: its tiles complete no line")
    says(child, "m 3", r"there is no rack 3: racks are 1 to 2")
    says(child, "help", r"m RACK, m RACK LINE +declare that rack's Mah Jongg")
    says(child, "hint", r"rack 1: [\w-]+: \d+ away \(value \d+\)", r"rack 2: [\w-]+: \d+ away",
         r"the plan shares your one pool between your racks")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_a_person_discarding_plays_a_siamese_round_to_the_greedy_bots_win(
        tmp_path: Path) -> None:
    # seed 5: the greedy West makes its Mah Jonggs while East only discards
    child = spawn("siamese", "--fast", "--seed", "5", "--log", "w.jsonl", cwd=tmp_path)
    seen = play_until(child, ROUND_OVER, vote="n")  # no pledge
    child.expect(r"\npoints: East -?\d+  West -?\d+")
    report = child.before + child.after
    made = re.findall(r"West declares Mah Jongg on rack (\d): ([\w-]+) \(value (\d+)\) \[", seen)
    assert made, seen[-2000:]
    assert "Mah Jonggs declared:" in report
    for rack, line, value in made:  # each one as it was made, and again in the report
        assert f"  West, rack {rack}: {line} (value {value}): " in report
    assert "West wins the round with 2 Mah Jonggs, the last " in report or \
        "the wall is empty: nobody wins this round" in report
    assert re.search(r"\n  \+\d+ to West", report)  # awards nobody pays
    assert "the bank" not in report and "East wins" not in report
    play_until(child, PROMPTS["turn"], vote="n")  # round 2 asks East again
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("variant,players,racks,pool", [
    ("imperial-siamese", 2, 4, 56), ("royale-siamese", 3, 2, 28)])
def test_the_siamese_variants_start_with_every_rack_shown(tmp_path: Path, variant: str,
                                                          players: int, racks: int,
                                                          pool: int) -> None:
    child = spawn(variant, "--players", str(players), "--fast", "--log", "i.jsonl",
                  cwd=tmp_path)
    screen = first_turn(child)
    for rack in range(1, racks + 1):  # a bot may have pledged its rack 1; racks side by side
        assert len(re.findall(rf"(?:\n   |  )rack {rack}: ", screen)) == players
    assert f"rack {racks + 1}:" not in screen
    assert f"your pool ({pool} tiles, for your {racks} racks)" in screen
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# Rigged Siamese positions, played through the terminal's TerminalGame in-process: the
# person's commands come from a list, the screen goes to a string. Hands are
# lines of the sample card, as in tests/test_siamese_rules.py.
HONOR_1 = "N N N N E E E E W W S S S S"  # honor-1, value 25
EVEN_3 = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B 8B RD RD"  # even-3, value 30
EVEN_3_LESS_8B = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B RD RD"  # even-3 waiting on an 8B
JUNK_13 = "1D 2D 3D 5D 6D 7D 9D GD WD F 3B 5B 7B"  # completes and claims nothing
OTHER_14 = "1C 2C 3C 4C 5C 6C 7C 8C 9C RD 4D 8D 1B W"  # nor this


def dealt(hands: dict[int, str]) -> State:
    """A rigged Siamese deal played past the Atomic Cat question (nobody
    pledges), East then drawing the last of its 28 tiles (SMJ-08)."""
    east = hands[0].split()
    state = rigged(game("siamese", 2), hands | {0: " ".join(east[:-1])}, east[-1])
    for seat in range(state.spec.players):
        act(state, seat, "vote no")
    return state


def at_the_table(state: State, human: int, commands: list[str], tmp_path: Path,
                 variant: tuple[str, int] = ("siamese", 2),
                 width: int = 120) -> tuple[TerminalGame, io.StringIO]:
    """A TerminalGame on a rigged Siamese state: the person types `commands`, then
    the input ends (a clean stop); a greedy bot plays the other seat."""
    spec = state.spec
    screen = io.StringIO()
    typed = iter(commands)

    def read(prompt: str) -> str:
        screen.write(prompt + "\n")
        command = next(typed, None)
        if command is None:
            raise EOFError
        return command

    seats = tuple(HUMAN if s == human else "greedy" for s in range(spec.players))
    writer = LogWriter(tmp_path / "rigged.jsonl",
                       Header(spec.variant, spec.players, 0, state.mode, spec.digest, seats))
    console = Console(file=screen, width=width, no_color=True, highlight=False)
    bots: dict[int, Agent] = {s: GreedyAgent(0, s) for s in range(spec.players) if s != human}
    return TerminalGame(game(*variant), state, human, bots, writer, console, fast=True,
                 read=read), screen


def played(table: TerminalGame) -> None:
    """Play on until the scripted person's commands run out."""
    with pytest.raises(Quit):
        table.play()
    table.writer.close()


def test_help_fits_a_narrow_screen_and_its_examples_are_tiles_of_the_hand(
        tmp_path: Path) -> None:
    """Each command's description wraps under itself, not back to the
    margin, and the tiles it shows as examples are ones the person holds."""
    state = dealt({0: f"{HONOR_1} {EVEN_3}"})
    table, screen = at_the_table(state, 0, ["help"], tmp_path, width=60)
    played(table)
    shown = screen.getvalue()
    rows = shown[shown.index("in-game commands:"):shown.index("legal now:")].splitlines()
    assert rows and all(len(row) <= 60 for row in rows), rows
    wrapped = [row for row in rows if row.startswith(" " * 20)]
    assert wrapped, "some description is longer than a 60-column row"
    (tile_row,) = [row for row in rows if row.startswith("  TILE or N")]
    held = set(HONOR_1.split() + EVEN_3.split())
    example = tile_row.split("by its code (")[1].split(")")[0]
    assert example in held, (example, held)


def test_m_chooses_among_the_declarations_and_m_rack_takes_the_highest_line(
        tmp_path: Path) -> None:
    state = dealt({0: f"{HONOR_1} {EVEN_3}"})
    table, screen = at_the_table(state, 0, [
        "m",  # four declarations: listed, to choose from
        "",  # back to the turn
        "m 2 sp-3",  # a line the rack does not complete
        "m 2",  # rack 2's highest line: even-3 (30) before honor-1 (25)
        "m",  # one declaration left: made at once
    ], tmp_path)
    played(table)
    out = screen.getvalue()
    assert "your pool (28 tiles, for your 2 racks)" in out
    assert "(m RACK: Mah Jongg on racks 1, 2)" in out
    assert ("declare which? 1: rack 1 even-3 (value 30)  2: rack 1 honor-1 (value 25)  "
            "3: rack 2 even-3 (value 30)  4: rack 2 honor-1 (value 25)  (Enter: back) > ") in out
    assert "rack 2 does not complete sp-3; it completes: even-3, honor-1" in out
    assert "You declare Mah Jongg on rack 2: even-3 (value 30) [" in out
    assert "rack 2: Mah Jongg even-3: 2B 2B 2B 2B" in out  # shown on its rack
    assert "(m: Mah Jongg on rack 1)" in out
    assert "You declare Mah Jongg on rack 1: honor-1 (value 25) [" in out
    report = out[out.index("round 1 over"):]
    assert "You win the round with 2 Mah Jonggs, the last self-drawn" in report
    # the winning hands in their groups
    assert "  East, rack 2: even-3 (value 30): [2B 2B 2B 2B] [4B 4B] [6B 6B] " in report
    assert "  East, rack 1: honor-1 (value 25): " in report
    # SMJ-24: both doubled, jokerless (doubled again) and closed (+10); nobody pays
    assert "  +130 to East\n  +110 to East\n" in report
    assert "points: East 240  West 0" in report
    assert state.results[0].winner == 0


def test_a_claim_window_names_the_racks_and_a_double_mah_jongg_costs_the_discarder(
        tmp_path: Path) -> None:
    state = dealt({0: f"{JUNK_13} 8B {OTHER_14}", 1: f"{HONOR_1} {EVEN_3_LESS_8B}"})
    act(state, 0, "discard 8B")
    table, screen = at_the_table(state, 1, [
        "c",  # several claims: listed
        "1",  # the Double Mah Jongg
        "m 7",
        "m 1 honor-1",
        "m",  # the other rack, the only declaration left
    ], tmp_path)
    played(table)
    out = screen.getvalue()
    assert "claim 8B? 1-3 or p: pass" in out
    assert "\n  1: 2 Mah Jonggs at once\n" in out  # the first kind
    # each size once, the rack asked after
    assert "\n  2: set (pung) [8B 8B 8B] on rack 1 or 2\n" in out
    assert "\n  3: set (kong) [8B 8B 8B 8B] on rack 1 or 2\n" in out
    assert "several claims: type the number of one (1-3), or p to let it go" in out
    assert "You claim East's 8B for 2 Mah Jonggs at once" in out
    assert "your turn: declare the Mah Jongg you claimed (m RACK: Mah Jongg on racks 1, 2) > " \
        in out
    assert "there is no rack 7: racks are 1 to 2" in out
    assert "You declare Mah Jongg on rack 1: honor-1 (value 25)" in out
    assert "You declare Mah Jongg on rack 2: even-3 (value 30)" in out
    report = out[out.index("round 1 over"):]
    assert "You win the round with 2 Mah Jonggs, the last on East's discard of 8B" in report
    assert "  +110 to West\n  +130 to West\n  East loses 25\n" in report  # SMJ-25
    assert "points: East -25  West 240" in report


def test_a_discard_an_opponent_may_need_is_warned_about_before_it_goes(tmp_path: Path) -> None:
    state = rigged(game("mjcg-card"), {0: "1B 2B 3B 4C 8C 1D 8D 8D 9D WD WD S W J"},
                   exposures={1: ["N N N N", "E E E E"]}, skip_phases=True)
    table, screen = at_the_table(state, 0, [
        "S",  # South's winds point at honor-1, which wants S: a warning first
        "1B",  # anything else: chosen again, with no warning
    ], tmp_path, ("mjcg-card", 4))
    played(table)
    out = screen.getvalue()
    assert "careful: South's exposures fit honor-1, which wants S" in out
    assert "Enter, or the same discard again: discard it; anything else: choose again" in out
    assert "You discard 1B" in out and "You discard S" not in out
    state = rigged(game("mjcg-card"), {0: "1B 2B 3B 4C 8C 1D 8D 8D 9D WD WD S W J"},
                   exposures={1: ["N N N N", "E E E E"]}, skip_phases=True)
    (tmp_path / "again").mkdir()
    table, screen = at_the_table(state, 0, ["S", ""], tmp_path / "again", ("mjcg-card", 4))
    played(table)
    assert "You discard S" in screen.getvalue()  # Enter: discarded as asked


def test_words_that_mean_nothing_here_get_a_line_that_says_why(tmp_path: Path) -> None:
    state = game("mjcg").new_match(6, Mode.GUARDED)
    table, screen = at_the_table(state, 0, ["undo", "hint x", "card nosuch", "1 2 3 4",
                                            "1D 1D", "vote yes", "show three-kongs-and-a-pair"],
                                 tmp_path, ("mjcg", 4))
    played(table)
    out = screen.getvalue()
    assert "nothing to take back: no tile is chosen yet" in out
    assert "hint N: N a number of lines, 1 to 10" in out
    assert "card mjcg-beginner has no line 'nosuch'; type card for the ids" in out
    assert "that is 4 tiles; choose 3\n" in out  # none chosen yet: not "3 more"
    assert "you hold no more 1D to pass" in out
    assert "three-kongs-and-a-pair: 3 any kong any pair  (Beginner, value 50, exposed, " in out
    assert "  as written: 3[kong] [pair]\n" in out
