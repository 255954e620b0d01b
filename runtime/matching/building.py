"""Building a component's table: the structural programme run over every
count vector at once.

The programme (runtime/matching/structure.py) reads a component kind by kind;
after a prefix of counts it stands in some states, each with the most
naturals filled so far. Those states and values, less their maximum, are the
prefix's *profile*: every prefix with the same profile has the same future,
up to that maximum. Profiles are few (hundreds to thousands) where prefixes
are millions, so the build

- works out once, per kind and count, how the programme moves between its
  states and what each move fills (the programme's own `advance`, one state
  at a time);
- carries every profile of a layer forward at once, as a (profiles x states)
  array, a max-plus product per count, and merges equal results;
- gives every count vector its profile and offset, a layer at a time, by
  array lookups.

The answers of the last layer are a component's rows: per share of the
line's groups, the most naturals its counts fill. They are few too, so the
table is an index (count vector -> row) and the rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from jongg.runtime.matching.structure import Demand, Shape, State, advance, run_starts, start

IMPOSSIBLE = -1000  # a share of the groups a component cannot take
_GONE = -(1 << 24)  # a state no prefix reaches
_OPEN = 1 << 20  # joker room that never binds: the tables count naturals alone

Progress = Callable[[int, int], None]  # (steps done, steps in all)


@dataclass(frozen=True, slots=True)
class Moves:
    """The programme's states before each kind, and per kind and count its
    moves: for each state reached, the states it comes from and what each
    of those moves fills."""

    states: list[list[State]]
    # [kind][count] -> (state reached, states it comes from, what each move fills)
    moves: list[list[list[tuple[int, np.ndarray, np.ndarray]]]]


def demands(shape: Shape) -> list[Demand]:
    """Every share of a line's groups, in the tables' column order."""
    return list(itertools.product(*(range(m + 1) for m in shape.demand)))


def moves(shape: Shape, n: int, copies: int, runs: bool) -> Moves:
    states: list[list[State]] = [list(start(shape))]
    out = []
    for pos in range(n):
        reached: dict[State, int] = {}
        by_count = []
        for x in range(copies + 1):
            counts: list[int | None] = [None] * n
            counts[pos] = x
            starts = run_starts(counts, pos, runs, copies)
            into: dict[int, tuple[list[int], list[int]]] = {}
            for i, state in enumerate(states[-1]):
                for after, frontier in advance(shape, {state: ((0, _OPEN),)}, x,
                                               starts=starts).items():
                    j = reached.setdefault(after, len(reached))
                    sources, filled = into.setdefault(j, ([], []))
                    sources.append(i)
                    filled.append(frontier[0][0])  # the frontier's most naturals
            by_count.append([(j, np.array(s), np.array(f)) for j, (s, f) in into.items()])
        states.append(list(reached))
        out.append(by_count)
    return Moves(states, out)


def build(shape: Shape, n: int, copies: int, runs: bool,
          progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The table of one component of `n` kinds of `copies` copies: (index,
    rows). index[v] is the row of count vector v (digits base copies + 1, the
    first kind most significant; loose kinds in any order); rows[r] holds per
    share of the groups (demands() order) the most naturals filled, or
    IMPOSSIBLE."""
    radix = copies + 1
    plan = moves(shape, n, copies, runs)
    counts = np.arange(radix)
    profiles = np.zeros((1, 1), dtype=np.int32)  # the start: one state, nothing filled
    profile = np.zeros(1, dtype=np.int64)  # per prefix: its profile (-1: none)
    offset = np.zeros(1, dtype=np.int64)
    top = np.full(1, copies)  # loose kinds: prefixes are non-increasing
    for pos in range(n):
        width = len(plan.states[pos + 1])
        grown = np.full((len(profiles), radix, width), _GONE, dtype=np.int32)
        for x, found in enumerate(plan.moves[pos]):
            for j, sources, filled in found:
                grown[:, x, j] = (profiles[:, sources] + filled).max(axis=1)
        flat = grown.reshape(-1, width)
        best = flat.max(axis=1)
        alive = best > _GONE // 2
        normal = np.where(flat > _GONE // 2, flat - best[:, None], _GONE)
        profiles, inverse = _distinct(normal[alive])
        after = np.full(len(flat), -1, dtype=np.int64)
        after[alive] = inverse.ravel()
        moved = after.reshape(-1, radix)
        gain = np.where(alive, best, 0).reshape(-1, radix)
        held = np.maximum(profile, 0)
        grown_profile = np.where(profile[:, None] >= 0, moved[held], -1)
        if not runs:
            grown_profile[counts[None, :] > top[:, None]] = -1
            top = np.tile(counts, len(profile))
        offset = (offset[:, None] + gain[held]).ravel()
        profile = grown_profile.ravel()
        if progress is not None:
            progress(pos + 1, n)
    index, rows = _rows(shape, plan.states[n], profiles, profile, offset)
    if not runs:
        index = index[_sorted_keys(n, radix)]
    dtype = np.uint8 if len(rows) <= 256 else np.uint16 if len(rows) <= 65536 else np.int32
    return index.astype(dtype), rows


def _distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows, in order of first appearance, and each row's number
    among them (np.unique would sort them, which costs more)."""
    rows = np.ascontiguousarray(rows)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel().tolist()
    number: dict[object, int] = {}
    first: list[int] = []
    inverse = np.empty(len(keys), dtype=np.int64)
    for i, key in enumerate(keys):
        found = number.get(key)
        if found is None:
            found = number[key] = len(first)
            first.append(i)
        inverse[i] = found
    return rows[first], inverse


def _rows(shape: Shape, finals: list[State], profiles: np.ndarray, profile: np.ndarray,
          offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per count vector its row, and the distinct rows: per share, the best
    of the final states that leave no run open."""
    shares = {d: i for i, d in enumerate(demands(shape))}
    last = np.full((len(profiles) + 1, len(shares)), _GONE, dtype=np.int64)  # + a row for none
    for s, (p1, p2, used) in enumerate(finals):
        if p1 == 0 and p2 == 0:
            last[:-1, shares[used]] = np.maximum(last[:-1, shares[used]], profiles[:, s])
    # (profile, offset) pairs as one code each, numbered without a sort
    span = int(offset.max()) + 1
    code = (profile + 1) * span + offset
    occurs = np.zeros((len(profiles) + 1) * span, dtype=bool)
    occurs[code] = True
    codes = np.flatnonzero(occurs)
    number = np.cumsum(occurs) - 1
    profile_of, offset_of = codes // span - 1, codes % span
    values = np.where(last[profile_of] > _GONE // 2, last[profile_of] + offset_of[:, None],
                      IMPOSSIBLE).astype(np.int16)
    rows, row_of = np.unique(values, axis=0, return_inverse=True)
    return row_of.ravel()[number[code]], rows

def _sorted_keys(n: int, radix: int) -> np.ndarray:
    """For every count vector, the key of its counts sorted, most held first."""
    rest = np.arange(radix ** n)
    digits = np.empty((n, len(rest)), dtype=np.int8)
    for i in range(n - 1, -1, -1):
        rest, digits[i] = np.divmod(rest, radix)
    digits.sort(axis=0)  # ascending: the last row holds the most held
    key = np.zeros(radix ** n, dtype=np.int64)
    for row in digits[::-1]:
        key = key * radix + row
    return key
