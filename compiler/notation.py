"""Parsing hand patterns with grammar/hand.lark into compiler.pattern values.

`parse()` is the single public entry point: it raises NotationError (never a
lark exception) whose message is a label learned from the example table
below, with the column and a caret under the offending text.
"""

from __future__ import annotations

import re
from functools import cache

from lark import Lark, Token, Transformer, Tree, UnexpectedInput, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, VisitError

from . import pattern as p
from .errors import Diagnostic, Location, NotationError

STRAY_SUIT = "a suit letter belongs right after its tiles, with no space"

# Malformed samples, by the message a user sees. A test parses every sample
# and checks that it yields its own label.
NOTATION_ERRORS: dict[str, list[str]] = {
    "a hand cannot be empty": ["", "   "],
    "unknown tile or suit letter; tiles are 0-9 F N E W S D R G, suit letters a-e, "
    "variables f-z (not l, o, x)": ["FF X", "1111A", "22Q 33a", "11a 2l", "11a ~"],
    STRAY_SUIT: ["11a b", "2222 a 33b"],
    "a choice is missing its closing ')'": ["(222a|555a", "(11a 22a", "11a (22a"],
    "a choice holds groups separated by '|', like (222a|555a)": [
        "()", "(222a|)", "(|222a)", "(11a ; shift)", "([pung])"],
    "a structural group is written [pung], [kong], [pair], [single], [quint], [sextet], "
    "[run] or [set], with an optional count before it: 3[set]": [
        "[chow]", "[]", "[pung", "3[kong", "[pung]]", "2[pair 22a"],
    "a '|' needs a hand on both sides": ["11a |", "| 11a", "11a || 22b", "11a | ; shift"],
    "a condition is 'shift', 'shift 2', 'suits 1,3', 'distinct n, m', or starts with a "
    "variable: 'n in 1..9', 'm = n+1', 'n != m'": [
        "11a ; 5", "11a ; (", "11a ; shift shift", "11a ; a in 1..9", "11a ; suits 1,3 x"],
    "a condition is missing after ';'": ["11a ;", "11a ; ;", "nna ; n in 1..9 ;"],
    "a variable needs 'in', '=' or '!=' after it": ["nna ; n", "nna ; n 5", "nna ; n < 3"],
    "a set of values is missing: write 'n in 1..9', 'n in odd', 'n in 3,6,9' or "
    "'h in dragon'": ["nna ; n in", "nna ; n in ;", "nna ; n in 1,", "nna ; n in 1, ;"],
    "a span needs both ends, like 1..9 or n..n+4": ["nna ; n in 1..", "nna ; n in ..5"],
    "a value is a number or a variable, optionally plus or minus a number: 3, n, n+1, "
    "n-2": ["nna ; m =", "nna ; m = n+", "nna ; m = n + m", "mma ; m = 1-n"],
    "'suits' takes the numbers of suits allowed, like 'suits 1,3'": [
        "11a ; suits", "11a ; suits 1,", "11a ; suits a"],
    "'distinct' takes two or more variables separated by commas": [
        "nna ; distinct", "nna ; distinct n", "nna ; distinct n,"],
    "'shift' takes one step, like 'shift 2'": ["11a ; shift 2 3", "11a ; shift x"],
}

# Terminal names in the users' words, for errors no label covers.
TERMINAL_NAMES = {
    "GROUP": "a group such as 222a", "COUNT": "a count", "FREE_KIND": "a structural kind",
    "DECORATION": "a sign (+ = x *)", "VAR": "a variable", "SUIT": "a suit letter",
    "NUMBER": "a number", "STEP": "a step", "COUNT_LIST": "suit counts", "SET_NAME": "a set name",
    "SEMICOLON": "';'", "VBAR": "'|'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "NO_JOKERS": "'!'", "$END": "the end", "IN": "'in'", "EQUAL": "'='",
    "COMMA": "','", "PLUS": "'+'", "MINUS": "'-'", "_NOT_EQUAL": "'!='", "_RANGE": "'..'",
    "DISTINCT": "'distinct'", "SHIFT": "'shift'", "SUITS": "'suits'",
}


