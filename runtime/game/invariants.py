"""Invariants every state of every variant must keep; simulations and the
conformance tests check them at every step."""

from __future__ import annotations

from collections import Counter

from jongg.runtime.game.red import red_kinds
from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.state import State, Step


def violations(state: State) -> list[str]:
    """What is wrong with the state now (empty when nothing is)."""
    found: list[str] = []
    spec = state.spec
    deck = spec.deck
    held: Counter[int] = Counter(state._wall)
    held.update(state._dead)  # a scored game's dead wall
    for seat in state._seats:
        for kind, n in enumerate(seat.counts):
            if n < 0:
                found.append(f"a seat holds {n} of {deck.code(kind)}")
            held[kind] += n
        held.update(seat.outgoing)
        held.update(seat.aside)
        held.update(seat.discards)
        for exposure in seat.exposures:
            held.update(exposure.tiles)
    for tile in deck.kinds:
        if held[tile.index] != tile.copies:
            found.append(f"tiles not conserved: {held[tile.index]} of {tile.code}, "
                         f"the deck holds {tile.copies}")
    found.extend(_hand_sizes(state))
    found.extend(_red(state))
    assert spec.match is not None
    expected = [spec.match.start] * spec.players
    for event in state.payments:
        if event.payer != BANK:
            expected[event.payer] -= event.amount
        if event.payee != BANK:
            expected[event.payee] += event.amount
    if expected != state.scores:
        found.append(f"scores {state.scores} differ from their payments {expected}")
    if spec.scoring.zero_sum and \
            sum(state.scores) + state._table_points() != spec.match.start * spec.players:
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


def _hand_sizes(state: State) -> list[str]:
    """Every live seat holds what the deal gave it, one more on its turn
    (MJCG-24's wrong counts cannot happen when the engine moves every tile)."""
    spec = state.spec
    if state.is_terminal():
        return []
    found = []
    before_play = state.step in (Step.PASSING, Step.OFFERING, Step.VOTING)
    for i, seat in enumerate(state._seats):
        if seat.dead or not any(seat.counts) and seat.mahjongs:
            continue  # out of the round, or every tile declared, with what it held
        held = seat.in_hand + sum(len(e.tiles) for e in seat.exposures)
        if before_play:
            expected = spec.deal + (spec.dealer_extra if i == state.dealer else 0)
        else:
            on_turn = state.step is Step.TURN and i == state.turn
            expected = spec.deal + (1 if on_turn else 0) + state._extra_tiles(i)
        if held != expected:
            found.append(f"seat {i} holds {held} tiles at step {state.step}, not {expected}")
    return found


def _red(state: State) -> list[str]:
    """Each red copy is somewhere, and where it is holds a tile of its kind."""
    if state.spec.scored is None or state.is_terminal():
        return []
    deck = state.spec.deck
    found = []
    dora = state.spec.scored.hand.dora
    copies = sum(red_kinds(state.spec.scored.hand.options, dora.red, dora.red_when).values())
    placed = len(state._red_wall) + len(state._red_dead) + sum(
        len(held) + len(shown) + len(thrown) for held, shown, thrown in
        zip(state._red_held, state._red_shown, state._red_thrown, strict=True))
    if placed != copies:
        found.append(f"{placed} red copies placed, the deck has {copies}")
    for place, kind in state._red_wall:
        if state._wall[place] != kind:
            found.append(f"a red {deck.code(kind)} at live wall place {place}, which holds "
                         f"{deck.code(state._wall[place])}")
    for place, kind in state._red_dead:
        if state._dead[place] != kind:
            found.append(f"a red {deck.code(kind)} at dead wall place {place}")
    for i, seat in enumerate(state._seats):
        for kind in set(state._red_held[i]):
            if state._red_held[i].count(kind) > seat.counts[kind]:
                found.append(f"seat {i} holds more red {deck.code(kind)} than {deck.code(kind)}")
        exposed = [t for e in seat.exposures for t in e.tiles]
        for kind in set(state._red_shown[i]):
            if state._red_shown[i].count(kind) > exposed.count(kind):
                found.append(f"seat {i} shows a red {deck.code(kind)} it has not exposed")
        for place in state._red_thrown[i]:
            if place >= len(seat.discards):
                found.append(f"seat {i}'s red discard {place} is not among its discards")
    return found
