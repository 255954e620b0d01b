"""Scoring formulas, compiled: a small tree the runtime evaluates over facts.

A formula (`if self_drawn then 4 else 2`, `value * (if jokerless then 2 else
1)`) is parsed by jongg.compiler.formula from grammar/formula.lark into
nested tuples, never into Python code; evaluating it walks the tuples.
Values are integers; comparisons and and/or/not give booleans, which count
as 1 and 0 in arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from jongg.runtime.errors import JonggError

# A node: ("number", n) | ("fact", name) | ("not", x) | ("negate", x)
# | ("and", a, b) | ("or", a, b) | ("cond", test, then, else)
# | ("compare", op, a, b) | ("binary", op, a, b) | ("call", name, args)
Node = tuple[object, ...]
Value = int | bool



def _pow(base: int, exponent: int) -> int:
    """base to a power of 0 to 64 (han counts double a base): a bounded exponent."""
    return int(base ** max(0, min(exponent, 64)))


def _roundup(value: int, step: int) -> int:
    """value rounded up to a multiple of step (payments to the next 100)."""
    return -(-value // step) * step if step > 0 else value


FUNCTIONS: dict[str, Callable[..., int]] = {"min": min, "max": max, "abs": abs, "pow": _pow,
                                            "roundup": _roundup}
ARITY = {"min": (2, None), "max": (2, None), "abs": (1, 1), "pow": (2, 2), "roundup": (2, 2)}

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_BINARY: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


class FormulaError(JonggError, ValueError):
    """A fact missing at evaluation: the formula names it, the round has not."""


@dataclass(frozen=True, slots=True)
class Formula:
    """A compiled formula: its text, its tree, and the facts it reads."""

    text: str
    tree: Node
    facts: frozenset[str]

    def __call__(self, facts: Mapping[str, Value]) -> int:
        return int(_evaluate(self.tree, facts, self.text))

    def __str__(self) -> str:
        return self.text


def _evaluate(node: Node, facts: Mapping[str, Value], text: str) -> Value:
    kind = node[0]
    if kind == "number":
        return node[1]  # type: ignore[return-value]
    if kind == "fact":
        name = str(node[1])
        if name not in facts:
            raise FormulaError(f"formula {text!r} reads {name!r}, which this round does not "
                               f"know (known: {', '.join(sorted(facts))})")
        return facts[name]
    if kind == "call":
        operands: tuple[Node, ...] = node[2]  # type: ignore[assignment]
        values = [int(_evaluate(n, facts, text)) for n in operands]
        return FUNCTIONS[str(node[1])](*values)
    args = [_evaluate(n, facts, text) for n in node[1:] if isinstance(n, tuple)]
    if kind == "not":
        return not args[0]
    if kind == "negate":
        return -int(args[0])
    if kind == "and":  # both sides are cheap and pure: no short circuit needed
        return bool(args[0]) and bool(args[1])
    if kind == "or":
        return bool(args[0]) or bool(args[1])
    if kind == "cond":
        return args[1] if args[0] else args[2]
    if kind == "compare":
        return _COMPARE[str(node[1])](int(args[0]), int(args[1]))
    if kind == "binary":
        return _BINARY[str(node[1])](int(args[0]), int(args[1]))
    raise AssertionError(f"unknown formula node {kind!r}")
