"""The compiled matcher: which lines a hand completes, and how near it is to each.

Two engines answer, both exact (the tests hold them to runtime/reference.py):

- Concrete variations (every tile named) are columns of a table. For a hand
  without exposures, every kind it holds adds one precomputed row: the
  naturals that kind fills in each variation, and how it changes the room
  left for jokers. A variation's score is min(N + J, N + R), so one gather,
  one sum and a few vector operations score every variation at once (or a
  matrix product scores a batch of hands).
- Variations with free groups, and any variation when the hand carries
  exposures, go through the structural programme (runtime/structure.py).

Scores are slots filled; tiles away = line size - best score. Ties: line
order, then variation order (DESIGN.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .card import Card, Line, Slots
from .hand import Hand
from .reference import ABSENT, Nearness, Slot, _Bound, _fill, _fits
from .structure import (
    NO_PIN,
    Demand,
    Frontier,
    GroupType,
    Pin,
    Shape,
    _slot_score,
    best_score,
    combine,
    component,
)
from .tables import IMPOSSIBLE, Component, ShapeTables, component_keys, load_or_build
from .tiles import Category

# hands scored together: enough to share the work, small enough for the cache
CHUNK, CHUNK_CELLS = 64, 1 << 18
SMALL = 64  # at most this many concrete variations: a matrix product is quicker

# ---------------------------------------------------------------------------
# What the compiler hands over: plain arrays beside the card.


@dataclass(frozen=True)
class Tables:
    """The concrete variations' table (built by jongg.compiler.matcher).

    Column i is variation `columns[i]` = (line index, variation index),
    grouped by line in card order; `starts` holds each such line's first
    column. Row `row_of[k] + c - 1` stands for kind k held c times; its cells
    (sparse, rows `indptr[r]:indptr[r+1]` of `cells`) give, per column it
    touches, the naturals filled and the change in joker room. `base_room` is
    each column's joker room when the hand holds nothing."""

    columns: np.ndarray  # (V, 2) int32
    starts: np.ndarray  # (L,) int64
    row_of: np.ndarray  # (kinds,) int32
    indptr: np.ndarray  # (R + 1,) int64
    cells: np.ndarray  # (3, nnz) int32: column, naturals, room change
    base_room: np.ndarray  # (V,) int32
    # The complete-hand index: row r's bits mark the columns a hand holding
    # that kind that many times may complete; a column's mandatory bits mark
    # the kinds a hand must hold to complete it (packed little-endian).
    completes: np.ndarray  # (R, ceil(V / 8)) uint8
    mandatory: np.ndarray  # (V, ceil(kinds / 8)) uint8

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in TABLE_ARRAYS}


TABLE_ARRAYS = ("columns", "starts", "row_of", "indptr", "cells", "base_room", "completes",
                "mandatory")


# ---------------------------------------------------------------------------
# Answers


@dataclass(eq=False)
class Match(Nearness):
    """How near a hand is to one line: the same fields as the reference's
    LineMatch; the filling (`groups`, `missing`) is worked out when asked."""

    line: Line
    tiles_away: int
    variation: int
    _matcher: Matcher = field(repr=False)
    _hand: Hand = field(repr=False)
    _groups: tuple[tuple[Slot, ...], ...] | None = field(default=None, repr=False)

    def filling(self) -> tuple[tuple[Slot, ...], ...]:
        if self._groups is None:
            self._groups = self._matcher.explain(self._hand, self.line, self.variation)
        return self._groups

    @property
    def groups(self) -> tuple[tuple[Slot, ...], ...]:
        return self.filling()


# ---------------------------------------------------------------------------
# Per-variation structure, for the programme


@dataclass(frozen=True, slots=True)
class _Plan:
    """A variation as the structural programme sees it."""

    line: int
    variation: int
    groups: tuple[Slots, ...]
    types: tuple[GroupType, ...]  # the free groups, one entry per group
    shape: Shape  # the free groups by type
    concealed: bool
    needs: dict[int, int]  # the concrete groups' tiles, counted
    free_size: int

    def ceiling(self, counts: dict[int, int], jokers: int, exposed: int) -> int:
        """No filling beats this: naturals fill at most the concrete slots of
        their tile and every free slot; jokers and exposed tiles come on top."""
        needs = self.needs
        return (sum(min(n, needs.get(t, 0)) for t, n in counts.items()) + self.free_size
                + jokers + exposed)


def _pins(groups: Iterable[Slots]) -> dict[int, Pin]:
    plain: dict[int, int] = {}
    joker: dict[int, list[int]] = {}
    for g in groups:
        if g.jokers and g.identical and g.size >= 3:
            joker.setdefault(g.tiles[0], []).append(g.size)
        else:
            for t in g.tiles:
                plain[t] = plain.get(t, 0) + 1
    return {k: Pin(plain.get(k, 0), tuple(joker.get(k, ()))) for k in {*plain, *joker}}


def _shape(types: Sequence[GroupType], all_jokers: bool) -> Shape:
    kinds = sorted(set(types), key=lambda t: (t.kind, t.jokers))
    return Shape(tuple(kinds), tuple(types.count(t) for t in kinds), all_jokers)


