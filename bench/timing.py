"""What the benchmarks share: a median per item, and a goal's line."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

PASSES = 3  # each item is timed this many times (pass by pass); its least counts
GROUP = 10  # paired sides take turns this many items at a time


def median_us(run: Callable[[Any], Any], items: Sequence[Any], *,
              passes: int = PASSES) -> float:
    """The median over the items of run(item)'s time, in microseconds.

    Each item is timed in `passes` passes over all of them and keeps its
    least: on a shared machine a pass may wait for a core, or meet an
    interrupt or a neighbour's cache traffic, but seldom every pass, so the
    least is the item's own time without the machine's waits (what its CPU
    time says, at the precision of a clock that costs tens of nanoseconds
    to read, not the most of a microsecond the CPU-time clock costs, a call
    to the kernel); the clock's own cost is taken off."""
    return paired_us([(run, items)], passes=passes)[0]


def paired_us(sides: Sequence[tuple[Callable[[Any], Any], Sequence[Any]]], *,
              passes: int = PASSES) -> list[float]:
    """median_us() of several sides on the same items (each side's own
    form of them), taking turns GROUP items at a time: a change in the
    machine's load lands on every side alike, so their ratio holds, and
    each side still runs a few items in a row, as a caller does. Which side
    goes first turns with each group: the first finds the processor's caches
    full of the last side's work and was measured 10-15% slower."""
    clock = time.perf_counter_ns
    count = len(sides[0][1])
    least = [[1 << 62] * count for _ in sides]
    order = list(zip(sides, least, strict=True))
    for _ in range(passes):
        for a in range(0, count, GROUP):
            order.append(order.pop(0))  # each side goes first as often: the first pays more
            for (run, items), mine in order:
                for i in range(a, min(a + GROUP, count)):
                    item = items[i]
                    start = clock()
                    run(item)
                    spent = clock() - start
                    if spent < mine[i]:
                        mine[i] = spent
    cost = _clock_cost()
    return [max(0.0, statistics.median(mine) - cost) / 1000 for mine in least]


def _clock_cost() -> int:
    """What reading the clock around nothing measures, in ns (the least of
    many readings, as items keep their least)."""
    clock = time.perf_counter_ns
    spent = []
    for _ in range(1000):
        start = clock()
        spent.append(clock() - start)
    return min(spent)


def goal_line(label: str, ours: float, reference: float | None, goal: float, unit: str, *,
              at_least: bool = False) -> str:
    """One goal as a line: our figure, the reference's beside it with the
    ratio (when there is one), the goal, and whether it is met. Goals are
    upper bounds (time) unless `at_least` (rates, ratios)."""
    met = ours >= goal if at_least else ours <= goal
    beside = ""
    if reference is not None:
        ratio = ours / reference if at_least else reference / ours
        beside = f"  (reference {reference:,.2f} {unit}: {ratio:,.1f}x)"
    sign = ">=" if at_least else "<="
    return (f"  {label:46} {ours:10,.2f} {unit:8}{beside}  goal {sign} {goal:g} {unit}: "
            f"{'met' if met else 'NOT met'}")
