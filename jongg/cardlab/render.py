"""`jongg card render`: the card as players know it, a printable HTML page.

Sections in order, each line's groups in the card's three colours (a suit
letter is a colour: a green, b red, c blue, as printed cards have them),
honours and flowers in black, signs as printed, then the value and C
(concealed) or X (exposed), and the line's note in brackets.
"""

from __future__ import annotations

from html import escape

from jongg.api import parse_pattern as parse
from jongg.api import pattern as p
from jongg.runtime.card import Card, Line

COLOURS = {"a": "#11804a", "b": "#c8102e", "c": "#1d4fc4", "d": "#7a3db8", "e": "#c46a00"}
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
td.hand .option > :last-child {{ margin-right: 0; }}
td.hand .var {{ font-style: italic; }}
td.hand .sign {{ margin-right: .6em; color: #444; }}
td.hand .or {{ color: #888; font-weight: normal; margin: 0 .3em; }}
td.note {{ color: #444; font-size: .85em; }}
td.value, td.cx {{ text-align: right; font-weight: bold; }}
.legend {{ margin-top: 1.5em; color: #555; font-size: .85em; }}
@media print {{ body {{ margin: .5cm; }}
               h2 {{ background: none; border-bottom: 1px solid #000; }} }}
"""


def _atom(atom: str, year: int | None) -> str:
    if atom == p.YEAR:
        return escape(str(year) if year is not None else "year")
    if atom.startswith("{"):  # the digits of a value: {n*m}
        return f'<span class="var">{escape(atom[1:-1].replace("*", "×"))}</span>'
    if p.is_variable(atom):
        return f'<span class="var">{escape(atom)}</span>'
    return escape(atom)


def _group(group: p.Group, year: int | None) -> str:
    colour = COLOURS.get(group.suit or "", INK)
    text = "".join(_atom(a, year) for a in group.atoms)
    return f'<span class="group" style="color: {colour}">{text}</span>'


def _item(item: p.Item, year: int | None) -> str:
    if isinstance(item, p.Group):
        return _group(item, year)
    if isinstance(item, p.Choice):
        options = ['<span class="option">' + "".join(_item(part, year) for part in
                                                     item.printed(i)) + "</span>"
                   for i in range(len(item.options))]
        return "(" + '<span class="or">or</span>'.join(options) + ")"
    if isinstance(item, p.Free):
        count = f"{item.count} " if item.count != 1 else ""
        return f'<span class="group">{escape(count)}any {escape(item.kind)}</span>'
    return f'<span class="sign">{escape(item.text)}</span>'


def _hand(line: Line, year: int | None) -> tuple[str, str]:
    """The line's groups as printed, and its conditions as a note."""
    pattern = parse(line.pattern)
    alternatives = [" ".join(_item(i, year) for i in alt.items) for alt in pattern.alternatives]
    conditions = [str(c) for alt in pattern.alternatives for c in alt.conditions]
    conditions += [str(c) for c in pattern.shared]
    return '<span class="or">or</span>'.join(alternatives), "; ".join(conditions)


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
        hand, conditions = _hand(line, year)
        note = line.note or conditions
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

