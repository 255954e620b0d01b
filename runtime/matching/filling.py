"""The compiled engine's filling: which natural, joker or exposed tile fills
each slot of concrete groups, and whether an exposure is exactly a group.

The reference matcher has its own, written apart, so that agreement between
the two tests both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from jongg.runtime.matching.answers import Slot
from jongg.runtime.tiles import Deck


# A group once structural groups are bound: its tiles (ABSENT for an unbound
# placeholder), whether jokers may go in, and a label for placeholders.
@dataclass(frozen=True, slots=True)
class Bound:
    tiles: tuple[int, ...]
    jokers: bool
    label: str | None = None  # "[pung]" for a placeholder


def fits(exposure: Sequence[int], tiles: Sequence[int], jokers: bool, joker: int | None) -> bool:
    """Whether an exposure is exactly this group: same tiles, jokers only where allowed."""
    if len(exposure) != len(tiles):
        return False
    naturals = [t for t in exposure if t != joker]
    used = len(exposure) - len(naturals)
    if used and not (jokers and len(set(tiles)) == 1):
        return False
    if not naturals:
        return False  # an exposure of jokers alone names no tile
    if tiles[0] == tiles[-1] and len(set(tiles)) == 1:  # identical tiles: the common case
        return all(t == tiles[0] for t in naturals)
    need = Counter(tiles)
    need.subtract(naturals)
    return all(v >= 0 for v in need.values())


JOKER, EXPOSED = -2, -3  # what fills a slot besides a natural (its kind index)


def allocate(groups: Sequence[Bound], counts: Counter[int], jokers: int,
              exposed: Sequence[bool], all_jokers: bool = True) -> list[list[int | None]]:
    """What fills each slot: a natural's kind, JOKER, EXPOSED, or None (missing).

    Naturals go first to slots no joker may fill, then one into each joker
    group (a group holding a natural may be finished by jokers), then the
    rest; jokers go to groups holding a natural first. Without `all_jokers`
    a group needs one natural, so one with none takes at most size - 1 jokers.
    """
    left = Counter(counts)
    slots: list[list[int | None]] = [[None] * len(g.tiles) for g in groups]
    for want_jokers, most in ((False, None), (True, 1), (True, None)):
        for gi, group in enumerate(groups):
            if exposed[gi] or group.jokers != want_jokers or group.label:
                continue
            placed = sum(s is not None for s in slots[gi])
            for si, tile in enumerate(group.tiles):
                if most is not None and placed >= most:
                    break
                if slots[gi][si] is None and left[tile] > 0:
                    left[tile] -= 1
                    placed += 1
                    slots[gi][si] = tile
    holding = [any(s is not None for s in g) for g in slots]
    for gi in sorted(range(len(groups)), key=lambda gi: not holding[gi]):
        group = groups[gi]
        room = len(group.tiles) - (0 if all_jokers or holding[gi] else 1)
        for si in range(len(group.tiles)):
            if slots[gi][si] is not None:
                continue
            if exposed[gi]:
                slots[gi][si] = EXPOSED
            elif group.jokers and jokers > 0 and si < room:
                jokers -= 1
                slots[gi][si] = JOKER
    return slots


def score(slots: list[list[int | None]]) -> int:
    return sum(s is not None for g in slots for s in g)


def fill(groups: Sequence[Bound], counts: Counter[int], jokers: int, deck: Deck,
          exposed: Sequence[bool], all_jokers: bool = True) -> tuple[int, list[list[Slot]]]:
    """The best filling of concrete groups from concealed tiles, as Slots;
    exposed groups are full."""
    slots = allocate(groups, counts, jokers, exposed, all_jokers)
    out: list[list[Slot]] = []
    for group, filling in zip(groups, slots, strict=True):
        row = []
        for tile, got in zip(group.tiles, filling, strict=True):
            want = group.label or deck.code(tile)
            by = None if got is None else "J" if got == JOKER else want if got == EXPOSED \
                else deck.code(got)
            row.append(Slot(want, by, group.jokers, exposed=got == EXPOSED))
        out.append(row)
    return score(slots), out
