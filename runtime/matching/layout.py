"""The table of a card's concrete variations as data (docs/matcher.md): the
arrays the compiler builds (Tables), the cuts of it exposures make (Seat,
Seated, SeatIndex), the layout one hand's keys are summed in (Keyed), and
`Layout`, what every use of the columns shares: their dense rows, each
column's size and rows by count held, and the weighing of one hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from jongg.runtime.card import Card, Slots, Variation
from jongg.runtime.matching.discards import (
    Terms,
    Weighing,
)
from jongg.runtime.matching.structure import Pin

# hands scored together: enough to share the work, small enough for the cache
CHUNK, CHUNK_CELLS = 64, 1 << 18
SMALL = 64  # at most this many columns: a lookup per kind beats gathering rows
FEW = 24  # at most this many seated columns: a hand is scored in plain Python



def set_bits(mask: int) -> Iterator[int]:
    """The positions of a mask's set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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
    # For a column standing for a variation with free groups bound to tiles
    # (compiler/matcher.py), the kind each free group is bound to; -1 past them.
    bound: np.ndarray  # (V, F) int32

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in TABLE_ARRAYS}


TABLE_ARRAYS = ("columns", "starts", "row_of", "indptr", "cells", "base_room", "completes",
                "mandatory", "bound")


def column_groups(variation: Variation, bound: Sequence[int]) -> tuple[Slots, ...]:
    """A column's groups: the variation's concrete ones, then its free groups
    as the column binds them (identical tiles; jokers where a group of three
    or more of the line allows them)."""
    free = tuple(Slots((int(k),) * f.size, f.jokers and f.size >= 3)
                 for f, k in zip(variation.free, bound, strict=False) if k >= 0)
    return variation.groups + free


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


# what the table knows of one kind in one column, for seating exposures: the
# (kind, size, jokers welcome) seats when one group holds the kind; when
# several do, per seat the (filled, capacity) of the kind's tiles in the other
# groups by count; the kind's joker room when none of it is held
Seating = tuple[list[tuple[int, int, bool]],
                list[tuple[tuple[int, int, bool], list[tuple[int, int]]]], int]


@dataclass(frozen=True)
class SeatIndex:
    """Where an exposure of one kind may sit, per (kind, size, jokers
    welcome): `fits`, the columns whose one group holding that kind is such
    a group; `partial`, columns where other groups hold the kind too, with
    what the kind's concealed tiles still fill there once the exposure took
    its group (filled and capacity per count); `crowded`, per kind, every
    column where several groups hold it; `room0`, per kind and column, the
    kind's joker room when none of it is held."""

    fits: dict[tuple[int, int, bool], np.ndarray]
    crowded: dict[int, list[int]]
    partial: dict[tuple[int, int, bool], tuple[np.ndarray, np.ndarray]]  # cols, (n, copies+1, 2)
    room0: np.ndarray  # (kinds, V) int16


@dataclass(frozen=True)
class Seat:
    """Exposures seated in the table: their kinds, the (line, variation)
    pairs the table cannot settle (several groups hold an exposed kind), the
    exposed tiles, and the table cut down to the columns where they can all
    be whole groups (None when there are none)."""

    kinds: tuple[int, ...]
    slow: list[tuple[int, int]]
    size: int
    seated: Seated | None


# Where other groups hold an exposed kind too: the kind, those columns, and
# per count held what its concealed tiles fill there and the room they leave
Partial = tuple[int, np.ndarray, np.ndarray, np.ndarray]
# A placing of exposures (Columns._place): their Seat without its cut, the
# seated columns, each column's joker room, and the kinds other groups hold too
Placed = tuple[Seat, np.ndarray, np.ndarray, list[Partial]]


@dataclass
class Seated:
    """The table cut down to the columns some exposures can sit on: a hand
    with them is scored on these few columns (usually a handful of the
    card's thousands) instead of all: no other column can take them.
    Positions below are within `cols`. Only `few` changes: it is built the
    first time a hand holding tiles is scored on a few columns (many
    exposures are only asked whether any line takes them)."""

    cols: np.ndarray  # (n,) int64: the columns, ascending (so grouped by line)
    lines: list[int]  # the lines they belong to, once each, in card order
    starts: np.ndarray  # (len(lines),) each line's first position
    dense: np.ndarray  # (rows + 1, 2n) int8: the table's rows on these columns
    base: np.ndarray  # (n,) int16: joker room when nothing is held, less the exposures'
    # per exposed kind with columns here where other groups hold it: their
    # positions, and per count held what they gain in naturals and joker room
    partial: tuple[tuple[int, np.ndarray, np.ndarray, np.ndarray], ...]
    # for a few columns, the same as plain numbers once built: per line, its
    # columns as (column, variation, joker room when nothing is held, and per
    # kind that counts there: naturals and change in joker room by count held)
    few: list[tuple[int, list[tuple[int, int, int, Terms]]]] | None = None
    # the cut as one hand is weighed on it (its discards, its nearness, each
    # line's best), once built
    weighing: Weighing | None = None


@dataclass(frozen=True)
class Keyed:
    """The table laid out for one hand's keys (Columns.line_keys): per row,
    the naturals half then the room half, each `width` lanes of type `lane`,
    `per_word` lanes to each 64-bit word of `words`; room lanes hold their
    change plus `bias`."""

    words: np.ndarray  # (rows + 1, 2 * width / per_word) int64
    naturals: np.ndarray  # the naturals half of words alone, contiguous (a hand without jokers)
    lane: type[np.signedinteger]
    width: int
    per_word: int
    bias: int
    room_most: int  # no room lane summed over a hand's rows passes it


