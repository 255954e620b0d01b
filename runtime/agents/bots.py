"""Agents: who chooses a seat's actions. Their randomness derives from the
match seed, so a simulated match replays exactly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from jongg.runtime.agents.planner import FAR as NO_PLAN
from jongg.runtime.agents.planner import Plan, RackPlanner
from jongg.runtime.agents.scored import scored_choice
from jongg.runtime.game.actions import Action
from jongg.runtime.game.chance import derived_rng
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.spec import Pledge
from jongg.runtime.game.view import Observation
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import pool_tiles
from jongg.runtime.memo import Memo


class Agent(Protocol):
    """Who chooses a seat's actions: from what the seat may see (its
    Observation, with the variant's rules and card) and its legal actions."""

    name: str

    def act(self, seen: Observation, legal: list[Action]) -> Action: ...


class RandomAgent:
    """Chooses uniformly among the legal actions, except that it never lets a
    win go: it declares, or claims for Mah Jongg, whenever the rules allow
    (in strict mode, where those may be mistakes, it stays uniform)."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = derived_rng(seed, "agent", seat)

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        if seen.rules.mode is Mode.GUARDED:
            claims = seen.rules.spec.claims
            for action in legal:
                if action.verb == "declare" or (action.verb == "claim" and not action.tiles
                                                and claims.kind(action.claim).mahjong):
                    return action
        return legal[self.rng.randrange(len(legal))]


# How near a hand is: (tiles away from the nearest line, minus how many lines
# are that near); smaller is better.
Nearness = tuple[int, int]
FAR: Nearness = (1_000, 0)


def nearness_key(near: tuple[int, int] | None) -> Nearness:
    """From a judge's nearness(): tiles away from the nearest line, and how
    many lines are that near (negated: more is better)."""
    return FAR if near is None else (near[0], -near[1])


def pledge_line(seen: Observation, phase: Pledge
                ) -> tuple[tuple[int, int, int] | None, Counter[int]]:
    """The nearest line flagged for the pledge the seat's dealt tiles make
    (tiles away, line, variation), and the tiles it takes from them."""
    rules = seen.rules
    me = seen.me
    pool = tuple(sorted((*me.concealed(), *me.outgoing)))
    lines = rules.lines
    near = [n for n in rules.nearest(Hand(pool)) if phase.flag in lines[n[1]].flags]
    if not near:
        return None, Counter()
    best = near[0]
    groups = rules.judge.explain(Hand(pool), lines[best[1]], best[2])
    return best, Counter(pool_tiles(rules.deck, groups))


class GreedyAgent:
    """Plays by tiles away, one step ahead: declares and claims Mah Jongg
    whenever it can; discards (and passes in a Charleston) the tile whose loss
    leaves its hand nearest a line; claims a set when the hand with it is
    nearer than without; takes an exposed joker when that costs nothing;
    never passes blind, offers nothing in a courtesy pass, votes no.
    Between equally near hands it parts with a tile held alone first; the
    remaining ties go by the seed. With several racks it plans them all at
    once (runtime/agents/planner.py) and plays by the plan."""

    name = "greedy"

    def __init__(self, seed: int, seat: int):
        self.rng = derived_rng(seed, "agent", seat)
        self._held: tuple[Observation, Hand] | None = None
        self.planner = RackPlanner()

    @staticmethod
    def _known(seen: Observation) -> Memo[Hand, Nearness]:
        """Hands weighed before, by any seat in any match of these rules."""
        return seen.rules.memo("greedy.nearness", 20_000)

    def nearness(self, seen: Observation, hand: Hand) -> Nearness:
        return self._known(seen).get(hand, lambda: nearness_key(seen.rules.nearness(hand)))

    def _discard_nearness(self, seen: Observation, tiles: set[int]) -> dict[int, Nearness]:
        """The nearness of the hand less each of these tiles, weighed
        together in one pass of the matcher: no hand is built per tile (a
        turn's hands less a tile are new but for the one just drawn)."""
        weighed = seen.rules.discard_nearness(self._hand(seen))
        return {t: nearness_key(weighed[t]) for t in tiles}

    def _hand(self, seen: Observation) -> Hand:
        """The seat's one hand: its concealed tiles and every exposure (kept
        for the decision: its steps ask it several times)."""
        if self._held is None or self._held[0] is not seen:
            me = seen.me
            self._held = (seen, Hand(me.concealed(), tuple(e.tiles for e in me.exposures)))
        return self._held[1]

    def _wins(self, seen: Observation, tile: int | None) -> bool:
        """Whether the hand (with `tile` added) completes a line."""
        hand = self._hand(seen)
        return seen.rules.completes(hand if tile is None else hand.plus(tile))

    def _without(self, seen: Observation, tile: int) -> Hand:
        return self._hand(seen).minus(tile)

    def _best(self, scored: Sequence[tuple[tuple[float, ...], Action]]) -> Action:
        top = min(n for n, _ in scored)
        choices = [a for n, a in scored if n == top]
        return choices[self.rng.randrange(len(choices))]

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        return scored_choice(seen, legal, self._act)  # a scored game read as such

    def _act(self, seen: Observation, legal: list[Action]) -> Action:
        verbs = {a.verb for a in legal}
        spec = seen.rules.spec
        if isinstance(seen.phase, Pledge) and seen.step in ("voting", "passing"):
            return self._pledge(seen, seen.phase, legal)
        if spec.racks > 1:
            return self._act_racks(seen, legal)
        for action in legal:  # a win, and only a true one (strict mode offers false ones)
            if action.verb == "declare" and self._wins(seen, None):
                return action
            if action.verb == "claim" and not action.tiles and \
                    spec.claims.kind(action.claim).mahjong and seen.discard is not None \
                    and self._wins(seen, seen.discard[1]):
                return action
        if "vote" in verbs:
            return next(a for a in legal if a.verb == "vote" and a.number == 0)
        if verbs <= {"offer", "blind"}:
            return min(legal, key=lambda a: a.number)
        if "claim" in verbs:
            return self._claim(seen, legal)
        exchanges = [a for a in legal if a.verb == "exchange"]
        if exchanges:
            now = self.nearness(seen, self._hand(seen))
            for action in exchanges:
                if self._after_exchange(seen, action) <= now:
                    return action
        moves = [a for a in legal if a.verb in ("discard", "pass") and a.tile >= 0]
        if not moves:
            return legal[self.rng.randrange(len(legal))]
        counts = seen.me.counts
        near = self._discard_nearness(seen, {a.tile for a in moves})
        # between equally near hands, part with a tile held alone before one of a group
        chosen = self._best([((*near[a.tile], counts[a.tile]), a) for a in moves])
        if chosen.verb == "discard":  # the hand left, which every claim window asks of
            self._known(seen).keep(self._without(seen, chosen.tile), near[chosen.tile])
        return chosen

    def _after_exchange(self, seen: Observation, action: Action) -> Nearness:
        joker = seen.rules.joker
        given = self._without(seen, action.tile)
        return self.nearness(seen, given.plus(joker if joker is not None else action.tile))

    def _claim(self, seen: Observation, legal: list[Action]) -> Action:
        """Claim a set when the hand with it is nearer a line than without."""
        assert seen.discard is not None
        tile = seen.discard[1]
        hand = self._hand(seen)
        now = self.nearness(seen, hand)
        best, chosen = now, next(a for a in legal if a.verb == "pass")
        nearest = now[0] - 1  # a set claimed brings the hand at most a tile nearer
        # and no nearer than the discard held concealed (an exposure only binds
        # its tiles to one group): when that is no nearer, no set is weighed
        if self.nearness(seen, hand.plus(tile))[0] > nearest:
            return chosen
        for action in legal:
            if best[0] <= nearest:
                break  # no set can do better than the one chosen
            if action.verb != "claim" or not action.tiles:
                continue
            after = self.nearness(seen, hand.exposing(tile, action.tiles))
            if after[0] < best[0]:
                best, chosen = after, action
        return chosen


    # -- several racks --------------------------------------------------------

    def _pledge(self, seen: Observation, phase: Pledge, legal: list[Action]) -> Action:
        """Pledge a rack when the dealt tiles hold all but one of a pledged
        line (the last must be drawn or claimed), and set those tiles aside."""
        me = seen.me
        best, wanted = pledge_line(seen, phase)
        if seen.step == "voting":
            return next(a for a in legal if a.number == int(best is not None and best[0] <= 1))
        wanted -= Counter(me.outgoing)
        for action in legal:  # the line's tiles first, then any
            if wanted[action.tile]:
                return action
        return legal[0]

    def _act_racks(self, seen: Observation, legal: list[Action]) -> Action:
        me = seen.me
        joker = seen.rules.joker
        pool = me.concealed()
        declares = [a for a in legal if a.verb == "declare" and a.claim]  # true ones only
        if declares:  # declare the Mah Jongg that leaves the other racks best placed
            return min(declares, key=lambda a: self._after_declare(seen, a))
        if seen.discard is not None and any(a.verb == "claim" for a in legal):
            return self._claim_racks(seen, legal)
        plan = self.planner.plan(seen, pool)
        for action in (a for a in legal if a.verb == "exchange"):
            after = list(pool)
            after.remove(action.tile)
            after.append(joker if joker is not None else action.tile)
            if self.planner.away(seen, tuple(sorted(after)), below=plan.away + 1) <= plan.away:
                return action
        discards = [a for a in legal if a.verb == "discard"]
        if not discards:
            return legal[self.rng.randrange(len(legal))]
        return self._rack_discard(seen, plan, discards)

    def _rack_discard(self, seen: Observation, plan: Plan, discards: list[Action]) -> Action:
        """A tile the plan does not use (a joker last, a single first), else
        the one whose loss leaves the plan nearest."""
        me = seen.me
        spare = [a for a in discards if me.counts[a.tile] > plan.reserved[a.tile]]
        if spare:
            return self._best([((a.tile == seen.rules.joker, me.counts[a.tile]), a)
                               for a in spare])
        scored: list[tuple[tuple[float, ...], Action]] = []
        least = NO_PLAN.away
        for a in discards:  # a discard further than the nearest so far is not worked out exactly
            away = self.planner.away(seen, self._less(me.concealed(), a.tile), below=least + 1)
            least = min(least, away)
            scored.append(((away,), a))
        return self._best(scored)

    @staticmethod
    def _less(pool: tuple[int, ...], tile: int) -> tuple[int, ...]:
        rest = list(pool)
        rest.remove(tile)
        return tuple(rest)

    def _after_declare(self, seen: Observation, action: Action) -> tuple[int, int]:
        line = seen.rules.judge.card.line(action.claim)
        me = seen.me
        rest = list(me.concealed())
        for t in seen.declaration_takes(action.number, action.claim):
            rest.remove(t)
        others = {r: me.hand(r).exposures for r in me.live_racks() if r != action.number}
        plan = self.planner.chain(seen, list(others),
                                  seen.rules.spec.wins_needed - me.mahjongs - 1, Counter(rest),
                                  others, 1, detail=False)
        return plan.away, -(line.value or 0)

    def _claim_racks(self, seen: Observation, legal: list[Action]) -> Action:
        """Claim Mah Jongg when it is true; a set when the plan wants the
        discard on that rack and the plan with the set exposed is nearer."""
        assert seen.discard is not None
        tile = seen.discard[1]
        claims = seen.rules.spec.claims
        for action in legal:
            if action.verb == "claim" and not action.tiles:
                kind = claims.kind(action.claim)
                if kind.mahjong and seen.wins_with(tile, kind.mahjongs):
                    return action
        me = seen.me
        pool = me.concealed()
        plan = self.planner.plan(seen, pool, detail=False)  # its missing codes only as asked
        best, chosen = plan.away, next(a for a in legal if a.verb == "pass")
        for action in legal:
            if action.verb != "claim" or not action.tiles or \
                    not self.planner.wants(seen, plan, action.number, tile):
                continue
            rest = list(pool)
            for t in action.tiles:
                rest.remove(t)
            exposures = {r: me.hand(r).exposures for r in me.live_racks()}
            exposures[action.number] += (tuple(sorted((tile, *action.tiles))),)
            after = self.planner.away(seen, tuple(rest), exposures, below=best)
            if after < best:
                best, chosen = after, action
        return chosen
