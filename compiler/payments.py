"""The checks of a variant's payments and match end: each formula compiled
against the facts its moment may read (runtime/game/facts.py), and bounded
over the ranges the facts table gives for this variant's sizes."""

from __future__ import annotations

import math

from jongg.runtime.card import Card
from jongg.runtime.game import facts as fact_table
from jongg.runtime.game.facts import Moment, Sizes
from jongg.runtime.game.formula import Formula
from jongg.runtime.game.scoring import DEAD_FACTS, MATCH_FACTS, WALL_FACTS
from jongg.runtime.game.spec import Debt, MatchRules, Payment, Payout, Scoring

from .bounds import Bound, bound
from .checking import Checking, _clauses
from .errors import excerpt
from .source import PathKey

MAX_ROUNDS = 1000  # a match must be able to end within as many rounds
MAX_AMOUNT = 10**9  # the most points one payment may pay


class PaymentChecks(Checking):
    """scoring.* and match.*, checked and compiled."""

    def scoring(self, card: Card | None) -> Scoring:
        s = self.data["scoring"]

        # the deck's tags, and a line's card flags: Royale's star and quint lines (SMJ-31)
        hand_facts = tuple(f.name for f in fact_table.declared(Moment.WIN, *self.keys(card)))

        def payments(key: str, facts: tuple[str, ...]) -> tuple[Payment, ...]:
            out = []
            for i, item in enumerate(s.get(key, [])):
                amount = self.formula(("scoring", key, i, "amount"), facts)
                where = ("scoring", key, i)
                if s["zero_sum"] and "bank" in (item["payer"], item["to"]):
                    self.problem((*where, "payer" if item["payer"] == "bank" else "to"),
                                 "a zero-sum game cannot award points from the bank or pay "
                                 "them to it", hint="set scoring.zero_sum: false")
                if (item["payer"] == "dead") != (key == "dead"):
                    self.problem((*where, "payer"), "scoring.dead is paid by the seat whose "
                                 "hands died (payer: dead), and only it",
                                 hint="payer: dead goes in scoring.dead")
                if amount is not None:
                    self.amount_bounds(("scoring", key, i, "amount"), amount,
                                       self.fact_bounds(facts, card))
                    out.append(Payment(item["payer"], amount, item["to"],
                                       _clauses(item.get("clause"))))
            return tuple(out)

        return Scoring(payments("win", hand_facts), payments("wall_game", WALL_FACTS),
                       s["zero_sum"], Debt(s["debt"]), _clauses(s.get("clause")),
                       payments("mahjong", hand_facts), payments("dead", DEAD_FACTS))

    def keys(self, card: Card | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The tags and flags the held_ and flagged_ families are declared for."""
        deck = self.deck_value
        return (deck.tags if deck else (), self.flags(card) if card else ())

    def fact_bounds(self, facts: tuple[str, ...], card: Card | None = None
                    ) -> dict[str, Bound]:
        """The range of each fact a formula may read, as the facts table
        declares it for this variant's sizes (an undeclared name is an error)."""
        racks = self.data["seats"]["racks"]
        sizes = Sizes(self.players, racks, (self.data.get("deal", {}).get("each") or 0) + 1 +
                      14 * racks, self.values, MAX_ROUNDS)
        return {f: fact_table.fact(f, *self.keys(card)).range(sizes) for f in facts}

    def amount_bounds(self, path: PathKey, amount: Formula, facts: dict[str, Bound]) -> None:
        """A payment is paid from `payer` to `to`: a negative amount would pay
        the other way, and an amount past MAX_AMOUNT cannot be summed exactly."""
        low, high = bound(amount.tree, facts)
        if high < 0:
            self.problem(path, f"the payment {excerpt(amount.text)} is always negative: it "
                         "would pay the other way", hint="write a positive amount and swap "
                         "payer and to", text=True)
        elif low < 0:
            self.problem(path, f"the payment {excerpt(amount.text)} can be negative, which "
                         "would pay the other way", hint="if it cannot, ignore this; "
                         "max(0, ...) makes sure", warning=True, text=True)
        if max(-low, high) > MAX_AMOUNT:
            most = "has no bound" if max(-low, high) == math.inf else \
                f"can reach {max(-low, high):.3g}"
            self.problem(path, f"the payment {excerpt(amount.text)} {most}: a payment is at "
                         f"most {MAX_AMOUNT:,} points", hint="use smaller numbers, or fewer "
                         "factors", text=True)

    def match_ends(self, end: Formula) -> None:
        """The match must be able to end: its end must hold after some round,
        for some scores, within MAX_ROUNDS rounds."""
        facts = self.fact_bounds(MATCH_FACTS)
        for rounds in range(1, MAX_ROUNDS + 1):
            facts["rounds"] = (rounds, rounds)
            if bound(end.tree, facts) != (0, 0):
                return
        self.problem(("match", "end"), f"match.end {excerpt(end.text)} never holds in the first "
                     f"{MAX_ROUNDS:,} rounds, whatever the scores: the match would not end",
                     hint="e.g. 'rounds >= players'", text=True)

    def match(self) -> MatchRules | None:
        m = self.data["match"]
        if "end" not in m:
            self.problem(("match", "end"), "the match has no end", hint="add match.end, e.g. "
                         "'rounds >= players'")
            return None
        end = self.formula(("match", "end"), MATCH_FACTS)
        if end is None:
            return None
        self.match_ends(end)
        payout = None
        if "payout" in m:
            p = m["payout"]
            if p["kind"] == "difference" and self.players != 2:
                self.problem(("match", "payout", "kind"), f"a difference payout needs two "
                             f"players, not {self.players}", hint="use kind: pot")
            payout = Payout(p["kind"], p["stake"], p["per_point"], _clauses(p.get("clause")))
        return MatchRules(m["start"], end, m["first_dealer"], m["dealer_passes"],
                          1 if m["dealer_direction"] == "right" else -1, m["ties"],
                          _clauses(m.get("clause")), payout, m.get("honba", False))

