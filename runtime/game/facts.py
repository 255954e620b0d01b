"""Every fact a scoring formula may read, declared once.

A fact has a name, a kind, a bound (the range the compiler proves payments
over), a line of doc, and how it is read from the moment a formula is
evaluated at (a win, a wall game, a seat's dead hands, a match's end). The
compiler checks formulas against these names and bounds them with these
bounds; the runtime's scoring, the expert's payoffs and the positions read
facts only through `read()`. A fact cannot be half declared: one without a
reader, a bound (for a count) or a moment fails when this module is
imported, and a name not in the table is an error wherever it is asked for,
never a silent 0 or 0..1.

Two families stand for many facts: `held_<tag>` for each tag of the deck's
tiles and `flagged_<flag>` for each flag of the lines played.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jongg.runtime.game.scoring import Facts, RoundEnd
    from jongg.runtime.game.spec import GameSpec

Bound = tuple[float, float]  # lowest and highest, either may be infinite
ANY: Bound = (-math.inf, math.inf)
TRUTH: Bound = (0, 1)


class Kind(StrEnum):
    TRUTH = "truth"  # true or false (1 or 0 in arithmetic)
    COUNT = "count"  # a whole number within a bound the variant sets
    SCORE = "score"  # a score: any whole number


class Moment(StrEnum):
    """When a formula is evaluated, and so what it may read."""

    WIN = "win"  # scoring.win and scoring.mahjong: a winning hand, for one payer
    WALL = "wall_game"  # scoring.wall_game: an award to one seat
    DEAD = "dead"  # scoring.dead: a seat all of whose hands died
    MATCH = "match"  # match.end: after each round


@dataclass(frozen=True, slots=True)
class Sizes:
    """What the compiler knows of a variant that bounds its facts."""

    players: int
    racks: int
    tiles: int  # the most tiles a hand can hold, exposures included
    values: Bound  # the lowest and highest value of the lines played
    max_rounds: int


@dataclass(frozen=True, slots=True)
class Win:
    """A winning hand as one payer's formula reads it."""

    spec: GameSpec
    end: RoundEnd
    facts: Facts
    winning: bool = True  # of the turn that won the round
    together: int = 1  # Mah Jonggs the seat declared that turn
    payer_is_dealer: bool = False
    payer_is_discarder: bool = False

    @property
    def round(self) -> int:
        return self.end.round


@dataclass(frozen=True, slots=True)
class Wall:
    """A wall game's award to one seat."""

    spec: GameSpec
    round: int
    receiver_is_dealer: bool
    waiting: bool = False  # the seat awarded is one tile from a win (a scored game)
    payer_waiting: bool = False
    waiting_seats: int = 0
    payer_is_dealer: bool = False
    clean: bool = False  # the seat awarded let go of orphans alone, none claimed (a scored game)
    clean_seats: int = 0


@dataclass(frozen=True, slots=True)
class Dead:
    """A seat all of whose hands died."""

    spec: GameSpec
    round: int
    exposed_value: int  # the best Mah Jongg another seat declared (0: none)
    lowest_value: int  # the card's lowest value


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """The match after a round."""

    spec: GameSpec
    rounds: int
    scores: tuple[int, ...]
    passes: int = 0


@dataclass(frozen=True, slots=True)
class Fact:
    name: str
    kind: Kind
    doc: str
    read: Callable[[Any], int | bool]  # from the moment's record (Win, Wall, Dead, MatchEnd)
    moments: frozenset[Moment]
    bound: Callable[[Sizes], Bound] | None = None  # a count's; a truth's is 0..1, a score's any

    def __post_init__(self) -> None:
        if not callable(self.read) or not self.moments or not self.doc:
            raise TypeError(f"fact {self.name!r}: a reader, a moment and a doc are needed")
        if self.kind is Kind.COUNT and self.bound is None:
            raise TypeError(f"fact {self.name!r}: a count needs a bound")

    def range(self, sizes: Sizes) -> Bound:
        if self.bound is not None:
            return self.bound(sizes)
        return TRUTH if self.kind is Kind.TRUTH else ANY


@dataclass(frozen=True, slots=True)
class Family:
    """Facts named `<prefix><key>`, one per key a variant has (tags, flags)."""

    prefix: str
    kind: Kind
    doc: str
    read: Callable[[Any, str], int | bool]  # from the moment's record, for one key
    moments: frozenset[Moment] = field(default=frozenset({Moment.WIN}))
    bound: Callable[[Sizes], Bound] | None = None

    def name(self, key: str) -> str:
        return fact_name(self.prefix, key)

    def fact(self, key: str) -> Fact:
        read = self.read
        return Fact(self.name(key), self.kind, self.doc.replace("<key>", key),
                    lambda at: read(at, key), self.moments, self.bound)


def fact_name(prefix: str, key: str) -> str:
    """A family's fact for a tag or flag: `extra-wind` gives held_extra_wind."""
    return prefix + key.replace("-", "_")


WIN, WALL, DEAD, MATCH = (frozenset({m}) for m in Moment)
_EVERY = frozenset(Moment) - MATCH

