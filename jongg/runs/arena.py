"""`jongg arena`: agents against each other on seeded deals, seats rotated,
and their standings.

Deal d plays seed S + d as one match in every seating of the rotation
(jongg.runs.standings.lineups: A agents, A matches, the same tiles each time), so
each agent holds each seat equally and the luck of the deal cancels. The
deals are a run of jongg.runs.scale (this process, a process pool or a Ray
cluster): a chunk is a few deals with all their seatings, so where a deal
was played never changes the standings. Given a file, each finished chunk
is written there as it arrives, and a run given the same file again plays
only the deals it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from jongg.api import load_game
from jongg.runs import scale
from jongg.runs.standings import (
    Interval,
    Played,
    Standing,
    from_record,
    margin,
    schedule,
    standings,
)
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import Mode

CHUNK = 4  # deals a worker plays per task, at most (each in every seating)
# `--agents ladder`: every shipped agent, the search at two budgets (rollouts,
# so a run replays exactly); the larger budget ahead shows the search doing the work
LADDER = ("random", "greedy", "expert", "search:rollouts=8", "search:rollouts=32")


@cache
def _game(variant: str, players: int | None) -> Game:
    return load_game(variant, players)


@dataclass(frozen=True)
class Bouts:
    """The arena's job: a range of deals, each played in every seating
    (a picklable function of the deals, as jongg.runs.scale wants)."""

    variant: str
    players: int
    agents: tuple[str, ...]
    mode: Mode = Mode.GUARDED

    def __call__(self, deals: range) -> list[Played]:
        game = _game(self.variant, self.players)
        return [from_record(seating, play_match(game, seating.seed, seating.agents,
                                                mode=self.mode)[0])
                for seating in schedule(self.agents, self.players, len(deals), deals.start)]

    def key(self, digest: str) -> dict[str, Any]:
        """What decides a journal's results: the game (by its digest), the
        agents in their order and the mode."""
        return {"arena": self.variant, "players": self.players, "agents": list(self.agents),
                "mode": self.mode.value, "digest": digest}


def encode(matches: list[Played]) -> list[dict[str, Any]]:
    return [{"seed": m.seed, "agents": list(m.agents), "points": [list(p) for p in m.points],
             "winners": list(m.winners), "match_winners": list(m.match_winners)}
            for m in matches]


def decode(data: Any) -> list[Played]:
    """A journal line's matches; a line of another shape is a ValueError."""
    if not isinstance(data, list):
        raise ValueError("a chunk's result is a list of matches")
    out = []
    for m in data:
        if not isinstance(m, dict):
            raise ValueError("a match is an object")
        out.append(Played(int(m["seed"]), tuple(str(a) for a in m["agents"]),
                          tuple(tuple(int(x) for x in p) for p in m["points"]),
                          tuple(None if w is None else int(w) for w in m["winners"]),
                          tuple(int(w) for w in m["match_winners"])))
    return out


@dataclass
class Result:
    """An arena run: its standings (best rated first) and how much of it
    was played."""

    bouts: Bouts
    seed: int
    deals: int  # asked
    done: int  # deals played (fewer when interrupted)
    resumed: int  # of `done`, deals read back from the file
    seconds: float
    matches: list[Played]
    table: list[Standing]

    @property
    def partial(self) -> bool:
        return self.done < self.deals

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.bouts.variant, "players": self.bouts.players,
                "seed": self.seed, "deals": self.done, "matches": len(self.matches),
                **({"partial": True, "asked": self.deals} if self.partial else {}),
                "mode": self.bouts.mode.value,
                "agents": [row.as_json() for row in self.table], "margins": self.margins(),
                "steps": self.rungs()}

    def gaps(self) -> list[tuple[str, Interval, Interval]]:
        """The best rated agent's margin over each other one: (the other,
        in round-win share, in points a round)."""
        if not self.table:
            return []
        best = self.table[0].name
        return [(row.name, *self._margin(best, row.name)) for row in self.table[1:]]

    def steps(self) -> list[tuple[str, str, Interval, Interval]]:
        """Each agent's margin over the one rated next below it (better,
        worse, in round-win share, in points a round): down a ladder, whether
        each rung is shown above the next."""
        rows = [row.name for row in self.table]
        return [(a, b, *self._margin(a, b)) for a, b in pairwise(rows)]

    def _margin(self, better: str, worse: str) -> tuple[Interval, Interval]:
        return (margin(self.matches, better, worse, "wins"),
                margin(self.matches, better, worse))

    def margins(self) -> list[dict[str, Any]]:
        """The gaps for JSON: [estimate, low, high] of each."""
        best = self.table[0].name if self.table else ""
        return [_margin_json(best, *gap) for gap in self.gaps()]

    def rungs(self) -> list[dict[str, Any]]:
        """The steps for JSON, as margins()."""
        return [_margin_json(*step) for step in self.steps()]


def _margin_json(better: str, worse: str, wins: Interval, points: Interval) -> dict[str, Any]:
    return {"better": better, "worse": worse, "wins": wins.triple(), "points": points.triple()}


def arena(bouts: Bouts, deals: int, seed: int = 0, *, jobs: int = 1,
          cluster: str | None = None, out: Path | None = None,
          progress: scale.Progress | None = None) -> Result:
    """Play `deals` deals from `seed`, each in every seating; with `out`,
    each chunk is kept there and a run given the same file resumes it. On
    Ctrl-C, the standings of the deals finished (`partial`)."""
    game = _game(bouts.variant, bouts.players)  # compiled here once, into the cache
    seeds = range(seed, seed + deals)
    journal = None
    if out is not None:
        journal = scale.Journal(out, bouts.key(game.spec.digest), seeds, encode, decode)
    outcome = scale.gather(bouts, seeds, _joined, jobs=jobs, cluster=cluster, size=CHUNK,
                           progress=progress, journal=journal)
    # chunks come in journal-then-run order: the standings' resampling reads deal order
    matches = sorted(outcome.result or [], key=lambda m: m.seed)
    return Result(bouts, seed, deals, outcome.done, outcome.resumed, outcome.seconds, matches,
                  standings(matches, seed))


def _joined(a: list[Played], b: list[Played]) -> list[Played]:
    return a + b

