"""Exposures seated in a card's columns: which columns can take them as
whole groups (a cut of the table a hand with them is scored on), and the
scores of a hand with exposures on that cut."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from jongg.runtime.card import Slots
from jongg.runtime.matching.discards import (
    Terms,
    Weighing,
    each_line_best,
    kind_terms,
)
from jongg.runtime.matching.layout import (
    FEW,
    Layout,
    Partial,
    Placed,
    Seat,
    Seated,
    SeatIndex,
    Seating,
    _few_scores,
    column_groups,
    pins,
)
from jongg.runtime.matching.structure import NO_PIN, _slot_score


class SeatedColumns(Layout):
    """The columns' answers for exposures: where they sit, and a hand's
    scores with them."""

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

