"""Several racks (Siamese): the expert's play when one pool of tiles feeds
several hands."""

from __future__ import annotations

from jongg.runtime.agents.bots import GreedyAgent
from jongg.runtime.game.actions import Action
from jongg.runtime.game.view import Observation


class RackPlayer:
    def __init__(self, seed: int, seat: int):
        self.greedy = GreedyAgent(seed, seat)

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        return self.greedy.act(seen, legal)
