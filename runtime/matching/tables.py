"""Per-suit tables for structural lines: many hands matched at array speed.

For a line of free groups alone (four sets and a pair, seven pairs, three
sets and a pair), a hand without jokers or exposures scores the sum, over the
deck's components, of what each component's counts can do for each share of
the line's groups. That share table depends only on the counts, so it is
computed once for every count vector (runtime/matching/structure.py's programme, run
over all vectors at once by a depth-first walk that shares prefixes) and
kept on disk. A batch of hands is then a few array lookups and a max-plus
combination over the shares.

Loose kinds (honours) have no runs and are interchangeable when they hold
the same number of copies, so their table is indexed by sorted counts.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from jongg.runtime.matching import store
from jongg.runtime.matching.structure import (
    Demand,
    Shape,
    State,
    advance,
    finish,
    run_starts,
    start,
)

VERSION = 1
IMPOSSIBLE = -1000  # a share of the groups a component cannot take


@dataclass(frozen=True)
class Component:
    kinds: tuple[int, ...]
    runs: bool
    copies: int  # the same for every kind of the component


def _demands(shape: Shape) -> list[Demand]:
    return list(itertools.product(*(range(m + 1) for m in shape.demand)))


def build_table(shape: Shape, n: int, copies: int, runs: bool, max_tiles: int) -> np.ndarray:
    """Best naturals per (count vector, share of the groups): a (radix^n, D)
    array, radix = copies + 1, the first kind the most significant digit.
    Without runs only non-increasing vectors are filled (they are looked up
    sorted)."""
    demands = _demands(shape)
    index = {d: i for i, d in enumerate(demands)}
    radix = copies + 1
    table = np.full((radix ** n, len(demands)), IMPOSSIBLE, dtype=np.int16)
    counts: list[int | None] = [None] * n

    # Prefixes often leave the same states, up to a constant: their blocks of
    # the table are then the same up to that constant, and are copied.
    seen: dict[tuple[object, ...], tuple[int, int]] = {}

    def walk(pos: int, states: dict[State, tuple[tuple[int, int], ...]], key: int,
             total: int, ceiling: int) -> None:
        if pos == n:
            for d, frontier in finish(states).items():
                table[key, index[d]] = max(a for a, _ in frontier)
            return
        base = min(a for f in states.values() for a, _ in f)
        sig = (pos, total, ceiling, tuple(sorted((k, tuple((a - base, c - base) for a, c in f))
                            for k, f in states.items())))
        span = radix ** (n - pos)
        if sig in seen:
            source, offset = seen[sig]
            block = table[source * span:(source + 1) * span]
            table[key * span:(key + 1) * span] = np.where(block > IMPOSSIBLE,
                                                          block + (base - offset), IMPOSSIBLE)
            return
        seen[sig] = (key, base)
        for x in range(min(ceiling, max_tiles - total) + 1):
            counts[pos] = x
            nxt = advance(shape, states, x, starts=run_starts(counts, pos, runs, copies))
            walk(pos + 1, nxt, key * radix + x, total + x, copies if runs else x)
        counts[pos] = None

    walk(0, start(shape), 0, 0, copies)
    return table


class ShapeTables:
    """A structural line's tables over a deck's components."""

    def __init__(self, shape: Shape, components: Sequence[Component], tables: Sequence[np.ndarray]):
        self.shape = shape
        self.components = list(components)
        self.tables = list(tables)
        demands = _demands(shape)
        index = {d: i for i, d in enumerate(demands)}
        self.width = len(demands)
        pairs = sorted((index[tuple(a + b for a, b in zip(d1, d2, strict=True))], i, j)
                       for i, d1 in enumerate(demands) for j, d2 in enumerate(demands)
                       if all(a + b <= m for a, b, m in zip(d1, d2, shape.demand, strict=True)))
        self._target = np.array([t for t, _, _ in pairs])
        self._left = np.array([i for _, i, _ in pairs])
        self._right = np.array([j for _, _, j in pairs])
        self._bounds = np.flatnonzero(np.r_[True, np.diff(self._target) != 0])
        self._within_memo: dict[Demand, tuple[list[int], list[tuple[int, int]]]] = {}

    # -- one hand, in plain Python (a handful of NumPy calls would cost more) ------
    def best_one(self, counts: dict[int, int]) -> int:
        """best() for one jokerless hand given as {kind: count}."""
        return self.best_within(counts, self.shape.demand)

    def best_within(self, counts: dict[int, int], demand: Demand) -> int:
        """The best of one jokerless hand over a share of the groups (the whole
        line's demand, or what is left when exposures have taken the rest)."""
        rows = [table[key].tolist() for table, key in zip(self.tables, self._keys_one(counts),
                                                          strict=True)]
        acc = rows[0]
        for part in rows[1:-1]:
            acc = [max(acc[i] + part[j] for i, j in pairs) for pairs in self._by_target]
        best: int
        if len(rows) == 1:
            best = max(acc[i] for i in self._within(demand)[0])
            return best
        part = rows[-1]
        best = max(acc[i] + part[j] for i, j in self._within(demand)[1])
        return best

    def _within(self, demand: Demand) -> tuple[list[int], list[tuple[int, int]]]:
        """The shares inside `demand`, and the pairs of shares whose sum is."""
        known = self._within_memo.get(demand)
        if known is None:
            demands = _demands(self.shape)
            inside = [i for i, d in enumerate(demands)
                      if all(a <= m for a, m in zip(d, demand, strict=True))]
            pairs = [(i, j) for i, j in zip(self._left_list, self._right_list, strict=True)
                     if all(a + b <= m for a, b, m in zip(demands[i], demands[j], demand,
                                                          strict=True))]
            known = self._within_memo[demand] = (inside, pairs)
        return known

    def complete_one(self, counts: dict[int, int]) -> bool | None:
        """complete() for one jokerless hand; None if bits cannot say."""
        found = self._full
        if found is None:
            return None
        full, bits, valid, whole = found
        keys = self._keys_one(counts)
        acc = int(full[0][keys[0]])
        for table, key in zip(full[1:], keys[1:], strict=True):
            part, grown = int(table[key]), 0
            for b in self._bit_list:
                if acc >> b & 1:
                    grown |= part << b
            acc = grown & valid
        return bool(acc >> whole & 1)

    def _keys_one(self, counts: dict[int, int]) -> list[int]:
        keys = [0] * len(self.components)
        loose: dict[int, list[int]] = {}
        for k, c in counts.items():
            ci, power = self._place[k]
            if power:
                keys[ci] += c * power
            else:
                loose.setdefault(ci, []).append(c)
        for ci, held in loose.items():
            comp = self.components[ci]
            held.sort(reverse=True)
            radix, size = comp.copies + 1, len(comp.kinds)
            keys[ci] = sum(c * radix ** (size - 1 - i) for i, c in enumerate(held))
        return keys

    @cached_property
    def _place(self) -> dict[int, tuple[int, int]]:
        """kind -> (component, its digit's weight; 0 for loose kinds)."""
        out = {}
        for ci, comp in enumerate(self.components):
            for i, k in enumerate(comp.kinds):
                weight = (comp.copies + 1) ** (len(comp.kinds) - 1 - i) if comp.runs else 0
                out[k] = (ci, weight)
        return out

    @cached_property
    def _by_target(self) -> list[list[tuple[int, int]]]:
        groups: dict[int, list[tuple[int, int]]] = {}
        for t, i, j in zip(self._target.tolist(), self._left_list, self._right_list,
                           strict=True):
            groups.setdefault(t, []).append((i, j))
        return [groups[t] for t in sorted(groups)]

    @cached_property
    def _left_list(self) -> list[int]:
        return [int(x) for x in self._left]

    @cached_property
    def _right_list(self) -> list[int]:
        return [int(x) for x in self._right]

    @cached_property
    def _bit_list(self) -> list[int]:
        found = self._full
        return [] if found is None else [int(b) for b in found[1]]

    @cached_property
    def _full(self) -> tuple[list[np.ndarray], np.ndarray, int, int] | None:
        """For complete checks: per component and table row, the shares of
        the groups that use every tile held, as bits (share d at bit
        sum(d_i * stride_i), each digit with room for the sum of two shares);
        the bits a share may take; and the bit of the whole line. None when
        that does not fit in 64 bits."""
        radix = [2 * m + 1 for m in self.shape.demand]
        if math.prod(radix) > 64:
            return None
        strides = [math.prod(radix[i + 1:]) for i in range(len(radix))]
        bit = np.array([sum(a * b for a, b in zip(d, strides, strict=True))
                        for d in _demands(self.shape)], dtype=np.uint64)
        full = []
        for comp, table in zip(self.components, self.tables, strict=True):
            digits = comp.copies + 1
            held = np.zeros(len(table), dtype=np.int64)
            rest = np.arange(len(table))
            for _ in comp.kinds:
                rest, digit = np.divmod(rest, digits)
                held += digit
            used = table == held[:, None]
            full.append(np.bitwise_or.reduce(np.where(used, np.uint64(1) << bit, np.uint64(0)),
                                             axis=1))
        valid = np.bitwise_or.reduce(np.uint64(1) << bit)
        whole = sum(a * b for a, b in zip(self.shape.demand, strides, strict=True))
        return full, bit, int(valid), whole

    def complete(self, keys: Sequence[np.ndarray]) -> np.ndarray | None:
        """Whether each hand (jokerless, unexposed, as keys) fills the line
        with every tile: some share of the groups per component uses all its
        tiles and the shares add up to the line. None if bits cannot say."""
        found = self._full
        if found is None:
            return None
        full, bits, valid, whole = found
        acc = full[0][keys[0]]
        for table, key in zip(full[1:], keys[1:], strict=True):
            part = table[key]
            grown = np.zeros_like(acc)
            for b in bits:
                grown |= np.where((acc >> b) & np.uint64(1), part << b, np.uint64(0))
            acc = grown & np.uint64(valid)
        done: np.ndarray = ((acc >> np.uint64(whole)) & np.uint64(1)).astype(bool)
        return done

    def keys(self, counts: np.ndarray) -> list[np.ndarray]:
        """Each component's table row for (hands x kinds) counts (lines of one
        deck share them)."""
        return component_keys(self.components, counts)

    def best(self, counts: np.ndarray, keys: Sequence[np.ndarray] | None = None) -> np.ndarray:
        """The most slots the naturals fill, for hands without jokers or
        exposures given as (hands x kinds) counts."""
        if keys is None:
            keys = self.keys(counts)
        acc: np.ndarray | None = None
        last = len(self.components) - 1
        for i, (table, key) in enumerate(zip(self.tables, keys, strict=True)):
            part = table[key]
            if acc is None:  # the first component: its shares as they are
                acc = part
                continue
            summed = acc[:, self._left] + part[:, self._right]
            if i == last:  # only the best over every share is wanted
                best: np.ndarray = summed.max(axis=1)
                return best
            acc = np.maximum.reduceat(summed, self._bounds, axis=1)
        assert acc is not None
        whole: np.ndarray = acc.max(axis=1)
        return whole


def component_keys(components: Sequence[Component], counts: np.ndarray) -> list[np.ndarray]:
    """Each component's counts as a table row: digits in base copies + 1, the
    first kind most significant; loose kinds sorted, most held first."""
    out = []
    for comp in components:
        held = counts[:, comp.kinds]
        if not comp.runs:
            held = -np.sort(-held, axis=1)
        out.append(held @ ((comp.copies + 1) ** np.arange(len(comp.kinds) - 1, -1, -1)))
    return out


@functools.cache
def _code() -> str:
    """The source the tables come from: a change to it makes new tables."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in (here / "structure.py", here / "tables.py", here.parent / "card.py"):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def table_file(folder: Path, shape: Shape, comp: Component, max_tiles: int) -> Path:
    sig = f"{VERSION} {_code()} {shape!r} {len(comp.kinds)} {comp.copies} {comp.runs} {max_tiles}"
    return folder / f"shape-{hashlib.sha256(sig.encode()).hexdigest()[:24]}.table"


def load_or_build(shape: Shape, components: Sequence[Component], max_tiles: int,
                  folder: Path | None, *, build: bool = True) -> tuple[ShapeTables | None, float]:
    """The tables, from `folder` when there, else built (and saved there);
    with the seconds spent building (0 when all were loaded). Without
    `build`, None unless every table is there already."""
    built = 0.0
    tables = []
    memo: dict[tuple[int, int, bool], np.ndarray] = {}
    for comp in components:
        sig = (len(comp.kinds), comp.copies, comp.runs)
        if sig in memo:
            tables.append(memo[sig])
            continue
        path = table_file(folder, shape, comp, max_tiles) if folder else None
        rows = (comp.copies + 1) ** len(comp.kinds)
        table = store.kept_array(path, rows, rebuild=build) if path is not None else None
        if table is None and not build:
            return None, 0.0
        if table is None:
            begin = time.perf_counter()
            table = build_table(shape, len(comp.kinds), comp.copies, comp.runs, max_tiles)
            built += time.perf_counter() - begin
            if path is not None:
                store.keep_array(path, table)
        memo[sig] = table
        tables.append(table)
    return ShapeTables(shape, components, tables), built
