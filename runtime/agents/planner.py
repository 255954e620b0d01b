"""Planning several racks at once (Siamese): how a greedy player splits one
pool of tiles between its racks' hands.

A plan picks, for each rack still to win, a line and the pool tiles that line
would take. The nearest rack's k nearest lines are each tried; each takes
its tiles from the pool (as the matcher fills the line), and the next rack
is planned on what is left, and so on: k tries of a chain, not every
combination of every rack's lines. Its measure is the sum of the racks'
tiles away.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import pool_tiles
from jongg.runtime.memo import Memo

if TYPE_CHECKING:
    from jongg.runtime.game.view import Observation

TOP_K = 3  # lines of the nearest rack tried as the plan's first choice


@dataclass(frozen=True)
class Step:
    """One rack's place in a chain: its line and variation, and the pool
    tiles it fills that line from (what the racks before it left)."""

    rack: int
    line: int
    variation: int
    concealed: tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    away: int  # tiles away, summed over the racks still to win
    lines: tuple[tuple[int, int], ...]  # (rack, line index) chosen
    reserved: Counter[int] = field(default_factory=Counter)  # pool tiles the lines take
    missing: dict[int, tuple[str, ...]] = field(default_factory=dict)  # rack -> codes wanted
    # the chain's racks filled from the pool, in order: what its detail is worked out from
    steps: tuple[Step, ...] = field(default=(), compare=False, repr=False)


FAR = Plan(1_000, ())
NOTHING = Plan(0, ())  # no rack left to plan


class RackPlanner:
    """Plans one seat's racks; hands seen before are remembered."""

    # What it remembers depends on the rules alone, so it is kept with them
    # (Rules.memo): every seat and match of the rules finds it.

    def nearest(self, seen: Observation, hand: Hand, k: int,
                allowed: frozenset[int] | None = None) -> list[tuple[int, int, int]]:
        """(tiles away, line, variation) of the hand's k nearest lines (of
        those `allowed`, when given)."""
        known: Memo[tuple[Hand, frozenset[int] | None], list[tuple[int, int, int]]] = \
            seen.rules.memo("planner.nearest", 20_000)
        return known.get((hand, allowed), lambda: _nearest(seen, hand, allowed))[:k]

    def plan(self, seen: Observation, pool: tuple[int, ...],
             exposures: dict[int, tuple[tuple[int, ...], ...]] | None = None, *,
             detail: bool = True) -> Plan:
        """The best plan for the seat's live racks with this pool (and, when
        given, these exposures by rack instead of the seat's own). Without
        `detail` only its measure and lines are worked out, not the tiles it
        reserves or the codes it misses: all a comparison of plans reads
        (wants() reads a rack's missing codes off such a plan when asked)."""
        return self._plan(seen, pool, exposures, detail, FAR.away)

    def away(self, seen: Observation, pool: tuple[int, ...],
             exposures: dict[int, tuple[tuple[int, ...], ...]] | None = None, *,
             below: int = FAR.away) -> int:
        """The best plan's measure alone (plan() without its detail). A
        caller that weighs it only against `below` gets it exactly when it
        is less, and `below` or more otherwise: no option that cannot come
        under `below` is filled."""
        return self._plan(seen, pool, exposures, False, below).away

    def _plan(self, seen: Observation, pool: tuple[int, ...],
              exposures: dict[int, tuple[tuple[int, ...], ...]] | None, detail: bool,
              below: int) -> Plan:
        me = seen.me
        racks = me.live_racks()
        need = seen.rules.spec.wins_needed - me.mahjongs
        if exposures is None:
            exposures = {r: me.rack_exposures(r) for r in racks}
        if me.pledge in racks and need > 0:  # a pledged rack plays its tiles set aside
            aside = Hand(tuple(sorted(me.aside)))
            near = self.nearest(seen, aside, 1, seen.rules.allowed_lines(me, me.pledge))
            away = near[0][0] if near else FAR.away
            rest = self._chain(seen, [r for r in racks if r != me.pledge], need - 1,
                               tuple(sorted(pool)), exposures, TOP_K, detail,
                               below - away if below < FAR.away else FAR.away)
            return Plan(away + rest.away, ((me.pledge, near[0][1]) if near else (me.pledge, -1),
                                           *rest.lines), rest.reserved, rest.missing, rest.steps)
        return self._chain(seen, racks, need, tuple(sorted(pool)), exposures, TOP_K, detail,
                           below)

    def wants(self, seen: Observation, plan: Plan, rack: int, tile: int) -> bool:
        """Whether the plan's line on this rack misses this tile (what
        plan.missing says with the detail), filling that line only when its
        variation has a slot the tile could fill."""
        for step in plan.steps:
            if step.rack == rack:
                kinds = self._line_kinds(seen, step.line, step.variation)
                if kinds is not None and tile not in kinds:
                    return False
                code = seen.rules.deck.code(tile)
                exposures = seen.me.rack_exposures(rack)
                return code in self._filling(seen, step, exposures)[1]
        return False

    def chain(self, seen: Observation, racks: list[int], need: int, pool: Counter[int],
              exposures: dict[int, tuple[tuple[int, ...], ...]], k: int, *,
              detail: bool = True) -> Plan:
        """The best chain of `need` racks' lines: the nearest options of
        every rack, each taking its tiles, the next planned on what is left.
        Filling a line (which tiles it takes) is the costly step, so it is
        done only where it changes the answer: not for an option that cannot
        beat the best so far, not for the last rack of a chain (nothing is
        planned on what it leaves), and, for the detail, once per rack of
        the chain chosen (kept: the option filled to plan what it leaves is
        not filled again)."""
        return self._chain(seen, racks, need, tuple(sorted(pool.elements())), exposures, k,
                           detail, FAR.away)

    def _chain(self, seen: Observation, racks: list[int], need: int,
               concealed: tuple[int, ...], exposures: dict[int, tuple[tuple[int, ...], ...]],
               k: int, detail: bool, below: int) -> Plan:
        """chain() on the pool as sorted tiles. Options are weighed against
        `below` from the start, so one that cannot come under it is not
        filled: the best plan when it comes under `below`, else a plan of
        `below` tiles away and no lines (all its caller reads). This prunes
        only options whose floor is already `below` or more, so the option
        chosen, the first to reach the least, is the one chosen without it."""
        if need <= 0 or not racks:
            return NOTHING
        options = []
        nearest: dict[int, int] = {}  # each rack's tiles away on the whole pool
        rules, me = seen.rules, seen.me
        for rack in racks:
            found = self.nearest(seen, Hand(concealed, exposures[rack]), k,
                                 rules.allowed_lines(me, rack))
            if found:
                nearest[rack] = found[0][0]
            for away, li, v in found:
                options.append((away, rack, li, v))
        options.sort()
        last = need == 1 or len(racks) == 1  # no rack is planned after this one
        best = FAR if below >= FAR.away else Plan(below, ())
        for away, rack, li, v in options[:k]:
            if away >= best.away:
                break  # nearest first, and the racks after it add to its tiles away
            step = Step(rack, li, v, concealed)
            if last:
                best = Plan(away, ((rack, li),), steps=(step,))
                continue
            if away + _least_rest(nearest, rack, need - 1) >= best.away:
                continue  # the racks after it cannot do better than on the whole pool
            taken, _ = self._filling(seen, step, exposures[rack])
            rest = self._chain(seen, [r for r in racks if r != rack], need - 1,
                               _less(concealed, taken), exposures, 1, False, best.away - away)
            if away + rest.away < best.away:
                best = Plan(away + rest.away, ((rack, li), *rest.lines),
                            steps=(step, *rest.steps))
        if not detail or not best.steps:
            return best
        reserved: Counter[int] = Counter()
        missing: dict[int, tuple[str, ...]] = {}
        for step in best.steps:
            taken, missing[step.rack] = self._filling(seen, step, exposures[step.rack])
            reserved += taken
        return Plan(best.away, best.lines, reserved, missing, best.steps)

    def _filling(self, seen: Observation, step: Step, exposures: tuple[tuple[int, ...], ...]
                 ) -> tuple[Counter[int], tuple[str, ...]]:
        """The pool tiles a step's line takes on its rack, and the codes it
        still misses (kept: a plan's detail and a claim window ask again)."""
        known: Memo[tuple[Step, tuple[tuple[int, ...], ...]],
                    tuple[Counter[int], tuple[str, ...]]] = seen.rules.memo("planner.filling",
                                                                            2_000)
        return known.get((step, exposures), lambda: _filling(seen, step, exposures))

    def _line_kinds(self, seen: Observation, line: int, variation: int) -> frozenset[int] | None:
        """The tile kinds a variation's slots want (None: any, as its free
        groups bind to whatever the hand holds)."""
        def kinds() -> frozenset[int] | None:
            v = seen.rules.lines[line].variations[variation]
            return None if v.free else frozenset(t for g in v.groups for t in g.tiles)
        known: Memo[tuple[int, int], frozenset[int] | None] = seen.rules.memo("planner.kinds",
                                                                               100_000)
        return known.get((line, variation), kinds)


