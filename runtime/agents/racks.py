"""Several racks (Siamese): the expert's play when one pool of tiles feeds
several hands.

The rack plan (runtime/agents/planner.py) still says which rack builds which
line, which tiles each line takes, when to declare and when to pledge, as
the greedy agent plays it; the expert chooses its discards by the odds: among
the tiles the plan can spare (or, when it spares none, those that leave it
nearest), the one whose loss costs the racks' lines least in worth, every
live rack weighing its own lines (a pledged rack's, or the others') with its
own exposures against the whole pool.
"""

from __future__ import annotations

import numpy as np

from jongg.runtime.agents.bots import GreedyAgent
from jongg.runtime.agents.odds import odds
from jongg.runtime.agents.outlook import Prospects, seat, worth
from jongg.runtime.agents.payoff import priced_table
from jongg.runtime.agents.planner import Plan
from jongg.runtime.agents.unseen import Unseen
from jongg.runtime.game.actions import Action
from jongg.runtime.game.view import Observation

OPTIONS = 0.3  # as the expert weighs a hand's second and third lines


class RackPlayer(GreedyAgent):
    """The rack plan's play, discarding by the odds."""

    name = "expert"

    def __init__(self, seed: int, seat: int, unseen: Unseen | None = None):
        super().__init__(seed, seat)
        self.unseen = Unseen() if unseen is None else unseen  # kept between decisions

    def _rack_discard(self, seen: Observation, plan: Plan, discards: list[Action]) -> Action:
        me = seen.me
        rules = seen.rules
        joker = rules.joker
        table = priced_table(rules)
        spare = [a for a in discards if me.counts[a.tile] > plan.reserved[a.tile]]
        moves = spare or discards
        tiles = sorted({a.tile for a in moves})
        if not len(table.line) or len(tiles) == 1:
            return super()._rack_discard(seen, plan, discards)
        live = sum(not s.dead for s in seen.seats) or 1
        chances = odds(self.unseen.of(seen), seen.wall / live, rules.spec.players, joker)
        counts = np.array(me.counts, dtype=np.int16)
        jokers = 0
        if joker is not None:
            jokers, counts[joker] = int(counts[joker]), 0
        total = np.zeros(len(tiles))
        for rack in me.live_racks():
            if rack == me.pledge:
                continue  # it plays its tiles set aside, not the pool
            allowed = rules.allowed_lines(me, rack)
            mask = None
            if allowed is not None:
                mask = np.zeros(len(rules.lines), dtype=bool)
                mask[list(allowed)] = True
            seated = seat(table, me.hand(rack).exposures, joker, rules.spec.open_hands)
            p = Prospects(table, seated, chances, counts, jokers, mask)
            total += worth(p.line_values(p.without(tiles, joker)), OPTIONS)
        worths = dict(zip(tiles, total.tolist(), strict=True))
        if spare:
            return self._best([((a.tile == joker, -worths[a.tile], me.counts[a.tile]), a)
                               for a in spare])
        return self._best([((self.planner.plan(seen, self._less(me.concealed(), a.tile)).away,
                             -worths[a.tile]), a) for a in discards])
