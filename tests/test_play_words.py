"""What the table says at `jongg play`, played in-process on the terminal's
Table (the person's commands from a list, the screen to a string): hints
that ask the deck, refusals that say what is wrong, Siamese advice at the
two-rack moment and at the pledge, a round's end that names the tile."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.game import load_game
from jongg.present.hints import hints
from jongg.present.prompts import prompt
from jongg.present.seen import Seen
from jongg.present.text import plain
from jongg.runtime.agents.bots import GreedyAgent
from jongg.runtime.game.state import Mode

from .rig import act, game, rigged
from .test_play import at_the_table, played

# atomic-cat (1a 2a 3a 4b 5b 6b 7c 8c 9c NEWS Da, SMJ-27) but its dragon, and other tiles
ATOMIC_LESS_GD = "1B 2B 3B 4C 5C 6C 7D 8D 9D N E W S"
FILLER_14 = "2D 3D 5D 6D 9B 9B 8B 8B 7B 7B F F RD RD"


def said(seen: Seen) -> str:
    return "\n".join(plain(t) for t in hints(seen))


def test_hints_mark_no_joker_slot_when_the_deck_has_no_jokers() -> None:
    """NYMJ's deck (nymj-75) has no jokers: no slot is offered to one."""
    nymj = game("nymj").new_match(5, Mode.GUARDED)
    assert nymj.spec.deck.joker_index is None
    text = said(Seen.of(nymj, 0))
    assert "three-sets-and-a-pair (no card value, exposed): " in text
    assert "jokers may fill" not in text and "?)" not in text, text
    assert "missing R3 B2 G2 (7 live)" in text
    # a deck with jokers still says where they may stand
    card = rigged(game("mjcg-card"), {0: "1B 2B 3B 4C 8C 1D 8D 8D 9D WD WD S W J"},
                  skip_phases=True)
    text = said(Seen.of(card, 0))
    assert "jokers may fill" in text and "?)" in text, text


def test_a_turn_refuses_an_unknown_tile_as_the_cli_does_and_a_tile_not_held_by_name(
        tmp_path: Path) -> None:
    state = game("nymj").new_match(5, Mode.GUARDED)
    held = Seen.of(state, 0).deck.codes(state.observe(0).me.concealed())
    assert "R5" not in held
    table, screen = at_the_table(state, 0, ["9Z", "R9", "discard R9", "R5", "discard R5",
                                                    "hnit"],
                                 tmp_path, ("nymj", 4))
    played(table)
    out = screen.getvalue()
    tiles = "nymj-75 tiles are R1 R2 R3 R4 R5 B1 B2 B3 B4 B5 G1 G2 G3 G4 G5 S1 S2 S3 S4 S5 " \
        "E1 E2 E3 E4 E5"
    assert f"unknown tile '9Z'; {tiles}\n" in out
    assert out.count(f"unknown tile 'R9'; {tiles}\n") == 2  # alone, or as 'discard R9'
    assert out.count("you hold no R5\n") == 2
    assert "is not legal now" not in out
    # a word longer than any code is no tile: a command mistyped
    assert "cannot read 'hnit' (type help for the commands)\n" in out
    assert out.count("cannot read") == 1


def test_siamese_hint_suggests_the_discard_the_bots_would_make_at_the_28th_tile(
        tmp_path: Path) -> None:
    state = game("siamese", 2).new_match(5, Mode.GUARDED)
    for seat in (0, 1):  # nobody pledges
        act(state, seat, "vote no")
    seen = Seen.of(state, 0)
    assert len(seen.obs.me.concealed()) == 28 and seen.step == "turn"
    text = said(seen)
    discards = [a for a in seen.legal if a.verb == "discard"]
    bot = GreedyAgent(0, 0).act(seen.obs, discards)
    assert f"suggested discard: {seen.deck.code(bot.tile)}: " in text, text
    assert "rack 1: " in text and "rack 2: " in text  # each rack's plan as before
    table, screen = at_the_table(state, 0, ["hint", seen.deck.code(bot.tile)], tmp_path)
    played(table)
    out = screen.getvalue()
    assert f"suggested discard: {seen.deck.code(bot.tile)}: " in out
    assert f"You discard {seen.deck.code(bot.tile)}" in out


