"""Parsing hand patterns with grammar/hand.lark into compiler.pattern values.

`parse()` is the single public entry point: it raises NotationError (never a
lark exception) whose message is a label learned from the example table
below, with the column and a caret under the offending text.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, UnexpectedInput, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, VisitError

from . import pattern as p
from .errors import Diagnostic, Location, NotationError, did_you_mean
from .places import grammar_file

STRAY_SUIT = "a suit letter belongs right after its tiles, with no space"
UNCLOSED = "a choice is missing its closing ')'"
RESERVED = ("'{letter}' cannot name a tile or a variable: x is the times sign, and l and o "
            "look like 1 and 0; use another letter, f-z")
LINE_KEYS = ("jokers", "concealed", "value", "section", "note", "flags", "clause")
CONDITION_WORDS = ("shift", "suits", "distinct")

# Malformed samples, by the message a user sees. A test parses every sample
# and checks that it yields its own label.
NOTATION_ERRORS: dict[str, list[str]] = {
    "a hand cannot be empty": ["", "   "],
    "unknown tile or suit letter; tiles are 0-9 F N E W S D R G, suit letters a-e, "
    "variables f-z (not l, o, x)": ["FF X", "1111A", "22Q 33a", "11a ~", "A", "FF 11a X"],
    STRAY_SUIT: ["11a b", "2222 a 33b"],
    UNCLOSED: ["(222a|555a", "(11a 22a", "11a (22a",
                                            "(4444a 9999b|5555a 8888b", "FF (1a +",
                                            "FFFF (3333a + 9999b|4444a + 8888b = 12c"],
    "a choice holds options separated by '|', each one group or more, like (222a|555a) or "
    "(4444a 9999b|5555a 8888b)": [
        "()", "(222a|)", "(|222a)", "(11a ; shift)", "([pung])", "(+|222a)", "(222a|x)"],
    "a structural group is written [pung], [kong], [pair], [single], [quint], [sextet], "
    "[run] or [set], with an optional count before it: 3[set]": [
        "[chow]", "[]", "[pung", "3[kong", "[pung]]", "2[pair 22a"],
    "a '|' needs a hand on both sides": ["11a |", "| 11a", "11a || 22b", "11a | ; shift"],
    "a condition is 'shift', 'suits 1,3', 'distinct n, m', a variable's set or value "
    "('n in 1..9', 'm = n+1'), a test ('n != m', 'n+m = 13') or a suit letter's suits "
    "('a in bams, craks', 'c may be b')": [
        "11a ; 5", "11a ; (", "11a ; shift shift", "11a ; suits 1,3 x"],
    "a condition is missing after ';'": ["11a ;", "11a ; ;", "nna ; n in 1..9 ;"],
    "a variable needs 'in', '=' or '!=' after it": ["nna ; n", "nna ; n 5", "nna ; n < 3"],
    "a set of values is missing: write 'n in 1..9', 'n in odd', 'n in 3,6,9' or "
    "'h in dragon'": ["nna ; n in", "nna ; n in ;", "nna ; n in 1,", "nna ; n in 1, ;"],
    "a span needs both ends, like 1..9 or n..n+4": ["nna ; n in 1..", "nna ; n in ..5"],
    "a value is a number, a variable, or a sum, difference or product of them: 3, n, n+1, "
    "13-n, n*m": ["nna ; m =", "nna ; m = n+", "nna ; m = n*", "nna ; m = (n+1"],
    "'suits' takes the numbers of suits allowed, like 'suits 1,3'": [
        "11a ; suits", "11a ; suits 1,", "11a ; suits a"],
    "'distinct' takes two or more variables separated by commas": [
        "nna ; distinct", "nna ; distinct n", "nna ; distinct n,", "11a ; shift ; distinct"],
    "'shift' takes a step and a name for its offset, both optional: 'shift', 'shift 2', "
    "'shift s', 'shift 2 s'": ["11a ; shift 2 3", "11a ; shift x"],
    "a suit letter takes suits by name ('a in bams, craks', 'a not in dots'), may share "
    "another's suit ('c may be b') or differs from it ('a != b')": [
        "11a ; a in 1..9", "11a ; a", "11a ; a may", "11a ; a may be", "11a ; a != n",
        "11a ; a not"],
}

@cache
def parser() -> Lark:
    try:
        kept: str | bool = str(grammar_file("hand"))
    except OSError:  # no cache folder to be had: analyse the grammar every time
        kept = False
    return Lark.open_from_package("jongg.grammar", "hand.lark", ("",), parser="lalr",
                                  start=["start", "sum"], propagate_positions=True,
                                  maybe_placeholders=False, cache=kept)


_GROUP = re.compile(r"(\{[^{}]*\}|[0-9FNEWSDRG]|[f-kmnp-wyz])")

# The sets a number variable may range over by name, with the plurals authors write.
SET_NAMES = {"odd": "odd", "even": "even", "dragon": "dragon", "dragons": "dragon",
             "wind": "wind", "winds": "wind"}

# The most digits a count or a number may have: enough for any hand, and
# checked before the text becomes an int.
MAX_DIGITS = 4


class _Refused(Exception):
    """Text that parses but cannot be taken, raised from the transformer."""

    def __init__(self, message: str, token: Token, shift: int = 0):
        super().__init__(message)
        self.message = message
        self.line = token.line or 1
        self.column = (token.column or 1) + shift


def _number(token: Token, what: str) -> int:
    if len(token) > MAX_DIGITS:
        raise _Refused(f"{what} {str(token)[:12]}{'...' if len(token) > 12 else ''} is too "
                       f"large: at most {MAX_DIGITS} digits", token)
    return int(token)


def _where(meta_or_token: object) -> p.Where:
    line = getattr(meta_or_token, "line", 1) or 1
    column = getattr(meta_or_token, "column", 1) or 1
    return (line, column)


def _digits_of(atom: str, token: Token, at: int) -> str:
    """`{year}` as it is; `{n*m}` checked and written canonically."""
    inner = atom[1:-1].strip()
    if inner == "year":
        return p.YEAR
    try:
        value = _Build().transform(parser().parse(inner, start="sum"))
    except (UnexpectedInput, VisitError):
        value = None
    if not isinstance(value, p.Expr | p.Arith) or not value.variables():
        raise _Refused(f"'{atom}' stands for digits: write '{{year}}' for the card's year, or "
                       "a sum or product of variables, like {n+m} or {n*m}", token, at)
    return "{" + str(value) + "}"


@v_args(inline=True)
class _Build(Transformer[Token, Any]):
    """Lark tree -> pattern values."""

    def start(self, hand: p.Pattern) -> p.Pattern:
        return hand

    def hand(self, *alternatives: p.Alternative) -> p.Pattern:
        *first, last = alternatives
        if not first or any(alt.conditions for alt in first):
            return p.Pattern(alternatives)  # each alternative has its own conditions
        # only the last one has conditions: they bind every alternative
        return p.Pattern((*first, p.Alternative(last.items, (), last.at)), last.conditions)

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
        atoms = tuple(_digits_of(m.group(), token, m.start()) if m.group().startswith("{")
                      else m.group() for m in _GROUP.finditer(body))
        return p.Group(atoms, suit, jokers, _where(token))

    @v_args(meta=True, inline=False)
    def choice(self, meta: object, options: list[tuple[p.Option, p.Signs]]) -> p.Choice:
        signs = tuple(gaps for _, gaps in options)
        return p.Choice(tuple(groups for groups, _ in options), _where(meta),
                        signs if any(any(gaps) for gaps in signs) else ())

    def option(self, *items: p.Group | p.Decoration) -> tuple[p.Option, p.Signs]:
        """An option's groups, and the signs printed in each gap between them."""
        groups: list[p.Group] = []
        gaps: list[list[str]] = [[]]
        for item in items:
            if isinstance(item, p.Decoration):
                gaps[-1].append(item.text)
            else:
                groups.append(item)
                gaps.append([])
        return tuple(groups), tuple(" ".join(gap) for gap in gaps)

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

    @v_args(meta=True, inline=False)
    def equal(self, meta: object, sides: list[p.Value]) -> p.Condition:
        left, right = sides
        return p.relation("=", left, right, _where(meta))

    @v_args(meta=True, inline=False)
    def differ(self, meta: object, sides: list[p.Value]) -> p.Condition:
        left, right = sides
        return p.relation("!=", left, right, _where(meta))

    @v_args(meta=True, inline=False)
    def distinct(self, meta: object, vars_: list[Token]) -> p.Distinct:
        return p.Distinct(tuple(map(str, vars_)), _where(meta))

    @v_args(meta=True, inline=False)
    def shift(self, meta: object, tokens: list[Token]) -> p.Shift:
        step = next((int(t) for t in tokens if t.type == "SMALL"), 1)
        var = next((str(t) for t in tokens if t.type == "VAR"), None)
        return p.Shift(step, var, _where(meta))

    @v_args(meta=True, inline=False)
    def suits(self, meta: object, counts: list[Token]) -> p.Suits:
        return p.Suits(tuple(int(c) for c in counts), _where(meta))

    @v_args(meta=True, inline=False)
    def letter_in(self, meta: object, tokens: list[Token]) -> p.LetterIn:
        letters = tuple(str(t) for t in tokens if t.type == "SUIT")
        names = tuple(str(t) for t in tokens if t.type == "WORD")
        return p.LetterIn(letters, names, any(t.type == "NOT" for t in tokens), _where(meta))

    @v_args(meta=True, inline=False)
    def letter_may(self, meta: object, letters: list[Token]) -> p.LetterMay:
        first, *others = map(str, letters)
        return p.LetterMay(first, tuple(others), _where(meta))

    @v_args(meta=True, inline=False)
    def letter_differs(self, meta: object, letters: list[Token]) -> p.LetterDiffers:
        left, right = map(str, letters)
        return p.LetterDiffers(left, right, _where(meta))

    def domain(self, *parts: p.DomainPart) -> tuple[p.DomainPart, ...]:
        return parts

    def span(self, low: p.Value, high: p.Value) -> p.Span:
        return p.Span(low, high)

    def one(self, value: p.Value) -> p.One:
        return p.One(value)

    def named(self, token: Token) -> p.Named:
        name = SET_NAMES.get(str(token))
        if name is None:
            raise _Refused(f"unknown set {str(token)[:20]!r}; a variable ranges over numbers "
                           "(1..9, 3, 6, 9), odd, even, dragon or wind"
                           + did_you_mean(str(token), SET_NAMES), token)
        return p.Named(name)

    def var_ref(self, var: Token) -> p.Expr:
        return p.Expr(str(var))

    def literal(self, number: Token) -> p.Expr:
        return p.Expr(None, _number(number, "the number"))

    def add(self, left: p.Value, right: p.Value) -> p.Value:
        return p.arith("+", left, right)

    def sub(self, left: p.Value, right: p.Value) -> p.Value:
        return p.arith("-", left, right)

    def mul(self, left: p.Value, right: p.Value) -> p.Value:
        return p.arith("*", left, right)


