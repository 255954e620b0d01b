"""The game state machine: one match of a compiled variant.

In the OpenSpiel manner: `current_players()` are the seats deciding now
(several at once in a claim window, a pass or a vote), `legal_actions(seat)`
what each may do, `apply(seat, action)` moves the game on, and the chance
steps (the shuffle of each round) derive from the match seed alone, so a
match is fully determined by its seed and its actions.

Nothing here knows a variant by name: the GameSpec says what differs.
"""

from __future__ import annotations

import hashlib
import json
import random
from enum import StrEnum
from typing import Any, Protocol

from jongg.runtime.card import Card
from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action
from jongg.runtime.game.payout import settle_match
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
from jongg.runtime.game.spec import (
    ClaimKind,
    Courtesy,
    Direction,
    GameSpec,
    Pass,
    Penalty,
    Phase,
    Pledge,
    Vote,
)
from jongg.runtime.game.walls import lay_out
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import pool_tiles


class Judge(Protocol):
    """What a game asks of a matcher (the compiled one, or the reference)."""

    card: Card

    def scores(self, hand: Hand, *, open_hands: bool = False) -> list[tuple[int, int, int]]: ...

    def explain(self, hand: Hand, line: Any, variation: int) -> Any: ...

    def is_complete(self, hand: Hand, *, open_hands: bool = False) -> Any: ...


class Step(StrEnum):
    PASSING = "passing"  # a Charleston pass: tiles chosen one at a time
    OFFERING = "offering"  # how many tiles: a courtesy offer, or a blind pass
    VOTING = "voting"  # a secret vote on optional phases
    TURN = "turn"  # one seat: declare, exchange jokers, discard
    CLAIMS = "claims"  # a claim window on the latest discard
    OVER = "over"  # the match has ended


class Mode(StrEnum):
    GUARDED = "guarded"  # mistakes are refused with the legal alternatives
    STRICT = "strict"  # the rulebook's mistakes may be made, and are penalised


class IllegalAction(JonggError, ValueError):
    """An action the rules do not allow now; the message lists those they do."""


def derived_rng(seed: int, *parts: object) -> random.Random:
    """A random source for one purpose of one match: string seeds hash the same
    in every process, whatever PYTHONHASHSEED says."""
    return random.Random("/".join(map(str, (seed, *parts))))


