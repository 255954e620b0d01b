"""The expert agent: plays for the line it is likeliest to complete, weighed
by what it pays, from the tiles it has not seen and the draws left.

Every decision reads the hand's prospects (runtime/agents/outlook.py for the
card's concrete lines, shapes.py for lines of free groups): the chance of
completing each line before the wall ends, times its value. A hand is worth
its best line plus a share of the next ones (keeping options open). Then:

- a discard (or a tile passed in a Charleston) is the one whose loss costs
  the least worth; far from winning, a tile an opponent's exposures show
  they need costs more (defence);
- a claim is made when the hand with the set exposed (and its best discard
  after) is worth more than without it; Mah Jongg is always claimed and
  declared, and only when true (strict mode offers false ones);
- a joker is taken from an exposure when the hand is worth no less for it;
- the Charleston: a second one is voted for when the hand is far; tiles go
  blind when fewer than a pass are worthless to the hand; a courtesy pass
  offers the worthless ones.

With several racks (Siamese) it plays the rack plan (runtime/agents/racks.py).
Nothing here knows a variant: only the rules, the card and the deck.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from jongg.runtime.agents.odds import Odds, odds
from jongg.runtime.agents.outlook import CardTable, Prospects, Seated, fits, seat, worth
from jongg.runtime.agents.payoff import CommittedLine, committed_line, priced_table, win_pays
from jongg.runtime.agents.racks import RackPlayer
from jongg.runtime.agents.scored import scored_choice
from jongg.runtime.agents.shapes import Shapes
from jongg.runtime.agents.unseen import Unseen
from jongg.runtime.game.actions import Action
from jongg.runtime.game.chance import derived_rng
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.spec import Courtesy, Pledge, Vote
from jongg.runtime.game.view import Observation
from jongg.runtime.hand import Hand
from jongg.runtime.memo import Memo

OPTIONS = 0.3  # the worth of the second and third lines, beside the best
CLAIM_GAIN = 1.02  # a claim must make the hand worth this much more
FAR = 0.12  # below this chance of its best line the hand is far (defence, votes)
DEFENCE = 1.0  # far from winning: worth given up to keep a needed tile from an opponent
WORTHLESS = 0.03  # a tile whose loss costs less than this share of the worth
EPSILON = 1e-9
WANTED = 0  # a discard is weighed for a claim when a variation this near needs it


@dataclass(frozen=True)
class Style:
    """How the expert weighs a hand: the constants above, as one expert plays
    them (a search weighs the choices of experts of other styles)."""

    options: float = OPTIONS
    claim_gain: float = CLAIM_GAIN
    far: float = FAR
    defence: float = DEFENCE


# the styles a search may weigh beside the usual one, in the order it takes them:
# the best line alone; more lines kept open; defence from further out, and dearer
STYLES = {"usual": Style(), "focused": Style(options=0.0), "open": Style(options=0.6),
          "wary": Style(far=0.25, defence=3.0)}


class Reading:
    """What one observation says about the seat's own hand."""

    def __init__(self, agent: ExpertAgent, seen: Observation,
                 hand: Hand | None = None, counts: np.ndarray | None = None,
                 jokers: int | None = None):
        rules = seen.rules
        self.seen = seen
        live = sum(not s.dead for s in seen.seats) or 1
        self.draws = seen.wall / live
        self.odds: Odds = agent.odds(seen, self.draws)
        self.hand = agent.held(seen) if hand is None else hand
        self.seated = agent.seated(seen, self.hand.exposures)
        if counts is None:
            counts = np.array(seen.me.counts, dtype=np.int16)
            jokers = 0
            if rules.joker is not None:
                jokers = int(counts[rules.joker])
                counts[rules.joker] = 0
        self.counts = counts
        self.jokers = jokers or 0
        # no joker among the exposures: the hand may still win jokerless
        self.bare = rules.joker is None or all(rules.joker not in e for e in self.hand.exposures)
        self.prospects = Prospects(agent.table, self.seated, self.odds, counts, self.jokers,
                                   jokerless=self.bare)
        # the hand may still win jokerless on a line that pays more for it
        self.premium = self.prospects.premium or (agent.shapes.premium and self.bare)
        # worths already weighed on this reading (a count and the pass after it ask alike)
        self.weighed: dict[tuple[int, ...], np.ndarray] = {}
        self.now: float | None = None

    def best_chance(self) -> float:
        chance = self.prospects.chance
        return float(chance.max()) if len(chance) else 0.0


