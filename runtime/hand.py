"""A hand: what one player holds, as tile kind indices."""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hand:
    """The tiles one player holds: concealed tiles and exposures, as kind indices."""

    concealed: tuple[int, ...]
    exposures: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.concealed) + sum(map(len, self.exposures))

    def plus(self, *tiles: int) -> Hand:
        """The hand with these tiles added to the concealed ones."""
        return Hand(tuple(sorted((*self.concealed, *tiles))), self.exposures)

    def minus(self, *tiles: int) -> Hand:
        """The hand without these concealed tiles (ValueError if one is not held)."""
        rest = list(self.concealed)
        for t in tiles:
            rest.remove(t)
        return Hand(tuple(rest), self.exposures)

    def exposing(self, claimed: int, tiles: tuple[int, ...]) -> Hand:
        """The hand once `claimed` is exposed with `tiles` from the concealed ones."""
        return Hand(self.minus(*tiles).concealed,
                    (*self.exposures, tuple(sorted((claimed, *tiles)))))

    def naturals(self, joker: int | None) -> tuple[dict[int, int], int]:
        """The concealed naturals counted by kind (in the order the tiles
        come), and the concealed jokers."""
        counts: dict[int, int] = {}
        _count_elements(counts, self.concealed)  # Counter's own counting, in C: no Counter made
        return counts, counts.pop(joker, 0) if joker is not None else 0
