"""Committed rounds: how hard each line is for a player who plays for it
from the deal, the other seats playing normally.

Committed round j of a report (match seed S + j) commits line j mod n (the
card's n lines, in card order) at seat (j // n) mod players: every line gets
the same share of the rounds, every seat its turn, and a longer run extends
a shorter one. The committed seat plays `AGENT:line=ID` (an agent that takes
no `line` option plays the seat as itself, freely: its figures are then not
committed ones, and the report says so); the others play the table's agent.
A round counts as completed when the committed seat wins, before the wall
ends, with a hand that completes the line (declared as it, or as another
line the same hand completes). Only integer counts cross processes; they merge
by adding, so any chunking gives the same totals (as tally.py's).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from jongg.cardlab.tally import ReportSetup, jokers_declared, table_game
from jongg.runtime.agents.options import OPTIONS
from jongg.runtime.agents.play import FirstRound, play_first_round
from jongg.runtime.collector import fewer_collections
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import parse_tiles


def commits(agent: str) -> bool:
    """Whether the agent takes a committed line (`line=ID`)."""
    base, _, options = agent.partition(":")
    return "line" in OPTIONS.get(base, {}) and "line=" not in options


def committed_agent(agent: str, line: str) -> str:
    """The agent committed to `line`; one that cannot commit, as it is."""
    return f"{agent}:line={line}" if commits(agent) else agent


@dataclass(frozen=True)
class CommitSetup:
    """Committed rounds of a table: `agent` at the committed seat, the
    table's agent (table.agents) at the others; `first` the first seed of
    the run (round j is seed first + j)."""

    table: ReportSetup
    agent: str
    first: int


@cache
def line_ids(table: ReportSetup) -> tuple[str, ...]:
    return tuple(line.id for line in table_game(table).matcher.card.lines)


def assignment(setup: CommitSetup, seed: int) -> tuple[str, int]:
    """The line and the seat committed in the round of this seed."""
    lines = line_ids(setup.table)
    j = seed - setup.first
    return lines[j % len(lines)], (j // len(lines)) % setup.table.players


@dataclass
class CommitTally:
    """One line's committed rounds."""

    rounds: int = 0
    completed: int = 0  # the committed seat won with a hand completing the line
    other_line: int = 0  # it won with a hand of other lines (a player never refuses a win)
    lost: int = 0  # another seat won first
    unfinished: int = 0  # the round did not end within the decision limit
    claimed: int = 0  # completions with an exposure or on a discard
    exposed: int = 0  # completions with exposures
    with_jokers: int = 0  # completions whose hand held a joker
    exchanged: int = 0  # completions where the seat made a joker exchange
    jokers: Counter[int] = field(default_factory=Counter)  # jokers held -> completions
    turns: Counter[int] = field(default_factory=Counter)  # the round's turns -> completions
    also: Counter[str] = field(default_factory=Counter)  # other lines the winning hand completed

    def merge(self, other: CommitTally) -> CommitTally:
        counts = {f: getattr(self, f) + getattr(other, f) for f in COUNTS}
        return CommitTally(**counts, jokers=self.jokers + other.jokers,
                           turns=self.turns + other.turns, also=self.also + other.also)

    @property
    def walls(self) -> int:
        return self.rounds - self.completed - self.other_line - self.lost - self.unfinished


COUNTS = ("rounds", "completed", "other_line", "lost", "unfinished", "claimed", "exposed",
          "with_jokers", "exchanged")


def merge(a: dict[str, CommitTally], b: dict[str, CommitTally]) -> dict[str, CommitTally]:
    out = dict(a)
    for key, tally in b.items():
        out[key] = out[key].merge(tally) if key in out else tally
    return out


def also_completed(game: Game, shown: tuple[tuple[str, ...], ...], line: str) -> list[str]:
    """The other lines of the card the winning hand completes too, its
    exposures as they were shown (the matcher's answer)."""
    if not shown:
        return []
    deck = game.spec.deck
    *exposed, rest = [tuple(parse_tiles(deck, " ".join(group))) for group in shown]
    hand = Hand(tuple(sorted(rest)), tuple(exposed))
    card = game.matcher.card
    return [card.lines[index].id
            for index, score, _ in game.matcher.scores(hand, open_hands=game.spec.open_hands)
            if card.lines[index].id != line and score == card.lines[index].size]


def count(game: Game, tally: CommitTally, played: FirstRound, seat: int, line: str) -> None:
    """Count one committed round."""
    end = played.end
    tally.rounds += 1
    if end is None:
        tally.unfinished += 1
        return
    if end.winner is None or end.line is None:
        return  # a wall game
    if end.winner != seat:
        tally.lost += 1
        return
    also = also_completed(game, end.shown, end.line)
    if line != end.line and line not in also:
        tally.other_line += 1
        return
    tally.completed += 1  # declared as itself or as a line worth more: completed all the same
    tally.turns[end.turns] += 1
    exposed = len(end.shown) > 1  # exposures, then the concealed rest
    tally.exposed += exposed
    tally.claimed += exposed or not end.self_drawn
    held = jokers_declared(game, played, seat)
    tally.with_jokers += held > 0
    tally.jokers[held] += 1
    tally.exchanged += any(e.kind is EventKind.EXCHANGED and e.seat == seat
                           for e in played.state.events)
    tally.also.update(other for other in [end.line, *also] if other != line)


def play_committed(setup: CommitSetup, seeds: range) -> dict[str, CommitTally]:
    """The job of a chunk: the committed rounds of these seeds, by line."""
    game = table_game(setup.table)
    out: dict[str, CommitTally] = {}
    others = setup.table.agents[0]
    with fewer_collections():
        for seed in seeds:
            line, seat = assignment(setup, seed)
            agents = [others] * setup.table.players
            agents[seat] = committed_agent(setup.agent, line)
            count(game, out.setdefault(line, CommitTally()),
                  play_first_round(game, seed, agents), seat, line)
    return out


# -- as JSON (a chunk's line in the report's journal) ---------------------------------
def encode(tallies: dict[str, CommitTally]) -> dict[str, Any]:
    return {key: [*(getattr(t, f) for f in COUNTS), sorted(t.jokers.items()),
                  sorted(t.turns.items()), sorted(t.also.items())]
            for key, t in sorted(tallies.items())}


def decode(data: dict[str, Any]) -> dict[str, CommitTally]:
    """The tallies `encode` wrote (a ValueError, KeyError or TypeError if not)."""
    out = {}
    for key, row in data.items():
        *counts, jokers, turns, also = row
        if len(counts) != len(COUNTS):
            raise ValueError(f"line {key}: {len(counts)} counts")
        out[str(key)] = CommitTally(**dict(zip(COUNTS, map(int, counts), strict=True)),
                                    jokers=Counter({int(k): int(v) for k, v in jokers}),
                                    turns=Counter({int(k): int(v) for k, v in turns}),
                                    also=Counter({str(k): int(v) for k, v in also}))
    return out