def _few_scores(few: list[tuple[int, list[tuple[int, int, int, Terms]]]], counts: dict[int, int],
                jokers: int, exposed: int) -> dict[int, tuple[int, int]]:
    """Columns.exposed() on a cut of a few columns, in plain Python: per
    line the best score, the first column reaching it giving the variation."""
    out = {}
    for li, members in few:
        best = variation = -1 << 30
        for _, vi, room, terms in members:
            naturals = 0
            for k, filled, change in terms:
                held = counts.get(k)
                if held:
                    naturals += filled[held]
                    room += change[held]
            score = min(naturals + jokers, naturals + room) + exposed
            if score > best:
                best, variation = score, vi
        if best >= 0:
            out[li] = (best, variation)
    return out



class Layout:
    """A card's columns: what the scorers of one hand, of exposures and of
    many hands (columns.py, seating.py) all read."""

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
        self._seats: dict[tuple[tuple[tuple[int, ...], ...], bool], Seat | None] = {}
        # placings seat_bare() worked out, for seat() to cut if a hand is scored with them
        self._placed: dict[tuple[tuple[tuple[int, ...], ...], bool], Placed | None] = {}
        self._seat_bits: dict[tuple[int, int, bool], int] = {}
        self._placings: dict[tuple[int, int, bool],
                             tuple[np.ndarray, np.ndarray, frozenset[int], Partial | None]] = {}
        self._able_one: dict[tuple[tuple[int, ...], int | None], tuple[int, int]] = {}
        self._joker_added: dict[tuple[int, int], np.ndarray] = {}

    def groups(self, col: int) -> tuple[Slots, ...]:
        """The concrete groups column `col` stands for."""
        li, vi = self.column_line[col], self.column_variation[col]
        return column_groups(self.card.lines[li].variations[vi], self.tables.bound[col])

    @cached_property
    def covered(self) -> frozenset[tuple[int, int]]:
        """The (line, variation) pairs with free groups the columns stand for."""
        return frozenset((self.column_line[c], self.column_variation[c])
                         for c in np.flatnonzero((self.tables.bound >= 0).any(axis=1)).tolist())


    @cached_property
    def _starts(self) -> list[int]:
        return [int(s) for s in self.tables.starts]

    @cached_property
    def _count_rows(self) -> np.ndarray:
        """Per kind and count held, its row of the table (the zero row for
        none held, and for the joker): (kinds, most copies + 1)."""
        kinds = self.card.deck.kinds
        rows = np.full((len(kinds), max(k.copies for k in kinds) + 1), len(self._dense) - 1,
                       dtype=np.intp)
        for kind in kinds:
            first = self._row_of[kind.index]
            if first >= 0:
                rows[kind.index, 1:kind.copies + 1] = np.arange(first, first + kind.copies)
        return rows

    @cached_property
    def _weighing(self) -> Weighing:
        return Weighing(self._dense, self._base, self._column_sizes,
                        np.ascontiguousarray(self.tables.columns[:, 0], dtype=np.int32),
                        len(self.card.lines), 0, self._count_rows, self.column_variation,
                        list(zip(self.line_of_start, self._starts, strict=True)))

    def _seated_weighing(self, seat: Seat) -> Weighing:
        """A cut as one hand is weighed on it (it has columns; kept in the
        cut): an exposed kind's rows hold what its concealed tiles still
        fill once the exposures took their groups (nothing, but where other
        groups hold it too)."""
        cut = seat.seated
        assert cut is not None
        if cut.weighing is None:
            cols = cut.cols
            cut.weighing = Weighing(
                self._seated_dense(cut, seat.kinds), np.ascontiguousarray(cut.base, dtype=np.int16),
                (self._column_sizes[cols] - seat.size).astype(np.int16),
                np.ascontiguousarray(self.tables.columns[cols, 0], dtype=np.int32),
                len(self.card.lines), seat.size, self._count_rows,
                [self.column_variation[c] for c in cols.tolist()],
                list(zip(cut.lines, cut.starts.tolist(), strict=True)))
        return cut.weighing

    def _seated_dense(self, cut: Seated, kinds: Sequence[int]) -> np.ndarray:
        """The cut's rows with each exposed kind's saying what its concealed
        tiles fill after the exposures took their groups (Seated.partial)."""
        n = len(cut.cols)
        dense = cut.dense.copy()
        for k in kinds:  # an exposed kind fills only what `partial` says
            first = self._row_of[k]
            dense[first:first + self.card.deck.kinds[k].copies] = 0
        for k, at, filled, spare in cut.partial:
            first = self._row_of[k]
            for held in range(1, len(filled)):
                dense[first + held - 1, at] = filled[held]
                dense[first + held - 1, n + at] = spare[held]
        return dense

    @cached_property
    def _row_of_int32(self) -> np.ndarray:
        return np.ascontiguousarray(self.tables.row_of, dtype=np.int32)

    @cached_property
    def _column_sizes(self) -> np.ndarray:
        """Each column's line size."""
        sizes: np.ndarray = np.array([line.size for line in self.card.lines],
                                     dtype=np.int16)[self.tables.columns[:, 0]]
        return sizes

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
