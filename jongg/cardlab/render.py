"""`jongg card render`: the card as players know it, a printable HTML page.

Sections in order, each line's groups in the card's three colours (a suit
letter is a colour: a green, b red, c blue, as printed cards have them),
honours and flowers in black, signs as printed, then the value and C
(concealed) or X (exposed), and the line's note in brackets.
"""

from __future__ import annotations

from html import escape

from jongg.present.printed import Atom, Printed, printed
from jongg.runtime.card import Card, Line

# a colour's ink on the page
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

