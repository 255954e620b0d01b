"""What matching answers: a line's filling, slot by slot, and from it what is
missing. Shared by the compiled matcher and the reference, which compute
them independently."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jongg.runtime.tiles import Deck

ABSENT = -1  # a structural group bound to no tile the hand holds


@dataclass(frozen=True, slots=True)
class Slot:
    """One slot of a filled group: the tile it wants and what fills it."""

    want: str  # a tile code, or a structural group's placeholder like "[pung]"
    filled_by: str | None  # a code, "J", or None when missing
    joker_ok: bool
    exposed: bool = False


class Nearness:
    """What every answer about one line offers: its filling, and from it the
    missing tiles (the reference's LineMatch and the compiled Match)."""

    __slots__ = ()
    tiles_away: int

    def filling(self) -> tuple[tuple[Slot, ...], ...]:
        raise NotImplementedError

    def __repr__(self) -> str:
        line = getattr(self, "line", None)
        name = getattr(line, "id", "?")
        if self.tiles_away == 0:
            return f"<{name}: complete>"
        return f"<{name}: {self.tiles_away} away, missing {' '.join(self.missing)}>"

    @property
    def complete(self) -> bool:
        return self.tiles_away == 0

    @property
    def missing(self) -> list[str]:
        return [s.want for g in self.filling() for s in g if s.filled_by is None]

    @property
    def joker_slots(self) -> list[str]:
        """The missing slots a joker could fill."""
        return [s.want for g in self.filling() for s in g if s.filled_by is None and s.joker_ok]


def nearness(scores: Iterable[tuple[int, int, int]], sizes: Sequence[int]
             ) -> tuple[int, int] | None:
    """From a hand's scores (line, slots filled, variation): its tiles away
    from the nearest line, and how many lines are that near (None: no line)."""
    away = [sizes[li] - s for li, s, _ in scores]
    if not away:
        return None
    best = min(away)
    return best, away.count(best)


def pool_tiles(deck: Deck, groups: Iterable[Iterable[Slot]]) -> list[int]:
    """The tiles a filled line takes from the concealed tiles: every filled
    slot that is not an exposure's (naturals before jokers, as it is filled)."""
    return [deck.kind(slot.filled_by).index for group in groups for slot in group
            if not slot.exposed and slot.filled_by is not None]
