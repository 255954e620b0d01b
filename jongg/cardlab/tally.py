"""The card report's work: rounds of a card played by bots, counted per line.

A chunk of the report is a seed range; round i is the first round of match
seed S+i, so rounds are independent draws. Each round is reduced, inside
the worker, to a few counts (who won with which line, after how many
turns, holding how many jokers, with exposures or not, on a discard or
self-drawn, which line each seat was nearest when the round ended, and
which lines the dealer's hand completed as dealt), so
only a small Tally of integers crosses processes; tallies merge by adding,
so any chunking gives the same totals.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jongg.api import cache_dir, load_game
from jongg.runtime.agents.play import FirstRound, play_first_round
from jongg.runtime.collector import fewer_collections
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.game.view import Observation


@dataclass(frozen=True)
class CardSource:
    """A card as workers find it: a shipped name, or a file's absolute path
    and text (a machine without the file, or with another file there, plays
    a copy of the text kept in its cache)."""

    name: str
    text: str | None = None  # None: a shipped card

    def local(self) -> str:
        if self.text is None:
            return self.name
        path = Path(self.name)
        try:
            if path.read_text(encoding="utf-8") == self.text:
                return self.name
        except (OSError, UnicodeDecodeError):
            pass
        digest = hashlib.sha256(self.text.encode()).hexdigest()[:20]
        copy = cache_dir() / "cards" / f"{digest}-{path.name}"
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=copy.parent,
                                             delete=False, suffix=".part") as part:
                part.write(self.text)
            os.replace(part.name, copy)  # whole or not at all, whoever writes it too
        return str(copy)


@dataclass(frozen=True)
class ReportSetup:
    """What a report plays: a variant (shipped name or absolute path) with a
    card, at a player count, by these agents."""

    variant: str
    card: CardSource
    players: int
    agents: tuple[str, ...]


@cache
def table_game(table: ReportSetup) -> Game:
    """The game of a table, compiled once a process."""
    return load_game(table.variant, table.players, table.card.local())


@dataclass
class LineTally:
    """One line's counts."""

    wins: int = 0
    self_drawn: int = 0  # won with a tile drawn from the wall (else on a discard)
    exposed: int = 0  # the winner had exposed sets (else a concealed hand)
    with_jokers: int = 0  # winning hands holding a joker
    jokers: int = 0  # jokers in its winning hands, summed
    aimed: int = 0  # seats nearest this line when the round ended
    aimed_walls: int = 0  # of those, rounds that ended with the wall
    dealt: int = 0  # rounds whose dealer's dealt hand completes the line
    turns: Counter[int] = field(default_factory=Counter)  # turns of the rounds it won

    def merge(self, other: LineTally) -> LineTally:
        counts = {f: getattr(self, f) + getattr(other, f) for f in LINE_COUNTS}
        return LineTally(**counts, turns=self.turns + other.turns)


@dataclass
class Tally:
    """The counts of some rounds."""

    rounds: int = 0
    seats: int = 0  # seat-rounds with an aim (the denominator of `aimed`)
    walls: int = 0  # rounds nobody won
    unfinished: int = 0  # rounds that did not end within the decision limit
    turns: int = 0  # turns of every round, summed
    dealt: int = 0  # rounds whose dealer's dealt hand completes some line
    lines: dict[str, LineTally] = field(default_factory=dict)

    def line(self, line_id: str) -> LineTally:
        return self.lines.setdefault(line_id, LineTally())

    def merge(self, other: Tally) -> Tally:
        lines = dict(self.lines)
        for key, tally in other.lines.items():
            lines[key] = lines[key].merge(tally) if key in lines else tally
        return Tally(self.rounds + other.rounds, self.seats + other.seats,
                     self.walls + other.walls, self.unfinished + other.unfinished,
                     self.turns + other.turns, self.dealt + other.dealt, lines)

    def add(self, game: Game, played: FirstRound, dealt: list[str] | None = None) -> None:
        """Count one round: its result and events, each seat's aim, and the
        lines its dealer's dealt hand completes (`dealt`)."""
        end = played.end
        self.rounds += 1
        for line in dealt or ():
            self.line(line).dealt += 1
        self.dealt += bool(dealt)
        if end is None:
            self.unfinished += 1
            return
        self.turns += end.turns
        winner = end.winner if end.line is not None else None
        if winner is None or end.line is None:
            self.walls += 1
        else:
            won = self.line(end.line)
            won.wins += 1
            won.self_drawn += end.self_drawn
            won.exposed += len(end.shown) > 1  # exposures, then the concealed rest
            held = jokers_declared(game, played, winner)
            won.with_jokers += held > 0
            won.jokers += held
            won.turns[end.turns] += 1
        for seat, seen in enumerate(played.last_seen):
            aim = end.line if seat == winner else nearest(game, seen)
            if aim is None:
                continue
            self.seats += 1
            aimed = self.line(aim)
            aimed.aimed += 1
            aimed.aimed_walls += winner is None


