"""A round's end at a web table: the final table frozen, and the next
round held until each person at the table says to go on.

The State deals the next round in the very action that ends one, so the
table keeps every seat's tiles as they were before each action (read from
each seat's own observation, never the State's insides) and, when a round
ends, freezes the table as it stood: every hand shown (they are shown at a
round's end), the winner's in the groups of its line with its jokers
resolved, the payments, the scores, a wall game said as such. The people
seated (bots never wait) each confirm `next`; until all have, no action is
taken and the bots do not play. The match's end is frozen the same way,
with the standings, and nothing to wait for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jongg.present.seen import Seen
from jongg.runtime.game.events import Claimed, Event, EventKind
from jongg.runtime.game.state import State
from jongg.runtime.game.view import OwnSeat

from . import look, protocol, said


@dataclass
class RoundEnd:
    """The table's hold at a round's end: who must still say `next`, and
    the final table as it is shown."""

    people: frozenset[int]  # the seats people play
    before: list[OwnSeat] = field(default_factory=list)  # each seat's tiles before the action
    table: dict[str, Any] = field(default_factory=dict)  # and the table's public head then
    waiting: set[int] = field(default_factory=set)  # people still to say next
    final: dict[str, Any] | None = None  # the frozen table, while held or once the match ended

    @property
    def held(self) -> bool:
        return bool(self.waiting)

    def keep(self, state: State) -> None:
        """Each seat's tiles now, before an action that may end the round
        (a table of bots alone is never held nor shown frozen)."""
        if self.people:
            self.before = [state.observe(s, lazy=True).me for s in range(state.spec.players)]
            public = state.observe(0, lazy=True)
            self.table = {"round": public.round, "dealer": public.dealer, "wall": public.wall,
                          "scores": list(public.scores)}

    def heard(self, state: State, events: Sequence[Event]) -> None:
        """Every event as it is told (a spectator's): at a round's end, the
        table frozen and (the match going on) held."""
        end = next((e for e in reversed(events) if e.kind is EventKind.ROUND_ENDED), None)
        if end is None or not self.before:
            return
        over = any(e.kind is EventKind.MATCH_ENDED for e in events)
        self.final = {**frozen(state, end, self.before, events, over), "table": self.table}
        self.waiting = set() if over else set(self.people)

    def next(self, seat: int) -> bool:
        """A person says to go on; True when that releases the table."""
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self.final = None
            return True
        return False

    def message(self, state: State, seat: int) -> dict[str, Any] | None:
        """The frozen table as `seat` is sent it (its round's result told
        from its own side), with who must still confirm."""
        if self.final is None:
            return None
        seen = Seen.of(state, seat)
        round_ended = [e for e in seen.events if e.kind is EventKind.ROUND_ENDED]
        match_ended = [e for e in seen.events if e.kind is EventKind.MATCH_ENDED]
        words = said.ended(seen, round_ended[-1:], EventKind.ROUND_ENDED) if round_ended \
            else None
        match = said.ended(seen, match_ended, EventKind.MATCH_ENDED) if match_ended else None
        return {"type": "round_over", **self.final, "result": words, "match": match,
                "waiting": sorted(self.waiting), "confirmed": seat not in self.waiting}


def pile(state: State, first: int, end: Event) -> list[list[dict[str, Any]]]:
    """Each seat's discards of the round in order, as its page keeps them
    (table.js): `{"tile"}`, and `"by"` the seat that claimed it. Every
    discard and claim is public."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(state.spec.players)]
    for e in state.events[first:end.number]:  # whole: the table's own record
        if e.kind is EventKind.DISCARDED and e.seat is not None and e.tiles:
            out[e.seat].append({"tile": e.tiles[0]})
        elif e.kind is EventKind.CLAIMED and e.seat is not None:
            taken = out[e.of(Claimed).giver]
            if taken:
                taken[-1]["by"] = e.seat
    return out


def frozen(state: State, end: Event, before: list[OwnSeat], events: Sequence[Event],
           over: bool) -> dict[str, Any]:
    """The final table: each seat's hand and exposures as they stood before
    the action that ended the round, with that action's draw or discard (the
    winner's as its Mah Jongg was shown, in its line's groups), the round's
    discards (those claimed with who took them), its payments and the scores
    after it. A page coming back while the table is held draws the table
    from this alone: the State has dealt the next round."""
    deck = state.spec.deck
    held = [deck.codes(me.concealed()) for me in before]
    for e in events:  # every event whole: the table's own listener is told them all
        if e.number >= end.number or e.seat is None:
            continue
        if e.kind is EventKind.DREW:
            held[e.seat] = sorted([*held[e.seat], *e.tiles], key=lambda c: deck.kind(c).index)
        elif e.kind is EventKind.DISCARDED and e.tiles and e.tiles[0] in held[e.seat]:
            held[e.seat].remove(e.tiles[0])
    told = look.told(protocol.view_rules(state), end)
    first = max((e.number for e in state.events[:end.number]
                 if e.kind is EventKind.DEALT), default=0)
    payments = [e.detail for e in state.events[first:end.number] if e.kind is EventKind.PAID]
    winner = told["winner"]
    hands = []
    for s, me in enumerate(before):
        hand: dict[str, Any] = {"seat": s, "concealed": held[s],
                                "exposures": [deck.codes(e.tiles) for e in me.exposures]}
        if s == winner:
            hand["shown"] = told.get("shown") or []
            if told.get("filled"):
                hand["filled"] = told["filled"]
            if told.get("mahjongs"):
                hand["mahjongs"] = told["mahjongs"]
        hands.append(hand)
    return {"round": told["round"], "winner": winner, "how": told["how"],
            "wall_game": told["how"] == "wall", "line": told.get("line"),
            "hands": hands, "pile": pile(state, first, end), "payments": payments,
            "scores": told["scores"],
            "match_over": over}
