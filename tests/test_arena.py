"""`jongg arena`: agents on seeded deals, seats rotated, standings with
intervals and ratings, kept in a file as they are played and resumed from it."""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from jongg.commands.arena import _percent
from jongg.runs.arena import Bouts, arena
from jongg.runs.standings import Interval

from .conftest import run_cli

CHEAP = "greedy,random"  # agents quick enough for the default suite


def _standings(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status, out, err = run_cli(capsys, "arena", *args, "--json", "--quiet")
    assert status == 0, err
    found: dict[str, object] = json.loads(out)
    return found


def _matches(journal: Path) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    return [m for chunk in lines[1:] for m in chunk["result"]]


def test_the_arena_rotates_seats_and_prints_standings_as_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "arena.jsonl"
    found = _standings(capsys, "mjcg-card", "--agents", CHEAP, "--rounds", "2", "--seed", "7",
                       "--out", str(journal))
    assert (found["variant"], found["players"], found["seed"]) == ("mjcg-card", 4, 7)
    rows = found["agents"]
    assert isinstance(rows, list)
    assert [r["name"] for r in rows] == ["greedy", "random"]  # best rated first
    for row in rows:
        assert set(row) >= {"name", "rounds", "round_wins", "points_per_round",
                            "points_interval", "match_wins", "rating", "rating_interval"}
        low, high = row["points_interval"]
        assert low <= row["points_per_round"] <= high
    assert rows[0]["rounds"] == rows[1]["rounds"] > 0  # every agent in every seat alike
    # each deal is one seed, played once in each seating: each agent holds
    # each seat equally often on every deal
    matches = _matches(journal)
    assert len(matches) == 2 * 2
    for seed in (7, 8):
        held = Counter((agent, seat) for m in matches if m["seed"] == seed
                       for seat, agent in enumerate(m["agents"]))
        assert held == {(a, s): 1 for a in ("greedy", "random") for s in range(4)}


def test_the_expert_beats_random_by_a_margin_whose_interval_excludes_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    found = _standings(capsys, "mjcg-card", "--agents", "expert,random", "--rounds", "2",
                       "--seed", "1000")
    rows = found["agents"]
    assert isinstance(rows, list)
    assert rows[0]["name"] == "expert"
    assert rows[0]["rating_interval"][0] > rows[1]["rating_interval"][1]
    (gap,) = found["margins"]  # type: ignore[misc]
    assert gap["better"] == "expert" and gap["wins"][1] > 0 and gap["points"][1] > 0


def test_down_the_ladder_each_agent_is_measured_against_the_next_below(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Beside the best agent's margins over every other, each agent's over
    the one rated next below it (a ladder's rungs), in JSON and printed,
    as the standings' own margin of that pair."""
    agents = "expert,greedy,random"
    journal = tmp_path / "ladder.jsonl"
    found = _standings(capsys, "mjcg-card", "--agents", agents, "--rounds", "2",
                       "--seed", "1000", "--out", str(journal))
    names = [row["name"] for row in found["agents"]]  # type: ignore[attr-defined]
    steps = found["steps"]
    assert isinstance(steps, list)
    assert [(s["better"], s["worse"]) for s in steps] == list(pairwise(names))
    first = found["margins"][0]  # type: ignore[index]
    assert steps[0] == first  # the best over the next: the same pair, the same margin
    from jongg.runs.standings import Played, margin

    played = [Played(**m) for m in _matches(journal)]  # type: ignore[arg-type]
    for step in steps:
        assert list(margin(played, step["better"], step["worse"]).triple()) == \
            pytest.approx(step["points"])
    status, out, err = run_cli(capsys, "arena", "mjcg-card", "--agents", agents, "--rounds",
                               "2", "--seed", "1000", "--out", str(journal), "--quiet")
    assert status == 0, err
    assert f"{names[1]} over {names[2]} (the next below): round wins" in out


def test_one_deal_has_no_interval_and_its_json_says_null(
        capsys: pytest.CaptureFixture[str]) -> None:
    """JSON has no infinity: a bound there is none of is null, so strict
    readers take the output."""
    status, out, _ = run_cli(capsys, "arena", "mjcg-card", "--agents", CHEAP, "--rounds", "1",
                             "--json", "--quiet")
    assert status == 0

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the JSON")

    found = json.loads(out, parse_constant=refuse)
    assert found["agents"][0]["points_interval"] == [None, None]
    assert found["margins"][0]["wins"][1:] == [None, None]


def test_a_margin_is_printed_signed_while_a_share_is_cut_to_its_range() -> None:
    """A margin's interval may reach below zero (the agents not yet told
    apart): it is printed as it is; a share's cannot leave 0..100%."""
    assert _percent(Interval(0.06, -0.01, 0.13), share=False) == "6% [-1%, 13%]"
    assert _percent(Interval(0.02, -0.01, 0.05)) == "2% [0%, 5%]"


def test_a_stopped_arena_goes_on_from_its_file_to_the_same_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "arena.jsonl"
    common = ["mjcg-card", "--agents", CHEAP, "--seed", "3"]
    _standings(capsys, *common, "--rounds", "2", "--out", str(journal))
    kept = journal.read_text()
    status, out, err = run_cli(capsys, "arena", *common, "--rounds", "3", "--out", str(journal),
                               "--quiet")
    assert status == 0
    assert "2 of the deals were read back" in err
    assert journal.read_text().startswith(kept)  # appended to, never rewritten
    assert len(_matches(journal)) == 3 * 2
    resumed = _standings(capsys, *common, "--rounds", "3", "--out", str(journal))
    fresh = _standings(capsys, *common, "--rounds", "3")
    assert resumed == fresh


def test_an_interrupted_arena_keeps_what_finished_and_the_file_plays_on(tmp_path: Path) -> None:
    """Ctrl-C after the first deal: the standings are of that deal alone,
    said to be partial, and the same run from the file plays the rest."""
    journal = tmp_path / "arena.jsonl"
    bouts = Bouts("mjcg-card", 4, ("greedy", "random"))
    finished = []

    def stop_after_one(deals: int) -> None:
        finished.append(deals)
        if len(finished) > 1:
            raise KeyboardInterrupt

    stopped = arena(bouts, 3, 20, out=journal, progress=stop_after_one)
    assert stopped.partial and stopped.done == 1
    assert {m.seed for m in stopped.matches} == {20}
    rest = arena(bouts, 3, 20, out=journal)
    assert not rest.partial and rest.resumed == 1
    assert rest.table == arena(bouts, 3, 20).table


def test_the_arena_on_two_processes_finds_what_one_finds(
        capsys: pytest.CaptureFixture[str]) -> None:
    common = ["mjcg-card", "--agents", CHEAP, "--rounds", "3", "--seed", "11"]
    assert _standings(capsys, *common, "--jobs", "2") == _standings(capsys, *common)


def test_a_file_of_another_run_or_kind_is_refused_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "arena.jsonl"
    _standings(capsys, "mjcg-card", "--agents", CHEAP, "--rounds", "1", "--out", str(journal))
    kept = journal.read_bytes()
    status, out, err = run_cli(capsys, "arena", "mjcg-card", "--agents", "random,greedy",
                               "--rounds", "1", "--out", str(journal), "--quiet")
    assert status == 1
    assert f"{journal}: it is the journal of another run" in out + err
    assert journal.read_bytes() == kept
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    status, out, err = run_cli(capsys, "arena", "mjcg-card", "--agents", CHEAP,
                               "--rounds", "1", "--out", str(notes), "--quiet")
    assert status == 1
    assert f"{notes}: line 1 is not JSON" in out + err
    assert notes.read_text() == "my notes\n"


@pytest.mark.parametrize("args,message", [
    (["--rounds", "0"], "--rounds: give at least 1"),
    (["--agents", "greedy,greedy"], "--agents: 'greedy' is named twice"),
    (["--agents", "greedy"], "an arena needs at least two agents"),
    (["--agents", "greedy,nobody"], "--agents: unknown agent 'nobody'"),
    (["--agents", "greedy,os:nothing"], "'os' has no 'nothing'"),
    (["--jobs", "0"], "--jobs: give at least 1"),
])
def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str], args: list[str],
                                 message: str) -> None:
    status, out, err = run_cli(capsys, "arena", "mjcg-card", "--agents", CHEAP, *args)
    assert status == 1
    assert message in out + err


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("nymj", 4), ("mjcg", 4), ("siamese", 2)])
def test_the_arena_ranks_the_expert_above_random_on_shipped_variants(variant: str,
                                                                     players: int) -> None:
    """On a few seeded deals of each kind of game (racks included), the
    expert takes more round wins and points than random, each margin's 95%
    interval above zero (its margin over greedy: tests/test_expert.py)."""
    result = arena(Bouts(variant, players, ("expert", "random")), 6, 1000)
    assert result.table[0].name == "expert"
    ((other, wins, points),) = result.gaps()
    assert other == "random" and wins.low > 0 and points.low > 0, (wins, points)


