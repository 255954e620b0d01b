"""Scripted deals of a scored game (riichi): chosen hands, draws and dead
wall tiles through the variant's own deal (an arranged shuffle), and a
driver that plays a script while every other decision lets the tile go
(a claim window passes, a turn discards the tile drawn)."""

from __future__ import annotations

import random
from typing import Any

from jongg.runtime.game import chance as ch
from jongg.runtime.game.actions import parse_action
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.state import State, Step
from jongg.runtime.tiles import parse_tiles

from .rig import edited

TURN_VERBS = {"discard", "announce", "declare", "kong", "abort"}


def deal(g: Game, hands: dict[int, str], draws: str = "", dead: dict[int, str] | None = None,
         seed: int = 0, red: dict[str, Any] | None = None, mode: Mode = Mode.GUARDED) -> State:
    """A match whose first round deals these hands (the dealer is seat 0),
    draws these tiles first, and holds `dead` tiles at these places of the
    wall's start (the dead wall: 13 is the first indicator, 12 under it, 0
    the first replacement). No copy is red unless `red` says where, as the
    position's fields do (red_held: the kinds each seat holds red, red_wall:
    [place in the live wall, kind] pairs, red_dead likewise)."""
    spec = g.spec
    deck = spec.deck
    wanted = {s: parse_tiles(deck, t) for s, t in hands.items()}
    first = parse_tiles(deck, draws)
    order = ch.arranged_wall(spec, wanted, first, 0, 0, deck.wall(),
                             shuffle=random.Random(seed).shuffle)
    places = ch.deal(spec, list(range(len(order))), 0, 0)
    chosen = {p for s, tiles in wanted.items() for p in places.hands[s][:len(tiles)]}
    chosen |= set(list(reversed(places.wall))[:len(first)])
    for index, code in (dead or {}).items():
        tile = parse_tiles(deck, code)[0]
        assert index not in chosen
        if order[index] != tile:
            j = next(j for j, t in enumerate(order) if t == tile and j not in chosen
                     and j not in (dead or {}))
            order[index], order[j] = order[j], order[index]
        chosen.add(index)
    state = g.new_match(seed, mode, chance=ch.ArrangedChance(seed, walls={0: order}, dealer=0))
    if spec.scored is None:
        return state
    n = spec.players

    def placed(doc: dict[str, Any]) -> None:
        doc["scored"].update({"red_held": [[] for _ in range(n)], "red_wall": [],
                              "red_dead": [], **(red or {})})

    return edited(state, placed)


def drive(state: State, script: list[tuple[int, str]]) -> list[Event]:
    """Play the script's (seat, action) in order, each at the first decision
    of its kind (a turn's, or a claim window's) its seat is asked; every
    other decision lets the tile go. Stops when the script is done or the
    round ends; returns the events of the drive."""
    start, rounds = len(state.events), len(state.results)
    queue = list(script)
    deck = state.spec.deck
    while queue and not state.is_terminal() and len(state.results) == rounds:
        seat, text = queue[0]
        deciding = state.current_players()
        turn_verb = text.split()[0] in TURN_VERBS
        if seat in deciding and turn_verb == (state.step is Step.TURN):
            state.apply(seat, parse_action(deck, text))
            queue.pop(0)
            continue
        who = deciding[0]
        state.apply(who, let_go(state, who))
    return state.events[start:]


def let_go(state: State, seat: int) -> str:
    """A decision that changes nothing: pass, or discard the tile drawn."""
    deck = state.spec.deck
    if state.step is Step.CLAIMS:
        return "pass"
    legal = [a.text(deck) for a in state.legal_actions(seat) if a.verb == "discard"]
    drawn = state.observation(seat).get("drawn")
    return f"discard {drawn}" if f"discard {drawn}" in legal else legal[-1]


def until_round_ends(state: State) -> list[Event]:
    """Let every tile go until the round ends."""
    start, rounds = len(state.events), len(state.results)
    while not state.is_terminal() and len(state.results) == rounds:
        who = state.current_players()[0]
        state.apply(who, let_go(state, who))
    return state.events[start:]


def of_kind(events: list[Event], kind: EventKind) -> list[Event]:
    return [e for e in events if e.kind is kind]


def legal(state: State, seat: int) -> list[str]:
    return [a.text(state.spec.deck) for a in state.legal_actions(seat)]


def to_turn(state: State, seat: int) -> None:
    """Let every tile go until it is the seat's turn."""
    while not (state.step is Step.TURN and state.turn == seat):
        who = state.current_players()[0]
        state.apply(who, let_go(state, who))

