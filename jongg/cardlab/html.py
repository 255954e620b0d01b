"""The card report as one self-contained HTML page: its tables and its plots
(PNG, embedded), nothing fetched. Shares print with the precision their
interval allows, blanks where nothing was observed; every derived figure's
model is in a note under it."""

from __future__ import annotations

import base64
import math
import time
from html import escape
from pathlib import Path
from typing import Any

from jongg.cardlab.figures import Figures
from jongg.cardlab.plots import PLOTS
from jongg.runs.intervals import wilson

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
h3 { font-size: 1em; }
table { border-collapse: collapse; margin: .5em 0; font-size: .85em; }
th, td { border-bottom: 1px solid #ddd; padding: .2em .5em; text-align: right; }
td { white-space: nowrap; }
th { background: #eee; } td.text, th.text { text-align: left; }
.flag { color: #b0504a; font-weight: bold; }
.partial, .warn { color: #b0504a; font-weight: bold; }
.note { color: #555; font-size: .85em; max-width: 60em; }
img { max-width: 100%; display: block; margin: .5em 0; }
"""


def pct(x: float | None, ci: list[float] | tuple[float, float] | None = None) -> str:
    """A share as a percentage, to the precision its interval allows (blank: none)."""
    if x is None:
        return ""
    digits = 1
    if ci is not None:
        half = 100 * (ci[1] - ci[0]) / 2
        digits = 0 if half >= 1 or half <= 0 else min(2, -math.floor(math.log10(half)))
    text = f"{100 * x:.{digits}f}%"
    return text if ci is None else f"{text} ({100 * ci[0]:.{digits}f}-{100 * ci[1]:.{digits}f})"


def share(part: float | None, whole: int) -> str:
    """part (a share of `whole` things) to the precision of its interval."""
    if part is None or not whole:
        return ""
    return pct(part, wilson(round(part * whole), whole)).split(" (")[0]


def num(x: float | None, digits: int = 1) -> str:
    return "" if x is None else f"{x:.{digits}f}"


def _table(cls: str, head: list[str], rows: list[list[str]], text: int = 1) -> str:
    """Rows of escaped cells; the first `text` columns are left-aligned."""
    def cells(tag: str, row: list[str]) -> str:
        return "".join(f'<{tag}{" class=text" if i < text else ""}>{c}</{tag}>'
                       for i, c in enumerate(row))
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f'<table class="{cls}"><tr>{cells("th", head)}</tr>{body}</table>'


def note(text: str) -> str:
    return f'<p class="note">{escape(text)}</p>'


def _flag(text: str) -> str:
    return f'<span class="flag">{escape(text)}</span>'


def _committed(table: dict[str, Any]) -> str:
    agents = table["committed"]
    if not agents:
        return ""
    head = ["line", "section", "value"]
    for a in agents:
        head += [f"{escape(a['agent'])}: completed", "rate (95%)", "fair value (95%)", "flag"]
    first = agents[0]
    head += ["turns", "with a claim", "with jokers", "mean jokers", "joker exchange"]
    rows = []
    for k, ln in enumerate(first["lines"]):
        row = [escape(ln["line"]), escape(ln["section"]), str(ln["value"])]
        for a in agents:
            c = a["lines"][k]
            fair = "" if c["fair_value"] is None else \
                f"{c['fair_value']:.0f} ({c['fair_value_ci95'][0]:.0f}-" \
                f"{c['fair_value_ci95'][1]:.0f})"
            rate = "" if c["status"] == "impossible" else pct(c["rate"], c["rate_ci95"])
            row += [f"{c['completed']}/{c['rounds']}", rate, fair, _flag(c["flag"])]
        done = ln["completed"]
        row += [num(ln["mean_turns"]), share(ln["claim_share"], done),
                share(ln["joker_share"], done), num(ln["mean_jokers"], 2),
                share(ln["exchange_share"], done)]
        rows.append(row)
    out = ["<h3>Difficulty: a seat committed to the line</h3>",
           _table("committed", head, rows, text=2)]
    free = [a["agent"] for a in agents if not a["committed"]]
    if free:
        out.append(f'<p class="warn">{escape(", ".join(free))} takes no committed line: '
                   "its seat played freely, and its figures are how often it happened to "
                   "complete each line, not how hard the line is.</p>")
    out.append(note("Turns, claims, jokers and exchanges: of the completions under "
                    f"{first['agent']}; a claim: an exposure or the winning tile taken "
                    "from a discard. Every figure here depends on the agent; compare the "
                    "columns."))
    return "".join(out)


def _agreement(table: dict[str, Any], data_models: dict[str, str], key: str = "agreement",
               figure: str = "committed rates", rank: str = "the hardest line") -> str:
    out = []
    for pair in table.get(key, ()):
        a, b = pair["agents"]
        rho = "undefined" if pair["spearman"] is None else f"{pair['spearman']:.2f}"
        cls = "warn" if pair["warn"] else "note"
        warn = "; the rankings disagree: read no line from one agent alone" \
            if pair["warn"] else ""
        flips = f"; {len(pair['flips'])} lines flip" if pair["flips"] else ""
        out.append(f'<p class="{cls}">{escape(a)} and {escape(b)}: rank correlation of the '
                   f"{figure} {rho} over {pair['lines']} lines{warn}{flips}.</p>")
        if pair["flips"]:
            out.append(_table("flips", ["line", f"rank, {escape(a)}", f"rank, {escape(b)}",
                                        f"flag, {escape(a)}", f"flag, {escape(b)}"],
                              [[escape(f["line"]), f"{f['ranks'][0]:g}", f"{f['ranks'][1]:g}",
                                escape(f["flags"][0]), escape(f["flags"][1])]
                               for f in pair["flips"]]))
    if out:
        out.insert(0, f"<h3>Robust to the agent? ({escape(figure)})</h3>")
        out.append(note(data_models[key] + f". Rank 1 is {rank}."))
    return "".join(out)


def _mispriced(table: dict[str, Any]) -> str:
    out = ["<h3>Printed values outside their fair interval</h3>"]
    for a in table["committed"]:
        by_id = {c["line"]: c for c in a["lines"]}
        far = [by_id[i] for i in a["mispriced"]]
        valued = sum(1 for c in a["lines"] if c["fair_value"] is not None)
        text = ", ".join(f"{c['line']} {c['value']} (fair {c['fair_value']:.0f}, "
                         f"{c['fair_value_ci95'][0]:.0f}-{c['fair_value_ci95'][1]:.0f}; "
                         f"{c['printed_outside_by']:+.0f})" for c in far)
        out.append(f"<p>{escape(a['agent'])}: {valued} of {len(a['lines'])} lines valued "
                   f"(the rest: too few rounds or impossible); "
                   f"{escape(text) if text else 'none outside'}.</p>")
    return "".join(out)


def _sections(table: dict[str, Any]) -> str:
    committed = table["committed"]
    free = table.get("free") or [{"agent": "", "sections": table["sections"]}]
    rows = []
    for k, s in enumerate(table["sections"]):
        row = [escape(s["section"]), str(s["lines"])]
        for a in committed:
            rates = [c["rate"] for c in a["lines"] if c["section"] == s["section"] and
                     c["rate"] is not None and c["status"] != "impossible"]
            row.append("" if not rates else f"{pct(min(rates))}-{pct(max(rates))}")
        for g in free:
            t = g["sections"][k]
            row += [str(t["wins"]),
                    pct(t["share_of_wins"], t["share_of_wins_ci95"] if t["wins"] else None)]
        row.append(num(s["mean_turns_to_win"]))
        rows.append(row)
    head = ["section", "lines", *(f"committed rate, range: {escape(a['agent'])}"
                                  for a in committed)]
    for g in free:
        head += [f"free-play wins: {escape(g['agent'])}", "share of free-play wins (95%)"]
    return _table("sections", [*head, f"turns to win: {escape(free[0]['agent'])}"], rows)


def _free_agents(table: dict[str, Any]) -> str:
    """Each agent's free play side by side: what depends on the agent."""
    free = table.get("free", [])
    if len(free) < 2:
        return ""
    head = ["line", "section"]
    for g in free:
        head += [f"{escape(g['agent'])}: share of wins (95%)", "aimed at",
                 "won when aimed at (95%)", "flags"]
    sections = {ln["line"]: ln["section"] for ln in table["lines"]}
    rows = []
    for k, ln in enumerate(free[0]["lines"]):
        row = [escape(ln["line"]), escape(sections[ln["line"]])]
        for g in free:
            c = g["lines"][k]
            row += [pct(c["share_of_wins"], c["share_of_wins_ci95"]) if c["wins"] else "",
                    share(c["aimed_share"], table["players"] * g["rounds"]),
                    pct(c["aimed_win_rate"], c["aimed_win_rate_ci95"]),
                    _flag(" ".join(f for f in c["flags"] if f in ("drift", "never-won")))]
        rows.append(row)
    return ("<h3>Free play under each agent</h3>" + _table("free-agents", head, rows, text=2)
            + note("Each agent at every seat, on the same seeds, "
                   + ", ".join(f"{g['rounds']} rounds {g['agent']}" for g in free)
                   + ". The table above (turns, jokers, exposed, self-drawn) is the first "
                   "agent's."))


def _lines(table: dict[str, Any]) -> str:
    rows = []
    for ln in table["lines"]:
        flags = " ".join(ln["flags"])
        if ln["never_won_bound95"] is not None:
            flags += f" (rate under {pct(ln['never_won_bound95'])})"
        won = ln["wins"] > 0
        rows.append([escape(ln["line"]), escape(ln["section"]), str(ln["value"]),
                     str(ln["wins"]), pct(ln["share_of_rounds"], ln["share_of_rounds_ci95"]),
                     pct(ln["share_of_wins"], ln["share_of_wins_ci95"]) if won else "",
                     share(ln["aimed_share"], table["rounds"] * table["players"]),
                     pct(ln["aimed_win_rate"], ln["aimed_win_rate_ci95"]),
                     num(ln["mean_turns_to_win"]), share(ln["with_jokers_share"], ln["wins"]),
                     num(ln["mean_jokers"], 2), share(ln["exposed_share"], ln["wins"]),
                     share(ln["self_drawn_share"], ln["wins"]),
                     pct(ln["dealt_rate"], ln["dealt_rate_ci95"]) if ln["dealt_complete"]
                     else "", _flag(flags)])
    return _table("lines", ["line", "section", "value", "wins", "share of rounds (95%)",
                            "share of wins (95%)", "aimed at", "won when aimed at (95%)",
                            "turns to win", "with jokers", "mean jokers", "exposed",
                            "self-drawn", "dealt complete (95%)", "flags"], rows, text=2)


def _overlaps_played(table: dict[str, Any]) -> str:
    if not table["committed"]:
        return ""
    seen: dict[tuple[str, str], int] = {}
    for c in table["committed"][0]["lines"]:
        for other, times in c["also_completed"].items():
            first, second = sorted((c["line"], other))
            seen[first, second] = seen.get((first, second), 0) + times
    ranked = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
    if not ranked:
        return "<p>Overlaps produced by play: none (no winning hand completed two lines).</p>"
    return ("<h3>Overlaps produced by play</h3>" +
            _table("played-overlaps", ["line", "line", "winning hands completing both"],
                   [[escape(a), escape(b), str(n)] for (a, b), n in ranked], text=2) +
            note(f"Committed completions under {table['committed'][0]['agent']} whose hand "
                 "also completes another line, most often first."))


def _exact(table: dict[str, Any]) -> str:
    parts = ["<h3>Exact, from the variations</h3><ul>"]
    dominated = ", ".join(f"{escape(a)} (by {escape(b)})" for a, b in table["dominated"])
    parts.append(f"<li>dominated: {dominated or 'none'}</li>")
    parts.append(f"<li>impossible (no hand of the deck completes them): "
                 f"{escape(', '.join(table['impossible'])) or 'none'}</li>")
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


def header(data: dict[str, Any]) -> list[str]:
    name = Path(data["card"]).name.removesuffix(".yaml").removesuffix(".yml")
    title = f"Card report: {data.get('title') or name}"
    day = time.strftime("%Y-%m-%d", time.gmtime())
    agents = data["agents"]
    return [f"<!DOCTYPE html><html><head><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>",
            f"<p>card {escape(name)} in {escape(data['variant'])}; jongg {data['jongg']}; "
            f"{day}; seeds from {data['seed']}.</p>",
            f"<p>Agents: {escape(', '.join(agents))}. Free-play rounds a player count, every "
            "seat the agent: " + escape(", ".join(
                f"{n} {a}" for a, n in zip(agents, data["free_rounds"], strict=True)))
            + ". Committed rounds a line: "
            + escape(", ".join(f"{n} {a}" for a, n in zip(agents, data["committed_per_line"],
                                                         strict=True)))
            + f"; one seat committed (each seat in turn), the others {escape(agents[0])}.</p>"]


def report_html(data: dict[str, Any], found: list[Figures]) -> str:
    out = header(data)
    if data["partial"]:
        out.append('<p class="partial">Partial: the run was stopped; the tables cover the '
                   "rounds below. Give the same command again to continue.</p>")
    models = data["models"]
    card_rows = [[str(t["players"]), str(t["rounds"]), str(t["wins"]),
                  pct(t["wall_rate"], t["wall_rate_ci95"]), num(t["mean_round_turns"]),
                  str(t["unfinished"]), str(t["dealt_complete"]),
                  pct(t["dealt_rate"], t["dealt_rate_ci95"])] for t in data["tables"]]
    out.append("<h2>The card</h2>" + _table("card", ["players", "rounds", "wins",
                                                     "wall games (95%)", "turns a round",
                                                     "unfinished", "dealt complete",
                                                     "dealt complete (95%)"], card_rows)
               + note(models["dealt"]))
    for table, figures in zip(data["tables"], found, strict=True):
        out.append(f"<h2>{table['players']} players</h2>")
        out.append(_agreement(table, models))
        out.append(_mispriced(table) + note(models["fair"]))
        out.append(_committed(table) + note(models["committed"]))
        out.append("<h3>Balance</h3>" + _sections(table))
        out.append(_overlaps_played(table))
        out.append(f"<h3>Free play: where {escape(data['agents'][0])} goes "
                   f"({table['rounds']} rounds)</h3>" + _lines(table) + note(models["free"]))
        out.append(_free_agents(table))
        out.append(_agreement(table, models, "free_agreement", "free-play shares of wins",
                              "the line least won"))
        out.append(_exact(table))
        for name, draw in PLOTS.items():
            png = base64.b64encode(draw(figures, table)).decode()
            out.append(f'<img alt="{name}, {table["players"]} players" '
                       f'src="data:image/png;base64,{png}">')
    if "against" in data:
        from jongg.cardlab.compare import compare_html

        out.append(compare_html(data["against"]))
    out.append("</body></html>")
    return "\n".join(out)
