"""The optional C accelerator (runtime/matching/_fold.c, built by setup.py
where a C compiler is found) or, without it, the same in Python.

- compiled_fold: each component's key of a hand summed in C, or None (the
  lookups then sum one key in Python: runtime/matching/lookup.py);
- line_keys: Columns.line_keys (each line's best key of the keyed table)
  as a list in one call, or None (NumPy's calls, then tolist());
- discard_nearness: discards.weigh() (the hand less each tile weighed
  from the columns within a tile of its nearest, and the hand itself) in
  one call, or None (NumPy, then a loop over those columns in Python);
- line_best: each line's best column for one hand on the card's table or
  on the cut its exposures sit on (Columns.line_scores, exposed()) in one
  call, or None (NumPy's calls, or for a few columns plain Python);
- extend_each(cls, heads, keys, last): [cls(heads[k] + (last,)) for k in
  keys], a query's Match objects made from the start of their tuples and the
  hand; in C one allocation a Match, where Python makes three;
- max_plus: the max-plus fold of ShapeTables.best_within (a jokerless
  hand's best over a share of a line's groups) in one call, or None (lists
  in Python).

JONGG_NO_ACCEL=1 in the environment leaves the built accelerator unused, as
on a machine without a C compiler (the same answers, in Python).
"""

from __future__ import annotations

import itertools
import operator
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
Fold = Callable[[Sequence[int], bytes, bytes, int], "tuple[int, ...] | None"]


def extend_each_python(cls: type[T], heads: list[tuple[Any, ...]], keys: list[int],
                       last: object) -> list[T]:
    """extend_each in Python."""
    return list(map(cls, map(operator.add, map(heads.__getitem__, keys),
                             itertools.repeat((last,)))))


compiled_fold: Fold | None
line_keys: Callable[[np.ndarray, list[int], int, int, list[int], np.ndarray | None],
                    list[int]] | None
# (dense, row_of, counts, jokers, joker, tiles, base, needed, line_of, lines, exposed, most)
discard_nearness: Callable[[np.ndarray, np.ndarray, dict[int, int], int, int, list[int],
                            np.ndarray, np.ndarray, np.ndarray, int, int, int],
                           tuple[list[int], list[int], int, int] | None] | None
# (dense, row_of, counts, jokers, base, exposed, starts, lines, variations, least)
line_best: Callable[[np.ndarray, np.ndarray, dict[int, int], int, np.ndarray, int, list[int],
                     list[int], list[int], int],
                    list[tuple[int, int, int]]] | None
# (rows, steps, last): tables.ShapeTables._best_within's max-plus fold
max_plus: Callable[[list[list[int]], bytes, bytes], int] | None
try:
    if os.environ.get("JONGG_NO_ACCEL", "") not in ("", "0"):
        raise ImportError("JONGG_NO_ACCEL is set")
    from jongg.runtime.matching import _fold
    compiled_fold, line_keys = _fold.fold, _fold.line_keys
    discard_nearness, line_best = _fold.discard_nearness, _fold.line_best
    extend_each = _fold.extend_each
    max_plus = _fold.max_plus
except ImportError:  # a machine without a C compiler
    compiled_fold = line_keys = discard_nearness = line_best = max_plus = None
    extend_each = extend_each_python
