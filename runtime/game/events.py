"""Events: what happened at the table, in order, as a seat may be told it.

Applying an action yields events (a draw, a discard, a claim granted or
refused, a pass, an exchange, a declaration, a payment, a round's end...).
Front ends narrate from them and never work out what happened by comparing
states. An event names its seat and tiles (as codes); tiles only some seats
may see (a draw, the tiles of a pass) are hidden from the others, who learn
only how many (`Event.for_seat`). Logs keep actions, not events: replaying
the actions yields the same events again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    DEALT = "dealt"  # a round is dealt: round, dealer, die, wall
    PHASE = "phase"  # a phase before play begins: what it is, its direction
    PASSED = "passed"  # a seat passes tiles to `to` (tiles: its own only)
    RECEIVED = "received"  # a seat receives tiles from `from` (tiles: its own only)
    VOTED = "voted"  # a vote is counted: yes, no, carried
    PLEDGED = "pledged"  # a seat pledges a rack to a flag's lines
    OFFERED = "offered"  # how many tiles a seat passes in a courtesy pass, or blind
    PLAY = "play"  # play begins with the dealer
    DREW = "drew"  # a seat draws (tiles: the drawer only)
    DISCARDED = "discarded"
    CLAIMED = "claimed"  # a claim granted: kind, the tiles exposed, the rack
    OUTRANKED = "outranked"  # a claim that lost to one of higher priority
    EXCHANGED = "exchanged"  # a natural given for an exposed joker
    DECLARED = "declared"  # a Mah Jongg declared: line, rack, tiles shown
    PENALISED = "penalised"  # a mistake's penalty: which, on which rack
    WENT_OFF = "went_off"  # a seat leaves its pledge
    PAID = "paid"  # payer, payee, amount (BANK = -1)
    ROUND_ENDED = "round_ended"  # the round's result
    MATCH_ENDED = "match_ended"  # scores, winners, payouts


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    seat: int | None = None  # whom it is about
    tiles: tuple[str, ...] = ()  # tile codes
    detail: dict[str, Any] = field(default_factory=dict)
    seen_by: frozenset[int] | None = None  # who may see the tiles (None: everybody)
    number: int = 0  # its place in the match's events, from 0

    def for_seat(self, seat: int | None) -> Event:
        """The event as `seat` is told it (None: a spectator seeing all)."""
        if seat is None or self.seen_by is None or seat in self.seen_by:
            return self
        return Event(self.kind, self.seat, (), {**self.detail, "count": len(self.tiles)},
                     self.seen_by, self.number)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.number, "kind": str(self.kind)}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.tiles:
            out["tiles"] = list(self.tiles)
        return out | self.detail
