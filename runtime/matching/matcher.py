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
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from jongg.runtime.card import Card, Line
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import Nearness, Slot
from jongg.runtime.matching.columns import Columns, Tables
from jongg.runtime.matching.plans import Plan, Programme

Best = dict[int, tuple[int, int]]  # line -> (score, variation)


@dataclass(eq=False, repr=False)
class Match(Nearness):
    """How near a hand is to one line: the same fields as the reference's
    LineMatch; the filling (`groups`, `missing`) is worked out when asked."""

    line: Line
    tiles_away: int
    variation: int
    _matcher: Matcher = field(repr=False)
    _hand: Hand = field(repr=False)
    _groups: tuple[tuple[Slot, ...], ...] | None = field(default=None, repr=False)

    def filling(self) -> tuple[tuple[Slot, ...], ...]:
        if self._groups is None:
            self._groups = self._matcher.explain(self._hand, self.line, self.variation)
        return self._groups

    @property
    def groups(self) -> tuple[tuple[Slot, ...], ...]:
        return self.filling()


def _keep(best: Best, line: int, score: int, variation: int) -> None:
    old = best.get(line)
    if old is None or score > old[0] or (score == old[0] and variation < old[1]):
        best[line] = (score, variation)


class Matcher:
    """Answers matching queries for one compiled card."""

    def __init__(self, card: Card, tables: Tables, *, open_hands: bool = False):
        self.card = card
        self.deck = card.deck
        self.tables = tables
        self.open_hands = open_hands
        self.joker = self.deck.joker_index
        self.columns = Columns(card, tables)
        self.programme = Programme(card)

    def prepare(self, folder: Path | None = None, *, build: bool = True) -> float:
        """Build (or load from `folder`) the per-suit tables of the lines of
        free groups alone; the seconds spent building. Without `build`, only
        tables already kept in `folder` are loaded (no long wait)."""
        return self.programme.prepare(folder, build=build)

    # -- one hand --------------------------------------------------------------------
    def scores(self, hand: Hand, *, open_hands: bool | None = None
               ) -> list[tuple[int, int, int]]:
        """(line index, best score, variation index) for every line the
        exposures allow, in card order."""
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
            seated = columns.exposed(counts, jokers, hand.exposures, self.joker, open_hands)
            if seated is None:  # exposures the table cannot seat: every plan
                plans = (p for line in programme.plans for p in line)
            else:
                best, slow = seated
                plans = itertools.chain((programme.plans[li][vi] for li, vi in slow), plans)
            plans = (p for p in plans if not (p.concealed and not open_hands))
        exposed = sum(map(len, hand.exposures))
        for plan in plans:
            old = best.get(plan.line)
            if old is not None:
                ceiling = plan.ceiling(counts, jokers, exposed)
                if ceiling < old[0] or (ceiling == old[0] and plan.variation > old[1]):
                    continue  # cannot beat the line's best so far
            found = programme.score(plan, counts, jokers, hand.exposures)
            if found is not None:
                _keep(best, plan.line, found, plan.variation)
        return [(li, s, v) for li, (s, v) in sorted(best.items())]

    def tiles_away(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """Every line the exposures allow, nearest first (ties: line order)."""
        lines = self.card.lines
        found = [Match(lines[li], lines[li].size - s, v, self, hand)
                 for li, s, v in self.scores(hand, open_hands=open_hands)]
        found.sort(key=lambda m: m.tiles_away)
        return found

    def nearest(self, hand: Hand, k: int, *, open_hands: bool | None = None) -> list[Match]:
        """The k nearest lines."""
        return self.tiles_away(hand, open_hands=open_hands)[:k]

    def completions(self, hand: Hand, *, open_hands: bool | None = None) -> list[Match]:
        """The lines a hand of the card's size completes, highest value first."""
        if hand.size != self.card.hand_size:
            return []
        lines = self.card.lines
        done = [Match(lines[li], 0, v, self, hand)
                for li, s, v in self.scores(hand, open_hands=open_hands)
                if s == lines[li].size]
        done.sort(key=lambda m: -(m.line.value or 0))
        return done

    def is_complete(self, hand: Hand, *, open_hands: bool | None = None) -> Match | None:
        """The best line the hand completes (highest value, then card order), or None."""
        if hand.size != self.card.hand_size:
            return None
        if hand.exposures:
            done = self.completions(hand, open_hands=open_hands)
            return done[0] if done else None
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
        return Match(lines[li], 0, found[li], self, hand)

    def explain(self, hand: Hand, line: Line, variation: int) -> tuple[tuple[Slot, ...], ...]:
        """How the hand's tiles fill one variation of a line."""
        plan = self.programme.plans[self.card.lines.index(line)][variation]
        counts, jokers = self._held(hand)
        return self.programme.explain(plan, counts, jokers, hand.exposures)

    def _held(self, hand: Hand) -> tuple[dict[int, int], int]:
        """The hand's concealed naturals and jokers; a hand the deck cannot
        hold is refused (it would read another kind's row)."""
        counts, jokers = hand.naturals(self.joker)
        copies = self._copies
        for k, c in counts.items():
            if not 0 <= k < len(copies):
                raise ValueError(f"hand holds tile kind {k}, which {self.deck.name} has not")
            if c > copies[k]:
                raise ValueError(f"hand holds {c} {self.deck.code(k)}, but {self.deck.name} "
                                 f"holds {copies[k]}")
        return counts, jokers

    @cached_property
    def _copies(self) -> list[int]:
        return [k.copies for k in self.deck.kinds]

    # -- many hands -------------------------------------------------------------------
    def counts_of(self, hands: Sequence[Hand]) -> tuple[np.ndarray, np.ndarray]:
        """Many hands' concealed tiles as (hands x kinds) counts of naturals and
        (hands,) jokers: the form the batch queries read."""
        kinds = len(self.deck.kinds)
        lengths = [len(h.concealed) for h in hands]
        tiles = np.fromiter(itertools.chain.from_iterable(h.concealed for h in hands),
                            dtype=np.int64, count=sum(lengths))
        if len(tiles) and not 0 <= tiles.min() <= tiles.max() < kinds:
            raise ValueError(f"a hand holds a tile kind {self.deck.name} has not")
        owner = np.repeat(np.arange(len(hands)), lengths)
        counts = np.bincount(owner * kinds + tiles, minlength=len(hands) * kinds)
        counts = counts.reshape(len(hands), kinds)
        over = (counts > np.asarray(self._copies)).any(axis=1)
        if over.any():
            self._held(hands[int(np.flatnonzero(over)[0])])  # raises, naming the tile
        jokers = np.zeros(len(hands), dtype=np.int64)
        if self.joker is not None:
            jokers = counts[:, self.joker].copy()
            counts[:, self.joker] = 0
        return counts, jokers

    def tiles_away_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Tiles away and the nearest variation of every line, for many hands:
        two (hands x lines) arrays, -1 where the exposures rule a line out."""
        lines = self.card.lines
        away = np.full((len(hands), len(lines)), -1, dtype=np.int16)
        which = np.full((len(hands), len(lines)), -1, dtype=np.int32)
        plain = [i for i, h in enumerate(hands) if not h.exposures]
        if plain:
            counts, jokers = self.counts_of([hands[i] for i in plain])
            away[plain], which[plain] = self.tiles_away_counts(counts, jokers)
        for i, hand in enumerate(hands):
            if hand.exposures:
                for li, s, v in self.scores(hand, open_hands=open_hands):
                    away[i, li], which[i, li] = lines[li].size - s, v
        return away, which

    def tiles_away_counts(self, counts: np.ndarray, jokers: np.ndarray | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
        """tiles_away_many for hands without exposures given as counts
        (counts_of): the concrete table a chunk at a time, and each structural
        line through its tables once prepare() built them."""
        lines = self.card.lines
        n = len(counts)
        jokers = np.zeros(n, dtype=np.int64) if jokers is None else jokers
        best = np.full((n, len(lines)), -1, dtype=np.int32)
        which = np.full((n, len(lines)), -1, dtype=np.int32)
        columns = self.columns
        if columns.count:
            scores, variations = columns.best(columns.batch(counts, jokers))
            best[:, columns.line_of_start] = scores
            which[:, columns.line_of_start] = variations
        if self.programme.structural:
            self.programme.fold(counts, jokers, best, which)
        sizes = np.array([line.size for line in lines])
        return np.where(best >= 0, sizes - best, -1).astype(np.int16), which

    def complete_counts(self, counts: np.ndarray, jokers: np.ndarray | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
        """For hands without exposures given as counts: the line each
        completes (highest value, then card order) and its variation, -1 for
        none. Structural lines with tables answer by bits; concrete columns
        only for hands whose kinds some column holds; what bits cannot settle
        goes through tiles_away_counts."""
        n = len(counts)
        jokers = np.zeros(n, dtype=np.int64) if jokers is None else jokers
        lines = self.card.lines
        done = np.zeros((n, len(lines)), dtype=bool)
        which = np.full((n, len(lines)), -1, dtype=np.int32)
        rest = jokers > 0  # hands the bits cannot settle
        bits = self.programme.complete_bits(counts[~rest]) if self.programme.structural else []
        if bits is None:
            rest[:] = True
        else:
            for plan, hit in bits:
                rows = np.flatnonzero(~rest)[hit]
                first = rows[which[rows, plan.line] < 0]
                done[first, plan.line] = True
                which[first, plan.line] = plan.variation
        columns = self.columns
        if columns.count and not rest.all():
            rows = np.flatnonzero(~rest)
            rows = rows[columns.may_complete(counts[rows])]
            scores, variations = columns.best(columns.batch(counts[rows], jokers[rows]))
            sizes = np.array([lines[li].size for li in columns.line_of_start])
            for j, li in enumerate(columns.line_of_start):
                hit = scores[:, j] == sizes[j]
                won, won_v = rows[hit], variations[hit, j]
                better = (which[won, li] < 0) | (won_v < which[won, li])
                done[won[better], li] = True
                which[won[better], li] = won_v[better]
        if rest.any():
            away, slow_which = self.tiles_away_counts(counts[rest], jokers[rest])
            done[rest], which[rest] = away == 0, slow_which
        done &= (counts.sum(axis=1) + jokers == self.card.hand_size)[:, None]
        pick = np.where(done, self._line_rank, len(lines)).argmin(axis=1)
        found = done[np.arange(n), pick]
        return np.where(found, pick, -1), np.where(found, which[np.arange(n), pick], -1)

    @cached_property
    def _line_rank(self) -> np.ndarray:
        lines = self.card.lines
        order = sorted(range(len(lines)), key=lambda li: (-(lines[li].value or 0), li))
        rank = np.empty(len(lines), dtype=np.int64)
        rank[order] = np.arange(len(lines))
        return rank

    def is_complete_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                         ) -> list[Match | None]:
        """is_complete for many hands."""
        out: list[Match | None] = [None] * len(hands)
        plain = [i for i, h in enumerate(hands) if not h.exposures]
        if plain:
            lines, variations = self.complete_counts(*self.counts_of([hands[i] for i in plain]))
            for i, li, vi in zip(plain, lines.tolist(), variations.tolist(), strict=True):
                if li >= 0:
                    out[i] = Match(self.card.lines[li], 0, vi, self, hands[i])
        for i, hand in enumerate(hands):
            if hand.exposures:
                out[i] = self.is_complete(hand, open_hands=open_hands)
        return out
