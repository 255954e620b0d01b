"""What values a formula can take, decided before any game is played.

Each fact is given a range (`self_drawn` 0..1, `value` 0..the card's highest,
`lowest` any score at all) and the formula is evaluated over ranges instead
of numbers: `value * 2` over 0..75 is 0..150, a comparison is true, false or
either. The answer is never too narrow, so what it proves holds in every
game: a payment that must be negative, an amount too large to add up, a
match end that can never hold. It may be too wide (it does not follow how an
`if` narrows a fact), so it proves nothing the other way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from jongg.runtime.game.facts import ANY, TRUTH, Bound
from jongg.runtime.game.formula import FUNCTIONS, Node

__all__ = ["ANY", "TRUTH", "Bound", "bound"]


def _times(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b  # infinity times nothing is nothing


def _truth(x: Bound) -> Bound:
    """As a boolean: (1, 1) surely true, (0, 0) surely false, else (0, 1)."""
    if x == (0, 0):
        return (0, 0)
    if x[0] > 0 or x[1] < 0:
        return (1, 1)
    return TRUTH


def _compare(op: str, a: Bound, b: Bound) -> Bound:
    sure: dict[str, Callable[[], tuple[bool, bool]]] = {  # (surely true, surely false)
        "<": lambda: (a[1] < b[0], a[0] >= b[1]),
        "<=": lambda: (a[1] <= b[0], a[0] > b[1]),
        ">": lambda: (a[0] > b[1], a[1] <= b[0]),
        ">=": lambda: (a[0] >= b[1], a[1] < b[0]),
        "==": lambda: (a[0] == a[1] == b[0] == b[1], a[1] < b[0] or b[1] < a[0]),
        "!=": lambda: (a[1] < b[0] or b[1] < a[0], a[0] == a[1] == b[0] == b[1]),
    }
    true, false = sure[op]()
    return (1, 1) if true else (0, 0) if false else TRUTH


def _corners(f: Callable[[int, int], int], a: Bound, b: Bound) -> Bound:
    """A function monotone in each argument on each side of 0: its range is that
    of its values at the corners (and 0), infinite ends kept infinite."""
    if math.inf in (abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1])) or a[0] < 0:
        return ANY  # a negative base would alternate in sign
    values = [f(int(x), int(y)) for x in (a[0], a[1], 0) if a[0] <= x <= a[1]
              for y in (b[0], b[1], 0) if b[0] <= y <= b[1]]
    return (min(values), max(values))


def bound(node: Node, facts: Mapping[str, Bound]) -> Bound:
    """The range of a formula's value when each fact lies in its range."""
    kind = node[0]
    if kind == "number":
        number = node[1]
        assert isinstance(number, int)
        return (number, number)
    if kind == "fact":
        return facts.get(str(node[1]), ANY)
    if kind == "call":
        inner = node[2]
        assert isinstance(inner, tuple)
        args = [bound(n, facts) for n in inner]
        name = str(node[1])
        if name == "min":
            return (min(a[0] for a in args), min(a[1] for a in args))
        if name == "max":
            return (max(a[0] for a in args), max(a[1] for a in args))
        if name in ("pow", "roundup"):  # pow and roundup over their corners
            return _corners(FUNCTIONS[name], args[0], args[1])
        low, high = args[0]
        if low >= 0:
            return (low, high)
        return (0 if high >= 0 else -high, max(-low, high))
    args = [bound(n, facts) for n in node[1:] if isinstance(n, tuple)]
    if kind == "not":
        t = _truth(args[0])
        return (1 - t[1], 1 - t[0])
    if kind == "negate":
        return (-args[0][1], -args[0][0])
    if kind in ("and", "or"):
        a, b = _truth(args[0]), _truth(args[1])
        return (min(a[0], b[0]), min(a[1], b[1])) if kind == "and" else \
            (max(a[0], b[0]), max(a[1], b[1]))
    if kind == "cond":
        test, then, other = _truth(args[0]), args[1], args[2]
        if test == (1, 1):
            return then
        if test == (0, 0):
            return other
        return (min(then[0], other[0]), max(then[1], other[1]))
    if kind == "compare":
        return _compare(str(node[1]), args[0], args[1])
    a, b = args
    op = str(node[1])
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    products = [_times(x, y) for x in a for y in b]
    return (min(products), max(products))
