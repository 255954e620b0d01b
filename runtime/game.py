"""A compiled game: its specification and its matcher, ready to play matches."""

from __future__ import annotations

from dataclasses import dataclass

from .matcher import Matcher
from .spec import GameSpec
from .state import Mode, State


@dataclass(frozen=True)
class Game:
    spec: GameSpec
    matcher: Matcher

    def new_match(self, seed: int, mode: Mode = Mode.GUARDED) -> State:
        """A match at its first decision: the seed decides every shuffle."""
        return State(self.spec, self.matcher, seed, mode)
