"""`jongg card render`: the card as players know it, a printable HTML page.

Sections in order, each line's groups in the card's three colours (a suit
letter is a colour: a green, b red, c blue, as printed cards have them),
honours and flowers in black, signs as printed, then the value and C
(concealed) or X (exposed), and the line's note in brackets.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from jongg.compiler import pattern as p
from jongg.compiler.card import load_ruleset
from jongg.compiler.notation import parse
from jongg.runtime.card import Card, Line

# a suit letter's colour, as printed cards have them (the card's own colours)
SUIT_COLOURS = {"a": "green", "b": "red", "c": "blue", "d": "purple", "e": "orange"}
COLOURS = {"green": "#11804a", "red": "#c8102e", "blue": "#1d4fc4", "purple": "#7a3db8",
           "orange": "#c46a00"}
INK = "#111111"

STYLE = f"""
body {{ font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: {INK}; }}
h1 {{ font-size: 1.5em; margin: 0 0 .2em; }}
.deck {{ color: #555; margin-bottom: 1em; }}
h2 {{ font-size: 1.05em; background: #eee; padding: .2em .5em; margin: 1em 0 .2em;
      page-break-after: avoid; }}
table {{ border-collapse: collapse; width: 100%; table-layout: fixed; }}
col.hand {{ width: 52%; }} col.note {{ width: 38%; }} col.value, col.cx {{ width: 5%; }}
tr {{ page-break-inside: avoid; border-bottom: 1px solid #ddd; }}
td {{ padding: .25em .5em; vertical-align: baseline; }}
td.hand {{ font-family: "DejaVu Sans Mono", monospace; font-size: 1.2em; font-weight: bold;
          letter-spacing: .04em; }}
td.hand .group {{ margin-right: .6em; }}
td.hand .option .group:last-child {{ margin-right: 0; }}
td.hand .var {{ font-style: italic; }}
td.hand .sign {{ margin-right: .6em; color: #444; }}
td.hand .or {{ color: #888; font-weight: normal; margin: 0 .3em; }}
td.note {{ color: #444; font-size: .85em; }}
td.value, td.cx {{ text-align: right; font-weight: bold; }}
.legend {{ margin-top: 1.5em; color: #555; font-size: .85em; }}
@media print {{ body {{ margin: .5cm; }}
               h2 {{ background: none; border-bottom: 1px solid #000; }} }}
"""


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
        return Printed("choice", options=tuple(tuple(_group(g, year) for g in option)
                                               for option in item.options))
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


# -- the page -------------------------------------------------------------------------
def _html_atom(atom: Atom) -> str:
    return f'<span class="var">{escape(atom.text)}</span>' if atom.variable else \
        escape(atom.text)


def _html(piece: Printed) -> str:
    text = "".join(_html_atom(a) for a in piece.atoms)
    if piece.kind == "group":
        colour = COLOURS[piece.colour] if piece.colour else INK
        return f'<span class="group" style="color: {colour}">{text}</span>'
    if piece.kind == "choice":
        options = ['<span class="option">' + "".join(_html(g) for g in option) + "</span>"
                   for option in piece.options]
        return "(" + '<span class="or">or</span>'.join(options) + ")"
    if piece.kind == "any":
        return f'<span class="group">{text}</span>'
    return f'<span class="sign">{text}</span>'


def _hand(line: Line, year: int | None) -> tuple[str, str]:
    """The line's groups as printed, and its note."""
    alternatives, note = printed(line, year)
    return '<span class="or">or</span>'.join(" ".join(_html(x) for x in alt)
                                             for alt in alternatives), note


_COLUMNS = ('<colgroup><col class="hand"><col class="note"><col class="value"><col class="cx">'
            "</colgroup>")


def card_html(card: Card, year: int | None = None) -> str:
    """The page; `year` is the card's `year:`, which `{year}` prints as."""
    rows: list[str] = []
    section = None
    for line in card.lines:
        if line.section != section:
            if section is not None:
                rows.append("</table>")
            section = line.section
            rows.append(f"<h2>{escape(section or 'Hands')}</h2>\n<table>{_COLUMNS}")
        hand, note = _hand(line, year)
        value = "" if line.value is None else str(line.value)
        rows.append(f'<tr id="{escape(line.id)}"><td class="hand">{hand}</td>'
                    f'<td class="note">{"(" + escape(note) + ")" if note else ""}</td>'
                    f'<td class="value">{escape(value)}</td>'
                    f'<td class="cx">{"C" if line.concealed else "X"}</td></tr>')
    if section is not None:
        rows.append("</table>")
    body = "\n".join(rows)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(card.title)}</title><style>{STYLE}</style></head><body>\n"
            f"<h1>{escape(card.title)}</h1>\n"
            f'<div class="deck">card {escape(card.name)} · deck {escape(card.deck.name)} · '
            f"{len(card.lines)} hands</div>\n{body}\n"
            '<div class="legend">Colours are suits: one colour one suit, different colours '
            "different suits. X: exposed, C: concealed. Italic letters stand for numbers "
            "or honours, as the note says.</div>\n</body></html>\n")

