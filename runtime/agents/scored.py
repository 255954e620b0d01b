"""How a bot plays a scored game (win.scored): the same choices as in any
other, read against the hand scoring. A declaration is made with a discard
when it is what gives the hand waiting a win (no wait scores one without
it); a set is claimed only when the hand after it, and its best discard,
waits on a tile that wins. Nothing here knows a variant: the declarations
and the scoring are the ruleset's."""

from __future__ import annotations

from collections.abc import Callable

from jongg.runtime.game import scored as sc
from jongg.runtime.game.actions import RED, Action
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.view import Observation


def scored_choice(seen: Observation, legal: list[Action],
                  act: Callable[[Observation, list[Action]], Action]) -> Action:
    """The agent's choice `act` among the actions it knows, kept to a scored game's sense."""
    wins = seen.rules.spec.scored
    table = seen.scored
    if wins is None or table is None:
        return act(seen, legal)
    aborts = [a for a in legal if a.verb == "abort"]
    if aborts and _gives_up(seen, wins):
        return aborts[0]
    # a set is weighed only when the hand with it could still win: no agent
    # weighs claims that would leave it without a winning wait; and every
    # agent keeps a red copy (a dora) while it holds a plain one
    plain = [a for a in legal if a.verb not in ("announce", "kong", "abort") and
             not (a.verb == "claim" and a.tiles and not _keeps_a_win(seen, wins, table, a))
             and not (a.verb == "discard" and a.claim == RED)]
    chosen = act(seen, plain)
    if chosen.verb == "discard":
        kong = _kong(seen, wins, table, [a for a in legal if a.verb == "kong"], chosen.tile)
        if kong is not None:
            return kong
        for action in legal:
            if action.verb == "announce" and action.tile == chosen.tile:
                less = list(seen.me.counts)
                less[chosen.tile] -= 1
                if not sc.wins_on(wins, less, seen.me.exposures, table.setting(seen.seat)):
                    return action
    return chosen


def _gives_up(seen: Observation, wins: sc.ScoredWins) -> bool:
    """End the round drawn (`abort`) unless the orphans held are two kinds
    more than it takes: then thirteen orphans is near enough to play for."""
    assert wins.abortive is not None
    held = sum(1 for k in wins.hand.orphans if seen.me.counts[k])
    return held < wins.abortive.orphans + 2


def _kong(seen: Observation, wins: sc.ScoredWins, table: sc.Public, kongs: list[Action],
          discard: int) -> Action | None:
    """The kong to declare instead of the discard chosen, if any: a locked
    hand's (the rules offer it only when its waits stay the same); the
    fourth tile of an exposed pung when that tile is the discard chosen (the
    hand is left the same, with a tile more to come); four held, declared
    concealed, when the hand after it waits on every tile it would wait on
    after the discard."""
    if not kongs:
        return None
    if table.declared[seen.seat]:
        return kongs[0]
    me = seen.me
    for kong in kongs:
        tile = kong.tile
        if any(e.claimed >= 0 and e.tiles == (tile,) * 3 for e in me.exposures):
            if tile == discard:
                return kong
            continue
        counts = list(me.counts)
        counts[discard] -= 1
        before = sc.waits(wins, counts, me.exposures)
        counts[discard] += 1
        counts[tile] -= 4
        after = sc.waits(wins, counts, (*me.exposures, Exposure((tile,) * 4, -1)))
        if before and set(before) <= set(after):
            return kong
    return None


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
