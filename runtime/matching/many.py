"""The matcher's answers for many hands at once: their counts as arrays,
every line's tiles away and the completions of each, a chunk at a time
(runtime/matching/matcher.py answers one hand)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, cast

import numpy as np

from jongg.runtime.card import Card, Line
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import Nearness, Slot
from jongg.runtime.matching.columns import Columns
from jongg.runtime.matching.lookup import Lookup
from jongg.runtime.matching.plans import Programme
from jongg.runtime.matching.tables import component_keys
from jongg.runtime.tiles import Deck

if TYPE_CHECKING:
    from jongg.runtime.matching.matcher import Matcher

FAR = 1 << 15  # tiles away past any line's: no line


class Match(tuple[Line, int, int, "Matcher", Hand], Nearness):
    """How near a hand is to one line: the same fields as the reference's
    LineMatch; the filling (`groups`, `missing`) is worked out when asked.
    Made from a tuple (line, tiles away, variation, matcher, hand), so that
    a query makes one per line in a single pass of C (tiles_away lists every
    line): no __new__ of its own, which would run in Python for each."""

    __slots__ = ()
    __repr__ = Nearness.__repr__  # in tile codes, not as a tuple

    @property
    def line(self) -> Line:
        return self[0]

    @property
    def tiles_away(self) -> int:  # type: ignore[override]  # read-only: a tuple's field
        return self[1]

    @property
    def variation(self) -> int:
        return self[2]

    def filling(self) -> tuple[tuple[Slot, ...], ...]:
        return self[3].explain(self[4], self[0], self[2])

    @property
    def groups(self) -> tuple[tuple[Slot, ...], ...]:
        return self.filling()


class ManyHands:
    """Matcher's queries over many hands (the Matcher supplies the rest)."""

    card: Card
    deck: Deck
    joker: int | None
    columns: Columns
    programme: Programme

    @cached_property
    def _sizes(self) -> list[int]:
        return [line.size for line in self.card.lines]

    @cached_property
    def _sizes_array(self) -> np.ndarray:
        return np.array(self._sizes, dtype=np.int32)


    @cached_property
    def _copies(self) -> list[int]:
        return [k.copies for k in self.deck.kinds]

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
        exposed = [i for i, h in enumerate(hands) if h.exposures]
        for i, found in zip(exposed, self.scores_many([hands[i] for i in exposed],
                                                      open_hands=open_hands), strict=True):
            for li, s, v in found:
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
        quick = self._quick(n)
        if quick is not None and n and not jokers.any():
            best, which = quick.scores_counts(component_keys(self.programme.table_components,
                                                             counts))
            return (self._sizes_array - best).astype(np.int16), which
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
        none. Structural lines with tables answer by their tables; concrete
        columns only for hands whose kinds some column holds; what tables
        cannot settle goes through tiles_away_counts."""
        n = len(counts)
        jokers = np.zeros(n, dtype=np.int64) if jokers is None else jokers
        quick = self._quick(n)
        if quick is not None and n and not jokers.any():
            size = counts.sum(axis=1) == self.card.hand_size
            found, variation = quick.complete_counts(component_keys(
                self.programme.table_components, counts))
            return np.where(size, found, -1), np.where(size, variation, -1)
        lines = self.card.lines
        done = np.zeros((n, len(lines)), dtype=bool)
        which = np.full((n, len(lines)), -1, dtype=np.int32)
        rest = jokers > 0  # hands the tables cannot settle
        tabled = self.programme.complete_tabled(counts[~rest]) if self.programme.structural \
            else []
        if tabled is None:
            rest[:] = True
        else:
            for plan, hit in tabled:
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
                    out[i] = Match((self.card.lines[li], 0, vi, cast("Matcher", self), hands[i]))
        for i, hand in enumerate(hands):
            if hand.exposures:
                out[i] = self.is_complete(hand, open_hands=open_hands)
        return out


    # -- what the Matcher supplies ----------------------------------------------------
    def _quick(self, hands: int = 1) -> Lookup | None:
        raise NotImplementedError  # Matcher

    def _held(self, hand: Hand) -> tuple[dict[int, int], int]:
        raise NotImplementedError  # Matcher

    def is_complete(self, hand: Hand, *, open_hands: bool | None = None) -> Match | None:
        raise NotImplementedError  # Matcher

    def scores_many(self, hands: Sequence[Hand], *, open_hands: bool | None = None
                    ) -> list[list[tuple[int, int, int]]]:
        raise NotImplementedError  # Matcher
