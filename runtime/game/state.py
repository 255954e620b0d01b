"""The game state machine: one match of a compiled variant.

In the OpenSpiel manner: `current_players()` are the seats deciding now
(several at once in a claim window, a pass or a vote), `legal_actions(seat)`
what each may do, `apply(seat, action)` moves the game on. The State is the
only thing that changes: the rules are functions over its read-only view
(turn.py, claims.py, racks.py, phases.py) that return decisions, which it
applies, telling each change as an Event. Chance (the first dealer, each
round's shuffle, the die, random ties) is asked of its Chance, never drawn
here, so a match is fully determined by its chance and its actions.

Nothing here knows a variant by name: the GameSpec says what differs.
"""

from __future__ import annotations

import copy
import hashlib
import json
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game import claims, phases, racks, turn
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.chance import Chance, SeededChance, deal
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.payout import settle_match
from jongg.runtime.game.rules import Judge, Mode, Rules
from jongg.runtime.game.scoring import (
    BANK,
    Facts,
    Mahjong,
    RoundEnd,
    ScoreEvent,
    settle,
    settle_dead,
)
from jongg.runtime.game.seat import Exposure, Seat
from jongg.runtime.game.spec import Courtesy, GameSpec, Pass, Penalty, Phase, Pledge, Vote

if TYPE_CHECKING:
    from jongg.runtime.game.view import Observation

__all__ = ["IllegalAction", "Judge", "Mode", "State", "Step"]


class Step(StrEnum):
    PASSING = "passing"  # a Charleston pass: tiles chosen one at a time
    OFFERING = "offering"  # how many tiles: a courtesy offer, or a blind pass
    VOTING = "voting"  # a secret vote on optional phases
    TURN = "turn"  # one seat: declare, exchange jokers, discard
    CLAIMS = "claims"  # a claim window on the latest discard
    OVER = "over"  # the match has ended


class IllegalAction(JonggError, ValueError):
    """An action the rules do not allow now; the message lists those they do."""


