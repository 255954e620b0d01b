"""Worlds a seat cannot tell from the true one: positions built from its
observation alone, the tiles it has not seen dealt to the others and the
wall (the others' hands as their players would have kept them, or at
random: `Worlds.sample`).

A world holds everything public as the observation tells it (exposures,
discards, scores, whose turn, the discard open to claims), the seat's own
tiles as they are, and, drawn from the copies it has not seen
(runtime/agents/unseen.py), the other seats' concealed tiles (as many as
each holds) and the wall (as long as it is). It is written as a position
(runtime/game/position.py) and loaded through the game's own API, so it
plays on by the variant's rules like any match. What the observation does
not say is set as the rules would have it with nothing hidden: no other
seat has pledged, no other seat has answered the claim window yet. Only
positions in play (a turn or a claim window) are built; the phases before
play are left to the agent's playout policy.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from jongg.runtime.agents.bots import nearness_key
from jongg.runtime.game.game import Game
from jongg.runtime.game.position import FORMAT, VERSION
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.state import State
from jongg.runtime.game.view import Observation
from jongg.runtime.hand import Hand

IN_PLAY = ("turn", "claims")  # the steps a world is built for


@dataclass(frozen=True)
class Memory:
    """What the seat itself remembers of this turn: whether it began with a
    discard it claimed, and whose."""

    claimed_turn: bool = False
    claimed_from: int | None = None


class Worlds:
    """The worlds of one decision: the public part written once, the hidden
    tiles dealt anew for each. `kept`: each other seat's hand is dealt as a
    player would have kept it (see `sample`), else at random."""

    def __init__(self, game: Game, seen: Observation, memory: Memory, kept: bool = False):
        if seen.step not in IN_PLAY:
            raise ValueError(f"worlds are built in play, not at step {seen.step}")
        self.game = game
        self.seen = seen
        deck = game.spec.deck
        self.codes = [k.code for k in deck.kinds]
        self.pool = [t for t, n in enumerate(seen.unseen) for _ in range(n)]
        self.sizes = [0 if s == seen.seat else p.in_hand for s, p in enumerate(seen.seats)]
        if sum(self.sizes) + seen.wall != len(self.pool):
            raise ValueError("the tiles unseen do not fill the other hands and the wall")
        self.doc = self._public(seen, memory)
        self.kept = kept
        # how many tiles each other seat has chosen to let go: its discards on the table
        self.let_go = [0 if s == seen.seat else len(p.discards) for s, p in enumerate(seen.seats)]
        self.shown = [tuple(e.tiles for e in p.exposures) for p in seen.seats]

    def _text(self, tiles: Any) -> str:
        return " ".join(self.codes[t] for t in tiles)

    def _exposure(self, e: Exposure) -> dict[str, Any]:
        return {"tiles": self._text(e.tiles),
                "claimed": self.codes[e.claimed] if e.claimed >= 0 else None,
                "rack": e.rack, "mahjong": e.mahjong, "killed": e.killed}

    def _public(self, seen: Observation, memory: Memory) -> dict[str, Any]:
        spec = self.game.spec
        me = seen.me
        mine = seen.seat
        players = spec.players
        racks = spec.racks
        seats = []
        for s, public in enumerate(seen.seats):
            exposures = [self._exposure(e) for e in public.exposures]
            if s == mine:
                pledged = self._pledge_path(me.pledged)
                seats.append({"hand": self._text(me.concealed()), "exposures": exposures,
                              "discards": self._text(public.discards), "dead": me.dead,
                              "skips": public.skips, "outgoing": self._text(me.outgoing),
                              "rack_dead": list(me.rack_dead), "pledged": pledged,
                              "aside": self._text(me.aside)})
            else:  # a rack is known dead when an exposure on it killed it
                dead_racks = [any(e.killed and e.rack == r for e in public.exposures)
                              for r in range(racks)]
                seats.append({"hand": "", "exposures": exposures,
                              "discards": self._text(public.discards), "dead": public.dead,
                              "skips": public.skips, "outgoing": "", "rack_dead": dead_racks,
                              "pledged": None, "aside": ""})
        # discards made this round: those on the table and those claimed into exposures
        turns = sum(len(p.discards) + sum(e.claimed >= 0 for e in p.exposures)
                    for p in seen.seats)
        on_turn = seen.step == "turn"
        asked: list[int] = []
        if seen.discard is not None:
            giver = seen.discard[0]
            direction = spec.turn.direction
            order = [(giver + i * direction) % players for i in range(1, players)]
            asked = [s for s in order if not seen.seats[s].dead]
        last = seen.last
        claimed = on_turn and memory.claimed_turn
        return {
            "format": FORMAT, "version": VERSION, "variant": spec.variant, "players": players,
            "seed": 0, "mode": str(seen.rules.mode), "round": seen.round, "decisions": 0,
            "dealer": seen.dealer, "scores": list(seen.scores), "step": seen.step,
            "turn": seen.turn if seen.turn is not None else (seen.discard or (mine,))[0],
            "phase": None, "queue": [], "wall": "", "wall_owner": [], "die": 0,
            "seats": seats, "turns": turns,
            "discard": None if seen.discard is None else
            [seen.discard[0], self.codes[seen.discard[1]]],
            "asked": asked, "answers": {},
            "drawn": self.codes[last] if on_turn and last is not None and not claimed else None,
            "claimed_turn": claimed, "claimed_from": memory.claimed_from if claimed else None,
            "incoming": None if last is None else [mine, self.codes[last]],
            "ended": None, "promised": list(seen.promised), "declared": [], "mahjongs": [],
            "opening": turns == 0, "pass_count": [0] * players, "blind": [0] * players,
            "votes": {}, "offers": {}, "turn_away": None, "results": [], "payments": [],
        }

    def _pledge_path(self, pledged: Any) -> list[int] | None:
        if pledged is None:
            return None
        phases = self.game.spec.phases
        for i, p in enumerate(phases):
            if p is pledged or p == pledged:
                return [i]
        raise ValueError("a pledge that is not among the variant's phases")

    def sample(self, rng: random.Random, seed: int) -> State:
        """One world: the hidden tiles dealt from what the seat has not seen
        (`seed` decides the world's own chance, such as tied claims).

        Kept worlds: a seat that has let go k tiles chose its hand from more
        tiles than it holds, so its hand is dealt as its own choice would
        leave it: its tiles and k more are drawn, and the k whose loss
        leaves the hand nearest a line (with its exposures) are put back in
        the wall, one at a time. Uniform hands are about a tile further from
        a line than the others' true hands late in a round; such a seat
        plays as if it were near, as its exposures and discards say it is."""
        pool = list(self.pool)
        rng.shuffle(pool)
        doc = dict(self.doc)
        doc["seed"] = seed
        seats = [dict(s) for s in doc["seats"]]
        at = 0
        back: list[int] = []
        spare = len(pool) - sum(self.sizes)  # the wall: what extra draws come from
        for s, size in enumerate(self.sizes):
            if not size:
                continue
            extra = min(self.let_go[s], spare) if self.kept else 0
            drawn = pool[at:at + size + extra]
            at += size + extra
            spare -= extra
            if extra:
                drawn, dropped = self._choose(drawn, extra, self.shown[s])
                back += dropped
            seats[s]["hand"] = self._text(drawn)
        wall = pool[at:] + back
        if back:
            rng.shuffle(wall)
        doc["seats"] = seats
        doc["wall"] = self._text(wall)
        return self.game.load_position(json.dumps(doc))

    def _choose(self, tiles: list[int], drop: int, shown: tuple[tuple[int, ...], ...]
                ) -> tuple[list[int], list[int]]:
        """The hand a greedy choice keeps of `tiles` (with these exposures),
        letting `drop` go, and those let go."""
        rules = self.seen.rules
        held = sorted(tiles)
        dropped = []
        for _ in range(drop):
            weighed = rules.discard_nearness(Hand(tuple(held), shown))
            tile = min(weighed, key=lambda t: nearness_key(weighed[t]))
            held.remove(tile)
            dropped.append(tile)
        return held, dropped
