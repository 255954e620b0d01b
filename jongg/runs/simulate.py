"""`jongg simulate`: many matches, over several processes, and their summary.

Match i plays seed S + i, so any match of a run can be replayed alone; results
are gathered in match order (jongg.runs.scale), so neither `--jobs` nor
`--cluster` ever changes the summary.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from jongg.api import load_game
from jongg.runs import scale
from jongg.runs.intervals import wilson
from jongg.runs.scale import cores as cores  # where it was first found
from jongg.runtime.agents.play import MatchRecord, play_match
from jongg.runtime.collector import fewer_collections
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import Mode

CHUNK = 20  # matches a worker plays per task, at most


@dataclass(frozen=True)
class Job:
    variant: str
    players: int | None
    agents: tuple[str, ...]
    mode: Mode
    log_dir: str | None
    check: bool


@cache
def _game(variant: str, players: int | None) -> Game:
    return load_game(variant, players)


def file_stem(variant: str) -> str:
    """A variant's name as part of a file name: letters, digits, '-', '_' and
    '.' kept, so the file stays in its folder."""
    return re.sub(r"[^\w.-]", "_", variant)


def log_name(variant: str, players: int, seed: int) -> str:
    """The file a match's log is written to in --log-dir."""
    return f"{file_stem(variant)}-{players}p-{seed}.jsonl"


def clashes(folder: str, variant: str, players: int, seed: int, games: int) -> list[str]:
    """The logs already in `folder` that matches of seeds seed..seed+games-1 would write."""
    stem = log_name(variant, players, 0).removesuffix("0.jsonl")
    found = []
    for name in os.listdir(folder):
        number = name.removeprefix(stem).removesuffix(".jsonl")
        if name.startswith(stem) and re.fullmatch(r"-?\d{1,30}", number) and \
                seed <= int(number) < seed + games:
            found.append(name)
    return sorted(found, key=lambda n: int(n.removeprefix(stem).removesuffix(".jsonl")))


def _play(job: Job, seed: int) -> MatchRecord:
    game = _game(job.variant, job.players)
    log = None
    if job.log_dir is not None:
        log = Path(job.log_dir) / log_name(game.spec.variant, game.spec.players, seed)
    record, _ = play_match(game, seed, job.agents, mode=job.mode, log=log, check=job.check)
    return record


def play_many(job: Job, seeds: range) -> list[MatchRecord]:
    """The records of the matches of these seeds (a chunk of a run), the
    cycle collector held back over the whole chunk, not put back between
    its matches (runtime/collector.py)."""
    with fewer_collections():
        return [_play(job, seed) for seed in seeds]


def run(job: Job, games: int, seed: int, jobs: int = 1,
        progress: Callable[[int], None] | None = None, cluster: str | None = None
        ) -> Iterator[MatchRecord]:
    """The records of `games` matches, in match order, played in this
    process, on `jobs` processes or on a Ray `cluster` (jongg.runs.scale)."""
    for _, records in scale.run(partial(play_many, job), range(seed, seed + games), jobs=jobs,
                                cluster=cluster, size=CHUNK, progress=progress):
        yield from records


PROBLEMS = 20  # violations kept for the summary to quote


@dataclass
class Summary:
    variant: str
    players: int
    agents: list[str]
    seed: int
    games: int = 0
    rounds: int = 0
    match_wins: list[float] = field(default_factory=list)  # a shared win counts 1/k
    round_wins: list[int] = field(default_factory=list)
    self_drawn: int = 0
    by_claim: int = 0
    wall_games: int = 0  # no Mah Jongg declared
    unwon: int = 0  # several racks: Mah Jonggs declared, but nobody won before the wall ran out
    dead_ends: int = 0  # ended by a seat's dead hands
    mahjongs: list[int] = field(default_factory=list)  # declared, by seat
    payout_totals: list[float] | None = None
    turns: int = 0
    decisions: int = 0
    score_totals: list[int] = field(default_factory=list)
    lines: Counter[str] = field(default_factory=Counter)
    violations: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    asked: int = 0  # matches asked for: more than `games` when the run was interrupted

    def add(self, record: MatchRecord) -> None:
        if not self.match_wins:
            self.match_wins = [0.0] * self.players
            self.round_wins = [0] * self.players
            self.score_totals = [0] * self.players
            self.mahjongs = [0] * self.players
        self.games += 1
        if record.payouts is not None:
            totals = self.payout_totals or [0.0] * self.players
            self.payout_totals = [t + p for t, p in zip(totals, record.payouts, strict=True)]
        for seat in record.winners:
            self.match_wins[seat] += 1 / len(record.winners)
        for seat, score in enumerate(record.scores):
            self.score_totals[seat] += score
        for r in record.rounds:
            self.rounds += 1
            self.turns += int(r["turns"])
            winner = r["winner"]
            declared = r.get("mahjongs", [{"seat": winner}] if winner is not None else [])
            for mahjong in declared:
                self.mahjongs[int(mahjong["seat"])] += 1
            if winner is None:
                if r.get("how") == "dead":
                    self.dead_ends += 1
                elif declared:
                    self.unwon += 1
                else:
                    self.wall_games += 1
                continue
            self.round_wins[int(winner)] += 1
            if r["self_drawn"]:
                self.self_drawn += 1
            else:
                self.by_claim += 1
            self.lines[str(r["line"])] += 1
        self.decisions += record.decisions
        self.violations += len(record.violations)
        if len(self.problems) < PROBLEMS:
            self.problems.extend(f"seed {record.seed}: {p}" for p in record.violations[:3])

    @property
    def partial(self) -> bool:
        """Interrupted: the summary of the matches finished before."""
        return self.games < self.asked

    def to_json(self) -> dict[str, Any]:
        seats = [{"seat": s, "match_wins": w, "ci95": list(wilson(w, self.games)),
                  "round_wins": self.round_wins[s], "mahjongs": self.mahjongs[s],
                  "mean_score": self.score_totals[s] / self.games if self.games else 0.0,
                  **({"mean_payout": round(self.payout_totals[s] / self.games, 2)}
                     if self.payout_totals is not None and self.games else {})}
                 for s, w in enumerate(self.match_wins)]
        return {"variant": self.variant, "players": self.players, "agents": self.agents,
                "seed": self.seed, "games": self.games, "rounds": self.rounds,
                **({"partial": True, "asked": self.asked} if self.partial else {}),
                "violations": self.violations, "problems": self.problems[:PROBLEMS],
                "self_drawn": self.self_drawn, "by_claim": self.by_claim,
                "wall_games": self.wall_games, "unwon": self.unwon, "dead_ends": self.dead_ends,
                "mean_turns": self.turns / self.rounds if self.rounds else 0.0,
                "seats": seats, "lines": dict(self.lines.most_common()),
                "decisions": self.decisions, "seconds": round(self.seconds, 3),
                "rounds_per_second": round(self.rounds / self.seconds, 1)
                if self.seconds else None}


def simulate(job: Job, games: int, seed: int, jobs: int = 1,
             progress: Callable[[int], None] | None = None, cluster: str | None = None
             ) -> Summary:
    """The summary of `games` matches; on Ctrl-C, of the matches finished
    (`partial`)."""
    players = job.players or _game(job.variant, None).spec.players
    summary = Summary(job.variant, players, list(job.agents), seed, asked=games)
    start = time.perf_counter()
    try:
        for record in run(job, games, seed, jobs, progress, cluster):
            summary.add(record)
    except KeyboardInterrupt:
        pass  # what was finished is summarised, and said to be partial
    summary.seconds = time.perf_counter() - start
    return summary