def test_the_atomic_cat_question_says_what_a_pledge_costs_and_hint_says_yes_or_no(
        tmp_path: Path) -> None:
    """SMJ-27: the cost read from the variant's pledge (13 tiles on rack 1,
    the atomic line's value, what puts a player off it); the advice is the
    bots' own: yes when the dealt tiles hold all of the line but one."""
    far = game("siamese", 2).new_match(5, Mode.GUARDED)
    seen = Seen.of(far, 0)
    asked = prompt(seen)
    about = " ".join(plain(a) for a in asked.about)
    assert "a pledge sets 13 of your tiles aside on rack 1 for the atomic line (atomic-cat, " \
        "value 75): they stay there, and rack 1 plays nothing else, until the one tile " \
        "that completes it is drawn or claimed" in about
    assert "drawing a flower or a joker puts you off it" in about
    text = said(seen)
    assert "atomic-cat (value 75) is 5 away in your tiles" in text
    assert "suggested: n: a pledged rack takes only one more tile" in text
    assert GreedyAgent(0, 0).act(seen.obs, list(seen.legal)).number == 0
    near = rigged(game("siamese", 2), {0: f"{ATOMIC_LESS_GD} {FILLER_14}"})
    seen = Seen.of(near, 0)
    assert seen.step == "voting"
    text = said(seen)
    assert "atomic-cat (value 75) is 1 away in your tiles" in text
    assert "suggested: y: all but its last tile are dealt" in text
    assert GreedyAgent(0, 0).act(seen.obs, list(seen.legal)).number == 1
    act(near, 1, "vote no")  # West does not pledge
    table, screen = at_the_table(near, 0, ["hint", "y", "hint"], tmp_path)
    played(table)
    out = screen.getvalue()
    assert "suggested: y: all but its last tile are dealt" in out
    assert "You pledge rack 1 to the atomic line" in out
    # setting aside: the line's tiles, as the bots set them aside
    assert "suggested to set aside: 1B 2B 3B 4C 5C 6C 7D 8D 9D N E S W" in out


def test_a_round_won_on_a_discard_names_the_tile(tmp_path: Path) -> None:
    state = rigged(game("nymj"), {0: "S4 R2 R3 B1 B4 G1 G5 S1 S5 E1 E2",
                                  1: "R1 R1 R1 B2 B2 B2 G3 G3 G3 S4"}, skip_phases=True)
    table, screen = at_the_table(state, 0, ["S4"], tmp_path, ("nymj", 4))
    played(table)
    out = screen.getvalue()
    assert "Seat 2 wins with three-sets-and-a-pair (no card value), on your discard of S4" \
        in out, out[-1500:]


@pytest.mark.clause("MJCG-05")
def test_the_second_charleston_vote_says_what_it_plays_and_the_rule_from_the_data(
        tmp_path: Path) -> None:
    """The rule that decides the vote is the variant's (mjcg's any-yes is
    said at the table, tests/test_play_screen.py), so a house that stops it
    on one no is told so, and the passes it plays are its own."""
    house = tmp_path / "one-no.yaml"
    house.write_text("variant: one-no\nextends: mjcg\nbefore_play:\n"
                     "  - phase: vote\n    question: dance again (a second Charleston)\n"
                     "    rule: all-yes\n    clause: MJCG-05\n    then:\n"
                     "      - {phase: pass, to: left, count: 3}\n"
                     "      - {phase: pass, to: right, count: 3}\n")
    state = load_game(str(house)).new_match(6, Mode.GUARDED)
    about = " ".join(plain(a) for a in prompt(Seen.of(state, 0)).about)
    assert "if it carries: pass 3 tiles left, then 3 right" in about
    assert "the vote is secret; every seat must say yes: a single no stops it (MJCG-05)" \
        in about
    assert "one yes is enough" not in about
