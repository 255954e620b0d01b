"""Parsing scoring formulas (grammar/formula.lark) into runtime Formulas.

`compile_formula()` checks the syntax, that every name is a fact the variant
offers or a function (min, max, abs) called with the right number of values,
and reports every problem at once, each at its column inside the YAML file.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, UnexpectedInput, v_args
from lark.exceptions import UnexpectedEOF

from jongg.runtime.game.formula import ARITY, FUNCTIONS, Formula, Node

from .errors import Diagnostic, Location, NotationError, excerpt, suggestion
from .places import grammar_file

# Bounds that keep a formula cheap to check and to evaluate, and its values
# exact: no real formula comes near them.
MAX_DEPTH = 64  # operators nested in one another (a sum of n terms nests n deep)
MAX_DIGITS = 9  # in a number written in a formula
SNIPPET = 60  # characters of the formula shown around a mistake

SYNTAX = ("a formula is numbers and facts joined by + - *, comparisons (== != < <= > >=), "
          "and/or/not, 'if ... then ... else ...', min(...), max(...), abs(...), pow(...), "
          "roundup(...) and parentheses")


@cache
def _parser() -> Lark:
    try:  # the grammar's analysis kept in the cache, as the hand notation's is
        kept: str | bool = str(grammar_file("formula"))
    except OSError:
        kept = False
    return Lark.open_from_package("jongg.grammar", "formula.lark", ("",), parser="lalr",
                                  propagate_positions=True, cache=kept)


@v_args(inline=True)
class _Tree(Transformer[Token, Any]):
    """Lark tree -> nested tuples; names are kept with their columns."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[tuple[str, int, int, int | None]] = []  # name, line, column, args

    def number(self, token: Token) -> Node:
        return ("number", int(token))

    def true(self) -> Node:
        return ("number", True)

    def false(self) -> Node:
        return ("number", False)

    def fact(self, token: Token) -> Node:
        self.names.append((str(token), token.line or 1, token.column or 1, None))
        return ("fact", str(token))

    def call(self, token: Token, *args: Node) -> Node:
        self.names.append((str(token), token.line or 1, token.column or 1, len(args)))
        return ("call", str(token), tuple(args))

    def cond(self, test: Node, then: Node, other: Node) -> Node:
        return ("cond", test, then, other)

    def or_(self, a: Node, b: Node) -> Node:
        return ("or", a, b)

    def and_(self, a: Node, b: Node) -> Node:
        return ("and", a, b)

    def not_(self, a: Node) -> Node:
        return ("not", a)

    def negate(self, a: Node) -> Node:
        return ("negate", a)

    def compare(self, a: Node, op: Token, b: Node) -> Node:
        return ("compare", str(op), a, b)

    def binary(self, a: Node, op: Token, b: Node) -> Node:
        return ("binary", str(op), a, b)


def _snippet(row: str, column: int) -> str:
    """The formula's row around `column`, and a caret under it (a long row is cut)."""
    start = max(0, column - 1 - SNIPPET // 2)
    end = start + SNIPPET
    shown = ("..." if start else "") + row[start:end] + ("..." if end < len(row) else "")
    caret = column - start + (3 if start else 0)
    return f"{shown}\n    {' ' * (caret - 1)}^"


def _bounds(tree: Tree[Token]) -> tuple[int, int, str, str] | None:
    """Where a parsed formula nests too deep or writes too large a number,
    found without recursion (a hostile formula nests thousands deep)."""
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "NUMBER" and len(node.lstrip("0")) > MAX_DIGITS:
                return (node.line or 1, node.column or 1,
                        f"the number {excerpt(str(node), 20)} has more than {MAX_DIGITS} digits",
                        "points and counts are far smaller")
            continue
        if depth > MAX_DEPTH:
            meta = node.meta
            line = getattr(meta, "line", 1) if not meta.empty else 1
            column = getattr(meta, "column", 1) if not meta.empty else 1
            return (line, column, f"the formula nests more than {MAX_DEPTH} operations "
                    "inside one another", "split a long sum, or name fewer conditions")
        stack.extend((child, depth + 1) for child in node.children)
    return None


def compile_formula(text: str, facts: Collection[str], *,
                    origin: Location | None = None) -> Formula:
    """A formula over `facts`; NotationError lists every problem, located."""

    def at(line: int, column: int) -> Location | None:
        """A position inside the formula, in the YAML file: the lines of a block
        scalar (`|`) share the first line's indentation."""
        if origin is None:
            return None
        if line <= 1:
            return origin.shifted(0, column - 1)
        return Location(origin.file, origin.line + line - 1, origin.column + column - 1)

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        at_end = isinstance(error, UnexpectedEOF) or \
            getattr(getattr(error, "token", None), "type", None) == "$END"
        rows = text.split("\n")
        line = len(rows) if at_end else getattr(error, "line", 1) or 1
        column = len(rows[-1]) + 1 if at_end else error.column or 1
        raise NotationError([Diagnostic(at(line, column), f"{SYNTAX}\n    "
                                        + _snippet(rows[line - 1], column))],
                            label=SYNTAX) from None
    bounded = _bounds(tree)
    if bounded:
        line, column, message, advice = bounded
        raise NotationError([Diagnostic(at(line, column), message, hint=advice)])
    build = _Tree()
    node: Node = build.transform(tree)
    problems = []
    used: set[str] = set()
    for name, line, column, args in build.names:
        if args is None:
            if name in facts:
                used.add(name)
                continue
            problems.append(Diagnostic(at(line, column), f"unknown fact {excerpt(name)}; "
                                       f"facts here: {', '.join(sorted(facts))}",
                                       hint=suggestion(name, facts)))
        elif name not in FUNCTIONS:
            problems.append(Diagnostic(at(line, column), f"unknown function {excerpt(name)}; "
                                       f"functions: {', '.join(sorted(FUNCTIONS))}"))
        else:
            least, most = ARITY[name]
            if args < least or (most is not None and args > most):
                need = f"{least}" if least == most else f"at least {least}"
                problems.append(Diagnostic(at(line, column), f"{name}() takes {need} value(s), "
                                           f"not {args}"))
    if problems:
        raise NotationError(problems)
    return Formula(text, node, frozenset(used))
