"""The compiled engine's filling: which natural, joker or exposed tile fills
each slot of concrete groups, and whether an exposure is exactly a group.

The reference matcher has its own, written apart, so that agreement between
the two tests both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
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


def allocate(groups: Sequence[Bound], counts: Mapping[int, int], jokers: int,
              exposed: Sequence[bool], all_jokers: bool = True) -> list[list[int | None]]:
    """What fills each slot: a natural's kind, JOKER, EXPOSED, or None (missing).

    Naturals go first to slots no joker may fill, then one into each joker
    group (a group holding a natural may be finished by jokers), then the
    rest; jokers go to groups holding a natural first. Without `all_jokers`
    a group needs one natural, so one with none takes at most size - 1 jokers.
    """
    left = dict(counts)  # a plain dict: a Counter answers a kind it lacks by a Python call
    slots: list[list[int | None]] = [[None] * len(g.tiles) for g in groups]
    for want_jokers, most in ((False, None), (True, 1), (True, None)):
        for gi, group in enumerate(groups):
            if exposed[gi] or group.jokers != want_jokers or group.label:
                continue
            row = slots[gi]
            placed = len(row) - row.count(None)
            for si, tile in enumerate(group.tiles):
                if most is not None and placed >= most:
                    break
                if row[si] is None and left.get(tile, 0) > 0:
                    left[tile] -= 1
                    placed += 1
                    row[si] = tile
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


# A slot is read off (placeholder label, tile wanted, what fills it, jokers allowed): few
# kinds of them, so each is made once per deck and shared (they are frozen).
SlotKey = tuple[str | None, int, int | None, bool]


def fill(groups: Sequence[Bound], counts: Mapping[int, int], jokers: int, deck: Deck,
          exposed: Sequence[bool], all_jokers: bool = True,
          made: dict[SlotKey, Slot] | None = None) -> tuple[int, list[list[Slot]]]:
    """The best filling of concrete groups from concealed tiles, as Slots;
    exposed groups are full. `made` keeps the Slots made for this deck."""
    slots = allocate(groups, counts, jokers, exposed, all_jokers)
    if made is None:
        made = {}
    out: list[list[Slot]] = []
    for group, filling in zip(groups, slots, strict=True):
        label, joker_ok = group.label, group.jokers
        row = []
        for tile, got in zip(group.tiles, filling, strict=True):
            key = (label, tile, got, joker_ok)
            slot = made.get(key)
            if slot is None:
                slot = made[key] = _slot(deck, *key)
            row.append(slot)
        out.append(row)
    return score(slots), out


def _slot(deck: Deck, label: str | None, tile: int, got: int | None, joker_ok: bool) -> Slot:
    want = label or deck.code(tile)
    by = None if got is None else "J" if got == JOKER else want if got == EXPOSED \
        else deck.code(got)
    return Slot(want, by, joker_ok, exposed=got == EXPOSED)
