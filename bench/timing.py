"""What the benchmarks share: a median per item, and a goal's line."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any


def median_us(run: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """The median time of run(item) over the items, in microseconds."""
    times = []
    for item in items:
        start = time.perf_counter()
        run(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


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