class State:
    """One match in progress."""

    def __init__(self, spec: GameSpec, matcher: Judge, seed: int,
                 mode: Mode = Mode.GUARDED, chance: Chance | None = None):
        assert spec.match is not None
        self.spec = spec
        self.matcher = matcher
        self.rules = Rules(spec, matcher, mode)
        self.seed = seed
        self.mode = mode
        self.chance: Chance = chance if chance is not None else SeededChance(seed)
        self.joker = spec.deck.joker_index
        players = spec.players
        # the match
        self.scores = [spec.match.start] * players
        self.payments: list[ScoreEvent] = []  # every score change, in order
        self.events: list[Event] = []  # everything that happened, in order
        self.results: list[RoundEnd] = []
        self.history: list[tuple[int, Action]] = []  # (seat, action), for the log
        self.round = 0
        self.decisions = 0
        self.dealer = self.chance.first_dealer(players) \
            if spec.match.first_dealer == "random" else 0
        # the round (dealt anew by _deal)
        self.step = Step.TURN
        self.turn = self.dealer
        self.wall: list[int] = []
        self.wall_owner: list[int] = []  # whose wall each tile left in the wall lies in
        self.die = 0
        self.seats: list[Seat] = []
        self.turns = 0  # discards this round
        self.discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self.asked: list[int] = []  # the seats a claim window asks
        self.answers: dict[int, Action] = {}
        self.drawn: int | None = None  # the tile the seat to play just drew
        self.claimed_turn = False  # the turn began with a claimed discard, not a draw
        self.claimed_from: int | None = None  # whose discard began this turn
        # the tile a pledged rack may take as its last: the one drawn or claimed
        # this turn; and whose it is
        self.incoming: tuple[int, int] | None = None
        self.ended: str | None = None  # "dead": a seat's dead hands ended the round
        self.promised: list[int] = []  # racks a Mah Jongg claim must now be declared on
        self.declared: list[Mahjong] = []  # Mah Jonggs of this turn, scored when it ends
        self.mahjongs: list[Mahjong] = []  # every Mah Jongg of the round
        self.opening = True
        self.phase: Phase | None = None
        self.phase_queue: list[Phase] = []
        self.pass_count = [0] * players  # tiles each seat chooses in this pass
        self.blind = [0] * players  # tiles each seat forwards unseen in this pass
        self.votes: dict[int, int] = {}
        self.offers: dict[int, int] = {}
        self.turn_away: int | None = None  # the drawer's tiles away, before the draw
        # answers kept until the tiles they read change
        self._away: list[int | None] = [None] * players  # each seat's resting tiles away
        self._claim_options: dict[int, list[Action]] = {}  # of this claim window
        self._claimable: dict[tuple[int, int, int], list[int]] = {}  # of this claim window
        self._legal: tuple[int, int, list[Action]] = (-1, -1, [])
        self._deal()

    # -- telling -------------------------------------------------------------

    def _tell(self, kind: EventKind, seat: int | None = None, tiles: tuple[int, ...] = (),
              seen_by: frozenset[int] | None = None, /, **detail: Any) -> None:
        self.events.append(Event(kind, seat, tuple(self.spec.deck.codes(tiles)), detail,
                                 seen_by, len(self.events)))

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """The events from number `since` on, as `seat` may see them (None:
        everything, as a spectator of an open game)."""
        return [e.for_seat(seat) for e in self.events[since:]]

    # -- the round's course -------------------------------------------------

    def _deal(self) -> None:
        """The chance step of a round: the tiles shuffled, dealt, play opened."""
        spec = self.spec
        shuffled = self.chance.shuffle(self.round, spec.deck.wall())
        walls = spec.walls
        self.die = self.chance.die(self.round, walls.die) if walls is not None and walls.die \
            else 0
        dealt = deal(spec, shuffled, self.dealer, self.die)
        self.wall, self.wall_owner = dealt.wall, dealt.owners
        kinds = len(spec.deck.kinds)
        self.seats = [Seat([0] * kinds, rack_dead=[False] * spec.racks)
                      for _ in range(spec.players)]
        for seat, hand in zip(self.seats, dealt.hands, strict=True):
            for t in hand:
                seat.counts[t] += 1
        self.turns = 0
        self.discard = None
        self.answers, self.asked = {}, []
        self._claim_options, self._claimable = {}, {}
        self._away = [None] * spec.players
        self.turn_away = None
        self.drawn = None
        self.claimed_turn, self.claimed_from = False, None
        self.incoming = None
        self.ended = None
        self.promised, self.declared, self.mahjongs = [], [], []
        self.opening = True
        self.phase_queue = list(spec.phases)
        self.blind = [0] * spec.players
        self.votes, self.offers = {}, {}
        self._tell(EventKind.DEALT, self.dealer, round=self.round, die=self.die,
                   wall=len(self.wall))
        self._next_phase()

    def _next_phase(self) -> None:
        """Start the next pre-play phase, or play."""
        while self.phase_queue:
            phase = self.phase_queue.pop(0)
            self.phase = phase
            self._tell(EventKind.PHASE, **_describe(phase))
            if isinstance(phase, Vote | Pledge):
                self.step, self.votes = Step.VOTING, {}
                return
            self.blind = [0] * self.spec.players
            if isinstance(phase, Courtesy) or phase.blind:
                self.step, self.offers = Step.OFFERING, {}
                return
            self.pass_count = [phase.count] * self.spec.players
            self.step = Step.PASSING
            return
        self.phase = None
        self.turn = self.dealer
        self.turn_away = None
        self.step = Step.TURN
        self._tell(EventKind.PLAY, self.dealer)
        if self.spec.turn.opening == "draw":
            self._draw(self.dealer)

    def _draw(self, seat: int) -> None:
        self.claimed_turn = False
        self.claimed_from = None
        self.promised = []
        self.turn_away = self.resting_away(seat)
        tile = self.wall.pop()
        if self.wall_owner:
            self.wall_owner.pop()
        self.incoming = (seat, tile)
        me = self.seats[seat]
        self._tell(EventKind.DREW, seat, (tile,), frozenset({seat}), wall=len(self.wall))
        pledged = me.pledged
        if pledged is not None and me.mahjongs and \
                self.spec.deck.kinds[tile].category in pledged.forced_off:
            self._go_off(seat, forced=True)  # SMJ-27: with a Mah Jongg out, this draw ends it
        me.counts[tile] += 1
        self.drawn = tile
        self.turn = seat
        self.step = Step.TURN

    # -- who decides, and what may they do ----------------------------------

    def is_terminal(self) -> bool:
        return self.step is Step.OVER

    def current_players(self) -> list[int]:
        step = self.step
        if step is Step.TURN:
            return [self.turn]
        if step is Step.CLAIMS:
            return [s for s in self.asked if s not in self.answers]
        if step is Step.PASSING:
            return [s for s in range(self.spec.players)
                    if len(self.seats[s].outgoing) < self.pass_count[s]]
        if step is Step.VOTING:
            return [s for s in range(self.spec.players) if s not in self.votes]
        if step is Step.OFFERING:
            return [s for s in range(self.spec.players) if s not in self.offers]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        cached = self._legal
        if cached[0] == self.decisions and cached[1] == seat:
            return cached[2]
        actions = self._legal_actions(seat)
        self._legal = (self.decisions, seat, actions)
        return actions

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_players():
            return []
        step = self.step
        if step is Step.TURN:
            return turn.turn_actions(self, seat)
        if step is Step.CLAIMS:
            return self._claim_actions(seat)
        assert self.phase is not None
        if step is Step.PASSING:
            return phases.pass_actions(self.rules, self.phase, self.seats[seat])
        if step is Step.VOTING:
            return [Action("vote", number=1), Action("vote", number=0)]
        return phases.count_actions(self.phase)

    def _claim_actions(self, seat: int) -> list[Action]:
        known = self._claim_options.get(seat)
        if known is None:
            known = self._claim_options[seat] = claims.claim_actions(self, seat)
        return known

    # -- kept answers (the view's memo: they change nothing) -----------------

    def last_tile(self, seat: int) -> int | None:
        """The tile the seat drew or claimed this turn (a pledged rack's last)."""
        return self.incoming[1] if self.incoming and self.incoming[0] == seat else None

    def resting_away(self, seat: int) -> int:
        """Tiles away of the seat's nearest live rack, kept until its tiles change."""
        known = self._away[seat]
        if known is None:
            me = self.seats[seat]
            known = self._away[seat] = racks.resting_away(
                self.rules, me, me.concealed(), self.last_tile(seat), len(self.wall) + 99)
        return known

    def claimable_racks(self, seat: int, tile: int, mahjongs: int) -> list[int]:
        """The racks a Mah Jongg claim on the discard completes (racks.py),
        kept for the claim window: nothing changes while its answers are gathered."""
        key = (seat, tile, mahjongs)
        known = self._claimable.get(key)
        if known is None:
            known = self._claimable[key] = racks.claimable_racks(
                self.rules, self.seats[seat], self.seats[seat].concealed(), tile, mahjongs)
        return known

    def allowed_lines(self, seat: int, rack: int) -> frozenset[int] | None:
        return self.rules.allowed_lines(self.seats[seat], rack)

    def wins_with(self, seat: int, tile: int, kind: Any) -> bool:
        """Whether a Mah Jongg claim of this kind on the discard would be true."""
        return claims.kind_wins(self, seat, tile, kind)

    def declaration_takes(self, seat: int, rack: int, line_id: str) -> list[int]:
        """The pool tiles declaring this rack with this line would take."""
        me = self.seats[seat]
        return racks.declaration_takes(self.rules, me, rack, me.concealed(),
                                       self.last_tile(seat), line_id)

    def forget(self) -> None:
        """Drop every kept answer (after the position was set from outside)."""
        self._away = [None] * self.spec.players
        self._claim_options, self._claimable = {}, {}
        self._legal = (-1, -1, [])

    def _changed(self, seat: int) -> None:
        """The seat's tiles changed: its kept tiles away no longer hold."""
        self._away[seat] = None

    # -- moving on ----------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        """Apply a seat's action (or its text form); IllegalAction, and the
        state unchanged, if the rules do not allow it now."""
        if isinstance(action, str):
            try:
                action = parse_action(self.spec.deck, action)
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        legal = self.legal_actions(seat)
        if action not in legal:
            self._refuse(seat, action, legal)
        self.history.append((seat, action))
        self.decisions += 1
        verb = action.verb
        if self.step is Step.TURN:
            if verb == "declare":
                self._declare(seat, action)
            elif verb == "exchange":
                self._exchange(seat, action)
            elif verb == "off":
                self._go_off(seat)
            else:
                self._discard(seat, action.tile)
        elif self.step is Step.CLAIMS:
            self.answers[seat] = action
            if not self.current_players():
                self._resolve_claims()
        elif self.step is Step.PASSING:
            me = self.seats[seat]
            me.counts[action.tile] -= 1
            me.outgoing.append(action.tile)
            if not self.current_players():
                self._hand_over()
        elif self.step is Step.VOTING:
            self.votes[seat] = action.number
            if not self.current_players():
                self._votes_counted()
        elif self.step is Step.OFFERING:
            self.offers[seat] = action.number
            if not self.current_players():
                self._counts_agreed()

    def _refuse(self, seat: int, action: Action, legal: list[Action]) -> None:
        deck = self.spec.deck
        text = action.text(deck) if action.tile < len(deck.kinds) else action.verb
        if not legal:
            whose = ", ".join(self.spec.seats[s] for s in self.current_players()) or "nobody"
            raise IllegalAction(f"{self.spec.seats[seat]} cannot act now: {text!r} refused "
                                f"(waiting for {whose})")
        options = ", ".join(a.text(deck) for a in legal)
        raise IllegalAction(f"{text!r} is not legal for {self.spec.seats[seat]} now; "
                            f"legal: {options}")

    # -- before play ------------------------------------------------------------

    def _votes_counted(self) -> None:
        """Every seat has answered: a pledge's pledgers set tiles aside; a
        vote that says yes queues its phases."""
        phase = self.phase
        if isinstance(phase, Pledge):
            self._pledges_made(phase)
            return
        assert isinstance(phase, Vote)
        yes = phases.carried(phase, self.votes)
        self._tell(EventKind.VOTED, yes=sum(self.votes.values()),
                   no=len(self.votes) - sum(self.votes.values()), carried=yes)
        if yes:
            self.phase_queue[:0] = list(phase.phases)
        self._next_phase()

    def _pledges_made(self, phase: Pledge) -> None:
        """Every seat has said whether it pledges: the pledging seats choose
        the tiles they set aside, one at a time."""
        for seat, yes in sorted(self.votes.items()):
            if yes:
                self.seats[seat].pledged = phase
                self._tell(EventKind.PLEDGED, seat, rack=phase.rack, flag=phase.flag)
        self.pass_count = [phase.count if self.votes[s] else 0 for s in range(self.spec.players)]
        self.step = Step.PASSING
        if not self.current_players():
            self._next_phase()

    def _counts_agreed(self) -> None:
        """Every seat has said how many: the tiles each now chooses from hand."""
        assert self.phase is not None
        self.pass_count, self.blind = phases.agreed_counts(self.rules, self.phase, self.offers)
        courtesy = isinstance(self.phase, Courtesy)
        for seat in range(self.spec.players):
            self._tell(EventKind.OFFERED, seat, offered=self.offers[seat],
                       passes=self.pass_count[seat],
                       **({} if courtesy else {"blind": self.blind[seat]}))
        self.step = Step.PASSING
        if not self.current_players():
            self._hand_over()

    def _hand_over(self) -> None:
        """Every seat has chosen: the passed tiles reach their partners (a
        pledge's tiles stay on the seat's pledged rack)."""
        phase = self.phase
        if isinstance(phase, Pledge):
            for me in self.seats:
                me.aside, me.outgoing = me.outgoing, []
            self._away = [None] * self.spec.players
            self._next_phase()
            return
        assert isinstance(phase, Pass | Courtesy)
        chosen = [list(s.outgoing) for s in self.seats]
        for giver, to, tiles in phases.hand_over(self.rules, phase, chosen, self.blind):
            for t in tiles:
                self.seats[to].counts[t] += 1
            self._tell(EventKind.PASSED, giver, tuple(chosen[giver]), frozenset({giver}),
                       to=to, blind=self.blind[to])
            self._tell(EventKind.RECEIVED, to, tuple(tiles), frozenset({to}), giver=giver)
        for s in self.seats:
            s.outgoing = []
        self._away = [None] * self.spec.players
        self._next_phase()

    # -- the turn -------------------------------------------------------------

    def _go_off(self, seat: int, forced: bool = False) -> None:
        """The seat leaves its pledge: the tiles set aside rejoin the pool."""
        me = self.seats[seat]
        rack = me.pledge
        for t in me.aside:
            me.counts[t] += 1
        me.aside, me.pledged = [], None
        self._changed(seat)
        self.turn_away = None
        self._tell(EventKind.WENT_OFF, seat, rack=rack, forced=forced)

    def _discard(self, seat: int, tile: int) -> None:
        self._score_declared(winning=False)
        self.incoming = None
        me = self.seats[seat]
        me.counts[tile] -= 1
        me.discards.append(tile)
        self._changed(seat)
        self.turns += 1
        self.opening = False
        self.drawn = None
        self.discard = (seat, tile)
        self.answers = {}
        self._claim_options = {}
        self._claimable = {}
        self._tell(EventKind.DISCARDED, seat, (tile,))
        kinds = self.spec.claims
        if not kinds.kinds or (tile == self.joker and not kinds.jokers):
            self.asked = []
        else:
            n, direction = self.spec.players, self.spec.turn.direction
            others = [(seat + i * direction) % n for i in range(1, n)]
            self.asked = [s for s in others if not self.seats[s].dead]
            if self.mode is Mode.GUARDED:  # only seats that can claim are asked
                self.asked = [s for s in self.asked if len(self._claim_actions(s)) > 1]
        if self.asked:
            self.step = Step.CLAIMS
        else:
            self._next_turn(seat)

    def _next_turn(self, after: int) -> None:
        """The next live seat draws; skipped turns are served; an empty wall
        ends the round."""
        self.discard = None
        if self.ended:
            self._end_round(None, None, False)
            return
        n = self.spec.players
        seat = after
        for _ in range(n * (1 + max(s.skips for s in self.seats))):
            seat = (seat + self.spec.turn.direction) % n
            me = self.seats[seat]
            if me.dead:
                continue
            if me.skips:
                me.skips -= 1
                continue
            break
        else:  # no seat left to play: every one is out
            self.ended = "dead"
            self._end_round(None, None, False)
            return
        if not self.wall:
            self._end_round(None, None, False)
            return
        self._draw(seat)

    def _resolve_claims(self) -> None:
        assert self.discard is not None
        discarder, tile = self.discard
        ruling = claims.resolve(self, self.asked, self.answers)
        for seat, action in ruling.false:
            self._penalise(seat, self.spec.penalties.false_claim,
                           action.number if action.tiles else None)
        if self.ended:
            self._end_round(None, None, False)
            return
        if not ruling.top:
            self._next_turn(discarder)
            return
        top = ruling.top
        if self.spec.claims.ties == "random" and len(top) > 1:
            top = [top[self.chance.tie(self.round, self.turns, len(top))]]
        _, seat, action = top[0]
        for loser, lost in [*((s, a) for _, s, a in ruling.top if s != seat),
                            *ruling.outranked]:
            self._tell(EventKind.OUTRANKED, loser, claim=lost.claim, by=seat)
        self._take(seat, tile, action)

    def _take(self, seat: int, tile: int, action: Action) -> None:
        """The claimer takes the discard: Mah Jongg, or a set exposed and locked."""
        assert self.discard is not None
        discarder = self.discard[0]
        self.seats[discarder].discards.pop()
        me = self.seats[seat]
        kind = self.spec.claims.kind(action.claim)
        if self.spec.racks > 1 and kind.mahjong:  # the racks this claim must be declared on
            self.promised = self.claimable_racks(seat, tile, kind.mahjongs)
        me.counts[tile] += 1
        self.turn = seat
        self.turn_away = None
        self.drawn = None
        self.claimed_turn = True  # a win on this turn is not self-drawn
        self.claimed_from = discarder
        self.incoming = (seat, tile)
        self._changed(seat)
        rack = action.number
        self._tell(EventKind.CLAIMED, seat, (tile, *action.tiles), claim=kind.name,
                   mahjong=kind.mahjong, giver=discarder,
                   **({"rack": rack} if self.spec.racks > 1 and not kind.mahjong else {}))
        if not kind.mahjong:  # the claimed tile is on the rack before anything is exposed
            for t in (tile, *action.tiles):
                me.counts[t] -= 1
            exposure = Exposure(tuple(sorted((tile, *action.tiles))), tile, rack)
            me.exposures.append(exposure)
            if self.spec.racks > 1 and not racks.rack_scores(
                    self.rules, me, rack, me.concealed(), self.last_tile(seat)):
                # SMJ-11: exposures no line can use kill their rack's hand
                me.exposures[-1] = Exposure(exposure.tiles, tile, rack, killed=True)
                self._penalise(seat, self.spec.penalties.misfit_exposure, rack)
        self.discard = None
        self.step = Step.TURN
        if self.spec.racks == 1 and self.rules.completes(me.hand()):
            self._end_round(seat, discarder, False)  # a claim completing the hand ends it
        else:
            self._after_death(seat)

    def _exchange(self, seat: int, action: Action) -> None:
        owner, index = action.target
        exposure = self.seats[owner].exposures[index]
        tiles = list(exposure.tiles)
        assert self.joker is not None
        tiles[tiles.index(self.joker)] = action.tile
        self.seats[owner].exposures[index] = Exposure(tuple(sorted(tiles)), exposure.claimed,
                                                      exposure.rack)
        me = self.seats[seat]
        me.counts[action.tile] -= 1
        me.counts[self.joker] += 1
        self.turn_away = None  # the hand is another now: check it whole
        if owner != seat:
            self._changed(owner)
        self._tell(EventKind.EXCHANGED, seat, (action.tile,), owner=owner, exposure=index)

    def _penalise(self, seat: int, penalty: Penalty, rack: int | None = None) -> None:
        """Apply a mistake's penalty. A dead hand with several racks is the
        rack the mistake was made on (every live rack when none is named)."""
        me = self.seats[seat]
        self._tell(EventKind.PENALISED, seat, penalty=str(penalty),
                   **({"rack": rack} if rack is not None and self.spec.racks > 1 else {}))
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
        lines = self.rules.lines
        exposed = [m.value for m in self.mahjongs if m.seat != seat]
        facts = {"exposed_value": max(exposed, default=0),
                 "lowest_value": min((line.value or 0 for line in lines), default=0),
                 "players": self.spec.players, "round": self.round, "racks": self.spec.racks}
        self._pay(settle_dead(self.spec, self.round, seat, facts, self.scores))
        if self.spec.penalties.all_dead == "end-round":
            self.ended = "dead"

    # -- Mah Jongg --------------------------------------------------------------

    def _declare(self, seat: int, action: Action) -> None:
        if self.spec.racks > 1:
            self._declare_rack(seat, action)
            return
        if self.rules.completes(self.seats[seat].hand()):
            # self-drawn unless the turn began with a claim (the dealt hand counts as drawn)
            self._end_round(seat, None, not self.claimed_turn)
            return
        self._penalise(seat, self.spec.penalties.false_declare)
        self._after_death(seat)  # out of the round: play goes on without them

    def _declare_rack(self, seat: int, action: Action) -> None:
        """A Mah Jongg declared on one rack: its line's tiles leave the pool and
        are exposed with the rack's exposures; the seat plays on with the rest
        (SMJ-12) unless it now holds the Mah Jonggs it needs (SMJ-17)."""
        me = self.seats[seat]
        rack = action.number
        lines = self.rules.lines
        pool, last = me.concealed(), self.last_tile(seat)
        found = [(li, v) for li, v in racks.rack_lines(self.rules, me, rack, pool, last)
                 if lines[li].id == action.claim]
        if not found:  # SMJ-19: a wrong Mah Jongg kills that rack's hand
            self._penalise(seat, self.spec.penalties.false_declare, rack)
            self._after_death(seat)
            return
        li, variation = found[0]
        used = racks.filling(self.rules, me, rack, pool, last, li, variation)
        for t in racks.taken(self.rules, me, rack, pool, last, li, variation):
            me.counts[t] -= 1
        if rack == me.pledge:  # the pledge is kept: its tiles set aside are exposed too
            me.aside, me.pledged = [], None
        before = [e for e in me.exposures if e.rack == rack]
        me.exposures = [Exposure(e.tiles, e.claimed, e.rack, mahjong=True)
                        if e.rack == rack else e for e in me.exposures]
        me.exposures.append(Exposure(tuple(sorted(used)), -1, rack, mahjong=True))
        tiles = [*used, *(t for e in before for t in e.tiles)]
        mahjong = self._mahjong(seat, rack, lines[li], tiles, not before)
        self.declared.append(mahjong)
        self._tell(EventKind.DECLARED, seat, tuple(sorted(tiles)), rack=rack, line=mahjong.line,
                   value=mahjong.value)
        self.promised = [r for r in self.promised if r != rack]
        self._changed(seat)
        self.turn_away = None
        if me.mahjongs >= self.spec.wins_needed:
            self._end_round(seat, self.claimed_from, not self.claimed_turn)
        elif not me.live_racks():  # nothing left to play for
            me.dead = True
            self._after_death(seat)
        elif not any(me.counts):  # every tile declared: the turn ends without a discard
            self._turn_over(seat)

    def _after_death(self, seat: int) -> None:
        """On its own turn a seat has lost its last hand: the turn ends at
        once, or (penalties.dead_turn: discard, SMJ-19) with a discard while
        it holds tiles. A round ended by dead hands ends now."""
        me = self.seats[seat]
        if self.ended or (me.dead and (self.spec.penalties.dead_turn == "ends"
                                       or not any(me.counts))):
            self._turn_over(seat)

    def _mahjong(self, seat: int, rack: int, line: Any, tiles: list[int], concealed: bool
                 ) -> Mahjong:
        """A declared Mah Jongg and the facts its payments read."""
        deck = self.spec.deck
        held = tuple((f"held_{tag.replace('-', '_')}",
                      sum(1 for t in tiles if tag in deck.kinds[t].tags)) for tag in deck.tags)
        facts = Facts(self_drawn=not self.claimed_turn, jokerless=self.joker not in tiles,
                      value=line.value or 0, concealed=concealed,
                      exposures=sum(1 for e in self.seats[seat].exposures
                                    if e.rack == rack and e.claimed >= 0),
                      held=held, jokers_allowed=line.jokers, flags=line.flags)
        return Mahjong(seat, rack, line.id, facts, tuple(deck.codes(sorted(tiles))))

    def _turn_over(self, seat: int) -> None:
        """The seat's turn ends without a discard: its Mah Jonggs are scored,
        and play goes on (or the round ends when a seat's dead hands end it)."""
        self._score_declared(winning=False)
        if self.ended:
            self._end_round(None, None, False)
        else:
            self._next_turn(seat)

    def _score_declared(self, winning: bool) -> None:
        """Pay this turn's Mah Jonggs (a winning turn's are all winning: SMJ-23, SMJ-24)."""
        together = len(self.declared)
        for mahjong in self.declared:
            self._pay(settle(self.spec, self._round_end(mahjong.seat, self.claimed_from),
                             mahjong.facts, self.scores, winning=winning, together=together,
                             payments=self.spec.scoring.mahjong))
        self.mahjongs.extend(self.declared)
        self.declared = []

    def _pay(self, payments: list[ScoreEvent]) -> None:
        for p in payments:
            if p.payer != BANK:
                self.scores[p.payer] -= p.amount
            if p.payee != BANK:
                self.scores[p.payee] += p.amount
            self._tell(EventKind.PAID, None, payer=p.payer, payee=p.payee, amount=p.amount,
                       clauses=list(p.clauses))
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
        if winner is not None and spec.racks == 1:  # the whole hand is the Mah Jongg
            me = self.seats[winner]
            match = self.matcher.is_complete(me.hand(), open_hands=spec.open_hands)
            assert match is not None
            tiles = [*me.concealed(), *(t for e in me.exposures for t in e.tiles)]
            mahjong = self._mahjong(winner, 0, match.line, tiles, not me.exposures)
            self.declared.append(mahjong)
            self._tell(EventKind.DECLARED, winner, tuple(sorted(tiles)), rack=0,
                       line=mahjong.line, value=mahjong.value)
            shown = tuple(tuple(spec.deck.codes(e.tiles)) for e in me.exposures) + \
                (tuple(spec.deck.codes(me.concealed())),)
            me.exposures = [*me.exposures, Exposure(me.concealed(), -1, mahjong=True)]
            me.counts = [0] * len(me.counts)
        together = len(self.declared)
        self._score_declared(winning=winner is not None)
        line = None
        if winner is not None:
            last = self.mahjongs[-1]
            facts, line = last.facts, last.line
            if spec.racks > 1:  # every Mah Jongg the winner declared
                shown = tuple(m.tiles for m in self.mahjongs if m.seat == winner)
        end = self._round_end(winner, discarder, self_drawn, line, shown)
        if winner is not None:
            self._pay(settle(spec, end, facts, self.scores, together=together))
        elif not self.mahjongs and self.ended is None:
            self._pay(settle(spec, end, None, self.scores))
        self.results.append(end)
        self._tell(EventKind.ROUND_ENDED, winner, **{**end.public(), "how": end.how},
                   scores=list(self.scores))
        self.round += 1
        if spec.match.dealer_passes == "always" or winner != self.dealer:
            self.dealer = (self.dealer + spec.match.dealer_direction) % spec.players
        over = spec.match.end({"rounds": self.round, "players": spec.players,
                               "lowest": min(self.scores), "highest": max(self.scores)})
        if over:
            self.step = Step.OVER
            self.discard = None
            self._tell(EventKind.MATCH_ENDED, scores=list(self.scores),
                       winners=self.winners(), payouts=self.payouts())
            return
        self._deal()

    def _round_end(self, winner: int | None, discarder: int | None, self_drawn: bool = False,
                   line: str | None = None, shown: tuple[tuple[str, ...], ...] = ()
                   ) -> RoundEnd:
        return RoundEnd(self.round, winner, discarder, self_drawn, line, self.dealer,
                        self.turns, shown, tuple(m.public() for m in self.mahjongs),
                        self.ended or ("won" if winner is not None else "wall"))

    # -- what a seat sees, and copies ----------------------------------------------

    def winners(self) -> list[int]:
        """The seats with the highest score (ties share: match.ties)."""
        top = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == top]

    def payouts(self) -> list[float] | None:
        """Each seat's money at the match's end, when the variant pays out."""
        assert self.spec.match is not None
        rules = self.spec.match.payout
        return settle_match(rules, self.scores) if rules is not None else None

    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may see now, as plain data (runtime/game/view.py)."""
        from jongg.runtime.game.view import plain
        return plain(self, seat)

    def observe(self, seat: int) -> Observation:
        """What `seat` may see now, typed: what bots decide from."""
        from jongg.runtime.game.view import observe
        return observe(self, seat)

    def position(self) -> str:
        """The state as one line of text (runtime/game/position.py)."""
        from jongg.runtime.game.position import position
        return position(self)

    def clone(self) -> State:
        """An independent copy: the same position, history and chance; the
        spec, matcher and chance are shared (they never change)."""
        memo: dict[int, Any] = {id(self.spec): self.spec, id(self.matcher): self.matcher,
                                id(self.chance): self.chance}
        twin: State = copy.deepcopy(self, memo)
        return twin

    def digest(self) -> str:
        """A fingerprint of the whole state, hidden parts included."""
        full = {"scores": self.scores, "round": self.round, "dealer": self.dealer,
                "step": str(self.step), "wall": self.wall,
                "seats": [[s.counts, [e.tiles for e in s.exposures], s.discards, s.dead,
                           s.skips] + ([s.rack_dead, [(e.rack, e.mahjong, e.killed)
                                                      for e in s.exposures],
                                        sorted(s.aside), s.pledge]
                                       if self.spec.racks > 1 else [])
                          for s in self.seats],
                "events": [e.public() for e in self.payments]}
        return hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()[:16]

    def __str__(self) -> str:
        from jongg.runtime.game.view import table_text
        return table_text(self)


def _describe(phase: Phase) -> dict[str, Any]:
    """A phase as its event tells it."""
    if isinstance(phase, Pass):
        return {"phase": "pass", "to": str(phase.to), "count": phase.count,
                "blind": phase.blind, "jokers": phase.jokers}
    if isinstance(phase, Courtesy):
        return {"phase": "courtesy", "to": str(phase.to), "most": phase.most}
    if isinstance(phase, Vote):
        return {"phase": "vote", "rule": phase.rule, "question": phase.question}
    return {"phase": "pledge", "flag": phase.flag, "rack": phase.rack, "count": phase.count,
            "question": phase.question}
