"""What a seat may see: its observation, typed for bots and front ends, the
same rendered as plain data for JSON (`plain`), and a readable table for
people. There is one extraction (`observe`); the plain form reads nothing
of the State but the observation.

A seat sees its own concealed tiles, those it chose for a pass or set
aside, everything public (exposures, discards, scores, results), and of the
others only how many tiles they hold. Resampling everything hidden from a
seat leaves its observation unchanged (the conformance tests check it).
Bots decide from an Observation and the rules alone: `me` is their own
seat, read by the same rule functions as the State's seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game import racks
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.scored import Public
from jongg.runtime.game.seat import Exposure, SeatQueries
from jongg.runtime.game.spec import Phase, Pledge
from jongg.runtime.game.table import Step
from jongg.runtime.hand import Hand

if TYPE_CHECKING:
    from jongg.runtime.game.state import State


@dataclass(frozen=True)
class OwnSeat(SeatQueries):
    """A seat as its player knows it (read-only): the rules read it as they
    read the State's seats."""

    counts: tuple[int, ...]
    exposures: tuple[Exposure, ...]
    rack_dead: tuple[bool, ...]
    pledged: Pledge | None
    aside: tuple[int, ...]
    dead: bool
    outgoing: tuple[int, ...]

    def concealed(self) -> tuple[int, ...]:
        # kept: the seat is read-only, and its agent asks for them several times
        kept: tuple[int, ...] | None = self.__dict__.get("_concealed")
        if kept is None:
            kept = SeatQueries.concealed(self)
            object.__setattr__(self, "_concealed", kept)
        return kept


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """Another seat as everybody sees it."""

    exposures: tuple[Exposure, ...]
    discards: tuple[int, ...]
    in_hand: int  # how many concealed tiles it holds
    dead: bool
    skips: int
    rack_dead: tuple[bool, ...] = ()
    pledge: int | None = None  # the rack pledged (set aside for a flag's line)
    hand: tuple[int, ...] | None = None  # its concealed tiles, on a table played open


class ObservationExpired(JonggError, RuntimeError):
    """An observation's tiles first read after the decision it was made for."""


class _Tiles:
    """Where an observation's seats come from: the State at the decision,
    read when first asked (`Referee` hands agents these), or built."""

    __slots__ = ("state", "seat", "at", "me", "seats")

    def __init__(self, state: State | None, seat: int, at: int):
        self.state, self.seat, self.at = state, seat, at
        self.me: OwnSeat | None = None
        self.seats: tuple[PublicSeat, ...] | None = None

    def source(self) -> State:
        state = self.state
        if state is None or state.decisions != self.at:
            raise ObservationExpired(
                "an observation's seats are read during its decision (the match has moved "
                "on since): keep observation.settled() to read them later")
        return state

    def own(self) -> OwnSeat:
        if self.me is None:
            mine = self.source()._seats[self.seat]
            me = self.me = OwnSeat(tuple(mine.counts), tuple(mine.exposures),
                                   tuple(mine.rack_dead), mine.pledged, tuple(mine.aside),
                                   mine.dead, tuple(mine.outgoing))
            object.__setattr__(me, "_concealed", mine.concealed())  # the seat's kept tiles
        return self.me

    def public(self) -> tuple[PublicSeat, ...]:
        if self.seats is None:
            state = self.source()
            open_hands = state.spec.options.get("visibility") == "all"
            self.seats = tuple(PublicSeat(tuple(s.exposures), tuple(s.discards), s.in_hand,
                                          s.dead, s.skips, tuple(s.rack_dead), s.pledge,
                                          tuple(s.concealed()) if open_hands else None)
                               for s in state._seats)
        return self.seats


