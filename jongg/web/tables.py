"""The live tables: each a State, its seats (people by secret token, bots
by agent name), its log and the browsers watching it.

Everything runs on the server's one event loop, and a table changes only in
plain (non-awaiting) code: its Referee (runtime/agents/referee.py) checks an
action, applies it, writes it to the log and tells every watching browser
before anything else can run, so no two actions ever interleave. Bots play
in a task of their own, pausing `pace` seconds before each move made on
their turn (a discard people watch), never before a secret answer (a claim
window's, a pass, a vote), so how long a window stays open tells nobody who
was asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jongg.present.cardlines import card_lines
from jongg.present.hints import hints
from jongg.present.printed import card_year
from jongg.present.seen import Seen
from jongg.runtime.agents.bots import Agent
from jongg.runtime.agents.referee import AgentFailed, Listener, Referee
from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import LogWriter
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import State, Step
from jongg.runtime.tiles import TileError

from . import look, protocol, said
from .store import same_token

log = logging.getLogger("jongg.web")


def _quiet(error: LogFileError) -> str:
    """A log's failure in words, without where the server keeps it."""
    text = str(error)
    return text.split(": ", 1)[1] if ": " in text else text


def refusal(state: State, seat: int, action: Action, legal: list[Action]) -> str:
    """Why an action is not taken, told from what the seat may know: on a
    turn, whose turn it is; in a claim window, a pass or a vote, nothing of
    who else has still to answer."""
    deck = state.spec.deck
    shown = action.text(deck) if action.tile < len(deck.kinds) else action.verb
    if not legal:
        if state.step is Step.TURN:
            return f"{shown!r} refused: it is {state.spec.seats[state.turn]}'s turn"
        if state.is_terminal():
            return "the match is over"
        return f"{shown!r} refused: you have nothing to decide now (waiting for the other " \
               "players)"
    return f"{shown!r} is not legal now; legal: {', '.join(a.text(deck) for a in legal)}"


@dataclass(eq=False)
class Watcher:
    """One browser's socket on a seat: how to send it more (`post` never
    waits: the server queues it), and what it has been told (its Listener)."""

    seat: int
    post: Callable[[dict[str, Any]], None]
    listener: Listener | None = None