# Terminal names in the users' words, for errors no label covers.
TERMINAL_NAMES = {
    "GROUP": "a group such as 222a", "COUNT": "a count", "FREE_KIND": "a structural kind",
    "DECORATION": "a sign (+ = x *)", "VAR": "a variable", "SUIT": "a suit letter",
    "NUMBER": "a number", "SMALL": "a digit 1-9", "WORD": "a name", "NOT": "'not'",
    "SEMICOLON": "';'", "VBAR": "'|'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "NO_JOKERS": "'!'", "$END": "the end of the hand", "IN": "'in'",
    "EQUAL": "'='", "COMMA": "','", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'",
    "_NOT_EQUAL": "'!='", "_RANGE": "'..'", "DISTINCT": "'distinct'", "SHIFT": "'shift'",
    "SUITS": "'suits'", "MAY": "'may'", "BE": "'be'",
}


def _parse_tree(text: str) -> Tree[Token]:
    return parser().parse(text, start="start")


_UNKNOWN_TILE = next(label for label in NOTATION_ERRORS if label.startswith("unknown tile"))
_EMPTY = "a hand cannot be empty"


def _word_at(text: str, at: int) -> tuple[int, str]:
    """Where the run of letters and digits around position `at` starts, and the run."""
    start = at
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    end = at
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, text[start:end]


