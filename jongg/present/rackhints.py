"""Hints with several racks (Siamese): the plan a greedy player follows,
sharing one pool between the racks, rack by rack; the discard it suggests
and what that keeps; on a pledged rack, how near its line is; and at the
pledge's question, whether to pledge, by the bots' own reckoning.

Everything is read from the seat's observation, the card and the
variant's data, never from the State."""

from __future__ import annotations

from collections import Counter

from jongg.present import words as w
from jongg.present.filling import nearest
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.agents.bots import GreedyAgent, pledge_line
from jongg.runtime.agents.planner import Plan, RackPlanner
from jongg.runtime.game.spec import Pledge
from jongg.runtime.hand import Hand


def rack_hints(seen: Seen) -> tuple[Text, ...]:
    """The plan a greedy player would follow: one line per rack, and the
    tiles each still wants from the shared pool."""
    obs, rules = seen.obs, seen.rules
    phase = obs.phase
    if isinstance(phase, Pledge) and seen.step in ("voting", "passing") and seen.legal:
        return pledge_advice(seen, phase)
    me = obs.me
    lines = rules.lines
    planner = RackPlanner()
    plan = planner.plan(obs, me.concealed())
    planned = dict(plan.lines)
    mahjong = w.mahjong(seen.spec)
    out: list[Text] = []
    for rack in range(seen.spec.racks):
        head = f"rack {rack + 1}: "
        if me.won(rack):
            made = seen.declared_line(seen.seat, rack) or ""
            out.append(words(f"{head}{mahjong} declared {made}".rstrip(), Role.GOOD))
        elif me.rack_dead[rack]:
            out.append(words(f"{head}dead", Role.BAD))
        elif rack == me.pledge and me.aside:
            out.append(words(head + pledge_hint(seen, rack)))
        elif rack in planned:
            card_line = lines[planned[rack]]
            missing = plan.missing.get(rack, ())
            value = w.value(card_line.value)
            if missing:
                out.append(line(f"{head}{card_line.id}: {len(missing)} away ({value}); "
                                "missing: ", tiles(missing, Role.MISSING)))
            else:
                out.append(words(f"{head}{card_line.id}: complete ({value}): declare it "
                                 f"(m {rack + 1} {card_line.id})", Role.GOOD))
        else:
            out.append(words(f"{head}no line planned (enough racks are planned to win)"))
    if not planned:
        out.append(words("no line is within reach of your racks"))
        return tuple(out)
    out.append(words(f"the plan shares your one pool between your racks: {plan.away} "
                     "tiles away in all"))
    racks = me.live_racks()
    if racks:
        chosen = {lines[li].id for _, li in plan.lines}
        others = [n for n in nearest(rules, me.hand(racks[0]), 3 + len(chosen))
                  if n.line.id not in chosen][:3]
        if others:
            out.append(words("also near: " + ", ".join(f"{n.line.id} ({n.away} away)"
                                                       for n in others)))
    out.extend(rack_discard(seen, planner, plan))
    return tuple(out)


def pledge_hint(seen: Seen, rack: int) -> str:
    """A pledged rack plays only its tiles set aside, for its flag's lines:
    how near those are, with the one tile drawn or claimed still to come."""
    rules = seen.rules
    me = seen.obs.me
    found = rules.nearest(Hand(tuple(sorted(me.aside)), ()), rules.allowed_lines(me, rack))
    if not found:
        return "pledged; its tiles set aside make no line it may win (off: go off the pledge)"
    away, li, _ = found[0]
    card_line = rules.lines[li]
    named = f"{card_line.id} ({w.value(card_line.value)})"
    if away <= 1:
        return f"pledged to {named}: waiting for its last tile, drawn or claimed"
    return f"pledged to {named}: {away} away, and only one more tile may join it " \
           "(off: go off the pledge)"


def rack_discard(seen: Seen, planner: RackPlanner, plan: Plan) -> list[Text]:
    """The discard the greedy bot would make now, and what it leaves: a
    tile the plan spares, or the one whose loss leaves the plan nearest."""
    discards = [a for a in seen.legal if a.verb == "discard"]
    if not discards:
        return []
    obs = seen.obs
    tile = GreedyAgent(0, seen.seat).act(obs, discards).tile
    code = seen.deck.code(tile)
    pool = list(obs.me.concealed())
    pool.remove(tile)
    after = planner.plan(obs, tuple(pool), detail=False)
    why = f"no rack's line uses it; the plan stays {after.away} away" \
        if obs.me.counts[tile] > plan.reserved[tile] else \
        f"the plan goes to {after.away} away in all, the least any discard costs"
    return [line(words("suggested discard: ", Role.KEY), tiles([code]), f": {why}")]


def pledge_advice(seen: Seen, phase: Pledge) -> tuple[Text, ...]:
    """Whether to pledge (the bots' own reckoning: a pledge waits for one
    tile, so it pays only when the dealt tiles hold all of a flagged line
    but that one), and at the setting aside, the line's tiles."""
    rules = seen.rules
    best, wanted = pledge_line(seen.obs, phase)
    if best is None:
        found = f"your tiles make no {phase.flag} line"
    else:
        card_line = rules.lines[best[1]]
        found = f"{card_line.id} ({w.value(card_line.value)}) is {best[0]} away in your tiles"
    if seen.step == "passing":
        wanted -= Counter(seen.obs.me.outgoing)
        codes = seen.deck.codes(sorted(wanted.elements()))
        if not codes:
            return (words(f"{found}: set aside any tiles (off takes them back)"),)
        return (words(found), line(words("suggested to set aside: ", Role.KEY), tiles(codes)))
    vote = GreedyAgent(0, seen.seat).act(seen.obs, list(seen.legal))
    if vote.number:
        return (words(found), words("suggested: y: all but its last tile are dealt, and a "
                                    "pledged rack waits for just that one", Role.KEY))
    why = "a pledged rack takes only one more tile, so it could not be completed" \
        if best is not None and best[0] > 1 else "there is nothing to pledge"
    return (words(found), words(f"suggested: n: {why}", Role.KEY))
