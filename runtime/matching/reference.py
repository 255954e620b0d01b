"""The reference matcher: brute force, simple, obviously correct.

It is the oracle the compiled matcher is checked against, so it favours
plainness over speed: every variation of every line is tried; every way to
seat the exposures on the variation's groups is tried; every binding of a
structural group to a tile the hand holds is tried. For one fully concrete
variation the best filling is exact by a simple argument: naturals go first
to slots no joker may fill, then to joker slots, and jokers fill whatever
joker slots remain.

Words (docs/matcher.md): tiles away = the line's size minus the most slots of any
variation, compatible with the hand's exposures, that the hand can fill.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from jongg.runtime.card import FREE_SIZES, Card, FreeGroup, Line, Slots, Variation
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import ABSENT, Nearness, Slot, nearness
from jongg.runtime.tiles import Category, Deck


@dataclass(frozen=True, slots=True, repr=False)
class LineMatch(Nearness):
    """How near a hand is to one line."""

    line: Line
    tiles_away: int
    variation: int  # index into line.variations
    groups: tuple[tuple[Slot, ...], ...]  # the filling, group by group

    def filling(self) -> tuple[tuple[Slot, ...], ...]:
        return self.groups



@dataclass(frozen=True, slots=True)
class _Bound:
    """A group once structural groups are bound: its tiles (ABSENT for an
    unbound placeholder), whether jokers may go in, and a placeholder's label."""

    tiles: tuple[int, ...]
    jokers: bool
    label: str | None = None  # "[pung]" for a placeholder


@functools.lru_cache(maxsize=1 << 16)  # a pure question, asked again for every hand and variation
def _fits(exposure: tuple[int, ...], tiles: tuple[int, ...], jokers: bool, joker: int | None
          ) -> bool:
    """An exposure is a group when it has the group's size, names at least
    one tile, its naturals are among the group's tiles, and it holds jokers
    only where the group takes them (identical tiles)."""
    naturals = Counter(t for t in exposure if t != joker)
    held_jokers = len(exposure) - sum(naturals.values())
    wanted = Counter(tiles)
    return (len(exposure) == len(tiles) and bool(naturals)
            and all(wanted[t] >= n for t, n in naturals.items())
            and (held_jokers == 0 or (jokers and len(wanted) == 1)))


_JOKER, _EXPOSED = "J", "exposed"  # what fills a slot besides a natural (its kind index)
_Fill = int | str | None


def _fillings(groups: Sequence[_Bound], counts: Counter[int], jokers: int,
              exposed: Sequence[bool], all_jokers: bool) -> list[list[_Fill]]:
    """What fills each slot, tile kind by tile kind.

    A natural of a kind goes first to the slots of that kind no joker may
    take, then to the joker groups of that kind one each (in group order),
    then to their other slots. Jokers then go to the groups holding a natural,
    in group order, then to the others; a group holding no natural takes at
    most its size less one when the card keeps a natural in every group.
    """
    slots: list[list[_Fill]] = [[_EXPOSED if exposed[gi] else None] * len(g.tiles)
                                for gi, g in enumerate(groups)]
    open_groups = [gi for gi, g in enumerate(groups) if not exposed[gi] and not g.label]
    for kind, have in counts.items():
        plain = [(gi, si) for gi in open_groups if not groups[gi].jokers
                 for si, t in enumerate(groups[gi].tiles) if t == kind]
        mine = [gi for gi in open_groups if groups[gi].jokers and kind in groups[gi].tiles]
        spots = [(gi, si) for gi in mine for si, t in enumerate(groups[gi].tiles) if t == kind]
        firsts = [next(s for s in spots if s[0] == gi) for gi in mine]
        order = plain + firsts + [s for s in spots if s not in firsts]
        for gi, si in order[:have]:
            slots[gi][si] = kind
    held = [any(isinstance(s, int) for s in row) for row in slots]
    for gi in [*(g for g in range(len(groups)) if held[g]),
               *(g for g in range(len(groups)) if not held[g])]:
        if exposed[gi] or not groups[gi].jokers:
            continue
        row = slots[gi]
        room = len(row) - (0 if all_jokers or held[gi] else 1)
        for si in range(min(room, len(row))):
            if jokers and row[si] is None:
                row[si], jokers = _JOKER, jokers - 1
    return slots


