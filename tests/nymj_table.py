"""Not Your Ma's Jong's rigged rounds, for the tests of its clauses
(tests/test_nymj_rules.py, tests/test_nymj_rules_play.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from jongg.runtime.game.state import Mode, State, Step
from tests.rig import act, game, rigged

clause = pytest.mark.clause

START = 10  # NYMJ-02: tokens each player starts with
ROUNDS = {4: 8, 3: 9}  # NYMJ-23: the most rounds a match lasts, by player count
DECK = 75

# A deal that uses every Seasons and Emotions card. Ma (seat 0) opens with R3,
# which seat 1 can steal with a pair (R3 R3), seat 2 with a run (R2 R4) and
# seat 3 with a run (R4 R5). Nobody can steal G1. Seat 1's first draw is B5,
# which seat 2 (B5 B5) can steal.
BASE = {
    0: "R3 G1 G1 S1 S1 S2 S2 E1 E1 E2 E2",
    1: "R3 R3 G5 G5 S3 S3 E3 E3 S4 S4",
    2: "R2 R4 B5 B5 S5 S5 E4 E4 E5 E5",
    3: "R4 R5 S1 S2 S3 S4 S5 E1 E2 E3",
}
# Waiting hands of ten: three sets and a lone R5, which wins with a second R5.
WAIT = "B1 B1 B1 B2 B2 B2 G1 G2 G3 R5"
# Two sets, a pair and R5 R5: stealing R5 for a set completes the hand.
SET_WAIT = "B1 B1 B1 B2 B2 B2 G1 G1 R5 R5"
# Wins with R3 (R3 R4 R5 run); seat 3 of BASE could hold it instead.
WINS_ON_R3 = "R4 R5 B1 B1 B1 B2 B2 B2 G3 G3"
# Also wins with R3 (R3 R3 R3); seat 1 of BASE could hold it instead.
ALSO_WINS_ON_R3 = "R3 R3 B3 B3 B3 B4 B4 B4 G4 G4"
FILLER = "S1 S1 S2 S2 S3 S3 E1 E1 E2 E2"  # ten cards that wait on nothing useful


# -- helpers -------------------------------------------------------------------


def base(changes: dict[int, str] | None = None, mode: Mode = Mode.GUARDED) -> State:
    """The BASE deal, with the hands in `changes` (by seat) replaced."""
    return rigged(game("nymj"), {**BASE, **(changes or {})}, draws="B5", mode=mode)


def answer(state: State, calls: dict[int, str], order: list[int] | None = None) -> None:
    """Close a claim window: the seats in `calls` say their line, every other
    seat asked passes (in `order` when given)."""
    assert state.step is Step.CLAIMS
    asked = list(state.current_players())
    assert set(calls) <= set(asked), f"{sorted(calls)} not all asked: {asked}"
    for seat in order or asked:
        act(state, seat, calls.get(seat, "pass"))
    assert state.step is not Step.CLAIMS


def pass_all(state: State) -> None:
    """Every seat asked lets the latest discard go (nothing if none is asked)."""
    while state.step is Step.CLAIMS:
        for seat in list(state.current_players()):
            act(state, seat, "pass")


def discard_drawn(state: State) -> str:
    """The seat to play discards the card it just drew (at the opening, its
    first card) and everyone lets it go; returns the card discarded."""
    seat = state.turn
    view = state.observation(seat)
    tile = view.get("drawn") or view["hand"][0]
    act(state, seat, f"discard {tile}")
    pass_all(state)
    return tile


def discard_drawn_no_pass(state: State) -> str:
    """The seat to play discards the card it drew; the claim window stays open."""
    tile = state.observation(state.turn)["drawn"]
    act(state, state.turn, f"discard {tile}")
    return tile


def held(state: State, seat: int) -> int:
    """The cards a seat holds, concealed and exposed."""
    return state._seats[seat].held


def exposed(state: State, viewer: int, seat: int) -> list[list[str]]:
    """The exposures of `seat` as `viewer` sees them."""
    return state.observation(viewer)["seats"][seat]["exposures"]


def play_walls(state: State) -> list[int]:
    """Play the match out without a single claim or declaration, so that
    every round is a wall game; returns the dealer of each round dealt."""
    dealers = [state.dealer]
    while not state.is_terminal():
        before = state.round
        if state.step is Step.CLAIMS:
            pass_all(state)
        else:
            discard_drawn(state)
        if state.round != before and not state.is_terminal():
            dealers.append(state.dealer)
            assert held(state, state.dealer) == 11 and state.turn == state.dealer
    return dealers


def win_round(players: int, ma_wins: bool, how: str,
              scores: list[int] | None = None) -> State:
    """A round Ma (seat 0) or seat 1 wins with the second R5 of WAIT, by
    stealing it or by drawing it; `scores` set the tokens before the round."""
    g = game("nymj", players)
    if ma_wins:
        others = "E4 " * (players - 1) if how == "draw" else ""
        state = rigged(g, {0: f"{WAIT} E5"}, draws=f"{others}R5")
    elif how == "draw":
        state = rigged(g, {0: f"E5 {FILLER}", 1: WAIT}, draws="R5")
    else:
        state = rigged(g, {0: f"R5 {FILLER}", 1: WAIT})
    if scores is not None:
        state.scores = list(scores)
    winner = 0 if ma_wins else 1
    opener = "R5" if how == "steal" and not ma_wins else "E5"  # R5: seat 1 steals it
    act(state, 0, f"discard {opener}")
    if how == "steal":
        if ma_wins:
            pass_all(state)
            assert state.turn == 1 and discard_drawn_no_pass(state) == "R5"
        answer(state, {winner: "claim mahjong"})
    else:
        pass_all(state)
        while state.turn != winner:
            discard_drawn(state)
        assert state.observation(winner)["drawn"] == "R5"
        act(state, winner, "declare")
    assert state.results and state.results[0].winner == winner
    return state


@contextmanager
def hidden_kept(state: State) -> Iterator[None]:
    """Put the pile and every hand back as they were when the block ends."""
    wall, counts = list(state._wall), [list(s.counts) for s in state._seats]
    try:
        yield
    finally:
        state._wall = wall
        for seat, kept in zip(state._seats, counts, strict=True):
            seat.counts = kept


def hidden_resample(state: State, seat: int, rng: random.Random) -> bool:
    """Deal the cards `seat` cannot see (other hands, the pile) anew, keeping
    how many each holds; True if the arrangement changed."""
    others = [s for s in range(state.spec.players) if s != seat]
    before = [list(state._wall)] + [list(state._seats[s].counts) for s in others]
    pool = list(state._wall) + [t for s in others for t in state._seats[s].concealed()]
    rng.shuffle(pool)
    kinds = len(state.spec.deck.kinds)
    state._wall = pool[:len(state._wall)]
    rest = pool[len(state._wall):]
    for s in others:
        size = sum(state._seats[s].counts)
        counts = [0] * kinds
        for t in rest[:size]:
            counts[t] += 1
        rest = rest[size:]
        state._seats[s].counts = counts
    after = [list(state._wall)] + [list(state._seats[s].counts) for s in others]
    return after != before


def scores_by_round(state: State) -> list[list[int]]:
    """The tokens after each round, rebuilt from the score events."""
    scores = [state.spec.match.start] * state.spec.players
    out = []
    for r in range(len(state.results)):
        for e in state.payments:
            if e.round == r:
                scores[e.payer] -= e.amount
                scores[e.payee] += e.amount
        out.append(list(scores))
    return out
