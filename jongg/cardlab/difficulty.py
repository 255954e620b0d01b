"""Committed difficulty and the fair value it gives each line, per agent,
and how far two agents agree.

**Difficulty** of a line is its committed rate: of the rounds a seat played
for the line from the deal (committed.py), those it won with a hand
completing the line, with a 95% Wilson score interval. A line no hand of the
deck completes (cardlab/exact.py) is *impossible*, whatever was played.

**Fair value.** A prize for a rare event follows its odds: a line's fair
value is proportional to its surprisal, -ln(committed rate), so a line half
as likely to be completed is worth a fixed step more. The card's printed
values set only the level: the factor makes the mean fair value of the lines
valued equal their mean printed value, so the committee's scale is kept and
nothing is fitted to which line is priced how. A fair value's interval is
the factor times the surprisal at each end of the rate's interval (the
factor's own spread left out). A line completed fewer than MIN_COMPLETED
times has no fair value ("too few rounds"): its interval would be unbounded
or too wide to act on, and it takes no part in the level. A printed value
outside its line's interval is listed, with how far.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from jongg.cardlab.committed import CommitTally, commits
from jongg.cardlab.exact import Exact
from jongg.runs.intervals import wilson
from jongg.runtime.card import Card

MIN_COMPLETED = 5  # completions a fair value needs
FEW = "too few rounds"
IMPOSSIBLE = "impossible"
AGREE = 0.8  # rank correlation below which the card is warned of
SHIFT = 4  # a line's rank moving by more than a SHIFT-th of the lines is a flip


@dataclass
class CommitRow:
    """One line under one agent."""

    id: str
    section: str
    value: int
    tally: CommitTally
    impossible: bool
    fair: float | None = None
    fair_ci: tuple[float, float] | None = None

    @property
    def rate(self) -> float | None:
        return self.tally.completed / self.tally.rounds if self.tally.rounds else None

    @property
    def rate_ci(self) -> tuple[float, float]:
        return wilson(self.tally.completed, self.tally.rounds)

    @property
    def status(self) -> str:
        """impossible, too few rounds, or valued."""
        if self.impossible:
            return IMPOSSIBLE
        return FEW if self.tally.completed < MIN_COMPLETED else "valued"

    @property
    def priced(self) -> float | None:
        """How far the printed value lies outside the fair interval (+: above)."""
        if self.fair_ci is None or not self.value:
            return None
        low, high = self.fair_ci
        return self.value - high if self.value > high else \
            self.value - low if self.value < low else None

    @property
    def flag(self) -> str:
        """What a committee acts on: the status, or over/underpriced."""
        if self.status != "valued":
            return self.status
        far = self.priced
        return "" if far is None else "overpriced" if far > 0 else "underpriced"

    def json(self) -> dict[str, Any]:
        t = self.tally
        done = t.completed
        jokers_needed = t.with_jokers / done if done else None
        return {"line": self.id, "section": self.section, "value": self.value,
                "rounds": t.rounds, "completed": done, "rate": self.rate,
                "rate_ci95": list(self.rate_ci) if t.rounds else None,
                "status": self.status, "other_line": t.other_line, "lost": t.lost,
                "walls": t.walls, "unfinished": t.unfinished,
                "mean_turns": sum(k * v for k, v in t.turns.items()) / done if done else None,
                "turns": {str(k): v for k, v in sorted(t.turns.items())},
                "claim_share": t.claimed / done if done else None,
                "exposed_share": t.exposed / done if done else None,
                "joker_share": jokers_needed,
                "jokers": {str(k): v for k, v in sorted(t.jokers.items())},
                "mean_jokers": sum(k * v for k, v in t.jokers.items()) / done if done else None,
                "exchange_share": t.exchanged / done if done else None,
                "also_completed": dict(t.also.most_common()),
                "fair_value": self.fair,
                "fair_value_ci95": list(self.fair_ci) if self.fair_ci else None,
                "printed_outside_by": self.priced, "flag": self.flag}


@dataclass
class Committed:
    """A table's committed figures under one agent."""

    agent: str
    rows: list[CommitRow]
    factor: float | None  # fair value = factor * -ln(rate)
    committed: bool = True  # False: the agent takes no line, its seat played freely
    notes: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return sum(r.tally.rounds for r in self.rows)

    def mispriced(self) -> list[CommitRow]:
        """The lines whose printed value lies outside their fair interval,
        furthest first."""
        return sorted((r for r in self.rows if r.priced is not None),
                      key=lambda r: -abs(r.priced or 0))

    def json(self) -> dict[str, Any]:
        return {"agent": self.agent, "committed": self.committed, "rounds": self.rounds,
                "factor": self.factor, "lines": [r.json() for r in self.rows],
                "mispriced": [r.id for r in self.mispriced()]}


