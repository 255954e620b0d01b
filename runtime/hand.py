"""A hand: what one player holds, as tile kind indices."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hand:
    """The tiles one player holds: concealed tiles and exposures, as kind indices."""

    concealed: tuple[int, ...]
    exposures: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.concealed) + sum(map(len, self.exposures))

    def naturals(self, joker: int | None) -> tuple[dict[int, int], int]:
        """The concealed naturals counted by kind, and the concealed jokers."""
        counts: dict[int, int] = {}
        jokers = 0
        for tile in self.concealed:
            if tile == joker:
                jokers += 1
            else:
                counts[tile] = counts.get(tile, 0) + 1
        return counts, jokers
