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

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, ClassVar, TypeVar


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
    ANNOUNCED = "announced"  # a declaration made with a discard: its name, its deposit
    KONGED = "konged"  # a kong declared on one's own turn (tiles: the kong)
    SCORED = "scored"  # a scored game's win: yaku, han, fu, limit, indicators
    ABORTED = "aborted"  # a scored game's round ends drawn before the wall runs out: why


# -- what each kind of event says: one typed payload a kind ---------------------------
#
# A payload's fields are its JSON keys, in order; a field marked OMIT is left
# out of the JSON while it is None (a rack named only with several racks, the
# count of tiles a seat is not shown). Front ends read the fields (mypy checks
# them); the JSON form (`Event.to_json`, what the web table is sent) is as
# before.

OMIT = {"omit": True}


def _omit() -> Any:
    return field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class Payload:
    kind: ClassVar[EventKind]

    def public(self) -> dict[str, Any]:
        """The payload as JSON keys and values, in order."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omit"):
                continue
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Dealt(Payload):
    kind = EventKind.DEALT
    round: int
    die: int
    wall: int


@dataclass(frozen=True, slots=True)
class PassBegun(Payload):
    """A Charleston pass begins (a phase before play)."""

    kind = EventKind.PHASE
    phase: str  # "pass"
    to: str
    count: int
    blind: int
    jokers: bool


@dataclass(frozen=True, slots=True)
class CourtesyBegun(Payload):
    kind = EventKind.PHASE
    phase: str  # "courtesy"
    to: str
    most: int


@dataclass(frozen=True, slots=True)
class VoteBegun(Payload):
    kind = EventKind.PHASE
    phase: str  # "vote"
    rule: str
    question: str


@dataclass(frozen=True, slots=True)
class PledgeBegun(Payload):
    kind = EventKind.PHASE
    phase: str  # "pledge"
    flag: str
    rack: int
    count: int
    question: str | None


PhaseBegun = PassBegun | CourtesyBegun | VoteBegun | PledgeBegun
PHASE_BEGUN: dict[str, type[PhaseBegun]] = {"pass": PassBegun, "courtesy": CourtesyBegun,
                                            "vote": VoteBegun, "pledge": PledgeBegun}


@dataclass(frozen=True, slots=True)
class Passed(Payload):
    kind = EventKind.PASSED
    to: int
    blind: int
    count: int | None = _omit()  # the tiles, to a seat not shown them


@dataclass(frozen=True, slots=True)
class Received(Payload):
    kind = EventKind.RECEIVED
    giver: int
    count: int | None = _omit()


@dataclass(frozen=True, slots=True)
class Voted(Payload):
    kind = EventKind.VOTED
    yes: int
    no: int
    carried: bool


@dataclass(frozen=True, slots=True)
class Pledged(Payload):
    kind = EventKind.PLEDGED
    rack: int
    flag: str


@dataclass(frozen=True, slots=True)
class Offered(Payload):
    kind = EventKind.OFFERED
    offered: int
    passes: int
    blind: int | None = _omit()  # a blind pass's: how many go on unseen


@dataclass(frozen=True, slots=True)
class PlayBegun(Payload):
    kind = EventKind.PLAY


@dataclass(frozen=True, slots=True)
class Drew(Payload):
    kind = EventKind.DREW
    wall: int
    count: int | None = _omit()


@dataclass(frozen=True, slots=True)
class Discarded(Payload):
    kind = EventKind.DISCARDED


@dataclass(frozen=True, slots=True)
class Claimed(Payload):
    kind = EventKind.CLAIMED
    claim: str
    mahjong: bool
    giver: int
    rack: int | None = _omit()  # with several racks, a set's rack


@dataclass(frozen=True, slots=True)
class Outranked(Payload):
    kind = EventKind.OUTRANKED
    claim: str
    by: int


@dataclass(frozen=True, slots=True)
class Exchanged(Payload):
    kind = EventKind.EXCHANGED
    owner: int
    exposure: int


@dataclass(frozen=True, slots=True)
class Declared(Payload):
    kind = EventKind.DECLARED
    rack: int
    line: str
    value: int


@dataclass(frozen=True, slots=True)
class Penalised(Payload):
    kind = EventKind.PENALISED
    penalty: str
    rack: int | None = _omit()  # with several racks


@dataclass(frozen=True, slots=True)
class WentOff(Payload):
    kind = EventKind.WENT_OFF
    rack: int
    forced: bool


@dataclass(frozen=True, slots=True)
class Paid(Payload):
    kind = EventKind.PAID
    payer: int
    payee: int
    amount: int
    clauses: list[str]


@dataclass(frozen=True, slots=True)
class RoundEnded(Payload):
    """The round's result (scoring.RoundEnd.public), and the scores after it."""

    kind = EventKind.ROUND_ENDED
    round: int
    winner: int | None
    discarder: int | None
    self_drawn: bool
    line: str | None
    dealer: int
    turns: int
    shown: list[list[str]]
    how: str
    mahjongs: list[dict[str, Any]] | None = _omit()  # several racks, or a dead end
    winners: list[dict[str, Any]] | None = _omit()  # several wins on one discard: each
    scores: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MatchEnded(Payload):
    kind = EventKind.MATCH_ENDED
    scores: list[int]
    winners: list[int] | None
    payouts: list[float] | None


