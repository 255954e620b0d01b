"""Invariants every state of every variant must keep; simulations and the
conformance tests check them at every step."""

from __future__ import annotations

from collections import Counter

from .scoring import BANK
from .state import State


def violations(state: State) -> list[str]:
    """What is wrong with the state now (empty when nothing is)."""
    found: list[str] = []
    spec = state.spec
    deck = spec.deck
    held: Counter[int] = Counter(state.wall)
    for seat in state.seats:
        for kind, n in enumerate(seat.counts):
            if n < 0:
                found.append(f"a seat holds {n} of {deck.code(kind)}")
            held[kind] += n
        held.update(seat.outgoing)
        held.update(seat.discards)
        for exposure in seat.exposures:
            held.update(exposure.tiles)
    for tile in deck.kinds:
        if held[tile.index] != tile.copies:
            found.append(f"tiles not conserved: {held[tile.index]} of {tile.code}, "
                         f"the deck holds {tile.copies}")
    assert spec.match is not None
    expected = [spec.match.start] * spec.players
    for event in state.events:
        if event.payer != BANK:
            expected[event.payer] -= event.amount
        expected[event.payee] += event.amount
    if expected != state.scores:
        found.append(f"scores {state.scores} differ from their payments {expected}")
    if spec.scoring.zero_sum and sum(state.scores) != spec.match.start * spec.players:
        found.append(f"a zero-sum game's scores {state.scores} do not sum to the start")
    if state.is_terminal():
        if state.current_players():
            found.append("the match is over but seats are still asked to act")
    else:
        deciding = state.current_players()
        if not deciding:
            found.append(f"no seat can act at step {state.step} of a match not over")
        for who in deciding:
            if not state.legal_actions(who):
                found.append(f"seat {who} is asked to act but has no legal action")
    return found
