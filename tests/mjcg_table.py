"""The Mah Jongg Card Game's rigged rounds, for the tests of its clauses
(tests/test_mjcg_rules.py, tests/test_mjcg_rules_win.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.runtime.game.invariants import violations
from jongg.runtime.game.state import Mode, State, Step

from .rig import act, game, rigged

clause = pytest.mark.clause

DECK = 152
START = 650  # MJCG-03

# Hands that can neither call nor win: no jokers, never two of a kind.
JUNK_C = "1C 2C 3C 4C 5C 6C 7C 8C 9C N E S W"
JUNK_D = "1D 2D 3D 4D 5D 6D 7D 8D 9D RD GD WD F"
# Three kongs waiting on a pair of 5B (one with a joker in a kong).
WAIT_5B = "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 5B"
WAIT_5B_JOKER = "1B 1B 1B J 2B 2B 2B 2B 3B 3B 3B 3B 5B"


# -- helpers -------------------------------------------------------------------


def padded(special: str, size: int = 13) -> str:
    """`special` filled up to `size` cards with single craks and winds."""
    pad = JUNK_C.split()[:size - len(special.split())]
    return " ".join([*special.split(), *pad])


def table(special: dict[int, str] | None = None, *, dealer: int = 0,
          opens: str = "9B") -> dict[int, str]:
    """Four hands: the dealer holds JUNK_D and `opens` (14 cards), every other
    seat JUNK_C, except the seats in `special`."""
    hands = {s: JUNK_C for s in range(4)}
    hands[dealer] = f"{JUNK_D} {opens}"
    return {**hands, **(special or {})}


def start(hands: dict[int, str], draws: str = "", *, variant: str = "mjcg", players: int = 4,
          mode: Mode = Mode.GUARDED, exposures: dict[int, list[str]] | None = None,
          dealer: int = 0) -> State:
    """A rigged first round with the Charleston skipped: the dealer is to open."""
    state = rigged(game(variant, players), hands, draws, mode=mode, exposures=exposures,
                   dealer=dealer, skip_phases=True)
    assert violations(state) == [], "the rig itself is wrong"
    return state


def let_go(state: State, calls: dict[int, str] | None = None) -> None:
    """Close the claim window (if any): the seats in `calls` say their line,
    every other seat asked passes."""
    calls = dict(calls or {})
    if calls:
        assert state.step is Step.CLAIMS
        assert set(calls) <= set(state.current_players())
    while state.step is Step.CLAIMS:
        for seat in list(state.current_players()):
            act(state, seat, calls.pop(seat, "pass"))


def discard_drawn(state: State) -> str:
    """The seat to play discards the card it drew (the opener, which drew
    nothing: the last card of its sorted hand) and the discard is let go;
    returns the card."""
    seat = state.turn
    view = state.observation(seat)
    tile = view.get("drawn") or view["hand"][-1]
    act(state, seat, f"discard {tile}")
    let_go(state)
    return tile


def held(state: State, seat: int) -> int:
    return state._seats[seat].held


def hand_of(state: State, seat: int) -> Counter[str]:
    return Counter(state.spec.deck.codes(state._seats[seat].concealed()))


def exposed(state: State, seat: int, viewer: int | None = None) -> list[list[str]]:
    """The exposures of `seat`, as `viewer` (another seat) sees them."""
    viewer = (seat + 1) % state.spec.players if viewer is None else viewer
    return [sorted(e) for e in state.observation(viewer)["seats"][seat]["exposures"]]


def gains(state: State) -> list[int]:
    return [score - START for score in state.scores]


def paid(amount: int, winner: int, players: int = 4) -> list[int]:
    """Each opponent pays `amount` to the winner."""
    return [amount * (players - 1) if s == winner else -amount for s in range(players)]


def wins_by(state: State, seat: int, how: str, opens: str) -> None:
    """The dealer opens with `opens` and `seat` goes Mah Jongg: by calling
    that discard ("called") or on the next card it draws ("drawn"); every
    other seat lets the discards go and discards what it draws."""
    act(state, state.turn, f"discard {opens}")
    if how == "called":
        let_go(state, {seat: "claim mahjong"})
    else:
        let_go(state)
        while state.turn != seat:
            discard_drawn(state)
        act(state, seat, "declare")
    assert state.results and state.results[0].winner == seat