FACTS: tuple[Fact, ...] = (
    Fact("self_drawn", Kind.TRUTH, "the turn began with a draw (or the dealer's dealt hand)",
         lambda w: w.facts.self_drawn, WIN),
    Fact("jokerless", Kind.TRUTH, "no joker in the winning hand",
         lambda w: w.facts.jokerless, WIN),
    Fact("value", Kind.COUNT, "the line's value on the card",
         lambda w: w.facts.value, WIN, lambda s: s.values),
    Fact("concealed", Kind.TRUTH, "no exposure (on that rack, before it was declared)",
         lambda w: w.facts.concealed, WIN),
    Fact("exposures", Kind.COUNT, "sets exposed by claims",
         lambda w: w.facts.exposures, WIN, lambda s: (0, s.tiles)),
    Fact("winner_is_dealer", Kind.TRUTH, "the winner is the dealer",
         lambda w: w.end.winner == w.end.dealer, WIN),
    Fact("winner_position", Kind.COUNT, "the winner's seat counted from the dealer's: 0 the "
         "dealer, 1 the next", lambda w: (w.end.winner - w.end.dealer) % w.spec.players, WIN,
         lambda s: (0, s.players - 1)),
    Fact("payer_is_dealer", Kind.TRUTH, "the seat paying is the dealer",
         lambda w: w.payer_is_dealer, WIN | WALL),
    Fact("payer_is_discarder", Kind.TRUTH, "the seat paying discarded the winning tile",
         lambda w: w.payer_is_discarder, WIN),
    Fact("winning", Kind.TRUTH, "the Mah Jongg is of the turn that won the round",
         lambda w: w.winning, WIN),
    Fact("together", Kind.COUNT, "Mah Jonggs the seat declared that turn (2: a double)",
         lambda w: w.together, WIN, lambda s: (1, s.racks)),
    Fact("jokers_allowed", Kind.TRUTH, "the line admits jokers (not singles and pairs)",
         lambda w: w.facts.jokers_allowed, WIN),
    Fact("players", Kind.COUNT, "seats at the table",
         lambda at: at.spec.players, frozenset(Moment), lambda s: (s.players, s.players)),
    Fact("round", Kind.COUNT, "the round, from 0",
         lambda at: at.round, _EVERY, lambda s: (0, s.max_rounds)),
    Fact("racks", Kind.COUNT, "racks (hands) each seat plays",
         lambda at: at.spec.racks, WIN | DEAD, lambda s: (s.racks, s.racks)),
    Fact("receiver_is_dealer", Kind.TRUTH, "the seat awarded is the dealer",
         lambda w: w.receiver_is_dealer, WALL),
    Fact("waiting", Kind.TRUTH, "the seat awarded is one tile from a win (a scored game)",
         lambda w: w.waiting, WALL),
    Fact("payer_waiting", Kind.TRUTH, "the seat paying is one tile from a win (a scored game)",
         lambda w: w.payer_waiting, WALL),
    Fact("waiting_seats", Kind.COUNT, "seats one tile from a win (a scored game)",
         lambda w: w.waiting_seats, WALL, lambda s: (0, s.players)),
    Fact("clean_discards", Kind.TRUTH, "every tile the seat awarded let go of is one of the "
         "hand scoring's orphans, and none was claimed (a scored game)",
         lambda w: w.clean, WALL),
    Fact("clean_seats", Kind.COUNT, "seats whose every discard is an orphan, none claimed "
         "(a scored game)", lambda w: w.clean_seats, WALL, lambda s: (0, s.players)),
    Fact("exposed_value", Kind.COUNT, "the highest value among the other seats' declared "
         "Mah Jonggs (0: none)", lambda d: d.exposed_value, DEAD, lambda s: (0, s.values[1])),
    Fact("lowest_value", Kind.COUNT, "the card's lowest value",
         lambda d: d.lowest_value, DEAD, lambda s: (s.values[0], s.values[0])),
    Fact("rounds", Kind.COUNT, "rounds played", lambda m: m.rounds, MATCH,
         lambda s: (1, s.max_rounds)),
    Fact("passes", Kind.COUNT, "times the deal has passed to the next seat (a dealer who "
         "keeps it plays again)", lambda m: m.passes, MATCH, lambda s: (0, s.max_rounds)),
    Fact("lowest", Kind.SCORE, "the lowest score", lambda m: min(m.scores), MATCH),
    Fact("highest", Kind.SCORE, "the highest score", lambda m: max(m.scores), MATCH),
)

FAMILIES: tuple[Family, ...] = (
    Family("held_", Kind.COUNT, "tiles of the winning hand tagged <key>",
           lambda w, key: dict(w.facts.held)[fact_name("held_", key)],
           bound=lambda s: (0, s.tiles)),
    Family("flagged_", Kind.TRUTH, "the line is flagged <key> on the card",
           lambda w, key: key in w.facts.flags),
)

_BY_NAME = {f.name: f for f in FACTS}


class UnknownFact(KeyError):
    """A fact name no declaration gives."""


def names(moment: Moment) -> tuple[str, ...]:
    """The plain facts a formula evaluated at `moment` may read (families aside)."""
    return tuple(f.name for f in FACTS if moment in f.moments)


def declared(moment: Moment, tags: Iterable[str] = (), flags: Iterable[str] = ()
             ) -> tuple[Fact, ...]:
    """Every fact at `moment`, with the families' for these tags and flags."""
    keys = {"held_": tuple(tags), "flagged_": tuple(flags)}
    return (*(f for f in FACTS if moment in f.moments),
            *(family.fact(k) for family in FAMILIES if moment in family.moments
              for k in keys[family.prefix]))


def fact(name: str, tags: Iterable[str] = (), flags: Iterable[str] = ()) -> Fact:
    """The declaration of `name` (a family's for these tags and flags)."""
    known = _BY_NAME.get(name)
    if known is not None:
        return known
    keys = {"held_": tuple(tags), "flagged_": tuple(flags)}
    for family in FAMILIES:
        for key in keys[family.prefix]:
            if family.name(key) == name:
                return family.fact(key)
    raise UnknownFact(f"no fact is declared as {name!r} (runtime/game/facts.py)")


def read(moment: Moment, at: Any, tags: Iterable[str] = (), flags: Iterable[str] = ()
         ) -> dict[str, int | bool]:
    """Every fact at `moment`, read from its record `at`."""
    return {f.name: f.read(at) for f in declared(moment, tags, flags)}