def _filled(slots: list[list[_Fill]]) -> int:
    return sum(s is not None for row in slots for s in row)


def _fill(groups: Sequence[_Bound], counts: Counter[int], jokers: int, deck: Deck,
          exposed: Sequence[bool], all_jokers: bool = True) -> tuple[int, list[list[Slot]]]:
    """The best filling of bound groups as Slots, with the slots it fills."""
    slots = _fillings(groups, counts, jokers, exposed, all_jokers)
    rows = []
    for group, row in zip(groups, slots, strict=True):
        out = []
        for tile, got in zip(group.tiles, row, strict=True):
            want = group.label or deck.code(tile)
            by = want if got == _EXPOSED else "J" if got == _JOKER else \
                None if got is None else deck.code(int(got))
            out.append(Slot(want, by, group.jokers, exposed=got == _EXPOSED))
        rows.append(out)
    return _filled(slots), rows

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


def _placements(exposures: Sequence[Sequence[int]], groups: Sequence[Slots],
                free: Sequence[FreeGroup], deck: Deck) -> Iterator[dict[int, _Bound]]:
    """Every way to seat each exposure on its own group (concrete or structural)."""
    joker = deck.joker.index if deck.joker else None
    n = len(groups)
    options: list[list[tuple[int, _Bound]]] = []
    for exposure in map(tuple, exposures):
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
    base = [fixed.get(offset + fi, _Bound((), False)) for fi in range(len(free))]
    # the tile of each group of identical tiles: fixed ones once, choices once each
    fixed_kinds = [k for fi, b in enumerate(base)
                   if offset + fi in fixed and (k := _identical(b)) is not None]
    for picked in itertools.product(*per_class):
        bound = base.copy()
        identical = fixed_kinds.copy()
        for members, chosen in zip(classes.values(), picked, strict=True):
            for fi, b in zip(members, chosen, strict=True):
                bound[fi] = b
                k = _identical(b)
                if k is not None:
                    identical.append(k)
        if len(set(identical)) == len(identical):
            yield bound


@functools.lru_cache(maxsize=1 << 12)
def _identical(bound: _Bound) -> int | None:
    """The tile of a bound group of identical tiles, else None."""
    return bound.tiles[0] if not bound.label and len(set(bound.tiles)) == 1 else None


_Memo = dict[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]],
             tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]


@functools.lru_cache(maxsize=64)
def _search_state(classes: tuple[FreeGroup, ...], deck: Deck
                  ) -> tuple[dict[int, list[tuple[int, ...]]], _Memo]:
    """The runs through each tile, and the search's answers so far: they
    depend only on the classes of groups and the deck, so hands share them."""
    through: dict[int, list[tuple[int, ...]]] = {}
    for run in _runs(deck):
        for t in run:
            through.setdefault(t, []).append(run)
    return through, {}


