"""The State's Python API as a python-chess user expects it (runtime/game/moves.py):
repr, push/pop, legal_moves, winners() and the short position."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from jongg.compiler.yaku import shipped_played
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.position import PositionError
from jongg.runtime.game.state import SeatNeeded, State

from .rig import game

ROOT = Path(__file__).resolve().parents[1]
# the variants the engine plays (a scoring-only one, riichi, is scored: tests/test_score.py)
VARIANTS = shipped_played()


def _random_step(state: State, rng: random.Random) -> None:
    seat = rng.choice(state.current_players())
    state.push(rng.choice(state.legal_actions(seat)), seat)


def test_repr_is_short_and_says_what_the_state_is() -> None:
    state = game("nymj", 4).new_match(7)
    text = repr(state)
    assert text == "<State nymj 4p seed=7 round=1 turn (0 to act), decision 0>"
    _, final = play_match(game("nymj", 4), 7, ("greedy",))
    assert repr(final).startswith("<State nymj 4p seed=7 round=") and " over, won by " in \
        repr(final) and len(repr(final)) < 80


@pytest.mark.parametrize("variant", ["nymj", "mjcg-card", "siamese"])
def test_pop_takes_back_each_push(variant: str) -> None:
    """Every push popped, in reverse, gives back each position exactly; a
    pop with nothing pushed is an IndexError."""
    state = game(variant).new_match(3)
    rng = random.Random(3)
    seen = [state.position()]
    for _ in range(60):
        if state.is_terminal():
            break
        _random_step(state, rng)
        seen.append(state.position())
    assert len(state.move_stack) == len(seen) - 1
    while state.move_stack:
        seat, action = state.move_stack[-1]
        assert state.pop() == (seat, action)
        seen.pop()
        assert state.position() == seen[-1]
    with pytest.raises(IndexError, match="no pushed action"):
        state.pop()
    again = game(variant).new_match(3)
    assert state.digest() == again.digest() and state.events == again.events


def test_a_clone_of_a_pushed_state_pops_on_its_own() -> None:
    state = game("nymj", 4).new_match(5)
    state.push(state.legal_moves[0])
    twin = state.clone()
    twin.push(twin.legal_moves[0])
    twin.pop()
    twin.pop()
    assert state.decisions == 1 and twin.decisions == 0 and state.move_stack


def test_legal_moves_and_push_need_no_seat_when_one_is_to_act() -> None:
    """One seat to act: legal_moves and push(action) find it. Several (a
    Charleston pass here): a clear error that names them and what to call."""
    state = game("mjcg-card", 4).new_match(2)
    while len(state.current_players()) == 1:
        state.push(state.legal_moves[0])
    seats = state.current_players()
    assert len(seats) > 1
    with pytest.raises(SeatNeeded, match=rf"{len(seats)} seats are to act now: 0 \(.*"
                       r"name one: state\.legal_actions\(seat\)"):
        state.legal_moves  # noqa: B018
    with pytest.raises(SeatNeeded):
        state.push("pass")
    state.push(state.legal_actions(seats[0])[0], seats[0])
    assert state.history[-1][0] == seats[0]


def test_winners_is_none_until_the_match_is_over() -> None:
    state = game("nymj", 4).new_match(11)
    assert state.winners() is None and state.leaders() == [0, 1, 2, 3]
    record, final = play_match(game("nymj", 4), 11, ("greedy",))
    assert final.is_terminal() and final.winners() == record.winners == final.leaders()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_short_position_loads_back_at_many_positions(variant: str) -> None:
    """Every few decisions of a match of each shipped variant (every player
    count's default), the short line loads back to the very position."""
    g = game(variant)
    state = g.new_match(9)
    rng = random.Random(9)
    checked = 0
    for step in range(400):
        if state.is_terminal():
            break
        if step % 7 == 0:
            text = state.short_position()
            assert "\n" not in text and len(text) < len(state.position())
            loaded = g.load_position(text)
            assert loaded.position() == state.position() and loaded.digest() == state.digest()
            assert loaded.short_position() == text
            checked += 1
        seat = rng.choice(state.current_players())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 20


def test_a_damaged_short_position_is_refused_with_a_reason() -> None:
    g = game("nymj", 4)
    text = g.new_match(1).short_position()
    with pytest.raises(PositionError, match="fields parted by spaces"):
        g.load_position(text + " 1")
    words = text.split()
    words[7] = "[10,10"
    with pytest.raises(PositionError, match="field 'scores'"):
        g.load_position(" ".join(words))
    with pytest.raises(PositionError, match="nymj for 4 players, not nymj for 3"):
        game("nymj", 3).load_position(text)


def test_an_action_prints_itself_in_its_game() -> None:
    state = game("nymj", 4).new_match(3)
    action = state.legal_moves[0]
    assert str(action) == action.text() == action.text(state.spec.deck)
    assert str(action).startswith("discard ")


# What a program may read and call on a State: docs/api.md names each. A field the
# State adds for its own work is private (`_`), so it cannot become API by accident.
PUBLIC = {"apply", "clone", "current_players", "dealer", "decisions", "digest", "events",
          "events_for", "history", "is_terminal", "leaders", "legal_actions", "legal_moves",
          "mode", "move_stack", "observation", "observe", "payments", "payouts", "phase",
          "pop", "position", "push", "results", "round", "rules", "scores", "seed",
          "short_position", "spec", "step", "to_act", "turn", "winners"}


@pytest.mark.parametrize("variant", ["nymj", "imperial-siamese"])
def test_a_state_shows_its_api_and_keeps_its_internals_private(variant: str) -> None:
    state = game(variant, 4).new_match(3)
    rng = random.Random(3)
    for _ in range(40):  # past the deal and the passes: fields set during play show too
        if state.is_terminal():
            break
        _random_step(state, rng)
    assert {name for name in dir(state) if not name.startswith("_")} == PUBLIC
    api = (ROOT / "docs" / "api.md").read_text()
    assert not [name for name in PUBLIC if not re.search(rf"[`.]{name}\b", api)]
