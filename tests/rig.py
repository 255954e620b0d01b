"""Setting up a match at a chosen deal, for tests of single rules.

`rigged(game, hands=..., draws=...)` starts a match and replaces the shuffle:
the named seats hold the named tiles, the wall gives `draws` first, in order,
and everything else is dealt from what is left, so tiles stay conserved.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from jongg.compiler.game import load_game
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import Exposure, Mode, State
from jongg.runtime.tiles import parse_tiles


@cache
def game(variant: str, players: int | None = None) -> Game:
    return load_game(variant, players)


def rigged(g: Game, hands: dict[int, str], draws: str = "", *, mode: Mode = Mode.GUARDED,
           exposures: dict[int, list[str]] | None = None, seed: int = 0,
           dealer: int | None = None) -> State:
    """A match whose first round is dealt as given (before any pre-play phase:
    use it with variants that have none, or drive the phases yourself)."""
    state = g.new_match(seed, mode)
    deck = g.spec.deck
    if dealer is not None:
        state.dealer = dealer
        state.turn = dealer
    pool: Counter[int] = Counter(deck.wall())
    counts: dict[int, list[int]] = {}
    exposed: dict[int, list[Exposure]] = {}
    for seat, text in hands.items():
        tiles = parse_tiles(deck, text)
        counts[seat] = [0] * len(deck.kinds)
        for t in tiles:
            counts[seat][t] += 1
        pool.subtract(tiles)
    for seat, groups in (exposures or {}).items():
        exposed[seat] = []
        for text in groups:  # "2: R2 R2 R2" puts the exposure on rack 2
            rack, _, text = text.rpartition(":")
            tiles = parse_tiles(deck, text)
            pool.subtract(tiles)
            exposed[seat].append(Exposure(tuple(sorted(tiles)), tiles[0],
                                          int(rack) - 1 if rack else 0))
    top = parse_tiles(deck, draws)
    pool.subtract(top)
    if any(n < 0 for n in pool.values()):
        raise ValueError(f"the rigged deal uses more tiles than the deck holds: {pool}")
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    for seat in range(g.spec.players):
        me = state.seats[seat]
        if seat in counts:
            me.counts = counts[seat]
        else:
            size = g.spec.deal + (g.spec.dealer_extra if seat == state.dealer else 0)
            size -= sum(len(e.tiles) for e in exposed.get(seat, []))
            me.counts = [0] * len(deck.kinds)
            for _ in range(size):
                me.counts[rest.pop()] += 1
        me.exposures = exposed.get(seat, [])
    state.wall = rest + top[::-1]  # the wall is drawn from its end
    if state.wall_owner:  # walls on the table: whose wall is drawn is shown, not rigged
        state.wall_owner = [state.dealer] * len(state.wall)
    state.away = [None] * g.spec.players
    state.turn_away = None
    state._legal = (-1, -1, [])
    return state


def act(state: State, seat: int, text: str) -> None:
    """Apply an action given in its text form."""
    state.apply(seat, parse_action(state.spec.deck, text))


def texts(state: State, seat: int) -> list[str]:
    """The legal actions of a seat, in their text form."""
    return [a.text(state.spec.deck) for a in state.legal_actions(seat)]


__all__ = ["Action", "act", "game", "rigged", "texts"]
