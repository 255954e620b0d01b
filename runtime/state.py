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
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from .actions import Action
from .card import Card
from .hand import Hand
from .scoring import BANK, Facts, RoundEnd, ScoreEvent, settle
from .spec import Courtesy, Direction, GameSpec, Pass, Penalty, Phase, Vote


class Judge(Protocol):
    """What a game asks of a matcher (the compiled one, or the reference)."""

    card: Card

    def scores(self, hand: Hand, *, open_hands: bool = False) -> list[tuple[int, int, int]]: ...

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


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message lists those they do."""


@dataclass(frozen=True, slots=True)
class Exposure:
    tiles: tuple[int, ...]
    claimed: int  # the claimed tile, or -1
    rack: int = 0
    mahjong: bool = False  # a declared hand: its jokers stay


@dataclass
class Seat:
    counts: list[int]  # concealed tiles by kind
    exposures: list[Exposure] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    dead: bool = False
    skips: int = 0
    outgoing: list[int] = field(default_factory=list)  # tiles chosen for a pass

    def concealed(self) -> tuple[int, ...]:
        return tuple(k for k, n in enumerate(self.counts) for _ in range(n))

    def hand(self) -> Hand:
        return Hand(self.concealed(), tuple(e.tiles for e in self.exposures))

    @property
    def held(self) -> int:
        """Concealed and exposed tiles (not those chosen for a pass)."""
        return sum(self.counts) + sum(len(e.tiles) for e in self.exposures)

    @property
    def in_hand(self) -> int:
        """Concealed tiles, those chosen for a pass included."""
        return sum(self.counts) + len(self.outgoing)


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
        self.seats = [Seat([0] * kinds) for _ in range(spec.players)]
        for offset in range(spec.players):
            seat = (self.dealer + offset) % spec.players
            for _ in range(spec.deal + (spec.dealer_extra if offset == 0 else 0)):
                self.seats[seat].counts[self.wall.pop()] += 1
        self.turns = 0
        self.discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self.answers: dict[int, Action] = {}
        self.claim_options: dict[int, list[Action]] = {}
        # tiles away of each seat's resting hand (between its turns), kept until
        # the hand changes: a seat more than one away cannot win on the next tile
        self.away: list[int | None] = [None] * spec.players
        self.turn_away: int | None = None  # the drawer's, before the draw
        self.asked: list[int] = []
        self.drawn: int | None = None  # the tile the seat to play just drew
        self.claimed_turn = False  # the turn began with a claimed discard, not a draw
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
            if isinstance(phase, Vote):
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
        self.turn_away = self._resting_away(seat)
        tile = self.wall.pop()
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
        if may_declare and (self.mode is Mode.STRICT or (near and self._completes(me.hand()))):
            actions.append(Action("declare"))
        actions.extend(self._exchanges(seat))
        actions.extend(Action("discard", k) for k, n in enumerate(me.counts) if n)
        return actions

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
                if exposure.mahjong or joker not in exposure.tiles:
                    continue
                natural = next((t for t in exposure.tiles if t != joker), None)
                if natural is not None and counts[natural]:
                    found.append(Action("exchange", natural, target=(owner, i)))
        return found

    def _resting_away(self, seat: int) -> int:
        known = self.away[seat]
        if known is None:
            lines = self.matcher.card.lines
            found = self.matcher.scores(self.seats[seat].hand(), open_hands=self.spec.open_hands)
            known = min((lines[li].size - s for li, s, _ in found), default=len(self.wall) + 99)
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
            for tiles in options:
                if spec.claims.exposure_must_fit and not self._fits(seat, tile, tiles):
                    continue
                found.append(Action("claim", claim=kind.name, tiles=tiles))
        return found

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

    def _exposed_hand(self, seat: int, tile: int, tiles: tuple[int, ...]) -> Hand:
        """The seat's hand once `tile` is claimed and exposed with `tiles`."""
        me = self.seats[seat]
        counts = list(me.counts)
        for t in tiles:
            counts[t] -= 1
        concealed = tuple(k for k, n in enumerate(counts) for _ in range(n))
        exposed = tuple(e.tiles for e in me.exposures) + (tuple(sorted((tile, *tiles))),)
        return Hand(concealed, exposed)

    def _fits(self, seat: int, tile: int, tiles: tuple[int, ...]) -> bool:
        """Whether some line can still use the hand once this set is exposed."""
        return bool(self.matcher.scores(self._exposed_hand(seat, tile, tiles),
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
        mahjong = [k for k in self.spec.claims.kinds if k.mahjong]
        wins = bool(mahjong) and self._wins_with(seat, tile)
        for kind in mahjong:
            if wins or self.mode is Mode.STRICT:
                actions.append(Action("claim", claim=kind.name))
        sets = self._set_claims(seat, tile)
        actions.extend(sets)
        if self.mode is Mode.STRICT:  # a claim the hand cannot make
            made = {a.claim for a in sets}
            actions.extend(Action("claim", claim=k.name) for k in self.spec.claims.kinds
                           if not k.mahjong and k.name not in made)
        return actions

    def _wins_with(self, seat: int, tile: int) -> bool:
        if self._resting_away(seat) > 1:
            return False
        me = self.seats[seat]
        me.counts[tile] += 1
        try:
            return self._completes(me.hand())
        finally:
            me.counts[tile] -= 1

    def _exposure_wins(self, seat: int, tile: int, tiles: tuple[int, ...]) -> bool:
        """Whether claiming `tile` for this set completes the seat's hand."""
        return self._resting_away(seat) <= 1 and \
            self._completes(self._exposed_hand(seat, tile, tiles))

    def _pass_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        assert isinstance(phase, Pass | Courtesy)
        counts = self.seats[seat].counts
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
                self._declare(seat)
            elif verb == "exchange":
                self._exchange(seat, action)
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
                assert isinstance(self.phase, Vote)
                yes = sum(self.votes.values())
                go = yes > 0 if self.phase.rule == "any-yes" else yes == len(self.votes)
                if go:
                    self.phase_queue[:0] = list(self.phase.phases)
                self._next_phase()
        elif self.step is Step.OFFERING:
            self.offers[seat] = action.number
            if not self.current_players():
                self._counts_agreed()

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
        else:
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
            ok = self._wins_with(seat, tile) if kind.mahjong else bool(action.tiles)
            if ok:
                distance = (seat - discarder) * self.spec.turn.direction % self.spec.players
                rank = claims.rank(kind.name)
                if not kind.mahjong and self._exposure_wins(seat, tile, action.tiles):
                    # whoever needs the tile to win comes first, however the claim is worded
                    rank = min([rank] + [claims.rank(k.name) for k in claims.kinds if k.mahjong])
                valid.append((rank, distance, action))
                continue
            self._penalise(seat, self.spec.penalties.false_claim)
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
        me.counts[tile] += 1
        self.turn = seat
        self.turn_away = None
        self.drawn = None
        self.claimed_turn = True  # a win on this turn is not self-drawn
        if not self.spec.claims.kind(action.claim).mahjong:
            for t in (tile, *action.tiles):
                me.counts[t] -= 1
            me.exposures.append(Exposure(tuple(sorted((tile, *action.tiles))), tile))
        if self._completes(me.hand()):  # a claim that completes the hand ends it at once
            self._end_round(seat, discarder, False)
            return
        self.discard = None
        self.step = Step.TURN

    def _penalise(self, seat: int, penalty: Penalty) -> None:
        if penalty is Penalty.SKIP_TURN:
            self.seats[seat].skips += 1
        elif penalty is Penalty.DEAD_HAND:
            self.seats[seat].dead = True

    def _declare(self, seat: int) -> None:
        if self._completes(self.seats[seat].hand()):
            # self-drawn unless the turn began with a claim (the dealt hand counts as drawn)
            self._end_round(seat, None, not self.claimed_turn)
            return
        self._penalise(seat, self.spec.penalties.false_declare)
        if self.seats[seat].dead:  # out of the round: play goes on without them
            self._next_turn(seat)

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
        spec = self.spec
        assert spec.match is not None
        line = None
        facts = None
        shown: tuple[tuple[str, ...], ...] = ()
        if winner is not None:
            me = self.seats[winner]
            match = self.matcher.is_complete(me.hand(), open_hands=spec.open_hands)
            assert match is not None
            line = match.line
            jokerless = self.joker is None or (
                me.counts[self.joker] == 0 and all(self.joker not in e.tiles
                                                   for e in me.exposures))
            deck = spec.deck
            tiles = [*me.concealed(), *(t for e in me.exposures for t in e.tiles)]
            held = tuple((f"held_{tag.replace('-', '_')}",
                          sum(1 for t in tiles if tag in deck.kinds[t].tags)) for tag in deck.tags)
            facts = Facts(self_drawn=self_drawn, jokerless=jokerless, value=line.value or 0,
                          concealed=not me.exposures, exposures=len(me.exposures), held=held)
            shown = tuple(tuple(deck.codes(e.tiles)) for e in me.exposures) + \
                (tuple(deck.codes(me.concealed())),)
            me.exposures = [*me.exposures, Exposure(me.concealed(), -1, mahjong=True)]
            me.counts = [0] * len(me.counts)
        end = RoundEnd(self.round, winner, discarder, self_drawn, line.id if line else None,
                       self.dealer, self.turns, shown)
        events = settle(spec, end, facts, self.scores)
        for event in events:
            if event.payer != BANK:
                self.scores[event.payer] -= event.amount
            self.scores[event.payee] += event.amount
        self.events.extend(events)
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

    # -- what a seat sees ---------------------------------------------------

    def winners(self) -> list[int]:
        """The seats with the highest score (ties share: match.ties)."""
        top = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == top]

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
            } for s in self.seats],
            "results": [r.public() for r in self.results],
        }
        if self.step is Step.TURN and self.turn == seat and self.drawn is not None:
            view["drawn"] = deck.code(self.drawn)
        return view

    def digest(self) -> str:
        """A fingerprint of the whole state, hidden parts included."""
        full = {"scores": self.scores, "round": self.round, "dealer": self.dealer,
                "step": str(self.step), "wall": self.wall,
                "seats": [[s.counts, [e.tiles for e in s.exposures], s.discards, s.dead,
                           s.skips] for s in self.seats],
                "events": [e.public() for e in self.events]}
        return hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()[:16]
