"""The end of a round: its facts, and the payments the variant's formulas make.

Every score change is a ScoreEvent (payer, payee, amount, clauses), so a
score can always be traced to the payments that made it, and a zero-sum game
can be checked to be one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jongg.runtime.game import facts
from jongg.runtime.game.facts import Dead, MatchEnd, Moment, Wall, Win
from jongg.runtime.game.spec import Debt, GameSpec, Payment

BANK = -1  # the payer of awards nobody pays, the payee of penalties nobody receives

# The facts each kind of formula may read (runtime/game/facts.py declares them)
WIN_FACTS = facts.names(Moment.WIN)  # scoring.win and scoring.mahjong
WALL_FACTS = facts.names(Moment.WALL)
DEAD_FACTS = facts.names(Moment.DEAD)
MATCH_FACTS = facts.names(Moment.MATCH)


@dataclass(frozen=True, slots=True)
class Facts:
    """What a winning hand was: the facts its payment formulas read."""

    self_drawn: bool
    jokerless: bool
    value: int
    concealed: bool
    exposures: int
    held: tuple[tuple[str, int], ...] = ()  # (tag fact, tiles so tagged) of the winning hand
    jokers_allowed: bool = True  # the line admits jokers (not a singles-and-pairs line)
    flags: tuple[str, ...] = ()  # the line's flags on the card (Royale's star, quint)


@dataclass(frozen=True, slots=True)
class Mahjong:
    """A Mah Jongg declared on one rack (the whole hand with one rack)."""

    seat: int
    rack: int
    line: str
    facts: Facts
    tiles: tuple[str, ...]  # the hand shown

    @property
    def value(self) -> int:
        return self.facts.value

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "rack": self.rack, "line": self.line,
                "tiles": list(self.tiles)}


@dataclass(frozen=True, slots=True)
class RoundEnd:
    round: int
    winner: int | None  # None: a wall game
    discarder: int | None  # whose discard was claimed for the win
    self_drawn: bool
    line: str | None
    dealer: int
    turns: int
    shown: tuple[tuple[str, ...], ...] = ()  # the winning hand shown: exposures, then the rest
    mahjongs: tuple[dict[str, Any], ...] = ()  # every Mah Jongg declared, in order
    how: str = "wall"  # "won", "wall" (the wall ran out), "dead" (a seat's dead hands)
    waiting: tuple[int, ...] = ()  # a scored game's wall game: the seats one tile from a win
    clean: tuple[int, ...] = ()  # and the seats that let go of orphans alone, none claimed
    # several seats winning on one discard: each, nearest first, with its line,
    # its hand shown and what it was paid (one winner: none, the round says it)
    winners: tuple[dict[str, Any], ...] = ()

    def public(self) -> dict[str, Any]:
        view: dict[str, Any] = {
            "round": self.round, "winner": self.winner, "discarder": self.discarder,
            "self_drawn": self.self_drawn, "line": self.line, "dealer": self.dealer,
            "turns": self.turns, "shown": [list(group) for group in self.shown]}
        if self.how == "dead" or len(self.mahjongs) > 1 or \
                any(m["seat"] != self.winner for m in self.mahjongs):
            view |= {"how": self.how, "mahjongs": list(self.mahjongs)}  # several racks
        if self.winners:
            view["winners"] = list(self.winners)
        return view


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    round: int
    payer: int  # BANK for an award
    payee: int
    amount: int
    clauses: tuple[str, ...] = ()

    def public(self) -> dict[str, Any]:
        return {"round": self.round, "payer": self.payer, "payee": self.payee,
                "amount": self.amount, "clauses": list(self.clauses)}


def _payees(payment: Payment, end: RoundEnd, players: int) -> list[int]:
    if payment.to == "bank":
        return [BANK]
    if payment.to == "each":
        return list(range(players))
    return [end.winner] if end.winner is not None else []


def _payers(payment: Payment, end: RoundEnd, players: int) -> list[int]:
    winner = end.winner
    if payment.payer == "bank":
        return [BANK]
    if payment.payer == "discarder":
        return [end.discarder] if end.discarder is not None else []
    if payment.payer == "dealer":
        return [end.dealer] if end.dealer != winner else []
    return [s for s in range(players) if s != winner]


def settle(spec: GameSpec, end: RoundEnd, hand: Facts | None, scores: list[int], *,
           winning: bool = True, together: int = 1,
           payments: tuple[Payment, ...] | None = None) -> list[ScoreEvent]:
    """The payments of a round's end, or of one Mah Jongg (`payments`
    scoring.mahjong), in order; `scores` (before these payments) decide what
    a payer short of points can pay. `winning`: the Mah Jongg is of the turn
    that won the round; `together`: how many the seat declared that turn."""
    players = spec.players
    pay = _Purse(spec, end, scores)
    if end.winner is None:
        waiting = end.waiting
        for payment in spec.scoring.wall_game:  # awards to every seat
            for payee in range(players):
                payers = [BANK] if payment.payer != "each-opponent" else \
                    [s for s in range(players) if s != payee]
                for payer in payers:  # each other seat pays it (tenpai payments)
                    amount = payment.amount(facts.read(Moment.WALL, Wall(
                        spec, end.round, payee == end.dealer, payee in waiting,
                        payer in waiting, len(waiting), payer == end.dealer,
                        payee in end.clean, len(end.clean))))
                    pay(payer, payee, amount, payment)
        return pay.events
    assert hand is not None
    for payment in spec.scoring.win if payments is None else payments:
        for payer in _payers(payment, end, players):
            amount = payment.amount(win_facts(spec, end, hand, winning, together,
                                              payer == end.dealer, payer == end.discarder))
            for payee in _payees(payment, end, players):
                pay(payer, payee, amount, payment)
    return pay.events


def win_facts(spec: GameSpec, end: RoundEnd, hand: Facts, winning: bool = True,
              together: int = 1, payer_is_dealer: bool = False,
              payer_is_discarder: bool = False) -> dict[str, Any]:
    """A winning hand's facts (WIN_FACTS, held_<tag>, flagged_<flag>) for one payer."""
    assert end.winner is not None
    return facts.read(Moment.WIN, Win(spec, end, hand, winning, together, payer_is_dealer,
                                      payer_is_discarder), spec.deck.tags, spec.flags)


