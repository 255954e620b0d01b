"""The card report's plots (matplotlib, drawn off screen), as PNG bytes, each
from a table of report.json: committed rate by line under each agent, fair
value against printed, balance by section, turns to complete by section."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: files only, on any machine
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.figure import Figure  # noqa: E402

from jongg.cardlab.figures import Figures  # noqa: E402

COLOURS = ("#4a7ab0", "#b0504a", "#5a9a5a", "#8a6ab0")


def _png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.tight_layout()
    figure.savefig(out, format="png", dpi=90)
    plt.close(figure)
    return out.getvalue()


def _arm(width: float) -> float:
    """An error bar's arm in percent: never below 0 (a share of 0 or 1 can sit
    a rounding error outside its own interval)."""
    return max(0.0, 100 * width)


def committed_rates(f: Figures, table: dict[str, Any]) -> bytes:
    agents = table["committed"]
    count = len(f.rows)
    figure, axes = plt.subplots(figsize=(10, max(3.0, 0.22 * count + 1)))
    for k, a in enumerate(agents):
        ys, xs, low, high = [], [], [], []
        for i, c in enumerate(a["lines"]):
            if c["rate"] is None:
                continue
            ys.append(i + 0.25 * k)
            xs.append(100 * c["rate"])
            low.append(_arm(c["rate"] - c["rate_ci95"][0]))
            high.append(_arm(c["rate_ci95"][1] - c["rate"]))
        axes.errorbar(xs, ys, xerr=[low, high], fmt="o", markersize=3, capsize=2,
                      color=COLOURS[k % len(COLOURS)], label=a["agent"])
    axes.set_yticks(list(range(count)), [r.id for r in f.rows], fontsize=7)
    axes.invert_yaxis()
    if agents:
        axes.legend(fontsize=8)
    axes.set_xlabel("rounds a committed seat completed the line, % (95% interval)")
    axes.set_title(f"Committed difficulty by line, {f.players} players")
    return _png(figure)


def fair_printed(f: Figures, table: dict[str, Any]) -> bytes:
    figure, axes = plt.subplots(figsize=(7, 5))
    top = max((r.value for r in f.rows), default=0)
    for k, a in enumerate(table["committed"]):
        valued = [c for c in a["lines"] if c["fair_value"] is not None]
        xs = [c["value"] + 0.8 * k for c in valued]
        ys = [c["fair_value"] for c in valued]
        low = [c["fair_value"] - c["fair_value_ci95"][0] for c in valued]
        high = [c["fair_value_ci95"][1] - c["fair_value"] for c in valued]
        axes.errorbar(xs, ys, yerr=[low, high], fmt="o", markersize=3, capsize=2,
                      color=COLOURS[k % len(COLOURS)], label=a["agent"])
        for c in valued:
            if c["printed_outside_by"] is not None and k == 0:
                axes.annotate(c["line"], (c["value"], c["fair_value"]), fontsize=7,
                              xytext=(3, 3), textcoords="offset points")
        top = max([top, *(c["fair_value_ci95"][1] for c in valued)])
    axes.plot([0, top], [0, top], color="#333", linewidth=1, label="fair = printed")
    axes.legend(fontsize=8)
    axes.set_xlabel("printed value")
    axes.set_ylabel("fair value from committed difficulty (95% interval)")
    axes.set_title("Fair value against printed (lines with enough completions)")
    return _png(figure)


def balance(f: Figures, table: dict[str, Any]) -> bytes:
    sections = table["sections"]
    names = [s["section"] for s in sections]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, max(3.0, 0.35 * len(names) + 1)),
                                         sharey=True)
    ys = list(range(len(names)))
    shares = [100 * s["share_of_wins"] for s in sections]
    low = [_arm(s["share_of_wins"] - s["share_of_wins_ci95"][0]) for s in sections]
    high = [_arm(s["share_of_wins_ci95"][1] - s["share_of_wins"]) for s in sections]
    left.barh(ys, shares, xerr=[low, high], color=COLOURS[0], ecolor="#333", capsize=2)
    left.set_yticks(ys, names, fontsize=8)
    left.invert_yaxis()
    left.set_xlabel(f"share of free-play wins, % ({f.agent}, {f.tally.rounds} rounds)")
    if table["committed"]:
        lines = table["committed"][0]["lines"]
        for y, name in zip(ys, names, strict=True):
            rates = [100 * c["rate"] for c in lines if c["section"] == name and
                     c["rate"] is not None and c["status"] != "impossible"]
            if rates:
                right.plot([min(rates), max(rates)], [y, y], color=COLOURS[1], linewidth=3)
                right.plot(rates, [y] * len(rates), "|", color="#333")
        right.set_xlabel(f"committed rate of its lines, % ({table['committed'][0]['agent']})")
    figure.suptitle(f"Balance by section, {f.players} players")
    return _png(figure)


def turns_to_complete(f: Figures, table: dict[str, Any]) -> bytes:
    figure, axes = plt.subplots(figsize=(8, 5))
    series: dict[str, list[int]] = {}
    lines = table["committed"][0]["lines"] if table["committed"] else []
    for c in lines:
        turns = series.setdefault(c["section"], [])
        for k, v in c["turns"].items():
            turns += [int(k)] * v
    drawn = {name: t for name, t in series.items() if t}
    if drawn:
        axes.boxplot(list(drawn.values()), orientation="horizontal")
        axes.set_yticks(range(1, len(drawn) + 1),
                        [f"{name} ({len(t)})" for name, t in drawn.items()], fontsize=8)
        axes.invert_yaxis()
    axes.set_xlabel("turns of the round when the committed seat completed the line")
    axes.set_title("Turns to complete, by section (completions in brackets)")
    return _png(figure)


PLOTS = {"committed-rates": committed_rates, "fair-printed": fair_printed,
         "balance": balance, "turns": turns_to_complete}
