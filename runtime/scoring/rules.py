"""A variant's hand scoring, compiled: plain values the scorer reads.

Conditions and element predicates are nested tuples (like formulas), built by
jongg.compiler.yaku and read by jongg.runtime.scoring.conditions:

- ("all", (c, ...)), ("any", (c, ...)), ("not", c)
- ("form", frozenset), ("flag", name, bool) for concealed / self_drawn / dealer
- ("declared", frozenset), ("option", frozenset), ("yaku", name)
- ("wait", frozenset), ("waits", low, high), ("fu", low, high)
- ("count", of, where, low, high), ("every", of, where)
- ("alike", of, where, same, differ, low, high, times)

A `where` is ("where", kinds, open, called, every, some, tiles, suits,
numbers, winning, negated): each None when the predicate says nothing of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jongg.runtime.game.formula import Formula
from jongg.runtime.tiles import Deck

Condition = tuple[object, ...]
Where = tuple[object, ...]
NEVER_LOW, NEVER_HIGH = 0, 10**9  # an open comparison's bounds


@dataclass(frozen=True, slots=True)
class Yaku:
    """A named pattern of a winning hand: han closed and open (open None: the
    hand must be closed), or a number of yakuman; scored when `when` holds."""

    name: str
    title: str
    when: Condition
    closed: Formula | None = None
    open: Formula | None = None
    yakuman: Formula | None = None
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FuItem:
    """Fu added when `when` holds, once, or for each element `each` selects."""

    name: str
    fu: Formula
    when: Condition | None = None
    each: tuple[str, Where] | None = None  # (of, where)


@dataclass(frozen=True, slots=True)
class Fu:
    fixed: tuple[tuple[Condition, int], ...]  # a hand whose fu is a number, not counted
    base: Formula
    add: tuple[FuItem, ...]
    round: int


@dataclass(frozen=True, slots=True)
class Dora:
    following: dict[int, int]  # an indicator's kind -> the dora's kind
    red: dict[int, int]  # the kinds with red copies -> how many copies are red
    red_when: Condition | None
    ura_when: Condition | None
    red_chosen: bool = False  # a seat holding a red and a plain copy chooses which to let go


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    when: Formula
    basic: Formula


@dataclass(frozen=True, slots=True)
class Limits:
    basic: Formula
    levels: tuple[Level, ...]


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str  # discarder, each-opponent, table
    amount: Formula
    when: Formula | None = None


@dataclass(frozen=True, slots=True)
class HandScoring:
    """Everything `jongg score VARIANT` needs."""

    variant: str
    deck: Deck
    players: int
    options: dict[str, bool]  # the defaults
    option_docs: dict[str, str]
    winds: tuple[int, ...]  # seat winds from the dealer, as kinds
    context: tuple[str, ...]
    classes: tuple[frozenset[str], ...]  # each kind's classes (seat and round winds apart)
    orphans: frozenset[int]  # the kinds of a thirteen-orphans hand
    runs: tuple[int, ...]  # each kind's next in a run, -1 for none
    yaku: tuple[Yaku, ...]
    fu: Fu
    dora: Dora
    limits: Limits
    payments: tuple[Payment, ...]
