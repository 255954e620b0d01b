"""What winning with a line pays, read off the variant's own payment
formulas: the expert weighs each line by it, not by the printed value alone
(a line no joker may fill is always won jokerless, which a variant may
double; a concealed line may earn a bonus; a self-drawn win may pay more
than a claimed discard).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from jongg.runtime.agents.outlook import CardTable, card_table
from jongg.runtime.card import Line
from jongg.runtime.errors import JonggError
from jongg.runtime.game import facts
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.scoring import Facts, RoundEnd, win_facts
from jongg.runtime.game.spec import GameSpec

SELF_DRAWN = 0.4  # the share of wins taken with a drawn tile rather than a discard

_PRICED: dict[tuple[int, int], tuple[Rules, CardTable]] = {}


@dataclass(frozen=True)
class Pays:
    """What the winner gains with a line: on a tile drawn, on a discard claimed."""

    drawn: float
    claimed: float

    def mixed(self, drawn_share: float) -> float:
        """The gain when this share of the wins are self-drawn."""
        return drawn_share * self.drawn + (1 - drawn_share) * self.claimed


def win_pays(spec: GameSpec, line: Line, jokerless: bool) -> Pays:
    """What the winner gains with this line, self-drawn and on a discard
    (1 each when the formulas give nothing to tell lines apart)."""
    pays = Pays(_gain(spec, line, jokerless, True), _gain(spec, line, jokerless, False))
    return pays if pays.mixed(SELF_DRAWN) > 0 else Pays(1.0, 1.0)


def line_pays(spec: GameSpec, line: Line, jokerless: bool) -> float:
    """What the winner gains with this line, between a won discard and a
    self-drawn tile (1 when the formulas give nothing to tell lines apart)."""
    return win_pays(spec, line, jokerless).mixed(SELF_DRAWN)


def _gain(spec: GameSpec, line: Line, jokerless: bool, self_drawn: bool) -> float:
    """What the winner gains with this line: a win by the seat after the
    dealer's in the first round, with no exposure and no tagged tile,
    self-drawn or on a discard, read through the same facts as a real win."""
    players = spec.players
    hand = Facts(self_drawn, jokerless, line.value or 0, line.concealed, 0,
                 held=tuple((facts.fact_name("held_", t), 0) for t in spec.deck.tags),
                 jokers_allowed=line.jokers, flags=line.flags)
    end = RoundEnd(0, 1, None if self_drawn else 2, self_drawn, line.id, 0, 0)
    total = 0.0
    for payment in (*spec.scoring.win, *spec.scoring.mahjong):
        if payment.to != "winner":
            continue  # to the bank, or to every seat: not what the winner gains
        payers = {"bank": 1, "dealer": 1, "discarder": 0 if self_drawn else 1}.get(
            payment.payer, players - 1)
        for i in range(payers):  # the discarder pays first; no payer is the dealer
            total += payment.amount(win_facts(spec, end, hand, payer_is_discarder=not self_drawn
                                              and (payment.payer == "discarder" or i == 0)))
    return total


def priced_table(rules: Rules) -> CardTable:
    """The card's table with each variation weighed by what winning with it
    pays in this variant (jokerless when the variation has no joker slot)."""
    key = (id(rules.judge.card), id(rules.spec))
    known = _PRICED.get(key)
    if known is None or known[0].spec is not rules.spec:
        table = card_table(rules.judge.card)
        lines = rules.lines
        spec = rules.spec
        prices = {(li, free): line_pays(spec, lines[li], free)
                  for li in set(table.line.tolist()) for free in (False, True)}
        jokerless = table.wild.sum(axis=1) == 0
        value = np.array([prices[li, bool(free)] for li, free in
                          zip(table.line.tolist(), jokerless.tolist(), strict=True)])
        bare = np.array([prices[li, True] for li in table.line.tolist()])
        paid = [line_pays(spec, line, not line.jokers) for line in lines]
        known = _PRICED[key] = (rules, replace(table, value=value, bare=bare,
                                               scale=sum(paid) / max(len(paid), 1)))
    return known[1]


class CommittedLine(JonggError, ValueError):
    """A committed line (`line=`) the card does not have, or cannot be played."""


def committed_line(rules: Rules, line_id: str) -> int:
    """The index of the card's line an agent is committed to."""
    ids = [line.id for line in rules.lines]
    if line_id not in ids:
        near = [i for i in ids if i.startswith(line_id.split("-")[0])][:6] or ids[:6]
        raise CommittedLine(f"line={line_id}: the card {rules.judge.card.name!r} has no such "
                            f"line; its lines include {', '.join(near)}")
    return ids.index(line_id)
