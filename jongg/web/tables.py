"""The live tables: each a State, its seats (people by secret token, bots
by agent name), its log and the browsers watching it.

Everything runs on the server's one event loop, and a table changes only in
plain (non-awaiting) code: an action is checked, applied, written to the
log and told to every watching browser before anything else can run, so no
two actions ever interleave. Bots play in a task of their own, pausing
`pace` seconds before each move made on their turn (a discard people watch),
never before a secret answer (a claim window's, a pass, a vote), so how long
a window stays open tells nobody who was asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jongg.runtime.agents.bots import Agent
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import LogWriter
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import IllegalAction, State, Step
from jongg.runtime.tiles import TileError

from . import look, protocol
from .store import same_token

log = logging.getLogger("jongg.web")


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
    """One browser's socket on a seat: what it has been told, and how to
    send it more (`post` never waits: the server queues it)."""

    seat: int
    post: Callable[[dict[str, Any]], None]
    next: int = 0  # the number of the first event it has not been told


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
    stopped: str | None = None  # why the table cannot go on (its log cannot be written)
    driver: asyncio.Task[None] | None = None

    @property
    def spec(self) -> Any:
        return self.game.spec

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
                "tiles": look.tiles(spec.deck), "card": look.card(self.game.matcher.card),
                "card_name": self.game.matcher.card.name}

    def join(self, watcher: Watcher, since: int | None) -> None:
        """A browser takes its seat: the welcome, then the round so far (or
        everything since the events it says it has)."""
        start = protocol.round_start(self.state)
        watcher.next = start if since is None else min(max(since, 0), len(self.state.events))
        self.watchers.add(watcher)
        watcher.post(self.welcome(watcher.seat))
        self._tell(watcher)
        if self.stopped:
            watcher.post(protocol.error("stopped", self.stopped))

    def leave(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def _tell(self, watcher: Watcher) -> None:
        watcher.post(protocol.update(self.state, watcher.seat, watcher.next))
        watcher.next = len(self.state.events)

    def hints(self, seat: int) -> dict[str, Any]:
        return {"type": "hint", "lines": look.hints(self.state, seat)}

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
        self._apply(seat, action)
        return None

    def _apply(self, seat: int, action: Action) -> None:
        self.state.apply(seat, action)
        try:
            self.writer.action(self.state, seat, action)
            if self.state.is_terminal():
                self.writer.close()  # its end line written: the log is whole
        except LogFileError as error:
            self.stop(f"{error}; the game stops here, its log kept up to the last move "
                      "written (make room, then restart the server to go on)")
        for watcher in list(self.watchers):
            self._tell(watcher)
        self.wake()

    def stop(self, why: str) -> None:
        self.stopped = why
        log.warning("table %s: %s", self.id, why)
        for watcher in list(self.watchers):
            watcher.post(protocol.error("stopped", why))

    def wake(self) -> None:
        """Let the bots play, if one of them has to decide."""
        if self.driver is None and not self.stopped and not self.state.is_terminal() and \
                any(s in self.agents for s in self.state.current_players()):
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        state = self.state
        try:
            while not self.stopped and not state.is_terminal():
                seat = next((s for s in state.current_players() if s in self.agents), None)
                if seat is None:
                    return
                await asyncio.sleep(self.pace if self.pace and state.step is Step.TURN else 0)
                if seat not in state.current_players():  # a person moved meanwhile
                    continue
                legal = state.legal_actions(seat)
                try:
                    action = self.agents[seat].act(state.observe(seat), legal)
                    if action not in legal:
                        raise IllegalAction(f"it chose {action!r}, which is not legal")
                except Exception as error:  # a user's agent: the table stops, the server not
                    self.stop(f"the bot in {self.spec.seats[seat]} ({self.names[seat]}) "
                              f"failed: {type(error).__name__}: {error}")
                    return
                self._apply(seat, action)
        finally:
            self.driver = None

    async def close(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
        self.writer.close()
