"""Setting up a match at a chosen position, for tests of single rules.

`rigged(game, hands=..., draws=...)` starts a match and replaces its first
deal: the named seats hold the named tiles, the wall gives `draws` first, in
order, and everything else is dealt from what is left, so tiles stay
conserved. It works on the position text (`State.position()`,
`Game.load_position`), never by reaching into a State; `edited(state, fn)`
does the same for any change a test needs.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

from jongg.compiler.game import load_game
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.state import State
from jongg.runtime.tiles import parse_tiles

Position = dict[str, Any]


@cache
def game(variant: str, players: int | None = None) -> Game:
    return load_game(variant, players)


def edited(state: State, change: Callable[[Position], None]) -> State:
    """The state with its position changed by `change` (which edits the
    position's JSON in place), loaded anew."""
    doc = json.loads(state.position())
    change(doc)
    return Game(state.spec, state._matcher).load_position(json.dumps(doc))


def codes(text: str) -> str:
    return " ".join(text.split())


def rigged(g: Game, hands: dict[int, str], draws: str = "", *, mode: Mode = Mode.GUARDED,
           exposures: dict[int, list[str]] | None = None, seed: int = 0,
           dealer: int | None = None, skip_phases: bool = False) -> State:
    """A match whose first round is dealt as given (before any pre-play phase:
    drive the phases yourself, or `skip_phases` to start at the dealer's
    opening discard). `exposures` by seat: "2: R2 R2 R2" puts one on rack 2."""
    state = g.new_match(seed, mode)
    deck = g.spec.deck
    first = state.dealer if dealer is None else dealer
    pool: Counter[int] = Counter(deck.wall())
    held: dict[int, list[int]] = {}
    exposed: dict[int, list[dict[str, Any]]] = {}
    for seat, text in hands.items():
        held[seat] = parse_tiles(deck, text)
        pool.subtract(held[seat])
    for seat, groups in (exposures or {}).items():
        exposed[seat] = []
        for text in groups:
            rack, _, text = text.rpartition(":")
            tiles = parse_tiles(deck, text)
            pool.subtract(tiles)
            exposed[seat].append({"tiles": " ".join(deck.codes(sorted(tiles))),
                                  "claimed": deck.code(tiles[0]),
                                  "rack": int(rack) - 1 if rack else 0,
                                  "mahjong": False, "killed": False})
    top = parse_tiles(deck, draws)
    pool.subtract(top)
    if any(n < 0 for n in pool.values()):
        raise ValueError(f"the rigged deal uses more tiles than the deck holds: {pool}")
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)

    def deal(doc: Position) -> None:
        for seat in range(g.spec.players):
            me = doc["seats"][seat]
            if seat in held:
                tiles = held[seat]
            else:
                size = g.spec.deal + (g.spec.dealer_extra if seat == first else 0)
                size -= sum(len(e["tiles"].split()) for e in exposed.get(seat, []))
                tiles = [rest.pop() for _ in range(size)]
            me["hand"] = " ".join(deck.codes(sorted(tiles)))
            me["exposures"] = exposed.get(seat, [])
        wall = rest + top[::-1]  # the wall is drawn from its end
        doc["wall"] = " ".join(deck.codes(wall))
        if doc["wall_owner"]:  # walls on the table: whose wall is drawn is shown, not rigged
            doc["wall_owner"] = [first] * len(wall)
        doc["dealer"] = doc["turn"] = first
        doc["turn_away"] = None
        if skip_phases:
            if g.spec.turn.opening == "draw":
                raise ValueError("skip_phases: the dealer would draw first; rig the draw instead")
            doc["phase"], doc["queue"], doc["step"] = None, [], "turn"

    return edited(state, deal)


def act(state: State, seat: int, text: str) -> None:
    """Apply an action given in its text form."""
    state.apply(seat, parse_action(state.spec.deck, text))


def texts(state: State, seat: int) -> list[str]:
    """The legal actions of a seat, in their text form."""
    return [a.text(state.spec.deck) for a in state.legal_actions(seat)]


__all__ = ["Action", "act", "edited", "game", "rigged", "texts"]