@dataclass(frozen=True, slots=True)
class Announced(Payload):
    kind = EventKind.ANNOUNCED
    name: str
    deposit: int
    first_turn: bool  # made with the seat's first discard, no call before it


@dataclass(frozen=True, slots=True)
class Konged(Payload):
    kind = EventKind.KONGED
    added: bool  # the fourth tile put to an exposed pung (else four held, concealed)


@dataclass(frozen=True, slots=True)
class Aborted(Payload):
    kind = EventKind.ABORTED
    reason: str  # the `abortive` rule that ended the round (orphans, first_discards, ...)


@dataclass(frozen=True, slots=True)
class Scored(Payload):
    kind = EventKind.SCORED
    yaku: list[list[Any]]  # [name, han] (or [name, yakuman count])
    han: int
    fu: int
    limit: str
    indicators: list[str]
    ura: list[str]
    total: int
    fu_items: list[list[Any]]  # [what, fu] from the base on


PAYLOADS: dict[EventKind, type[Payload]] = {
    cls.kind: cls for cls in (Dealt, PassBegun, Passed, Received, Voted, Pledged, Offered,
                              PlayBegun, Drew, Discarded, Claimed, Outranked, Exchanged,
                              Declared, Penalised, WentOff, Paid, RoundEnded, MatchEnded,
                              Announced, Konged, Scored, Aborted)}
assert set(PAYLOADS) == set(EventKind), "an event kind without its payload"

P = TypeVar("P", bound=Payload)


@dataclass(frozen=True, slots=True)
class Event:
    seat: int | None = None  # whom it is about
    tiles: tuple[str, ...] = ()  # tile codes
    payload: Payload = field(default_factory=PlayBegun)
    seen_by: frozenset[int] | None = None  # who may see the tiles (None: everybody)
    number: int = 0  # its place in the match's events, from 0

    @property
    def kind(self) -> EventKind:
        return self.payload.kind

    @property
    def detail(self) -> dict[str, Any]:
        """The payload as plain data (its JSON keys), for readers of plain data."""
        return self.payload.public()

    def of(self, cls: type[P]) -> P:
        """The payload, as the kind it must be (TypeError if it is another)."""
        if not isinstance(self.payload, cls):
            raise TypeError(f"a {self.kind} event, not {cls.kind}")
        return self.payload

    def for_seat(self, seat: int | None) -> Event:
        """The event as `seat` is told it (None: a spectator seeing all)."""
        if seat is None or self.seen_by is None or seat in self.seen_by:
            return self
        hidden = replace(self.payload, count=len(self.tiles))  # type: ignore[call-arg]
        return Event(self.seat, (), hidden, self.seen_by, self.number)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.number, "kind": str(self.kind)}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.tiles:
            out["tiles"] = list(self.tiles)
        return out | self.payload.public()
