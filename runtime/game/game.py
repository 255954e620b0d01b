"""A compiled game: its specification and its matcher, ready to play matches."""

from __future__ import annotations

from dataclasses import dataclass

from jongg.runtime.game.chance import Chance
from jongg.runtime.game.spec import GameSpec
from jongg.runtime.game.state import Judge, Mode, State


@dataclass(frozen=True)
class Game:
    spec: GameSpec
    matcher: Judge  # the compiled matcher; the reference serves for checking

    def new_match(self, seed: int, mode: Mode = Mode.GUARDED,
                  chance: Chance | None = None) -> State:
        """A match at its first decision. Chance decides every shuffle, die and
        tie: the seed's own (`SeededChance(seed)`) unless another is given."""
        return State(self.spec, self.matcher, seed, mode, chance)

    def load_position(self, text: str) -> State:
        """A match at the position a `position()` text describes."""
        from jongg.runtime.game.position import load_position
        return load_position(self, text)
