"""Timers at a table of several people: how long a person has to answer a
claim window, to play a turn and to make a decision before play (a
Charleston pass's tiles, a vote, a courtesy offer), set when the table is
opened (a table of one person has none: nobody waits for it). When one runs
out, the seat's answer is made for it: a claim window's "pass", a turn's
discard of the tile just drawn, before play the tiles the hints suggest
passing and the least a vote or an offer can say (no, none).

A table has at most one timer armed at a time, an asyncio timer handle on
the server's one event loop (no thread, no task per table): armed for the
decision under way, cancelled when the table moves on or closes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LONGEST = 3600.0  # seconds: a timer longer than an hour is a mistake
SHORTEST = 0.01  # seconds (tests use short timers)
KINDS = ("claim", "turn", "phase")


@dataclass(frozen=True, slots=True)
class Timers:
    """Seconds for a claim window, a turn and a decision before play (None:
    untimed)."""

    claim: float | None = None
    turn: float | None = None
    phase: float | None = None

    def __bool__(self) -> bool:
        return any(getattr(self, k) is not None for k in KINDS)

    def to_json(self) -> dict[str, float]:
        return {k: v for k in KINDS if (v := getattr(self, k)) is not None}

    @classmethod
    def read(cls, data: Any) -> Timers:
        """Timers as a request or a seats file gives them: {"claim": 20,
        "turn": 60, "phase": 60}; ValueError says what is wrong."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("\"timers\": an object such as {\"claim\": 20, \"turn\": 60, "
                             "\"phase\": 60} (seconds)")
        unknown = [k for k in data if k not in KINDS]
        if unknown:
            raise ValueError(f"\"timers\": no timer {str(unknown[0])[:40]!r}; timers: "
                             f"{', '.join(KINDS)}")
        out: dict[str, float | None] = {}
        for kind in KINDS:
            value = data.get(kind)
            if value is None:
                out[kind] = None
                continue
            if type(value) not in (int, float) or not SHORTEST <= value <= LONGEST:
                raise ValueError(f"\"timers\": {kind} must be a number of seconds from "
                                 f"{SHORTEST:g} to {LONGEST:g}, not {str(value)[:40]}")
            out[kind] = float(value)
        return cls(**out)


class Clock:
    """The one timer of a table: what it is for, and when it runs out."""

    def __init__(self, timers: Timers):
        self.timers = timers
        self.key: tuple[Any, ...] | None = None  # the decision it is armed for
        self.kind = ""
        self.deadline = 0.0
        self.handle: asyncio.TimerHandle | None = None

    def arm(self, key: tuple[Any, ...] | None, kind: str,
            expire: Callable[[tuple[Any, ...]], None]) -> None:
        """Armed for this decision (`key`; None, or a kind untimed: none);
        the same decision keeps the time it had."""
        seconds = getattr(self.timers, kind, None) if kind else None
        if key is None or seconds is None:
            self.cancel()
            return
        if key == self.key:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a table driven without a server): untimed
            return
        self.cancel()
        self.key, self.kind, self.deadline = key, kind, loop.time() + seconds
        self.handle = loop.call_later(seconds, expire, key)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle, self.key, self.kind = None, None, ""

    def shown(self) -> dict[str, Any] | None:
        """The time left, as the page is sent it."""
        if self.handle is None:
            return None
        left = max(0.0, self.deadline - asyncio.get_running_loop().time())
        seconds = getattr(self.timers, self.kind)
        return {"kind": self.kind, "seconds": seconds, "left": round(left, 2)}
