"""`jongg simulate`: many matches, over several processes, and their summary.

Match i plays seed S + i, so any match of a run can be replayed alone; results
are gathered in match order, so `--jobs` never changes the summary.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jongg.compiler.game import load_game
from jongg.runtime.agents.play import MatchRecord, play_match
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import Mode


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


def _play(job: Job, seed: int) -> MatchRecord:
    game = _game(job.variant, job.players)
    log = None
    if job.log_dir is not None:
        log = Path(job.log_dir) / f"{game.spec.variant}-{game.spec.players}p-{seed}.jsonl"
    record, _ = play_match(game, seed, job.agents, mode=job.mode, log=log, check=job.check)
    return record


def _play_many(job: Job, seeds: Sequence[int]) -> list[MatchRecord]:
    return [_play(job, seed) for seed in seeds]


def run(job: Job, games: int, seed: int, jobs: int = 1,
        progress: Callable[[int], None] | None = None) -> Iterator[MatchRecord]:
    """The records of `games` matches, in match order."""
    seeds = [seed + i for i in range(games)]
    if jobs <= 1:
        for s in seeds:
            yield _play(job, s)
            if progress:
                progress(1)
        return
    size = max(1, min(20, games // (jobs * 4) or 1))
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    with ProcessPoolExecutor(jobs) as pool:
        for records in pool.map(_play_many, [job] * len(chunks), chunks):
            yield from records
            if progress:
                progress(len(records))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


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
        self.problems.extend(f"seed {record.seed}: {p}" for p in record.violations[:3])

    def to_json(self) -> dict[str, Any]:
        seats = [{"seat": s, "match_wins": w, "ci95": list(wilson(w, self.games)),
                  "round_wins": self.round_wins[s], "mahjongs": self.mahjongs[s],
                  "mean_score": self.score_totals[s] / self.games if self.games else 0.0,
                  **({"mean_payout": round(self.payout_totals[s] / self.games, 2)}
                     if self.payout_totals is not None and self.games else {})}
                 for s, w in enumerate(self.match_wins)]
        return {"variant": self.variant, "players": self.players, "agents": self.agents,
                "seed": self.seed, "games": self.games, "rounds": self.rounds,
                "violations": self.violations, "problems": self.problems[:20],
                "self_drawn": self.self_drawn, "by_claim": self.by_claim,
                "wall_games": self.wall_games, "unwon": self.unwon, "dead_ends": self.dead_ends,
                "mean_turns": self.turns / self.rounds if self.rounds else 0.0,
                "seats": seats, "lines": dict(self.lines.most_common()),
                "decisions": self.decisions, "seconds": round(self.seconds, 3),
                "rounds_per_second": round(self.rounds / self.seconds, 1)
                if self.seconds else None}


def simulate(job: Job, games: int, seed: int, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> Summary:
    players = job.players or _game(job.variant, None).spec.players
    summary = Summary(job.variant, players, list(job.agents), seed)
    start = time.perf_counter()
    for record in run(job, games, seed, jobs, progress):
        summary.add(record)
    summary.seconds = time.perf_counter() - start
    return summary
