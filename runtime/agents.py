"""Agents: who chooses a seat's actions. Their randomness derives from the
match seed, so a simulated match replays exactly."""

from __future__ import annotations

from typing import Protocol

from .actions import Action
from .state import Mode, State, derived_rng


class Agent(Protocol):
    name: str

    def act(self, state: State, seat: int, legal: list[Action]) -> Action: ...


class RandomAgent:
    """Chooses uniformly among the legal actions, except that it never lets a
    win go: it declares, or claims for Mah Jongg, whenever the rules allow
    (in strict mode, where those may be mistakes, it stays uniform)."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = derived_rng(seed, "agent", seat)

    def act(self, state: State, seat: int, legal: list[Action]) -> Action:
        if state.mode is Mode.GUARDED:
            for action in legal:
                if action.verb == "declare" or (action.verb == "claim" and not action.tiles
                                                and state.spec.claims.kind(action.claim).mahjong):
                    return action
        return legal[self.rng.randrange(len(legal))]


AGENTS: dict[str, type[RandomAgent]] = {"random": RandomAgent}
