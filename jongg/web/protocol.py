"""The messages of the web table, both ways, as JSON objects with a "type".

A browser sends:

    {"type": "hello", "token": "...", "since": 0}   first: the seat's secret token;
                                                    since: events it has already been told
    {"type": "act", "action": "discard 3B"}         an action's text form (docs/api.md)
    {"type": "hint"}                                the hints for its position now
    {"type": "next"}                                it has seen the round's end: play on
    {"type": "rematch"}                             the match over: the same table again

and is sent:

    {"type": "welcome", ...}    once: the table, its seat, the tiles, the card, the claims
    {"type": "update", ...}     after every change: its observation, the events it may
                                be told since the last update, and in words (the
                                presentation model's, jongg/present): their story,
                                its prompt, each legal action, its hints, a round's
                                end (docs/web.md, "Messages")
    {"type": "refused", ...}    its action was not taken, and why (nothing changed)
    {"type": "hint", ...}       its hints
    {"type": "round_over", ...} a round's end: the final table frozen (every hand),
                                the payments, who must still say next
    {"type": "next_round"}      every person has said next: the next round is played
    {"type": "rematch", ...}    the table opened again: its id, and this seat's own link
    {"type": "error", ...}      a message it sent that cannot be read, an unknown table,
                                a wrong token

Everything a seat is sent about the game is built here from that seat's
observation (`State.observation`), the events as it may be told them
(`State.events_for`) and its own legal actions: never from another seat's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from jongg.present.seen import Seen
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.state import State

from . import look, said

LONGEST = 2000  # characters in a message from a browser: an action's text is short
TYPES = ("hello", "act", "hint", "next", "rematch")


class ProtocolError(ValueError):
    """A message that cannot be read; `code` names the kind of problem."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Message:
    """A message from a browser, read and checked."""

    type: str
    token: str = ""
    since: int | None = None
    action: str = ""


def read(text: str | bytes) -> Message:
    """A browser's message; ProtocolError says what is wrong with it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad-json", "a message must be UTF-8 JSON text") from None
    if len(text) > LONGEST:
        raise ProtocolError("too-long", f"a message of {len(text)} characters; at most "
                                        f"{LONGEST}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        where = f" at column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        raise ProtocolError("bad-json", f"not JSON{where}: {_quote(text)}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a message must be a JSON object with a \"type\"")
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError("bad-message", f"unknown message type {_quote(kind)}; types: "
                                           f"{', '.join(TYPES)}")
    if kind == "hello":
        token, since = data.get("token"), data.get("since")
        if not isinstance(token, str) or not token:
            raise ProtocolError("bad-message", "hello needs the seat's \"token\" (from its link)")
        if since is not None and (type(since) is not int or since < 0):
            raise ProtocolError("bad-message", f"\"since\" must be a count of events, not "
                                               f"{_quote(since)}")
        return Message("hello", token=token, since=since)
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError("bad-message", "act needs an \"action\": its text, such as "
                                               "'discard 3B'")
        return Message("act", action=action.strip())
    return Message(kind)


def _quote(value: Any, limit: int = 40) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def refused(action: str, message: str) -> dict[str, Any]:
    return {"type": "refused", "action": action, "message": message}


def round_start(state: State, ended: bool = False) -> int:
    """The number of the event that dealt the round under way (`ended`: the
    round before it, which has just ended): a browser coming back is told
    the round from there."""
    dealt = [e.number for e in state.events if e.kind is EventKind.DEALT]
    if ended:
        return dealt[-2] if len(dealt) > 1 else 0
    return dealt[-1] if dealt else 0


def update(state: State, seat: int, since: int, events: list[Event] | None = None
           ) -> dict[str, Any]:
    """What `seat` is sent after a change: its own view of the table, the
    events from `since` (or these, as the referee told them) as it may be
    told them, and its own legal actions."""
    told = state.events_for(seat, since) if events is None else events
    seen = Seen.of(state, seat)
    return {"type": "update", "view": seen.data,
            "events": [look.told(seen.rules, e) for e in told],
            **said.told(seen, told),
            "next": len(state.events),
            "legal": [a.text(seen.deck) for a in seen.legal],
            "decisions": state.decisions, "over": state.is_terminal()}


def view_rules(state: State) -> Rules:
    """The game's rules, as every seat's observation carries them."""
    return state.observe(0, lazy=True).rules


def open_update(state: State, since: int) -> dict[str, Any]:
    """The table with every hand open (a replay of a saved game): one
    observation with each seat's own tiles filled in from its own
    observation, and every event whole."""
    seen = [state.observation(s) for s in range(state.spec.players)]
    view = {**seen[0], "seat": None, "hand": [], "passing": [], "deciding": False, "blind": 0}
    view.pop("drawn", None)
    if "aside" in view:
        view["aside"] = []
    view["seats"] = [{**public, "hand": seen[s]["hand"], "passing": seen[s]["passing"],
                      **({"aside": seen[s]["aside"]} if "aside" in seen[s] else {})}
                     for s, public in enumerate(view["seats"])]
    told = state.events_for(None, since)
    return {"type": "update", "view": view,
            "events": [look.told(view_rules(state), e) for e in told],
            **said.told(said.onlooker(state), told),
            "next": len(state.events), "legal": [], "decisions": state.decisions,
            "over": state.is_terminal()}