@dataclass(frozen=True, eq=False)
class Observation:
    """One seat's view of the table now, typed (`State.observation` gives the
    same as plain data). Its own seat (`me`) and the public seats (`seats`)
    are read off the State when first asked: an agent that never looks at
    them costs nothing for them. One handed to an agent by the referee is
    read during the decision; `settled()` is one whose seats are all read."""

    seat: int
    rules: Rules = field(repr=False)
    tiles: _Tiles = field(repr=False)
    step: str
    phase: Phase | None  # the phase before play under way
    turn: int | None  # whose turn it is (None outside a turn)
    discard: tuple[int, int] | None  # (seat, tile) open to claims
    last: int | None  # the tile this seat drew or claimed this turn
    promised: tuple[int, ...]  # racks a Mah Jongg claimed must be declared on
    wall: int  # tiles left to draw
    round: int
    dealer: int
    scores: tuple[int, ...]
    scored: Public | None = None  # a scored game's table: winds, indicators, counters
    drawn: int | None = None  # the tile this seat just drew, on its own turn
    blind: int = 0  # tiles of the pass under way this seat forwards unseen
    deciding: bool = False  # whether this seat is asked to act now
    die: int | None = None  # walls built on the table: the die cast
    wall_of: int | None = None  # and whose wall is being drawn
    results: tuple[Any, ...] = ()  # the rounds played (RoundResult)
    furiten: bool = False  # a scored game: this seat may not win on a discard now

    @cached_property
    def me(self) -> OwnSeat:
        """This seat as its player knows it."""
        return self.tiles.own()

    @cached_property
    def seats(self) -> tuple[PublicSeat, ...]:
        """Every seat as everybody sees it."""
        return self.tiles.public()

    @classmethod
    def _made(cls, values: tuple[Any, ...]) -> Observation:
        """One made from every field's value in order, as the generated
        __init__ would, without its frozen check per field (one is made
        for every decision of every match)."""
        seen = object.__new__(cls)
        seen.__dict__.update(zip(_FIELDS, values, strict=True))
        return seen

    def settled(self) -> Observation:
        """The observation with its seats read (it may be kept past its decision)."""
        self.tiles.own()
        self.tiles.public()
        return self

    def _key(self) -> tuple[object, ...]:
        """What two observations must share to be the same decision: the
        die, whose wall is drawn and the rounds played are shown, not
        decided from (a world the search agent deals keeps none of them)."""
        return (self.seat, self.me, self.step, self.phase, self.turn, self.discard, self.last,
                self.promised, self.wall, self.round, self.dealer, self.scores, self.seats,
                self.scored, self.drawn, self.blind, self.deciding)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def hand(self, rack: int = 0) -> Hand:
        return self.me.hand(rack)

    @cached_property
    def unseen(self) -> tuple[int, ...]:
        """Per tile kind, the copies this seat has not seen anywhere (in the
        wall or in other seats' hands)."""
        seen = list(self.me.counts)  # the seat's own concealed tiles
        for t in (*self.me.outgoing, *self.me.aside):
            seen[t] += 1
        for s in self.seats:
            for t in s.discards:
                seen[t] += 1
            for e in s.exposures:
                for t in e.tiles:
                    seen[t] += 1
        return tuple(max(0, k.copies - n) for k, n in zip(self.rules.deck.kinds, seen,
                                                           strict=True))

    def wins_with(self, tile: int, mahjongs: int = 1) -> bool:
        """Whether this tile would complete the hand (`mahjongs` racks at once)."""
        rules, me = self.rules, self.me
        if rules.spec.racks == 1:
            return rules.completes(me.hand().plus(tile))
        return bool(racks.claimable_racks(rules, me, me.concealed(), tile, mahjongs))

    def completes(self) -> bool:
        return self.rules.completes(self.me.hand())

    def declaration_takes(self, rack: int, line_id: str) -> list[int]:
        """The pool tiles declaring this rack with this line would take."""
        return racks.declaration_takes(self.rules, self.me, rack, self.me.concealed(),
                                       self.last, line_id)


_FIELDS = tuple(f.name for f in fields(Observation))


def observe(state: State, seat: int, *, lazy: bool = False) -> Observation:
    """What `seat` may see now, typed; `lazy`: its seats read when first
    asked, during this decision (what the referee hands an agent)."""
    step = state.step
    before_play = step is Step.PASSING or step is Step.OFFERING or step is Step.VOTING
    on_turn = step is Step.TURN
    seen = Observation._made((
        seat, state._rules, _Tiles(state, seat, state.decisions), step.value,
        state.phase if before_play else None, state.turn if on_turn else None, state._open_discard,
        state._last_tile(seat),
        tuple(state._promised) if on_turn and state.turn == seat else (), state._live_wall(),
        state.round, state.dealer, tuple(state.scores), state._public_scored(seat),
        state._drawn if on_turn and state.turn == seat else None,
        state._blind[seat] if step is Step.PASSING else 0, seat in state.current_players(),
        state._die if state._wall_owner else None,
        state._wall_owner[-1] if state._wall_owner else None, tuple(state.results),
        state._is_furiten(seat)))
    return seen if lazy else seen.settled()


