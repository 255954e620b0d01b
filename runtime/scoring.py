"""The end of a round: its facts, and the payments the variant's formulas make.

Every score change is a ScoreEvent (payer, payee, amount, clauses), so a
score can always be traced to the payments that made it, and a zero-sum game
can be checked to be one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .spec import Debt, GameSpec, Payment

BANK = -1  # the payer of awards nobody pays


@dataclass(frozen=True, slots=True)
class Facts:
    """What a winning hand was: the facts its payment formulas read."""

    self_drawn: bool
    jokerless: bool
    value: int
    concealed: bool
    exposures: int
    held: tuple[tuple[str, int], ...] = ()  # (tag fact, tiles so tagged) of the winning hand


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

    def public(self) -> dict[str, Any]:
        return {"round": self.round, "winner": self.winner, "discarder": self.discarder,
                "self_drawn": self.self_drawn, "line": self.line, "dealer": self.dealer,
                "turns": self.turns, "shown": [list(group) for group in self.shown]}


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


def _payers(payment: Payment, end: RoundEnd, players: int) -> list[int]:
    winner = end.winner
    if payment.payer == "bank":
        return [BANK]
    if payment.payer == "discarder":
        return [end.discarder] if end.discarder is not None else []
    if payment.payer == "dealer":
        return [end.dealer] if end.dealer != winner else []
    return [s for s in range(players) if s != winner]


def settle(spec: GameSpec, end: RoundEnd, facts: Facts | None,
           scores: list[int]) -> list[ScoreEvent]:
    """The payments of a round, in order; `scores` (before the round's payments)
    decide what a payer short of points can pay."""
    players = spec.players
    left = list(scores)
    events: list[ScoreEvent] = []

    def pay(payer: int, payee: int, amount: int, payment: Payment) -> None:
        if payer != BANK and spec.scoring.debt is Debt.PAY_WHAT_YOU_HAVE:
            amount = max(0, min(amount, left[payer]))
        if amount == 0:
            return
        if payer != BANK:
            left[payer] -= amount
        left[payee] += amount
        events.append(ScoreEvent(end.round, payer, payee, amount, payment.clauses))

    if end.winner is None:
        for payment in spec.scoring.wall_game:
            for payee in range(players):
                amount = payment.amount({"players": players, "round": end.round,
                                         "receiver_is_dealer": payee == end.dealer})
                pay(BANK, payee, amount, payment)
        return events
    assert facts is not None
    base = {"self_drawn": facts.self_drawn, "jokerless": facts.jokerless, "value": facts.value,
            "concealed": facts.concealed, "exposures": facts.exposures,
            "winner_is_dealer": end.winner == end.dealer, "players": players,
            # the winner's seat counted from the dealer's: 0 the dealer, 1 the next...
            "winner_position": (end.winner - end.dealer) % players,
            "round": end.round, **dict(facts.held)}
    for payment in spec.scoring.win:
        for payer in _payers(payment, end, players):
            amount = payment.amount(base | {"payer_is_dealer": payer == end.dealer,
                                            "payer_is_discarder": payer == end.discarder})
            pay(payer, end.winner, amount, payment)
    return events
