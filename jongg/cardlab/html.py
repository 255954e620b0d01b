"""The card report as one self-contained HTML page: its tables and its plots
(PNG, embedded), nothing fetched."""

from __future__ import annotations

import base64
from html import escape
from typing import Any

from jongg.cardlab.figures import Figures
from jongg.cardlab.plots import PLOTS

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
h3 { font-size: 1em; }
table { border-collapse: collapse; margin: .5em 0; font-size: .85em; }
th, td { border-bottom: 1px solid #ddd; padding: .2em .5em; text-align: right; }
th { background: #eee; } td.text, th.text { text-align: left; }
.flag { color: #b0504a; font-weight: bold; }
.partial { color: #b0504a; font-weight: bold; }
img { max-width: 100%; display: block; margin: .5em 0; }
"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _table(cls: str, head: list[str], rows: list[list[str]], text: int = 1) -> str:
    """Rows of escaped cells; the first `text` columns are left-aligned."""
    def cells(tag: str, row: list[str]) -> str:
        return "".join(f'<{tag}{" class=text" if i < text else ""}>{c}</{tag}>'
                       for i, c in enumerate(row))
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f'<table class="{cls}"><tr>{cells("th", head)}</tr>{body}</table>'


def _lines(table: dict[str, Any]) -> str:
    rows = []
    for ln in table["lines"]:
        low, high = ln["share_of_rounds_ci95"]
        turns = "" if ln["mean_turns_to_win"] is None else f"{ln['mean_turns_to_win']:.1f}"
        flags = " ".join(ln["flags"])
        if ln["never_won_bound95"] is not None:
            flags += f" (rate under {_pct(ln['never_won_bound95'])})"
        rows.append([escape(ln["line"]), escape(ln["section"]), str(ln["value"]),
                     str(ln["suggested_value"]), str(ln["wins"]),
                     f"{_pct(ln['share_of_rounds'])} ({_pct(low)}-{_pct(high)})",
                     _pct(ln["share_of_wins"]), _pct(ln["aimed_share"]), turns,
                     _pct(ln["with_jokers_share"]), f"{ln['mean_jokers']:.2f}",
                     _pct(ln["exposed_share"]), _pct(ln["self_drawn_share"]),
                     f'<span class="flag">{escape(flags)}</span>'])
    return _table("lines", ["line", "section", "value", "suggested", "wins",
                            "share of rounds (95%)", "share of wins", "aimed at",
                            "turns to win", "with jokers", "mean jokers", "exposed",
                            "self-drawn", "flags"], rows, text=2)


def _sections(table: dict[str, Any]) -> str:
    rows = [[escape(s["section"]), str(s["lines"]), str(s["wins"]), _pct(s["share_of_wins"]),
             "" if s["mean_turns_to_win"] is None else f"{s['mean_turns_to_win']:.1f}"]
            for s in table["sections"]]
    return _table("sections", ["section", "lines", "wins", "share of wins", "turns to win"],
                  rows)


def _exact(table: dict[str, Any]) -> str:
    parts = ["<h3>Exact, from the variations</h3><ul>"]
    dominated = ", ".join(f"{escape(a)} (by {escape(b)})" for a, b in table["dominated"])
    parts.append(f"<li>dominated: {dominated or 'none'}</li>")
    parts.append(f"<li>only through jokers: {escape(', '.join(table['jokers_only'])) or 'none'}"
                 "</li>")
    if table["structural"]:
        parts.append(f"<li>left out (structural groups): "
                     f"{escape(', '.join(table['structural']))}</li>")
    if table["unsettled"]:
        parts.append("<li>too many hands to settle: " + escape(", ".join(
            f"{a}/{b}" for a, b in table["unsettled"])) + "</li>")
    parts.append(f"<li>overlapping pairs (one hand completes both): {len(table['overlaps'])}"
                 "</li></ul>")
    if table["overlaps"]:
        parts.append(_table("overlaps", ["line", "line", "a hand completing both"],
                            [[escape(a), escape(b), escape(h)]
                             for a, b, h in table["overlaps"]], text=3))
    return "".join(parts)


def report_html(data: dict[str, Any], found: list[Figures]) -> str:
    title = f"Card report: {data['card']} ({data['variant']})"
    out = [f"<!DOCTYPE html><html><head><meta charset=utf-8><title>{escape(title)}</title>"
           f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>",
           f"<p>agents {escape(', '.join(data['agents']))}; seeds from {data['seed']}; "
           f"{data['rounds_asked']} rounds asked per player count.</p>"]
    if data["partial"]:
        out.append('<p class="partial">Partial: the run was stopped; the tables cover the '
                   "rounds below. Give the same command again to continue.</p>")
    out.append(f"<p>Suggested values: {escape(data['value_model'])}.</p>")
    card_rows = [[str(t["players"]), str(t["rounds"]), str(t["wins"]),
                  f"{_pct(t['wall_rate'])} ({_pct(t['wall_rate_ci95'][0])}-"
                  f"{_pct(t['wall_rate_ci95'][1])})",
                  "" if t["mean_round_turns"] is None else f"{t['mean_round_turns']:.1f}",
                  str(t["unfinished"])] for t in data["tables"]]
    out.append("<h2>The card</h2>" + _table("card", ["players", "rounds", "wins",
                                                     "wall games (95%)", "turns a round",
                                                     "unfinished"], card_rows))
    for table, figures in zip(data["tables"], found, strict=True):
        out.append(f"<h2>{table['players']} players: {table['rounds']} rounds</h2>")
        far = figures.furthest()
        out.append("<p>Printed value furthest from the suggested: " + escape(", ".join(
            f"{r.id} {r.value} (suggested {r.suggested})" for r in far)) + "</p>")
        out.append("<h3>Sections</h3>" + _sections(table))
        out.append("<h3>Lines</h3>" + _lines(table))
        out.append(_exact(table))
        for name, draw in PLOTS.items():
            png = base64.b64encode(draw(figures)).decode()
            out.append(f'<img alt="{name}, {table["players"]} players" '
                       f'src="data:image/png;base64,{png}">')
    out.append("</body></html>")
    return "\n".join(out)
