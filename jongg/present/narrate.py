"""What happened, told in sentences from one seat's point of view, from the
events that seat was told (never by comparing tables): the deal, each pass
with its direction and the tiles given and received, the vote's question
and result, the courtesy pass's outcome, discards, claims granted and
outranked, joker exchanges, declarations, penalties, pledges. Payments and
a round's end are told by the round's result (results.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from jongg.present import scoredtell
from jongg.present import words as w
from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.errors import counted
from jongg.runtime.game import events as ev
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.phases import partner as partner_of
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.spec import Direction, Pass, Phase, Pledge

Teller = Callable[["Narrator", Event, Sequence[Event]], Text | None]


class Narrator:
    """Tells one seat's events. It remembers the phase under way (a vote's
    result is told with its question)."""

    def __init__(self, rules: Rules, seat: int):
        self.rules = rules
        self.spec = rules.spec
        self.seat = seat
        self.phase: ev.Payload | None = None  # the payload of the phase under way

    def tell(self, events: Sequence[Event]) -> list[Text]:
        """The sentences for events told together (one action's events: a
        claim window's outrankings are told with the claim that won)."""
        out = []
        for event in events:
            teller = TELLERS.get(event.kind)
            said = teller(self, event, events) if teller is not None else None
            if said:
                out.append(said)
        return out

    def learn(self, events: Iterable[Event]) -> None:
        """Catch up on events told before, without telling them: the phase
        under way is the latest one begun."""
        for event in events:
            if event.kind is EventKind.PHASE:
                self.begun(event)

    def begun(self, event: Event) -> None:
        """A phase begins: it is the one under way."""
        self.phase = event.payload

    # -- words --------------------------------------------------------------
    def who(self, seat: int, verb: str) -> str:
        return w.does(self.spec, self.seat, seat, verb)

    def name(self, seat: int) -> str:
        return w.name(self.spec, self.seat, seat)

    def placed(self, seat: int) -> str:
        return w.placed(self.spec, self.seat, seat)

    def whose(self, seat: int) -> str:
        return w.whose(self.spec, self.seat, seat)

    @property
    def mahjong(self) -> str:
        return w.mahjong(self.spec)

    def rack(self, rack: int | None) -> str:
        return f" on rack {rack + 1}" if self.spec.racks > 1 and rack is not None else ""


def _dealt(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    dealt = e.of(ev.Dealt)
    die = f" (die {dealt.die})" if dealt.die else ""
    return words(f"Round {dealt.round + 1}: {n.spec.seats[e.seat]} is "
                 f"{n.spec.word('dealer')}{die}", Role.TITLE)


def _phase(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    n.begun(e)
    return words(phase_text(n.rules, n.seat, e.detail), Role.TITLE)


def phase_text(rules: Rules, me: int, d: dict[str, Any]) -> str:
    """A phase before play, in words: what every seat does now."""
    spec = rules.spec
    kind = d["phase"]
    if kind == "pass":
        to = partner(rules, me, d["to"])
        blind = f"; up to {d['blind']} of the tiles coming in may go on blind" \
            if d.get("blind") else ""
        return f"Charleston: pass {d['count']} tiles {d['to']}, to {spec.seats[to]}{blind}"
    if kind == "courtesy":
        to = partner(rules, me, d["to"])
        return (f"Courtesy pass with {spec.seats[to]} ({d['to']}): each offers 0 to "
                f"{d['most']} tiles; the smaller offer changes hands")
    if kind == "vote":
        return f"Vote: {d['question']}? ({vote_rule(d['rule'])})"
    return f"{pledge_question(d)}?"


def vote_rule(rule: str, clauses: tuple[str, ...] = ()) -> str:
    """The rule that decides a vote, in words (the clause it is, when known):
    some tables carry it on one yes, others stop it on one no."""
    said = "one yes is enough: a single yes carries it, whatever the others say" \
        if rule == "any-yes" else "every seat must say yes: a single no stops it"
    return f"{said} ({', '.join(clauses)})" if clauses else said


def vote_plays(phases: tuple[Phase, ...]) -> str:
    """What a vote that carries plays, from its phases: 'pass 3 tiles left,
    then 3 across, then 3 right'."""
    passes = [f"{p.count} {p.to}" for p in phases if isinstance(p, Pass)]
    if not passes or len(passes) != len(phases):
        return f"{counted(len(phases), 'more phase')} before play"
    return "pass " + passes[0].replace(" ", " tiles ", 1) + \
        "".join(f", then {x}" for x in passes[1:])


def pledge_question(d: dict[str, Any]) -> str:
    """The pledge's question as the variant words it (its rack and flag said
    when it gives none)."""
    return d["question"] or f"pledge rack {d['rack'] + 1} to the {d['flag']} line"


def pledge_cost(rules: Rules, phase: Pledge) -> str:
    """What a pledge costs, from the variant's data: the tiles set aside and
    where, the lines it plays for and their worth, how it ends."""
    flagged = [x for x in rules.lines if phase.flag in x.flags]
    lines = ", ".join(f"{x.id}, {w.value(x.value)}" for x in flagged) or "no line"
    rack = phase.rack + 1
    off = f"; once you have a {w.mahjong(rules.spec)} declared, drawing a " \
        f"{' or a '.join(phase.forced_off)} puts you off it" if phase.forced_off else ""
    return (f"a pledge sets {phase.count} of your tiles aside on rack {rack} for the "
            f"{phase.flag} line ({lines}): they stay there, and rack {rack} plays nothing "
            "else, until the one tile that completes it is drawn or claimed; off (on your "
            f"turn) takes them back{off}")


def partner(rules: Rules, me: int, to: str) -> int:
    """The seat a pass in direction `to` (as an event names it) goes to from `me`."""
    return partner_of(rules, me, Direction(to))


def _passed(n: Narrator, e: Event, _: Sequence[Event]) -> Text | None:
    if e.seat != n.seat or not e.tiles:
        return None
    to = e.of(ev.Passed).to
    return line("You pass ", tiles(e.tiles), f" to {n.placed(to)}")


def _received(n: Narrator, e: Event, _: Sequence[Event]) -> Text | None:
    if e.seat != n.seat:
        return None
    giver = e.of(ev.Received).giver
    if not e.tiles:
        return words(f"Nothing comes to you from {n.placed(giver)}")
    return line("You receive ", tiles(e.tiles, Role.GOOD), f" from {n.placed(giver)}")


def _voted(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    d = e.of(ev.Voted)
    question = n.phase.question if isinstance(n.phase, ev.VoteBegun) else "the vote"
    result = "carried" if d.carried else "not carried"
    return words(f"Vote: {question}? {d.yes} yes, {d.no} no: {result}", Role.TITLE)


def _offered(n: Narrator, e: Event, batch: Sequence[Event]) -> Text | None:
    if e.seat != n.seat:
        return None
    d = e.of(ev.Offered)
    if d.blind is not None:  # how many of a pass go on unseen
        if not d.blind:
            return words(f"You pass all {d.passes} from your hand (none blind)")
        return words(f"You pass {d.blind} on blind, unseen, and {d.passes} from your hand")
    to = partner(n.rules, n.seat, n.phase.to if isinstance(n.phase, ev.CourtesyBegun)
                 else "across")
    other = nearest(batch, e, lambda x: x.kind is EventKind.OFFERED and x.seat == to)
    theirs = None if other is None else other.of(ev.Offered).offered
    agreed = d.passes
    outcome = "no tiles change hands" if not agreed else f"{agreed} change hands each way"
    return words(f"Courtesy pass: you offer {d.offered}, {n.spec.seats[to]} offers "
                 f"{theirs}: {outcome}")


def nearest(batch: Sequence[Event], e: Event, wanted: Callable[[Event], bool]
            ) -> Event | None:
    """The event of the batch nearest to `e` that is `wanted`: the one of
    the same action's events even when several actions are told at once (a
    browser coming back is told the round so far)."""
    found = [x for x in batch if wanted(x)]
    return min(found, key=lambda x: abs(x.number - e.number)) if found else None


def _pledged(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    pledged = e.of(ev.Pledged)
    return words(f"{n.who(e.seat, 'pledge')} rack {pledged.rack + 1} to the "
                 f"{pledged.flag} line")


def _play(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    return words(f"Play begins: {n.name(e.seat)} {'open' if e.seat == n.seat else 'opens'}")


def _drew(n: Narrator, e: Event, _: Sequence[Event]) -> Text | None:
    if e.seat != n.seat or not e.tiles:
        return None
    return line("You draw ", tiles(e.tiles))


def _discarded(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    return line(n.who(e.seat, "discard") + " ", tiles(e.tiles))


def _claimed(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    d = e.of(ev.Claimed)
    verb = n.spec.word("claim")
    giver = d.giver
    taken = line(n.who(e.seat, verb) + f" {n.whose(giver)} ", tiles(e.tiles[:1]))
    if d.mahjong:
        kind = n.spec.claims.kind(d.claim)
        what = f"{kind.mahjongs} {n.mahjong}s at once" if kind.mahjongs > 1 else n.mahjong
        return line(taken, f" for {what}")
    expose = "expose" if e.seat == n.seat else "exposes"
    shown = sorted(e.tiles, key=lambda c: n.spec.deck.kind(c).index)
    return line(taken, f" and {expose} [", tiles(shown), "]", n.rack(d.rack))


def _outranked(n: Narrator, e: Event, batch: Sequence[Event]) -> Text:
    assert e.seat is not None
    lost = e.of(ev.Outranked)
    by = lost.by
    winner = nearest(batch, e, lambda x: x.kind is EventKind.CLAIMED)
    won = "" if winner is None else winner.of(ev.Claimed).claim
    mine = "Your" if e.seat == n.seat else f"{n.spec.seats[e.seat]}'s"
    return words(f"{mine} {lost.claim} claim loses to {n.whose(by)} {won} claim "
                 "(it ranks higher, or sits nearer in turn)", Role.WARN)


def _exchanged(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    owner = e.of(ev.Exchanged).owner
    own = "own" if owner == e.seat else n.whose(owner)
    if own == "own":
        own = "your own" if e.seat == n.seat else "their own"
    return line(n.who(e.seat, "give") + " ", tiles(e.tiles),
                f" for the joker in {own} exposure")


def _declared(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    d = e.of(ev.Declared)
    head = n.who(e.seat, "declare") + f" {n.mahjong}"
    if n.spec.racks > 1:
        return line(words(f"{head} on rack {d.rack + 1}: {d.line} "
                          f"({w.value(d.value)}) ", Role.GOOD),
                    "[", tiles(e.tiles), "]")
    return words(f"{head}: {d.line}", Role.GOOD)


PENALTIES = {"dead-hand": "hand is dead for this round", "skip-turn": "next turn is skipped"}


def _penalised(n: Narrator, e: Event, _: Sequence[Event]) -> Text | None:
    assert e.seat is not None
    penalised = e.of(ev.Penalised)
    what = PENALTIES.get(penalised.penalty)
    if what is None:
        return None
    whose = n.whose(e.seat)
    whose = whose[0].upper() + whose[1:]
    rack = penalised.rack
    if rack is not None and what.startswith("hand"):
        what = f"rack {rack + 1} is dead for this round"
    return words(f"{whose} {what} (a mistake, strict mode)", Role.BAD)


def _went_off(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    off = e.of(ev.WentOff)
    why = ": the tile drawn ends it" if off.forced else ""
    return words(f"{n.who(e.seat, 'go')} off the pledge on rack {off.rack + 1}{why}")


TELLERS: dict[EventKind, Teller] = {
    EventKind.DEALT: _dealt, EventKind.PHASE: _phase, EventKind.PASSED: _passed,
    EventKind.RECEIVED: _received, EventKind.VOTED: _voted, EventKind.OFFERED: _offered,
    EventKind.PLEDGED: _pledged, EventKind.PLAY: _play, EventKind.DREW: _drew,
    EventKind.DISCARDED: _discarded, EventKind.CLAIMED: _claimed,
    EventKind.OUTRANKED: _outranked, EventKind.EXCHANGED: _exchanged,
    EventKind.DECLARED: _declared, EventKind.PENALISED: _penalised,
    EventKind.WENT_OFF: _went_off, **scoredtell.TELLERS,
}