@dataclass(eq=False)
class SharedTable:
    id: str
    game: Game
    state: State
    writer: LogWriter
    names: tuple[str, ...]  # by seat: "human", or the agent's name
    hashes: dict[int, str]  # the people's seats: their tokens' hashes
    agents: dict[int, Agent]
    pace: float = 0.0
    watchers: set[Watcher] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    year: tuple[int | None] | None = None  # what the card's {year} prints as, once read
    referee: Referee = field(init=False)

    def __post_init__(self) -> None:
        self.referee = Referee(self.state, self.agents, writer=self.writer)

    @property
    def spec(self) -> Any:
        return self.game.spec

    @property
    def stopped(self) -> str | None:
        """Why the table cannot go on (its log cannot be written, a bot failed)."""
        return self.referee.stopped

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None."""
        return next((s for s, h in self.hashes.items() if same_token(token, h)), None)

    # -- what a seat is told ------------------------------------------------------
    def welcome(self, seat: int) -> dict[str, Any]:
        spec = self.spec
        claims = spec.claims
        return {"type": "welcome", "table": self.id, "seat": seat, "variant": spec.variant,
                "title": spec.title, "players": spec.players, "seats": list(spec.seats),
                "names": list(self.names), "mode": str(self.state.mode),
                "words": dict(spec.words), "racks": spec.racks,
                "wins_needed": spec.wins_needed, "hand_size": spec.hand_size,
                "claims": [{"name": name, "rank": rank + 1,
                            "mahjong": claims.kind(name).mahjong}
                           for rank, name in enumerate(claims.priority)],
                "tiles": look.tiles(spec.deck), **self.card(),
                "card_name": self.game.matcher.card.name}

    def card(self) -> dict[str, Any]:
        """The card as `jongg card render` prints it, by line (the notation
        kept for a tooltip), and its suits' colours."""
        if self.year is None:
            try:
                self.year = (card_year(self.spec.card),)
            except (JonggError, OSError):  # a card no longer where it was: 'year' it is
                self.year = (None,)
        printed = card_lines(self.game.matcher.card, self.year[0])
        return {"card": printed["lines"], "card_colours": printed["colours"]}

    def join(self, watcher: Watcher, since: int | None) -> None:
        """A browser takes its seat: the welcome, then the round so far (or
        everything since the events it says it has), then each change as
        the referee tells it."""
        start = protocol.round_start(self.state) if since is None else since
        self.watchers.add(watcher)
        watcher.post(self.welcome(watcher.seat))
        state, seat = self.state, watcher.seat
        watcher.listener = self.referee.listen(
            seat, lambda events: watcher.post(protocol.update(state, seat, 0, events)), start)
        if self.stopped:
            watcher.post(protocol.error("stopped", self.stopped))
        self.wake()  # bots held up (no file to write to) go on

    def leave(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if watcher.listener is not None:
            self.referee.leave(watcher.listener)
        self.rest()

    def rest(self) -> None:
        """Close the log while nobody watches and no bot plays: a server
        holds a file for the tables in play, not for every table it has."""
        if not self.watchers and self.driver is None:
            self.writer.rest()

    def _opened(self) -> bool:
        """The log open to be written (it rests while nobody plays); False
        when no file can be had just now (too many open): nothing changed."""
        try:
            self.writer.wake()
        except LogFileError:
            log.warning("table %s: its log cannot be opened now", self.id)
            return False
        return True

    def hints(self, seat: int) -> dict[str, Any]:
        return {"type": "hint", "lines": said.texts(hints(Seen.of(self.state, seat)))}

    # -- moving the game on ---------------------------------------------------------
    def act(self, seat: int, text: str) -> str | None:
        """A person's action by its text: None when taken, else why not
        (and nothing changed)."""
        state = self.state
        if self.stopped:
            return self.stopped
        if state.is_terminal():
            return "the match is over"
        try:
            action = parse_action(self.spec.deck, text)
        except (TileError, ValueError) as error:
            return str(error)
        legal = state.legal_actions(seat)
        if action not in legal:
            return refusal(state, seat, action, legal)
        if not self._opened():
            return "the server is short of files just now: try that again in a moment"
        try:
            self.referee.submit(seat, action)
        except LogFileError as error:
            self.stop(self._unwritten(error))
        self.wake()
        return None

    @staticmethod
    def _unwritten(error: LogFileError) -> str:
        return f"{_quiet(error)}; the game stops here, its log kept up to the last move " \
            "written (make room, then restart the server to go on)"

    def stop(self, why: str) -> None:
        self.referee.stopped = why
        log.warning("table %s: %s", self.id, why)
        for watcher in list(self.watchers):
            watcher.post(protocol.error("stopped", why))

    def wake(self) -> None:
        """Let the bots play, if one of them has to decide."""
        if self.driver is None and self.referee.going() and self.referee.bot() is not None:
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        """The bots' moves, each when its pause is over (only before a move on
        a turn: a secret answer comes at once)."""
        referee = self.referee
        try:
            while referee.going():
                seat = referee.bot()
                if seat is None:
                    return
                await asyncio.sleep(self.pace if self.pace and self.state.step is Step.TURN
                                    else 0)
                if seat != referee.bot():  # a person moved meanwhile
                    continue
                if not self._opened():  # held up: a browser joining wakes the bots again
                    return
                try:
                    referee.play(seat)
                except AgentFailed as failed:  # a user's agent: the table stops, the server not
                    error = failed.error
                    self.stop(f"the bot in {self.spec.seats[seat]} ({self.names[seat]}) "
                              f"failed: {type(error).__name__}: {error}")
                    return
                except LogFileError as error:
                    self.stop(self._unwritten(error))
                    return
        finally:
            self.driver = None
            self.rest()

    async def close(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
        self.writer.close()