def jokers_declared(game: Game, played: FirstRound, winner: int) -> int:
    """The jokers in the winner's last declared hand, from the round's events."""
    joker = game.spec.deck.joker_index
    if joker is None:
        return 0
    code = game.spec.deck.code(joker)
    for event in reversed(played.state.events):
        if event.kind is EventKind.DECLARED and event.seat == winner:
            return event.tiles.count(code)
    return 0


def nearest(game: Game, seen: Observation | None) -> str | None:
    """The line a seat was nearest when it last decided (over all its
    racks; ties: card order)."""
    if seen is None:
        return None
    lines = game.matcher.card.lines
    best: tuple[int, int] | None = None  # (tiles away, line index)
    for rack in range(game.spec.racks):
        for index, score, _ in game.matcher.scores(seen.hand(rack),
                                                   open_hands=game.spec.open_hands):
            key = (lines[index].size - score, index)
            best = key if best is None or key < best else best
    return None if best is None else lines[best[1]].id


def dealt_complete(game: Game, seed: int) -> list[str]:
    """The lines the dealer's hand completes as dealt in the first round of
    match `seed` (the deal that round plays, before any pass or draw)."""
    state = game.new_match(seed)
    seen = state.observe(state.dealer)
    lines = game.matcher.card.lines
    done = {lines[index].id for rack in range(game.spec.racks)
            for index, score, _ in game.matcher.scores(seen.hand(rack),
                                                       open_hands=game.spec.open_hands)
            if score == lines[index].size}
    return [line.id for line in lines if line.id in done]


def play_rounds(table: ReportSetup, seeds: range) -> Tally:
    """The job of a chunk: the first round of each seed's match, counted."""
    game = table_game(table)
    tally = Tally()
    with fewer_collections():  # held back over the chunk, not put back between its rounds
        for seed in seeds:
            tally.add(game, play_first_round(game, seed, table.agents),
                      dealt_complete(game, seed))
    return tally


def merge(a: Tally, b: Tally) -> Tally:
    return a.merge(b)


# -- a tally as JSON (a chunk's line in the report's journal) -------------------------------
LINE_COUNTS = ("wins", "self_drawn", "exposed", "with_jokers", "jokers", "aimed",
               "aimed_walls", "dealt")


def encode(tally: Tally) -> dict[str, Any]:
    lines = {key: [*(getattr(t, f) for f in LINE_COUNTS), sorted(t.turns.items())]
             for key, t in sorted(tally.lines.items())}
    return {"rounds": tally.rounds, "seats": tally.seats, "walls": tally.walls,
            "unfinished": tally.unfinished, "turns": tally.turns, "dealt": tally.dealt,
            "lines": lines}


def decode(data: dict[str, Any]) -> Tally:
    """The tally `encode` wrote (a ValueError, KeyError or TypeError if not)."""
    lines = {}
    for key, row in data["lines"].items():
        *counts, turns = row
        if len(counts) != len(LINE_COUNTS):
            raise ValueError(f"line {key}: {len(counts)} counts")
        lines[str(key)] = LineTally(**dict(zip(LINE_COUNTS, map(int, counts), strict=True)),
                                    turns=Counter({int(k): int(v) for k, v in turns}))
    return Tally(int(data["rounds"]), int(data["seats"]), int(data["walls"]),
                 int(data["unfinished"]), int(data["turns"]), int(data["dealt"]), lines)
