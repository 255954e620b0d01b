"""How a bot plays a scored game (win.scored): the same choices as in any
other, read against the hand scoring. A declaration is made with a discard
when it is what gives the hand waiting a win (no wait scores one without
it); a set is claimed only when the hand after it, and its best discard,
waits on a tile that wins. Nothing here knows a variant: the declarations
and the scoring are the ruleset's."""

from __future__ import annotations

from collections.abc import Callable

from jongg.runtime.game import scored as sc
from jongg.runtime.game.actions import Action
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.view import Observation


def scored_choice(seen: Observation, legal: list[Action],
                  act: Callable[[Observation, list[Action]], Action]) -> Action:
    """The agent's choice `act` among the actions it knows, kept to a scored game's sense."""
    wins = seen.rules.spec.scored
    table = seen.scored
    if wins is None or table is None:
        return act(seen, legal)
    plain = [a for a in legal if a.verb != "announce"]
    chosen = act(seen, plain)
    if chosen.verb == "claim" and chosen.tiles and not _keeps_a_win(seen, wins, table, chosen):
        return next(a for a in legal if a.verb == "pass")
    if chosen.verb == "discard":
        for action in legal:
            if action.verb == "announce" and action.tile == chosen.tile:
                less = list(seen.me.counts)
                less[chosen.tile] -= 1
                if not sc.wins_on(wins, less, seen.me.exposures, table.setting(seen.seat)):
                    return action
    return chosen


def _keeps_a_win(seen: Observation, wins: sc.ScoredWins, table: sc.Public,
                 claim: Action) -> bool:
    """Whether the hand with this set exposed, after some discard, waits on a winning tile."""
    assert seen.discard is not None
    tile = seen.discard[1]
    counts = list(seen.me.counts)
    for t in claim.tiles:
        counts[t] -= 1
    exposures = (*seen.me.exposures, Exposure(tuple(sorted((tile, *claim.tiles))), tile))
    setting = table.setting(seen.seat)
    for discard, n in enumerate(counts):
        if not n:
            continue
        counts[discard] -= 1
        found = sc.wins_on(wins, counts, exposures, setting)
        counts[discard] += 1
        if found:
            return True
    return False