def _label_in_words(error: UnexpectedInput, text: str) -> tuple[str, int] | None:
    """Mistakes the grammar cannot name, and where they start: a reserved
    letter, a YAML key or an unknown word written as a condition."""
    at = min(error.pos_in_stream or 0, len(text))
    start, word = _word_at(text, at)
    in_conditions = ";" in text[:at]
    opens_condition = text[:start].rstrip().endswith(";")
    reserved = [i for i, c in enumerate(word) if c in "xlo"]
    in_group = len(word) > 1 and not in_conditions and not text[:start].endswith("[")
    if reserved and (in_group or len(word) == 1 and opens_condition):
        return RESERVED.format(letter=word[reserved[0]]), start + reserved[0]
    if not (in_conditions and opens_condition and len(word) > 1 and word.isalpha()):
        return None
    if word in ("jokers", "concealed"):
        return (f"'{word}' is a key of the line, not a condition: write it beside 'hand:', "
                f"like '{word}: false'"), start
    if word in LINE_KEYS:
        return f"'{word}' is a key of the line, not a condition: write it beside 'hand:'", start
    if word not in CONDITION_WORDS:
        return f"unknown condition '{word[:20]}'" + did_you_mean(word, CONDITION_WORDS), start
    return None


def _label(error: UnexpectedInput, text: str) -> str | None:
    at = error.pos_in_stream or 0
    if (at < len(text) and text[at] in p.SUIT_LETTERS and not text[at + 1:at + 2].isalnum()
            and at > 0 and text[at - 1].isspace() and ";" not in text[:at]):
        return STRAY_SUIT
    token = getattr(error, "token", None)
    items = text.split(";")[0]
    if (token is None or token.type == "$END") and items.count("(") > items.count(")"):
        return UNCLOSED  # the hand ends inside a choice, whatever came last in it
    try:
        label = error.match_examples(_parse_tree, NOTATION_ERRORS, use_accepts=True)
    except Exception:  # a sample that unexpectedly parses must not hide the user's error
        return None
    return _UNKNOWN_TILE if label == _EMPTY and text.strip() else label