def _lowest_tile_search(free: Sequence[FreeGroup], counts: Counter[int], deck: Deck,
                        taken: frozenset[int] = frozenset()) -> tuple[int, list[_Bound]]:
    """Free groups only, no jokers, no exposures: the classic exhaustive
    search. The lowest tile held belongs to a group bound now (identical
    tiles, or a run through it), which takes every tile of its shape still
    held, or the copies of it left stay unused. With no jokers a natural fills
    one slot wherever it goes, so taking it now is never worse. `taken`: kinds whose identical
    free group is already exposed."""
    classes = sorted(set(free), key=lambda f: (f.kind, f.jokers))
    through, memo = _search_state(tuple(classes), deck)
    if len(memo) > 1 << 20:
        memo.clear()

    def best(held: tuple[int, ...], left: tuple[int, ...], taken: frozenset[int]
             ) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
        key = (held, left, taken)
        if key in memo:
            return memo[key]
        t = next((i for i, c in enumerate(held) if c), None)
        if t is None:
            return 0, ()
        rest = list(held)
        rest[t] = 0
        # the rest of t stays unused (groups through t are bound first)
        result = best(tuple(rest), left, frozenset(k for k in taken if rest[k]))
        for ci, fg in enumerate(classes):
            if not left[ci]:
                continue
            shapes = []
            size = FREE_SIZES[fg.kind] if fg.kind != "set" else 3
            if fg.kind != "run" and t not in taken:
                shapes.append((t,) * size)
            if fg.kind in ("run", "set"):
                shapes += through.get(t, [])
            for shape in shapes:
                after = list(held)
                gained = 0
                for tile in shape:
                    if after[tile]:
                        after[tile] -= 1
                        gained += 1
                fewer = tuple(n - (i == ci) for i, n in enumerate(left))
                sub = best(tuple(after), fewer,
                           taken | {t} if len(set(shape)) == 1 else taken)
                if gained + sub[0] > result[0]:
                    result = (gained + sub[0], ((ci, shape), *sub[1]))
        memo[key] = result
        return result

    held = [0] * len(deck.kinds)
    for tile, n in counts.items():
        held[tile] = n
    score, chosen = best(tuple(held), tuple(free.count(c) for c in classes), taken)
    bound: list[_Bound] = []
    pending = list(free)
    for ci, shape in chosen:
        fg = classes[ci]
        pending.remove(fg)
        bound.append(_Bound(shape, fg.jokers and len(set(shape)) == 1 and len(shape) >= 3))
    bound += [_Bound((ABSENT,) * fg.size, fg.jokers and fg.kind != "run" and fg.size >= 3,
                     f"[{fg.kind}]") for fg in pending]
    return score, bound


def match_variation(variation: Variation, hand: Hand, deck: Deck, all_jokers: bool = True
                    ) -> tuple[int, list[list[Slot]]] | None:
    """The most slots of this variation the hand fills, with the filling, or
    None if the exposures cannot all be whole groups of it."""
    counts, jokers = _held(hand, deck)
    best = _best_filling(variation, counts, jokers, hand.exposures, deck, all_jokers)
    if best is None:
        return None
    return _fill(best[1], counts, jokers, deck, best[2], all_jokers)


@functools.cache
def _needs(variation: Variation) -> Counter[int]:
    return Counter(t for g in variation.groups for t in g.tiles)


def _ceiling(variation: Variation, counts: Counter[int]) -> int:
    """Naturals fill at most the concrete slots of their tile and every
    structural slot (jokers and exposed tiles come on top)."""
    needs = _needs(variation).get
    return sum(min(n, needs(t, 0)) for t, n in counts.items()) + sum(f.size for f in variation.free)


def _held(hand: Hand, deck: Deck) -> tuple[Counter[int], int]:
    joker = deck.joker_index
    return Counter(t for t in hand.concealed if t != joker), hand.concealed.count(joker)


def _best_filling(variation: Variation, counts: Counter[int], jokers: int,
                  exposures: Sequence[Sequence[int]], deck: Deck, all_jokers: bool
                  ) -> tuple[int, list[_Bound], list[bool]] | None:
    """The best score of a variation, and the bound groups reaching it."""
    n = len(variation.groups)
    exposed_tiles = sum(map(len, exposures))
    best: tuple[int, list[_Bound], list[bool]] | None = None
    for placed in _placements(exposures, variation.groups, variation.free, deck):
        if not jokers and not variation.groups:  # the quick search serves
            free = [f for fi, f in enumerate(variation.free) if fi not in placed]
            taken = {b.tiles[0] for b in placed.values() if len(set(b.tiles)) == 1}
            score, bound = _lowest_tile_search(free, counts, deck, frozenset(taken))
            score += sum(len(b.tiles) for b in placed.values())
            if best is None or score > best[0]:
                groups = [*placed.values(), *bound]
                best = (score, groups, [True] * len(placed) + [False] * len(bound))
            continue
        # what does not change from one binding to the next
        head = [placed.get(gi, _Bound(g.tiles, g.jokers)) for gi, g in enumerate(variation.groups)]
        exposed = [gi in placed for gi in range(n + len(variation.free))]
        head_wanted = [t for g, e in zip(head, exposed, strict=False)
                       if not e and not g.label for t in g.tiles]
        free_open = exposed[n:]
        for bound_free in _bindings(variation.free, placed, n, counts, deck):
            groups = head + bound_free
            if best is not None:  # skip what cannot beat the best so far
                wanted = Counter(itertools.chain(head_wanted, *(
                    g.tiles for g, e in zip(bound_free, free_open, strict=True)
                    if not e and not g.label)))
                ceiling = sum(min(n, wanted.get(t, 0)) for t, n in counts.items())
                if ceiling + jokers + exposed_tiles <= best[0]:
                    continue
            score = _filled(_fillings(groups, counts, jokers, exposed, all_jokers))
            if best is None or score > best[0]:
                best = (score, groups, exposed)
    return best