def plain(state: State, seat: int) -> dict[str, Any]:
    """What `seat` may see now, as plain data (JSON): its observation rendered."""
    return rendered(observe(state, seat))


def rendered(seen: Observation) -> dict[str, Any]:
    """An observation as plain data (JSON), tile codes for tile indices."""
    rules = seen.rules
    deck = rules.deck
    me = seen.me
    data: dict[str, Any] = {
        "seat": seen.seat, "round": seen.round, "dealer": seen.dealer, "step": seen.step,
        "scores": list(seen.scores), "wall": seen.wall,
        "hand": deck.codes(me.concealed()),
        "passing": deck.codes(me.outgoing),
        **({"aside": deck.codes(sorted(me.aside))} if rules.pledge_flags else {}),
        "blind": seen.blind, "turn": seen.turn,
        "discard": (None if seen.discard is None else
                    [seen.discard[0], deck.code(seen.discard[1])]),
        "deciding": seen.deciding,
        "seats": [_public_seat(rules, s) for s in seen.seats],
        "results": [r.public() for r in seen.results],
    }
    if seen.drawn is not None:  # the tile just drawn, and which copy of it in the hand
        drawn = data["drawn"] = deck.code(seen.drawn)
        if drawn in data["hand"]:  # (not once it is given for a joker)
            data["drawn_at"] = len(data["hand"]) - 1 - data["hand"][::-1].index(drawn)
    table = seen.scored
    if table is not None:  # a scored game's table
        data["table"] = {"indicators": deck.codes(table.indicators), "honba": table.honba,
                         "sticks": table.sticks, "declared": list(table.declared),
                         "round_wind": deck.code(table.round_wind),
                         "seat_winds": deck.codes(table.seat_winds),
                         "furiten": seen.furiten, "red": {  # red copies: held, shown, let go
                             "held": deck.codes(table.red_held),
                             "shown": [deck.codes(r) for r in table.red_shown],
                             "discards": [list(r) for r in table.red_thrown]}}
    if seen.wall_of is not None:  # walls built on the table: the die, and whose wall is drawn
        data["die"], data["wall_of"] = seen.die, seen.wall_of
    return data


def _public_seat(rules: Rules, s: PublicSeat) -> dict[str, Any]:
    deck = rules.deck
    return {
        "concealed": s.in_hand,
        "exposures": [deck.codes(e.tiles) for e in s.exposures],
        "discards": deck.codes(s.discards), "dead": s.dead, "skips": s.skips,
        **({"hand": deck.codes(s.hand)} if s.hand is not None else {}),
        **({"racks": [{"exposures": [deck.codes(e.tiles) for e in s.exposures
                                     if e.rack == r and not e.mahjong],
                       "mahjong": [t for e in s.exposures if e.rack == r and e.mahjong
                                   for t in deck.codes(e.tiles)],
                       "dead": dead, "pledged": r == s.pledge}
                      for r, dead in enumerate(s.rack_dead)]}
           if rules.spec.racks > 1 else {}),
    }


def table_text(state: State) -> str:
    """The whole table in plain text, hidden tiles included (for people
    studying a position: print(state))."""
    spec = state.spec
    deck = spec.deck
    head = (f"{spec.title}: round {state.round + 1}, {spec.seats[state.dealer]} deals; "
            f"step {state.step}")
    if state.step.value == "turn":
        head += f", {spec.seats[state.turn]} to play"
    lines = [head, f"wall: {len(state._wall)} tiles; scores: "
             + ", ".join(f"{spec.seats[s]} {v}" for s, v in enumerate(state.scores))]
    if state._open_discard is not None:
        lines.append(f"discard: {deck.code(state._open_discard[1])} "
                     f"from {spec.seats[state._open_discard[0]]}")
    for i, s in enumerate(state._seats):
        exposed = " ".join("[" + " ".join(deck.codes(e.tiles)) + "]" for e in s.exposures)
        marks = " (dead)" if s.dead else ""
        lines.append(f"{spec.seats[i]}{marks}: {' '.join(deck.codes(s.concealed()))}"
                     + (f"  exposed {exposed}" if exposed else "")
                     + (f"  discards {' '.join(deck.codes(s.discards))}" if s.discards else ""))
    return "\n".join(lines)
