"""Structural matching: how many slots of a line with free groups a hand fills.

A variation of a structural line asks for free groups (`[pung]`, `[run]`,
`[set]`, `[pair]`...) beside any concrete groups. Binding the free groups is a
search over the whole hand; here it is a dynamic programme over *components*,
so it never enumerates bindings:

- a component is an ordered suit (runs live inside one) or the set of all
  other kinds (no runs there, so each kind stands alone);
- walking a component's kinds in order, the state is the runs still waiting
  for this kind and the next, and the free groups used so far;
- at each kind the programme chooses at most one identical free group (free
  identical groups are different tiles, docs/matcher.md) and how many runs start.

Jokers make the score non-additive: a hand fills N slots with naturals and
has room R for jokers, and scores N + min(J, R) = min(N + J, N + R). So every
component answers with a Pareto frontier of (N, N + R) pairs per demand used,
which is independent of the hand's joker count; frontiers add up across
components and the jokers are applied once at the end. A component's answer
depends only on its counts and the line's shape, so it is memoised (and, for
the commonest shapes, precomputed into tables by the compiler).

The semantics are the reference matcher's (runtime/matching/reference.py), which the
tests hold this module to.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import add, gt

from jongg.runtime.card import FREE_SIZES

# A frontier: (naturals, capacity) pairs, none dominated, naturals descending.
Frontier = tuple[tuple[int, int], ...]
Demand = tuple[int, ...]
IDENTICAL = ("single", "pair", "pung", "kong", "quint", "sextet")


@dataclass(frozen=True, slots=True)
class GroupType:
    """A kind of free group a line asks for, with the line's joker rule."""

    kind: str  # single pair pung kong quint sextet run set
    jokers: bool

    @property
    def size(self) -> int:
        return FREE_SIZES[self.kind]

    @property
    def identical_size(self) -> int:
        """The size when bound to one tile (a set may be a pung), else 0."""
        if self.kind in IDENTICAL:
            return self.size
        return 3 if self.kind == "set" else 0

    @property
    def joker_ok(self) -> bool:
        """Whether jokers may fill it when it is identical tiles (3 or more)."""
        return self.jokers and self.identical_size >= 3

    @property
    def sequential(self) -> bool:
        return self.kind in ("run", "set")

    def room(self, all_jokers: bool) -> int:
        """Joker room of the group bound to no tile of the hand (a placeholder)."""
        if not self.joker_ok:
            return 0
        return self.identical_size - (0 if all_jokers else 1)


@dataclass(frozen=True, slots=True)
class Pin:
    """What concrete groups ask of one kind: slots no joker may fill, and the
    sizes of the identical groups of that kind jokers may fill."""

    plain: int = 0
    joker_groups: tuple[int, ...] = ()


NO_PIN = Pin()


@dataclass(frozen=True, slots=True)
class Shape:
    """What a variation asks for, as the programme sees it."""

    types: tuple[GroupType, ...]
    demand: Demand  # how many of each type
    all_jokers: bool


def _prune(points: Iterable[tuple[int, int]]) -> Frontier:
    best: dict[int, int] = {}
    for n, c in points:
        if best.get(n, -1) < c:
            best[n] = c
    out: list[tuple[int, int]] = []
    top = -1
    for n in sorted(best, reverse=True):
        if best[n] > top:
            out.append((n, best[n]))
            top = best[n]
    return tuple(out)


def _slot_score(x: int, plain: int, joker_groups: Sequence[int],
                all_jokers: bool) -> tuple[int, int]:
    """Naturals filled and joker room at one kind: naturals go first to slots
    no joker may fill, then one to each joker group, then the rest."""
    total = sum(joker_groups)
    filled = min(x, plain + total)
    spare = max(0, x - plain)
    room = total - min(spare, total)
    if not all_jokers:
        room -= max(0, len(joker_groups) - spare)
    return filled, filled + room


def _run_splits(types: Sequence[GroupType], demand: Demand, used: Demand,
                most: int) -> list[tuple[Demand, int]]:
    """Ways to start up to `most` runs from the sequential types left."""
    seq = [i for i, t in enumerate(types) if t.sequential]
    splits: list[tuple[Demand, int]] = [(used, 0)]
    for i in seq:
        grown: list[tuple[Demand, int]] = []
        for d, r in splits:
            for extra in range(0, min(demand[i] - d[i], most - r) + 1):
                if extra:
                    nd = list(d)
                    nd[i] += extra
                    grown.append((tuple(nd), r + extra))
                else:
                    grown.append((d, r))
        splits = grown
    return splits


State = tuple[int, int, Demand]  # runs wanting this kind and the next, runs wanting it, used


def start(shape: Shape) -> dict[State, Frontier]:
    return {(0, 0, (0,) * len(shape.types)): ((0, 0),)}


