"""The card as data for a table's page: each line as `jongg card render`
prints it (its section, value, C or X, the hand in its suits' colours, the
note; the notation kept for a tooltip), and a seat's nearest lines with the
tiles they still miss (several racks: the plan that shares one pool)."""

from __future__ import annotations

from typing import Any

from jongg.present.cardview import printed_hand
from jongg.present.filling import nearest
from jongg.present.printed import SUIT_COLOURS
from jongg.present.seen import Seen
from jongg.present.text import as_data
from jongg.runtime.agents.planner import RackPlanner
from jongg.runtime.card import Card

NEAREST = 3  # lines shown as nearest, with one rack


def card_lines(card: Card, year: int | None = None) -> dict[str, Any]:
    """The card by line, printed; `colours`: each suit letter's colour."""
    lines = []
    for x in card.lines:
        hand, note = printed_hand(x, year)
        lines.append({"id": x.id, "section": x.section, "value": x.value,
                      "concealed": x.concealed, "mark": "C" if x.concealed else "X",
                      "hand": as_data(hand), "note": note, "notation": x.pattern})
    return {"name": card.name, "title": card.title, "colours": dict(SUIT_COLOURS),
            "lines": lines}


def near_lines(seen: Seen) -> list[dict[str, Any]]:
    """The seat's nearest lines, each with the tiles it misses: with one
    rack the nearest few; with several, the line planned for each rack."""
    me = seen.obs.me
    if seen.spec.racks == 1:
        return [{"rack": 0, "line": n.line.id, "away": n.away, "missing": list(n.missing)}
                for n in nearest(seen.rules, seen.obs.hand(), NEAREST)]
    plan = RackPlanner().plan(seen.obs, me.concealed(), detail=True)
    lines = seen.rules.lines
    return [{"rack": rack, "line": lines[li].id, "away": len(plan.missing.get(rack, ())),
             "missing": list(plan.missing.get(rack, ()))} for rack, li in plan.lines]
