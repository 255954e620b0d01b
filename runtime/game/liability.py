"""Liability (pao) in a scored game (`liability`, runtime/game/scored.py):
who is liable for a win, read off the claim that gave the winner its
exposed set, and how the win's payments move onto that seat. Functions of
the rules and the table's facts; the State keeps who is liable."""

from __future__ import annotations

from collections.abc import Sequence

from jongg.runtime.game.scored import Exposed, ScoredWins
from jongg.runtime.game.scoring import BANK, ScoreEvent
from jongg.runtime.tiles import Deck


def made_liable(wins: ScoredWins, deck: Deck, exposures: Sequence[Exposed]) -> list[str]:
    """The yaku a claim that just made the last of these exposures makes
    its discarder liable for: it is a pung or kong of a liability's
    category, and the seat's `sets`-th of them."""
    def category(e: Exposed) -> str:  # a pung's or kong's category ("" any other set)
        same = len(e.tiles) >= 3 and len(set(e.tiles)) == 1
        return deck.kinds[e.tiles[0]].category.value if same else ""

    last = category(exposures[-1])
    held = [category(e) for e in exposures]
    return [rule.yaku for rule in wins.liabilities
            if last == rule.category and held.count(rule.category) == rule.sets]


def liable_payments(events: list[ScoreEvent], winner: int, liable: int,
                    discarder: int | None) -> list[ScoreEvent]:
    """A win's payments with the liable seat paying: the whole of a
    self-drawn win, half of one on a third seat's discard (the discarder
    the rest); the deposits on the table stay the table's."""
    table = [e for e in events if e.payer == BANK]
    owed = sum(e.amount for e in events if e.payer != BANK)
    if not owed or liable in (discarder, winner):
        return events
    round_ = events[0].round
    if discarder is None:
        return [ScoreEvent(round_, liable, winner, owed), *table]
    half = owed // 200 * 100  # the discarder pays the odd hundred
    return [ScoreEvent(round_, discarder, winner, owed - half),
            ScoreEvent(round_, liable, winner, half), *table]