@pytest.mark.parametrize(("agents", "holds"), [
    (CHEAP, "each agent holds 2 of the 4 seats in every match"),
    (f"{CHEAP},jongg.runtime.agents.bots:RandomAgent",
     "each agent holds 1 or 2 of the 4 seats in a match"),
])
def test_the_header_says_the_counts_are_by_seat_as_the_table_counts(
        capsys: pytest.CaptureFixture[str], agents: str, holds: str) -> None:
    """Two agents at four seats play each match twice over: the header says
    so, and its count of seat-matches is the table's match-wins denominator."""
    status, out, err = run_cli(capsys, "arena", "nymj", "--agents", agents, "--rounds", "1",
                               "--quiet")
    assert status == 0, err
    first, second = out.splitlines()[:2]
    matches = len(agents.split(","))
    assert first.startswith(f"nymj, 4 players: 1 deal, seeds 0..0, each in {matches} "
                            f"seatings ({matches} matches)")
    assert second == (f"{holds}, counted in each seat: match wins are out of 4 seat-matches "
                      "an agent, rounds are seat-rounds")
    assert re.findall(r"\b\d+/(\d+),", out) == ["4"] * matches, out


@pytest.mark.parametrize(("agents", "players", "said"), [
    (4, 4, "each agent holds one seat in every match"),
    (2, 6, "each agent holds 3 of the 6 seats in every match"),
    (4, 6, "each agent holds 1 or 2 of the 6 seats in a match"),
    (5, 4, "each agent holds one seat in 4 of every 5 matches"),
])
def test_how_the_seats_are_shared_is_said_for_every_count(agents: int, players: int,
                                                          said: str) -> None:
    from jongg.commands.arena import seats_held

    assert seats_held(agents, players) == said


def test_the_standings_written_to_a_file_cut_nothing_short(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Written where there is no terminal (a file, a pipe), the table is as
    wide as it needs: two agents whose names differ only at their end are
    both named whole, and no figure is cut to an ellipsis."""
    names = ["jongg.runtime.agents.bots:RandomAgent", "jongg.runtime.agents.bots:GreedyAgent"]
    status, out, err = run_cli(capsys, "arena", "nymj", "--agents", ",".join(names),
                               "--rounds", "1", "--quiet")
    assert status == 0, err
    assert "…" not in out, out
    rows = [line.split()[0] for line in out.splitlines()
            if line.split()[:1] and line.split()[0].startswith("jongg.")
            and line.split()[1].isdigit()]  # a row: the name, its seat-rounds
    assert sorted(rows) == sorted(names), out
    intervals = [line for line in out.splitlines() if line.strip().startswith("[")]
    assert len(intervals) == 2 and all(  # under each row, every interval closed
        line.count("[") == line.count("]") == 4 for line in intervals), out
