"""The referee: the one driver of a match, whoever plays its seats.

Simulations, the arena, the card report, the terminal, the web table and
the Python API all play a match through a Referee; they supply the agents
and render the events. For each decision the referee

1. decides who acts: the seats the State says decide now (`deciding`);
2. asks a seat's agent, if it has one (`play`), or takes a person's action
   given from outside (`submit`);
3. checks the action against the seat's legal actions and applies it (an
   illegal one raises IllegalAction and changes nothing);
4. writes it to the log, with the lines of any round or match it ended,
   before anyone is told (a log that cannot be written stops the match:
   `stopped`, and LogFileError);
5. hands each listener the new events as its seat may see them;
6. goes on to the next seats (`run`: while an agent decides).

A seat without an agent is a person's: `run` returns when only people
decide (`waiting`), and their front end `submit`s their action. An agent's
failure (it raised, or chose an illegal action) is an AgentFailed, naming
the seat; nothing is applied. docs/design.md has the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from jongg.runtime.agents.bots import Agent
from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import Event
from jongg.runtime.game.invariants import violations
from jongg.runtime.game.log import LogWriter
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import IllegalAction, State

DECISION_LIMIT = 200_000  # a match that runs longer has failed to terminate
PROBLEMS = 20  # invariant violations gathered before a checked match stops


class AgentFailed(JonggError):
    """A seat's agent raised, or chose an action that is not legal."""

    def __init__(self, seat: int, name: str, error: Exception):
        super().__init__(f"the agent {name!r} of seat {seat + 1} failed: "
                         f"{type(error).__name__}: {error}")
        self.seat, self.name, self.error = seat, name, error


@dataclass(eq=False)
class Listener:
    """Who is told a seat's events (None: a spectator told everything), and
    the number of the first event not told yet."""

    seat: int | None
    hear: Callable[[list[Event]], None]
    next: int = 0


class Referee:
    """One match: its State, the agents of the seats bots play, its log and
    who listens."""

    def __init__(self, state: State, agents: Mapping[int, Agent], *,
                 writer: LogWriter | None = None, check: bool = False,
                 limit: int = DECISION_LIMIT):
        self.state = state
        self.agents = dict(agents)
        self.writer = writer
        self.check = check
        self.limit = limit
        self.listeners: list[Listener] = []
        self.problems: list[str] = violations(state) if check else []
        self.stopped: str | None = None  # why the match cannot go on (its log failed)

    # -- who acts ---------------------------------------------------------------
    def deciding(self) -> list[int]:
        return self.state.current_players()

    def bot(self) -> int | None:
        """The first seat deciding now that an agent plays, or None."""
        agents = self.agents
        return next((s for s in self.state.current_players() if s in agents), None)

    def waiting(self) -> list[int]:
        """The people's seats deciding now."""
        return [s for s in self.state.current_players() if s not in self.agents]

    def going(self) -> bool:
        """Whether the match goes on: not over, not stopped, within the
        decision limit and (checked) the limit of problems."""
        state = self.state
        return not state.is_terminal() and self.stopped is None and \
            state.decisions < self.limit and len(self.problems) <= PROBLEMS

    # -- acting -----------------------------------------------------------------
    def play(self, seat: int) -> Action:
        """The seat's agent decides on what the seat sees, and its action is
        taken (AgentFailed, and nothing applied, if the agent fails)."""
        if self.stopped is not None:
            raise LogFileError(self.stopped)
        state = self.state
        agent = self.agents[seat]
        legal = state.legal_actions(seat)
        try:
            action = agent.act(state.observe(seat, lazy=True), legal)
        except Exception as error:
            raise AgentFailed(seat, agent.name, error) from error
        try:
            state.apply(seat, action)  # nothing changed if it is not legal
        except IllegalAction:  # said without the legal actions: they are the seat's secret
            raise AgentFailed(seat, agent.name, IllegalAction(
                f"it chose {action!r}, which is not legal")) from None
        self._logged(seat, action)
        return action

    def submit(self, seat: int, action: Action | str) -> None:
        """A person's action (or its text): IllegalAction, and nothing
        changed, if the rules do not allow it now."""
        if self.stopped is not None:
            raise LogFileError(self.stopped)
        state = self.state
        state.apply(seat, action)  # checks it against the legal actions
        self._logged(seat, state.history[-1][1])  # the action as parsed

    def _logged(self, seat: int, action: Action) -> None:
        """Written to the log, then told: nobody hears of an action the log lacks."""
        state = self.state
        writer = self.writer
        ended: LogFileError | None = None
        if writer is not None:
            try:
                writer.decided(state, seat, action)
            except LogFileError as error:  # not in the log: told to nobody
                self.stopped = str(error)
                raise
            try:
                writer.catch_up(state)
                if state.is_terminal():
                    writer.close()  # its end line written: the log is whole
            except LogFileError as error:  # the action is kept (a replay writes the rest)
                self.stopped, ended = str(error), error
        if self.check:
            self.problems.extend(violations(state))
        if self.listeners:
            self.tell()
        if ended is not None:
            raise ended

    def run(self, until: Callable[[State], bool] | None = None) -> None:
        """Let the agents play while one of them decides and the match goes
        on (and, given `until`, until it says the state is far enough)."""
        state = self.state
        agents = self.agents
        while self.going() and (until is None or not until(state)):
            seat = next((s for s in state.current_players() if s in agents), None)
            if seat is None:
                return  # a person decides
            self.play(seat)

    # -- telling ----------------------------------------------------------------
    def listen(self, seat: int | None, hear: Callable[[list[Event]], None],
               since: int = 0) -> Listener:
        """Tell `hear` the seat's events from number `since`, now and after
        every action."""
        listener = Listener(seat, hear, max(0, min(since, len(self.state.events))))
        self.listeners.append(listener)
        self._tell(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)

    def tell(self) -> None:
        """Hand every listener the events it has not been told."""
        for listener in list(self.listeners):
            self._tell(listener)

    def _tell(self, listener: Listener) -> None:
        events = self.state.events_for(listener.seat, listener.next)
        listener.next = len(self.state.events)
        listener.hear(events)

