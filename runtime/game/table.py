"""What a State holds, and what can be read off it without changing it.

`StateData` is the State's data (every attribute is set in its __init__), its
event telling, and the answers it keeps for the rules (runtime/game/rules.py
TableView). The State (state.py) and its parts (preplay.py, endings.py)
are the only code that changes a StateData.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from jongg.runtime.game import claims, racks
from jongg.runtime.game.actions import Action
from jongg.runtime.game.chance import Chance, SeededChance
from jongg.runtime.game.events import Event, Payload
from jongg.runtime.game.payout import settle_match
from jongg.runtime.game.rules import Judge, Mode, Rules, shared_rules
from jongg.runtime.game.scoring import Mahjong, RoundEnd, ScoreEvent
from jongg.runtime.game.seat import Seat
from jongg.runtime.game.spec import GameSpec, Phase


class Step(StrEnum):
    PASSING = "passing"  # a Charleston pass: tiles chosen one at a time
    OFFERING = "offering"  # how many tiles: a courtesy offer, or a blind pass
    VOTING = "voting"  # a secret vote on optional phases
    TURN = "turn"  # one seat: declare, exchange jokers, discard
    CLAIMS = "claims"  # a claim window on the latest discard
    OVER = "over"  # the match has ended




class StateData:
    """A match's data, and its read-only queries."""

    def __init__(self, spec: GameSpec, matcher: Judge, seed: int,
                 mode: Mode = Mode.GUARDED, chance: Chance | None = None):
        assert spec.match is not None
        self.spec = spec
        self._matcher = matcher
        self._rules = shared_rules(spec, matcher, mode)
        self.seed = seed
        self.mode = mode
        self._chance: Chance = chance if chance is not None else SeededChance(seed)
        self._joker = spec.deck.joker_index
        players = spec.players
        # the match
        self.scores = [spec.match.start] * players
        self.payments: list[ScoreEvent] = []  # every score change, in order
        self.events: list[Event] = []  # everything that happened, in order
        self.results: list[RoundEnd] = []
        self.history: list[tuple[int, Action]] = []  # (seat, action), for the log
        self.round = 0
        self.decisions = 0
        self.dealer = self._chance.first_dealer(players) \
            if spec.match.first_dealer == "random" else 0
        # the round (dealt anew by _deal)
        self.step = Step.TURN
        self.turn = self.dealer
        self._wall: list[int] = []
        self._wall_owner: list[int] = []  # whose wall each tile left in the wall lies in
        self._die = 0
        self._seats: list[Seat] = []
        self._turns = 0  # discards this round
        self._open_discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self._asked: list[int] = []  # the seats a claim window asks
        self._answers: dict[int, Action] = {}
        self._drawn: int | None = None  # the tile the seat to play just drew
        self._claimed_turn = False  # the turn began with a claimed discard, not a draw
        self._claimed_from: int | None = None  # whose discard began this turn
        # the tile a pledged rack may take as its last: the one drawn or claimed
        # this turn; and whose it is
        self._incoming: tuple[int, int] | None = None
        self._ended: str | None = None  # "dead": a seat's dead hands ended the round
        self._promised: list[int] = []  # racks a Mah Jongg claim must now be declared on
        self._declared: list[Mahjong] = []  # Mah Jonggs of this turn, scored when it ends
        self._mahjongs: list[Mahjong] = []  # every Mah Jongg of the round
        self._opening = True
        self.phase: Phase | None = None
        self._phase_queue: list[Phase] = []
        self._pass_count = [0] * players  # tiles each seat chooses in this pass
        self._blind = [0] * players  # tiles each seat forwards unseen in this pass
        self._votes: dict[int, int] = {}
        self._offers: dict[int, int] = {}
        # the drawer's tiles away before the draw (or a floor over one: all a turn asks
        # is whether it is within one)
        self._turn_away: int | None = None
        # answers kept until the tiles they read change
        self._away: list[int | None] = [None] * players  # each seat's resting tiles away
        # by live rack: its tiles away, or a floor over one carried from the seat's last turn
        self._rack_away: list[dict[int, int] | None] = [None] * players
        self._floor: list[dict[int, int]] = [{} for _ in range(players)]  # by rack
        # whether the pool completes so many racks at once as it is, by that many
        self._complete_now: list[dict[int, bool]] = [{} for _ in range(players)]
        self._claim_options: dict[int, list[Action]] = {}  # of this claim window
        self._claimable: dict[tuple[int, int, int], list[int]] = {}  # of this claim window
        self._legal: tuple[int, int, list[Action]] = (-1, -1, [])
        self._pushed: list[Any] = []  # the states before each push, to pop back to (moves.py)

    @property
    def rules(self) -> Rules:
        """The game's compiled rules (its spec, card and judge), shared by every
        match of the game: nothing of this match, nothing hidden."""
        return self._rules

    # -- telling -------------------------------------------------------------

    def _tell(self, payload: Payload, seat: int | None = None, tiles: tuple[int, ...] = (),
              seen_by: frozenset[int] | None = None) -> None:
        self.events.append(Event(seat, tuple(self.spec.deck.codes(tiles)), payload, seen_by,
                                 len(self.events)))

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """The events from number `since` on, as `seat` may see them (None:
        everything, as a spectator of an open game)."""
        return [e.for_seat(seat) for e in self.events[since:]]

    def is_terminal(self) -> bool:
        return self.step is Step.OVER

    def current_players(self) -> list[int]:
        step = self.step
        if step is Step.TURN:
            return [self.turn]
        if step is Step.CLAIMS:
            return [s for s in self._asked if s not in self._answers]
        if step is Step.PASSING:
            return [s for s in range(self.spec.players)
                    if len(self._seats[s].outgoing) < self._pass_count[s]]
        if step is Step.VOTING:
            return [s for s in range(self.spec.players) if s not in self._votes]
        if step is Step.OFFERING:
            return [s for s in range(self.spec.players) if s not in self._offers]
        return []

    # -- kept answers (the view's memo: they change nothing) -----------------

    def _last_tile(self, seat: int) -> int | None:
        """The tile the seat drew or claimed this turn (a pledged rack's last)."""
        return self._incoming[1] if self._incoming and self._incoming[0] == seat else None

    def _resting_away(self, seat: int) -> int:
        """Tiles away of the seat's nearest live rack, kept until its tiles
        change; over one, it may be a floor: a rack whose floor carried from
        the seat's last turn is over one is not worked out (all the rules ask
        of a rack is whether it is within one, and complete)."""
        known = self._away[seat]
        if known is None:
            me = self._seats[seat]
            far = len(self._wall) + 99
            aways = self._rack_away[seat] = racks.rack_aways(
                self._rules, me, me.concealed(), self._last_tile(seat), far, self._floor[seat])
            known = self._away[seat] = min(aways.values(), default=far)
        return known

    def _near_racks(self, seat: int) -> list[int] | None:
        """On the seat's turn, the live racks a tile drawn may have completed:
        those within a tile before the draw (None: not known, as after a
        claim or an exchange this turn)."""
        aways = self._rack_away[seat]
        if self._turn_away is None or aways is None:
            return None
        return [r for r, away in aways.items() if away <= 1]

    def _resting_near(self, seat: int) -> bool:
        """Whether the seat's resting hand may be within a tile of a line:
        floors over one, carried from its last turn, answer without the matcher."""
        return self._resting_away(seat) <= 1

    def _claimable_racks(self, seat: int, tile: int, mahjongs: int) -> list[int]:
        """The racks a Mah Jongg claim on the discard completes (racks.py),
        kept for the claim window: nothing changes while its answers are gathered."""
        key = (seat, tile, mahjongs)
        known = self._claimable.get(key)
        if known is None:
            self._resting_away(seat)  # each rack's tiles away, to leave the far ones out
            me = self._seats[seat]
            pool = me.concealed()
            aways = self._rack_away[seat]
            now = self._complete_now[seat].get(mahjongs)
            if now is None:  # what the pool completes without the discard: kept for the next
                now = racks.complete_now(self._rules, me, pool, mahjongs, aways)
                self._complete_now[seat] = {**self._complete_now[seat], mahjongs: now}
            known = self._claimable[key] = racks.claimable_racks(
                self._rules, me, pool, tile, mahjongs, aways, now)
        return known

    def _allowed_lines(self, seat: int, rack: int) -> frozenset[int] | None:
        return self._rules.allowed_lines(self._seats[seat], rack)

    def _wins_with(self, seat: int, tile: int, kind: Any) -> bool:
        """Whether a Mah Jongg claim of this kind on the discard would be true."""
        return claims.kind_wins(self, seat, tile, kind)

    def _declaration_takes(self, seat: int, rack: int, line_id: str) -> list[int]:
        """The pool tiles declaring this rack with this line would take."""
        me = self._seats[seat]
        return racks.declaration_takes(self._rules, me, rack, me.concealed(),
                                       self._last_tile(seat), line_id)

    def _forget(self) -> None:
        """Drop every kept answer (after the position was set from outside)."""
        self._forget_away()
        self._claim_options, self._claimable = {}, {}
        self._legal = (-1, -1, [])

    def _forget_away(self) -> None:
        """Every seat's tiles changed (a deal, a pass): nothing is known of their tiles away."""
        self._away = [None] * self.spec.players
        self._floor = [{} for _ in range(self.spec.players)]
        self._rack_away = [None] * self.spec.players
        self._complete_now = [{} for _ in range(self.spec.players)]

    def _changed(self, seat: int) -> None:
        """The seat's tiles changed: its kept tiles away no longer hold."""
        self._away[seat] = self._rack_away[seat] = None
        self._floor[seat] = {}
        self._complete_now[seat] = {}

    def _discarded(self, seat: int) -> None:
        """The seat discarded. After a plain draw (turn_away still known: no
        claim, exchange or declaration this turn) each rack's floor is one
        less than its tiles away (or floor) before the draw: a tile drawn
        brings a rack at most one tile nearer a line, and one discarded none
        nearer."""
        before = self._rack_away[seat] if self._turn_away is not None else None
        self._changed(seat)
        if before is not None:
            self._floor[seat] = {rack: away - 1 for rack, away in before.items()}

    def winners(self) -> list[int] | None:
        """The seats with the highest score once the match is over (ties
        share: match.ties); None while it goes on."""
        return self.leaders() if self.step is Step.OVER else None

    def leaders(self) -> list[int]:
        """The seats with the highest score now."""
        top = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == top]

    def payouts(self) -> list[float] | None:
        """Each seat's money at the match's end, when the variant pays out."""
        assert self.spec.match is not None
        rules = self.spec.match.payout
        return settle_match(rules, self.scores) if rules is not None else None

    # -- what the State's parts call on each other -----------------------------

    def _deal(self) -> None:
        raise NotImplementedError  # State

    def _next_turn(self, after: int) -> None:
        raise NotImplementedError  # State

    def _draw(self, seat: int) -> None:
        raise NotImplementedError  # State

    def _waits(self, seat: int) -> list[int]:
        raise NotImplementedError  # ScoredRound (scored_round.py)

    def _wins_discard(self, seat: int, tile: int) -> bool:
        raise NotImplementedError  # ScoredRound (scored_round.py)
