"""A seat's turn: what it may declare, exchange and discard.

Functions over the table's read-only view; the State applies what is chosen.
"""

from __future__ import annotations

from jongg.runtime.game.actions import Action
from jongg.runtime.game.racks import rack_lines
from jongg.runtime.game.rules import TableView


def turn_actions(view: TableView, seat: int) -> list[Action]:
    rules = view._rules
    me = view._seats[seat]
    actions: list[Action] = []
    may_declare = not view._opening or rules.spec.turn.declare_before_opening
    near = view._turn_away is None or view._turn_away <= 1
    if me.dead:  # out of the round, ending the turn with a discard (SMJ-19)
        return rules.each_held("discard", me.counts)
    if rules.spec.racks > 1:
        declares = rack_declares(view, seat, may_declare, near)
        if view._promised:  # a Mah Jongg claimed must be declared first
            kept = [a for a in declares if a.number in view._promised and a.claim]
            if kept:
                return kept
        actions.extend(declares)
        if me.pledged is not None:  # go off the pledge: its tiles rejoin the pool
            actions.append(rules.action("off"))
    elif may_declare and (rules.strict or (near and rules.completes(me.hand()))):
        actions.append(rules.action("declare"))
    actions.extend(exchanges(view, seat))
    actions.extend(rules.each_held("discard", me.counts))
    return actions


def rack_declares(view: TableView, seat: int, may_declare: bool, near: bool) -> list[Action]:
    """One declaration per live rack and line its tiles complete; in strict
    mode also a bare one on a rack that completes nothing (a mistake)."""
    if not may_declare:
        return []
    rules = view._rules
    me = view._seats[seat]
    pool, last = me.concealed(), view._last_tile(seat)
    close = view._near_racks(seat) if near else None
    found: list[Action] = []
    for rack in me.live_racks():
        lines = rack_lines(rules, me, rack, pool, last) \
            if near and (close is None or rack in close) else []
        found.extend(rules.action("declare", number=rack, claim=rules.lines[li].id)
                     for li, _ in lines)
        if not lines and rules.strict:
            found.append(rules.action("declare", number=rack))
    return found


def exchanges(view: TableView, seat: int) -> list[Action]:
    """A natural from hand for an exposed joker, as the variant allows
    (its own exposures, or anyone's); never from a declared Mah Jongg or a
    rack's killing exposure, whose jokers stay (SMJ-13, SMJ-21)."""
    rules = view._rules
    rule = rules.spec.turn.exchange_jokers
    joker = rules.joker
    if rule == "none" or joker is None:
        return []
    counts = view._seats[seat].counts
    found = []
    owners = [seat] if rule == "own" else range(rules.spec.players)
    for owner in owners:
        for i, exposure in enumerate(view._seats[owner].exposures):
            if exposure.mahjong or exposure.killed or joker not in exposure.tiles:
                continue
            natural = next((t for t in exposure.tiles if t != joker), None)
            if natural is not None and counts[natural]:
                found.append(rules.action("exchange", natural, target=(owner, i)))
    return found