def _spare(p: Prospects, counts: tuple[int, ...], tiles: list[int]) -> set[int]:
    """The tiles of these whose loss no variation weighed would feel: every
    one holds more copies than it has slots for."""
    at = np.asarray(tiles, dtype=np.int64)
    if not len(p.rows) or not len(at):
        return set()
    slots = (p.need[:, at] + p.wild[:, at]).max(axis=0)
    held = np.asarray(counts)[at]
    return {t for t, free in zip(tiles, (held > slots).tolist(), strict=True) if free}


class ExpertAgent:
    """Plays by the odds of completing each line before the wall ends,
    weighed by value (see the module's doc)."""

    name = "expert"

    def __init__(self, seed: int, seat: int, line: str | None = None, style: Style = Style()):
        self.rng = derived_rng(seed, "agent", seat)
        self.line = line  # committed to this line of the card from the deal: it aims for no other
        self.style = style
        self.unseen = Unseen()  # the tiles not seen, kept from one decision to the next
        # several racks: the plan, discarding by the odds
        self.racks = RackPlayer(seed, seat, self.unseen)
        self._table: CardTable | None = None
        self._shapes: Shapes | None = None
        self._seated: Memo[tuple[tuple[int, ...], ...], Seated] = Memo(2_000)
        self._odds: Memo[tuple[tuple[int, ...], float], Odds] = Memo(64)
        # the hand after this seat's last discard, and the prospects it was chosen by
        self._last: tuple[Hand, Prospects] | None = None
        self._plan: list[int] = []  # the tiles still to pass in this Charleston pass
        self._reading: tuple[object, Reading] | None = None
        self._dangers: Memo[tuple[tuple[tuple[int, ...], ...], ...], np.ndarray | None] = \
            Memo(256)
        self._danger_seen: tuple[Observation, np.ndarray | None] | None = None
        self._held: tuple[Observation, Hand] | None = None

    # -- what the card gives --------------------------------------------------------

    @property
    def table(self) -> CardTable:
        assert self._table is not None
        return self._table

    @property
    def shapes(self) -> Shapes:
        assert self._shapes is not None
        return self._shapes

    def _read(self, seen: Observation) -> Reading:
        """The reading of this observation (the last one is kept: a vote, a
        count and the pass after it read the same hand)."""
        self._learn(seen.rules)
        key = (seen.me.counts, seen.me.exposures, self.unseen.of(seen), seen.wall)
        if self._reading is None or self._reading[0] != key:
            self._reading = (key, Reading(self, seen))
        return self._reading[1]

    def held(self, seen: Observation) -> Hand:
        """The seat's hand (kept for the decision: several steps ask it)."""
        if self._held is None or self._held[0] is not seen:
            self._held = (seen, seen.me.hand())
        return self._held[1]

    def seated(self, seen: Observation, exposures: tuple[tuple[int, ...], ...]) -> Seated:
        rules = seen.rules
        return self._seated.get(exposures, lambda: seat(self.table, exposures, rules.joker,
                                                        rules.spec.open_hands))

    # -- deciding -----------------------------------------------------------------

    def _learn(self, rules: Rules) -> None:
        """The card's table and its lines of free groups, priced by the rules."""
        if self._table is None:
            self._table = priced_table(rules)
            structural = self._table.structural
            if self.line is not None:  # every other line is worth nothing to it
                li = committed_line(rules, self.line)
                table = self._table
                structural = tuple(s for s in structural if s == li)
                self._table = replace(table, value=np.where(table.line == li, table.value, 0.0),
                                      bare=np.where(table.line == li, table.bare, 0.0),
                                      structural=structural)
            self._shapes = Shapes(self._table, {li: win_pays(rules.spec, rules.lines[li],
                                                             not rules.lines[li].jokers)
                                                for li in structural},
                                  {li: win_pays(rules.spec, rules.lines[li], True)
                                   for li in structural})

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        return scored_choice(seen, legal, self._act)  # a scored game read as such

    def _act(self, seen: Observation, legal: list[Action]) -> Action:
        rules = seen.rules
        self._learn(rules)
        if rules.spec.racks > 1 or isinstance(seen.phase, Pledge):
            if self.line is not None:
                raise CommittedLine(f"line={self.line}: a committed line is played on one "
                                    "rack; this variant has several")
            return self.racks.act(seen, legal)
        won = self._win(seen, legal)
        if won is not None:
            return won
        verbs = {a.verb for a in legal}
        if "vote" in verbs:
            return self._vote(seen, legal)
        if verbs <= {"offer", "blind"}:
            return self._count(seen, legal)
        if seen.me.dead:
            return self._discard(seen, self._read(seen), legal, dead=True)
        if "claim" in verbs:
            if not self._wanted(seen):
                return next(a for a in legal if a.verb == "pass")
            return self._claim(seen, legal)
        if seen.step == "passing":
            planned = self._planned(seen, legal)
            if planned is not None:
                return planned
        drawn = self._useless_draw(seen, legal)
        if drawn is not None:
            return drawn
        reading = self._read(seen)
        exchange = self._exchange(seen, reading, legal)
        if exchange is not None:
            return exchange
        return self._discard(seen, reading, legal)

    def ranked(self, seen: Observation, moves: list[Action]) -> list[tuple[Action, float]]:
        """These discards with the hand's worth after each, the one whose loss
        costs least first (for a search to weigh the best few)."""
        self._learn(seen.rules)
        tiles = sorted({a.tile for a in moves})
        worths = dict(zip(tiles, self._worths(seen, self._read(seen), tiles).tolist(),
                          strict=True))
        return sorted(((a, worths[a.tile]) for a in moves), key=lambda p: -p[1])

    def best_lines(self, seen: Observation, count: int) -> list[str]:
        """The ids of the card's lines the hand may pay most on (its chance
        of each times what it pays), the best first; `count` at most, none
        it cannot reach."""
        self._learn(seen.rules)
        prospects = self._read(seen).prospects
        if not len(prospects.rows):
            return []
        values = prospects.line_values(prospects.chance)
        order = np.argsort(-values, kind="stable")[:count]
        return [seen.rules.lines[int(prospects.lines[i])].id for i in order.tolist()
                if values[i] > 0]

    def hazards(self, seen: Observation) -> np.ndarray | None:
        """Per kind, how surely an opponent's exposures say they need it (None:
        no opponent has exposed a set), as the expert's defence reads it."""
        self._learn(seen.rules)
        return self._danger(seen)

    def wanted(self, seen: Observation) -> bool:
        """Whether the discard open to claims is one a line near the hand needs."""
        self._learn(seen.rules)
        return self._wanted(seen)

    def _win(self, seen: Observation, legal: list[Action]) -> Action | None:
        """Mah Jongg when true, declared or claimed (strict mode offers
        false ones: the matcher says which are true)."""
        claims = seen.rules.spec.claims
        for action in legal:
            if action.verb == "declare" and seen.completes():
                return action
            if action.verb == "claim" and not action.tiles and seen.discard is not None and \
                    claims.kind(action.claim).mahjong and \
                    seen.wins_with(seen.discard[1], claims.kind(action.claim).mahjongs):
                return action
        return None

    # -- the worth of a hand -------------------------------------------------------

    def odds(self, seen: Observation, draws: float) -> Odds:
        rules = seen.rules
        unseen = self.unseen.of(seen)
        return self._odds.get((unseen, round(draws, 2)),
                              lambda: odds(unseen, draws, rules.spec.players, rules.joker))

    def _shaped(self, seen: Observation, reading: Reading, hands: list[Hand]) -> np.ndarray:
        """(hands, structural lines): their values for each candidate hand,
        with the odds (acceptance) worked out for the nearest hands only."""
        shapes = self.shapes
        out = np.zeros((len(hands), len(shapes.order)))
        if not shapes.order:
            return out
        rules = seen.rules
        aways = [min(shapes.aways(rules, h).values(), default=1_000) for h in hands]
        nearest = min(aways, default=1_000)
        for i, h in enumerate(hands):
            if aways[i] == nearest:
                values = shapes.values(rules, h, self.unseen.of(seen), reading.draws)
                out[i] = [values.get(li, 0.0) for li in shapes.order]
            else:  # further: below every nearest hand, the further the lower
                out[i, 0] = -(aways[i] - nearest) * self.table.scale
        return out

    def _worths(self, seen: Observation, reading: Reading, tiles: list[int],
                as_is: bool = False) -> np.ndarray:
        """The hand's worth once each of these tiles has gone (`as_is`: the
        hand's own chance worked out in the same pass)."""
        known = reading.weighed.get(tuple(tiles))
        if known is None:
            p = reading.prospects
            values = p.by_line(p.paid_without(tiles, seen.rules.joker, as_is=as_is))
            if self.shapes.order:
                shaped = self._shaped(seen, reading, [reading.hand.minus(t) for t in tiles])
                values = np.concatenate([values, shaped], axis=1)
            known = reading.weighed[tuple(tiles)] = worth(values, self.style.options)
        return known

    def _now(self, seen: Observation, reading: Reading) -> float:
        """The hand's worth as it is."""
        if reading.now is None:
            p = reading.prospects
            values = p.by_line(p.paid()[None])
            if self.shapes.order:
                values = np.concatenate([values, self._shaped(seen, reading, [reading.hand])],
                                        axis=1)
            reading.now = float(worth(values, self.style.options)[0])
        return reading.now

    # -- discards and passes ---------------------------------------------------------

    def _discard(self, seen: Observation, reading: Reading, legal: list[Action],
                 dead: bool = False) -> Action:
        moves = [a for a in legal if a.verb in ("discard", "pass") and a.tile >= 0]
        if not moves:
            return legal[self.rng.randrange(len(legal))]
        joker = seen.rules.joker
        if len(moves) > 1 and any(a.tile != joker for a in moves) and \
                (dead or not reading.premium):
            # a joker is worth keeping, unless a jokerless win may pay more
            moves = [a for a in moves if a.tile != joker]
        tiles = sorted({a.tile for a in moves})
        turn = seen.step == "turn"
        danger = self._danger(seen) if turn else None
        counts = seen.me.counts
        free: set[int] = set()
        if turn and not dead and joker not in tiles and not self.shapes.order:
            free = _spare(reading.prospects, counts, tiles)
        weight = 0.0
        if danger is not None:
            if not dead and not free:  # the losses are weighed: the hand's chance with them
                self._worths(seen, reading, tiles, as_is=True)
            best = 0.0 if dead else reading.best_chance()
            far = self.style.far
            if best < far:
                weight = self.style.defence * (1 - best / far) * self.table.scale
        if free and not weight:  # each worth the hand as it is: the safest goes
            chosen = self._safest([a for a in moves if a.tile in free], danger, counts)
            self._last = (reading.hand.minus(chosen.tile), reading.prospects)
            return chosen
        worths = dict(zip(tiles, ([0.0] * len(tiles) if dead else
                                  self._worths(seen, reading, tiles).tolist()), strict=True))

        def key(a: Action) -> tuple[float, float, int, float]:
            hazard = float(danger[a.tile]) if danger is not None else 0.0
            return (-(worths[a.tile] - weight * hazard), hazard, counts[a.tile],
                    self.rng.random())

        chosen = min(moves, key=key)
        if seen.step == "turn":
            self._last = (reading.hand.minus(chosen.tile), reading.prospects)
        elif not seen.me.outgoing and not self.shapes.order:
            # the first tile of a pass: the rest are planned with it (lines of free
            # groups are weighed only for the nearest hands, so they ask again)
            spare = Counter(seen.me.counts)
            self._plan = []
            for a in sorted(moves, key=key):
                if spare[a.tile] > 1 or a.tile not in self._plan:
                    spare[a.tile] -= 1
                    self._plan.append(a.tile)
            self._plan = self._plan[1:]
        return chosen

    def _useless_draw(self, seen: Observation, legal: list[Action]) -> Action | None:
        """When no line weighed for the hand before the draw can use the
        tile drawn (read off the prospects the last discard was chosen by),
        the hand's worth is as it was: a tile those lines cannot use goes,
        the safest of them (the tile drawn, with no opponent to fear),
        unless there is more to weigh: a joker to take, or an opponent to
        defend against while far."""
        drawn = seen.last
        if seen.step != "turn" or drawn is None or self.shapes.order or self._last is None \
                or drawn == seen.rules.joker or any(a.verb == "exchange" for a in legal):
            return None
        hand, p = self._last
        if not len(p.rows) or np.count_nonzero(
                p.need[:, drawn] + p.wild[:, drawn] >= seen.me.counts[drawn]):
            return None  # some line has a slot for the tile drawn (asked first: cheaper)
        if hand.plus(drawn) != self.held(seen):
            return None
        danger = self._danger(seen)
        if danger is None:
            return next((a for a in legal if a.verb == "discard" and a.tile == drawn), None)
        counts = seen.me.counts
        joker = seen.rules.joker
        if (p.premium and joker is not None and counts[joker]) or \
                float(p.chance.max()) < self.style.far:
            return None  # a joker may be let go, or far: defence weighs against worth
        # a joker is worth keeping (a jokerless win that may pay more is weighed in full)
        spare = _spare(p, counts, sorted({a.tile for a in legal if a.verb == "discard"
                                          and a.tile != joker}))
        chosen = self._safest([a for a in legal if a.verb == "discard" and a.tile in spare],
                              danger, counts)
        self._last = (self.held(seen).minus(chosen.tile), p)
        return chosen

    def _safest(self, moves: list[Action], danger: np.ndarray | None,
                counts: tuple[int, ...]) -> Action:
        """Among tiles worth alike, the one an opponent needs least, then
        one held alone, then by the seed."""
        def key(a: Action) -> tuple[float, int, float]:
            hazard = float(danger[a.tile]) if danger is not None else 0.0
            return (hazard, counts[a.tile], self.rng.random())

        return min(moves, key=key)

    def _planned(self, seen: Observation, legal: list[Action]) -> Action | None:
        """The next tile planned with a pass's first one (still held)."""
        if not seen.me.outgoing:
            self._plan = []
            return None
        while self._plan:
            tile = self._plan.pop(0)
            found = next((a for a in legal if a.verb == "pass" and a.tile == tile), None)
            if found is not None:
                return found
        return None

    def _wanted(self, seen: Observation) -> bool:
        """Whether the discard could serve a line the hand is near: read off
        the prospects the last discard was chosen by, while the hand is
        the same (structural lines always ask)."""
        assert seen.discard is not None
        if self.shapes.order or self._last is None or self._last[0] != self.held(seen):
            return True
        p = self._last[1]
        tile = seen.discard[1]
        near = p.away <= p.nearest + WANTED
        return bool((p.short_wild[near, tile] > 0).any())  # a set fills slots jokers may

    def _danger(self, seen: Observation) -> np.ndarray | None:
        """Per kind, how surely an opponent's exposures say they need it:
        the share of the card's variations their exposures leave open that
        use it, times how much of a hand they have exposed."""
        if self._danger_seen is not None and self._danger_seen[0] is seen:
            return self._danger_seen[1]  # asked again of the same decision
        shown = tuple(tuple(e.tiles for e in other.exposures if not e.mahjong)
                      for o, other in enumerate(seen.seats)
                      if o != seen.seat and not other.dead)
        danger = self._dangers.get(shown, lambda: self._needed(seen, shown)) \
            if any(shown) else None
        self._danger_seen = (seen, danger)
        return danger

    def _needed(self, seen: Observation, shown: tuple[tuple[tuple[int, ...], ...], ...]
                ) -> np.ndarray | None:
        danger: np.ndarray | None = None
        for exposures in shown:
            rules = seen.rules
            # the same for every seat reading them: kept with the card's table
            key = (exposures, rules.joker, rules.spec.open_hands, rules.judge.card.hand_size)
            share = self.table.shares.get(key, partial(self._share, seen, exposures))
            if share is not None:
                danger = share if danger is None else np.maximum(danger, share)
        return danger

    def _share(self, seen: Observation, exposures: tuple[tuple[int, ...], ...]
               ) -> np.ndarray | None:
        """Per kind, the share of the variations one opponent's exposures
        leave open that use it, times how much of a hand they have exposed
        (kept per opponent: one seat's exposures change at a time)."""
        if not exposures:
            return None
        rules = seen.rules
        seated = seat(self.table, exposures, rules.joker, rules.spec.open_hands)
        if not seated.open.any():
            return None
        size = seen.rules.judge.card.hand_size
        share: np.ndarray = seated.users() * (sum(map(len, exposures)) / size)
        return share

    # -- the Charleston ------------------------------------------------------------

    def _worthless(self, seen: Observation, reading: Reading) -> int:
        """How many tiles the hand could give up for (almost) nothing."""
        joker = seen.rules.joker
        counts = seen.me.counts
        tiles = [t for t, n in enumerate(counts) if n and t != joker]
        now = self._now(seen, reading)
        worths = self._worths(seen, reading, tiles)
        return sum(1 for t, w in zip(tiles, worths.tolist(), strict=True)
                   if now - w <= WORTHLESS * now + EPSILON)

    def _vote(self, seen: Observation, legal: list[Action]) -> Action:
        """Yes to another Charleston when the hand is far from every line."""
        phase = seen.phase
        reading = self._read(seen)
        best = reading.best_chance()
        if self.shapes.order:
            best = max([best, *self.shapes.chances(seen.rules, reading.hand,
                                                   self.unseen.of(seen), reading.draws).values()])
        yes = isinstance(phase, Vote) and best < self.style.far
        return next(a for a in legal if a.verb == "vote" and a.number == int(yes))

    def _count(self, seen: Observation, legal: list[Action]) -> Action:
        """A courtesy offer of the worthless tiles; blind, the tiles of a
        pass the hand cannot spare."""
        most = max(a.number for a in legal)
        spare = self._worthless(seen, self._read(seen))
        number = min(spare, most) if isinstance(seen.phase, Courtesy) else max(0, most - spare)
        return next(a for a in legal if a.number == number)

    # -- claims and jokers -----------------------------------------------------------

    def _claim(self, seen: Observation, legal: list[Action]) -> Action:
        """Claim a set when the hand with it exposed, after its best
        discard, is worth more than the hand as it is. Both are read off one
        outlook, the hand with the discard taken in: as it is, it lets the
        discard go again; exposed, only the lines the set can seat in stay."""
        assert seen.discard is not None
        passing = next(a for a in legal if a.verb == "pass")
        sets = [a for a in legal if a.verb == "claim" and a.tiles]
        if not sets:
            return passing
        rules = seen.rules
        joker = rules.joker
        tile = seen.discard[1]
        hand = self.held(seen)
        counts = np.array(seen.me.counts, dtype=np.int16)
        jokers = 0
        if joker is not None:
            jokers, counts[joker] = int(counts[joker]), 0
        counts[tile] += 1
        taken = Reading(self, seen, hand.plus(tile), counts, jokers)
        p = taken.prospects
        exposing = []
        for action in sets:
            exposed = hand.exposing(tile, action.tiles)
            tiles = sorted({t for t in exposed.concealed if t != joker}) or [joker or 0]
            exposing.append((action, exposed, tiles))
        # what each set's discards leave, and the discard let go again (the
        # hand as it is), weighed at once; a set holding a joker gives up a
        # jokerless win
        every = sorted({tile, *(t for *_, tiles in exposing for t in tiles)})
        if any(joker is not None and joker in action.tiles for action in sets):
            after = dict(zip((True, False), p.paid_apart(every, joker), strict=True))
        else:
            after = {True: p.paid_without(every, joker)}
        at = {t: i for i, t in enumerate(every)}
        now = p.by_line(after[True][at[tile]][None])
        if self.shapes.order:
            now = np.concatenate([now, self._shaped(seen, taken, [hand])], axis=1)
        style = self.style
        best = float(worth(now, style.options)[0]) * style.claim_gain + EPSILON
        chosen = passing
        for action, exposed, tiles in exposing:
            if rules.strict and not rules.scores(exposed):
                continue  # an exposure no line can use is a mistake
            open_rows = fits(self.table, exposed.exposures, joker, rules.spec.open_hands, p.rows)
            paid = after[joker is None or joker not in action.tiles]
            values = p.by_line(paid[[at[t] for t in tiles]] * open_rows)
            if self.shapes.order:
                shaped = self._shaped(seen, taken, [exposed.minus(t) for t in tiles])
                values = np.concatenate([values, shaped], axis=1)
            value = float(worth(values, self.style.options).max(initial=0.0))
            if value > best:
                best, chosen = value, action
        return chosen

    def _exchange(self, seen: Observation, reading: Reading, legal: list[Action]
                  ) -> Action | None:
        """Take an exposed joker for a natural when the hand is worth no less."""
        exchanges = [a for a in legal if a.verb == "exchange"]
        if not exchanges:
            return None
        now = self._now(seen, reading)
        joker = seen.rules.joker
        for action in exchanges:
            counts = reading.counts.copy()
            counts[action.tile] -= 1
            hand = reading.hand.minus(action.tile)
            after = Reading(self, seen, hand.plus(joker) if joker is not None else hand,
                            counts, reading.jokers + 1)
            if self._now(seen, after) >= now:
                return action
        return None
