"""A hand's discards weighed from the columns near it (Columns.discard_nearness).

A tile fills at most one slot, so losing it leaves a column where it was or
one tile further: only the columns at most one tile further than the
hand's nearest can be nearest after a discard, and a line stays as near as
it was unless the tile lowers every one of its nearest columns. The table
read is the card's, or for a hand with exposures the cut of it they sit on
(each exposed kind's rows then say what its concealed tiles still fill).
The same pass answers the hand's own nearness (no tile weighed). In one
call of C where the accelerator is built; else NumPy and a loop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from jongg.runtime.matching import accelerated

MANY_NEAR = 64  # past this many columns near a hand, its discards are weighed on arrays

# per kind that counts in a column: (kind, by count held: naturals, room change)
Terms = list[tuple[int, tuple[int, ...], tuple[int, ...]]]


def kind_terms(by_count: np.ndarray, n: int) -> list[Terms]:
    """Per column, for each kind that counts there: the naturals it fills
    and the change in joker room by count held, from (kind, count held,
    naturals of the n columns | room change of the n columns)."""
    naturals, room = by_count[:, :, :n], by_count[:, :, n:]
    used = np.logical_or(naturals.any(axis=1), room.any(axis=1))  # kind, column
    cols, kinds = np.nonzero(used.T)  # by column, then kind
    # only the (kind, column) pairs that count are read out, by count held
    filled: list[list[int]] = naturals[kinds, :, cols].tolist()
    change: list[list[int]] = room[kinds, :, cols].tolist()
    terms: list[Terms] = [[] for _ in range(n)]
    for i, k, f, c in zip(cols.tolist(), kinds.tolist(), filled, change, strict=True):
        terms[i].append((k, tuple(f), tuple(c)))
    return terms


ALL = -(1 << 31)  # each_line_best's least: every line, whatever it scores


@dataclass(frozen=True)
class Weighing:
    """A table as one hand is weighed on it (its discards, its nearness,
    each line's best): per (kind, count) row the naturals of its n columns
    then their room changes (int8; the last row all zeros), each column's
    joker room when nothing is held, the tiles its line needs beyond the
    exposed ones, its line (of `lines`) and variation; the lines with
    columns, in order, and each one's first column."""

    dense: np.ndarray  # (rows + 1, 2n) int8
    base: np.ndarray  # (n,) int16
    needed: np.ndarray  # (n,) int16
    line_of: np.ndarray  # (n,) int32
    lines: int
    exposed: int  # tiles in exposures: a column whose score with them is 0 may be ruled out
    count_rows: np.ndarray  # per kind and count held, its row (Columns._count_rows)
    variations: list[int]
    line_starts: list[tuple[int, int]]  # (line, its first column)

    @property
    def count(self) -> int:
        return len(self.base)

    @cached_property
    def drops(self) -> list[Terms]:
        """Per column and kind whose loss can tell there, by count held:
        the naturals one tile fewer loses, and the joker room it gains."""
        by_count = self.dense[self.count_rows].astype(np.int16)  # kind, count held, column
        v = self.count
        lost = np.zeros_like(by_count)
        lost[:, 1:, :v] = by_count[:, 1:, :v] - by_count[:, :-1, :v]
        lost[:, 1:, v:] = by_count[:, :-1, v:] - by_count[:, 1:, v:]
        return kind_terms(lost, v)

    @cached_property
    def starts(self) -> list[int]:
        return [start for _, start in self.line_starts]

    @cached_property
    def line_ids(self) -> list[int]:
        return [li for li, _ in self.line_starts]

    @cached_property
    def listed(self) -> tuple[list[int], list[int], list[int]]:
        """base, needed and line_of as lists, for the loop in Python."""
        return self.base.tolist(), self.needed.tolist(), self.line_of.tolist()


# per tile weighed, the hand less it: tiles away and lines that near; then the hand's own
Weighed = tuple[list[int], list[int], int, int]


def weigh(w: Weighing, row_of: np.ndarray, counts: dict[int, int], jokers: int,
          tiles: Sequence[int], joker: int | None, most: int = MANY_NEAR) -> Weighed | None:
    """For one hand (`counts` of its concealed naturals by kind, `jokers`)
    less one of each of these tiles (held): the fewest tiles away of any
    column of `w` and how many lines are that near; then the same for the
    hand itself. None when over `most` columns are within a tile of the
    nearest, or one of them scores nothing (losing a tile may rule it out):
    the caller then scores every column. `row_of`: each kind's first row
    (int32)."""
    if accelerated.discard_nearness is not None:
        return accelerated.discard_nearness(
            w.dense, row_of, counts, jokers, -1 if joker is None else joker, list(tiles),
            w.base, w.needed, w.line_of, w.lines, w.exposed, most)
    v = w.count
    if not v:
        return None
    summed = w.dense[[int(row_of[k]) + c - 1 for k, c in counts.items()]].sum(
        axis=0, dtype=np.int16)
    naturals = summed[:v]
    score = np.minimum(naturals + np.int16(jokers), naturals + summed[v:] + w.base)
    away = w.needed - score
    near = int(away.min())
    cand = np.flatnonzero(away <= near + 1)
    if len(cand) > most:
        return None
    drops = w.drops if tiles else [[]] * v  # no tile weighed: the hand's own nearness alone
    base, needed, line_of = w.listed
    # per line this near: how far, and the tiles whose loss lowers all its nearest columns
    lines: dict[int, tuple[int, set[int | None]]] = {}
    picked = summed.reshape(2, v)[:, cand].tolist()  # naturals, room change
    for c, held_naturals, held_room in zip(cand.tolist(), *picked, strict=True):
        held_room += base[c]
        held_score = held_naturals + (jokers if jokers < held_room else held_room)
        if held_score + w.exposed <= 0:
            return None
        far = needed[c] - held_score
        known = lines.get(line_of[c])
        if known is not None and known[0] < far:
            continue  # not one of its line's nearest columns
        # a tile lowers the score when the naturals it leaves fall short of
        # it with the jokers held, or with the joker room it leaves
        short, short_room = held_score - jokers, held_score - held_room
        lowers: set[int | None] = set()
        if jokers and held_naturals + jokers - 1 < held_score:
            lowers.add(joker)
        for k, naturals_lost, room_lost in drops[c]:
            h = counts.get(k)
            if h:
                left = held_naturals - naturals_lost[h]
                if left < short or left + room_lost[h] < short_room:
                    lowers.add(k)
        if known is None or far < known[0]:
            lines[line_of[c]] = (far, lowers)
        else:
            known[1].intersection_update(lowers)
    at_near = [lowers for far, lowers in lines.values() if far == near]
    lost = Counter(t for lowers in at_near for t in lowers)
    lost_next = Counter(t for far, lowers in lines.values() if far > near for t in lowers)
    best, many = [], []
    for t in tiles:
        stay = len(at_near) - lost[t]
        best.append(near if stay else near + 1)
        many.append(stay or len(lines) - lost_next[t])
    return best, many, near, len(at_near)


def each_line_best(w: Weighing, row_of: np.ndarray, counts: dict[int, int], jokers: int,
                   least: int = ALL) -> list[tuple[int, int, int]] | None:
    """(line, best score with the exposed tiles, variation) of each line of
    `w` scoring `least` or more for one hand, the first column reaching a
    line's best giving the variation: in one call of C; None where the
    accelerator is not built."""
    if accelerated.line_best is None:
        return None
    return accelerated.line_best(w.dense, row_of, counts, jokers, w.base, w.exposed, w.starts,
                                 w.line_ids, w.variations, least)