class State:
    """One match in progress."""

    def __init__(self, spec: GameSpec, matcher: Judge, seed: int,
                 mode: Mode = Mode.GUARDED):
        assert spec.match is not None
        self.spec = spec
        self.matcher = matcher
        # card flags whose lines only a pledged rack may win
        self.pledge_flags = {p.flag for p in spec.phases if isinstance(p, Pledge)}
        self._allowed: dict[str, frozenset[int]] = {}  # by pledge flag ("" for none)
        self.seed = seed
        self.mode = mode
        self.joker = spec.deck.joker_index
        players = spec.players
        self.scores = [spec.match.start] * players
        self.events: list[ScoreEvent] = []  # every score change, in order
        self.results: list[RoundEnd] = []
        self.history: list[tuple[int, Action]] = []  # (seat, action), for the log
        self.round = 0
        self.turns = 0  # discards this round
        self.decisions = 0
        self._legal: tuple[int, int, list[Action]] = (-1, -1, [])
        if spec.match.first_dealer == "random":
            self.dealer = derived_rng(seed, "dealer").randrange(players)
        else:
            self.dealer = 0
        self.step = Step.TURN
        self._deal()

    # -- the round's course -------------------------------------------------

    def _deal(self) -> None:
        """The chance step of a round: shuffle from the seed, deal, open."""
        spec = self.spec
        self.wall = spec.deck.wall()
        derived_rng(self.seed, "shuffle", self.round).shuffle(self.wall)
        kinds = len(spec.deck.kinds)
        self.seats = [Seat([0] * kinds, rack_dead=[False] * spec.racks)
                      for _ in range(spec.players)]
        n = spec.players
        dealt = [spec.deal + (spec.dealer_extra if s == self.dealer else 0) for s in range(n)]
        order = [(self.dealer + i * spec.turn.direction) % n for i in range(n)]
        self.die = 0
        self.wall_owner: list[int] = []  # whose wall each tile left in the wall lies in
        if spec.walls is None:  # one shuffled pile; each seat takes its whole deal
            for seat in order:
                for _ in range(dealt[seat]):
                    self.seats[seat].counts[self.wall.pop()] += 1
        else:  # the walls as built, cut by a die (SMJ-03, SMJ-04); deal a few at a time
            walls = spec.walls
            self.die = derived_rng(self.seed, "die", self.round).randint(1, walls.die) \
                if walls.die else 0
            self.wall, self.wall_owner = lay_out(self.wall, order, walls, self.die)
            while any(sum(self.seats[s].counts) < dealt[s] for s in order):
                for seat in order:
                    for _ in range(min(walls.take, dealt[seat] - sum(self.seats[seat].counts))):
                        self.seats[seat].counts[self.wall.pop()] += 1
                        self.wall_owner.pop()
        self.turns = 0
        self.discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self.answers: dict[int, Action] = {}
        self.claim_options: dict[int, list[Action]] = {}
        self._claimable: dict[tuple[int, int, int], list[int]] = {}  # of this claim window
        # tiles away of each seat's resting hand (between its turns), kept until
        # the hand changes: a seat more than one away cannot win on the next tile
        self.away: list[int | None] = [None] * spec.players
        self.turn_away: int | None = None  # the drawer's, before the draw
        self.asked: list[int] = []
        self.drawn: int | None = None  # the tile the seat to play just drew
        self.claimed_turn = False  # the turn began with a claimed discard, not a draw
        self.claimed_from: int | None = None  # whose discard began this turn
        # the tile a pledged rack may take as its last: the one drawn or claimed
        # this turn, or a discard being judged for a claim; and whose it is
        self.incoming: tuple[int, int] | None = None
        self.ended: str | None = None  # "dead": a seat's dead hands ended the round
        self.promised: list[int] = []  # racks a Mah Jongg claim must now be declared on
        self.declared: list[Mahjong] = []  # Mah Jonggs of this turn, scored when it ends
        self.mahjongs: list[Mahjong] = []  # every Mah Jongg of the round
        self.opening = True
        self.phase_queue: list[Phase] = list(spec.phases)
        self.blind = [0] * spec.players  # tiles each seat forwards unseen in this pass
        self.votes: dict[int, int] = {}
        self.offers: dict[int, int] = {}
        self._next_phase()

    def _next_phase(self) -> None:
        """Start the next pre-play phase, or play."""
        while self.phase_queue:
            phase = self.phase_queue.pop(0)
            self.phase = phase
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
        self.turn = self.dealer
        self.turn_away = None
        self.step = Step.TURN
        if self.spec.turn.opening == "draw":
            self._draw(self.dealer)

    def _partner(self, seat: int, to: Direction) -> int:
        n = self.spec.players
        step = {Direction.RIGHT: 1, Direction.LEFT: -1, Direction.ACROSS: n // 2}[to]
        return (seat + step * self.spec.turn.direction) % n

    def _draw(self, seat: int) -> None:
        self.claimed_turn = False
        self.claimed_from = None
        self.promised = []
        self.turn_away = self._resting_away(seat)
        tile = self.wall.pop()
        if self.wall_owner:
            self.wall_owner.pop()
        self.incoming = (seat, tile)
        me = self.seats[seat]
        pledged = me.pledged
        if pledged is not None and me.mahjongs and \
                self.spec.deck.kinds[tile].category in pledged.forced_off:
            self._go_off(seat)  # SMJ-27: with a Mah Jongg out, this draw ends the pledge
        self.seats[seat].counts[tile] += 1
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
            return self._turn_actions(seat)
        if step is Step.CLAIMS:
            return self._claim_actions(seat)
        if step is Step.PASSING:
            return self._pass_actions(seat)
        if step is Step.VOTING:
            return [Action("vote", number=1), Action("vote", number=0)]
        phase = self.phase
        if isinstance(phase, Courtesy):
            return [Action("offer", number=n) for n in range(phase.most + 1)]
        assert isinstance(phase, Pass)
        return [Action("blind", number=n) for n in range(phase.blind + 1)]

    def _turn_actions(self, seat: int) -> list[Action]:
        me = self.seats[seat]
        actions: list[Action] = []
        may_declare = not self.opening or self.spec.turn.declare_before_opening
        near = self.turn_away is None or self.turn_away <= 1
        if me.dead:  # out of the round, ending the turn with a discard (SMJ-19)
            return [Action("discard", k) for k, n in enumerate(me.counts) if n]
        if self.spec.racks > 1:
            declares = self._rack_declares(seat, may_declare, near)
            if self.promised:  # a Mah Jongg claimed must be declared first
                kept = [a for a in declares if a.number in self.promised and a.claim]
                if kept:
                    return kept
            actions.extend(declares)
            if me.pledged is not None:  # go off the pledge: its tiles rejoin the pool
                actions.append(Action("off"))
        elif may_declare and (self.mode is Mode.STRICT or (near and self._completes(me.hand()))):
            actions.append(Action("declare"))
        actions.extend(self._exchanges(seat))
        actions.extend(Action("discard", k) for k, n in enumerate(me.counts) if n)
        return actions

    def _rack_declares(self, seat: int, may_declare: bool, near: bool) -> list[Action]:
        """One declaration per live rack and line its tiles complete; in strict
        mode also a bare one on a rack that completes nothing (a mistake)."""
        if not may_declare:
            return []
        found: list[Action] = []
        for rack in self.seats[seat].live_racks():
            lines = self._rack_lines(seat, rack) if near else []
            found.extend(Action("declare", number=rack, claim=self.matcher.card.lines[li].id)
                         for li, _ in lines)
            if not lines and self.mode is Mode.STRICT:
                found.append(Action("declare", number=rack))
        return found

    def _rack_lines(self, seat: int, rack: int) -> list[tuple[int, int]]:
        """(line, variation) of every line the pool completes on this rack,
        highest value first, then card order."""
        lines = self.matcher.card.lines
        done = [(li, v) for li, s, v in self._rack_scores(seat, rack) if s == lines[li].size]
        return sorted(done, key=lambda d: (-(lines[d[0]].value or 0), d[0]))

    def _rack_hand(self, seat: int, rack: int) -> Hand:
        """What the rack plays with: the pool and its exposures; a pledged
        rack only its tiles set aside, and the tile just drawn or claimed."""
        me = self.seats[seat]
        if rack != me.pledge:
            return me.hand(rack)
        last = (self.incoming[1],) if self.incoming and self.incoming[0] == seat else ()
        return Hand(tuple(sorted((*me.aside, *last))), ())

    def _rack_scores(self, seat: int, rack: int) -> list[tuple[int, int, int]]:
        """The matcher's scores for the rack, over the lines it may win."""
        found = self.matcher.scores(self._rack_hand(seat, rack), open_hands=self.spec.open_hands)
        allowed = self.allowed_lines(seat, rack)
        return found if allowed is None else [f for f in found if f[0] in allowed]

    def allowed_lines(self, seat: int, rack: int) -> frozenset[int] | None:
        """The lines a rack may win (None: every line): a pledged rack only
        its flag's lines, another rack none of the pledge flags' lines."""
        if not self.pledge_flags:
            return None
        pledged = self.seats[seat].pledged
        flag = pledged.flag if pledged is not None and pledged.rack == rack else ""
        known = self._allowed.get(flag)
        if known is None:
            lines = self.matcher.card.lines
            known = self._allowed[flag] = frozenset(
                li for li, line in enumerate(lines)
                if (flag in line.flags if flag else not self.pledge_flags & set(line.flags)))
        return known

    def _go_off(self, seat: int) -> None:
        """The seat leaves its pledge: the tiles set aside rejoin the pool."""
        me = self.seats[seat]
        for t in me.aside:
            me.counts[t] += 1
        me.aside, me.pledged = [], None
        self.away[seat] = None
        self.turn_away = None

    def _exchanges(self, seat: int) -> list[Action]:
        rule = self.spec.turn.exchange_jokers
        joker = self.joker
        if rule == "none" or joker is None:
            return []
        counts = self.seats[seat].counts
        found = []
        owners = [seat] if rule == "own" else range(self.spec.players)
        for owner in owners:
            for i, exposure in enumerate(self.seats[owner].exposures):
                if exposure.mahjong or exposure.killed or joker not in exposure.tiles:
                    continue
                natural = next((t for t in exposure.tiles if t != joker), None)
                if natural is not None and counts[natural]:
                    found.append(Action("exchange", natural, target=(owner, i)))
        return found

    def _resting_away(self, seat: int) -> int:
        """Tiles away of the seat's nearest live rack, cached until its tiles change."""
        known = self.away[seat]
        if known is None:
            lines = self.matcher.card.lines
            me = self.seats[seat]
            known = len(self.wall) + 99
            for rack in me.live_racks():
                found = self._rack_scores(seat, rack)
                known = min([known] + [lines[li].size - s for li, s, _ in found])
            self.away[seat] = known
        return known

    def _completes(self, hand: Hand) -> bool:
        return self.matcher.is_complete(hand, open_hands=self.spec.open_hands) is not None

    def _set_claims(self, seat: int, tile: int) -> list[Action]:
        """Every exposure the seat could make with the discard, as claims."""
        spec = self.spec
        counts = self.seats[seat].counts
        joker = self.joker
        jokers = counts[joker] if joker is not None else 0
        found: list[Action] = []
        assert self.discard is not None
        after = (self.discard[0] + spec.turn.direction) % spec.players
        for kind in spec.claims.kinds:
            if kind.mahjong or (kind.next_only and seat != after):
                continue
            options: list[tuple[int, ...]] = []
            for size in kind.sizes:
                need = size - 1
                most = min(counts[tile], need)
                least = max(0, need - (jokers if kind.jokers else 0))
                for naturals in range(most, least - 1, -1):
                    options.append((tile,) * naturals + (joker,) * (need - naturals)
                                   if joker is not None else (tile,) * naturals)
            if kind.runs:
                for pair in self._run_partners(tile):
                    if all(counts[t] >= pair.count(t) for t in pair):
                        options.append(pair)
            fits: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], bool] = {}
            for tiles in options:
                for rack in self.seats[seat].live_racks():
                    if rack == self.seats[seat].pledge:
                        continue  # a pledged rack takes no exposure
                    if spec.claims.exposure_must_fit and not self._misfit_offered():
                        # racks with the same exposures (empty ones) fit alike
                        key = (self.seats[seat].hand(rack).exposures, tiles)
                        if key not in fits:
                            fits[key] = self._fits(seat, tile, tiles, rack)
                        if not fits[key]:
                            continue
                    found.append(Action("claim", claim=kind.name, tiles=tiles, number=rack))
        return found

    def _misfit_offered(self) -> bool:
        """Strict mode with a penalty for it offers exposures no line can use."""
        return self.mode is Mode.STRICT and self.spec.penalties.misfit_exposure is not Penalty.NONE

    def _run_partners(self, tile: int) -> list[tuple[int, int]]:
        deck = self.spec.deck
        kind = deck.kinds[tile]
        suit = next((s for s in deck.suits if s.code == kind.suit), None)
        if suit is None or not suit.ordered or kind.number is None:
            return []
        n = kind.number
        out = []
        for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
            ka, kb = deck.suited(suit.code, a), deck.suited(suit.code, b)
            if ka is not None and kb is not None:
                out.append((ka.index, kb.index))
        return out

    def _exposed_hand(self, seat: int, tile: int, tiles: tuple[int, ...], rack: int = 0) -> Hand:
        """The seat's hand on `rack` once `tile` is claimed and exposed there with `tiles`."""
        hand = self._rack_hand(seat, rack)
        concealed = list(hand.concealed)
        for t in tiles:
            concealed.remove(t)
        return Hand(tuple(concealed), hand.exposures + (tuple(sorted((tile, *tiles))),))

    def _fits(self, seat: int, tile: int, tiles: tuple[int, ...], rack: int = 0) -> bool:
        """Whether some line can still use the rack once this set is exposed on it."""
        return bool(self.matcher.scores(self._exposed_hand(seat, tile, tiles, rack),
                                        open_hands=self.spec.open_hands))

    def _claim_actions(self, seat: int) -> list[Action]:
        known = self.claim_options.get(seat)
        if known is None:
            known = self.claim_options[seat] = self._find_claims(seat)
        return known

    def _find_claims(self, seat: int) -> list[Action]:
        assert self.discard is not None
        tile = self.discard[1]
        actions = [Action("pass")]
        for kind in self.spec.claims.kinds:
            if kind.mahjong and (self.mode is Mode.STRICT or
                                 self._wins_with(seat, tile, kind.mahjongs)):
                actions.append(Action("claim", claim=kind.name))
        sets = self._set_claims(seat, tile)
        actions.extend(sets)
        if self.mode is Mode.STRICT:  # a claim the hand cannot make
            made = {a.claim for a in sets}
            actions.extend(Action("claim", claim=k.name) for k in self.spec.claims.kinds
                           if not k.mahjong and k.name not in made)
        return actions

    def _wins_with(self, seat: int, tile: int, mahjongs: int = 1) -> bool:
        """Whether the discard completes the hand (with several racks: the
        racks it completes, `mahjongs` of them at once)."""
        if self._resting_away(seat) > 1:
            return False
        me = self.seats[seat]
        if self.spec.racks == 1:
            me.counts[tile] += 1
            try:
                return self._completes(me.hand())
            finally:
                me.counts[tile] -= 1
        return bool(self._claimable_racks(seat, tile, mahjongs))

    def wins_with(self, seat: int, tile: int, kind: ClaimKind) -> bool:
        """Whether a Mah Jongg claim of this kind on the discard would be true."""
        return kind.mahjong and self._wins_with(seat, tile, kind.mahjongs)

    def _claimable_racks(self, seat: int, tile: int, mahjongs: int) -> list[int]:
        """The live racks complete once the discard joins the pool, when with
        it the pool completes `mahjongs` of them at once and without it does
        not (a Mah Jongg claim needs the tile); else none. Kept for the claim
        window: nothing changes while its answers are gathered."""
        key = (seat, tile, mahjongs)
        known = self._claimable.get(key)
        if known is None:
            known = self._claimable[key] = self._find_claimable(seat, tile, mahjongs)
        return known

    def _find_claimable(self, seat: int, tile: int, mahjongs: int) -> list[int]:
        me = self.seats[seat]
        live = me.live_racks()
        incoming, self.incoming = self.incoming, None
        try:
            if self._together(seat, live, mahjongs):
                return []
            me.counts[tile] += 1
            self.incoming = (seat, tile)  # a pledged rack's last tile may be this one
            try:
                if not self._together(seat, live, mahjongs):
                    return []
                return [r for r in live if self._rack_lines(seat, r)]
            finally:
                me.counts[tile] -= 1
        finally:
            self.incoming = incoming

    def _together(self, seat: int, racks: list[int], mahjongs: int) -> bool:
        """Whether the pool completes `mahjongs` of these racks at once: each
        rack's lines are tried in turn, the rest of the pool going on to the next."""
        if mahjongs == 0:
            return True
        me = self.seats[seat]
        for rack in racks:
            for li, variation in self._rack_lines(seat, rack):
                used = self._taken(seat, rack, li, variation)
                for t in used:
                    me.counts[t] -= 1
                try:
                    rest = [r for r in racks if r != rack]
                    if self._together(seat, rest, mahjongs - 1):
                        return True
                finally:
                    for t in used:
                        me.counts[t] += 1
        return False

    def _filling(self, seat: int, rack: int, li: int, variation: int) -> list[int]:
        """The concealed tiles a line takes on this rack: those the declared
        Mah Jongg exposes (a pledged rack's include its tiles set aside)."""
        line = self.matcher.card.lines[li]
        return pool_tiles(self.spec.deck,
                          self.matcher.explain(self._rack_hand(seat, rack), line, variation))

    def _taken(self, seat: int, rack: int, li: int, variation: int) -> list[int]:
        """The tiles a line on this rack takes from the pool: its filling; a
        pledged rack's other tiles are set aside, so only its last one."""
        if rack == self.seats[seat].pledge:
            return [self.incoming[1]] if self.incoming else []
        return self._filling(seat, rack, li, variation)

    def declaration_takes(self, seat: int, rack: int, line_id: str) -> list[int]:
        """The pool tiles declaring this rack with this line would take (none
        when the rack does not complete the line)."""
        lines = self.matcher.card.lines
        return next((self._taken(seat, rack, li, v) for li, v in self._rack_lines(seat, rack)
                     if lines[li].id == line_id), [])

    def _exposure_wins(self, seat: int, tile: int, tiles: tuple[int, ...], rack: int = 0
                       ) -> bool:
        """Whether claiming `tile` for this set completes the seat's hand (rack)."""
        if self._resting_away(seat) > 1:
            return False
        hand = self._exposed_hand(seat, tile, tiles, rack)
        if self.spec.racks == 1:
            return self._completes(hand)
        lines = self.matcher.card.lines
        return any(s == lines[li].size for li, s, _ in
                   self.matcher.scores(hand, open_hands=self.spec.open_hands))

    def _pass_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        counts = self.seats[seat].counts
        if isinstance(phase, Pledge):  # any tile may be set aside
            return [Action("pass", k) for k, n in enumerate(counts) if n]
        assert isinstance(phase, Pass | Courtesy)
        return [Action("pass", k) for k, n in enumerate(counts)
                if n and (phase.jokers or k != self.joker)]

    # -- moving on ----------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action; IllegalAction (state unchanged) if not allowed."""
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

    def _votes_counted(self) -> None:
        """Every seat has answered: a pledge's pledgers set tiles aside; a
        vote that says yes queues its phases."""
        phase = self.phase
        if isinstance(phase, Pledge):
            self._pledges_made(phase)
            return
        assert isinstance(phase, Vote)
        yes = sum(self.votes.values())
        if yes > 0 if phase.rule == "any-yes" else yes == len(self.votes):
            self.phase_queue[:0] = list(phase.phases)
        self._next_phase()

    def _pledges_made(self, phase: Pledge) -> None:
        """Every seat has said whether it pledges: the pledging seats choose
        the tiles they set aside, one at a time."""
        for seat, yes in self.votes.items():
            if yes:
                self.seats[seat].pledged = phase
        self.pass_count = [phase.count if self.votes[s] else 0 for s in range(self.spec.players)]
        self.step = Step.PASSING
        if not self.current_players():
            self._next_phase()

    def _counts_agreed(self) -> None:
        """Every seat has said how many: the tiles each now chooses from hand.
        Courtesy: the smaller of two partners' offers. Blind pass: a seat
        forwards unseen only tiles its neighbour passed from hand, so its
        blind count is capped by what that neighbour chose from hand."""
        phase = self.phase
        n = self.spec.players
        offers = self.offers
        if isinstance(phase, Courtesy):
            self.pass_count = [min(offers[s], offers[self._partner(s, phase.to)])
                               for s in range(n)]
        else:
            assert isinstance(phase, Pass)
            source = {self._partner(s, phase.to): s for s in range(n)}
            self.blind = [min(offers[s], phase.count - offers[source[s]]) for s in range(n)]
            self.pass_count = [phase.count - self.blind[s] for s in range(n)]
        self.step = Step.PASSING
        if not self.current_players():
            self._hand_over()

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

    def _discard(self, seat: int, tile: int) -> None:
        self._score_declared(winning=False)
        self.incoming = None
        me = self.seats[seat]
        me.counts[tile] -= 1
        me.discards.append(tile)
        self.away[seat] = None
        self.turns += 1
        self.opening = False
        self.drawn = None
        self.discard = (seat, tile)
        self.answers = {}
        self.claim_options = {}
        self._claimable = {}
        claims = self.spec.claims
        if not claims.kinds or (tile == self.joker and not claims.jokers):
            self.asked = []
        else:
            others = [(seat + i * self.spec.turn.direction) % self.spec.players
                      for i in range(1, self.spec.players)]
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
            state = self.seats[seat]
            if state.dead:
                continue
            if state.skips:
                state.skips -= 1
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
        claims = self.spec.claims
        valid: list[tuple[int, int, Action]] = []
        for seat in self.asked:
            action = self.answers[seat]
            if action.verb != "claim":
                continue
            kind = claims.kind(action.claim)
            ok = self._wins_with(seat, tile, kind.mahjongs) if kind.mahjong else bool(action.tiles)
            if ok:
                distance = (seat - discarder) * self.spec.turn.direction % self.spec.players
                rank = claims.rank(kind.name)
                if not kind.mahjong and self._exposure_wins(seat, tile, action.tiles,
                                                            action.number):
                    # whoever needs the tile to win comes first, however the claim is worded
                    rank = min([rank] + [claims.rank(k.name) for k in claims.kinds if k.mahjong])
                valid.append((rank, distance, action))
                continue
            self._penalise(seat, self.spec.penalties.false_claim, action.number
                           if action.tiles else None)
        if self.ended:
            self._end_round(None, None, False)
            return
        if not valid:
            self._next_turn(discarder)
            return
        best = min(r for r, _, _ in valid)
        top = [(d, a) for r, d, a in valid if r == best]
        if claims.ties == "random" and len(top) > 1:
            top = [derived_rng(self.seed, "ties", self.round, self.turns).choice(top)]
        distance, action = min(top, key=lambda t: t[0])
        seat = (discarder + distance * self.spec.turn.direction) % self.spec.players
        self._take(seat, tile, action)

    def _take(self, seat: int, tile: int, action: Action) -> None:
        """The claimer takes the discard: Mah Jongg, or a set exposed and locked."""
        assert self.discard is not None
        discarder = self.discard[0]
        self.seats[discarder].discards.pop()
        me = self.seats[seat]
        kind = self.spec.claims.kind(action.claim)
        if self.spec.racks > 1 and kind.mahjong:  # the racks this claim must be declared on
            self.promised = self._claimable_racks(seat, tile, kind.mahjongs)
        me.counts[tile] += 1
        self.turn = seat
        self.turn_away = None
        self.drawn = None
        self.claimed_turn = True  # a win on this turn is not self-drawn
        self.claimed_from = discarder
        self.incoming = (seat, tile)
        self.away[seat] = None
        if not kind.mahjong:  # the claimed tile is on the rack before anything is exposed
            for t in (tile, *action.tiles):
                me.counts[t] -= 1
            rack = action.number
            exposure = Exposure(tuple(sorted((tile, *action.tiles))), tile, rack)
            me.exposures.append(exposure)
            if self.spec.racks > 1 and not self._rack_fits(seat, rack):
                # SMJ-11: exposures no line can use kill their rack's hand
                me.exposures[-1] = Exposure(exposure.tiles, tile, rack, killed=True)
                self._penalise(seat, self.spec.penalties.misfit_exposure, rack)
        self.discard = None
        self.step = Step.TURN
        if self.spec.racks == 1 and self._completes(me.hand()):
            self._end_round(seat, discarder, False)  # a claim completing the hand ends it
        else:
            self._after_death(seat)

    def _rack_fits(self, seat: int, rack: int) -> bool:
        """Whether the rack's exposures and the pool can still make a line."""
        return bool(self._rack_scores(seat, rack))

    def _penalise(self, seat: int, penalty: Penalty, rack: int | None = None) -> None:
        """Apply a mistake's penalty. A dead hand with several racks is the
        rack the mistake was made on (every live rack when none is named)."""
        me = self.seats[seat]
        if penalty is Penalty.SKIP_TURN:
            me.skips += 1
        elif penalty is Penalty.DEAD_HAND:
            for r in (me.live_racks() if rack is None else [rack]):
                me.rack_dead[r] = True
            self.away[seat] = None
            if me.live_racks():
                return
            me.dead = True  # no hand left to play: out of the round
            if all(me.rack_dead):  # every hand dead (SMJ-20)
                self._all_dead(seat)

    def _all_dead(self, seat: int) -> None:
        lines = self.matcher.card.lines
        exposed = [m.value for m in self.mahjongs if m.seat != seat]
        facts = {"exposed_value": max(exposed, default=0),
                 "lowest_value": min((line.value or 0 for line in lines), default=0),
                 "players": self.spec.players, "round": self.round, "racks": self.spec.racks}
        self._apply(settle_dead(self.spec, self.round, seat, facts, self.scores))
        if self.spec.penalties.all_dead == "end-round":
            self.ended = "dead"

    def _declare(self, seat: int, action: Action) -> None:
        if self.spec.racks > 1:
            self._declare_rack(seat, action)
            return
        if self._completes(self.seats[seat].hand()):
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
        lines = self.matcher.card.lines
        found = [(li, v) for li, v in self._rack_lines(seat, rack) if lines[li].id == action.claim]
        if not found:  # SMJ-19: a wrong Mah Jongg kills that rack's hand
            self._penalise(seat, self.spec.penalties.false_declare, rack)
            self._after_death(seat)
            return
        li, variation = found[0]
        used = self._filling(seat, rack, li, variation)
        for t in self._taken(seat, rack, li, variation):
            me.counts[t] -= 1
        if rack == me.pledge:  # the pledge is kept: its tiles set aside are exposed too
            me.aside, me.pledged = [], None
        before = [e for e in me.exposures if e.rack == rack]
        me.exposures = [Exposure(e.tiles, e.claimed, e.rack, mahjong=True)
                        if e.rack == rack else e for e in me.exposures]
        me.exposures.append(Exposure(tuple(sorted(used)), -1, rack, mahjong=True))
        tiles = [*used, *(t for e in before for t in e.tiles)]
        self.declared.append(self._mahjong(seat, rack, lines[li], tiles, not before))
        self.promised = [r for r in self.promised if r != rack]
        self.away[seat] = None
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
        joker = self.joker
        held = tuple((f"held_{tag.replace('-', '_')}",
                      sum(1 for t in tiles if tag in deck.kinds[t].tags)) for tag in deck.tags)
        facts = Facts(self_drawn=not self.claimed_turn, jokerless=joker not in tiles,
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
            self._apply(settle(self.spec, self._round_end(mahjong.seat, self.claimed_from),
                               mahjong.facts, self.scores, winning=winning, together=together,
                               payments=self.spec.scoring.mahjong))
        self.mahjongs.extend(self.declared)
        self.declared = []

    def _apply(self, events: list[ScoreEvent]) -> None:
        for event in events:
            if event.payer != BANK:
                self.scores[event.payer] -= event.amount
            if event.payee != BANK:
                self.scores[event.payee] += event.amount
        self.events.extend(events)

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
            self.away[owner] = None

    def _hand_over(self) -> None:
        """Every seat has chosen: the passed tiles reach their partners; a
        blind passer forwards, unseen, the first tiles its neighbour chose."""
        phase = self.phase
        if isinstance(phase, Pledge):  # the tiles chosen stay on the seat's pledged rack
            for me in self.seats:
                me.aside, me.outgoing = me.outgoing, []
            self.away = [None] * self.spec.players
            self._next_phase()
            return
        assert isinstance(phase, Pass | Courtesy)
        n = self.spec.players
        source = {self._partner(s, phase.to): s for s in range(n)}
        chosen = [s.outgoing for s in self.seats]
        forwarded = [chosen[source[s]][:self.blind[s]] for s in range(n)]
        for seat in range(n):
            partner = self._partner(seat, phase.to)
            kept = chosen[seat][self.blind[partner]:]  # the partner forwards the rest
            for t in kept + forwarded[seat]:
                self.seats[partner].counts[t] += 1
        for s in self.seats:
            s.outgoing = []
        self.away = [None] * self.spec.players
        self._next_phase()

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
            self.declared.append(self._mahjong(winner, 0, match.line, tiles, not me.exposures))
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
            self._apply(settle(spec, end, facts, self.scores, together=together))
        elif not self.mahjongs and self.ended is None:
            self._apply(settle(spec, end, None, self.scores))
        self.results.append(end)
        self.round += 1
        if spec.match.dealer_passes == "always" or winner != self.dealer:
            self.dealer = (self.dealer + spec.match.dealer_direction) % spec.players
        over = spec.match.end({"rounds": self.round, "players": spec.players,
                               "lowest": min(self.scores), "highest": max(self.scores)})
        if over:
            self.step = Step.OVER
            self.discard = None
            return
        self._deal()

    def _round_end(self, winner: int | None, discarder: int | None, self_drawn: bool = False,
                   line: str | None = None, shown: tuple[tuple[str, ...], ...] = ()
                   ) -> RoundEnd:
        return RoundEnd(self.round, winner, discarder, self_drawn, line, self.dealer,
                        self.turns, shown, tuple(m.public() for m in self.mahjongs),
                        self.ended or ("won" if winner is not None else "wall"))

    # -- what a seat sees ---------------------------------------------------

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
        """What `seat` may see now: its own concealed tiles, everything public,
        and of other seats only how many tiles they hold."""
        deck = self.spec.deck
        every = self.spec.options.get("visibility") == "all"
        view: dict[str, Any] = {
            "seat": seat, "round": self.round, "dealer": self.dealer, "step": str(self.step),
            "scores": list(self.scores), "wall": len(self.wall),
            "hand": deck.codes(self.seats[seat].concealed()),
            "passing": deck.codes(self.seats[seat].outgoing),
            **({"aside": deck.codes(sorted(self.seats[seat].aside))} if self.pledge_flags else {}),
            "blind": self.blind[seat] if self.step is Step.PASSING else 0,
            "turn": self.turn if self.step is Step.TURN else None,
            "discard": (None if self.discard is None else
                        [self.discard[0], deck.code(self.discard[1])]),
            "deciding": seat in self.current_players(),
            "seats": [{
                "concealed": s.in_hand,
                "exposures": [deck.codes(e.tiles) for e in s.exposures],
                "discards": deck.codes(s.discards), "dead": s.dead, "skips": s.skips,
                **({"hand": deck.codes(s.concealed())} if every else {}),
                **({"racks": [{"exposures": [deck.codes(e.tiles) for e in s.exposures
                                             if e.rack == r and not e.mahjong],
                               "mahjong": [t for e in s.exposures if e.rack == r and e.mahjong
                                           for t in deck.codes(e.tiles)],
                               "dead": dead, "pledged": r == s.pledge}
                              for r, dead in enumerate(s.rack_dead)]}
                   if self.spec.racks > 1 else {}),
            } for s in self.seats],
            "results": [r.public() for r in self.results],
        }
        if self.step is Step.TURN and self.turn == seat and self.drawn is not None:
            view["drawn"] = deck.code(self.drawn)
        if self.wall_owner:  # walls built on the table: the die, and whose wall is drawn
            view["die"], view["wall_of"] = self.die, self.wall_owner[-1]
        return view

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
                "events": [e.public() for e in self.events]}
        return hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()[:16]