def _filling(seen: Observation, step: Step, exposures: tuple[tuple[int, ...], ...]
             ) -> tuple[Counter[int], tuple[str, ...]]:
    rules = seen.rules
    groups = rules.judge.explain(Hand(step.concealed, exposures), rules.lines[step.line],
                                 step.variation)
    missing = tuple(s.want for g in groups for s in g if s.filled_by is None)
    return Counter(pool_tiles(rules.deck, groups)), missing


def _nearest(seen: Observation, hand: Hand, allowed: frozenset[int] | None
             ) -> list[tuple[int, int, int]]:
    """rules.nearest(hand, allowed)[:TOP_K], without a tuple made and sorted
    for every line: each line's tiles away and place in the scores (card
    order: one entry a line, by line index) are one int, so sorting ints
    keeps the same order and ties (tiles away, then line)."""
    rules = seen.rules
    sizes = rules.sizes
    found = rules.scores(hand)
    n = len(found)
    keys = sorted([(sizes[li] - s) * n + i for i, (li, s, _) in enumerate(found)
                   if allowed is None or li in allowed])[:TOP_K]
    return [(key // n, found[key % n][0], found[key % n][2]) for key in keys]


def _less(concealed: tuple[int, ...], taken: Counter[int]) -> tuple[int, ...]:
    """The sorted tiles less those taken (each held)."""
    if not taken:
        return concealed
    owed = dict(taken)
    rest = []
    for t in concealed:
        if owed.get(t):
            owed[t] -= 1
        else:
            rest.append(t)
    return tuple(rest)


def _least_rest(nearest: dict[int, int], rack: int, need: int) -> int:
    """The least the racks planned after `rack` can add: fewer tiles in the
    pool never bring a rack nearer, so each is at least as far as on the
    whole pool (a rack with no line adds nothing to this floor)."""
    return sum(sorted(a for r, a in nearest.items() if r != rack)[:need])
