"""A compiled game: its specification and its matcher, ready to play matches."""

from __future__ import annotations

from dataclasses import dataclass

from jongg.runtime.game.spec import GameSpec
from jongg.runtime.game.state import Judge, Mode, State


@dataclass(frozen=True)
class Game:
    spec: GameSpec
    matcher: Judge  # the compiled matcher; the reference serves for checking

    def new_match(self, seed: int, mode: Mode = Mode.GUARDED) -> State:
        """A match at its first decision: the seed decides every shuffle."""
        return State(self.spec, self.matcher, seed, mode)
