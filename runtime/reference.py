"""The reference matcher: brute force, simple, obviously correct.

It is the oracle the compiled matcher is checked against, so it favours
plainness over speed: every variation of every line is tried; every way to
seat the exposures on the variation's groups is tried; every binding of a
structural group to a tile the hand holds is tried. For one fully concrete
variation the best filling is exact by a simple argument: naturals go first
to slots no joker may fill, then to joker slots, and jokers fill whatever
joker slots remain.

Words (DESIGN.md): tiles away = the line's size minus the most slots of any
variation, compatible with the hand's exposures, that the hand can fill.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .card import Card, FreeGroup, Line, Slots, Variation
from .tiles import Category, Deck

ABSENT = -1  # a structural group bound to no tile the hand holds


@dataclass(frozen=True, slots=True)
class Hand:
    """The tiles one player holds: concealed tiles and exposures, as kind indices."""

    concealed: tuple[int, ...]
    exposures: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.concealed) + sum(map(len, self.exposures))


@dataclass(frozen=True, slots=True)
class Slot:
    """One slot of a filled group: the tile it wants and what fills it."""

    want: str  # a tile code, or a structural group's placeholder like "[pung]"
    filled_by: str | None  # a code, "J", or None when missing
    joker_ok: bool
    exposed: bool = False


@dataclass(frozen=True, slots=True)
class LineMatch:
    """How near a hand is to one line."""

    line: Line
    tiles_away: int
    variation: int  # index into line.variations
    groups: tuple[tuple[Slot, ...], ...]  # the filling, group by group

    @property
    def complete(self) -> bool:
        return self.tiles_away == 0

    @property
    def missing(self) -> list[str]:
        return [s.want for g in self.groups for s in g if s.filled_by is None]

    @property
    def joker_slots(self) -> list[str]:
        """The missing slots a joker could fill."""
        return [s.want for g in self.groups for s in g if s.filled_by is None and s.joker_ok]


# A group once structural groups are bound: its tiles (ABSENT for an unbound
# placeholder), whether jokers may go in, and a label for placeholders.
@dataclass(frozen=True, slots=True)
class _Bound:
    tiles: tuple[int, ...]
    jokers: bool
    label: str | None = None  # "[pung]" for a placeholder


def _runs(deck: Deck) -> list[tuple[int, ...]]:
    ordered = {s.code for s in deck.suits if s.ordered}
    out: list[tuple[int, ...]] = []
    for kind in deck.kinds:
        if kind.suit in ordered and kind.number is not None:
            nxt = deck.suited(kind.suit, kind.number + 1)
            nxt2 = deck.suited(kind.suit, kind.number + 2)
            if nxt and nxt2:
                out.append((kind.index, nxt.index, nxt2.index))
    return out


def _shapes(free: FreeGroup, deck: Deck) -> list[tuple[int, ...]]:
    """Every concrete tile tuple a structural group may become."""
    plain = [k.index for k in deck.kinds if k.category is not Category.JOKER]
    identical = [(k,) * free.size for k in plain]
    if free.kind == "run":
        return _runs(deck)
    if free.kind == "set":
        return [(k,) * 3 for k in plain] + _runs(deck)
    return identical


def _fits(exposure: Sequence[int], tiles: Sequence[int], jokers: bool, joker: int | None) -> bool:
    """Whether an exposure is exactly this group: same tiles, jokers only where allowed."""
    if len(exposure) != len(tiles):
        return False
    naturals = [t for t in exposure if t != joker]
    used = len(exposure) - len(naturals)
    if used and not (jokers and len(set(tiles)) == 1):
        return False
    if not naturals:
        return False  # an exposure of jokers alone names no tile
    need = Counter(tiles)
    need.subtract(naturals)
    return all(v >= 0 for v in need.values())


def _fill(groups: Sequence[_Bound], counts: Counter[int], jokers: int, deck: Deck,
          exposed: Sequence[bool], all_jokers: bool = True) -> tuple[int, list[list[Slot]]]:
    """The best filling of concrete groups from concealed tiles; exposed groups are full.

    Without `all_jokers`, a group needs one natural: jokers go first to groups
    that hold a natural, and a group with none takes at most size - 1 jokers.
    """
    left = Counter(counts)
    slots: list[list[Slot | None]] = [[None] * len(g.tiles) for g in groups]
    # naturals into slots no joker may fill, then into joker slots
    for want_jokers in (False, True):
        for gi, group in enumerate(groups):
            if exposed[gi] or group.jokers != want_jokers or group.label:
                continue
            for si, tile in enumerate(group.tiles):
                if left[tile] > 0:
                    left[tile] -= 1
                    slots[gi][si] = Slot(deck.code(tile), deck.code(tile), group.jokers)
    holding = [any(s is not None for s in g) for g in slots]
    order = sorted(range(len(groups)), key=lambda gi: not holding[gi])
    for gi in order:
        group = groups[gi]
        room = len(group.tiles) - (0 if all_jokers or holding[gi] else 1)
        for si, tile in enumerate(group.tiles):
            if slots[gi][si] is not None:
                continue
            want = group.label or deck.code(tile)
            if exposed[gi]:
                slots[gi][si] = Slot(want, want, group.jokers, exposed=True)
            elif group.jokers and jokers > 0 and si < room:
                jokers -= 1
                slots[gi][si] = Slot(want, "J", True)
            else:
                slots[gi][si] = Slot(want, None, group.jokers)
    filled = [[s for s in g if s is not None] for g in slots]
    score = sum(1 for g in filled for s in g if s.filled_by is not None)
    return score, filled


def _placements(exposures: Sequence[Sequence[int]], groups: Sequence[Slots],
                free: Sequence[FreeGroup], deck: Deck) -> Iterator[dict[int, _Bound]]:
    """Every way to seat each exposure on its own group (concrete or structural)."""
    joker = deck.joker.index if deck.joker else None
    n = len(groups)
    options: list[list[tuple[int, _Bound]]] = []
    for exposure in exposures:
        mine: list[tuple[int, _Bound]] = []
        for gi, group in enumerate(groups):
            if _fits(exposure, group.tiles, group.jokers, joker):
                mine.append((gi, _Bound(group.tiles, group.jokers)))
        for fi, fg in enumerate(free):
            for shape in _shapes(fg, deck):
                if _fits(exposure, shape, fg.jokers and len(set(shape)) == 1
                         and len(shape) >= 3, joker):
                    mine.append((n + fi, _Bound(shape, fg.jokers and len(set(shape)) == 1)))
        options.append(mine)
    for choice in itertools.product(*options):
        seats = [gi for gi, _ in choice]
        if len(set(seats)) == len(seats):
            yield dict(choice)


def _bindings(free: Sequence[FreeGroup], fixed: dict[int, _Bound], offset: int,
              counts: Counter[int], deck: Deck) -> Iterator[list[_Bound]]:
    """Bind every unplaced structural group to a shape the hand touches, or leave it
    a placeholder. Groups of the same kind are interchangeable, so each class is
    bound as a multiset. Identical sets of one line are of different tiles."""
    classes: dict[FreeGroup, list[int]] = {}
    for fi, fg in enumerate(free):
        if offset + fi not in fixed:
            classes.setdefault(fg, []).append(fi)
    per_class = []
    for fg, members in classes.items():
        choices = [_Bound(shape, fg.jokers and len(set(shape)) == 1 and len(shape) >= 3)
                   for shape in _shapes(fg, deck) if any(counts[t] for t in shape)]
        choices.append(_Bound((ABSENT,) * fg.size, fg.jokers and fg.kind != "run"
                              and fg.size >= 3, f"[{fg.kind}]"))
        per_class.append(list(itertools.combinations_with_replacement(choices, len(members))))
    for picked in itertools.product(*per_class):
        bound: list[_Bound] = [fixed[offset + fi] if offset + fi in fixed else _Bound((), False)
                               for fi in range(len(free))]
        for members, chosen in zip(classes.values(), picked, strict=True):
            for fi, b in zip(members, chosen, strict=True):
                bound[fi] = b
        identical = [b.tiles[0] for b in bound if not b.label and len(set(b.tiles)) == 1]
        if len(set(identical)) == len(identical):
            yield bound


def match_variation(variation: Variation, hand: Hand, deck: Deck, all_jokers: bool = True
                    ) -> tuple[int, list[list[Slot]]] | None:
    """The most slots of this variation the hand fills, or None if the
    exposures cannot all be whole groups of it."""
    joker = deck.joker.index if deck.joker else None
    counts = Counter(t for t in hand.concealed if t != joker)
    jokers = sum(1 for t in hand.concealed if t == joker)
    n = len(variation.groups)
    best: tuple[int, list[list[Slot]]] | None = None
    for placed in _placements(hand.exposures, variation.groups, variation.free, deck):
        for bound_free in _bindings(variation.free, placed, n, counts, deck):
            groups = [placed.get(gi, _Bound(g.tiles, g.jokers))
                      for gi, g in enumerate(variation.groups)] + bound_free
            exposed = [gi in placed for gi in range(len(groups))]
            score, slots = _fill(groups, counts, jokers, deck, exposed, all_jokers)
            if best is None or score > best[0]:
                best = (score, slots)
    return best


def match_line(line: Line, hand: Hand, deck: Deck, *, open_hands: bool = False,
               all_jokers: bool = True) -> LineMatch | None:
    """The nearest variation of a line, or None when the exposures rule it out."""
    if line.concealed and hand.exposures and not open_hands:
        return None
    best: LineMatch | None = None
    for vi, variation in enumerate(line.variations):
        found = match_variation(variation, hand, deck, all_jokers)
        if found is None:
            continue
        away = line.size - found[0]
        if best is None or away < best.tiles_away:
            best = LineMatch(line, away, vi, tuple(tuple(g) for g in found[1]))
            if away == 0:
                break
    return best


def match_card(card: Card, hand: Hand, *, open_hands: bool = False) -> list[LineMatch]:
    """Every line the exposures allow, nearest first (ties: line order)."""
    found = [m for line in card.lines
             if (m := match_line(line, hand, card.deck, open_hands=open_hands,
                                 all_jokers=card.all_joker_groups)) is not None]
    return sorted(found, key=lambda m: m.tiles_away)


def completed(card: Card, hand: Hand, *, open_hands: bool = False) -> list[LineMatch]:
    """The lines a hand of the card's size completes, highest value first."""
    if hand.size != card.hand_size:
        return []
    done = [m for m in match_card(card, hand, open_hands=open_hands) if m.complete]
    return sorted(done, key=lambda m: -(m.line.value or 0))
