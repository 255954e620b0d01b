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
from jongg.present.hints import best_pass, hints
from jongg.present.printed import card_year
from jongg.present.seen import Seen
from jongg.runtime.agents.bots import Agent
from jongg.runtime.agents.referee import AgentFailed, Listener, Referee
from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import LogWriter
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import State, Step
from jongg.runtime.tiles import TileError

from . import look, protocol, said
from .rounds import RoundEnd
from .store import same_token
from .timers import Clock, Timers
from .turnstile import Turnstile

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


# the events that begin a new decision before play (a phase's pass, a vote, an offer)
BEFORE_PLAY = frozenset({EventKind.PHASE, EventKind.VOTED, EventKind.OFFERED, EventKind.RECEIVED})

# an update while the table is held at a round's end: nothing to do but say next
HELD = {"legal": [], "actions": [], "hints": [], "near": [], "held": True,
        "prompt": {"kind": "next", "question": "the round is over: next round when you are "
                   "ready (every person at the table says it)", "about": [], "choose": 0}}


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
    timers: Timers = field(default_factory=Timers)  # a claim window's and a turn's, if any
    turnstile: Turnstile = field(default_factory=Turnstile)  # the server's, shared by its tables
    referee: Referee = field(init=False)
    ending: RoundEnd = field(init=False)  # a round's end held for the people to confirm
    clock: Clock = field(init=False)  # the timer armed for a person's decision
    discards: int = 0  # discards told so far: which claim window, which turn is under way
    befores: int = 0  # phases, votes and offers told: which decision before play is under way
    # the table opened again once the match is over: its id, and each person's token
    # (held only in memory, for the people who have yet to ask for their link)
    rematched: tuple[str, dict[int, str]] | None = None

    def __post_init__(self) -> None:
        self.referee = Referee(self.state, self.agents, writer=self.writer)
        self.ending = RoundEnd(frozenset(self.hashes))
        self.clock = Clock(self.timers)
        # told every event first, before any seat: a round's end freezes the table,
        # and the timer is armed for what comes next before any seat is told it
        self.referee.listen(None, self._heard, len(self.state.events))

    def _heard(self, events: list[Event]) -> None:
        self.ending.heard(self.state, events)
        self.discards += sum(e.kind is EventKind.DISCARDED for e in events)
        self.befores += sum(e.kind in BEFORE_PLAY for e in events)
        self._arm()

    # -- timers -------------------------------------------------------------------
    def _arm(self) -> None:
        """The timer for the people deciding now: a claim window's, a turn's,
        or a decision's before play (one for all the tiles of a pass)."""
        state = self.state
        step = state.step
        kind = "claim" if step is Step.CLAIMS else "turn" if step is Step.TURN else \
            "" if step is Step.OVER else "phase"
        people = [s for s in state.current_players() if s in self.hashes]
        going = bool(self.timers) and not self.ending.held and not state.is_terminal() \
            and self.stopped is None
        key = (state.round, kind, state.turn if kind == "turn" else None, self.discards,
               self.befores) if going and people and kind else None
        self.clock.arm(key, kind, self._expire)

    def _expire(self, key: tuple[Any, ...]) -> None:
        """Time is up: each person still deciding passes the claim, discards
        the tile just drawn, or makes what is left of a decision before play."""
        if key != self.clock.key:
            return
        self.clock.cancel()
        state = self.state
        for seat in [s for s in state.current_players() if s in self.hashes]:
            step = state.step
            while seat in state.current_players() and state.step is step:
                refused = self.act(seat, self.lapsed(seat)) is not None
                if refused or step is not Step.PASSING:
                    break  # a pass's tiles go one at a time: the others until it is made

    def lapsed(self, seat: int) -> str:
        """The action a person's time running out makes for them."""
        state = self.state
        deck = self.spec.deck
        legal = state.legal_actions(seat)
        passes = [a for a in legal if a.verb == "pass" and a.tile < 0]
        if passes:
            return passes[0].text(deck)
        if state.step is Step.PASSING:  # the tile the hints would pass
            chosen = best_pass(Seen.of(state, seat), 1)
            return f"pass {chosen.tiles[0]}" if chosen is not None else legal[0].text(deck)
        if state.step in (Step.VOTING, Step.OFFERING):  # no, and none
            return min(legal, key=lambda a: a.number).text(deck)
        drawn = state.observe(seat).drawn
        discards = [a for a in legal if a.verb == "discard"]
        mine = [a for a in discards if a.tile == drawn]
        return (mine or discards or legal)[0].text(deck)

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
        # held at a round's end, the State has dealt the next round: a page
        # coming back is told the round that ended, as it would have seen it
        start = protocol.round_start(self.state, ended=self.ending.held) if since is None \
            else since
        self.watchers.add(watcher)
        watcher.post(self.welcome(watcher.seat))
        state, seat = self.state, watcher.seat
        watcher.listener = self.referee.listen(
            seat, lambda events: self._tell(watcher, events), start)
        final = self.ending.message(state, seat)
        if final is not None and not any(e.kind is EventKind.ROUND_ENDED
                                         for e in state.events_for(seat, start)):
            watcher.post(final)  # a browser coming back to a table held at a round's end
        if self.stopped:
            watcher.post(protocol.error("stopped", self.stopped))
        self.wake()  # bots held up (no file to write to) go on

    def _tell(self, watcher: Watcher, events: list[Event]) -> None:
        """A seat's update; at a round's end, then the frozen table."""
        seat = watcher.seat
        update = protocol.update(self.state, seat, 0, events)
        timer = self.clock.shown()
        if timer is not None and seat in self.state.current_players():
            update["timer"] = timer  # its own time left (who else was asked stays secret)
        if self.ending.held:  # nothing to do until every person has said next
            update |= HELD
        watcher.post(update)
        if any(e.kind is EventKind.ROUND_ENDED for e in events):
            final = self.ending.message(self.state, seat)
            if final is not None:
                watcher.post(final)

    def next_round(self, seat: int) -> str | None:
        """A person has seen the round's end and says to go on: once every
        person has, the next round is played (None: taken, else why not)."""
        if seat not in self.ending.waiting:
            return "there is no round's end to confirm now" if not self.ending.held else None
        released = self.ending.next(seat)
        for watcher in list(self.watchers):
            if released:  # the next round's table, with what there is to do in it
                watcher.post({"type": "next_round"})
                watcher.post(protocol.update(self.state, watcher.seat, 0, []))
            else:
                shown = self.ending.message(self.state, watcher.seat)
                if shown is not None:
                    watcher.post(shown)
        if released:
            self.wake()
        return None

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
        if self.ending.held:
            return "the round is over: say next round (every person at the table does) to " \
                "play on"
        try:
            action = parse_action(self.spec.deck, text)
        except (TileError, ValueError) as error:
            return str(error)
        legal = state.legal_actions(seat)
        if action not in legal:
            return refusal(state, seat, action, legal)
        if not self._opened():
            return "the server is short of files just now: try that again in a moment"
        self.ending.keep(state)
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
        """Let the bots play, if one of them has to decide (and time the
        people's decision)."""
        self._arm()
        if self.driver is None and self.referee.going() and not self.ending.held and \
                self.referee.bot() is not None:
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        """The bots' moves, each when its pause is over (only before a move on
        a turn: a secret answer comes at once)."""
        referee = self.referee
        try:
            while referee.going() and not self.ending.held:
                seat = referee.bot()
                if seat is None:
                    return
                await asyncio.sleep(self.pace if self.pace and self.state.step is Step.TURN
                                    else 0)
                await self.turnstile.wait()  # people's messages first, when bots are busy
                if seat != referee.bot() or self.ending.held:  # a person moved meanwhile
                    continue
                if not self._opened():  # held up: a browser joining wakes the bots again
                    return
                self.ending.keep(self.state)
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
        self.clock.cancel()
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
        self.writer.close()
