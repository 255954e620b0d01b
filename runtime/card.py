"""Compiled cards: lines expanded into concrete variations (plain data).

This is what the compiler produces and the runtime matches against; the
runtime never sees the notation.
"""

from __future__ import annotations

from dataclasses import dataclass

from jongg.runtime.tiles import Deck


@dataclass(frozen=True, slots=True)
class Slots:
    """A concrete group of a variation: the tiles it needs, and whether a
    joker may stand for them (groups of identical tiles, three or more)."""

    tiles: tuple[int, ...]
    jokers: bool

    @property
    def size(self) -> int:
        return len(self.tiles)

    @property
    def identical(self) -> bool:
        return len(set(self.tiles)) == 1


# Free (structural) group kinds and their sizes. `run` is three consecutive
# numbers of one suit; `set` is a pung or a run.
FREE_SIZES = {"single": 1, "pair": 2, "pung": 3, "kong": 4, "quint": 5, "sextet": 6,
              "run": 3, "set": 3}


@dataclass(frozen=True, slots=True)
class FreeGroup:
    """A structural group: any tiles of a shape, bound only when matched."""

    kind: str
    jokers: bool

    @property
    def size(self) -> int:
        return FREE_SIZES[self.kind]

    def __str__(self) -> str:
        return f"[{self.kind}]"


@dataclass(frozen=True, slots=True)
class Variation:
    """One concrete filling of a line: suits and numbers bound."""

    groups: tuple[Slots, ...]
    free: tuple[FreeGroup, ...] = ()

    @property
    def size(self) -> int:
        return sum(g.size for g in self.groups) + sum(f.size for f in self.free)

    def key(self) -> tuple[tuple[Slots, ...], tuple[FreeGroup, ...]]:
        """Order-free identity, for duplicate and containment checks."""
        return (tuple(sorted(self.groups, key=lambda g: (g.tiles, g.jokers))),
                tuple(sorted(self.free, key=lambda f: (f.kind, f.jokers))))


@dataclass(frozen=True, slots=True)
class Line:
    id: str
    section: str
    value: int | None
    concealed: bool
    pattern: str  # the notation as written, for display
    variations: tuple[Variation, ...]
    size: int
    jokers: bool = True
    note: str = ""
    flags: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()

    @property
    def structural(self) -> bool:
        return any(v.free for v in self.variations)


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    title: str
    deck: Deck
    hand_size: int
    lines: tuple[Line, ...]
    joker_min_group: int = 3
    all_joker_groups: bool = True  # may a group be jokers alone?

    def line(self, line_id: str) -> Line:
        for line in self.lines:
            if line.id == line_id:
                return line
        raise KeyError(line_id)
