"""Concrete variations as the columns of one table (docs/matcher.md).

Every variation whose tiles are all named is a column; every (kind, count)
a row holding, per column, the naturals that many tiles of the kind fill and
how they change the room left for jokers. A hand's rows summed give every
column's score min(N + J, N + R) at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from jongg.runtime.card import Card, Slots
from jongg.runtime.matching.structure import Pin, _slot_score
from jongg.runtime.matching.tables import IMPOSSIBLE

# hands scored together: enough to share the work, small enough for the cache
CHUNK, CHUNK_CELLS = 64, 1 << 18
SMALL = 64  # at most this many columns: a lookup per kind beats gathering rows


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


def pins(groups: Iterable[Slots]) -> dict[int, Pin]:
    """What concrete groups ask of each kind: plain slots, and joker groups."""
    plain: dict[int, int] = {}
    joker: dict[int, list[int]] = {}
    for g in groups:
        if g.jokers and g.identical and g.size >= 3:
            joker.setdefault(g.tiles[0], []).append(g.size)
        else:
            for t in g.tiles:
                plain[t] = plain.get(t, 0) + 1
    return {k: Pin(plain.get(k, 0), tuple(joker.get(k, ()))) for k in {*plain, *joker}}


class Columns:
    """The concrete variations of a card, scored for many hands at once."""

    def __init__(self, card: Card, tables: Tables):
        self.card = card
        self.tables = t = tables
        self.count = len(t.columns)
        self.line_of_start = [int(t.columns[s, 0]) for s in t.starts]
        self.column_line = t.columns[:, 0].tolist()
        self.column_variation = t.columns[:, 1].tolist()
        self._big = self.count + 1
        self._order = np.arange(self.count, dtype=np.int32)
        self._base = t.base_room.astype(np.int16)
        self._variation_of = t.columns[:, 1]
        self._row_of = t.row_of.tolist()
        self._completes = [int.from_bytes(row.tobytes(), "little") for row in t.completes]
        self._mandatory = [int.from_bytes(row.tobytes(), "little") for row in t.mandatory]
        self._every = (1 << self.count) - 1

    # -- one hand ------------------------------------------------------------------
    def scores(self, counts: dict[int, int], jokers: int) -> np.ndarray:
        """Every column's score for one hand without exposures."""
        row_of = self._row_of
        summed = self._dense[[row_of[k] + c - 1 for k, c in counts.items()]].sum(
            axis=0, dtype=np.int16)
        naturals = summed[: self.count]
        filled: np.ndarray = np.minimum(naturals + jokers,
                                        naturals + summed[self.count:] + self._base)
        return filled

    def best(self, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per line with columns (along the last axis): the best score and the
        first variation reaching it, through one key score * (V + 1) - column."""
        keys = np.maximum.reduceat(score.astype(np.int32) * self._big - self._order,
                                   self.tables.starts, axis=-1)
        best = -((-keys) // self._big)
        return best, self._variation_of[best * self._big - keys]

    def complete(self, counts: dict[int, int]) -> list[int]:
        """The columns a hand of the card's size, without exposures,
        completes: every kind held within the column's bounds, and every kind
        the column cannot do without held."""
        row_of, completes = self._row_of, self._completes
        candidates = self._every
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

    def exposed(self, counts: dict[int, int], jokers: int, exposures: Sequence[Sequence[int]],
                joker: int | None, open_hands: bool
                ) -> tuple[dict[int, tuple[int, int]], list[tuple[int, int]]] | None:
        """Per line, the best column for a hand with exposures, and the
        (line, variation) pairs the table cannot settle (several groups hold
        an exposed kind). None when an exposure is not of one kind, or two
        are of the same kind: then every variation goes the long way."""
        kinds = []
        for exposure in exposures:
            named = {t for t in exposure if t != joker}
            if len(named) != 1:
                return None
            kinds.append(named.pop())
        if len(set(kinds)) < len(kinds):
            return None
        if not self.count:
            return {}, []
        fits, crowded, room0 = self._seat_index
        t, v, row_of = self.tables, self.count, self._row_of
        summed = self._dense[[row_of[k] + c - 1 for k, c in counts.items()]].sum(
            axis=0, dtype=np.int16)
        naturals, room = summed[:v].copy(), summed[v:] + self._base
        seated = np.ones(v, dtype=bool)
        slow: set[int] = set()
        for exposure, k in zip(exposures, kinds, strict=True):
            here = np.zeros(v, dtype=bool)
            for welcome in ((True,) if joker in exposure else (True, False)):
                cols = fits.get((k, len(exposure), welcome))
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
            seated &= ~self._concealed
        score = np.minimum(naturals + jokers, naturals + room) + sum(map(len, exposures))
        scores, variations = self.best(np.where(seated, score, IMPOSSIBLE))
        best = {li: (s, vi) for li, s, vi in zip(self.line_of_start, scores.tolist(),
                                                 variations.tolist(), strict=True) if s >= 0}
        return best, [(self.column_line[c], self.column_variation[c]) for c in sorted(slow)]

    @cached_property
    def _seat_index(self) -> tuple[dict[tuple[int, int, bool], np.ndarray],
                                   dict[int, list[int]], list[np.ndarray]]:
        """Per (kind, size, jokers welcome) the columns whose one group
        holding that kind is such a group; per kind the columns where several
        groups hold it; per kind its joker room in each column when the hand
        holds none of it."""
        fits: dict[tuple[int, int, bool], list[int]] = {}
        crowded: dict[int, list[int]] = {}
        room0 = [np.zeros(self.count, dtype=np.int16) for _ in self.card.deck.kinds]
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
            for k, pin in pins(groups).items():
                room0[k][col] = _slot_score(0, pin.plain, pin.joker_groups,
                                            self.card.all_joker_groups)[1]
        return ({key: np.array(cols) for key, cols in fits.items()}, crowded, room0)

    @cached_property
    def _concealed(self) -> np.ndarray:
        return np.array([self.card.lines[li].concealed for li in self.column_line], dtype=bool)

    # -- many hands ----------------------------------------------------------------
    def batch(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """Every column's score for many hands without exposures, given as
        (hands x kinds) counts: a chunk at a time, so the work stays in the
        cache."""
        chunk = max(CHUNK, CHUNK_CELLS // (2 * self.count))
        scorer = self._small if self.count <= SMALL else self._gathered
        return np.concatenate([scorer(counts[a:a + chunk], jokers[a:a + chunk])
                               for a in range(0, len(counts), chunk)])

    def _gathered(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """The rows of the kinds each hand holds, gathered and summed."""
        owner, kind = np.nonzero(counts)
        rank = np.arange(len(owner)) - np.searchsorted(owner, owner)
        width = int(rank.max()) + 1 if len(rank) else 1
        rows = np.full((len(counts), width), len(self._dense) - 1, dtype=np.intp)  # zero row
        rows[owner, rank] = self._row_of_array[kind] + counts[owner, kind] - 1
        return self._apply(self._dense[rows].sum(axis=1, dtype=np.int16), jokers)

    def _small(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """For a small table: per kind the columns hold, its rows by count
        (row 0 all zeros), looked up for every hand at once."""
        summed = np.zeros((len(counts), 2 * self.count), dtype=np.int16)
        for kind, rows in self._kind_rows:
            summed += rows[counts[:, kind]]
        return self._apply(summed, jokers)

    def _apply(self, summed: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        naturals = summed[:, : self.count]
        filled: np.ndarray = np.minimum(naturals + jokers[:, None].astype(np.int16),
                                        naturals + summed[:, self.count:] + self._base)
        return filled

    def may_complete(self, counts: np.ndarray) -> np.ndarray:
        """Which hands (counts) hold only kinds some column holds: no other
        can complete a column."""
        supports = self._supports
        if supports is None:
            return np.ones(len(counts), dtype=bool)
        powers = np.uint64(1) << np.arange(counts.shape[1], dtype=np.uint64)
        held = np.bitwise_or.reduce(np.where(counts > 0, powers, np.uint64(0)), axis=1)
        able: np.ndarray = ((held[:, None] & ~supports[None, :]) == 0).any(axis=1)
        return able

    @cached_property
    def _supports(self) -> np.ndarray | None:
        """Per column, the kinds it holds as bits (None past 64 kinds)."""
        if len(self.card.deck.kinds) > 64:
            return None
        bits = np.zeros(self.count, dtype=np.uint64)
        for col, (li, vi) in enumerate(self.tables.columns.tolist()):
            for g in self.card.lines[li].variations[vi].groups:
                for k in g.tiles:
                    bits[col] |= np.uint64(1) << np.uint64(k)
        return bits

    @cached_property
    def _kind_rows(self) -> list[tuple[int, np.ndarray]]:
        out = []
        for kind in self.card.deck.kinds:
            first = self._row_of[kind.index]
            if first < 0:
                continue
            rows = self._dense[first:first + kind.copies].astype(np.int16)
            if rows.any():
                out.append((kind.index, np.vstack([np.zeros((1, rows.shape[1]), np.int16),
                                                   rows])))
        return out

    @cached_property
    def _row_of_array(self) -> np.ndarray:
        return np.asarray(self._row_of, dtype=np.intp)

    @cached_property
    def _dense(self) -> np.ndarray:
        """The table dense: row r = (naturals | room change) over the columns,
        and a last row of zeros for padding."""
        t, v = self.tables, self.count
        dense = np.zeros((len(t.indptr), 2 * v), dtype=np.int8)
        for r in range(len(t.indptr) - 1):
            a, b = int(t.indptr[r]), int(t.indptr[r + 1])
            dense[r, t.cells[0, a:b]] = t.cells[1, a:b]
            dense[r, v + t.cells[0, a:b]] = t.cells[2, a:b]
        return dense