@cache
def parser() -> Lark:
    return Lark.open_from_package("jongg.grammar", "hand.lark", ("",), parser="lalr",
                                  propagate_positions=True, maybe_placeholders=False)


_GROUP = re.compile(r"(\{year\}|[0-9FNEWSDRG]|[f-kmnp-wyz])")


# The most digits a count or a number may have: enough for any hand, and
# checked before the text becomes an int.
MAX_DIGITS = 4


class _Refused(Exception):
    """Text that parses but cannot be taken, raised from the transformer."""

    def __init__(self, message: str, token: Token):
        super().__init__(message)
        self.message = message
        self.line = token.line or 1
        self.column = token.column or 1


def _number(token: Token, what: str) -> int:
    if len(token) > MAX_DIGITS:
        raise _Refused(f"{what} {str(token)[:12]}{'...' if len(token) > 12 else ''} is too "
                       f"large: at most {MAX_DIGITS} digits", token)
    return int(token)


def _where(meta_or_token: object) -> p.Where:
    line = getattr(meta_or_token, "line", 1) or 1
    column = getattr(meta_or_token, "column", 1) or 1
    return (line, column)


@v_args(inline=True)
class _Build(Transformer):
    """Lark tree -> pattern values."""

    def start(self, hand: p.Pattern) -> p.Pattern:
        return hand

    def hand(self, *alternatives: p.Alternative) -> p.Pattern:
        return p.Pattern(tuple(alternatives))

    @v_args(meta=True, inline=False)
    def alternative(self, meta: object, children: list[object]) -> p.Alternative:
        items = tuple(c for c in children if isinstance(c, p.Item))
        conditions = tuple(c for c in children if not isinstance(c, p.Item))
        return p.Alternative(items, conditions, _where(meta))  # type: ignore[arg-type]

    def group(self, token: Token) -> p.Group:
        text = str(token)
        jokers = not text.endswith("!")
        text = text.rstrip("!")
        suit = text[-1] if text[-1] in p.SUIT_LETTERS else None
        body = text[:-1] if suit else text
        atoms = tuple(_GROUP.findall(body))
        return p.Group(atoms, suit, jokers, _where(token))

    @v_args(meta=True, inline=False)
    def choice(self, meta: object, options: list[p.Group]) -> p.Choice:
        return p.Choice(tuple(options), _where(meta))

    @v_args(meta=True, inline=False)
    def free(self, meta: object, children: list[Token]) -> p.Free:
        count, kind, jokers = 1, "", True
        for token in children:
            if token.type == "COUNT":
                count = _number(token, "the count")
            elif token.type == "FREE_KIND":
                kind = str(token)
            elif token.type == "NO_JOKERS":
                jokers = False
        return p.Free(kind, count, jokers, _where(meta))

    def decoration(self, token: Token) -> p.Decoration:
        return p.Decoration(str(token), _where(token))

    def var_in(self, var: Token, domain: tuple[p.DomainPart, ...]) -> p.VarIn:
        return p.VarIn(str(var), domain, _where(var))

    def var_is(self, var: Token, expr: p.Expr) -> p.VarIs:
        return p.VarIs(str(var), expr, _where(var))

    def var_differs(self, left: Token, right: Token) -> p.VarDiffers:
        return p.VarDiffers(str(left), str(right), _where(left))

    @v_args(meta=True, inline=False)
    def distinct(self, meta: object, vars_: list[Token]) -> p.Distinct:
        return p.Distinct(tuple(map(str, vars_)), _where(meta))

    @v_args(meta=True, inline=False)
    def shift(self, meta: object, step: list[Token]) -> p.Shift:
        return p.Shift(int(step[0]) if step else 1, _where(meta))

    @v_args(meta=True, inline=False)
    def suits(self, meta: object, counts: list[Token]) -> p.Suits:
        return p.Suits(tuple(int(c) for c in str(counts[0]).split(",")), _where(meta))

    def domain(self, *parts: p.DomainPart) -> tuple[p.DomainPart, ...]:
        return parts

    def span(self, low: p.Expr, high: p.Expr) -> p.Span:
        return p.Span(low, high)

    def one(self, value: p.Expr) -> p.One:
        return p.One(value)

    def named(self, token: Token) -> p.Named:
        return p.Named(str(token))

    def var_ref(self, var: Token) -> p.Expr:
        return p.Expr(str(var))

    def literal(self, number: Token) -> p.Expr:
        return p.Expr(None, _number(number, "the number"))

    def var_plus(self, var: Token, number: Token) -> p.Expr:
        return p.Expr(str(var), _number(number, "the number"))

    def var_minus(self, var: Token, number: Token) -> p.Expr:
        return p.Expr(str(var), -_number(number, "the number"))