def match_facts(spec: GameSpec, rounds: int, scores: list[int], passes: int = 0
                ) -> dict[str, Any]:
    """What match.end reads (MATCH_FACTS)."""
    return facts.read(Moment.MATCH, MatchEnd(spec, rounds, tuple(scores), passes))


def dead_facts(spec: GameSpec, round_: int, exposed_value: int, lowest_value: int
               ) -> dict[str, Any]:
    """What scoring.dead reads (DEAD_FACTS): the best Mah Jongg exposed by
    another seat, and the card's lowest value."""
    return facts.read(Moment.DEAD, Dead(spec, round_, exposed_value, lowest_value))


def settle_dead(spec: GameSpec, round_: int, seat: int, known: dict[str, Any],
                scores: list[int]) -> list[ScoreEvent]:
    """The payments of a seat all of whose hands died (SMJ-20)."""
    end = RoundEnd(round_, None, None, False, None, 0, 0)
    pay = _Purse(spec, end, scores)
    for payment in spec.scoring.dead:
        amount = payment.amount(known)
        for payee in _payees(payment, end, spec.players):
            pay(seat, payee, amount, payment)
    return pay.events


class _Purse:
    """Pays, as the variant's debt rule allows, and keeps the events."""

    def __init__(self, spec: GameSpec, end: RoundEnd, scores: list[int]):
        self.spec, self.end = spec, end
        self.left = list(scores)
        self.events: list[ScoreEvent] = []

    def __call__(self, payer: int, payee: int, amount: int, payment: Payment) -> None:
        if payer != BANK and self.spec.scoring.debt is Debt.PAY_WHAT_YOU_HAVE:
            amount = max(0, min(amount, self.left[payer]))
        if amount == 0:
            return
        if payer != BANK:
            self.left[payer] -= amount
        if payee != BANK:
            self.left[payee] += amount
        self.events.append(ScoreEvent(self.end.round, payer, payee, amount, payment.clauses))
