"""Python's cycle collector held back while matches are played.

A match makes millions of short-lived objects (hands, tuples of answers,
actions) that form no reference cycles: reference counting frees them all,
and the collector's passes over the young objects, every 700 allocations by
default, find nothing to collect while they cost a sixth to a quarter of a
round (Siamese with greedy agents: 27 rounds a second of CPU with the
default, 34 with the youngest generation collected every 100,000; Imperial
with random agents 19 and 25; the most memory the process held the same).
So the match loop raises the youngest generation's threshold while it runs
and puts it back after. It never turns the collector off: a cycle made in a
match (an exception's traceback, a user's agent) is still collected.

Nested and concurrent matches (threads) share one raise: the first to begin
raises the threshold, the last to end puts back what it found.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 100_000  # allocations between collections of the youngest generation, in a match

_lock = threading.Lock()
_open = 0  # matches under way
_found: tuple[int, int, int] = gc.get_threshold()  # the thresholds before the first began


@contextmanager
def fewer_collections() -> Iterator[None]:
    """While the block runs, the youngest generation is collected every
    YOUNG allocations (or as the caller set it, if that is rarer); the older
    generations keep their thresholds."""
    global _open, _found
    with _lock:
        if _open == 0:
            _found = gc.get_threshold()
            young, *older = _found
            if 0 < young < YOUNG:  # 0: the caller turned collection off; keep it so
                gc.set_threshold(YOUNG, *older)
        _open += 1
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if _open == 0:
                gc.set_threshold(*_found)