def match_line(line: Line, hand: Hand, deck: Deck, *, open_hands: bool = False,
               all_jokers: bool = True) -> LineMatch | None:
    """The nearest variation of a line, or None when the exposures rule it out."""
    if line.concealed and hand.exposures and not open_hands:
        return None
    best: tuple[int, int] | None = None  # (score, variation)
    counts, jokers = _held(hand, deck)
    exposed = sum(map(len, hand.exposures))
    for vi, variation in enumerate(line.variations):
        if best is not None and _ceiling(variation, counts) + jokers + exposed <= best[0]:
            continue  # cannot beat the best so far
        found = _best_filling(variation, counts, jokers, hand.exposures, deck, all_jokers)
        if found is not None and (best is None or found[0] > best[0]):
            best = (found[0], vi)
            if found[0] == line.size:
                break
    if best is None:
        return None
    filled = match_variation(line.variations[best[1]], hand, deck, all_jokers)
    assert filled is not None
    return LineMatch(line, line.size - best[0], best[1], tuple(tuple(g) for g in filled[1]))


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


class ReferenceMatcher:
    """The reference behind the compiled matcher's interface (the part a game
    uses), so a match can be played on either and the two compared."""

    def __init__(self, card: Card):
        self.card = card

    def scores(self, hand: Hand, *, open_hands: bool = False) -> list[tuple[int, int, int]]:
        lines = self.card.lines
        index = {line.id: i for i, line in enumerate(lines)}
        found = [(index[m.line.id], m.line.size - m.tiles_away, m.variation)
                 for m in match_card(self.card, hand, open_hands=open_hands)]
        return sorted(found)

    def is_complete(self, hand: Hand, *, open_hands: bool = False) -> LineMatch | None:
        done = completed(self.card, hand, open_hands=open_hands)
        return done[0] if done else None

    def allows(self, exposures: Sequence[Sequence[int]], *, open_hands: bool = False) -> bool:
        """Whether some line can take these exposures (any concealed tiles)."""
        return bool(self.scores(Hand((), tuple(map(tuple, exposures))), open_hands=open_hands))

    def allows_beside(self, exposures: tuple[tuple[int, ...], ...], more: tuple[int, ...], *,
                      open_hands: bool = False) -> bool:
        """allows() of these exposures and one more."""
        return self.allows((*exposures, more), open_hands=open_hands)

    def discard_scores(self, hand: Hand, *, open_hands: bool = False
                       ) -> dict[int, list[tuple[int, int, int]]]:
        """scores() of the hand less one tile, for each kind it holds concealed."""
        return {t: self.scores(hand.minus(t), open_hands=open_hands)
                for t in sorted(set(hand.concealed))}

    def discard_nearness(self, hand: Hand, *, open_hands: bool = False
                         ) -> dict[int, tuple[int, int] | None]:
        """Each discard_scores() answer as tiles away from the nearest line and
        how many lines are that near (None: no line)."""
        sizes = [line.size for line in self.card.lines]
        return {t: nearness(found, sizes)
                for t, found in self.discard_scores(hand, open_hands=open_hands).items()}

    def nearness(self, hand: Hand, *, open_hands: bool = False) -> tuple[int, int] | None:
        """scores() as tiles away from the nearest line and how many lines
        are that near (None: no line)."""
        return nearness(self.scores(hand, open_hands=open_hands),
                        [line.size for line in self.card.lines])

    def explain(self, hand: Hand, line: Line, variation: int) -> tuple[tuple[Slot, ...], ...]:
        """How the hand's tiles fill one variation of the line."""
        filled = match_variation(line.variations[variation], hand, self.card.deck,
                                 self.card.all_joker_groups)
        assert filled is not None
        return tuple(tuple(g) for g in filled[1])
