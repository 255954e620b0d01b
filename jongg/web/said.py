"""What a seat's page is told in words, all of it from the presentation
model (jongg/present), the terminal's own: the story of the events it was
just told, what it is asked, each legal action as its button says it, its
hints for the position now, a round's or the match's end. Plain data: each
sentence a list of spans (present/text.py's `as_data`); the page draws them
and makes none of its own."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jongg.present.cardlines import near_lines
from jongg.present.choices import purpose, says
from jongg.present.hints import hints
from jongg.present.narrate import Narrator
from jongg.present.prompts import prompt
from jongg.present.results import match_result, round_result
from jongg.present.seen import Seen
from jongg.present.text import Text, as_data
from jongg.runtime.game.events import Event, EventKind

if TYPE_CHECKING:
    from jongg.runtime.game.state import State

Said = list[list[dict[str, str]]]


def texts(lines: Sequence[Text]) -> Said:
    return [as_data(t) for t in lines]


def story(seen: Seen, told: Sequence[Event]) -> Said:
    """The sentences for these events, as the seat is told them: the
    narrator first learns the phase under way from the events before."""
    narrator = Narrator(seen.rules, seen.seat)
    first = told[0].number if told else len(seen.events)
    narrator.learn(e for e in seen.events if e.number < first)
    return texts(narrator.tell(told))


def asked(seen: Seen) -> dict[str, Any]:
    """What the seat is asked now, and each of its legal actions in words."""
    question = prompt(seen)
    return {"kind": question.kind, "question": question.question,
            "about": texts(question.about), "choose": question.choose}


def actions(seen: Seen) -> list[dict[str, Any]]:
    """Each legal action as its button says it; a claim with the line it
    serves, or a warning that it brings none nearer."""
    deck = seen.deck
    out = []
    for a in seen.legal:
        serves, warn = purpose(seen, a)
        out.append({"action": a.text(deck), "says": as_data(says(seen, a)),
                    **({"for": as_data(serves)} if serves else {}),
                    **({"warn": as_data(warn)} if warn else {})})
    return out


HINTS_KEPT = 4096  # positions whose hints are kept, for every table of a game


def hinted(seen: Seen) -> Said:
    """The hints for the position now (none while the seat waits). They are
    the same at every update until the seat's own view changes (another
    seat's pass in a Charleston, a claim window's answers), and as dear as
    the hands they fill, so they are kept by what they are worked from: the
    seat's view, its legal actions and the lines its racks were declared
    with (what its events add to the view)."""
    if not seen.legal:
        return []
    deck = seen.deck
    key = (json.dumps(seen.data, sort_keys=True, default=str),
           tuple(a.text(deck) for a in seen.legal),
           tuple(seen.declared_line(seen.seat, r) for r in range(seen.spec.racks)
                 if seen.obs.me.won(r)))
    return seen.rules.memo("hints", HINTS_KEPT).get(key, lambda: texts(hints(seen)))


def ended(seen: Seen, told: Sequence[Event], kind: EventKind) -> dict[str, Any] | None:
    """The round's end (or the match's) among these events, in words."""
    end = next((e for e in reversed(told) if e.kind is kind), None)
    if end is None:
        return None
    result = round_result(seen, end) if kind is EventKind.ROUND_ENDED else \
        match_result(seen, end)
    return {"title": result.title, "lines": texts(result.lines)}


ONLOOKER = -1  # the seat an open replay is told from: no seat is "you"


def onlooker(state: State) -> Seen:
    """The table as an onlooker is told it: every event whole, nobody's
    seat its own, nothing to decide."""
    return replace(Seen.of(state, 0), seat=ONLOOKER, events=tuple(state.events_for(None)),
                   legal=())


def told(seen: Seen, events: Sequence[Event]) -> dict[str, Any]:
    """Everything an update says in words."""
    return {"story": story(seen, events), "prompt": asked(seen), "actions": actions(seen),
            "hints": hinted(seen), "near": near_lines(seen) if seen.legal else [],
            "result": ended(seen, events, EventKind.ROUND_ENDED),
            "match": ended(seen, events, EventKind.MATCH_ENDED)}
