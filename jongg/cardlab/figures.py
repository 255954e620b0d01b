"""The card report's free-play figures: from a Tally of rounds (every seat
the same agent, each playing for whatever it likes) and the card's exact
flags, a row per line and a summary per section and for the card.

These say where play goes, not how hard a line is: a line's share of wins
mixes its difficulty with how often the agents aim at it (the line a seat
was nearest when the round ended). Beside the share: the win rate when
aimed at (wins over seats aiming at it). Beside them, a figure of the deal
alone: how often the dealer's hand completes a line as dealt. How hard a
line is, and what it is worth, come from committed rounds (difficulty.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from jongg.cardlab.difficulty import Measure, rank_agreement
from jongg.cardlab.exact import Exact
from jongg.cardlab.tally import LineTally, Tally
from jongg.runs.intervals import never_bound, wilson
from jongg.runtime.card import Card

DRIFT = 3.0  # a line more than this many times its even share of the seats' aims


def dealt_rate(dealt: int, rounds: int) -> dict[str, Any]:
    """How often the dealer's hand completed a line as dealt, with its 95%
    Wilson interval (the deal alone: no agent's play enters it)."""
    return {"dealt_rate": dealt / rounds if rounds else None,
            "dealt_rate_ci95": list(wilson(dealt, rounds)) if rounds else None}


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
    flags: tuple[str, ...] = ()
    hand: str = ""  # as the card writes it

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
    def aimed_win_rate(self) -> float | None:
        """Of the seats aiming at the line, those that won with it."""
        return self.tally.wins / self.tally.aimed if self.tally.aimed else None

    @property
    def mean_turns(self) -> float | None:
        t = self.tally.turns
        return sum(k * v for k, v in t.items()) / self.tally.wins if self.tally.wins else None

    def json(self) -> dict[str, Any]:
        t = self.tally
        wins = t.wins or None  # shares of no wins are blank

        def of_wins(count: int) -> float | None:
            return count / wins if wins else None

        return {
            "line": self.id, "section": self.section, "value": self.value, "hand": self.hand,
            "concealed": self.concealed, "wins": t.wins,
            "share_of_rounds": self.share, "share_of_rounds_ci95": list(self.share_ci),
            "share_of_wins": self.of_wins, "share_of_wins_ci95": list(self.of_wins_ci),
            "never_won_bound95": never_bound(self.rounds) if not t.wins else None,
            "aimed": t.aimed, "aimed_share": self.aimed, "aimed_at_walls": t.aimed_walls,
            "aimed_win_rate": self.aimed_win_rate,
            "aimed_win_rate_ci95": list(wilson(t.wins, t.aimed)) if t.aimed else None,
            "mean_turns_to_win": self.mean_turns,
            "turns_to_win": {str(k): v for k, v in sorted(t.turns.items())},
            "self_drawn_share": of_wins(t.self_drawn), "exposed_share": of_wins(t.exposed),
            "with_jokers_share": of_wins(t.with_jokers), "mean_jokers": of_wins(t.jokers),
            "dealt_complete": t.dealt, **dealt_rate(t.dealt, self.rounds),
            "flags": list(self.flags)}


@dataclass
class Figures:
    """A table's figures: every line of the card played, and the card's."""

    players: int
    tally: Tally
    rows: list[LineRow]
    exact: Exact
    agent: str = ""  # every seat's

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
                "dealt_complete": t.dealt, **dealt_rate(t.dealt, t.rounds)}

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


def figures(card: Card, players: int, tally: Tally, exact: Exact, agent: str = "") -> Figures:
    """The figures of the lines of `card` (the lines played) from `tally`."""
    wins = sum(t.wins for t in tally.lines.values())
    rows = [LineRow(line.id, line.section, line.value or 0, line.concealed,
                    tally.lines.get(line.id, LineTally()), tally.rounds, wins, tally.seats,
                    hand=line.pattern)
            for line in card.lines]
    dominated = {a for a, _ in exact.dominated}
    even = 1 / len(rows)
    for r in rows:
        flags = []
        if not r.tally.wins:
            flags.append("never-won")
        if r.id in dominated:
            flags.append("dominated")
        if r.id in exact.impossible:
            flags.append("impossible")
        if r.id in exact.joker_only:
            flags.append("jokers-only")
        if tally.seats and r.aimed > DRIFT * even:
            flags.append("drift")
        r.flags = tuple(flags)
    return Figures(players, tally, rows, exact, agent)


def free_json(f: Figures) -> dict[str, Any]:
    """An agent's free-play figures as report.json keeps them, each agent's
    beside the others'."""
    return {"agent": f.agent, **f.card_json(), "sections": f.sections(),
            "lines": [row.json() for row in f.rows]}


def free_agreement(first: Figures, other: Figures) -> dict[str, Any]:
    """How two agents' free play agrees: the rank correlation of the lines'
    shares of wins (each line's share of rounds won with it, so the
    intervals are over rounds), and the flips, a drift flag compared where
    both agents' seats aimed at the line."""
    def measure(r: LineRow) -> Measure:
        return Measure(r.id, r.share, r.share_ci, "drift" if "drift" in r.flags else "",
                       r.tally.aimed > 0)

    return rank_agreement((first.agent, other.agent), [measure(r) for r in first.rows],
                          [measure(r) for r in other.rows])
