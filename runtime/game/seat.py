"""A seat at the table: its concealed tiles, its racks' exposures and
declared Mah Jonggs, its discards, and the marks of its mistakes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from jongg.runtime.game.spec import Pledge
from jongg.runtime.hand import Hand


@dataclass(frozen=True, slots=True)
class Exposure:
    tiles: tuple[int, ...]
    claimed: int  # the claimed tile, or -1
    rack: int = 0
    mahjong: bool = False  # part of a declared hand: its jokers stay (SMJ-13)
    killed: bool = False  # the exposure that made its rack's hand dead: its jokers stay (SMJ-21)


class SeatQueries:
    """What can be read off a seat: shared by the State's seats and a
    player's own view of its seat."""

    counts: Sequence[int]  # concealed tiles by kind
    exposures: Sequence[Exposure]
    rack_dead: Sequence[bool]
    pledged: Pledge | None
    aside: Sequence[int]
    outgoing: Sequence[int]

    @property
    def pledge(self) -> int:
        """The pledged rack, or -1."""
        return self.pledged.rack if self.pledged is not None else -1

    def concealed(self) -> tuple[int, ...]:
        tiles: list[int] = []
        for k, n in enumerate(self.counts):
            if n:
                tiles += [k] * n
        return tuple(tiles)

    def rack_exposures(self, rack: int = 0) -> tuple[tuple[int, ...], ...]:
        """One rack's exposures (a declared Mah Jongg left out)."""
        return tuple(e.tiles for e in self.exposures if e.rack == rack and not e.mahjong)

    def hand(self, rack: int = 0) -> Hand:
        """The pool with one rack's exposures."""
        return Hand(self.concealed(), self.rack_exposures(rack))

    def won(self, rack: int) -> bool:
        return any(e.mahjong and e.rack == rack for e in self.exposures)

    @property
    def mahjongs(self) -> int:
        return sum(self.won(r) for r in range(len(self.rack_dead)))

    def live_racks(self) -> list[int]:
        """Racks still playing: neither dead nor holding a declared Mah Jongg."""
        won = {e.rack for e in self.exposures if e.mahjong}
        return [r for r, dead in enumerate(self.rack_dead) if not dead and r not in won]

    @property
    def held(self) -> int:
        """Concealed and exposed tiles (not those chosen for a pass)."""
        return sum(self.counts) + sum(len(e.tiles) for e in self.exposures)

    @property
    def in_hand(self) -> int:
        """Concealed tiles, those chosen for a pass or set aside included."""
        return sum(self.counts) + len(self.outgoing) + len(self.aside)


@dataclass
class Seat(SeatQueries):
    """A seat in play; only the State changes it."""

    counts: list[int]  # concealed tiles by kind
    exposures: list[Exposure] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    dead: bool = False
    skips: int = 0
    outgoing: list[int] = field(default_factory=list)  # tiles chosen for a pass
    # Several racks (Siamese): the concealed tiles are one pool every rack
    # draws on; each exposure, and each declared Mah Jongg, belongs to one rack.
    rack_dead: list[bool] = field(default_factory=lambda: [False])
    pledged: Pledge | None = None  # a rack pledged to a flag's lines (Atomic Cat)
    aside: list[int] = field(default_factory=list)  # the tiles set aside on the pledged rack
    # the last concealed() with the counts it was read from: a decision asks it
    # several times (its actions, its claims, its agent) between two changes
    _kept: tuple[tuple[int, ...], tuple[int, ...]] | None = field(
        default=None, init=False, compare=False, repr=False)

    def concealed(self) -> tuple[int, ...]:
        counts = tuple(self.counts)
        kept = self._kept
        if kept is not None and kept[0] == counts:
            return kept[1]
        tiles = SeatQueries.concealed(self)
        self._kept = (counts, tiles)
        return tiles

    def copy(self) -> Seat:
        return Seat(list(self.counts), list(self.exposures), list(self.discards), self.dead,
                    self.skips, list(self.outgoing), list(self.rack_dead), self.pledged,
                    list(self.aside))
