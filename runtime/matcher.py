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
from .tables import Component, ShapeTables, load_or_build
from .tiles import Category

CHUNK = 128  # hands scored together: enough to share the work, small enough for the cache

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
        self._order = np.arange(self._columns, dtype=np.float64)
        # per row: (index, weight) pairs over naturals [0, V) and room [V, 2V)
        cells = t.cells.astype(np.float64)
        both = [np.concatenate([np.stack([cells[0, a:b], cells[1, a:b]]),
                                np.stack([cells[0, a:b] + self._columns, cells[2, a:b]])], axis=1)
                for a, b in zip(t.indptr[:-1].tolist(), t.indptr[1:].tolist(), strict=True)]
        self._row_cells = both
        self._no_cells = np.zeros((2, 0))
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

    # -- the concrete table ------------------------------------------------------
    def _column_scores(self, counts: dict[int, int], jokers: int) -> np.ndarray:
        """Every concrete column's score: min(N + J, N + R)."""
        row_of = self._row_of
        parts = [self._row_cells[row_of[k] + c - 1] for k, c in counts.items()]
        cells = np.concatenate(parts, axis=1) if parts else self._no_cells
        v = self._columns
        summed = np.bincount(cells[0].astype(np.intp), weights=cells[1], minlength=2 * v)
        naturals = summed[:v]
        return np.minimum(naturals + jokers, naturals + summed[v:] + self.tables.base_room)

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

    def _best_columns(self, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per line with columns (along the last axis): the best score and the
        first variation reaching it."""
        keys = np.maximum.reduceat(score * self._big - self._order, self.tables.starts, axis=-1)
        best = -((-keys) // self._big)
        columns = (best * self._big - keys).astype(np.int64)
        return best.astype(np.int64), self._variation_of[columns]

    # -- queries -------------------------------------------------------------------
    def scores(self, hand: Hand, *, open_hands: bool | None = None
               ) -> list[tuple[int, int, int]]:
        """(line index, best score, variation index) for every line the
        exposures allow, in card order."""
        open_hands = self.open_hands if open_hands is None else open_hands
        counts, jokers = hand.naturals(self.joker)
        best: dict[int, tuple[int, int]] = {}
        if not hand.exposures:
            if self._columns:
                scores, variations = self._best_columns(self._column_scores(counts, jokers))
                best = dict(zip(self._line_of_start, zip(scores.tolist(), variations.tolist(),
                                                         strict=True), strict=True))
            plans: Iterable[_Plan] = self._structural
        else:
            plans = (p for plans in self._plans for p in plans
                     if not (p.concealed and not open_hands))
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
        counts, jokers = hand.naturals(self.joker)
        found: dict[int, int] = {}  # line -> first variation completed
        for column in self._complete_columns(counts):
            found.setdefault(self._column_line[column], self._column_variation[column])
        lines = self.card.lines
        for plan in self._structural:
            if plan.variation < found.get(plan.line, plan.variation + 1) and \
                    self._score(plan, counts, jokers, ()) == lines[plan.line].size:
                found[plan.line] = plan.variation
        if not found:
            return None
        li = min(found, key=lambda li: (-(lines[li].value or 0), li))
        return Match(lines[li], 0, found[li], self, hand)

    # -- batches -------------------------------------------------------------------
    def tiles_away_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Tiles away and the nearest variation of every line, for many hands:
        two (hands x lines) arrays, -1 where the exposures rule a line out.
        Hands without exposures share one pass over the concrete table, and
        one pass over each structural line's tables once prepare() built them."""
        lines = self.card.lines
        sizes = np.array([line.size for line in lines])
        best = np.full((len(hands), len(lines)), -1, dtype=np.int32)  # score
        which = np.full((len(hands), len(lines)), -1, dtype=np.int32)
        plain = [i for i, h in enumerate(hands) if not h.exposures]
        if plain and self._columns:
            scores, variations = self._best_columns(self._batch_scores([hands[i] for i in plain]))
            rows = np.array(plain)[:, None]
            best[rows, self._line_of_start] = scores
            which[rows, self._line_of_start] = variations
        if plain and self._structural:
            self._structural_many([hands[i] for i in plain], np.array(plain), best, which)
        for i, hand in enumerate(hands):
            if hand.exposures:
                for li, s, v in self.scores(hand, open_hands=open_hands):
                    best[i, li], which[i, li] = s, v
        away = np.where(best >= 0, sizes - best, -1).astype(np.int16)
        return away, which

    def _structural_many(self, hands: Sequence[Hand], rows: np.ndarray, best: np.ndarray,
                         which: np.ndarray) -> None:
        """Fold the structural variations' scores into `best`/`which` (rows of
        the hands, which carry no exposures)."""
        counts = np.zeros((len(hands), len(self.deck.kinds)), dtype=np.int64)
        jokers = np.zeros(len(hands), dtype=bool)
        held = []
        for i, hand in enumerate(hands):
            c, j = hand.naturals(self.joker)
            held.append((c, j))
            jokers[i] = j > 0
            for k, n in c.items():
                counts[i, k] = n
        for plan in self._structural:
            found = np.full(len(hands), -1, dtype=np.int32)
            tables = self._shape_tables.get(plan.shape) if not plan.groups else None
            slow = np.flatnonzero(jokers) if tables is not None else np.arange(len(hands))
            if tables is not None:
                fast = np.flatnonzero(~jokers)
                found[fast] = tables.best(counts[fast])
            for i in slow.tolist():
                s = self._score(plan, held[i][0], held[i][1], ())
                found[i] = -1 if s is None else s
            li = plan.line
            old, old_v = best[rows, li], which[rows, li]
            better = (found > old) | ((found == old) & (found >= 0) & (plan.variation < old_v))
            best[rows[better], li] = found[better]
            which[rows[better], li] = plan.variation

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

    def is_complete_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                         ) -> list[Match | None]:
        """is_complete for many hands."""
        away, which = self.tiles_away_many(hands, open_hands=open_hands)
        lines = self.card.lines
        out: list[Match | None] = []
        for i, hand in enumerate(hands):
            done = [li for li in np.flatnonzero(away[i] == 0).tolist()]
            if hand.size != self.card.hand_size or not done:
                out.append(None)
                continue
            li = min(done, key=lambda li: (-(lines[li].value or 0), li))
            out.append(Match(lines[li], 0, int(which[i, li]), self, hand))
        return out

    def _batch_scores(self, hands: Sequence[Hand]) -> np.ndarray:
        """Every concrete column's score for each hand (hands x columns), in
        chunks small enough for the cache."""
        return np.concatenate([self._chunk_scores(hands[i:i + CHUNK])
                               for i in range(0, len(hands), CHUNK)])

    def _chunk_scores(self, hands: Sequence[Hand]) -> np.ndarray:
        row_of, row_cells = self._row_of, self._row_cells
        width = 2 * self._columns
        parts: list[np.ndarray] = []
        offsets: list[int] = []
        lengths: list[int] = []
        jokers = np.zeros((len(hands), 1))
        for i, hand in enumerate(hands):
            counts, jokers[i, 0] = hand.naturals(self.joker)
            for k, c in counts.items():
                part = row_cells[row_of[k] + c - 1]
                parts.append(part)
                offsets.append(i * width)
                lengths.append(part.shape[1])
        if not parts:
            parts.append(self._no_cells)
        cells = np.concatenate(parts, axis=1)
        index = cells[0].astype(np.intp) + np.repeat(np.array(offsets, dtype=np.intp), lengths)
        summed = np.bincount(index, weights=cells[1], minlength=len(hands) * width)
        summed = summed.reshape(len(hands), width)
        naturals = summed[:, : self._columns]
        return np.minimum(naturals + jokers,
                          naturals + summed[:, self._columns:] + self.tables.base_room)

    # -- explaining ------------------------------------------------------------------
    def explain(self, hand: Hand, line: Line, variation: int) -> tuple[tuple[Slot, ...], ...]:
        """How the hand's tiles fill one variation: a filling that reaches the
        best score, group by group (free groups after the concrete ones)."""
        li = self.card.lines.index(line)
        plan = self._plans[li][variation]
        counts, jokers = hand.naturals(self.joker)
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


