"""A round's end as a seat is told it: who won, with which line and how,
the winning hand in its groups with each joker resolved (what the matcher
explains), every Mah Jongg declared (several racks), the payments and the
scores; and the match's end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jongg.present import words as w
from jongg.present.filling import filled, groups_spans
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.game import events as ev
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.scoring import BANK
from jongg.runtime.hand import Hand


@dataclass(frozen=True, slots=True)
class Result:
    title: str  # "round 1 over", "the match is over"
    lines: tuple[Text, ...]


def round_result(seen: Seen, end: Event) -> Result:
    """The round that `end` (a ROUND_ENDED event) closed, from the events of
    that round."""
    spec = seen.spec
    d = end.of(ev.RoundEnded)
    start = max((i for i, e in enumerate(seen.events[:end.number + 1])
                 if e.kind is EventKind.DEALT and e.number <= end.number), default=0)
    events = [e for e in seen.events[start:end.number + 1]]
    me = seen.seat
    winner = d.winner
    how = "self-drawn" if d.self_drawn else \
        f"on {w.whose(spec, me, d.discarder)} discard{_of(events, d.discarder)}" \
        if d.discarder is not None else "by a claim"
    out: list[Text] = []
    declared = [e for e in events if e.kind is EventKind.DECLARED]
    if spec.racks > 1:
        out += _racks(seen, winner, d.how, how, declared)
    elif winner is None:
        out.append(words("the wall is empty: nobody wins this round"))
    elif d.winners:  # several wins on one discard: each, nearest first, with its payments
        for won in d.winners:
            value = w.value(_value(seen, won["line"]))
            out.append(words(f"{w.does(spec, me, won['seat'], 'win')} with {won['line']} "
                             f"({value}), {how}", Role.GOOD))
            out.append(line("hand: ", winning_hand(seen, won["shown"], won["line"])))
            out += [line("  ", words(payment(seen, _paid(p)))) for p in won["paid"]]
    else:
        assert d.line is not None  # a won round names its line
        value = w.value(_value(seen, d.line))
        out.append(words(f"{w.does(spec, me, winner, 'win')} with {d.line} ({value}), "
                         f"{how}", Role.GOOD))
        out.append(line("hand: ", winning_hand(seen, d.shown, d.line)))
    told = [_paid(p) for won in d.winners or [] for p in won["paid"]]
    for e in events:  # every payment not told with its winner above
        if e.kind is EventKind.PAID:
            paid = e.of(ev.Paid)
            if paid in told:
                told.remove(paid)
            else:
                out.append(line("  ", words(payment(seen, paid))))
    listed = "  ".join(f"{spec.seats[s]} {v}" for s, v in enumerate(d.scores))
    out.append(words(f"{spec.word('points')}: {listed}"))
    return Result(f"round {d.round + 1} over", tuple(out))


def _paid(p: dict[str, Any]) -> ev.Paid:
    """A payment as a round's end records it (ScoreEvent.public)."""
    return ev.Paid(p["payer"], p["payee"], p["amount"], list(p["clauses"]))


def _of(events: Sequence[Event], discarder: int) -> str:
    """' of 5B': the tile the winning claim took, the discarder's last discard."""
    tile = next((e.tiles[0] for e in reversed(events)
                 if e.kind is EventKind.DISCARDED and e.seat == discarder and e.tiles), None)
    return f" of {tile}" if tile else ""


def _value(seen: Seen, line_id: str | None) -> int | None:
    line_ = next((x for x in seen.rules.lines if x.id == line_id), None)
    return line_.value if line_ is not None else None


def winning_hand(seen: Seen, shown: Sequence[Sequence[str]], line_id: str) -> Text:
    """The hand shown (exposures, then the rest) in the line's groups, each
    joker with the tile it stands for."""
    deck = seen.deck
    *exposed, rest = [[deck.kind(c).index for c in group] for group in shown] or [[]]
    hand = Hand(tuple(sorted(rest)), tuple(tuple(e) for e in exposed))
    near = filled(seen.rules, hand, line_id)
    joker = deck.code(deck.joker_index) if deck.joker_index is not None else "J"
    if near is None or near.away:  # not this line after all: the tiles as shown
        return tiles([c for group in shown for c in group])
    return groups_spans(near.groups, joker)


def _racks(seen: Seen, winner: int | None, ended: str, how: str, declared: list[Event]
           ) -> list[Text]:
    spec = seen.spec
    me = seen.seat
    mahjong = w.mahjong(spec)
    out: list[Text] = []
    if winner is not None:
        mine = sum(1 for e in declared if e.seat == winner)
        out.append(words(f"{w.does(spec, me, winner, 'win')} the round with {mine} "
                         f"{mahjong}s, the last {how}", Role.GOOD))
    elif ended == "dead":
        out.append(words("the round ends on dead hands: nobody wins it"))
    else:
        out.append(words("the wall is empty: nobody wins this round"))
    if not declared:
        out.append(words(f"no {mahjong} was declared"))
        return out
    out.append(words(f"{mahjong}s declared:"))
    for e in declared:
        assert e.seat is not None
        d = e.of(ev.Declared)
        hand = winning_hand(seen, [list(e.tiles)], d.line)
        out.append(line(f"  {spec.seats[e.seat]}, rack {d.rack + 1}: {d.line} "
                        f"({w.value(d.value)}): ", hand))
    return out


def payment(seen: Seen, d: ev.Paid) -> str:
    """One score change: an award nobody pays, a penalty nobody receives,
    or one seat paying another."""
    seats = seen.spec.seats
    payer, payee, amount = d.payer, d.payee, d.amount
    if payer == BANK:
        return f"{amount:+d} to {seats[payee]}"
    if payee == BANK:
        return f"{seats[payer]} loses {amount}"
    return f"{seats[payer]} pays {seats[payee]} {amount}"


def match_result(seen: Seen, end: Event) -> Result:
    spec = seen.spec
    d = end.of(ev.MatchEnded)
    listed = "  ".join(f"{spec.seats[s]} {v}" for s, v in enumerate(d.scores))
    out = [words(f"final {spec.word('points')}: {listed}")]
    if d.payouts is not None:
        out.append(words("payouts: " + "  ".join(f"{spec.seats[s]} {v:+g}"
                                                 for s, v in enumerate(d.payouts))))
    winners = ", ".join("you" if s == seen.seat else spec.seats[s] for s in d.winners or [])
    out.append(words(f"winner: {winners}", Role.GOOD))
    return Result("the match is over", tuple(out))