def _fallback(error: UnexpectedInput) -> str:
    if isinstance(error, UnexpectedCharacters):
        return f"unexpected character {error.char!r}"
    expected = sorted({TERMINAL_NAMES.get(t, t.lower().strip("_")) for t in
                       getattr(error, "expected", ()) or ()})
    token = getattr(error, "token", None)
    found = "the end of the hand" if isinstance(error, UnexpectedEOF) or token is None or \
        token.type == "$END" else repr(str(token))
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
        return _pattern(text)
    except UnexpectedInput as error:
        worded = _label_in_words(error, text)
        label = worded[0] if worded else _label(error, text) or _fallback(error)
        line, column = (error.line, error.column) if error.line and error.line > 0 else (1, 1)
        if isinstance(error, UnexpectedEOF) or column < 1:
            line, column = 1, len(text) + 1
        if worded:  # the caret goes under the word, where the mistake starts
            line = text.count("\n", 0, worded[1]) + 1
            column = worded[1] - (text.rfind("\n", 0, worded[1]) + 1) + 1
        raise _located(text, label, line, column, origin) from None
    except VisitError as error:
        if isinstance(error.orig_exc, _Refused):
            refused = error.orig_exc
            raise _located(text, refused.message, refused.line, refused.column, origin) \
                from None
        # a transformer bug must still read as a notation error
        raise NotationError([Diagnostic(origin, f"cannot read {_excerpt(text)}: "
                                                f"{error.orig_exc}")]) from None


# A card's lines are parsed again for every deck it is checked against (a
# variant checks its card at each player count), and a pattern is frozen and
# placed relative to its own text, so a text read once is read back. A text
# that does not parse raises each time: its message names where it was written.
@lru_cache(maxsize=4096)
def _pattern(text: str) -> p.Pattern:
    built: p.Pattern = _Build().transform(_parse_tree(text))
    return built


def _excerpt(text: str, width: int = 60) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")


def parse_value(text: str) -> p.Value:
    """A value written on its own (`n*m`, inside a `{n*m}` atom already checked)."""
    value: p.Value = _Build().transform(parser().parse(text, start="sum"))
    return value


def _located(text: str, label: str, line: int, column: int,
             origin: Location | None) -> NotationError:
    """The error for `label` at (line, column) of the pattern text, with a caret."""
    where = origin.shifted(line - 1, column - 1) if origin else None
    message = f"{label}\n    {_context(text, line, column).replace(chr(10), chr(10) + '    ')}"
    if origin is None:
        message = f"{label}, at column {column}: {_excerpt(text)}"
    return NotationError([Diagnostic(where, message)], label=label)
