"""Playing a match with agents: the loop simulations, benchmarks and tests
share; and taking up a match a person played, from its log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jongg.runtime.agents.bots import Agent
from jongg.runtime.agents.referee import DECISION_LIMIT, PROBLEMS, Referee
from jongg.runtime.agents.registry import (
    AgentMaker,
    UnknownAgent,
    agent_maker,
    agent_name,
    make_agents,
)
from jongg.runtime.collector import fewer_collections
from jongg.runtime.game.actions import Action
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogError, LogText, LogWriter, Replay, replay
from jongg.runtime.game.scoring import RoundEnd
from jongg.runtime.game.state import Mode, State
from jongg.runtime.game.view import Observation

HUMAN = "human"  # the seat a person plays, as a log's header names it


@dataclass
class MatchRecord:
    """What a simulation keeps of one match."""

    seed: int
    scores: list[int]
    winners: list[int]
    rounds: list[dict[str, Any]]
    decisions: int
    violations: list[str] = field(default_factory=list)
    payouts: list[float] | None = None  # money at the match's end, when the variant pays out
    points: list[list[int]] = field(default_factory=list)  # per round, each seat's points won


def agents_for(names: Sequence[str | Agent | AgentMaker], seed: int, players: int
               ) -> list[Agent]:
    """One agent per seat; a short list repeats its last entry."""
    return make_agents(names, seed, players)


def play_match(game: Game, seed: int, agents: Sequence[str | Agent | AgentMaker] = ("random",),
               *, mode: Mode = Mode.GUARDED, log: Path | None = None, overwrite: bool = False,
               check: bool = False) -> tuple[MatchRecord, State]:
    """Play one match to its end with these agents (names such as "greedy"
    or "module:Class", classes, or agents), through its Referee; with
    `check`, test the invariants at every step. A `log` is a new file
    (LogExists when one is there, unless `overwrite`)."""
    state = game.new_match(seed, mode)
    seats = make_agents(agents, seed, game.spec.players)
    writer = None
    if log is not None:
        writer = LogWriter(log, Header(game.spec.variant, game.spec.players, seed, mode,
                                       game.spec.digest, tuple(agent_name(a) for a in seats)),
                           overwrite=overwrite)
    referee = Referee(state, dict(enumerate(seats)), writer=writer, check=check)
    try:
        with fewer_collections():  # a match's objects make no cycles (runtime/collector.py)
            referee.run()
    finally:
        if writer is not None:
            writer.close()
    problems = referee.problems
    if not state.is_terminal() and len(problems) <= PROBLEMS:
        problems.append(f"the match did not end within {DECISION_LIMIT} decisions")
    record = MatchRecord(seed, list(state.scores), state.leaders(),
                         [r.public() for r in state.results], state.decisions, problems,
                         state.payouts() if state.is_terminal() else None, round_points(state))
    return record, state


def round_points(state: State) -> list[list[int]]:
    """Each round's points won (lost: negative) by every seat, from its
    payments (an award from the bank or a penalty to it moves one seat's)."""
    points = [[0] * state.spec.players for _ in state.results]
    for payment in state.payments:
        if payment.round >= len(points):
            continue  # a round still under way
        row = points[payment.round]
        if payment.payee >= 0:
            row[payment.payee] += payment.amount
        if payment.payer >= 0:
            row[payment.payer] -= payment.amount
    return points


@dataclass
class FirstRound:
    """A match played to the end of its first round: the State then, and
    what each seat saw when it last decided in the round (None: never)."""

    state: State
    last_seen: list[Observation | None]

    @property
    def end(self) -> RoundEnd | None:
        """The round's result; None if it did not end within DECISION_LIMIT."""
        return self.state.results[0] if self.state.results else None


def play_first_round(game: Game, seed: int,
                     agents: Sequence[str | Agent | AgentMaker] = ("random",), *,
                     mode: Mode = Mode.GUARDED) -> FirstRound:
    """Play the first round of match `seed` alone: a round a seed, so rounds
    of different seeds are independent draws of the same deal and play."""
    state = game.new_match(seed, mode)
    last: list[Observation | None] = [None] * game.spec.players
    seats = {s: Seen(agent, s, last)
             for s, agent in enumerate(make_agents(agents, seed, game.spec.players))}
    with fewer_collections():
        Referee(state, seats).run(until=lambda played: bool(played.results))
    return FirstRound(state, last)


class Seen:
    """An agent whose seat's last observation is kept (FirstRound.last_seen)."""

    def __init__(self, agent: Agent, seat: int, last: list[Observation | None]):
        self.agent, self.seat, self.last = agent, seat, last
        self.name = agent.name

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        chosen = self.agent.act(seen, legal)
        self.last[self.seat] = seen.settled()  # read after the round
        return chosen


@dataclass
class Resumed:
    """A match a person played, replayed from its log to where it stopped."""

    replayed: Replay
    humans: tuple[int, ...]  # the seats people play
    agents: dict[int, Agent]  # the bots of the other seats, where they stood

    @property
    def human(self) -> int:
        """The person's seat, at the terminal (one person)."""
        return self.humans[0]


def resume_match(game: Game, log: LogText, *, terminal: bool = True) -> Resumed:
    """Replay a match people played from its log, the bots choosing again at
    each of their recorded actions (so their random sources stand where they
    stood); LogError, naming the line, for a log that does not hold together.
    A game at the terminal has one person; a web table (`terminal=False`)
    any number, none included."""
    header, where = log.header, f"{log.path}:1"
    names = header.agents
    humans = [s for s, n in enumerate(names) if n == HUMAN]
    if terminal and not humans:
        raise LogError(f"{log.path}: not a game played at the terminal (no human seat)")
    makers: dict[int, AgentMaker] = {}
    for seat, name in enumerate(names):
        if name == HUMAN:
            continue
        try:
            makers[seat] = agent_maker(name)
        except UnknownAgent as error:
            raise LogError(f"{where}: the header names the agent {name[:40]!r}, which this "
                           f"jongg does not have ({error})") from None
    if len(names) != game.spec.players:
        raise LogError(f"{where}: the header names {len(names)} agent(s) for "
                       f"{game.spec.players} players")
    if terminal and len(humans) > 1:
        raise LogError(f"{where}: the header seats a person at seats "
                       f"{', '.join(str(s + 1) for s in humans)}; a game at the terminal has one")
    agents = {s: make(header.seed, s) for s, make in makers.items()}
    deck = game.spec.deck

    def again(state: State, seat: int, action: Action, number: int) -> None:
        if seat in humans:
            return
        chosen = agents[seat].act(state.observe(seat), state.legal_actions(seat))
        if chosen != action:
            raise LogError(f"{log.path}:{number}: the bot in seat {seat + 1} would now play "
                           f"{chosen.text(deck)!r}, the log says {action.text(deck)!r}")

    return Resumed(replay(log, game, before=again), tuple(humans), agents)
