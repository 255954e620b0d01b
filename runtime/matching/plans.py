"""Variations as the structural programme sees them, and scoring them.

A plan is one variation: its concrete groups (pins), its free groups by type,
and a ceiling no filling can beat. `Programme` scores plans for a hand (the
deck's components, memoised answers, per-suit tables once prepared), seats
exposures on whole groups, and explains a score as a filling.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from jongg.runtime.card import Card, Slots
from jongg.runtime.matching.answers import ABSENT, Slot
from jongg.runtime.matching.building import Progress
from jongg.runtime.matching.columns import pins
from jongg.runtime.matching.filling import Bound, SlotKey, fill, fits
from jongg.runtime.matching.plan import (
    UNSEATED,
    Exposed,
    Plan,
    PlanKey,
    Seating,
    Way,
    by_exposures,
    shape_of,
)
from jongg.runtime.matching.structure import (
    NO_PIN,
    Demand,
    Frontier,
    GroupType,
    Pin,
    Shape,
    _slot_score,
    best_score,
    combine,
    component,
    identical_only,
    identical_score,
)
from jongg.runtime.matching.tables import Component, ShapeTables, component_keys, load_or_build
from jongg.runtime.tiles import Category


class Programme:
    """Scores a card's variations through runtime/matching/structure.py."""

    def __init__(self, card: Card, covered: frozenset[tuple[int, int]] = frozenset()):
        self.card = card
        self.covered = covered  # variations with free groups the table's columns stand for
        self.deck = card.deck
        self.joker = self.deck.joker_index
        self._memo: dict[Any, dict[Demand, Frontier]] = {}
        self._scored: dict[Any, int] = {}
        self._holders: dict[tuple[int, int], dict[int, list[int]]] = {}
        self._placed: dict[tuple[tuple[int, ...], int, int], list[tuple[str, int, int | None]]] = {}
        self.shape_tables: dict[Shape, ShapeTables] = {}
        self._keyed: tuple[dict[int, int] | None, list[int]] = (None, [])
        self._seatings: dict[Exposed, dict[PlanKey, list[Seating]]] = {}
        self._ways_kept: dict[Exposed, dict[PlanKey, list[Way]]] = {}
        self._able: dict[tuple[int, ...], int] = {}
        self._slots: dict[SlotKey, Slot] = {}  # the fillings' slots, made once (filling.fill)

    # -- the deck's components and the card's plans ------------------------------
    @cached_property
    def components(self) -> list[tuple[tuple[int, ...], bool]]:
        """Ordered suits (runs live there), then every other kind together."""
        deck = self.deck
        ordered = {s.code for s in deck.suits if s.ordered}
        comps: list[tuple[tuple[int, ...], bool]] = []
        for suit in deck.suits:
            if suit.code in ordered:
                kinds = sorted((k for k in deck.kinds if k.suit == suit.code
                                and k.number is not None),
                               key=lambda k: k.number or 0)
                comps.append((tuple(k.index for k in kinds), True))
        loose = tuple(k.index for k in deck.kinds if k.category is not Category.JOKER
                      and not (k.suit in ordered and k.number is not None))
        if loose:
            comps.append((loose, False))
        return comps

    @cached_property
    def _component_of(self) -> dict[int, int]:
        return {k: ci for ci, (kinds, _) in enumerate(self.components) for k in kinds}

    @cached_property
    def plans(self) -> list[list[Plan]]:
        """Every variation's plan, by line."""
        out: list[list[Plan]] = []
        for li, line in enumerate(self.card.lines):
            plans = []
            for vi, v in enumerate(line.variations):
                types = tuple(GroupType(f.kind, f.jokers) for f in v.free)
                plans.append(Plan(li, vi, v.groups, types,
                                  shape_of(types, self.card.all_joker_groups), line.concealed,
                                  dict(Counter(t for g in v.groups for t in g.tiles)),
                                  sum(t.size for t in types)))
            out.append(plans)
        return out

    @cached_property
    def structural(self) -> list[Plan]:
        """The plans with free groups no column stands for, in card order."""
        return [p for plans in self.plans for p in plans
                if p.types and (p.line, p.variation) not in self.covered]

    @cached_property
    def _runs(self) -> set[tuple[int, ...]]:
        out = set()
        for kinds, runs in self.components:
            if runs:
                out |= {kinds[i:i + 3] for i in range(len(kinds) - 2)}
        return out

    # -- exposures -----------------------------------------------------------------
    @cached_property
    def flat(self) -> list[Plan]:
        """Every plan, line by line: bit i of a mask from able() is plan i."""
        return [p for plans in self.plans for p in plans]

    @cached_property
    def _first(self) -> list[int]:
        """Each line's first plan in `flat`."""
        return list(itertools.accumulate((len(plans) for plans in self.plans), initial=0))

    def bit(self, plan: Plan) -> int:
        """The plan's bit in a mask from able()."""
        return 1 << (self._first[plan.line] + plan.variation)

    @cached_property
    def _takers(self) -> tuple[dict[int, dict[tuple[tuple[int, ...], bool], int]],
                               dict[GroupType, int]]:
        """Per kind, each concrete group holding it with the plans that have
        that group; per free group type, the plans that have one."""
        groups: dict[int, dict[tuple[tuple[int, ...], bool], int]] = {}
        types: dict[GroupType, int] = {}
        for i, plan in enumerate(self.flat):
            for g in plan.groups:
                for k in dict.fromkeys(g.tiles):
                    mine = groups.setdefault(k, {})
                    mine[g.tiles, g.jokers] = mine.get((g.tiles, g.jokers), 0) | 1 << i
            for t in plan.types:
                types[t] = types.get(t, 0) | 1 << i
        return groups, types

    def able(self, exposures: Sequence[Sequence[int]]) -> int:
        """The plans on which each exposure has a group it could be (a mask
        over `flat`): only these can have a seating, so the others are ruled
        out by a lookup per exposure (each kept: there are few)."""
        mask = (1 << len(self.flat)) - 1
        for exposure in exposures:
            key = tuple(exposure)
            mine = self._able.get(key)
            if mine is None:
                if len(self._able) > 10_000:
                    self._able.clear()
                mine = self._able[key] = self._able_one(key)
            mask &= mine
        return mask

    def _able_one(self, exposure: tuple[int, ...]) -> int:
        """The plans where _places() finds the exposure some group."""
        groups, types = self._takers
        mask = 0
        named = next((t for t in exposure if t != self.joker), None)
        if named is not None:
            for (tiles, jokers), plans in groups.get(named, {}).items():
                if fits(exposure, tiles, jokers, self.joker):
                    mask |= plans
        for t, plans in types.items():
            if self._free_fit(exposure, t) is not False:
                mask |= plans
        return mask

    def seatings(self, plan: Plan, exposures: Sequence[Sequence[int]]) -> list[Seating]:
        """Ways to seat every exposure on its own group: the concrete groups
        taken, the free types taken (by index into plan.types), and the kinds
        an identical free group took. They depend on the exposures alone,
        which change far less often than the concealed tiles: kept per
        exposures."""
        if not exposures:
            return UNSEATED
        key = tuple(map(tuple, exposures))
        known = by_exposures(self._seatings, key)
        found = known.get((plan.line, plan.variation))
        if found is None:
            found = known[plan.line, plan.variation] = self._seat(plan, key)
        return found

    def _seat(self, plan: Plan, exposures: tuple[tuple[int, ...], ...]) -> list[Seating]:
        options: list[list[tuple[str, int, int | None]]] = []
        for exposure in exposures:
            mine = self._places(plan, exposure)
            if not mine:
                return []
            options.append(mine)
        seen = set()
        out = []
        for choice in itertools.product(*options):
            groups = [i for what, i, _ in choice if what == "group"]
            free = [i for what, i, _ in choice if what == "free"]
            kinds = [k for what, _, k in choice if what == "free" and k is not None]
            if len(set(groups)) < len(groups) or len(set(free)) < len(free) \
                    or len(set(kinds)) < len(kinds):
                continue
            key = (frozenset(groups), tuple(sorted(free)), tuple(sorted(kinds)))
            if key not in seen:
                seen.add(key)
                out.append((frozenset(groups), tuple(free), tuple(kinds)))
        return out

    def _places(self, plan: Plan, exposure: tuple[int, ...]) -> list[tuple[str, int, int | None]]:
        """The groups of a plan one exposure could be: concrete ones by
        index, free ones by type index with the kind they would bind. An
        exposure stays on the table for many hands: kept."""
        key = (exposure, plan.line, plan.variation)
        mine = self._placed.get(key)
        if mine is None:
            mine = []
            named = next((t for t in exposure if t != self.joker), None)
            holding = self._holding(plan).get(named, ()) if named is not None else ()
            for gi in holding:
                g = plan.groups[gi]
                if fits(exposure, g.tiles, g.jokers, self.joker):
                    mine.append(("group", gi, None))
            for ti, t in enumerate(plan.types):
                kind = self._free_fit(exposure, t)
                if kind is not False:
                    mine.append(("free", ti, kind))
            if len(self._placed) > 100_000:
                self._placed.clear()
            self._placed[key] = mine
        return mine

    def _holding(self, plan: Plan) -> dict[int, list[int]]:
        """Per kind, the concrete groups of a plan that hold it (an exposure
        can be only a group holding its tiles)."""
        key = (plan.line, plan.variation)
        found = self._holders.get(key)
        if found is None:
            found = {}
            for gi, g in enumerate(plan.groups):
                for k in dict.fromkeys(g.tiles):
                    found.setdefault(k, []).append(gi)
            self._holders[key] = found
        return found

    def _free_fit(self, exposure: Sequence[int], t: GroupType) -> int | None | bool:
        """Whether an exposure is a whole free group of this type: the kind it
        binds for identical groups, None for a run, False when it does not fit."""
        naturals = [x for x in exposure if x != self.joker]
        if not naturals or len(exposure) != t.size:
            return False
        if len(set(naturals)) == 1 and t.identical_size == len(exposure):
            if len(naturals) < len(exposure) and not t.joker_ok:
                return False
            return naturals[0]
        if t.sequential and len(naturals) == 3 and tuple(sorted(naturals)) in self._runs:
            return None
        return False

    # -- scoring -------------------------------------------------------------------
    def score(self, plan: Plan, counts: dict[int, int], jokers: int,
              exposures: Sequence[Sequence[int]]) -> int | None:
        """The most slots of this variation the hand fills, or None when the
        exposures cannot all be whole groups of it."""
        if not jokers and not exposures and not plan.groups and plan.shape in self.shape_tables:
            return self.shape_tables[plan.shape].best_keys(self.keys_one(counts))
        best: int | None = None
        tables = self.shape_tables.get(plan.shape) if not jokers and not plan.groups else None
        exposed = sum(map(len, exposures))
        for identical, shape, kinds, share, groups in self._ways(plan, exposures):
            if identical:
                found = identical_score(shape, counts, jokers, kinds)
            elif tables is not None and not any(counts.get(k) for k in kinds):
                # the groups left are a share of the line's: its tables answer
                found = tables.best_within(self.keys_one(counts), share)
            else:
                found = self.programme(shape, pins(groups), counts, jokers, kinds)
            found += exposed
            if best is None or found > best:
                best = found
        return best

    def _ways(self, plan: Plan, exposures: Sequence[Sequence[int]]) -> list[Way]:
        """Each seating of the exposures as score() reads it: whether the free
        groups left are identical only (and the plan has no concrete groups),
        their shape, the kinds taken, the share of the line's groups left and
        the concrete groups left. Kept beside the seatings: they depend on
        the exposures alone."""
        known = by_exposures(self._ways_kept, tuple(map(tuple, exposures)))
        ways = known.get((plan.line, plan.variation))
        if ways is None:
            ways = known[plan.line, plan.variation] = []
            for taken, free, kinds in self.seatings(plan, exposures):
                types = [t for ti, t in enumerate(plan.types) if ti not in free]
                shape = shape_of(types, plan.shape.all_jokers) if free else plan.shape
                ways.append((not plan.groups and identical_only(shape), shape, frozenset(kinds),
                             tuple(types.count(t) for t in plan.shape.types),
                             [g for gi, g in enumerate(plan.groups) if gi not in taken]))
        return ways

    def programme(self, shape: Shape, pinned: dict[int, Pin], counts: dict[int, int],
                  jokers: int, forbid: frozenset[int], extra: int = 0) -> int:
        """The best score of free groups `shape` beside concrete `pinned`;
        `extra` is joker room already promised elsewhere."""
        all_jokers = shape.all_jokers
        if not shape.types:  # concrete groups only: every kind stands alone
            n = c = 0
            for k in {*counts, *pinned}:
                pin = pinned.get(k, NO_PIN)
                a, b = _slot_score(counts.get(k, 0), pin.plain, pin.joker_groups, all_jokers)
                n, c = n + a, c + b
            return min(n + jokers, c + extra)
        if identical_only(shape):
            return self._identical(shape, pinned, counts, jokers, forbid, extra)
        parts = []
        touched = {self._component_of[k] for k in counts}
        for ci, (kinds, runs) in enumerate(self.components):
            if ci not in touched:
                for k in kinds:
                    if k in pinned:
                        extra += _slot_score(0, pinned[k].plain, pinned[k].joker_groups,
                                             all_jokers)[1]
                continue
            xs = tuple(counts.get(k, 0) for k in kinds)
            if not runs and not pinned and not forbid:
                xs = tuple(sorted(xs))  # loose kinds are interchangeable
                key: Any = (shape, xs)
                ps, fs = None, None
            else:
                ps = tuple(pinned.get(k, NO_PIN) for k in kinds)
                fs = tuple(k in forbid for k in kinds)
                key = (shape, ci, xs, ps, fs)
            part = self._memo.get(key)
            if part is None:
                if len(self._memo) > 500_000:
                    self._memo.clear()
                part = component(shape, xs, runs, ps, fs)
                self._memo[key] = part
            parts.append(part)
        return best_score(combine(parts, shape.demand), shape, jokers, extra)

    def _identical(self, shape: Shape, pinned: dict[int, Pin], counts: dict[int, int],
                   jokers: int, forbid: frozenset[int], extra: int) -> int:
        """The programme when every free group is of identical tiles: no run
        ties one kind to the next, so any split of the kinds answers alike.
        Each pinned kind stands alone; the other kinds are interchangeable,
        and only the most held can take a group (a group does no worse on a
        kind held more), so they are one part read from their few largest
        counts. The answer depends on little, so it is memoised whole."""
        groups = sum(shape.demand)
        loose = tuple(sorted((c for k, c in counts.items()
                              if c and k not in pinned and k not in forbid), reverse=True))
        held = tuple((k, pin, counts.get(k, 0), k in forbid) for k, pin in sorted(pinned.items()))
        key = (shape, loose[:groups], held, jokers, extra)
        found = self._scored.get(key)
        if found is None:
            parts = [self._part((shape, loose[:groups]), shape, loose[:groups])]
            for _, pin, x, barred in held:
                parts.append(self._part((shape, x, pin, barred), shape, (x,), (pin,), (barred,)))
            found = best_score(combine(parts, shape.demand), shape, jokers, extra)
            if len(self._scored) > 200_000:
                self._scored.clear()
            self._scored[key] = found
        return found

    def _part(self, key: Any, shape: Shape, xs: tuple[int, ...],
              ps: tuple[Pin, ...] | None = None, fs: tuple[bool, ...] | None = None
              ) -> dict[Demand, Frontier]:
        """One component's answer, memoised under `key`."""
        part = self._memo.get(key)
        if part is None:
            if len(self._memo) > 500_000:
                self._memo.clear()
            part = self._memo[key] = component(shape, xs, False, ps, fs)
        return part

    # -- many hands ----------------------------------------------------------------
    def fold(self, counts: np.ndarray, jokers: np.ndarray, best: np.ndarray,
             which: np.ndarray) -> None:
        """Fold the structural plans' scores for many hands without exposures
        into `best`/`which` (hands x lines): tables for jokerless hands, the
        programme for the rest, skipping hands a plan's ceiling cannot lift."""
        plain = jokers == 0
        every = bool(plain.all())
        jokerless = counts if every else counts[plain]
        keys = component_keys(self.table_components, jokerless) if self.shape_tables else None
        for plan in self.structural:
            found = np.full(len(counts), -1, dtype=np.int32)
            tables = self.shape_tables.get(plan.shape) if not plan.groups else None
            if tables is not None and keys is not None:
                scored = tables.best(keys)
                if every:
                    found[:] = scored
                else:
                    found[plain] = scored
            li = plan.line
            rest = ~plain if tables is not None else np.ones_like(plain)
            if rest.any():
                need = np.zeros(len(self.deck.kinds), dtype=np.int64)
                for k, n in plan.needs.items():
                    need[k] = n
                ceiling = np.minimum(counts, need).sum(axis=1) + plan.free_size + jokers
                old = best[:, li]
                rest &= (ceiling > old) | ((ceiling == old) & (plan.variation < which[:, li]))
            for i in np.flatnonzero(rest):
                held = {int(k): int(counts[i, k]) for k in np.flatnonzero(counts[i])}
                s = self.score(plan, held, int(jokers[i]), ())
                found[i] = -1 if s is None else s
            old, old_v = best[:, li], which[:, li]
            better = (found > old) | ((found == old) & (found >= 0) & (plan.variation < old_v))
            best[better, li] = found[better]
            which[better, li] = plan.variation

    def completes(self, plan: Plan, counts: dict[int, int], jokers: int, size: int) -> bool:
        """Whether one hand without exposures fills the plan: by its tables
        when there are some, else by its score."""
        tables = self.shape_tables.get(plan.shape) if not plan.groups and not jokers else None
        if tables is not None:
            return tables.best_keys(self.keys_one(counts)) == size
        return plan.ceiling(counts, jokers, 0) >= size and \
            self.score(plan, counts, jokers, ()) == size

    def complete_tabled(self, counts: np.ndarray) -> list[tuple[Plan, np.ndarray]] | None:
        """For jokerless hands: per structural plan, which hands fill every
        slot of it, by its tables; None when some plan has none."""
        keys = component_keys(self.table_components, counts) if self.shape_tables else None
        out = []
        for plan in self.structural:
            tables = self.shape_tables.get(plan.shape) if not plan.groups else None
            if tables is None or keys is None:
                return None
            out.append((plan, tables.best(keys) == self.card.lines[plan.line].size))
        return out

    def prepare(self, folder: Path | None = None, *, build: bool = True,
                progress: Progress | None = None) -> float:
        """Build (or load from `folder`) the tables of the lines of free
        groups alone; the seconds spent building. Without `build`, only the
        tables already kept are loaded. `progress` hears (done, total) while
        tables are built, over every shape."""
        shapes = list(dict.fromkeys(p.shape for p in self.structural
                                    if not p.groups and p.shape not in self.shape_tables))
        built = 0.0
        for i, shape in enumerate(shapes):

            def step(done: int, total: int, i: int = i) -> None:
                if progress is not None:
                    progress(i * total + done, len(shapes) * total)

            tables, seconds = load_or_build(shape, self.table_components, folder,
                                            build_missing=build, progress=step)
            if tables is not None:
                self.shape_tables[shape] = tables
            built += seconds
        return built

    def keys_one(self, counts: dict[int, int]) -> list[int]:
        """Each table component's key for one hand's naturals (the last hand's
        are kept: a hand's plans ask one after another)."""
        if counts is self._keyed[0]:
            return self._keyed[1]
        keys = [0] * len(self.table_components)
        place = self._place
        for k, c in counts.items():
            ci, weight = place[k]
            keys[ci] += c * weight
        self._keyed = (counts, keys)
        return keys

    @cached_property
    def _place(self) -> dict[int, tuple[int, int]]:
        """kind -> (its table component, its digit's weight in the key)."""
        return {k: (ci, comp.radix ** (len(comp.kinds) - 1 - i))
                for ci, comp in enumerate(self.table_components)
                for i, k in enumerate(comp.kinds)}

    @cached_property
    def table_components(self) -> list[Component]:
        """The components, loose kinds split by their number of copies (so
        that the kinds of one are interchangeable)."""
        out = []
        for kinds, runs in self.components:
            if runs:
                out.append(Component(kinds, True, max(self.deck.kinds[k].copies for k in kinds)))
                continue
            by_copies: dict[int, list[int]] = {}
            for k in kinds:
                by_copies.setdefault(self.deck.kinds[k].copies, []).append(k)
            out += [Component(tuple(ks), False, c) for c, ks in sorted(by_copies.items())]
        return out

    # -- explaining ------------------------------------------------------------------
    def explain(self, plan: Plan, counts: dict[int, int], jokers: int,
                exposures: Sequence[Sequence[int]]) -> tuple[tuple[Slot, ...], ...]:
        """How the tiles fill one variation: a filling that reaches the best
        score, group by group (free groups after the concrete ones). With one
        way to seat the exposures (always, without any), its filling is the
        best, and the score need not be worked out to pick it."""
        seatings = self.seatings(plan, exposures)
        if len(seatings) == 1:
            return self._explain_seated(plan, counts, jokers, exposures, seatings[0])[1]
        target = self.score(plan, counts, jokers, exposures)
        for seating in seatings:
            score, slots = self._explain_seated(plan, counts, jokers, exposures, seating)
            if score == target:
                return slots
        raise AssertionError("no filling reaches the score")  # the engines disagree: a bug

    def _explain_seated(self, plan: Plan, counts: dict[int, int], jokers: int,
                        exposures: Sequence[Sequence[int]], seating: Seating
                        ) -> tuple[int, tuple[tuple[Slot, ...], ...]]:
        taken, free, kinds = seating
        bound: list[Bound | None] = [None] * (len(plan.groups) + len(plan.types))
        exposed = [False] * len(bound)
        for exposure in exposures:  # seat each as the seating found
            for gi in taken:
                g = plan.groups[gi]
                if bound[gi] is None and fits(exposure, g.tiles, g.jokers, self.joker):
                    bound[gi], exposed[gi] = Bound(g.tiles, g.jokers), True
                    break
            else:
                for ti in free:
                    slot, t = len(plan.groups) + ti, plan.types[ti]
                    if bound[slot] is None and self._free_fit(exposure, t) is not False:
                        shape = tuple(sorted(x for x in exposure if x != self.joker))
                        if len(set(shape)) == 1:
                            shape = (shape[0],) * t.size
                        bound[slot] = Bound(shape, t.joker_ok and len(set(shape)) == 1)
                        exposed[slot] = True
                        break
        for gi, g in enumerate(plan.groups):
            if bound[gi] is None:
                bound[gi] = Bound(g.tiles, g.jokers)
        # free groups: bind one at a time, keeping the best score reachable
        left = [ti for ti in range(len(plan.types)) if ti not in free]
        pinned = [plan.groups[gi] for gi in range(len(plan.groups)) if gi not in taken]
        forbid = set(kinds)
        goal = self._bound_score(plan, left, pinned, counts, jokers, forbid, 0) if left else 0
        extra_room = 0
        while left:
            ti = left.pop(0)
            t = plan.types[ti]
            # a binding scores at most what the rest scores without this group
            # plus what the group itself can hold: a shape whose bound falls
            # short of the goal cannot reach it, and is not scored
            rest = self._bound_score(plan, left, pinned, counts, jokers, forbid, extra_room)
            for shape, joker_ok in self._candidate_shapes(t, counts, forbid):
                held = sum(min(shape.count(x), counts.get(x, 0)) for x in set(shape))
                if rest + min(len(shape), held + (jokers if joker_ok else 0)) < goal:
                    continue
                trial = [*pinned, Slots(shape, joker_ok)]
                grown = forbid | ({shape[0]} if len(set(shape)) == 1 else set())
                if self._bound_score(plan, left, trial, counts, jokers, grown,
                                     extra_room) == goal:
                    pinned, forbid = trial, grown
                    bound[len(plan.groups) + ti] = Bound(shape, joker_ok)
                    break
            else:
                extra_room += t.room(plan.shape.all_jokers)
                bound[len(plan.groups) + ti] = Bound((ABSENT,) * t.size, t.joker_ok,
                                                      f"[{t.kind}]")
        score, slots = fill([b for b in bound if b is not None], counts, jokers,
                             self.deck, exposed, self.card.all_joker_groups, self._slots)
        return score, tuple(tuple(g) for g in slots)

    def _bound_score(self, plan: Plan, left: list[int], pinned: list[Slots],
                     counts: dict[int, int], jokers: int, forbid: set[int], extra: int) -> int:
        """The best score with some free groups bound (as concrete groups)."""
        shape = shape_of([plan.types[ti] for ti in left], plan.shape.all_jokers)
        return self.programme(shape, pins(pinned), counts, jokers, frozenset(forbid), extra)

    def _candidate_shapes(self, t: GroupType, counts: dict[int, int], forbid: set[int]
                          ) -> list[tuple[tuple[int, ...], bool]]:
        out: list[tuple[tuple[int, ...], bool]] = []
        if t.identical_size:
            out += [((k,) * t.identical_size, t.joker_ok) for k in sorted(counts)
                    if k not in forbid]
        if t.sequential:
            out += [(run, False) for run in sorted(self._runs) if any(counts.get(x) for x in run)]
        return out
