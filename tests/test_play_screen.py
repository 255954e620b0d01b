"""`jongg play` on an 80x24 terminal, as a person sees it: the program runs in
a pseudo-terminal, its output is fed to a terminal emulator (pyte), and the
tests read the screen at each step, not the byte stream. Live (colours on):
the table is redrawn in place; under NO_COLOR: plain text, no escape codes.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from .conftest import interruptible

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROWS, COLUMNS = 24, 80
PROMPT = r"> $"


class Terminal:
    """A game in a pseudo-terminal of 80x24, drawn on an emulated screen."""

    def __init__(self, *args: str, cwd: Path, colour: bool = True) -> None:
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update(COLUMNS=str(COLUMNS), LINES=str(ROWS), TERM="xterm-256color")
        if not colour:
            env["NO_COLOR"] = "1"
        self.child = pexpect.spawn(sys.executable, ["-m", "jongg", "play", *args],
                                   cwd=str(cwd), env=env, encoding="utf-8", timeout=60,
                                   dimensions=(ROWS, COLUMNS), preexec_fn=interruptible)
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""  # everything the program wrote

    def expect(self, pattern: str) -> str:
        """Read until `pattern` shows in the output (a prompt); the screen then."""
        self.child.expect(pattern)
        self.feed(self.child.before + self.child.after)
        return self.text

    def feed(self, data: str) -> None:
        self.raw += data
        self.stream.feed(data)

    def type(self, line: str, until: str) -> str:
        self.child.sendline(line)
        return self.expect(until)

    @property
    def text(self) -> str:
        return "\n".join(row.rstrip() for row in self.screen.display)

    @property
    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def quiet(self, seconds: float) -> str:
        """What the program writes in `seconds` of waiting ('' when it waits)."""
        try:
            data = self.child.read_nonblocking(100_000, timeout=seconds)
        except pexpect.TIMEOUT:
            return ""
        self.feed(data)
        return str(data)

    def quit(self) -> None:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0


def hand_row(text: str) -> list[str]:
    """The tiles of the hand on the screen (the row under the suits' names)."""
    found = re.search(r"your hand +[^\n]*\n([^\n]*)\n", text)
    assert found, text
    return found.group(1).split()


PASS = r"pass \d tiles \w+, to \w+ \([^\n]*\) > "
TURN = r"your turn: [^\n]*> "


def numbers_row(text: str) -> list[str]:
    """The positions under the hand's tiles (a mark under those chosen)."""
    found = re.search(r"your hand +[^\n]*\n[^\n]*\n([^\n]*)\n", text)
    assert found, text
    return found.group(1).split()


def flat(text: str) -> str:
    """The screen's words on one line (what wraps at 80 columns, joined)."""
    return " ".join(text.split())


def test_the_charleston_says_each_pass_its_direction_and_the_tiles_received(
        tmp_path: Path) -> None:
    term = Terminal("mjcg", "--fast", "--seed", "6", "--log", "c.jsonl", cwd=tmp_path)
    screen = term.expect(PASS)
    rows = term.rows
    assert rows[0] == "Mah Jongg Card Game (beginner)"  # the title on a row of its own
    assert rows[1].startswith("round 1 · dealer: East")
    assert "Charleston: pass 3 tiles right, to South" in screen
    assert "jokers may not be passed" in screen  # MJCG-08, said before it is tried
    held = hand_row(screen)
    assert "J" in held
    screen = term.type("J", PASS)
    assert "jokers may not be passed here" in screen
    first, second, third = held[0], held[1], held[2]
    screen = term.type("1 2", PASS)  # two at once
    assert f"passing: {first} {second}" in screen
    assert f"({first} {second} chosen, 1 more) >" in screen
    assert "undo: take back the last" in screen
    screen = term.type("undo", PASS)
    assert f"({first} chosen, 2 more) >" in screen
    screen = term.type(f"{second} {third}", PASS)  # by code
    assert f"You pass {first} {second} {third} to South (right)" in screen
    received = re.search(r"You receive ((?:\w+ ){2}\w+) from North \(left\)", screen)
    assert received, screen
    assert "Charleston: pass 3 tiles across, to West" in screen
    rest = hand_row(screen)
    for code in received.group(1).split():  # the tiles received are in the hand
        assert code in rest
        rest.remove(code)
    screen = term.type("1 2 3", r"unseen, 0-3\? > ")
    assert "You pass" in screen and "to West (across)" in screen
    assert "Charleston: pass 3 tiles left, to North; up to 3 of the tiles coming in may go" \
        in screen  # the blind pass, said in words
    assert "a blind tile goes on without your seeing it" in screen
    screen = term.type("0", PASS)  # a count is typed as itself: 0 means none
    assert "You pass all 3 from your hand (none blind)" in screen
    screen = term.type("1 2 3", r"y: yes  n: no > ")
    assert "vote: dance again (a second Charleston)? y: yes  n: no >" in screen
    # what the vote is, and the rule that decides it, from the variant's data (MJCG-05)
    assert "if it carries: pass 3 tiles left, then 3 across, then 3 right" in flat(screen)
    assert "the vote is secret; one yes is enough: a single yes carries it, whatever the " \
        "others say (MJCG-05)" in flat(screen)
    screen = term.type("n", r"offer how many, 0-3\? > ")
    assert re.search(r"Vote: dance again \(a second Charleston\)\? \d yes, \d no: not carried",
                     screen)
    assert "Courtesy pass with West (across): each offers 0 to 3 tiles; the smaller offer" \
        in screen
    screen = term.type("0", TURN)
    assert re.search(r"Courtesy pass: you offer 0, West offers \d: no tiles change hands",
                     screen)
    assert "Play begins: you open" in screen
    assert all(len(row) <= COLUMNS for row in term.rows)
    term.quit()


def test_a_pass_shows_example_codes_from_the_hand_and_positions_that_hold_still(
        tmp_path: Path) -> None:
    """The prompt's example codes are tiles of the hand; choosing a tile
    marks it, every other tile keeping its number, so '1' then '1' is the
    same tile (said to be chosen already), not the next one along."""
    term = Terminal("mjcg", "--fast", "--seed", "6", "--log", "c.jsonl", cwd=tmp_path)
    screen = term.expect(PASS)
    held = hand_row(screen)
    examples = re.search(r"\(choose 3: codes \((\w+) (\w+) (\w+)\) or positions\) >", screen)
    assert examples, screen
    assert all(code in held for code in examples.groups()), (examples.groups(), held)
    numbers = numbers_row(screen)
    assert numbers == [str(n) for n in range(1, len(held) + 1)]
    screen = term.type("1", PASS)
    assert hand_row(screen) == held  # the hand as it was, the tile chosen marked
    assert numbers_row(screen) == ["*", *numbers[1:]]
    assert f"passing: {held[0]} (* in your hand)" in screen
    screen = term.type("1", PASS)
    assert f"1 ({held[0]}) is chosen already (undo takes back the last)" in screen
    assert f"({held[0]} chosen, 2 more) >" in screen
    screen = term.type("3", PASS)  # the tile numbered 3 when the hand was first shown
    assert f"({held[0]} {held[2]} chosen, 1 more) >" in screen
    assert numbers_row(screen) == ["*", "2", "*", *numbers[3:]]
    screen = term.type("2", PASS)
    assert f"You pass {held[0]} {held[2]} {held[1]} to South (right)" in screen
    term.quit()


def test_a_pass_refuses_too_many_tiles_commands_and_unknown_tiles_saying_why(
        tmp_path: Path) -> None:
    term = Terminal("mjcg", "--fast", "--seed", "6", "--log", "c.jsonl", cwd=tmp_path)
    term.expect(PASS)
    screen = term.type("1 2 3 4", PASS)
    assert re.search(r"^that is 4 tiles; choose 3$", screen, re.M), screen
    term.type("1", PASS)
    screen = term.type("2 3 4", PASS)
    assert re.search(r"^that is 3 tiles; choose 2 more$", screen, re.M), screen
    screen = term.type("m", PASS)  # known commands, only not now
    assert "m (declare Mah Jongg) is not legal now: choose 2 tiles to pass first" in screen
    screen = term.type("x", PASS)
    assert "x (exchange a joker) is not legal now: choose 2 tiles to pass first" in screen
    screen = term.type("9Z", PASS)  # as the CLI says it
    assert "unknown tile '9Z'; american-152 tiles are 1B 2B 3B" in flat(screen)
    assert "cannot read" not in screen
    term.quit()


def test_a_hint_suggests_a_discard_the_card_is_at_hand_and_the_table_holds_still(
        tmp_path: Path) -> None:
    term = Terminal("nymj", "--fast", "--seed", "5", "--log", "h.jsonl", cwd=tmp_path)
    screen = term.expect(TURN)
    assert term.rows[0] == "Not Your Ma's Jong"
    assert term.rows[1].startswith("round 1 · Ma: Seat 1")
    screen = term.type("hint", TURN)
    assert re.search(r"three-sets-and-a-pair \(no card value, \w+\): \d+ away; missing ",
                     screen)
    found = re.search(r"suggested discard: (\w+): keeps three-sets-and-a-pair \d+ away", screen)
    assert found, screen
    suggested = found.group(1)
    screen = term.type("hint 10", TURN)  # one line on this card: shown, not three
    assert "suggested discard" in screen
    screen = term.type("card", r"Enter: back to the table > ")
    assert "card nymj" in screen and "three-sets-and-a-pair" in screen
    screen = term.type("", TURN)
    screen = term.type("card three-sets-and-a-pair", r"Enter: back to the table > ")
    assert re.search(r"you, \d+ away: \[", screen)  # the hand in the line's groups
    term.type("", TURN)
    screen = term.type(suggested, TURN)
    assert f"You discard {suggested}" in screen
    # the table holds still: the header on the first rows, the hand near the foot
    assert term.rows[0] == "Not Your Ma's Jong"
    assert term.rows[1].startswith("round 1 · Ma: Seat 1 · wall ")
    assert re.search(r"your turn: discard a tile[^\n]*>$", screen.rstrip())
    term.quit()


def test_a_rounds_result_stays_on_the_screen_until_a_key_is_pressed(tmp_path: Path) -> None:
    term = Terminal("nymj", "--fast", "--seed", "5", "--log", "r.jsonl", cwd=tmp_path)
    patterns = [r"press Enter for round 2 > ", TURN, r"\? [^\n>]*p: pass > "]
    for _ in range(200):
        index = term.child.expect(patterns)
        term.feed(term.child.before + term.child.after)
        if index == 0:
            break
        term.child.sendline("1" if index == 1 else "p")
    else:
        raise AssertionError("round 1 never ended")
    screen = term.text
    assert "round 1 over" in screen
    assert re.search(r"wins? with three-sets-and-a-pair \(no card value\)|the wall is empty",
                     screen)
    if "wins" in screen or "win with" in screen:  # the hand in its groups, jokers resolved
        assert re.search(r"hand: \[[^\]]+\] \[", screen)
    assert re.search(r"tokens: Seat 1 \d+  Seat 2 \d+", screen)
    assert term.quiet(1.5) == ""  # nothing more: the bots wait for the person
    assert term.text == screen
    term.child.sendline("")
    screen = term.expect(TURN + "|" + r"\? [^\n>]*p: pass > ")
    assert term.rows[1].startswith("round 2")
    term.quit()


def test_no_color_sends_no_escape_codes_and_fits_80_columns(tmp_path: Path) -> None:
    term = Terminal("siamese", "--fast", "--seed", "5", "--log", "n.jsonl", cwd=tmp_path,
                    colour=False)
    screen = term.expect(r"y: yes  n: no > ")
    assert "declare Atomic Cat (the atomic line) on rack 1? y: yes  n: no >" in screen
    screen = term.type("n", TURN)
    # the header whole: a title too long to share the line goes above it
    assert re.search(r"^Siamese Mah Jongg\nround 1 · dealer: East · wall 97 \(die \d, drawn from "
                     r"East's\) · to play: East$", screen, re.M), screen
    assert re.search(r"^your pool \(28 tiles, for your 2 racks\)\n  Bams ", screen, re.M)
    term.type("hint", TURN)
    term.quit()
    assert "\x1b" not in term.raw
    lines = term.raw.replace("\r", "").split("\n")
    assert [line for line in lines if len(line) > COLUMNS] == []


def test_glyphs_draw_the_unicode_tiles(tmp_path: Path) -> None:
    term = Terminal("mjcg", "--fast", "--seed", "6", "--glyphs", "--log", "g.jsonl",
                    cwd=tmp_path)
    term.expect(PASS)
    assert "\U0001F02A" in term.raw  # the joker's tile
    assert re.search("[\U0001F007-\U0001F021]", term.raw)  # suit tiles
    term.quit()


def test_the_transcript_kept_in_docs_is_what_the_game_shows_now() -> None:
    from .transcript import DOCS, record

    text, events = record()
    kept = (DOCS / "play-transcript.md").read_text(encoding="utf-8")
    assert text == kept, "the game's screens changed: python -m tests.transcript rewrites " \
        "docs/play-transcript.md and .cast"
    assert "## 1. pass" in text and "suggested pass: " in text and "round 1 over" in text
    assert events and (DOCS / "play-transcript.cast").exists()


def test_four_racks_and_a_pool_of_56_fit_the_screen_with_the_header_on_top(
        tmp_path: Path) -> None:
    term = Terminal("imperial-siamese", "--players", "2", "--fast", "--seed", "3", "--log",
                    "i.jsonl", cwd=tmp_path)
    term.expect(r"y: yes  n: no > ")
    screen = term.type("n", TURN)
    rows = term.rows
    assert rows[0] == "Imperial Siamese Mah Jongg"  # nothing scrolled away
    assert rows[1].startswith("round 1 · dealer: East · wall ")
    assert re.search(r"^   rack 1: nothing exposed  rack 2: nothing exposed  rack 3: ", screen,
                     re.M)  # racks side by side
    assert "your pool (56 tiles, for your 4 racks)" in screen
    assert all(f" {n} " in screen or f" {n}\n" in screen for n in (1, 28, 56))
    assert re.search(r"your turn: discard a tile[^\n]*>$", screen)
    term.quit()


CARD_GAME = "Mah Jongg Card Game (card play, the sample card)"


def test_the_header_keeps_its_two_rows_and_a_long_hint_gets_a_page_of_its_own(
        tmp_path: Path) -> None:
    """The title whole on the first row and the round on the second, at a
    pass (no one to play) as at a turn; a hint too long for the screen is
    paged under the same header, then the table comes back."""
    term = Terminal("mjcg-card", "--fast", "--seed", "4", "--log", "h.jsonl", cwd=tmp_path)
    term.expect(PASS)
    assert term.rows[0] == CARD_GAME and term.rows[1] == "round 1 · dealer: East · wall 99"
    for typed, until in [("1 2 3", PASS), ("1 2 3", r"unseen, 0-3\? > "), ("0", PASS),
                         ("1 2 3", r"y: yes  n: no > "), ("n", r"offer how many, 0-3\? > "),
                         ("0", TURN)]:
        term.type(typed, until)
        assert term.rows[0] == CARD_GAME, term.text
        assert term.rows[1].startswith("round 1 · dealer: East · wall "), term.text
    assert term.rows[1].endswith(" · to play: East")
    paged = r"Enter: (more, b: )?back to the table > "
    screen = term.type("hint 10", paged)
    pages = [screen]
    while "Enter: more" in screen.rstrip().splitlines()[-1]:
        screen = term.type("", paged)
        pages.append(screen)
    for page in pages:  # each page under the header
        rows = page.splitlines()
        assert rows[0] == CARD_GAME and rows[1].startswith("round 1 · dealer: East · wall ")
    assert re.search(r"^[\w-]+ \(value \d+, \w+\): \d+ away; missing ", pages[0], re.M)
    assert "suggested discard: " in pages[-1]
    screen = term.type("", TURN)
    assert term.rows[0] == CARD_GAME and "your hand" in screen
    term.quit()


def test_the_card_at_the_table_is_printed_in_its_suits_colours_the_notation_on_request(
        tmp_path: Path) -> None:
    term = Terminal("mjcg-card", "--fast", "--seed", "4", "--log", "v.jsonl", cwd=tmp_path)
    term.expect(PASS)
    screen = term.type("card", r"Enter: more, b: back to the table > ")
    assert "C: concealed, X: exposed; colours are suits" in flat(screen)
    (row,) = [n for n, text in enumerate(term.rows) if text.startswith("  year-2 ")]
    assert term.rows[row].startswith("  year-2     30  X  2026 DDDD 2222 66  (2 suits; ")
    assert "{year}" not in screen and "DDDDa" not in screen  # no notation: the card's year

    def colour(word: str, text: str) -> str:
        column = text.index(word)
        return str(term.screen.buffer[row][column].fg)

    line = term.rows[row]
    assert colour("2026", line) == colour("DDDD", line) == "green"  # suit a
    assert colour("2222", line) == "red"  # suit b
    (row,) = [n for n, text in enumerate(term.rows) if text.startswith("  year-1 ")]
    assert "blue" in colour("6666", term.rows[row])  # suit c
    term.type("b", PASS)
    screen = term.type("card notation", r"Enter: more, b: back to the table > ")
    assert "  year-2     30  X  {year}a DDDDa 2222b 66b ; a not in dots" in screen
    term.type("b", PASS)
    screen = term.type("card year-2", r"Enter: back to the table > ")
    assert "year-2: 2026 DDDD 2222 66  (2026, value 30, exposed, 4 variations)" in screen
    assert "as written: {year}a DDDDa 2222b 66b ; a not in dots" in screen
    term.type("", PASS)
    term.quit()


def test_what_is_typed_while_the_bots_play_is_not_read_at_the_next_question(
        tmp_path: Path) -> None:
    """A discard typed during the bots' turns (no --fast: they take their
    time) is not taken for the answer to the claim window that follows."""
    term = Terminal("nymj", "--seed", "5", "--log", "t.jsonl", cwd=tmp_path)
    screen = term.expect(TURN)
    held = hand_row(screen)
    term.child.sendline("1")  # a discard, then at once another one
    term.child.sendline(held[-1])
    screen = term.expect(r"\? [^\n>]*p: pass > |" + TURN)
    assert f"not read: '{held[-1]}', typed before this question was asked; type it again " \
        "if you still mean it" in flat(screen), screen
    assert "is not legal now" not in screen
    term.quit()
