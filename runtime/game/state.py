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
import dataclasses
import hashlib
import json
from enum import Enum
from typing import Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game import claims, phases, racks, turn
from jongg.runtime.game import events as ev
from jongg.runtime.game.actions import RED, Action, parse_action
from jongg.runtime.game.chance import Chance, deal
from jongg.runtime.game.endings import Endings
from jongg.runtime.game.moves import Moves, SeatNeeded
from jongg.runtime.game.preplay import PrePlay
from jongg.runtime.game.rules import Judge, Mode
from jongg.runtime.game.seat import Exposure, Seat
from jongg.runtime.game.spec import GameSpec
from jongg.runtime.game.table import Step
from jongg.runtime.game.view import Observation, observe

__all__ = ["IllegalAction", "Judge", "Mode", "SeatNeeded", "State", "Step"]


class IllegalAction(JonggError, ValueError):
    """An action the rules do not allow now; the message lists those they do."""


# what a clone shares although it is no value: the compiled rules and their matcher
_SHARED = frozenset({"_matcher", "_rules"})
_SNAPSHOTS = "_pushed"  # states before each push: never changed, so a clone's list shares them
_ATOMS = (int, float, str, bool, type(None))


class State(PrePlay, Endings, Moves):
    """One match in progress."""

    def __init__(self, spec: GameSpec, matcher: Judge, seed: int,
                 mode: Mode = Mode.GUARDED, chance: Chance | None = None):
        super().__init__(spec, matcher, seed, mode, chance)
        self._scored_match()
        self._deal()

    # -- the round's course -------------------------------------------------

    def _deal(self) -> None:
        """The chance step of a round: the tiles shuffled, dealt, play opened."""
        spec = self.spec
        shuffled = self._chance.shuffle(self.round, spec.deck.wall())
        walls = spec.walls
        self._die = self._chance.die(self.round, walls.die) if walls is not None and walls.die \
            else 0
        dealt = deal(spec, shuffled, self.dealer, self._die)
        self._wall, self._wall_owner = dealt.wall, dealt.owners
        kinds = len(spec.deck.kinds)
        self._seats = [Seat([0] * kinds, rack_dead=[False] * spec.racks)
                      for _ in range(spec.players)]
        for seat, hand in zip(self._seats, dealt.hands, strict=True):
            for t in hand:
                seat.counts[t] += 1
        self._turns = 0
        self._open_discard = None
        self._answers, self._asked = {}, []
        self._claim_options, self._claimable = {}, {}
        self._forget_away()
        self._turn_away = None
        self._drawn = None
        self._claimed_turn, self._claimed_from = False, None
        self._incoming = None
        self._ended = None
        self._promised, self._declared, self._mahjongs = [], [], []
        self._opening = True
        self._phase_queue = list(spec.phases)
        self._blind = [0] * spec.players
        self._votes, self._offers = {}, {}
        self._scored_deal()
        self._tell(ev.Dealt(self.round, self._die, self._live_wall()), self.dealer)
        self._next_phase()

    def _draw(self, seat: int) -> None:
        self._claimed_turn = False
        self._claimed_from = None
        self._promised = []
        self._turn_away = self._resting_away(seat)  # before the draw
        tile = self._wall.pop()
        self._red_drew(seat)  # runtime/game/red.py
        if self._wall_owner:
            self._wall_owner.pop()
        self._incoming = (seat, tile)
        me = self._seats[seat]
        self._tell(ev.Drew(self._live_wall()), seat, (tile,), frozenset({seat}))
        pledged = me.pledged
        if pledged is not None and me.mahjongs and \
                self.spec.deck.kinds[tile].category in pledged.forced_off:
            self._go_off(seat, forced=True)  # SMJ-27: with a Mah Jongg out, this draw ends it
        me.counts[tile] += 1
        self._drawn = tile
        self.turn = seat
        self.step = Step.TURN

    # -- who decides, and what may they do ----------------------------------

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
            return self._scored_turn(seat, turn.turn_actions(self, seat))
        if step is Step.CLAIMS:
            return self._claim_actions(seat)
        assert self.phase is not None
        if step is Step.PASSING:
            return phases.pass_actions(self._rules, self.phase, self._seats[seat])
        if step is Step.VOTING:
            return [self._rules.action("vote", number=1), self._rules.action("vote", number=0)]
        return phases.count_actions(self._rules, self.phase)

    def _claim_actions(self, seat: int) -> list[Action]:
        known = self._claim_options.get(seat)
        if known is None:
            known = self._claim_options[seat] = self._scored_claims(
                seat, claims.claim_actions(self, seat))
        return known

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
        if not _offered(action, legal):
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
            elif verb == "announce":
                self._announce(seat, action)
            elif verb == "kong":
                self._kong(seat, action)
            elif verb == "abort":
                self._abort(seat)
            else:
                self._discard(seat, action.tile, action.claim == RED)
        elif self.step is Step.CLAIMS:
            self._answers[seat] = action
            if not self.current_players():
                self._resolve_claims()
        elif self.step is Step.PASSING:
            me = self._seats[seat]
            me.counts[action.tile] -= 1
            me.outgoing.append(action.tile)
            if not self.current_players():
                self._hand_over()
        elif self.step is Step.VOTING:
            self._votes[seat] = action.number
            if not self.current_players():
                self._votes_counted()
        elif self.step is Step.OFFERING:
            self._offers[seat] = action.number
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

    # -- the turn -------------------------------------------------------------

    def _go_off(self, seat: int, forced: bool = False) -> None:
        """The seat leaves its pledge: the tiles set aside rejoin the pool."""
        me = self._seats[seat]
        rack = me.pledge
        for t in me.aside:
            me.counts[t] += 1
        me.aside, me.pledged = [], None
        self._changed(seat)
        self._turn_away = None
        self._tell(ev.WentOff(rack, forced), seat)

    def _discard(self, seat: int, tile: int, red: bool = False) -> None:
        self._score_declared(winning=False)
        self._incoming = None
        me = self._seats[seat]
        me.counts[tile] -= 1
        me.discards.append(tile)
        self._discarded(seat)
        self._scored_discarded(seat, tile, red)
        self._turns += 1
        self._opening = False
        self._drawn = None
        self._open_discard = (seat, tile)
        self._answers = {}
        self._claim_options = {}
        self._claimable = {}
        self._tell(ev.Discarded(), seat, (tile,))
        kinds = self.spec.claims
        if not kinds.kinds or (tile == self._joker and not kinds.jokers):
            self._asked = []
        else:
            n, direction = self.spec.players, self.spec.turn.direction
            others = [(seat + i * direction) % n for i in range(1, n)]
            self._asked = [s for s in others if not self._seats[s].dead]
            if self.mode is Mode.GUARDED:  # only seats that can claim are asked
                self._asked = [s for s in self._asked if claims.may_claim(self, s, tile)
                              and len(self._claim_actions(s)) > 1]
        if self._asked:
            self.step = Step.CLAIMS
        else:
            self._next_turn(seat)

    def _next_turn(self, after: int) -> None:
        """The next live seat draws; skipped turns are served; an empty wall
        ends the round."""
        self._open_discard = None
        if self._scored_window_closed():  # runtime/game/scored_round.py
            return
        if self._ended:
            self._end_round(None, None, False)
            return
        n = self.spec.players
        seat = after
        for _ in range(n * (1 + max(s.skips for s in self._seats))):
            seat = (seat + self.spec.turn.direction) % n
            me = self._seats[seat]
            if me.dead:
                continue
            if me.skips:
                me.skips -= 1
                continue
            break
        else:  # no seat left to play: every one is out
            self._ended = "dead"
            self._end_round(None, None, False)
            return
        if self._live_wall() <= 0:
            self._end_round(None, None, False)
            return
        self._draw(seat)

    def _resolve_claims(self) -> None:
        if self._robbing is not None:
            self._resolve_rob()
            return
        assert self._open_discard is not None
        discarder, tile = self._open_discard
        ruling = claims.resolve(self, self._asked, self._answers)
        for seat, action in ruling.false:
            self._penalise(seat, self.spec.penalties.false_claim,
                           action.number if action.tiles else None)
        if self._ended:
            self._end_round(None, None, False)
            return
        if not ruling.top:
            self._scored_passed(self._asked, None, tile)
            self._next_turn(discarder)
            return
        top = ruling.top
        if self._several_wins([s for _, s, a in top if not a.tiles]):  # several.py
            return
        if self.spec.claims.ties == "random" and len(top) > 1:
            top = [top[self._chance.tie(self.round, self._turns, len(top))]]
        _, seat, action = top[0]
        self._scored_passed(self._asked, None if action.tiles else seat, tile)
        for loser, lost in [*((s, a) for _, s, a in ruling.top
                              if s != seat and s not in self._others_won),
                            *ruling.outranked]:
            self._tell(ev.Outranked(lost.claim, seat), loser)
        self._take(seat, tile, action)

    def _take(self, seat: int, tile: int, action: Action) -> None:
        """The claimer takes the discard: Mah Jongg, or a set exposed and locked."""
        assert self._open_discard is not None
        discarder = self._open_discard[0]
        self._seats[discarder].discards.pop()
        me = self._seats[seat]
        kind = self.spec.claims.kind(action.claim)
        if self.spec.racks > 1 and kind.mahjong:  # the racks this claim must be declared on
            self._promised = self._claimable_racks(seat, tile, kind.mahjongs)
        me.counts[tile] += 1
        self.turn = seat
        self._turn_away = None
        self._drawn = None
        self._claimed_turn = True  # a win on this turn is not self-drawn
        self._claimed_from = discarder
        self._incoming = (seat, tile)
        self._changed(seat)
        rack = action.number
        self._tell(ev.Claimed(kind.name, kind.mahjong, discarder,
                              rack if self.spec.racks > 1 and not kind.mahjong else None),
                   seat, (tile, *action.tiles))
        if not kind.mahjong:  # the claimed tile is on the rack before anything is exposed
            for t in (tile, *action.tiles):
                me.counts[t] -= 1
            exposure = Exposure(tuple(sorted((tile, *action.tiles))), tile, rack)
            me.exposures.append(exposure)
            self._scored_called()
            if self.spec.racks > 1 and not racks.rack_scores(
                    self._rules, me, rack, me.concealed(), self._last_tile(seat)):
                # SMJ-11: exposures no line can use kill their rack's hand
                me.exposures[-1] = Exposure(exposure.tiles, tile, rack, killed=True)
                self._penalise(seat, self.spec.penalties.misfit_exposure, rack)
        self._open_discard = None
        self.step = Step.TURN
        # a claim completing the hand ends it (a scored game: a claim for a win)
        if self.spec.racks == 1 and (kind.mahjong if self.spec.scored is not None
                                     else self._rules.completes(me.hand())):
            self._end_round(seat, discarder, False)
        elif not kind.mahjong and self._kong_tiles() and len(action.tiles) == 3:
            self._replace(seat)  # a kong claimed: its replacement from the dead wall
        else:
            self._after_death(seat)

    def _exchange(self, seat: int, action: Action) -> None:
        owner, index = action.target
        exposure = self._seats[owner].exposures[index]
        tiles = list(exposure.tiles)
        assert self._joker is not None
        tiles[tiles.index(self._joker)] = action.tile
        self._seats[owner].exposures[index] = Exposure(tuple(sorted(tiles)), exposure.claimed,
                                                      exposure.rack)
        me = self._seats[seat]
        me.counts[action.tile] -= 1
        me.counts[self._joker] += 1
        self._turn_away = None  # the hand is another now: check it whole
        if owner != seat:
            self._changed(owner)
        self._tell(ev.Exchanged(owner, index), seat, (action.tile,))

    # -- what a seat sees, and copies ----------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may see now, as plain data (runtime/game/view.py)."""
        from jongg.runtime.game.view import plain
        return plain(self, seat)

    def observe(self, seat: int, *, lazy: bool = False) -> Observation:
        """What `seat` may see now, typed: what bots decide from (`lazy`:
        its seats read when first asked, during this decision)."""
        return observe(self, seat, lazy=lazy)

    def position(self) -> str:
        """The state as one line of text (runtime/game/position.py)."""
        from jongg.runtime.game.position import position
        return position(self)

    def clone(self) -> State:
        """An independent copy: the same position, history and chance. What a
        clone copies is read off the State itself, not listed: every attribute
        that is a container is copied (and so are its mutable items); values
        (numbers, text, tuples, enums, frozen dataclasses) and the rules are
        shared. An attribute of any other kind is refused, so a field added
        later cannot be shared by mistake."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if name == _SNAPSHOTS:
                setattr(twin, name, list(value))
            elif name not in _SHARED:
                setattr(twin, name, _copied(value, name))
        twin._forget()
        return twin

    def digest(self) -> str:
        """A fingerprint of the whole state, hidden parts included."""
        full = {"scores": self.scores, "round": self.round, "dealer": self.dealer,
                "step": str(self.step), "wall": self._wall,
                "seats": [[s.counts, [e.tiles for e in s.exposures], s.discards, s.dead,
                           s.skips] + ([s.rack_dead, [(e.rack, e.mahjong, e.killed)
                                                      for e in s.exposures],
                                        sorted(s.aside), s.pledge]
                                       if self.spec.racks > 1 else [])
                          for s in self._seats],
                "events": [e.public() for e in self.payments],
                **({"scored": self._scored_position()} if self.spec.scored else {})}
        return hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()[:16]

    def __str__(self) -> str:
        from jongg.runtime.game.view import table_text
        return table_text(self)


def _copied(value: Any, name: str) -> Any:
    """`value` as a clone holds it: containers and seats copied, values shared."""
    if isinstance(value, (*_ATOMS, tuple, frozenset, Enum)):
        return value
    if isinstance(value, list):
        if all(type(item) in _ATOMS for item in value):
            return list(value)
        return [_copied(item, name) for item in value]
    if isinstance(value, dict):
        return {key: _copied(item, name) for key, item in value.items()}
    if isinstance(value, set):
        return {_copied(item, name) for item in value}
    if isinstance(value, Seat):
        return value.copy()
    if dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen:  # type: ignore
        return value
    raise TypeError(f"State.clone() cannot tell how to copy {name!r} "
                    f"({type(value).__name__}): make it a value or a container")


def _offered(action: Action, legal: list[Action]) -> bool:
    """Whether the action is among the legal ones. An agent hands back one
    of them, so it is looked for as itself before actions are compared
    field by field (each comparison builds two tuples)."""
    for offered in legal:
        if offered is action:
            return True
    return action in legal
