"""The game specification: a variant compiled for one player count (plain data).

jongg.compiler.variant builds it from rulesets/variants/*.yaml; the runtime
(jongg.runtime.game.state) executes it. Nothing here knows a variant by name:
every difference between games is a field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from jongg.runtime.game.formula import Formula
from jongg.runtime.tiles import Deck

if TYPE_CHECKING:
    from jongg.runtime.game.scored import ScoredWins


class Direction(StrEnum):
    RIGHT = "right"
    LEFT = "left"
    ACROSS = "across"


class Penalty(StrEnum):
    """What a mistake costs in strict mode (guarded mode refuses mistakes)."""

    SKIP_TURN = "skip-turn"  # the next turn is skipped (NYMJ-17)
    DEAD_HAND = "dead-hand"  # out of the round, still pays (MJCG-24)
    NONE = "none"  # the claim is simply refused


class Debt(StrEnum):
    """A payer short of points: pays what they have, or goes below zero."""

    PAY_WHAT_YOU_HAVE = "pay-what-you-have"
    NEGATIVE = "negative"


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of a pre-play phase: each seat chooses `count` tiles, one at a
    time, and hands them to the seat in `to`."""

    to: Direction
    count: int
    blind: int = 0  # how many of the tiles just received may be passed on unseen
    jokers: bool = False  # may a joker be passed
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Vote:
    """A secret, simultaneous vote; its phases run when the rule says yes."""

    question: str
    rule: str  # "any-yes": one yes is enough; "all-yes": one no stops it
    phases: tuple[Phase, ...]
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Courtesy:
    """A negotiated pass with one partner: both offer 0..most tiles, and
    `agree` decides how many change hands."""

    to: Direction
    most: int
    agree: str = "smaller"
    jokers: bool = False
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pledge:
    """Right after the deal each seat may pledge one rack to the card's lines
    flagged `flag` (Siamese's Atomic Cat, SMJ-27). A pledging seat sets
    `count` tiles aside on that rack, one at a time; they stay there (no
    tiles move between racks) until the rack's last tile is drawn or claimed
    and its line declared, or the seat goes off the pledge. Only a pledged
    rack may win those lines. Drawing a tile of a `forced_off` category once
    the seat has a Mah Jongg declared ends the pledge."""

    flag: str
    rack: int  # 0-based
    count: int
    forced_off: tuple[str, ...] = ()
    question: str = ""
    clauses: tuple[str, ...] = ()


Phase = Pass | Vote | Courtesy | Pledge


@dataclass(frozen=True, slots=True)
class ClaimKind:
    """What a discard may be claimed for: Mah Jongg, or a set to expose."""

    name: str
    mahjong: bool = False
    sizes: tuple[int, ...] = ()  # identical sets of these sizes
    runs: bool = False  # sequential sets of three (a run in an ordered suit)
    jokers: bool = True  # may jokers from the hand fill the exposed set
    next_only: bool = False  # only the seat next in turn after the discarder
    clauses: tuple[str, ...] = ()
    mahjongs: int = 1  # Mah Jonggs a mahjong claim completes at once (2: a Double Mah Jongg)


@dataclass(frozen=True, slots=True)
class Claims:
    kinds: tuple[ClaimKind, ...]
    priority: tuple[str, ...]  # kind names, the strongest first
    ties: str = "next-in-turn"  # or "random" (seeded): among claims of equal rank
    jokers: bool = True  # may a discarded joker be claimed (MJCG-20: no)
    exposure_must_fit: bool = True  # guarded mode: an exposure some line can still use
    clauses: tuple[str, ...] = ()

    def kind(self, name: str) -> ClaimKind:
        return next(k for k in self.kinds if k.name == name)

    def rank(self, name: str) -> int:
        return self.priority.index(name)


