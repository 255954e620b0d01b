"""The State's Mah Jonggs, mistakes and the ends of rounds: declarations
(on one rack or the whole hand), penalties, payments, and the round's and
the match's end. Payments come from runtime/game/scoring.py."""

from __future__ import annotations

import dataclasses
from typing import Any

from jongg.runtime.game import events as ev
from jongg.runtime.game import racks
from jongg.runtime.game.actions import Action
from jongg.runtime.game.facts import fact_name
from jongg.runtime.game.scoring import (
    BANK,
    Facts,
    Mahjong,
    RoundEnd,
    ScoreEvent,
    dead_facts,
    match_facts,
    settle,
    settle_dead,
)
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.several import SeveralWins, won
from jongg.runtime.game.spec import Penalty
from jongg.runtime.game.table import Step


class Endings(SeveralWins):
    """The State's part that declares, penalises, pays and ends rounds."""

    def _penalise(self, seat: int, penalty: Penalty, rack: int | None = None) -> None:
        """Apply a mistake's penalty. A dead hand with several racks is the
        rack the mistake was made on (every live rack when none is named)."""
        me = self._seats[seat]
        self._tell(ev.Penalised(str(penalty), rack if self.spec.racks > 1 else None), seat)
        if penalty is Penalty.SKIP_TURN:
            me.skips += 1
        elif penalty is Penalty.DEAD_HAND:
            for r in (me.live_racks() if rack is None else [rack]):
                me.rack_dead[r] = True
            self._changed(seat)
            if me.live_racks():
                return
            me.dead = True  # no hand left to play: out of the round
            if all(me.rack_dead):  # every hand dead (SMJ-20)
                self._all_dead(seat)

    def _all_dead(self, seat: int) -> None:
        lines = self._rules.lines
        exposed = [m.value for m in self._mahjongs if m.seat != seat]
        facts = dead_facts(self.spec, self.round, max(exposed, default=0),
                           min((line.value or 0 for line in lines), default=0))
        self._pay(settle_dead(self.spec, self.round, seat, facts, self.scores))
        if self.spec.penalties.all_dead == "end-round":
            self._ended = "dead"

    def _declare(self, seat: int, action: Action) -> None:
        if self.spec.racks > 1:
            self._declare_rack(seat, action)
            return
        if (self._wins_drawn(seat) if self.spec.scored is not None
                else self._rules.completes(self._seats[seat].hand())):
            # self-drawn unless the turn began with a claim (the dealt hand counts as drawn)
            self._end_round(seat, None, not self._claimed_turn)
            return
        self._penalise(seat, self.spec.penalties.false_declare)
        self._after_death(seat)  # out of the round: play goes on without them

    def _declare_rack(self, seat: int, action: Action) -> None:
        """A Mah Jongg declared on one rack: its line's tiles leave the pool and
        are exposed with the rack's exposures; the seat plays on with the rest
        (SMJ-12) unless it now holds the Mah Jonggs it needs (SMJ-17)."""
        me = self._seats[seat]
        rack = action.number
        lines = self._rules.lines
        pool, last = me.concealed(), self._last_tile(seat)
        found = [(li, v) for li, v in racks.rack_lines(self._rules, me, rack, pool, last)
                 if lines[li].id == action.claim]
        if not found:  # SMJ-19: a wrong Mah Jongg kills that rack's hand
            self._penalise(seat, self.spec.penalties.false_declare, rack)
            self._after_death(seat)
            return
        li, variation = found[0]
        used = racks.filling(self._rules, me, rack, pool, last, li, variation)
        for t in racks.taken(self._rules, me, rack, pool, last, li, variation):
            me.counts[t] -= 1
        if rack == me.pledge:  # the pledge is kept: its tiles set aside are exposed too
            me.aside, me.pledged = [], None
        before = [e for e in me.exposures if e.rack == rack]
        me.exposures = [Exposure(e.tiles, e.claimed, e.rack, mahjong=True)
                        if e.rack == rack else e for e in me.exposures]
        me.exposures.append(Exposure(tuple(sorted(used)), -1, rack, mahjong=True))
        tiles = [*used, *(t for e in before for t in e.tiles)]
        mahjong = self._mahjong(seat, rack, lines[li], tiles, not before)
        self._declared.append(mahjong)
        self._tell(ev.Declared(rack, mahjong.line, mahjong.value), seat, tuple(sorted(tiles)))
        self._promised = [r for r in self._promised if r != rack]
        self._changed(seat)
        self._turn_away = None
        if me.mahjongs >= self.spec.wins_needed:
            self._end_round(seat, self._claimed_from, not self._claimed_turn)
        elif not me.live_racks():  # nothing left to play for
            me.dead = True
            self._after_death(seat)
        elif not any(me.counts):  # every tile declared: the turn ends without a discard
            self._turn_over(seat)

    def _after_death(self, seat: int) -> None:
        """On its own turn a seat has lost its last hand: the turn ends at
        once, or (penalties.dead_turn: discard, SMJ-19) with a discard while
        it holds tiles. A round ended by dead hands ends now."""
        me = self._seats[seat]
        if self._ended or (me.dead and (self.spec.penalties.dead_turn == "ends"
                                       or not any(me.counts))):
            self._turn_over(seat)

    def _mahjong(self, seat: int, rack: int, line: Any, tiles: list[int], concealed: bool
                 ) -> Mahjong:
        """A declared Mah Jongg and the facts its payments read."""
        deck = self.spec.deck
        held = tuple((fact_name("held_", tag),
                      sum(1 for t in tiles if tag in deck.kinds[t].tags)) for tag in deck.tags)
        facts = Facts(self_drawn=not self._claimed_turn, jokerless=self._joker not in tiles,
                      value=line.value or 0, concealed=concealed,
                      exposures=sum(1 for e in self._seats[seat].exposures
                                    if e.rack == rack and e.claimed >= 0),
                      held=held, jokers_allowed=line.jokers, flags=line.flags)
        return Mahjong(seat, rack, line.id, facts, tuple(deck.codes(sorted(tiles))))

    def _turn_over(self, seat: int) -> None:
        """The seat's turn ends without a discard: its Mah Jonggs are scored,
        and play goes on (or the round ends when a seat's dead hands end it)."""
        self._score_declared(winning=False)
        if self._ended:
            self._end_round(None, None, False)
        else:
            self._next_turn(seat)

    def _score_declared(self, winning: bool) -> None:
        """Pay this turn's Mah Jonggs (a winning turn's are all winning: SMJ-23, SMJ-24)."""
        together = len(self._declared)
        for mahjong in self._declared:
            self._pay(settle(self.spec, self._round_end(mahjong.seat, self._claimed_from),
                             mahjong.facts, self.scores, winning=winning, together=together,
                             payments=self.spec.scoring.mahjong))
        self._mahjongs.extend(self._declared)
        self._declared = []

    def _pay(self, payments: list[ScoreEvent]) -> None:
        for p in payments:
            if p.payer != BANK:
                self.scores[p.payer] -= p.amount
            if p.payee != BANK:
                self.scores[p.payee] += p.amount
            self._tell(ev.Paid(p.payer, p.payee, p.amount, list(p.clauses)))
        self.payments.extend(payments)

    # -- the end of a round, and of the match ----------------------------------

    def _end_round(self, winner: int | None, discarder: int | None, self_drawn: bool) -> None:
        """The round ends: won (its Mah Jonggs scored, then the win's payments),
        a wall game (no Mah Jongg declared: the wall-game payments), or ended
        by a seat's dead hands."""
        spec = self.spec
        assert spec.match is not None
        facts = None
        shown: tuple[tuple[str, ...], ...] = ()
        self._scored_result(winner, self_drawn)
        if winner is not None and spec.racks == 1:  # the whole hand is the Mah Jongg
            me = self._seats[winner]
            match = self._matcher.is_complete(self._card_hand(winner),
                                              open_hands=spec.open_hands)
            assert match is not None
            tiles = [*me.concealed(), *(t for e in me.exposures for t in e.tiles)]
            mahjong = self._mahjong(winner, 0, match.line, tiles, not me.exposures)
            self._declared.append(mahjong)
            self._tell(ev.Declared(0, mahjong.line, mahjong.value), winner, tuple(sorted(tiles)))
            shown = tuple(tuple(spec.deck.codes(e.tiles)) for e in me.exposures) + \
                (tuple(spec.deck.codes(me.concealed())),)
            me.exposures = [*me.exposures, Exposure(me.concealed(), -1, mahjong=True)]
            me.counts = [0] * len(me.counts)
        together = len(self._declared)
        self._score_declared(winning=winner is not None)
        line = None
        if winner is not None:
            last = self._mahjongs[-1]
            facts, line = last.facts, last.line
            if spec.racks > 1:  # every Mah Jongg the winner declared
                shown = tuple(m.tiles for m in self._mahjongs if m.seat == winner)
        end = self._round_end(winner, discarder, self_drawn, line, shown)
        if winner is not None:
            paid = settle(spec, end, facts, self.scores, together=together)
            self._pay(paid)
            scored = self._scored_payments(winner, discarder)
            self._pay(scored)
            others = self._pay_others(discarder)  # several wins on one discard (several.py)
            if others:  # the round names every winner, each with what it was paid
                end = dataclasses.replace(
                    end, winners=(won(winner, line, shown, [*paid, *scored]), *others))
        elif not self._mahjongs and self._ended is None:
            self._pay(settle(spec, end, None, self.scores))
        self.results.append(end)
        self._tell(ev.RoundEnded(**{**end.public(), "how": end.how}, scores=list(self.scores)),
                   winner)
        self.round += 1
        if not self._scored_next(winner, end.waiting):
            self.dealer = (self.dealer + spec.match.dealer_direction) % spec.players
        over = spec.match.end(match_facts(spec, self.round, self.scores, self._passes))
        if over:
            self.step = Step.OVER
            self._open_discard = None
            self._tell(ev.MatchEnded(list(self.scores), self.winners(), self.payouts()))
            return
        self._deal()

    def _round_end(self, winner: int | None, discarder: int | None, self_drawn: bool = False,
                   line: str | None = None, shown: tuple[tuple[str, ...], ...] = ()
                   ) -> RoundEnd:
        return RoundEnd(self.round, winner, discarder, self_drawn, line, self.dealer,
                        self._turns, shown, tuple(m.public() for m in self._mahjongs),
                        self._ended or ("won" if winner is not None else "wall"),
                        self._waiting_seats() if winner is None else (),
                        self._clean_seats() if winner is None else ())

