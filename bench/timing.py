"""What the benchmarks share: a median per item, in microseconds."""

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