@dataclass(frozen=True, slots=True)
class Turn:
    direction: int  # +1: play passes to the right (the next seat), -1: to the left
    opening: str = "discard"  # the dealer opens by discarding (no draw)
    exchange_jokers: str = "none"  # "any" exposure, "own" exposures, or "none"
    declare_before_opening: bool = True  # may the dealer win on the dealt hand
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Penalties:
    false_claim: Penalty = Penalty.SKIP_TURN  # a claim the hand cannot make
    false_declare: Penalty = Penalty.DEAD_HAND  # Mah Jongg declared in error
    clauses: tuple[str, ...] = ()
    misfit_exposure: Penalty = Penalty.NONE  # an exposure no line can use (none: not offered)
    all_dead: str = "play-on"  # a seat whose every hand is dead: "play-on" without it, "end-round"
    dead_turn: str = "ends"  # a seat out on its own turn: the turn "ends", or ends with a "discard"


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment of a round's end: each `payer` pays the winner `amount`
    (or, with payer "bank", the points are awarded and nobody pays; with
    `to` "bank", the points are lost and nobody receives them)."""

    # "each-opponent", "discarder", "dealer", "bank", or "dead": a seat whose every hand died
    payer: str
    amount: Formula
    to: str = "winner"  # "winner", "each" (every seat: wall-game awards), or "bank" (a penalty)
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Scoring:
    win: tuple[Payment, ...]  # once, when a seat wins the round
    wall_game: tuple[Payment, ...] = ()  # a round ended with no Mah Jongg declared
    zero_sum: bool = True
    debt: Debt = Debt.NEGATIVE
    clauses: tuple[str, ...] = ()
    mahjong: tuple[Payment, ...] = ()  # for every Mah Jongg declared (several racks)
    dead: tuple[Payment, ...] = ()  # by a seat all of whose hands died


@dataclass(frozen=True, slots=True)
class Payout:
    """How final scores turn into money: "difference" (the lower score pays
    the higher the difference; two players) or "pot" (each seat stakes
    `stake`, a negative score pays its amount into the pot, positive scores
    are paid from it, highest first, and what remains is shared equally)."""

    kind: str
    stake: int = 0
    per_point: float = 1.0  # money for one point
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Walls:
    """The wall as built on the table: `per_seat` walls in front of each
    seat, a die cutting the dealer's first wall, tiles dealt `take` at a
    time. The shuffled tiles are laid out evenly over the walls."""

    per_seat: int
    die: int = 6  # faces of the die that cuts the first wall (0: no cut)
    take: int = 4  # tiles a seat takes at a time in the deal
    height: int = 2  # tiles in a stack: the cut moves die x height tiles
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRules:
    start: int  # points (or tokens) each seat starts with
    end: Formula  # over rounds, players, lowest, highest
    first_dealer: str = "first-seat"  # or "random" (seeded)
    dealer_passes: str = "always"  # or "unless-dealer-wins", "unless-dealer-wins-or-waits"
    dealer_direction: int = 1
    ties: str = "shared"  # equal highest scores share the match win
    clauses: tuple[str, ...] = ()
    payout: Payout | None = None  # money at the match's end
    honba: bool = False  # count rounds since another seat than the dealer won (hand_scoring)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything the runtime needs to play one variant at one player count."""

    variant: str
    title: str
    players: int
    seats: tuple[str, ...]
    deck: Deck
    card: str  # the card's name or path (compiled to a matcher separately)
    deck_source: str  # the deck's name or path, as the variant writes it
    hand_size: int  # tiles in a complete hand
    deal: int  # tiles dealt to each seat
    dealer_extra: int
    racks: int = 1
    wins_needed: int = 1
    walls: Walls | None = None  # None: tiles are drawn from one shuffled pile
    open_hands: bool = False
    phases: tuple[Phase, ...] = ()
    turn: Turn = Turn(1)
    claims: Claims = Claims((), ())
    penalties: Penalties = Penalties()
    scoring: Scoring = Scoring(())
    match: MatchRules | None = None
    flags: tuple[str, ...] = ()  # the played lines' flags: facts flagged_<flag> of a Mah Jongg
    # the flags whose lines the variant plays (win.flags): the matcher holds the card's
    # unflagged lines and the lines all of whose flags are named here
    card_flags: tuple[str, ...] = ()
    words: dict[str, str] = field(default_factory=dict)  # the game's own names
    options: dict[str, object] = field(default_factory=dict)  # resolved, for display
    digest: str = ""  # over the resolved variant, so a log knows its rules
    scored: ScoredWins | None = None  # win.scored: the hand scoring decides and pays every win

    def word(self, name: str) -> str:
        """The variant's name for a thing: NYMJ steals, MJCG calls."""
        return self.words.get(name, name)
