"""The readings of a winning hand: every way its tiles split into a form's
groups (sets and a pair, seven pairs, thirteen orphans), with the group the
winning tile completed and the shape of the wait it filled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

RUN, PUNG, KONG, PAIR, SINGLE = "run", "pung", "kong", "pair", "single"


@dataclass(frozen=True, slots=True)
class Group:
    """A group of a reading: its kind, its tiles (a run's from the lowest),
    whether a call exposed it, and whether it counts open (called, or
    completed by another seat's discard)."""

    kind: str
    tiles: tuple[int, ...]
    called: bool = False
    open: bool = False
    winning: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    form: str  # sets, pairs, orphans
    groups: tuple[Group, ...]
    wait: str  # two-sided, middle, edge, pung, pair, single


def _sets(counts: list[int], runs: Sequence[int], pair: bool) -> Iterator[list[tuple[str, int]]]:
    """Every split of `counts` into pungs, runs and (when `pair`) one pair, as
    (kind, first tile) lists; the lowest tile left is always in the next group,
    so each split comes once."""
    first = next((i for i, c in enumerate(counts) if c), -1)
    if first < 0:
        if not pair:
            yield []
        return
    if counts[first] >= 3:
        counts[first] -= 3
        for rest in _sets(counts, runs, pair):
            yield [(PUNG, first), *rest]
        counts[first] += 3
    second = runs[first]
    third = runs[second] if second >= 0 else -1
    if third >= 0 and counts[second] and counts[third]:
        for i in (first, second, third):
            counts[i] -= 1
        for rest in _sets(counts, runs, pair):
            yield [(RUN, first), *rest]
        for i in (first, second, third):
            counts[i] += 1
    if pair and counts[first] >= 2:
        counts[first] -= 2
        for rest in _sets(counts, runs, False):
            yield [(PAIR, first), *rest]
        counts[first] += 2


def _tiles(kind: str, first: int, runs: Sequence[int]) -> tuple[int, ...]:
    if kind == RUN:
        return (first, runs[first], runs[runs[first]])
    return (first,) * {PUNG: 3, PAIR: 2, SINGLE: 1, KONG: 4}[kind]


def splits(counts: list[int], calls: int, runs: Sequence[int],
           orphans: frozenset[int]) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    """Every way the concealed tiles (`counts`) complete a hand that already
    has `calls` sets: (form, groups)."""
    total = sum(counts)
    if total % 3 == 2:
        for groups in _sets(counts, runs, True):
            yield "sets", groups
    if calls == 0 and total == 14:
        held = [i for i, c in enumerate(counts) if c]
        if len(held) == 7 and all(counts[i] == 2 for i in held):
            yield "pairs", [(PAIR, i) for i in held]
        if orphans and set(held) == orphans and len(held) == len(orphans) == 13:
            yield "orphans", [(PAIR if counts[i] == 2 else SINGLE, i) for i in held]


def completes(counts: list[int], calls: int, runs: Sequence[int],
              orphans: frozenset[int]) -> bool:
    # a copy: the search is left part-way, its tiles still taken out
    return next(splits(list(counts), calls, runs, orphans), None) is not None


def _wait(group: Group, winning: int, runs: Sequence[int], first: set[int],
          last: set[int]) -> str:
    if group.kind == RUN:
        low, middle, high = group.tiles
        if winning == middle:
            return "middle"
        if (low in first and winning == high) or (high in last and winning == low):
            return "edge"
        return "two-sided"
    return {PUNG: "pung", PAIR: "pair"}.get(group.kind, "single")


def readings(counts: list[int], called: Sequence[Group], winning: int, self_drawn: bool,
             runs: Sequence[int], orphans: frozenset[int], first: set[int],
             last: set[int]) -> list[Reading]:
    """Every reading of a hand: its concealed tiles' splits, each with every
    distinct group the winning tile may have completed. `first` and `last`
    are the kinds at the ends of their suits (an edge wait's)."""
    out = []
    for form, split in splits(list(counts), len(called), runs, orphans):
        seen = set()
        for kind, tile in split:
            tiles = _tiles(kind, tile, runs)
            if winning not in tiles or (kind, tile) in seen:
                continue
            seen.add((kind, tile))
            groups = []
            done = False
            for other_kind, other in split:
                win = not done and (other_kind, other) == (kind, tile)
                done = done or win
                groups.append(Group(other_kind, _tiles(other_kind, other, runs), False,
                                    win and not self_drawn, win))
            won = next(g for g in groups if g.winning)
            out.append(Reading(form, (*called, *groups),
                               _wait(won, winning, runs, first, last)))
    return out
