"""The card report's plots (matplotlib, drawn off screen), as PNG bytes: win
share by line with its intervals, printed value against difficulty with the
suggested line, turns to win per section."""

from __future__ import annotations

import io
from collections import Counter

import matplotlib

matplotlib.use("Agg")  # no display: files only, on any machine
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.figure import Figure  # noqa: E402

from jongg.cardlab.figures import Figures  # noqa: E402


def _png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.tight_layout()
    figure.savefig(out, format="png", dpi=90)
    plt.close(figure)
    return out.getvalue()


def win_shares(f: Figures) -> bytes:
    rows = f.rows
    figure, axes = plt.subplots(figsize=(10, max(3.0, 0.22 * len(rows) + 1)))
    ys = range(len(rows))
    shares = [100 * r.share for r in rows]
    low = [100 * (r.share - r.share_ci[0]) for r in rows]
    high = [100 * (r.share_ci[1] - r.share) for r in rows]
    axes.barh(list(ys), shares, xerr=[low, high], color="#4a7ab0", ecolor="#333",
              capsize=2)
    axes.set_yticks(list(ys), [r.id for r in rows], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel("rounds won with the line, % (95% interval)")
    axes.set_title(f"Win share by line, {f.players} players, {f.tally.rounds} rounds")
    return _png(figure)


def value_difficulty(f: Figures) -> bytes:
    figure, axes = plt.subplots(figsize=(7, 5))
    xs = [r.difficulty for r in f.rows]
    axes.scatter(xs, [r.value for r in f.rows], s=14, color="#b0504a")
    for r in f.furthest():
        axes.annotate(r.id, (r.difficulty, r.value), fontsize=7, xytext=(3, 3),
                      textcoords="offset points")
    if xs:
        a, b = f.fit
        ends = [min(xs), max(xs)]
        axes.plot(ends, [a + b * x for x in ends], color="#333", linewidth=1,
                  label=f"suggested: {a:.1f} {b:+.1f} x difficulty")
        axes.legend(fontsize=8)
    axes.set_xlabel("difficulty: -log10(share of rounds won)")
    axes.set_ylabel("printed value")
    axes.set_title("Value against difficulty")
    return _png(figure)


def turns_by_section(f: Figures) -> bytes:
    sections: dict[str, Counter[int]] = {}
    for r in f.rows:
        sections.setdefault(r.section, Counter()).update(r.tally.turns)
    figure, axes = plt.subplots(figsize=(8, 5))
    drawn = False
    for name, turns in sections.items():
        if not turns:
            continue
        axes.plot(sorted(turns), [turns[k] for k in sorted(turns)], marker=".",
                  linewidth=1, label=f"{name} ({sum(turns.values())} wins)")
        drawn = True
    if drawn:
        axes.legend(fontsize=7, ncol=2)
    axes.set_xlabel("turns of the round when won")
    axes.set_ylabel("wins")
    axes.set_title("Turns to win, by section")
    return _png(figure)


PLOTS = {"win-share": win_shares, "value-difficulty": value_difficulty,
         "turns": turns_by_section}