class Matcher:
    """Answers matching queries for one compiled card."""

    def __init__(self, card: Card, tables: Tables, *, open_hands: bool = False):
        self.card = card
        self.deck = card.deck
        self.tables = tables
        self.open_hands = open_hands
        joker = self.deck.joker
        self.joker = joker.index if joker else None
        self._memo: dict[Any, dict[Demand, Frontier]] = {}
        self._shape_tables: dict[Shape, ShapeTables] = {}
        t = tables
        self._line_of_start = [int(t.columns[s, 0]) for s in t.starts]
        self._columns = len(t.columns)
        self._big = self._columns + 1
        self._order = np.arange(self._columns, dtype=np.int32)
        self._base = t.base_room.astype(np.int16)
        self._variation_of = t.columns[:, 1]
        self._row_of = t.row_of.tolist()
        self._completes = [int.from_bytes(row.tobytes(), "little") for row in t.completes]
        self._mandatory = [int.from_bytes(row.tobytes(), "little") for row in t.mandatory]
        self._every_column = (1 << self._columns) - 1
        self._column_line = t.columns[:, 0].tolist()
        self._column_variation = t.columns[:, 1].tolist()

    # -- the deck's components -------------------------------------------------
    @cached_property
    def _components(self) -> list[tuple[tuple[int, ...], bool]]:
        deck = self.deck
        ordered = {s.code for s in deck.suits if s.ordered}
        comps: list[tuple[tuple[int, ...], bool]] = []
        for suit in deck.suits:
            kinds = sorted((k for k in deck.kinds if k.suit == suit.code and k.number is not None),
                           key=lambda k: k.number or 0)
            if suit.code in ordered:
                comps.append((tuple(k.index for k in kinds), True))
        loose = tuple(k.index for k in deck.kinds if k.category is not Category.JOKER
                      and not (k.suit in ordered and k.number is not None))
        if loose:
            comps.append((loose, False))
        return comps

    @cached_property
    def _component_of(self) -> dict[int, int]:
        return {k: ci for ci, (kinds, _) in enumerate(self._components) for k in kinds}

    @cached_property
    def _plans(self) -> list[list[_Plan]]:
        """Every variation's plan, by line."""
        out: list[list[_Plan]] = []
        for li, line in enumerate(self.card.lines):
            plans = []
            for vi, v in enumerate(line.variations):
                types = tuple(GroupType(f.kind, f.jokers) for f in v.free)
                plans.append(_Plan(li, vi, v.groups, types,
                                   _shape(types, self.card.all_joker_groups), line.concealed,
                                   dict(Counter(t for g in v.groups for t in g.tiles)),
                                   sum(t.size for t in types)))
            out.append(plans)
        return out

    @cached_property
    def _structural(self) -> list[_Plan]:
        return [p for plans in self._plans for p in plans if p.types]

    # -- scoring one variation by the programme --------------------------------
    def _seatings(self, plan: _Plan, exposures: Sequence[Sequence[int]]
                  ) -> list[tuple[frozenset[int], tuple[int, ...], tuple[int, ...]]]:
        """Ways to seat every exposure on its own group: the concrete groups
        taken, the free types taken (by index into plan.types), and the kinds
        an identical free group took."""
        options: list[list[tuple[str, int, int | None]]] = []
        for exposure in exposures:
            mine: list[tuple[str, int, int | None]] = []
            for gi, g in enumerate(plan.groups):
                if _fits(exposure, g.tiles, g.jokers, self.joker):
                    mine.append(("group", gi, None))
            for ti, t in enumerate(plan.types):
                kind = self._free_fit(exposure, t)
                if kind is not False:
                    mine.append(("free", ti, kind))
            if not mine:
                return []
            options.append(mine)
        seen = set()
        out = []
        for choice in itertools.product(*options):
            groups = [i for what, i, _ in choice if what == "group"]
            free = [i for what, i, _ in choice if what == "free"]
            kinds = [k for what, _, k in choice if what == "free" and k is not None]
            if len(set(groups)) < len(groups) or len(set(free)) < len(free) \
                    or len(set(kinds)) < len(kinds):
                continue
            key = (frozenset(groups), tuple(sorted(free)), tuple(sorted(kinds)))
            if key not in seen:
                seen.add(key)
                out.append((frozenset(groups), tuple(free), tuple(kinds)))
        return out

    def _free_fit(self, exposure: Sequence[int], t: GroupType) -> int | None | bool:
        """Whether an exposure is a whole free group of this type: the kind it
        binds for identical groups, None for a run, False when it does not fit."""
        naturals = [x for x in exposure if x != self.joker]
        if not naturals or len(exposure) != t.size:
            return False
        if len(set(naturals)) == 1 and t.identical_size == len(exposure):
            if len(naturals) < len(exposure) and not t.joker_ok:
                return False
            return naturals[0]
        if t.sequential and len(naturals) == 3 and tuple(sorted(naturals)) in self._runs:
            return None
        return False

    @cached_property
    def _runs(self) -> set[tuple[int, ...]]:
        out = set()
        for kinds, runs in self._components:
            if runs:
                out |= {kinds[i:i + 3] for i in range(len(kinds) - 2)}
        return out

    def _score(self, plan: _Plan, counts: dict[int, int], jokers: int,
               exposures: Sequence[Sequence[int]]) -> int | None:
        """The most slots of this variation the hand fills, or None when the
        exposures cannot all be whole groups of it."""
        if not jokers and not exposures and not plan.groups and plan.shape in self._shape_tables:
            held = np.zeros((1, len(self.deck.kinds)), dtype=np.int64)
            for k, c in counts.items():
                held[0, k] = c
            return int(self._shape_tables[plan.shape].best(held)[0])
        best: int | None = None
        for taken, free, kinds in self._seatings(plan, exposures) if exposures \
                else [(frozenset(), (), ())]:
            groups = [g for gi, g in enumerate(plan.groups) if gi not in taken]
            types = [t for ti, t in enumerate(plan.types) if ti not in free]
            shape = _shape(types, plan.shape.all_jokers) if free else plan.shape
            score = self._programme(shape, _pins(groups), counts, jokers, frozenset(kinds))
            score += sum(map(len, exposures))
            if best is None or score > best:
                best = score
        return best

    def _programme(self, shape: Shape, pins: dict[int, Pin], counts: dict[int, int],
                   jokers: int, forbid: frozenset[int], extra: int = 0) -> int:
        """The best score of free groups `shape` beside concrete `pins`;
        `extra` is joker room already promised elsewhere."""
        all_jokers = shape.all_jokers
        if not shape.types:  # concrete groups only: every kind stands alone
            n = c = 0
            for k in {*counts, *pins}:
                pin = pins.get(k, NO_PIN)
                a, b = _slot_score(counts.get(k, 0), pin.plain, pin.joker_groups, all_jokers)
                n, c = n + a, c + b
            return min(n + jokers, c + extra)
        parts = []
        touched = {self._component_of[k] for k in counts}
        for ci, (kinds, runs) in enumerate(self._components):
            if ci not in touched:
                for k in kinds:
                    if k in pins:
                        extra += _slot_score(0, pins[k].plain, pins[k].joker_groups,
                                             all_jokers)[1]
                continue
            xs = tuple(counts.get(k, 0) for k in kinds)
            ps = tuple(pins.get(k, NO_PIN) for k in kinds)
            fs = tuple(k in forbid for k in kinds)
            if not runs and not pins and not forbid:
                key: Any = (shape, tuple(sorted(xs)))  # loose kinds are interchangeable
                xs = tuple(sorted(xs))
            else:
                key = (shape, ci, xs, ps, fs)
            part = self._memo.get(key)
            if part is None:
                if len(self._memo) > 500_000:
                    self._memo.clear()
                part = component(shape, xs, runs, ps, fs)
                self._memo[key] = part
            parts.append(part)
        return best_score(combine(parts, shape.demand), shape, jokers, extra)

    def _held(self, hand: Hand) -> tuple[dict[int, int], int]:
        """The hand's concealed naturals and jokers; a hand the deck cannot
        hold is refused (it would read another kind's row)."""
        counts, jokers = hand.naturals(self.joker)
        copies = self._copies
        for k, c in counts.items():
            if not 0 <= k < len(copies):
                raise ValueError(f"hand holds tile kind {k}, which {self.deck.name} has not")
            if c > copies[k]:
                raise ValueError(f"hand holds {c} {self.deck.code(k)}, but {self.deck.name} "
                                 f"holds {copies[k]}")
        return counts, jokers

    @cached_property
    def _copies(self) -> list[int]:
        return [k.copies for k in self.deck.kinds]

    # -- the concrete table ------------------------------------------------------
    def _column_scores(self, counts: dict[int, int], jokers: int) -> np.ndarray:
        """Every concrete column's score: min(N + J, N + R)."""
        row_of = self._row_of
        summed = self._dense[[row_of[k] + c - 1 for k, c in counts.items()]].sum(
            axis=0, dtype=np.int16)
        naturals = summed[: self._columns]
        return np.minimum(naturals + jokers, naturals + summed[self._columns:] + self._base)

    def _complete_columns(self, counts: dict[int, int]) -> list[int]:
        """The concrete columns a hand of the card's size, without exposures,
        completes: every kind held within the column's bounds, and every kind
        the column cannot do without held."""
        row_of, completes = self._row_of, self._completes
        candidates = self._every_column
        held = 0
        for k, c in counts.items():
            candidates &= completes[row_of[k] + c - 1]
            if not candidates:
                return []
            held |= 1 << k
        out = []
        while candidates:
            low = candidates & -candidates
            column = low.bit_length() - 1
            if not self._mandatory[column] & ~held:
                out.append(column)
            candidates ^= low
        return out

    @cached_property
    def _seat_index(self) -> tuple[dict[tuple[int, int, bool], np.ndarray],
                                   dict[int, list[int]], list[np.ndarray]]:
        """For hands with exposures: per (kind, size, jokers welcome) the
        columns whose one group holding that kind is such a group; per kind
        the columns where several groups hold it; per kind its joker room in
        each column when the hand holds none of it."""
        fits: dict[tuple[int, int, bool], list[int]] = {}
        crowded: dict[int, list[int]] = {}
        room0: list[list[tuple[int, int]]] = [[] for _ in self.deck.kinds]
        all_jokers = self.card.all_joker_groups
        for col, (li, vi) in enumerate(self.tables.columns.tolist()):
            groups = self.card.lines[li].variations[vi].groups
            holding: dict[int, list[Slots]] = {}
            for g in groups:
                for k in set(g.tiles):
                    holding.setdefault(k, []).append(g)
            for k, gs in holding.items():
                if len(gs) > 1:
                    crowded.setdefault(k, []).append(col)
                elif gs[0].identical:
                    g = gs[0]
                    fits.setdefault((k, g.size, g.jokers and g.size >= 3), []).append(col)
            for k, pin in _pins(groups).items():
                room0[k].append((col, _slot_score(0, pin.plain, pin.joker_groups, all_jokers)[1]))
        rooms = []
        for entries in room0:
            dense = np.zeros(self._columns, dtype=np.int16)
            for col, room in entries:
                dense[col] = room
            rooms.append(dense)
        return ({key: np.array(cols) for key, cols in fits.items()}, crowded, rooms)

    @cached_property
    def _concealed_columns(self) -> np.ndarray:
        return np.array([self.card.lines[li].concealed for li in self._column_line], dtype=bool)

    def _exposed_columns(self, counts: dict[int, int], jokers: int,
                         exposures: Sequence[Sequence[int]], open_hands: bool
                         ) -> tuple[dict[int, tuple[int, int]], list[tuple[int, int]]] | None:
        """Per line, the best concrete column for a hand with exposures, and
        the (line, variation) pairs the table cannot settle (several groups
        hold an exposed kind). None when an exposure is not of one kind, or
        two are of the same kind: then every variation goes the long way."""
        kinds = []
        for exposure in exposures:
            named = {t for t in exposure if t != self.joker}
            if len(named) != 1:
                return None
            kinds.append(named.pop())
        if len(set(kinds)) < len(kinds):
            return None
        if not self._columns:
            return {}, []
        fits, crowded, room0 = self._seat_index
        t = self.tables
        v = self._columns
        row_of = self._row_of
        summed = self._dense[[row_of[k] + c - 1 for k, c in counts.items()]].sum(
            axis=0, dtype=np.int16)
        naturals, room = summed[:v].copy(), summed[v:] + self._base
        seated = np.ones(v, dtype=bool)
        slow: set[int] = set()
        for exposure, k in zip(exposures, kinds, strict=True):
            size, with_jokers = len(exposure), self.joker in exposure
            here = np.zeros(v, dtype=bool)
            for welcome in ((True,) if with_jokers else (True, False)):
                cols = fits.get((k, size, welcome))
                if cols is not None:
                    here[cols] = True
            seated &= here
            slow.update(crowded.get(k, ()))
            c = counts.get(k, 0)  # the exposed group takes kind k's slots away
            if c:
                r = row_of[k] + c - 1
                a, b = int(t.indptr[r]), int(t.indptr[r + 1])
                naturals[t.cells[0, a:b]] -= t.cells[1, a:b]
                room[t.cells[0, a:b]] -= t.cells[2, a:b]
            room -= room0[k]
        if not open_hands:
            seated &= ~self._concealed_columns
        score = np.minimum(naturals + jokers, naturals + room) + sum(map(len, exposures))
        score = np.where(seated, score, IMPOSSIBLE)
        scores, variations = self._best_columns(score)
        best = {li: (s, vi) for li, s, vi in zip(self._line_of_start, scores.tolist(),
                                                 variations.tolist(), strict=True) if s >= 0}
        return best, [(self._column_line[c], self._column_variation[c]) for c in sorted(slow)]

    def _best_columns(self, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per line with columns (along the last axis): the best score and the
        first variation reaching it."""
        keys = np.maximum.reduceat(score.astype(np.int32) * self._big - self._order,
                                   self.tables.starts, axis=-1)
        best = -((-keys) // self._big)
        return best, self._variation_of[best * self._big - keys]

    # -- queries -------------------------------------------------------------------
    def scores(self, hand: Hand, *, open_hands: bool | None = None
               ) -> list[tuple[int, int, int]]:
        """(line index, best score, variation index) for every line the
        exposures allow, in card order."""
        open_hands = self.open_hands if open_hands is None else open_hands
        counts, jokers = self._held(hand)
        best: dict[int, tuple[int, int]] = {}
        plans: Iterable[_Plan] = self._structural
        if not hand.exposures:
            if self._columns:
                scores, variations = self._best_columns(self._column_scores(counts, jokers))
                best = dict(zip(self._line_of_start, zip(scores.tolist(), variations.tolist(),
                                                         strict=True), strict=True))
        else:
            exposed_columns = self._exposed_columns(counts, jokers, hand.exposures, open_hands)
            if exposed_columns is None:  # exposures the table cannot seat: every plan
                plans = (p for plans in self._plans for p in plans)
            else:
                best, slow = exposed_columns
                plans = itertools.chain((self._plans[li][vi] for li, vi in slow), plans)
            plans = (p for p in plans if not (p.concealed and not open_hands))
        exposed = sum(map(len, hand.exposures))
        for plan in plans:
            old = best.get(plan.line)
            if old is not None:
                ceiling = plan.ceiling(counts, jokers, exposed)
                if ceiling < old[0] or (ceiling == old[0] and plan.variation > old[1]):
                    continue  # cannot beat the line's best so far
            found = self._score(plan, counts, jokers, hand.exposures)
            if found is None:
                continue
            if old is None or found > old[0] or (found == old[0] and plan.variation < old[1]):
                best[plan.line] = (found, plan.variation)
        return [(li, s, v) for li, (s, v) in sorted(best.items())]

    def tiles_away(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """Every line the exposures allow, nearest first (ties: line order)."""
        lines = self.card.lines
        found = [Match(lines[li], lines[li].size - s, v, self, hand)
                 for li, s, v in self.scores(hand, open_hands=open_hands)]
        found.sort(key=lambda m: m.tiles_away)
        return found

    def nearest(self, hand: Hand, k: int, *, open_hands: bool | None = None) -> list[Match]:
        """The k nearest lines."""
        return self.tiles_away(hand, open_hands=open_hands)[:k]

    def completions(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """The lines a hand of the card's size completes, highest value first."""
        if hand.size != self.card.hand_size:
            return []
        lines = self.card.lines
        done = [Match(lines[li], 0, v, self, hand)
                for li, s, v in self.scores(hand, open_hands=open_hands)
                if s == lines[li].size]
        done.sort(key=lambda m: -(m.line.value or 0))
        return done

    def is_complete(self, hand: Hand, *, open_hands: bool | None = None) -> Match | None:
        """The best line the hand completes (highest value, then card order), or None."""
        if hand.size != self.card.hand_size:
            return None
        if hand.exposures:
            done = self.completions(hand, open_hands=open_hands)
            return done[0] if done else None
        counts, jokers = self._held(hand)
        found: dict[int, int] = {}  # line -> first variation completed
        for column in self._complete_columns(counts):
            found.setdefault(self._column_line[column], self._column_variation[column])
        lines = self.card.lines
        for plan in self._structural:
            size = lines[plan.line].size
            if plan.variation < found.get(plan.line, plan.variation + 1) and \
                    plan.ceiling(counts, jokers, 0) >= size and \
                    self._score(plan, counts, jokers, ()) == size:
                found[plan.line] = plan.variation
        if not found:
            return None
        li = min(found, key=lambda li: (-(lines[li].value or 0), li))
        return Match(lines[li], 0, found[li], self, hand)

    # -- batches -------------------------------------------------------------------
    def counts_of(self, hands: Sequence[Hand]) -> tuple[np.ndarray, np.ndarray]:
        """Many hands' concealed tiles as (hands x kinds) counts of naturals and
        (hands,) jokers: the form the batch queries read."""
        kinds = len(self.deck.kinds)
        lengths = [len(h.concealed) for h in hands]
        tiles = np.fromiter(itertools.chain.from_iterable(h.concealed for h in hands),
                            dtype=np.int64, count=sum(lengths))
        if len(tiles) and not 0 <= tiles.min() <= tiles.max() < kinds:
            raise ValueError(f"a hand holds a tile kind {self.deck.name} has not")
        owner = np.repeat(np.arange(len(hands)), lengths)
        counts = np.bincount(owner * kinds + tiles, minlength=len(hands) * kinds)
        counts = counts.reshape(len(hands), kinds)
        if (counts > np.asarray(self._copies)).any():
            i = int(np.flatnonzero((counts > np.asarray(self._copies)).any(axis=1))[0])
            self._held(hands[i])  # raises, naming the tile
        jokers = np.zeros(len(hands), dtype=np.int64)
        if self.joker is not None:
            jokers = counts[:, self.joker].copy()
            counts[:, self.joker] = 0
        return counts, jokers

    def tiles_away_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Tiles away and the nearest variation of every line, for many hands:
        two (hands x lines) arrays, -1 where the exposures rule a line out."""
        lines = self.card.lines
        away = np.full((len(hands), len(lines)), -1, dtype=np.int16)
        which = np.full((len(hands), len(lines)), -1, dtype=np.int32)
        plain = [i for i, h in enumerate(hands) if not h.exposures]
        if plain:
            counts, jokers = self.counts_of([hands[i] for i in plain])
            away[plain], which[plain] = self.tiles_away_counts(counts, jokers)
        for i, hand in enumerate(hands):
            if hand.exposures:
                for li, s, v in self.scores(hand, open_hands=open_hands):
                    away[i, li], which[i, li] = lines[li].size - s, v
        return away, which

    def tiles_away_counts(self, counts: np.ndarray, jokers: np.ndarray | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
        """tiles_away_many for hands without exposures given as counts
        (counts_of): the concrete table a chunk at a time, and each structural
        line through its tables once prepare() built them."""
        lines = self.card.lines
        n = len(counts)
        if jokers is None:
            jokers = np.zeros(n, dtype=np.int64)
        best = np.full((n, len(lines)), -1, dtype=np.int32)
        which = np.full((n, len(lines)), -1, dtype=np.int32)
        if self._columns:
            chunk = max(CHUNK, CHUNK_CELLS // (2 * self._columns))
            scorer = self._small_scores if self._columns <= SMALL else self._count_scores
            for a in range(0, n, chunk):
                scores, variations = self._best_columns(
                    scorer(counts[a:a + chunk], jokers[a:a + chunk]))
                best[a:a + chunk, self._line_of_start] = scores
                which[a:a + chunk, self._line_of_start] = variations
        if self._structural:
            self._structural_counts(counts, jokers, best, which)
        sizes = np.array([line.size for line in lines])
        return np.where(best >= 0, sizes - best, -1).astype(np.int16), which

    def complete_counts(self, counts: np.ndarray, jokers: np.ndarray | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
        """For hands without exposures given as counts: the line each
        completes (highest value, then card order) and its variation, -1 for
        none. Structural lines with tables answer by bits (no scoring); what
        they cannot settle goes through tiles_away_counts."""
        n = len(counts)
        if jokers is None:
            jokers = np.zeros(n, dtype=np.int64)
        lines = self.card.lines
        done = np.zeros((n, len(lines)), dtype=bool)
        which = np.full((n, len(lines)), -1, dtype=np.int32)
        rest = jokers > 0  # hands the bits cannot settle
        plain = ~rest
        keys = component_keys(self._table_components, counts[plain]) \
            if self._shape_tables else None
        for plan in self._structural:
            tables = self._shape_tables.get(plan.shape) if not plan.groups else None
            bits = tables.complete(keys) if tables is not None and keys is not None else None
            if bits is None:
                rest[:] = True
                break
            rows = np.flatnonzero(plain)[bits]
            first = rows[which[rows, plan.line] < 0]
            done[first, plan.line] = True
            which[first, plan.line] = plan.variation
        if self._columns and not rest.all():
            rows = np.flatnonzero(~rest)
            supports = self._supports
            if supports is not None:  # a hand completes only columns holding all its kinds
                held_bits = self._held_bits(counts[rows])
                rows = rows[((held_bits[:, None] & ~supports[None, :]) == 0).any(axis=1)]
            scores, variations = self._best_columns(self._columns_scored(counts[rows],
                                                                         jokers[rows]))
            sizes = np.array([lines[li].size for li in self._line_of_start])
            hit = scores == sizes
            for j, li in enumerate(self._line_of_start):
                won = rows[hit[:, j]]
                better = won[(which[won, li] < 0) | (variations[hit[:, j], j] < which[won, li])]
                done[better, li] = True
                which[better, li] = variations[hit[:, j], j][np.isin(won, better)]
        if rest.any():
            away, slow_which = self.tiles_away_counts(counts[rest], jokers[rest])
            done[rest], which[rest] = away == 0, slow_which
        held = counts.sum(axis=1) + jokers
        done &= (held == self.card.hand_size)[:, None]
        pick = np.where(done, self._line_rank, len(self._line_rank)).argmin(axis=1)
        found = done[np.arange(n), pick]
        return np.where(found, pick, -1), np.where(found, which[np.arange(n), pick], -1)

    def _columns_scored(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """The concrete columns' scores, a chunk at a time."""
        chunk = max(CHUNK, CHUNK_CELLS // (2 * self._columns))
        scorer = self._small_scores if self._columns <= SMALL else self._count_scores
        return np.concatenate([scorer(counts[a:a + chunk], jokers[a:a + chunk])
                               for a in range(0, len(counts), chunk)])

    @cached_property
    def _line_rank(self) -> np.ndarray:
        lines = self.card.lines
        order = sorted(range(len(lines)), key=lambda li: (-(lines[li].value or 0), li))
        rank = np.empty(len(lines), dtype=np.int64)
        rank[order] = np.arange(len(lines))
        return rank

    def is_complete_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                         ) -> list[Match | None]:
        """is_complete for many hands."""
        out: list[Match | None] = [None] * len(hands)
        plain = [i for i, h in enumerate(hands) if not h.exposures]
        if plain:
            lines, variations = self.complete_counts(*self.counts_of([hands[i] for i in plain]))
            for i, li, vi in zip(plain, lines.tolist(), variations.tolist(), strict=True):
                if li >= 0:
                    out[i] = Match(self.card.lines[li], 0, vi, self, hands[i])
        for i, hand in enumerate(hands):
            if hand.exposures:
                out[i] = self.is_complete(hand, open_hands=open_hands)
        return out

    def _count_scores(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """Every concrete column's score for a few hands: the rows of the
        kinds each holds, gathered from the dense table and summed."""
        n = len(counts)
        owner, kind = np.nonzero(counts)
        rank = np.arange(len(owner)) - np.searchsorted(owner, owner)
        width = int(rank.max()) + 1 if len(rank) else 1
        rows = np.full((n, width), len(self._dense) - 1, dtype=np.intp)  # the zero row pads
        rows[owner, rank] = self._row_of_array[kind] + counts[owner, kind] - 1
        summed = self._dense[rows].sum(axis=1, dtype=np.int16)
        naturals = summed[:, : self._columns]
        return np.minimum(naturals + jokers[:, None].astype(np.int16),
                          naturals + summed[:, self._columns:] + self._base)

    def _small_scores(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """_count_scores for a small table: per kind the columns touch, its
        rows by count (row 0 all zeros), looked up for every hand at once."""
        summed = np.zeros((len(counts), 2 * self._columns), dtype=np.int16)
        for kind, rows in self._kind_rows:
            summed += rows[counts[:, kind]]
        naturals = summed[:, : self._columns]
        return np.minimum(naturals + jokers[:, None].astype(np.int16),
                          naturals + summed[:, self._columns:] + self._base)

    @cached_property
    def _kind_rows(self) -> list[tuple[int, np.ndarray]]:
        """(kind, its rows of the dense table under a row of zeros) for the
        kinds some column holds."""
        out = []
        for kind in self.deck.kinds:
            first = self._row_of[kind.index]
            if first < 0:
                continue
            rows = self._dense[first:first + kind.copies].astype(np.int16)
            if rows.any():
                out.append((kind.index, np.vstack([np.zeros((1, rows.shape[1]), np.int16),
                                                   rows])))
        return out

    @cached_property
    def _supports(self) -> np.ndarray | None:
        """Per column, the kinds it holds as bits (None past 64 kinds)."""
        if len(self.deck.kinds) > 64:
            return None
        bits = np.zeros(self._columns, dtype=np.uint64)
        for col, (li, vi) in enumerate(self.tables.columns.tolist()):
            for g in self.card.lines[li].variations[vi].groups:
                for k in g.tiles:
                    bits[col] |= np.uint64(1) << np.uint64(k)
        return bits

    def _held_bits(self, counts: np.ndarray) -> np.ndarray:
        powers = np.uint64(1) << np.arange(counts.shape[1], dtype=np.uint64)
        return np.bitwise_or.reduce(np.where(counts > 0, powers, np.uint64(0)), axis=1)

    def _need_vector(self, plan: _Plan) -> np.ndarray:
        need = np.zeros(len(self.deck.kinds), dtype=np.int64)
        for k, n in plan.needs.items():
            need[k] = n
        return need

    @cached_property
    def _row_of_array(self) -> np.ndarray:
        return np.asarray(self._row_of, dtype=np.intp)

    def _structural_counts(self, counts: np.ndarray, jokers: np.ndarray, best: np.ndarray,
                           which: np.ndarray) -> None:
        """Fold the structural variations' scores into `best`/`which`."""
        plain = jokers == 0
        every = bool(plain.all())
        jokerless = counts if every else counts[plain]
        keys = component_keys(self._table_components, jokerless) if self._shape_tables else None
        for plan in self._structural:
            found = np.full(len(counts), -1, dtype=np.int32)
            tables = self._shape_tables.get(plan.shape) if not plan.groups else None
            if tables is not None:
                scored = tables.best(jokerless, keys)
                if every:
                    found[:] = scored
                else:
                    found[plain] = scored
            li = plan.line
            rest = ~plain if tables is not None else np.ones_like(plain)
            if rest.any():
                ceiling = np.minimum(counts, self._need_vector(plan)).sum(axis=1) \
                    + plan.free_size + jokers
                old = best[:, li]
                rest &= (ceiling > old) | ((ceiling == old) & (plan.variation < which[:, li]))
            for i in np.flatnonzero(rest):
                held = {int(k): int(counts[i, k]) for k in np.flatnonzero(counts[i])}
                s = self._score(plan, held, int(jokers[i]), ())
                found[i] = -1 if s is None else s
            old, old_v = best[:, li], which[:, li]
            better = (found > old) | ((found == old) & (found >= 0) & (plan.variation < old_v))
            best[better, li] = found[better]
            which[better, li] = plan.variation

    def prepare(self, folder: Path | None = None) -> float:
        """Build (or load from `folder`) the tables of the structural lines
        for tiles_away_many; the seconds spent building."""
        built = 0.0
        for plan in self._structural:
            if plan.groups or plan.shape in self._shape_tables:
                continue
            tables, seconds = load_or_build(plan.shape, self._table_components,
                                            self.card.hand_size, folder)
            self._shape_tables[plan.shape] = tables
            built += seconds
        return built

    @cached_property
    def _table_components(self) -> list[Component]:
        """The components, loose kinds split by their number of copies (so
        that the kinds of one are interchangeable)."""
        out = []
        for kinds, runs in self._components:
            if runs:
                out.append(Component(kinds, True, max(self.deck.kinds[k].copies for k in kinds)))
                continue
            by_copies: dict[int, list[int]] = {}
            for k in kinds:
                by_copies.setdefault(self.deck.kinds[k].copies, []).append(k)
            out += [Component(tuple(ks), False, c) for c, ks in sorted(by_copies.items())]
        return out

    @cached_property
    def _dense(self) -> np.ndarray:
        """The table dense: row r = (naturals | room change) over the columns,
        and a last row of zeros for padding."""
        t, v = self.tables, self._columns
        dense = np.zeros((len(t.indptr), 2 * v), dtype=np.int8)
        for r in range(len(t.indptr) - 1):
            a, b = int(t.indptr[r]), int(t.indptr[r + 1])
            dense[r, t.cells[0, a:b]] = t.cells[1, a:b]
            dense[r, v + t.cells[0, a:b]] = t.cells[2, a:b]
        return dense

    # -- explaining ------------------------------------------------------------------
    def explain(self, hand: Hand, line: Line, variation: int) -> tuple[tuple[Slot, ...], ...]:
        """How the hand's tiles fill one variation: a filling that reaches the
        best score, group by group (free groups after the concrete ones)."""
        li = self.card.lines.index(line)
        plan = self._plans[li][variation]
        counts, jokers = self._held(hand)
        target = self._score(plan, counts, jokers, hand.exposures)
        for taken, free, kinds in self._seatings(plan, hand.exposures) if hand.exposures \
                else [(frozenset(), (), ())]:
            filling = self._explain_seated(plan, hand, counts, jokers, taken, free, kinds)
            if filling is not None and filling[0] == target:
                return filling[1]
        raise AssertionError("no filling reaches the score")  # the engines disagree: a bug

    def _explain_seated(self, plan: _Plan, hand: Hand, counts: dict[int, int], jokers: int,
                        taken: frozenset[int], free: tuple[int, ...], kinds: tuple[int, ...]
                        ) -> tuple[int, tuple[tuple[Slot, ...], ...]] | None:
        exposures = list(hand.exposures)
        bound: list[_Bound | None] = [None] * (len(plan.groups) + len(plan.types))
        exposed = [False] * len(bound)
        # exposures: seat them in the order the seating found
        for exposure in exposures:
            for gi in taken:
                if bound[gi] is None and _fits(exposure, plan.groups[gi].tiles,
                                               plan.groups[gi].jokers, self.joker):
                    g = plan.groups[gi]
                    bound[gi], exposed[gi] = _Bound(g.tiles, g.jokers), True
                    break
            else:
                for ti in free:
                    slot = len(plan.groups) + ti
                    t = plan.types[ti]
                    if bound[slot] is None and self._free_fit(exposure, t) is not False:
                        shape = tuple(sorted(x for x in exposure if x != self.joker))
                        if len(set(shape)) == 1:
                            shape = (shape[0],) * t.size
                        bound[slot] = _Bound(shape, t.joker_ok and len(set(shape)) == 1)
                        exposed[slot] = True
                        break
        for gi, g in enumerate(plan.groups):
            if bound[gi] is None:
                bound[gi] = _Bound(g.tiles, g.jokers)
        # free groups: bind one at a time, keeping the best score reachable
        left = [ti for ti in range(len(plan.types)) if ti not in free]
        pinned = [plan.groups[gi] for gi in range(len(plan.groups)) if gi not in taken]
        forbid = set(kinds)
        exposed_size = sum(map(len, exposures))
        goal = self._bound_score(plan, left, pinned, counts, jokers, forbid, 0) + exposed_size
        extra_room = 0
        while left:
            ti = left.pop(0)
            t = plan.types[ti]
            for shape, joker_ok in self._candidate_shapes(t, counts, forbid):
                trial = [*pinned, Slots(shape, joker_ok)]
                f2 = forbid | ({shape[0]} if len(set(shape)) == 1 else set())
                if self._bound_score(plan, left, trial, counts, jokers, f2, extra_room) \
                        + exposed_size == goal:
                    pinned, forbid = trial, f2
                    bound[len(plan.groups) + ti] = _Bound(shape, joker_ok)
                    break
            else:
                extra_room += t.room(plan.shape.all_jokers)
                bound[len(plan.groups) + ti] = _Bound((ABSENT,) * t.size, t.joker_ok,
                                                      f"[{t.kind}]")
        score, slots = _fill([b for b in bound if b is not None], Counter(counts), jokers,
                             self.deck, exposed, self.card.all_joker_groups)
        return score, tuple(tuple(g) for g in slots)

    def _bound_score(self, plan: _Plan, left: list[int], pinned: list[Slots],
                     counts: dict[int, int], jokers: int, forbid: set[int], extra: int) -> int:
        """The best score with some free groups bound (as concrete groups)."""
        shape = _shape([plan.types[ti] for ti in left], plan.shape.all_jokers)
        return self._programme(shape, _pins(pinned), counts, jokers, frozenset(forbid), extra)

    def _candidate_shapes(self, t: GroupType, counts: dict[int, int], forbid: set[int]
                          ) -> list[tuple[tuple[int, ...], bool]]:
        out: list[tuple[tuple[int, ...], bool]] = []
        if t.identical_size:
            for k in sorted(counts):
                if k not in forbid:
                    out.append(((k,) * t.identical_size, t.joker_ok))
        if t.sequential:
            out += [(run, False) for run in sorted(self._runs) if any(counts.get(x) for x in run)]
        return out