def surprisal(rate: float) -> float:
    return -math.log(rate) if rate > 0 else math.inf


def committed_figures(card: Card, agent: str, tallies: dict[str, CommitTally],
                      found: Exact) -> Committed:
    """The committed figures of every line of `card` under `agent`."""
    rows = [CommitRow(line.id, line.section, line.value or 0,
                      tallies.get(line.id, CommitTally()), line.id in found.impossible)
            for line in card.lines]
    valued = [r for r in rows if r.status == "valued" and r.value]
    factor = None
    if valued:
        level = sum(r.value for r in valued) / len(valued)
        mean = sum(surprisal(r.rate or 0.0) for r in valued) / len(valued)
        factor = level / mean if mean > 0 else None
    if factor is not None:
        for r in rows:
            if r.status == "valued":
                low, high = r.rate_ci
                r.fair = factor * surprisal(r.rate or 0.0)
                r.fair_ci = (factor * surprisal(high), factor * surprisal(low))
    return Committed(agent, rows, factor, commits(agent))


# -- two agents, side by side ----------------------------------------------------------
def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float | None:
    """Spearman's rank correlation; None when either side never varies."""
    if len(a) < 3:
        return None
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    sa = math.sqrt(sum((x - ma) ** 2 for x in ra))
    sb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    if not sa or not sb:
        return None
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True)) / (sa * sb)


@dataclass(frozen=True)
class Measure:
    """A line's figure under one agent, as two agents' rankings compare it."""

    line: str
    rate: float
    ci: tuple[float, float]
    flag: str
    flagged: bool  # its flag is measured (compared when both sides are)


def rank_agreement(agents: tuple[str, str], a: list[Measure], b: list[Measure]
                   ) -> dict[str, Any]:
    """The Spearman rank correlation of two agents' figures of the same
    lines, and the flips: a line whose rank moves by more than a SHIFT-th of
    the lines while its two intervals do not overlap (a move the rounds
    cannot explain), or a line whose flag differs where both measured it.
    Rank 1 is the lowest figure."""
    rho = spearman([x.rate for x in a], [y.rate for y in b])
    rank_a, rank_b = ranks([x.rate for x in a]), ranks([y.rate for y in b])
    far = max(2.0, len(a) / SHIFT)
    flips = []
    for x, y, i, j in zip(a, b, rank_a, rank_b, strict=True):
        moved = abs(i - j) > far and (x.ci[1] < y.ci[0] or y.ci[1] < x.ci[0])
        if moved or (x.flagged and y.flagged and x.flag != y.flag):
            flips.append({"line": x.line, "ranks": [i, j], "flags": [x.flag, y.flag],
                          "rank_moved": moved})
    return {"agents": list(agents), "lines": len(a), "spearman": rho,
            "warn": rho is None or rho < AGREE, "flips": flips}


def agreement(first: Committed, second: Committed) -> dict[str, Any]:
    """How two agents' committed figures agree (rank_agreement of the lines'
    committed rates, rank 1 the hardest; a flag compared where the line is
    valued under both: over-, underpriced or neither). Impossible lines and
    lines never played are left out."""
    pairs = [(a, b) for a, b in zip(first.rows, second.rows, strict=True)
             if a.rate is not None and b.rate is not None and not a.impossible]

    def measure(r: CommitRow) -> Measure:
        return Measure(r.id, r.rate or 0.0, r.rate_ci, r.flag, r.status == "valued")

    return rank_agreement((first.agent, second.agent), [measure(a) for a, _ in pairs],
                          [measure(b) for _, b in pairs])