def _parse_tree(text: str) -> Tree:
    return parser().parse(text)


def _label(error: UnexpectedInput, text: str) -> str | None:
    at = error.pos_in_stream or 0
    if (isinstance(error, UnexpectedCharacters) and error.char in p.SUIT_LETTERS
            and at > 0 and text[at - 1].isspace() and ";" not in text[:at]):
        return STRAY_SUIT
    try:
        return error.match_examples(_parse_tree, NOTATION_ERRORS, use_accepts=True)
    except Exception:  # a sample that unexpectedly parses must not hide the user's error
        return None


def _fallback(error: UnexpectedInput) -> str:
    if isinstance(error, UnexpectedCharacters):
        return f"unexpected character {error.char!r}"
    expected = sorted({TERMINAL_NAMES.get(t, t.lower().strip("_")) for t in
                       getattr(error, "expected", ()) or ()})
    token = getattr(error, "token", None)
    found = "the end" if isinstance(error, UnexpectedEOF) or token is None or token.type == "$END" \
        else repr(str(token))
    return f"unexpected {found}" + (f"; expected {', '.join(expected)}" if expected else "")


def _context(text: str, line: int, column: int, width: int = 72) -> str:
    """The row of the text at `line`, cut to about `width` characters around
    the column, and a caret under the column."""
    rows = text.splitlines() if text.strip() else [text]
    row = rows[min(line, len(rows)) - 1]
    start = max(0, min(column - 1 - width // 2, len(row) - width))
    cut = row[start:start + width]
    lead, caret = ("..." if start else ""), column - 1 - start
    tail = "..." if start + width < len(row) else ""
    return f"{lead}{cut}{tail}\n{' ' * (len(lead) + caret)}^"


def parse(text: str, *, origin: Location | None = None) -> p.Pattern:
    """Parse one hand pattern. `origin` is where the text starts in its file.

    Raises NotationError with a located, labelled message.
    """
    try:
        tree = _parse_tree(text)
        built: p.Pattern = _Build().transform(tree)
        return built
    except UnexpectedInput as error:
        label = _label(error, text) or _fallback(error)
        line, column = (error.line, error.column) if error.line and error.line > 0 else (1, 1)
        if isinstance(error, UnexpectedEOF) or column < 1:
            line, column = 1, len(text) + 1
        raise _located(text, label, line, column, origin) from None
    except VisitError as error:
        if isinstance(error.orig_exc, _Refused):
            refused = error.orig_exc
            raise _located(text, refused.message, refused.line, refused.column, origin) \
                from None
        # a transformer bug must still read as a notation error
        raise NotationError([Diagnostic(origin, f"cannot read {_excerpt(text)}: "
                                                f"{error.orig_exc}")]) from None


def _excerpt(text: str, width: int = 60) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")


def _located(text: str, label: str, line: int, column: int,
             origin: Location | None) -> NotationError:
    """The error for `label` at (line, column) of the pattern text, with a caret."""
    where = origin.shifted(line - 1, column - 1) if origin else None
    message = f"{label}\n    {_context(text, line, column).replace(chr(10), chr(10) + '    ')}"
    if origin is None:
        message = f"{label}, at column {column}: {_excerpt(text)}"
    return NotationError([Diagnostic(where, message)], label=label)
