"""Standings of agents over many matches: who sits where, what each agent
won, with 95% intervals, and a rating.

Pure functions over match records (no processes, no files): the arena plays
the schedule, however it likes, and hands the records here.

- Seats rotate: lineup r seats agent (s + r) mod A at seat s, so over the A
  lineups of one deal every agent holds every seat equally. Every lineup of
  a deal plays the same seed (the same tiles), so luck of the deal cancels.
- Points and round wins are per seat-round (a round an agent played in one
  seat). Intervals are 95%, from the spread between deals (each deal's
  lineups together: the rounds of one deal are not independent).
- The rating is Bradley-Terry on the Elo scale (400 points: ten to one): in
  every round, each pair of seats held by different agents is a game won by
  the seat that took more points (a tie is half each). Its interval comes
  from resampling deals (seeded, so the same records give the same answer).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
ELO = 400 / math.log(10)  # Elo points per unit of log strength
BASE = 1500.0  # the average rating
PRIOR = 0.5  # games won by each side of every pair before any is played
RESAMPLES = 200


@dataclass(frozen=True)
class Seating:
    """One match of a schedule: its seed and the agent at each seat."""

    seed: int
    agents: tuple[str, ...]


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The rotation: lineup r seats agents[(s + r) % A] at seat s, so over
    the A lineups each agent holds each seat once."""
    if not agents:
        raise ValueError("no agents to seat")
    return [tuple(agents[(s + r) % len(agents)] for s in range(players))
            for r in range(len(agents))]


def schedule(agents: Sequence[str], players: int, deals: int, seed: int = 0
             ) -> list[Seating]:
    """`deals` deals (seeds seed, seed + 1, ...), each played in every lineup."""
    return [Seating(seed + d, lineup) for d in range(deals)
            for lineup in lineups(agents, players)]


@dataclass(frozen=True)
class Played:
    """One match as the standings read it."""

    seed: int
    agents: tuple[str, ...]  # by seat
    points: tuple[tuple[int, ...], ...]  # per round, each seat's points won
    winners: tuple[int | None, ...]  # per round, the seat that won it (None: nobody)
    match_winners: tuple[int, ...]  # the seats with the most at the end


def played(seating: Seating, points: Sequence[Sequence[int]],
           rounds: Sequence[dict[str, Any]], match_winners: Sequence[int]) -> Played:
    """A match of the schedule with its record's per-round points, round
    results (each with its "winner") and match winners."""
    if len(points) != len(rounds):
        raise ValueError(f"{len(points)} rounds of points but {len(rounds)} round results")
    return Played(seating.seed, seating.agents, tuple(tuple(p) for p in points),
                  tuple(r.get("winner") for r in rounds), tuple(match_winners))


def from_record(seating: Seating, record: Any) -> Played:
    """A match of the schedule from its MatchRecord (runtime/agents/play.py)."""
    return played(seating, record.points, record.rounds, record.winners)


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def excludes(self, value: float) -> bool:
        return not self.low <= value <= self.high

    def pair(self) -> list[float | None]:
        """[low, high] for JSON: a bound there is none of (too few deals)
        is null, since JSON has no infinity."""
        return [_number(self.low), _number(self.high)]

    def triple(self) -> list[float | None]:
        """[estimate, low, high] for JSON."""
        return [_number(self.estimate), *self.pair()]


def _number(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Standing:
    name: str
    rounds: int  # seat-rounds played
    round_wins: int
    win_share: Interval  # round wins per seat-round
    points_per_round: Interval
    matches: int  # seat-matches played
    match_wins: int
    rating: Interval
    match_share: Interval  # match wins per seat-match (a shared win counts whole)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "rounds": self.rounds, "round_wins": self.round_wins,
                "win_share": self.win_share.estimate, "win_interval": self.win_share.pair(),
                "points_per_round": self.points_per_round.estimate,
                "points_interval": self.points_per_round.pair(),
                "matches": self.matches, "match_wins": self.match_wins,
                "match_share": self.match_share.estimate,
                "match_interval": self.match_share.pair(),
                "rating": self.rating.estimate, "rating_interval": self.rating.pair()}


# -- per deal, what each agent took ------------------------------------------------

Sums = dict[str, list[float]]  # agent -> [points, wins, seat-rounds]


def _deals(records: Sequence[Played]) -> dict[int, Sums]:
    """Per deal (seed), each agent's points, round wins and seat-rounds."""
    deals: dict[int, Sums] = {}
    for match in records:
        sums = deals.setdefault(match.seed, {})
        for points, winner in zip(match.points, match.winners, strict=True):
            for seat, agent in enumerate(match.agents):
                row = sums.setdefault(agent, [0.0, 0.0, 0.0])
                row[0] += points[seat]
                row[1] += winner == seat
                row[2] += 1
    return deals


def _match_deals(records: Sequence[Played]) -> dict[int, Sums]:
    """Per deal, each agent's match wins and seat-matches (as [wins, 0,
    seat-matches], so _ratio reads them like rounds)."""
    deals: dict[int, Sums] = {}
    for match in records:
        sums = deals.setdefault(match.seed, {})
        for seat, agent in enumerate(match.agents):
            row = sums.setdefault(agent, [0.0, 0.0, 0.0])
            row[0] += seat in match.match_winners
            row[2] += 1
    return deals


