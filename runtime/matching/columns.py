"""Concrete variations as the columns of one table (docs/matcher.md).

Every variation whose tiles are all named is a column; every (kind, count)
a row holding, per column, the naturals that many tiles of the kind fill and
how they change the room left for jokers. A hand's rows summed give every
column's score min(N + J, N + R) at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from jongg.runtime.card import Card, Slots, Variation
from jongg.runtime.matching import accelerated
from jongg.runtime.matching.discards import (
    MANY_NEAR,
    Terms,
    Weighed,
    Weighing,
    each_line_best,
    kind_terms,
    weigh,
)
from jongg.runtime.matching.structure import NO_PIN, Pin, _slot_score

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

    def line_scores(self, counts: dict[int, int], jokers: int) -> list[tuple[int, int, int]]:
        """(line, best score, variation) of each line with columns for one
        hand without exposures: line_best() as plain numbers, in one call of
        C where the accelerator is built."""
        found = each_line_best(self._weighing, self._row_of_int32, counts, jokers)
        if found is not None:
            return found
        scores, variations = self.line_best(counts, jokers)
        return list(zip(self.line_of_start, scores.tolist(), variations.tolist(), strict=True))

    def line_best(self, counts: dict[int, int], jokers: int) -> tuple[np.ndarray, np.ndarray]:
        """scores() then best() for one hand without exposures, in as few
        NumPy calls as can be (each costs about a microsecond: most of the
        work at this size). The rows are read from a copy of the table that
        holds each column's key, score * 2**b + (2**b - 1 - column), whose
        low bits keep the first column of a line's best score; one more row
        adds the joker room when nothing is held, and the low bits."""
        keys = self.line_keys(counts, jokers)
        return keys >> self._tie_bits, self._variation_of_tie[keys & self._tie_mask]

    def line_keys(self, counts: dict[int, int], jokers: int) -> np.ndarray:
        """Per line with columns, its best column's key (line_best): the
        hand's rows of the keyed table summed as 64-bit words of several
        lanes (fewer, wider additions; no lane ever carries into the next)."""
        n, keyed, rows = self.count, self._keyed, self._keyed_rows(counts)
        # take(), not [rows]: NumPy's fancy indexing costs twice as much at this size
        if jokers:
            summed = np.add.reduce(keyed.words.take(rows, axis=0), axis=0).view(keyed.lane)
            keys = summed[:n] + self._joker_keys(len(rows), jokers).take(
                summed[keyed.width:keyed.width + n])
        else:  # the joker room is never negative: without jokers, the naturals alone
            keys = np.add.reduce(keyed.naturals.take(rows, axis=0), axis=0).view(keyed.lane)[:n]
        found: np.ndarray = np.maximum.reduceat(keys, self.tables.starts)
        return found

    def line_key_list(self, counts: dict[int, int], jokers: int) -> list[int]:
        """line_keys() as a list: in one call of C where the accelerator is
        built (the hand's rows summed lane by lane, no NumPy call)."""
        if accelerated.line_keys is None:
            found: list[int] = self.line_keys(counts, jokers).tolist()
            return found
        keyed, rows = self._keyed, self._keyed_rows(counts)
        return accelerated.line_keys(keyed.words.view(keyed.lane), rows, keyed.width, self.count,
                                     self._starts, self._joker_keys(len(rows), jokers)
                                     if jokers else None)

    def _keyed_rows(self, counts: dict[int, int]) -> list[int]:
        """The keyed table's rows a hand sums: one per kind held (by count),
        and the base row."""
        row_of = self._row_of
        rows = [row_of[k] + c - 1 for k, c in counts.items()]
        rows.append(len(self._keyed.words) - 1)
        return rows

    @cached_property
    def _starts(self) -> list[int]:
        return [int(s) for s in self.tables.starts]

    def _joker_keys(self, rows: int, jokers: int) -> np.ndarray:
        """What the jokers add to a column's key, min(jokers, room) * 2**b,
        by its room lane summed over this many rows (each biased): read
        with one gather, not worked out with four calls."""
        known = self._joker_added.get((rows, jokers))
        if known is None:
            keyed = self._keyed
            lanes = np.arange(keyed.bias * rows, keyed.room_most + 1) - keyed.bias * rows
            known = np.zeros(keyed.room_most + 1, dtype=keyed.lane)
            known[keyed.bias * rows:] = np.minimum(lanes, jokers) << self._tie_bits
            self._joker_added[rows, jokers] = known
        return known

    def key_columns(self) -> tuple[np.ndarray, np.ndarray]:
        """Every key a line's best can have, by value (scores from 0 to the
        hand's size): its score, and its column (-1: no column has those
        low bits)."""
        keys = np.arange((self.card.hand_size + 1) << self._tie_bits)
        column = self._tie_mask - (keys & self._tie_mask)
        return keys >> self._tie_bits, np.where(column < self.count, column, -1)

    @cached_property
    def _tie_bits(self) -> int:
        return self.count.bit_length()

    @cached_property
    def _tie_mask(self) -> int:
        return (1 << self._tie_bits) - 1

    @cached_property
    def _keyed(self) -> Keyed:
        """The table's rows for line_keys: naturals times 2**b (the low bits
        in one more row, with the joker room when nothing is held), room
        changes plus a bias that keeps every lane at or above zero."""
        bits, n = self._tie_bits, self.count
        dense = self._dense
        bias = max(0, -int(dense[:, n:].min(initial=0)))
        kinds = len(self.card.deck.kinds) + 1  # rows a hand can sum, the last included
        room = (int(dense[:, n:].max(initial=0)) + bias + int(self._base.max(initial=0))) * kinds
        lane: type[np.signedinteger] = np.int16
        if (self.card.hand_size + 1) << bits > 1 << 15 or room >= 1 << 15:  # a key passes
            lane = np.int32
        per_word = 8 // np.dtype(lane).itemsize
        width = -(-n // per_word) * per_word  # each half padded to whole words
        keyed = np.zeros((len(dense), 2 * width), dtype=lane)
        keyed[:, :n] = dense[:, :n].astype(lane) << bits
        keyed[:, width:width + n] = dense[:, n:].astype(lane) + bias
        keyed[-1, :n] = self._tie_mask - np.arange(n)  # the padding row becomes the base
        keyed[-1, width:width + n] = self._base + bias
        words = keyed.view(np.int64)
        return Keyed(words, np.ascontiguousarray(words[:, :width // per_word]), lane, width,
                     per_word, bias, room)

    @cached_property
    def _variation_of_tie(self) -> np.ndarray:
        """The variation of the column whose low bits are the index."""
        out = np.zeros(self._tie_mask + 1, dtype=np.int64)
        out[self._tie_mask - np.arange(self.count)] = self._variation_of
        return out

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

    def seat(self, exposures: tuple[tuple[int, ...], ...], joker: int | None, open_hands: bool
             ) -> Seat | None:
        """Where the exposures sit in the table (kept: they change far less
        often than the concealed tiles). None when an exposure is not of one
        kind, or two are of the same kind: then every variation goes the
        long way."""
        key = (exposures, open_hands)
        if key in self._seats:
            return self._seats[key]
        found = self._seat(exposures, joker, open_hands)
        if len(self._seats) > 10_000:
            self._seats.clear()
        self._seats[key] = found
        return found

    def able(self, exposures: Sequence[Sequence[int]], joker: int | None) -> int:
        """The columns where each exposure has a group it could sit on (a
        mask, column i bit i): seat() seats them on no other column; 0 when
        it seats them on none (an exposure of several kinds, two of one).
        Each exposure's kind and mask are kept (a claim window asks of the
        same few exposures beside every set it could make)."""
        return self.able_held(exposures, joker)[0]

    def able_held(self, exposures: Sequence[Sequence[int]], joker: int | None
                  ) -> tuple[int, frozenset[int]]:
        """able(), and the kinds the exposures name: one more exposure
        beside them can sit where its own mask and theirs meet, unless it
        names one of these kinds (able_beside)."""
        mask = self._every
        kinds: set[int] = set()
        for exposure in exposures:
            k, here = self.able_one(exposure, joker)
            if k < 0 or k in kinds:
                return 0, frozenset()
            kinds.add(k)
            mask &= here
        return mask, frozenset(kinds)

    def able_one(self, exposure: Sequence[int], joker: int | None) -> tuple[int, int]:
        """One exposure's kind and the columns it could sit on ((-1, 0): it
        names no single kind), kept."""
        known = self._able_one
        key = (tuple(exposure), joker)
        one = known.get(key)
        if one is None:
            if len(known) > 10_000:
                known.clear()
            one = known[key] = self._exposure_mask(key[0], joker)
        return one

    def _exposure_mask(self, exposure: tuple[int, ...], joker: int | None) -> tuple[int, int]:
        """An exposure's kind and the columns it could sit on ((-1, 0): it
        names no single kind)."""
        named = {t for t in exposure if t != joker}
        if len(named) != 1:
            return -1, 0
        k = next(iter(named))
        here = 0
        for w in (True,) if joker in exposure else (True, False):
            here |= self._seat_mask((k, len(exposure), w))
        return k, here

    def _seat_mask(self, key: tuple[int, int, bool]) -> int:
        """The columns with a group an exposure of (kind, size, jokers
        welcome) could be, alone or beside others holding the kind."""
        mask = self._seat_bits.get(key)
        if mask is None:
            index = self._seat_index
            cols = [*index.fits.get(key, ()), *index.partial.get(key, ((),))[0]]
            mask = self._seat_bits[key] = sum(1 << int(c) for c in set(cols))
        return mask

    def seat_bare(self, exposures: tuple[tuple[int, ...], ...], joker: int | None,
                  open_hands: bool) -> tuple[Seat | None, bool]:
        """seat() without cutting the table down to the seated columns, for
        a hand of no concealed tiles: the Seat (its `seated` left None unless
        it was kept) and whether exposed() would score a line for it. Most
        exposures a claim window asks about are never held, so their cut
        would never be read."""
        key = (exposures, open_hands)
        if key in self._seats:
            seat = self._seats[key]
            return seat, seat is not None and bool(self.exposed({}, 0, seat))
        if key not in self._placed:
            if len(self._placed) > 10_000:
                self._placed.clear()
            self._placed[key] = self._place(exposures, joker, open_hands)
        placed = self._placed[key]
        if placed is None:
            return None, False
        seat, cols, room, _ = placed
        if not len(cols):
            return seat, False
        # exposed() of no tiles: per column, min(0, its joker room) plus the exposed tiles
        base = (self._base[cols] + room[cols]).astype(np.int16)
        return seat, bool((np.minimum(base, 0) + np.int16(seat.size) >= 0).any())

    def _seat(self, exposures: tuple[tuple[int, ...], ...], joker: int | None,
              open_hands: bool) -> Seat | None:
        key = (exposures, open_hands)
        placed = self._placed.pop(key) if key in self._placed else \
            self._place(exposures, joker, open_hands)
        if placed is None:
            return None
        seat, cols, room, partial = placed
        if not len(cols):
            return seat
        return Seat(seat.kinds, seat.slow, seat.size, self._cut(cols, room, partial))

    def _place(self, exposures: tuple[tuple[int, ...], ...], joker: int | None,
               open_hands: bool) -> Placed | None:
        """Where the exposures can all be whole groups: their Seat without
        its cut, the seated columns, each column's joker room and the kinds
        other groups hold too (None: an exposure is not of one kind, or two
        are of the same kind)."""
        kinds = []
        for exposure in exposures:
            named = {t for t in exposure if t != joker}
            if len(named) != 1:
                return None
            kinds.append(named.pop())
        if len(set(kinds)) < len(kinds):
            return None
        if not self.count:
            return Seat(tuple(kinds), [], 0, None), np.zeros(0, dtype=np.intp), \
                np.zeros(0, dtype=np.int16), []
        v = self.count
        seated = np.ones(v, dtype=bool)
        slow: set[int] = set()
        room = np.zeros(v, dtype=np.int16)
        partial = []
        for exposure, k in zip(exposures, kinds, strict=True):
            here, taken, own_slow, kept = self._placing(k, len(exposure), joker in exposure)
            seated &= here
            room += taken
            slow |= own_slow
            if kept is not None:
                partial.append(kept)
        if not open_hands:
            seated &= ~self._concealed
        seated[sorted(slow)] = False
        return Seat(tuple(kinds),
                    [(self.column_line[c], self.column_variation[c]) for c in sorted(slow)],
                    sum(map(len, exposures)), None), np.flatnonzero(seated), room, partial

    def _placing(self, k: int, size: int, jokered: bool
                 ) -> tuple[np.ndarray, np.ndarray, frozenset[int], Partial | None]:
        """Where one exposure of kind k (with a joker or not) can be a whole
        group, whatever beside it: the columns, what it changes in each
        column's joker room, the columns where it could be either of two
        groups, and where other groups hold kind k too what they keep (kept
        per exposure: a claim window asks of the same few again and again).
        Columns another exposure makes slow are read by no one after."""
        key = (k, size, jokered)
        known = self._placings.get(key)
        if known is not None:
            return known
        index, v = self._seat_index, self.count
        here = np.zeros(v, dtype=bool)
        welcome = (True,) if jokered else (True, False)
        for w in welcome:
            cols = index.fits.get((k, size, w))
            if cols is not None:
                here[cols] = True
        taken = -index.room0[k]  # the exposed group takes kind k's slots away
        # where other groups hold kind k too, they keep what it fills
        rest: dict[int, np.ndarray] = {}
        slow: set[int] = set()
        for w in welcome:
            found = index.partial.get((k, size, w))
            if found is not None:
                for col, rows in zip(found[0].tolist(), found[1], strict=True):
                    if col in rest:
                        slow.add(col)  # the exposure could be either group
                    rest[col] = rows
        kept = None
        cols = np.array(sorted(set(rest) - slow), dtype=np.intp)
        if len(cols):
            here[cols] = True
            rows = np.stack([rest[c] for c in cols.tolist()])  # (n, copies + 1, 2)
            empty = rows[:, 0, 1]
            taken[cols] += empty
            kept = (k, cols, rows[:, :, 0].T.copy(),
                    (rows[:, :, 1] - rows[:, :, 0] - empty[:, None]).T.copy())
        known = self._placings[key] = (here, taken, frozenset(slow), kept)
        return known

    def _cut(self, cols: np.ndarray, room: np.ndarray,
             partial: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]) -> Seated:
        """The table on the seated columns alone (there are some)."""
        lines = [self.column_line[c] for c in cols.tolist()]
        starts = [i for i, li in enumerate(lines) if i == 0 or li != lines[i - 1]]
        dense = self._dense[:, np.concatenate([cols, self.count + cols])]
        position = np.full(self.count, -1, dtype=np.intp)
        position[cols] = np.arange(len(cols))
        kept = []
        for k, pcols, filled, spare in partial:
            at = position[pcols]
            mine = at >= 0
            if mine.any():
                kept.append((k, at[mine], filled[:, mine], spare[:, mine]))
        base = (self._base[cols] + room[cols]).astype(np.int16)
        return Seated(cols, [lines[i] for i in starts], np.array(starts, dtype=np.intp), dense,
                      base, tuple(kept))

    def _few(self, cut: Seated, weighing: Weighing
             ) -> list[tuple[int, list[tuple[int, int, int, Terms]]]]:
        """A cut's columns as plain numbers (Seated.few): what each kind held
        c times adds to a column, after the exposures took their groups."""
        cols, base, n = cut.cols, cut.base, len(cut.cols)
        by_count = weighing.dense[self._count_rows].astype(np.int16)  # kind, count held, column
        terms = kind_terms(by_count, n)
        out: list[tuple[int, list[tuple[int, int, int, Terms]]]] = []
        for i, col in enumerate(cols.tolist()):
            li = self.column_line[col]
            if not out or out[-1][0] != li:
                out.append((li, []))
            out[-1][1].append((col, self.column_variation[col], int(base[i]), terms[i]))
        return out

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

    def exposed(self, counts: dict[int, int], jokers: int, seat: Seat
                ) -> dict[int, tuple[int, int]]:
        """Per line, the best column for a hand with exposures seated so:
        scored on the seated columns alone (no other can take them)."""
        cut = seat.seated
        if cut is None:
            return {}
        found = each_line_best(self._seated_weighing(seat), self._row_of_int32, counts, jokers,
                               least=0)
        if found is not None:  # in one call of C
            return {li: (s, vi) for li, s, vi in found}
        if len(cut.cols) <= FEW and (counts or cut.few is not None):
            if cut.few is None:
                cut.few = self._few(cut, self._seated_weighing(seat))
            return _few_scores(cut.few, counts, jokers, seat.size)
        row_of, n = self._row_of, len(cut.cols)
        # the cut's rows with an exposed kind's saying what its concealed tiles fill
        summed = self._seated_weighing(seat).dense[[row_of[k] + c - 1 for k, c in counts.items()]
                                                    ].sum(axis=0, dtype=np.int16)
        naturals = summed[:n]
        score = np.minimum(naturals + np.int16(jokers), naturals + summed[n:] + cut.base) \
            + np.int16(seat.size)
        keys = np.maximum.reduceat(score.astype(np.int32) * self._big - cut.cols, cut.starts)
        best = -((-keys) // self._big)
        variations = self._variation_of[best * self._big - keys]
        return {li: (s, vi) for li, s, vi in zip(cut.lines, best.tolist(), variations.tolist(),
                                                 strict=True) if s >= 0}

    @cached_property
    def _seat_index(self) -> SeatIndex:
        fits: dict[tuple[int, int, bool], list[int]] = {}
        crowded: dict[int, list[int]] = {}
        partial: dict[tuple[int, int, bool], tuple[list[int], list[list[tuple[int, int]]]]] = {}
        room0 = np.zeros((len(self.card.deck.kinds), self.count), dtype=np.int16)
        # a variation's columns differ only in the kinds their free groups are
        # bound to: what the other kinds say is worked out once per variation
        said: dict[tuple[int, int], dict[int, Seating]] = {}
        for col in range(self.count):
            li, vi = self.column_line[col], self.column_variation[col]
            variation = self.card.lines[li].variations[vi]
            bound = [int(k) for k in self.tables.bound[col] if k >= 0]
            known = said.get((li, vi))
            if known is None:
                known = said[li, vi] = self._seatings(variation.groups, None)
            mine = known
            if bound:
                groups = column_groups(variation, bound)
                mine = {**known, **self._seatings(groups, set(bound))}
            for k, (keys, spares, empty) in mine.items():
                room0[k, col] = empty
                for key in keys:
                    fits.setdefault(key, []).append(col)
                if spares:
                    crowded.setdefault(k, []).append(col)
                for key, rows in spares:
                    cols, found = partial.setdefault(key, ([], []))
                    cols.append(col)
                    found.append(rows)
        return SeatIndex({key: np.array(cols) for key, cols in fits.items()}, crowded,
                         {key: (np.array(cols), np.array(rows, dtype=np.int16).reshape(
                             len(cols), -1, 2)) for key, (cols, rows) in partial.items()},
                         room0)

    def _seatings(self, groups: tuple[Slots, ...], only: set[int] | None
                  ) -> dict[int, Seating]:
        """Per kind the groups hold (or only those in `only`): the seats an
        exposure of it may take when one group holds it; when several do,
        per seat what the kind's tiles still fill in the others; and its
        joker room when none is held."""
        holding: dict[int, list[Slots]] = {}
        for g in groups:
            for k in dict.fromkeys(g.tiles):
                if only is None or k in only:
                    holding.setdefault(k, []).append(g)
        all_jokers = self.card.all_joker_groups
        out: dict[int, Seating] = {}
        for k, gs in holding.items():
            whole = pins(gs)[k]
            empty = _slot_score(0, whole.plain, whole.joker_groups, all_jokers)[1]
            if len(gs) == 1:
                g = gs[0]
                keys = [(k, g.size, g.jokers and g.size >= 3)] if g.identical else []
                out[k] = (keys, [], empty)
                continue
            spares = []
            for size, welcome in sorted({(g.size, g.jokers and g.size >= 3) for g in gs
                                         if g.identical}):
                taken = next(i for i, g in enumerate(gs) if g.identical and g.size == size
                             and (g.jokers and g.size >= 3) == welcome)
                pin = pins(gs[:taken] + gs[taken + 1:]).get(k, NO_PIN)
                spares.append(((k, size, welcome),
                               [_slot_score(c, pin.plain, pin.joker_groups, all_jokers)
                                for c in range(self.card.deck.kinds[k].copies + 1)]))
            out[k] = ([], spares, empty)
        return out

    @cached_property
    def _concealed(self) -> np.ndarray:
        return np.array([self.card.lines[li].concealed for li in self.column_line], dtype=bool)

    # -- many hands ----------------------------------------------------------------
    def batch(self, counts: np.ndarray, jokers: np.ndarray) -> np.ndarray:
        """Every column's score for many hands without exposures given as
        (hands x kinds) counts: a chunk at a time, so the work stays in the
        cache."""
        chunk = max(CHUNK, CHUNK_CELLS // (2 * self.count))
        summer = self._small if self.count <= SMALL else self._gathered
        out = [self._apply(summer(counts[a:a + chunk]), jokers[a:a + chunk])
               for a in range(0, len(counts), chunk)]
        return np.concatenate(out) if out else np.zeros((0, self.count), dtype=np.int16)

    def less_each(self, counts: dict[int, int], jokers: int, tiles: Sequence[int],
                  joker: int | None) -> np.ndarray:
        """batch() of one hand without exposures less one of each of these
        tiles (held): its rows summed once, then per tile its count's row
        swapped for the count below (a joker: one joker fewer)."""
        row_of, dense = self._row_of, self._dense
        zero = len(dense) - 1
        whole = dense[[row_of[k] + c - 1 for k, c in counts.items()]].sum(axis=0, dtype=np.int16)
        held = [counts.get(t, 0) for t in tiles]
        dropped = [zero if t == joker else row_of[t] + c - 1 for t, c in zip(tiles, held,
                                                                               strict=True)]
        kept = [zero if t == joker or c < 2 else row_of[t] + c - 2
                for t, c in zip(tiles, held, strict=True)]
        summed = whole[None] - dense[dropped] + dense[kept]
        left = np.array([jokers - (t == joker) for t in tiles], dtype=np.int64)
        return self._apply(summed, left)

    def discard_nearness(self, counts: dict[int, int], jokers: int, tiles: Sequence[int],
                         joker: int | None, seat: Seat | None = None
                         ) -> tuple[list[int], list[int]] | None:
        """For one hand less one of each of these tiles (held): the fewest
        tiles away of any column and how many lines are that near, from the
        columns near the whole hand alone (runtime/matching/discards.py);
        with `seat`, the hand's exposures seated so, on the columns they sit
        on. None when many columns are that near (less_each() or
        batch_exposed() are quicker then), or one of them scores nothing
        (losing a tile may rule it out)."""
        weighed = self._weigh(counts, jokers, tiles, joker, seat)
        return None if weighed is None else (weighed[0], weighed[1])

    def nearness(self, counts: dict[int, int], jokers: int, joker: int | None,
                 seat: Seat | None = None) -> tuple[int, int] | None:
        """For one hand (with exposures seated so, when `seat`): the fewest
        tiles away of any column and how many lines are that near, from
        the columns within a tile of its nearest (discard_nearness()'s pass
        with no tile weighed). None when one of them scores nothing."""
        weighed = self._weigh(counts, jokers, (), joker, seat, most=self.count)
        return None if weighed is None else (weighed[2], weighed[3])

    def _weigh(self, counts: dict[int, int], jokers: int, tiles: Sequence[int],
               joker: int | None, seat: Seat | None, most: int = MANY_NEAR) -> Weighed | None:
        if seat is None:
            return weigh(self._weighing, self._row_of_int32, counts, jokers, tiles, joker, most)
        if seat.seated is None:
            return None
        return weigh(self._seated_weighing(seat), self._row_of_int32, counts, jokers, tiles,
                     joker, most)

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

    def batch_exposed(self, counts: np.ndarray, jokers: np.ndarray, seat: Seat
                      ) -> tuple[list[int], np.ndarray, np.ndarray]:
        """exposed() for many hands with the same exposures: the lines with
        seated columns, and per hand and line the best score and variation
        (scored on the seated columns alone, a chunk at a time)."""
        cut = seat.seated
        if cut is None:
            empty = np.zeros((len(counts), 0), dtype=np.int32)
            return [], empty, empty
        n = len(cut.cols)
        chunk = max(CHUNK, CHUNK_CELLS // (2 * n))
        out = []
        for a in range(0, len(counts), chunk):
            part = counts[a:a + chunk]
            summed = self._gathered(part, cut.dense)
            for k in seat.kinds:  # concealed tiles of an exposed kind fill only what it left
                held = part[:, k]
                if held.any():
                    summed -= cut.dense[np.where(held > 0, self._row_of_array[k] + held - 1,
                                                 len(cut.dense) - 1)]
            for k, at, filled, spare in cut.partial:
                held = part[:, k]
                if held.any():
                    summed[:, at] += filled[held]
                    summed[:, n + at] += spare[held]
            naturals = summed[:, :n]
            out.append(np.minimum(naturals + jokers[a:a + chunk, None].astype(np.int16),
                                  naturals + summed[:, n:] + cut.base) + np.int16(seat.size))
        score = np.concatenate(out) if out else np.zeros((0, n), dtype=np.int16)
        keys = np.maximum.reduceat(score.astype(np.int32) * self._big - cut.cols, cut.starts,
                                   axis=-1)
        best = -((-keys) // self._big)
        return cut.lines, best, self._variation_of[best * self._big - keys]

    def _gathered(self, counts: np.ndarray, dense: np.ndarray | None = None) -> np.ndarray:
        """The rows of the kinds each hand holds, gathered and summed (from
        `dense`, the table or a cut of it)."""
        dense = self._dense if dense is None else dense
        owner, kind = np.nonzero(counts)
        rank = np.arange(len(owner)) - np.searchsorted(owner, owner)
        width = int(rank.max()) + 1 if len(rank) else 1
        rows = np.full((len(counts), width), len(dense) - 1, dtype=np.intp)  # zero row
        rows[owner, rank] = self._row_of_array[kind] + counts[owner, kind] - 1
        summed: np.ndarray = dense[rows].sum(axis=1, dtype=np.int16)
        return summed

    def _small(self, counts: np.ndarray) -> np.ndarray:
        """For a small table: per kind the columns hold, its rows by count
        (row 0 all zeros), looked up for every hand at once."""
        summed = np.zeros((len(counts), 2 * self.count), dtype=np.int16)
        for kind, rows in self._kind_rows:
            summed += rows[counts[:, kind]]
        return summed

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
        for col in range(self.count):
            for g in self.groups(col):
                for k in g.tiles:
                    bits[col] |= np.uint64(1) << np.uint64(k)
        return bits

    def naturals(self, kind: int, cols: Sequence[int]) -> np.ndarray:
        """The naturals `kind` fills in these columns, by count held (row 0:
        none held): a (copies + 1, len(cols)) int16 array."""
        first = self._row_of[kind]
        copies = self.card.deck.kinds[kind].copies
        out = np.zeros((copies + 1, len(cols)), dtype=np.int16)
        if first >= 0:
            out[1:] = self._dense[first:first + copies][:, list(cols)]
        return out

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
