"""What winning with a line pays, read off the variant's own payment
formulas: the expert weighs each line by it, not by the printed value alone
(a line no joker may fill is always won jokerless, which a variant may
double; a concealed line may earn a bonus; a self-drawn win may pay more
than a claimed discard).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from jongg.runtime.agents.outlook import CardTable, card_table
from jongg.runtime.card import Line
from jongg.runtime.errors import JonggError
from jongg.runtime.game.rules import Rules
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
    players = spec.players
    base: dict[str, Any] = {
        "self_drawn": self_drawn, "jokerless": jokerless, "value": line.value or 0,
        "concealed": line.concealed, "exposures": 0, "winner_is_dealer": False,
        "winner_position": 1, "players": players, "round": 0, "winning": True, "together": 1,
        "jokers_allowed": line.jokers, "racks": spec.racks, "payer_is_dealer": False,
        **{f"flagged_{f.replace('-', '_')}": f in line.flags for f in spec.flags}}
    total = 0.0
    for payment in (*spec.scoring.win, *spec.scoring.mahjong):
        if payment.to != "winner":
            continue  # to the bank, or to every seat: not what the winner gains
        payers = {"bank": 1, "dealer": 1, "discarder": 0 if self_drawn else 1}.get(
            payment.payer, players - 1)
        for i in range(payers):
            facts = base | {"payer_is_discarder": not self_drawn and (
                payment.payer == "discarder" or i == 0)}
            facts |= {name: 0 for name in payment.amount.facts if name not in facts}
            total += payment.amount(facts)
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