def _ratio(deals: dict[int, Sums], agent: str, field: int) -> tuple[float, list[float]]:
    """An agent's mean per seat-round of a field, and each deal's share of
    its deviation (the linearised ratio estimator)."""
    rows = [d.get(agent, [0.0, 0.0, 0.0]) for d in deals.values()]
    total = sum(r[2] for r in rows)
    if not total:
        return math.nan, [0.0] * len(rows)
    mean = sum(r[field] for r in rows) / total
    return mean, [(r[field] - mean * r[2]) / total for r in rows]


def _interval(mean: float, parts: Sequence[float]) -> Interval:
    n = len(parts)
    if n < 2 or math.isnan(mean):
        return Interval(mean, -math.inf, math.inf)
    half = Z95 * math.sqrt(n / (n - 1) * sum(u * u for u in parts))
    return Interval(mean, mean - half, mean + half)


def mean_interval(records: Sequence[Played], agent: str, field: str = "points") -> Interval:
    """An agent's points (or "wins") per seat-round, with its 95% interval."""
    mean, parts = _ratio(_deals(records), agent, _FIELDS[field])
    return _interval(mean, parts)


_FIELDS = {"points": 0, "wins": 1}


def margin(records: Sequence[Played], better: str, worse: str, field: str = "points"
           ) -> Interval:
    """How many more points (or round wins) per seat-round `better` takes
    than `worse`, with its 95% interval: the deals pair them, since both
    played every deal in every seat."""
    deals = _deals(records)
    a, parts_a = _ratio(deals, better, _FIELDS[field])
    b, parts_b = _ratio(deals, worse, _FIELDS[field])
    return _interval(a - b, [x - y for x, y in zip(parts_a, parts_b, strict=True)])


# -- the rating ----------------------------------------------------------------------

Games = dict[tuple[str, str], float]  # (winner, loser) -> games won


def _games(records: Sequence[Played]) -> dict[int, Games]:
    """Per deal, the pairwise games: in each round, each pair of seats held
    by different agents, won by the one that took more points."""
    deals: dict[int, Games] = {}
    for match in records:
        games = deals.setdefault(match.seed, {})
        seats = list(enumerate(match.agents))
        for points in match.points:
            for i, a in seats:
                for j, b in seats[i + 1:]:
                    if a == b:
                        continue
                    first = 1.0 if points[i] > points[j] else 0.5 if points[i] == points[j] else 0.0
                    games[a, b] = games.get((a, b), 0.0) + first
                    games[b, a] = games.get((b, a), 0.0) + 1.0 - first
    return deals


def bradley_terry(agents: Sequence[str], games: Games, iterations: int = 200) -> dict[str, float]:
    """Ratings (Elo scale, averaging BASE) from games won between pairs, with
    PRIOR games won each way so a side that never won stays finite."""
    strength = dict.fromkeys(agents, 1.0)
    won = {a: sum(games.get((a, b), 0.0) + PRIOR for b in agents if b != a) for a in agents}
    played_ = {(a, b): games.get((a, b), 0.0) + games.get((b, a), 0.0) + 2 * PRIOR
               for a in agents for b in agents if a != b}
    for _ in range(iterations):
        new = {}
        for a in agents:
            denominator = sum(played_[a, b] / (strength[a] + strength[b])
                              for b in agents if b != a)
            new[a] = won[a] / denominator if denominator else 1.0
        centre = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {a: v / centre for a, v in new.items()}
    return {a: BASE + ELO * math.log(v) for a, v in strength.items()}


def ratings(records: Sequence[Played], agents: Sequence[str], seed: int = 0
            ) -> dict[str, Interval]:
    """Each agent's rating with a 95% interval from resampling deals."""
    deals = list(_games(records).values())

    def fit(chosen: Sequence[Games]) -> dict[str, float]:
        total: Games = {}
        for games in chosen:
            for pair, n in games.items():
                total[pair] = total.get(pair, 0.0) + n
        return bradley_terry(agents, total)

    found = fit(deals)
    if len(deals) < 2 or len(agents) < 2:
        return {a: Interval(found[a], -math.inf, math.inf) for a in agents}
    rng = random.Random(seed)
    samples = [fit([deals[rng.randrange(len(deals))] for _ in deals]) for _ in range(RESAMPLES)]
    out = {}
    for a in agents:
        values = sorted(s[a] for s in samples)
        out[a] = Interval(found[a], values[int(0.025 * len(values))],
                          values[min(len(values) - 1, int(0.975 * len(values)))])
    return out


def standings(records: Sequence[Played], seed: int = 0) -> list[Standing]:
    """Every agent's standing, best rated first."""
    agents = sorted({a for m in records for a in m.agents})
    deals = _deals(records)
    matches = _match_deals(records)
    rated = ratings(records, agents, seed)
    out = []
    for agent in agents:
        rounds = int(sum(d.get(agent, [0, 0, 0])[2] for d in deals.values()))
        wins = int(sum(d.get(agent, [0, 0, 0])[1] for d in deals.values()))
        seats = [(m, s) for m in records for s, a in enumerate(m.agents) if a == agent]
        out.append(Standing(
            agent, rounds, wins, _interval(*_ratio(deals, agent, 1)),
            _interval(*_ratio(deals, agent, 0)), len(seats),
            sum(s in m.match_winners for m, s in seats), rated[agent],
            _interval(*_ratio(matches, agent, 0))))
    return sorted(out, key=lambda s: -s.rating.estimate)
