"""Standings: the seat rotation, points and round wins per seat-round with
95% intervals, the margin between two agents, and the Bradley-Terry rating."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from jongg.runs.standings import (
    BASE,
    Played,
    Seating,
    bradley_terry,
    from_record,
    lineups,
    margin,
    mean_interval,
    schedule,
    standings,
)
from jongg.runtime.agents.play import play_match

from .rig import game


@pytest.mark.parametrize("agents,players", [(["a", "b"], 4), (["a", "b", "c"], 4),
                                            (["a", "b"], 2), (["a", "b", "c", "d", "e"], 4)])
def test_the_rotation_seats_every_agent_at_every_seat_equally(agents: list[str],
                                                              players: int) -> None:
    rotation = lineups(agents, players)
    assert len(rotation) == len(agents)
    for seat in range(players):
        assert Counter(lineup[seat] for lineup in rotation) == Counter(agents)


def test_a_schedule_plays_each_deal_in_every_lineup() -> None:
    found = schedule(["x", "y"], 4, deals=3, seed=10)
    assert [s.seed for s in found] == [10, 10, 11, 11, 12, 12]
    assert found[0].agents == ("x", "y", "x", "y") and found[1].agents == ("y", "x", "y", "x")
    with pytest.raises(ValueError, match="no agents"):
        lineups([], 4)


def _deal(seed: int, strong: int) -> list[Played]:
    """One deal in both lineups of a and b: in every round seat 0 or 1 wins
    `strong` points from the seat beside it; a wins more often."""
    out = []
    for agents in (("a", "b", "a", "b"), ("b", "a", "b", "a")):
        rounds, winners = [], []
        for r in range(4):
            winner = agents.index("a") if (seed + r) % 4 else agents.index("b")
            loser = 1 - winner
            row = [0, 0, 0, 0]
            row[winner], row[loser] = strong, -strong
            rounds.append(tuple(row))
            winners.append(winner)
        out.append(Played(seed, agents, tuple(rounds), tuple(winners), (0,)))
    return out


def test_points_and_wins_per_seat_round_and_the_margin_between_two_agents() -> None:
    records = [m for seed in range(8) for m in _deal(seed, 10)]
    a = mean_interval(records, "a")
    b = mean_interval(records, "b")
    # a wins 3 rounds of 4 in every deal, 10 points each, over 2 seats a round
    assert a.estimate == pytest.approx((3 * 10 - 1 * 10) / 8)
    assert b.estimate == pytest.approx(-a.estimate)
    assert a.low <= a.estimate <= a.high
    gap = margin(records, "a", "b")
    assert gap.estimate == pytest.approx(a.estimate - b.estimate)
    assert gap.excludes(0.0)
    wins = margin(records, "a", "b", "wins")
    assert wins.estimate == pytest.approx(3 / 8 - 1 / 8)


def test_one_deal_gives_no_interval() -> None:
    one = mean_interval(_deal(0, 10), "a")
    assert one.low == -math.inf and one.high == math.inf


def test_standings_report_every_agent_best_rated_first() -> None:
    records = [m for seed in range(8) for m in _deal(seed, 10)]
    table = standings(records)
    assert [s.name for s in table] == ["a", "b"]
    best, worst = table
    assert best.rounds == worst.rounds == 8 * 2 * 4 * 2  # deals x lineups x rounds x seats
    assert best.round_wins == 8 * 2 * 3 and worst.round_wins == 8 * 2
    assert best.matches == 32 and best.match_wins == 8  # seat 0 won each match
    assert best.match_share.estimate == 8 / 32
    assert best.match_share.low <= 8 / 32 <= best.match_share.high
    assert best.rating.estimate > BASE > worst.rating.estimate
    assert best.rating.low <= best.rating.estimate <= best.rating.high
    assert best.rating.low > worst.rating.high
    doc = best.as_json()
    assert set(doc) >= {"name", "rounds", "round_wins", "points_per_round", "points_interval",
                        "match_wins", "match_interval", "rating", "rating_interval"}
    assert standings(records) == table  # resampling is seeded: the same answer again


def test_bradley_terry_on_the_elo_scale() -> None:
    even = bradley_terry(["a", "b"], {("a", "b"): 50, ("b", "a"): 50})
    assert even["a"] == pytest.approx(BASE) and even["b"] == pytest.approx(BASE)
    three_to_one = bradley_terry(["a", "b"], {("a", "b"): 3000, ("b", "a"): 1000})
    assert three_to_one["a"] - three_to_one["b"] == pytest.approx(400 * math.log10(3), abs=1)
    never = bradley_terry(["a", "b"], {("a", "b"): 10})
    assert math.isfinite(never["b"]) and never["a"] > never["b"]


def test_a_real_match_record_gives_each_rounds_points() -> None:
    """Per-round points come from the payments: in a zero-sum game every
    round sums to zero, and the rounds add up to the final scores."""
    g = game("nymj", 4)
    seating = Seating(3, ("greedy", "random", "greedy", "random"))
    record, _ = play_match(g, seating.seed, seating.agents)
    match = from_record(seating, record)
    assert len(match.points) == len(record.rounds) > 0
    assert all(sum(row) == 0 for row in match.points)
    start = g.spec.match.start
    assert [start + sum(row[s] for row in match.points) for s in range(4)] == record.scores
    assert match.winners == tuple(r["winner"] for r in record.rounds)