def advance(shape: Shape, states: dict[State, Frontier], x: int, *, starts: int,
            pin: Pin = NO_PIN, barred: bool = False) -> dict[State, Frontier]:
    """Read one kind held `x` times: choose at most one identical free group
    on it (free identical groups are different tiles) and up to `starts` runs
    starting on it."""
    types, demand, all_jokers = shape.types, shape.demand, shape.all_jokers
    nxt: dict[State, list[tuple[int, int]]] = {}
    for (p1, p2, used), points in states.items():
        choices: list[tuple[Demand, int, bool]] = [(used, 0, False)]
        if x and not barred:
            for i, t in enumerate(types):
                if t.identical_size and used[i] < demand[i]:
                    grown = list(used)
                    grown[i] += 1
                    choices.append((tuple(grown), t.identical_size, t.joker_ok))
        for d1, size, jok in choices:
            plain = pin.plain + p1 + p2 + (0 if jok else size)
            groups = (*pin.joker_groups, size) if jok else pin.joker_groups
            splits = _run_splits(types, demand, d1, starts) if starts else [(d1, 0)]
            for d2, r in splits:
                filled, cap = _slot_score(x, plain + r, groups, all_jokers)
                bucket = nxt.setdefault((r, p1, d2), [])
                bucket.extend((a + filled, c + cap) for a, c in points)
    return {k: _prune(v) for k, v in nxt.items()}


def finish(states: dict[State, Frontier]) -> dict[Demand, Frontier]:
    """The frontiers per demand used, once no run is left open."""
    out: dict[Demand, list[tuple[int, int]]] = {}
    for (p1, p2, used), points in states.items():
        if p1 == 0 and p2 == 0:
            out.setdefault(used, []).extend(points)
    return {d: _prune(v) for d, v in out.items()}


def run_starts(counts: Sequence[int | None], pos: int, runs: bool, most: int) -> int:
    """How many runs may start on kind `pos`. A run wanting a kind without
    holding it does no better than the run one higher (it wants a tile above
    instead), so runs start on a held tile, each taking one; only the topmost
    start may not (its later counts, when unknown, count as `most`)."""
    n = len(counts)
    if not runs or pos + 2 >= n:
        return 0
    x = counts[pos] or 0
    if pos + 3 < n:
        return x
    later = [c if c is not None else most for c in counts[pos + 1:pos + 3]]
    return x + sum(later)


def component(shape: Shape, counts: Sequence[int], runs: bool,
              pins: Sequence[Pin] | None = None, forbid: Sequence[bool] | None = None
              ) -> dict[Demand, Frontier]:
    """Per demand used, the frontier of one component.

    `counts` are the naturals of the component's kinds in order (consecutive
    numbers when `runs`); `pins` the concrete groups' asks per kind; `forbid`
    marks kinds an exposed identical free group already took."""
    states = start(shape)
    for pos, x in enumerate(counts):
        states = advance(shape, states, x, starts=run_starts(counts, pos, runs, 0),
                         pin=pins[pos] if pins else NO_PIN, barred=bool(forbid and forbid[pos]))
    return finish(states)


def combine(parts: Sequence[dict[Demand, Frontier]], demand: Demand) -> dict[Demand, Frontier]:
    """Add components' frontiers, keeping the demand used within the line's."""
    acc: dict[Demand, Frontier] = {(0,) * len(demand): ((0, 0),)}
    for part in parts:
        nxt: dict[Demand, list[tuple[int, int]]] = {}
        later = list(part.items())
        for d1, f1 in acc.items():
            for d2, f2 in later:
                d = tuple(map(add, d1, d2))
                if any(map(gt, d, demand)):
                    continue
                bucket = nxt.get(d)
                if bucket is None:
                    bucket = nxt[d] = []
                bucket += [(a1 + a2, c1 + c2) for a1, c1 in f1 for a2, c2 in f2]
        acc = {d: _prune(v) for d, v in nxt.items()}
    return acc


def best_score(totals: dict[Demand, Frontier], shape: Shape, jokers: int, extra_room: int = 0
               ) -> int:
    """The most slots filled: unbound free groups take jokers where they may."""
    best = 0
    for used, frontier in totals.items():
        room = extra_room + sum(t.room(shape.all_jokers) * (m - u)
                                for t, m, u in zip(shape.types, shape.demand, used, strict=True))
        for a, c in frontier:
            best = max(best, min(a + jokers, c + room))
    return best


def identical_only(shape: Shape) -> bool:
    """Whether every free group is one of identical tiles (no runs, no sets)."""
    return all(t.identical_size and not t.sequential for t in shape.types)


_IDENTICAL: dict[tuple[Shape, tuple[int, ...], int], int] = {}


def identical_score(shape: Shape, counts: dict[int, int], jokers: int,
                    forbid: frozenset[int]) -> int:
    """best_score() for a shape of identical groups alone, directly: only the
    counts matter, and a group never does worse on a kind held more often, so
    the best binding gives the groups the most-held kinds (each its own, none
    an exposure took) in some order; every order of those is tried."""
    groups = [t for t, m in zip(shape.types, shape.demand, strict=True) for _ in range(m)]
    held = sorted((c for k, c in counts.items() if c > 0 and k not in forbid),
                  reverse=True)[:len(groups)]
    held += [0] * (len(groups) - len(held))
    key = (shape, tuple(held), jokers)
    known = _IDENTICAL.get(key)
    if known is not None:
        return known
    best = 0
    for order in set(itertools.permutations(held)):
        naturals = room = 0
        for t, c in zip(groups, order, strict=True):
            if c:
                got = min(c, t.identical_size)
                naturals += got
                room += t.identical_size - got if t.joker_ok else 0
            else:
                room += t.room(shape.all_jokers)
        best = max(best, naturals + min(jokers, room))
    if len(_IDENTICAL) > 200_000:
        _IDENTICAL.clear()
    _IDENTICAL[key] = best
    return best
