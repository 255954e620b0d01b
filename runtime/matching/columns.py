"""Concrete variations as the columns of one table (docs/matcher.md).

Every variation whose tiles are all named is a column; every (kind, count)
a row holding, per column, the naturals that many tiles of the kind fill and
how they change the room left for jokers. A hand's rows summed give every
column's score min(N + J, N + R) at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from jongg.runtime.matching import accelerated
from jongg.runtime.matching.discards import (
    MANY_NEAR,
    Weighed,
    each_line_best,
    weigh,
)
from jongg.runtime.matching.layout import (
    CHUNK,
    CHUNK_CELLS,
    FEW,
    SMALL,
    TABLE_ARRAYS,
    Keyed,
    Seat,
    Seated,
    Tables,
    column_groups,
    pins,
    set_bits,
)
from jongg.runtime.matching.seating import SeatedColumns

__all__ = ["FEW", "SMALL", "TABLE_ARRAYS", "Columns", "Seat", "Seated", "Tables",
           "column_groups", "pins", "set_bits"]


class Columns(SeatedColumns):
    """The concrete variations of a card, scored for many hands at once
    (exposures seated: seating.py; the table's data: layout.py)."""

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

