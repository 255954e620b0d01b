"""The card report's figures: from a Tally of rounds and the card's exact
flags, a row per line and a summary per section and for the card.

Difficulty is how rare a line's wins are: -log10 of its share of rounds
(counted with half a win added, so a line never won has a finite
difficulty, largest). The suggested value is the card's own pricing of
difficulty: the least-squares line through (difficulty, printed value) of
the lines, read at the line's difficulty, kept within the card's values and
rounded to 5. A log, because prizes for rare events follow their odds
(a line ten times rarer is worth a fixed step more, not ten times more);
a fit to the printed values, because it keeps the card's scale and asks
only which lines stand off the card's own trend.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from jongg.cardlab.exact import Exact
from jongg.cardlab.tally import LineTally, Tally
from jongg.runs.intervals import never_bound, wilson
from jongg.runtime.card import Card

STEP = 5  # printed values are multiples of 5
DRIFT = 3.0  # a line more than this many times its even share of the seats' aims


@dataclass
class LineRow:
    id: str
    section: str
    value: int
    concealed: bool
    tally: LineTally
    rounds: int
    wins_total: int
    seats: int
    suggested: int = 0
    flags: tuple[str, ...] = ()

    @property
    def share(self) -> float:
        return self.tally.wins / self.rounds if self.rounds else 0.0

    @property
    def share_ci(self) -> tuple[float, float]:
        return wilson(self.tally.wins, self.rounds)

    @property
    def of_wins(self) -> float:
        return self.tally.wins / self.wins_total if self.wins_total else 0.0

    @property
    def of_wins_ci(self) -> tuple[float, float]:
        return wilson(self.tally.wins, self.wins_total)

    @property
    def aimed(self) -> float:
        return self.tally.aimed / self.seats if self.seats else 0.0

    @property
    def difficulty(self) -> float:
        return -math.log10((self.tally.wins + 0.5) / (self.rounds + 1))

    @property
    def mean_turns(self) -> float | None:
        t = self.tally.turns
        return sum(k * v for k, v in t.items()) / self.tally.wins if self.tally.wins else None

    def json(self) -> dict[str, Any]:
        t = self.tally
        wins = t.wins or 1  # shares of no wins are 0
        return {
            "line": self.id, "section": self.section, "value": self.value,
            "concealed": self.concealed, "wins": t.wins,
            "share_of_rounds": self.share, "share_of_rounds_ci95": list(self.share_ci),
            "share_of_wins": self.of_wins, "share_of_wins_ci95": list(self.of_wins_ci),
            "never_won_bound95": never_bound(self.rounds) if not t.wins else None,
            "aimed": t.aimed, "aimed_share": self.aimed, "aimed_at_walls": t.aimed_walls,
            "mean_turns_to_win": self.mean_turns,
            "turns_to_win": {str(k): v for k, v in sorted(t.turns.items())},
            "self_drawn_share": t.self_drawn / wins, "exposed_share": t.exposed / wins,
            "with_jokers_share": t.with_jokers / wins, "mean_jokers": t.jokers / wins,
            "difficulty": self.difficulty, "suggested_value": self.suggested,
            "flags": list(self.flags)}


@dataclass
class Figures:
    """A table's figures: every line of the card played, and the card's."""

    players: int
    tally: Tally
    rows: list[LineRow]
    fit: tuple[float, float]  # suggested value = fit[0] + fit[1] * difficulty
    exact: Exact

    @property
    def wins(self) -> int:
        return sum(r.tally.wins for r in self.rows)

    def card_json(self) -> dict[str, Any]:
        t = self.tally
        decided = t.rounds - t.unfinished
        return {"players": self.players, "rounds": t.rounds, "wins": self.wins,
                "walls": t.walls, "wall_rate": t.walls / t.rounds if t.rounds else 0.0,
                "wall_rate_ci95": list(wilson(t.walls, t.rounds)),
                "unfinished": t.unfinished,
                "mean_round_turns": t.turns / decided if decided else None,
                "value_model": {"intercept": self.fit[0], "per_difficulty": self.fit[1]}}

    def sections(self) -> list[dict[str, Any]]:
        found: dict[str, list[LineRow]] = {}
        for row in self.rows:
            found.setdefault(row.section, []).append(row)
        out = []
        for name, rows in found.items():
            wins = sum(r.tally.wins for r in rows)
            turns: Counter[int] = sum((r.tally.turns for r in rows), Counter())
            out.append({"section": name, "lines": len(rows), "wins": wins,
                        "share_of_wins": wins / self.wins if self.wins else 0.0,
                        "share_of_wins_ci95": list(wilson(wins, self.wins)),
                        "mean_turns_to_win": sum(k * v for k, v in turns.items()) / wins
                        if wins else None})
        return out

    def furthest(self, count: int = 5) -> list[LineRow]:
        """The lines whose printed value is furthest from the suggested one."""
        return sorted(self.rows, key=lambda r: -abs(r.value - r.suggested))[:count]


def least_squares(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(a, b) of the line y = a + b x nearest the points; flat if x never varies."""
    n = len(points)
    if not n:
        return (0.0, 0.0)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return (my, 0.0)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return (my - b * mx, b)


def figures(card: Card, players: int, tally: Tally, exact: Exact) -> Figures:
    """The figures of the lines of `card` (the lines played) from `tally`."""
    wins = sum(t.wins for t in tally.lines.values())
    rows = [LineRow(line.id, line.section, line.value or 0, line.concealed,
                    tally.lines.get(line.id, LineTally()), tally.rounds, wins, tally.seats)
            for line in card.lines]
    fit = least_squares([(r.difficulty, r.value) for r in rows])
    low, high = min(r.value for r in rows), max(r.value for r in rows)
    dominated = {a for a, _ in exact.dominated}
    even = 1 / len(rows)
    for r in rows:
        guess = min(max(fit[0] + fit[1] * r.difficulty, low), high)
        r.suggested = int(STEP * round(guess / STEP))
        flags = []
        if not r.tally.wins:
            flags.append("never-won")
        if r.id in dominated:
            flags.append("dominated")
        if r.id in exact.joker_only:
            flags.append("jokers-only")
        if tally.seats and r.aimed > DRIFT * even:
            flags.append("drift")
        r.flags = tuple(flags)
    return Figures(players, tally, rows, fit, exact)
