"""The compiled matcher: which lines a hand completes, and how near it is to each.

Two engines answer, both exact (the tests hold them to runtime/matching/reference.py;
docs/matcher.md tells how they work):

- concrete variations are the columns of one table (runtime/matching/columns.py);
- variations with free groups, and the few a table cannot seat exposures
  on, go through the structural programme (runtime/matching/plans.py).

Scores are slots filled; tiles away = line size - best score. Ties: line
order, then variation order (docs/matcher.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cached_property
from operator import le
from pathlib import Path

import numpy as np

from jongg.runtime.card import Card, Line
from jongg.runtime.hand import Hand
from jongg.runtime.matching import accelerated, folding
from jongg.runtime.matching.accelerated import extend_each
from jongg.runtime.matching.answers import Slot, nearness
from jongg.runtime.matching.building import Progress
from jongg.runtime.matching.columns import Columns, Seat, Tables, set_bits
from jongg.runtime.matching.lookup import Lookup
from jongg.runtime.matching.many import FAR, ManyHands, Match
from jongg.runtime.matching.plan import Plan
from jongg.runtime.matching.plans import Programme
from jongg.runtime.memo import Memo

__all__ = ["FAR", "Match", "Matcher"]

Best = dict[int, tuple[int, int]]  # line -> (score, variation)
LOOKUP_AFTER = 200  # hands answered before the one-hand lookups are built
EXPLAINED = 8192  # fillings kept (a few hundred bytes each)


_SERVED = ("scores", "tiles_away", "is_complete")  # the queries the lookups may answer


def _less_each(hand: Hand) -> tuple[list[int], list[Hand]]:
    """The kinds the hand holds concealed, and the hand less one of each."""
    options = sorted(set(hand.concealed))
    hands = []
    for tile in options:
        rest = list(hand.concealed)
        rest.remove(tile)
        hands.append(Hand(tuple(rest), hand.exposures))
    return options, hands


def _keep(best: Best, line: int, score: int, variation: int) -> None:
    old = best.get(line)
    if old is None or score > old[0] or (score == old[0] and variation < old[1]):
        best[line] = (score, variation)


class Matcher(ManyHands):
    """Answers matching queries for one compiled card."""

    def __init__(self, card: Card, tables: Tables, *, open_hands: bool = False):
        self.card = card
        self.deck = card.deck
        self.tables = tables
        self.open_hands = open_hands
        self.joker = self.deck.joker_index
        self.columns = Columns(card, tables)
        self.programme = Programme(card, self.columns.covered)
        self._allowed: dict[tuple[tuple[tuple[int, ...], ...], bool], bool] = {}
        # per exposures held: their columns' mask, the kinds they name, their plans' mask
        self._beside: dict[tuple[tuple[tuple[int, ...], ...], bool],
                           tuple[int, frozenset[int], int]] = {}
        self._lookup: Lookup | None = None
        self._no_lookup = False  # the card's lines cannot all be tabled
        self._asked = 0
        # a hand's fillings are asked again at each update of its seat until it
        # changes (hints, the lines near, each claim's purpose), and a server
        # asks for many tables' hands in between: kept for thousands of hands
        self._explained: Memo[tuple[Hand, str, int], tuple[tuple[Slot, ...], ...]] = \
            Memo(EXPLAINED)
        self._completed: dict[tuple[Hand, bool | None], Match | None] = {}  # exposed hands
        self._seated: dict[tuple[tuple[tuple[int, ...], ...], bool], list[Plan]] = {}

    def prepare(self, folder: Path | None = None, *, build: bool = True,
                progress: Progress | None = None) -> float:
        """Build (or load from `folder`) the per-suit tables of the lines of
        free groups alone; the seconds spent building. Without `build`, only
        tables already kept in `folder` are loaded (no long wait). `progress`
        hears (done, total) while tables are built."""
        seconds = self.programme.prepare(folder, build=build, progress=progress)
        self._lookup, self._no_lookup = None, False  # new tables: the lookups may serve now
        for query in _SERVED:  # and the class's queries answer until they do
            self.__dict__.pop(query, None)
        return seconds

    def _quick(self, hands: int = 1) -> Lookup | None:
        """The lookups (runtime/matching/lookup.py), built once this matcher
        has answered enough hands to be worth it (a short query never waits
        for them); None for a card they cannot serve."""
        if self._lookup is None and not self._no_lookup:
            self._asked += hands
            if self._asked >= LOOKUP_AFTER:
                self.use_lookups(folding.build(self.card, self.columns, self.programme))
        return self._lookup

    def use_lookups(self, found: Lookup | None) -> None:
        """Answer by these lookups from now on (None: the card has none):
        scores(), tiles_away() and is_complete() become the lookups' own
        functions for this matcher (Lookup.serve), one call from the caller
        to the answer; what they cannot answer goes the long way."""
        self._lookup, self._no_lookup = found, found is None
        if found is not None:
            self.__dict__.update(found.serve(self, Match, {
                "scores": self._scores_long, "tiles_away": self._tiles_away_long,
                "is_complete": self._is_complete_long}))

    # -- one hand --------------------------------------------------------------------
    def scores(self, hand: Hand, *, open_hands: bool | None = None
               ) -> list[tuple[int, int, int]]:
        """(line index, best score, variation index) for every line the
        exposures allow, in card order."""
        if not hand.exposures:
            quick = self._lookup or self._quick()
            if quick is not None:
                answered = quick.scores(hand.concealed)
                if answered is not None:
                    return answered
        return self._scores_long(hand, open_hands)

    def _scores_long(self, hand: Hand, open_hands: bool | None, near: bool = False
                     ) -> list[tuple[int, int, int]]:
        """scores() without the lookups; `near`: only as far as nearness()
        reads them (_score_plans)."""
        if not hand.exposures and self._table_alone:
            return self.columns.line_scores(*self._held(hand))
        open_hands = self.open_hands if open_hands is None else open_hands
        counts, jokers = self._held(hand)
        best: Best = {}
        programme, columns = self.programme, self.columns
        plans: Iterable[Plan] = programme.structural
        if not hand.exposures:
            if columns.count:
                scores, variations = columns.best(columns.scores(counts, jokers))
                best = dict(zip(columns.line_of_start, zip(scores.tolist(), variations.tolist(),
                                                           strict=True), strict=True))
        else:
            exposures = tuple(map(tuple, hand.exposures))
            seat = columns.seat(exposures, self.joker, open_hands)
            if seat is not None:
                best = columns.exposed(counts, jokers, seat)
            plans = self._seated_plans(exposures, seat, open_hands)
        self._score_plans(best, plans, counts, jokers, hand.exposures, near)
        return [(li, s, v) for li, (s, v) in sorted(best.items())]

    def _score_plans(self, best: Best, plans: Iterable[Plan], counts: dict[int, int],
                     jokers: int, exposures: Sequence[Sequence[int]], near: bool = False
                     ) -> None:
        """Fold the plans' scores into `best`, skipping a plan whose ceiling
        cannot beat its line's best so far. `near`: all that is wanted is
        the nearest line's tiles away and how many lines are that near
        (answers.nearness), so a plan whose ceiling leaves its line further
        than the nearest so far is skipped too: the nearest only comes
        nearer as plans are scored, so such a plan could neither change it
        nor bring another line to it."""
        exposed = sum(map(len, exposures))
        sizes = self._sizes
        least = min((sizes[li] - s for li, (s, _) in best.items()), default=FAR) if near \
            else FAR
        for plan in plans:
            old = best.get(plan.line)
            if old is not None or near:
                ceiling = plan.ceiling(counts, jokers, exposed)
                if near and sizes[plan.line] - ceiling > least:
                    continue
                if old is not None and (ceiling < old[0] or (ceiling == old[0]
                                                             and plan.variation > old[1])):
                    continue
            found = self.programme.score(plan, counts, jokers, exposures)
            if found is not None:
                _keep(best, plan.line, found, plan.variation)
                least = min(least, sizes[plan.line] - found)

    def discard_scores(self, hand: Hand, *, open_hands: bool | None = None
                       ) -> dict[int, list[tuple[int, int, int]]]:
        """scores() of the hand less one tile, for each kind it holds
        concealed: what a player weighs before a discard, in one pass of the
        table instead of one per tile."""
        options, hands = _less_each(hand)
        return dict(zip(options, self.scores_many(hands, open_hands=open_hands), strict=True))

    def discard_nearness(self, hand: Hand, *, open_hands: bool | None = None
                         ) -> dict[int, tuple[int, int] | None]:
        """For each kind the hand holds concealed, the hand less one of it:
        its tiles away from the nearest line and how many lines are that
        near (None: no line), as answers.nearness() reads discard_scores(),
        from the table's arrays when the table settles every line."""
        open_hands = self.open_hands if open_hands is None else open_hands
        exposures = tuple(map(tuple, hand.exposures))
        settled, seat = self._settled(exposures, open_hands)
        if not settled:  # each hand less a tile scored as far as nearness() reads it
            sizes = self._sizes
            options, hands = _less_each(hand)
            return {t: nearness(found, sizes) for t, found in
                    zip(options, self._many(hands, open_hands, near=True), strict=True)}
        options = sorted(set(hand.concealed))
        counts, jokers = self._held(hand)
        # one hand's rows summed, and the columns near it weighed: no gathering per hand
        weighed = self.columns.discard_nearness(counts, jokers, options, self.joker, seat)
        if weighed is not None:
            return {t: (b, n) for t, b, n in zip(options, *weighed, strict=True)}
        if seat is None:
            lines = self.columns.line_of_start
            scores = np.maximum.reduceat(  # each line's best score (which variation: no matter)
                self.columns.less_each(counts, jokers, options, self.joker),
                self.columns.tables.starts, axis=1)
        else:
            lines, scores, _ = self.columns.batch_exposed(
                *self._less_each_counts(hand, options), seat)
        away = np.where(scores >= 0, self._sizes_array[lines] - scores, FAR)
        best = away.min(axis=1, initial=FAR)
        near = (away == best[:, None]).sum(axis=1)
        return {t: (b, n) if b < FAR else None
                for t, b, n in zip(options, best.tolist(), near.tolist(), strict=True)}

    def nearness(self, hand: Hand, *, open_hands: bool | None = None) -> tuple[int, int] | None:
        """The hand's tiles away from the nearest line and how many lines are
        that near (None: no line), as answers.nearness() reads scores():
        from the columns within a tile of its nearest when the table
        settles every line (Columns.nearness), else from scores() worked out
        only as far as that reads them (_score_plans)."""
        open_hands = self.open_hands if open_hands is None else open_hands
        found = self._near_columns(hand, open_hands)
        if found is not None:
            return found
        if not hand.exposures:
            quick = self._lookup or self._quick()
            answered = quick.scores(hand.concealed) if quick is not None else None
            if answered is not None:
                return nearness(answered, self._sizes)
        return nearness(self._scores_long(hand, open_hands, near=True), self._sizes)

    def _near_columns(self, hand: Hand, open_hands: bool) -> tuple[int, int] | None:
        """Columns.nearness() of the hand where the table settles every line
        its exposures allow; None where it does not, or cannot tell."""
        settled, seat = self._settled(tuple(map(tuple, hand.exposures)), open_hands)
        return self.columns.nearness(*self._held(hand), self.joker, seat) if settled else None

    def _settled(self, exposures: tuple[tuple[int, ...], ...], open_hands: bool
                 ) -> tuple[bool, Seat | None]:
        """Whether the table settles every line a hand with these exposures
        may make (no plan to score one by one), and where they sit in it."""
        seat = self.columns.seat(exposures, self.joker, open_hands) if exposures else None
        return bool(self.columns.count) and not (exposures and seat is None) and not (
            self._seated_plans(exposures, seat, open_hands) if exposures
            else self.programme.structural), seat

    def _less_each_counts(self, hand: Hand, tiles: Sequence[int]
                          ) -> tuple[np.ndarray, np.ndarray]:
        """counts_of() the hand less one of each of these tiles (held), from
        the hand's counts: no hand built per tile."""
        counts, jokers = self._held(hand)
        row = np.zeros(len(self._copies), dtype=np.int64)
        row[list(counts)] = list(counts.values())
        less = np.repeat(row[None], len(tiles), axis=0)
        naturals = [i for i, t in enumerate(tiles) if t != self.joker]
        less[naturals, [tiles[i] for i in naturals]] -= 1
        return less, np.array([jokers - (t == self.joker) for t in tiles], dtype=np.int64)

    def _table_best(self, hands: Sequence[Hand], seat: Seat | None
                    ) -> tuple[list[int], np.ndarray, np.ndarray]:
        """Hands with the same exposures (seated so) scored on the table: the
        lines it scores, and per hand and line the best score (negative: the
        exposures rule the line out) and its variation."""
        columns = self.columns
        counts, jokers = self.counts_of(hands)
        if seat is None:
            scores, variations = columns.best(columns.batch(counts, jokers))
            return columns.line_of_start, scores, variations
        return columns.batch_exposed(counts, jokers, seat)

    def scores_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                    ) -> list[list[tuple[int, int, int]]]:
        """scores() of many hands: the table once for all the hands with the
        same exposures, the plans hand by hand."""
        return self._many(hands, self.open_hands if open_hands is None else open_hands)

    def _many(self, hands: Sequence[Hand], open_hands: bool, near: bool = False
              ) -> list[list[tuple[int, int, int]]]:
        """scores_many(); `near`: each only as far as nearness() reads it."""
        out: list[list[tuple[int, int, int]]] = [[] for _ in hands]
        groups: dict[tuple[tuple[int, ...], ...], list[int]] = {}
        for i, hand in enumerate(hands):
            groups.setdefault(tuple(map(tuple, hand.exposures)), []).append(i)
        columns = self.columns
        for exposures, members in groups.items():
            seat = columns.seat(exposures, self.joker, open_hands) if exposures else None
            if exposures and (seat is None or len(members) < self._one_by_one):
                # the table cannot seat them, or too few share them for the
                # table's NumPy passes to beat one call of C a hand
                for i in members:
                    out[i] = self._scores_long(hands[i], open_hands, near) if near else \
                        self.scores(hands[i], open_hands=open_hands)
                continue
            plans = self._seated_plans(exposures, seat, open_hands) if exposures \
                else self.programme.structural
            rows: list[list[tuple[int, int, int]]] = [[] for _ in members]
            if columns.count:
                lines, scores, variations = self._table_best([hands[i] for i in members], seat)
                rows = [[(li, s, v) for li, s, v in zip(lines, row, which, strict=True)
                         if s >= 0] for row, which in zip(scores.tolist(), variations.tolist(),
                                                          strict=True)]
            for j, i in enumerate(members):
                if plans:  # in card order already, unless plans add lines
                    best = {li: (s, v) for li, s, v in rows[j]}
                    counts_j, jokers_j = self._held(hands[i])
                    self._score_plans(best, plans, counts_j, jokers_j, hands[i].exposures,
                                      near)
                    rows[j] = [(li, s, v) for li, (s, v) in sorted(best.items())]
                out[i] = rows[j]
        return out

    @property
    def _one_by_one(self) -> int:
        """Below this many hands with the same exposures, scores_many()
        scores them one at a time: with the C accelerator one exposed hand
        of the sample card takes about 5 us, and the table's NumPy passes
        over a group about 30 us plus 2-3 us a hand, so the table wins only
        from about a dozen hands on (without C a hand alone costs more than
        a place in a group)."""
        return 12 if accelerated.line_best is not None else 1

    def _seated_plans(self, exposures: tuple[tuple[int, ...], ...], seat: Seat | None,
                      open_hands: bool) -> list[Plan]:
        """The plans to score one by one for a hand with these exposures:
        those the table cannot settle (every plan when it cannot seat them)
        and the structural ones, if the exposures can be whole groups of
        them. Kept per exposures."""
        key = (exposures, open_hands)
        known = self._seated.get(key)
        if known is None:
            programme = self.programme
            able = programme.able(exposures) & self._eligible(open_hands)
            plans: Iterable[Plan]
            if seat is None:
                plans = map(programme.flat.__getitem__, set_bits(able))
            else:
                plans = (p for p in itertools.chain((programme.plans[li][vi]
                                                     for li, vi in seat.slow),
                                                    programme.structural)
                         if programme.bit(p) & able)
            known = [p for p in plans if programme.seatings(p, exposures)]
            if len(self._seated) > 10_000:
                self._seated.clear()
            self._seated[key] = known
        return known

    def _eligible(self, open_hands: bool) -> int:
        """The plans a hand with exposures may make (a mask over
        programme.flat): a concealed line's only with open hands."""
        if open_hands:
            return (1 << len(self.programme.flat)) - 1
        return self._exposable

    @cached_property
    def _exposable(self) -> int:
        return sum(1 << i for i, p in enumerate(self.programme.flat) if not p.concealed)

    def allows(self, exposures: Sequence[Sequence[int]], *, open_hands: bool | None = None
               ) -> bool:
        """Whether some line can take these exposures, each a whole group of
        one of its variations: whether scores() lists any line for a hand
        with them, which the concealed tiles do not change. Most exposures a
        claim window asks about no line can take: a mask per exposure of the
        columns and plans it fits refuses them before any scoring. Kept per
        exposures (a claim window asks it for every set it could make)."""
        open_hands = self.open_hands if open_hands is None else open_hands
        key = (tuple(map(tuple, exposures)), open_hands)
        known = self._allowed.get(key)
        if known is None:
            if len(self._allowed) > 20_000:
                self._allowed.clear()
            known = self._allowed[key] = bool(
                (self.columns.able(key[0], self.joker)
                 or self.programme.able(key[0]) & self._eligible(open_hands))
                and self._takes(key[0], open_hands))
        return known

    def allows_beside(self, exposures: tuple[tuple[int, ...], ...], more: tuple[int, ...], *,
                      open_hands: bool | None = None) -> bool:
        """allows() of these exposures and one more beside them (`more`):
        what a claim window asks of each rack and set. The masks of the
        exposures held are kept, so the sets no line can take beside them
        (most) are refused by their own mask alone; the others are asked
        the whole question."""
        open_hands = self.open_hands if open_hands is None else open_hands
        key = (exposures, open_hands)
        held = self._beside.get(key)
        if held is None:
            if len(self._beside) > 10_000:
                self._beside.clear()
            mask, kinds = self.columns.able_held(exposures, self.joker)
            held = self._beside[key] = (
                mask, kinds, self.programme.able(exposures) & self._eligible(open_hands))
        mask, kinds, plans = held
        if mask:
            k, here = self.columns.able_one(more, self.joker)
            mask = 0 if k < 0 or k in kinds else mask & here
        if plans:
            plans &= self.programme.able((more,))
        return bool(mask or plans) and self.allows(tuple(sorted((*exposures, more))),
                                                   open_hands=open_hands)

    def _takes(self, exposures: tuple[tuple[int, ...], ...], open_hands: bool) -> bool:
        """Whether scores() lists a line for a hand of these exposures and no
        concealed tiles, stopping at the first found: the table answers
        without being cut down to the columns they sit on, then the plans
        are scored one at a time."""
        hand = Hand((), exposures)
        if not exposures:
            return bool(self.scores(hand, open_hands=open_hands))
        counts, jokers = self._held(hand)
        seat, seated = self.columns.seat_bare(exposures, self.joker, open_hands)
        if seated:
            return True
        programme = self.programme
        return any(programme.score(plan, counts, jokers, hand.exposures) is not None
                   for plan in self._seated_plans(exposures, seat, open_hands))

    def tiles_away(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """Every line the exposures allow, nearest first (ties: line order)."""
        if not hand.exposures:
            quick = self._lookup or self._quick()
            if quick is not None:
                answered = quick.nearest(hand.concealed, Match, self, hand)
                if answered is not None:
                    return answered
        return self._tiles_away_long(hand, open_hands)

    def _tiles_away_long(self, hand: Hand, open_hands: bool | None) -> list[Match]:
        """tiles_away() without the lookups."""
        if not hand.exposures and self._table_alone:
            return self._table_nearest(hand)
        sizes = self._sizes
        found = sorted([(sizes[li] - s, li, v) for li, s, v in
                        self.scores(hand, open_hands=open_hands)])
        if not found:
            return []
        away, lines, variations = zip(*found, strict=True)
        return list(map(Match, zip(map(self.card.lines.__getitem__, lines), away, variations,
                                    itertools.repeat(self), itertools.repeat(hand))))

    @cached_property
    def _table_alone(self) -> bool:
        """Whether the table holds every variation of every line (no plan to
        score one by one for a hand without exposures)."""
        return not self.programme.structural and \
            self.columns.line_of_start == list(range(len(self.card.lines))) and \
            all(line.size == self.card.hand_size for line in self.card.lines)

    def _table_nearest(self, hand: Hand) -> list[Match]:
        """tiles_away() of a hand without exposures when the table holds
        every line. Every line is of the hand's size, so the lines' keys
        (Columns.line_best) from the highest are nearest first, ties in card
        order (columns run in card order); a key tells its line, tiles away
        and variation (one list by key), and the lines' Match objects are
        made in one call (in C where the accelerator is built). The keys
        are sorted as Python integers: for a card's few dozen lines that is
        quicker than NumPy's sort and gather."""
        keys = self.columns.line_key_list(*self._held(hand))
        keys.sort(reverse=True)
        return extend_each(Match, self._key_answers, keys, hand)

    @cached_property
    def _key_answers(self) -> list[tuple[Line, int, int, Matcher]]:
        """By key (Columns.key_columns): the Line of its column, the tiles
        away, the variation and this matcher, the start of its Match. A key
        of no column (-1) reads line 0, variation 0: no line's best."""
        score, column = self.columns.key_columns()
        line_of = self.columns.column_line + [0]
        variation_of = self.columns.column_variation + [0]
        lines, size = self.card.lines, self.card.hand_size
        return [(lines[line_of[c]], size - s, variation_of[c], self)
                for s, c in zip(score.tolist(), column.tolist(), strict=True)]

    def nearest(self, hand: Hand, k: int, *, open_hands: bool | None = None) -> list[Match]:
        """The k nearest lines."""
        return self.tiles_away(hand, open_hands=open_hands)[:k]

    def completions(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """The lines a hand of the card's size completes, highest value first."""
        if hand.size != self.card.hand_size:
            return []
        lines = self.card.lines
        done = [Match((lines[li], 0, v, self, hand))
                for li, s, v in self.scores(hand, open_hands=open_hands)
                if s == lines[li].size]
        done.sort(key=lambda m: -(m.line.value or 0))
        return done

    def is_complete(self, hand: Hand, *, open_hands: bool | None = None) -> Match | None:
        """The best line the hand completes (highest value, then card order), or None."""
        if not hand.exposures:
            quick = self._lookup or self._quick()
            if quick is not None:
                answered = quick.completed(hand.concealed, Match, self, hand)
                if answered is not False:
                    return answered  # type: ignore[no-any-return]
        return self._is_complete_long(hand, open_hands)

    def _is_complete_long(self, hand: Hand, open_hands: bool | None) -> Match | None:
        """is_complete() without the lookups."""
        if hand.size != self.card.hand_size:
            return None
        if hand.exposures:  # the last few kept: a claim window asks again as it is ruled
            key = (hand, open_hands)
            if key in self._completed:
                return self._completed[key]
            if len(self._completed) > 256:
                self._completed.clear()
            done = self._completed[key] = self._exposed_complete(hand, open_hands)
            return done
        counts, jokers = self._held(hand)
        columns = self.columns
        found: dict[int, int] = {}  # line -> first variation completed
        for column in columns.complete(counts):
            found.setdefault(columns.column_line[column], columns.column_variation[column])
        lines = self.card.lines
        for plan in self.programme.structural:
            size = lines[plan.line].size
            if plan.variation < found.get(plan.line, plan.variation + 1) and \
                    self.programme.completes(plan, counts, jokers, size):
                found[plan.line] = plan.variation
        if not found:
            return None
        li = min(found, key=lambda li: (-(lines[li].value or 0), li))
        return Match((lines[li], 0, found[li], self, hand))

    def _exposed_complete(self, hand: Hand, open_hands: bool | None) -> Match | None:
        near = self._near_columns(hand, self.open_hands if open_hands is None else open_hands)
        if near is not None and near[0] > 0:
            return None  # a tile or more from every line: no line is scored
        done = self.completions(hand, open_hands=open_hands)
        return done[0] if done else None

    def explain(self, hand: Hand, line: Line, variation: int) -> tuple[tuple[Slot, ...], ...]:
        """How the hand's tiles fill one variation of a line (kept for up to
        EXPLAINED hands: a Match's missing tiles and jokers ask twice, and a
        seat's updates ask again until its hand changes)."""
        def work() -> tuple[tuple[Slot, ...], ...]:
            plan = self.programme.plans[self._line_index[line.id]][variation]
            counts, jokers = self._held(hand)
            return self.programme.explain(plan, counts, jokers, hand.exposures)
        return self._explained.get((hand, line.id, variation), work)

    @cached_property
    def _line_index(self) -> dict[str, int]:
        return {line.id: li for li, line in enumerate(self.card.lines)}

    def _held(self, hand: Hand) -> tuple[dict[int, int], int]:
        """The hand's concealed naturals and jokers; a hand the deck cannot
        hold is refused (it would read another kind's row)."""
        counts, jokers = hand.naturals(self.joker)
        copies = self._copies
        if counts and (min(counts) < 0 or max(counts) >= len(copies) or not all(
                map(le, counts.values(), map(copies.__getitem__, counts)))):  # checked in C
            for k, c in counts.items():  # which tile, said
                if not 0 <= k < len(copies):
                    raise ValueError(f"hand holds tile kind {k}, which {self.deck.name} has not")
                if c > copies[k]:
                    raise ValueError(f"hand holds {c} {self.deck.code(k)}, but "
                                     f"{self.deck.name} holds {copies[k]}")
        return counts, jokers
