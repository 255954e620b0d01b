"""A card line as players know it, in no format: its groups in their suits'
colours, honours and flowers in none, signs, 'any' tiles and choices, and its
note. The card page (jongg/cardlab/render.py) and the table's card view
(present/cardview.py) both draw this."""

from __future__ import annotations

from dataclasses import dataclass

from jongg.api import load_ruleset
from jongg.api import parse_pattern as parse
from jongg.api import pattern as p
from jongg.runtime.card import Line

# a suit letter's colour, as printed cards have them (the card's own colours)
SUIT_COLOURS = {"a": "green", "b": "red", "c": "blue", "d": "purple", "e": "orange"}


@dataclass(frozen=True, slots=True)
class Atom:
    text: str
    variable: bool = False  # a letter standing for numbers or honours, as the note says


@dataclass(frozen=True, slots=True)
class Printed:
    """One piece of a line as printed: a group (its atoms, in its suit's
    colour; honours and flowers in none), 'any' tiles, a sign, or a choice
    of options (each a run of groups)."""

    kind: str  # "group", "any", "sign" or "choice"
    atoms: tuple[Atom, ...] = ()
    suit: str | None = None  # a group's suit letter (a, b, c)
    options: tuple[tuple[Printed, ...], ...] = ()

    @property
    def colour(self) -> str | None:
        """The group's colour: its suit letter's (SUIT_COLOURS)."""
        return SUIT_COLOURS.get(self.suit or "")


def _atom(atom: str, year: int | None) -> Atom:
    if atom == p.YEAR:
        return Atom(str(year)) if year is not None else Atom("year", True)
    if atom.startswith("{"):  # the digits of a value: {n*m}
        return Atom(atom[1:-1].replace("*", "×"), True)
    return Atom(atom, p.is_variable(atom))


def _group(group: p.Group, year: int | None) -> Printed:
    return Printed("group", tuple(_atom(a, year) for a in group.atoms), group.suit)


def _printed(item: p.Item, year: int | None) -> Printed:
    if isinstance(item, p.Group):
        return _group(item, year)
    if isinstance(item, p.Choice):
        return Printed("choice", options=tuple(tuple(_printed(part, year)
                                                     for part in item.printed(i))
                                               for i in range(len(item.options))))
    if isinstance(item, p.Free):
        count = f"{item.count} " if item.count != 1 else ""
        return Printed("any", (Atom(f"{count}any {item.kind}"),))
    return Printed("sign", (Atom(item.text),))


def printed(line: Line, year: int | None = None) -> tuple[tuple[tuple[Printed, ...], ...], str]:
    """The line as printed: its alternatives (any one of them makes it),
    each a run of pieces; and its note (the card's, else its conditions)."""
    pattern = parse(line.pattern)
    alternatives = tuple(tuple(_printed(i, year) for i in alt.items)
                         for alt in pattern.alternatives)
    conditions = [str(c) for alt in pattern.alternatives for c in alt.conditions]
    conditions += [str(c) for c in pattern.shared]
    return alternatives, line.note or "; ".join(conditions)


def card_year(card: str) -> int | None:
    """The year a card's `{year}` prints as: its `year:`, when it has one."""
    year = load_ruleset("card", card).data.get("year")
    return year if isinstance(year, int) else None


