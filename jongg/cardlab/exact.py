"""What a card's lines are, computed exactly from their variations (no
simulation): dominated lines, overlapping pairs, lines only jokers can make.

A hand completes a line when the matcher says so (docs/matcher.md); every
answer here is settled by the matcher itself, on hands built from the
variations:

- **overlap**: some hand completes both lines. If one does, so does a hand
  without exposures (an exposure only adds constraints), and the one with
  the most naturals two variations share (their common tiles, the rest
  jokers) is the easiest: it is tried for every pair of variations, and a
  pair found is shown by such a hand.
- **dominated**: every hand that completes line A also completes a line B
  of equal or greater value, so A is never the line declared (the highest
  value is, then card order) unless B is later on the card with the same
  value. Every hand completing A is tried: each variation's naturals and
  every number of jokers its groups admit (within the deck's jokers), and,
  when A may be exposed, each of its sets of three or more alike exposed,
  with their jokers. A variation of B with the same groups (jokers allowed
  at least where A allows them) settles a variation of A with its
  exposures at once.
- **only through jokers**: every variation needs more of some tile than the
  deck holds.
- **impossible**: no hand of the deck completes any variation: each needs
  more naturals of a tile than the deck holds once every group has taken
  the jokers it admits (a pair takes none; a set keeps one natural), or
  more jokers than the deck has.

Lines of structural groups (`[pung]`, `4[set]`) have no fixed tiles and are
left out (listed as such).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.hand import Hand
from jongg.runtime.matching.matcher import Matcher

BUDGET = 20_000  # exposed hands tried for one pair of lines before it is left unsettled


@dataclass
class Exact:
    dominated: list[tuple[str, str]] = field(default_factory=list)  # (line, by a line)
    overlaps: list[tuple[str, str, str]] = field(default_factory=list)  # (a, b, a hand)
    joker_only: list[str] = field(default_factory=list)
    impossible: list[str] = field(default_factory=list)  # no deal can complete them
    structural: list[str] = field(default_factory=list)  # left out
    unsettled: list[tuple[str, str]] = field(default_factory=list)  # too many hands to try


@dataclass(frozen=True)
class _Row:
    """A variation as vectors over tile kinds."""

    line: int
    variation: Variation
    tiles: np.ndarray  # naturals it needs, per kind
    room: np.ndarray  # how many of them jokers may stand for, per kind


def _rows(card: Card, kinds: int) -> list[_Row]:
    rows = []
    spare = 0 if card.all_joker_groups else 1  # a group keeps one natural
    for li, line in enumerate(card.lines):
        if line.structural:
            continue
        for v in line.variations:
            tiles = np.zeros(kinds, dtype=np.int64)
            room = np.zeros(kinds, dtype=np.int64)
            for g in v.groups:
                for t in g.tiles:
                    tiles[t] += 1
                if g.jokers:
                    room[g.tiles[0]] += g.size - spare
            rows.append(_Row(li, v, tiles, room))
    return rows


class _Card:
    def __init__(self, matcher: Matcher):
        self.matcher = matcher
        self.card = matcher.card
        deck = self.card.deck
        self.kinds = len(deck.kinds)
        self.copies = np.array([k.copies for k in deck.kinds], dtype=np.int64)
        self.jokers = deck.jokers
        if deck.joker_index is not None:
            self.copies[deck.joker_index] = 0
        self.joker_code = deck.code(deck.joker_index) if deck.joker_index is not None else "J"
        self.rows = _rows(self.card, self.kinds)
        self.size = self.card.hand_size

    def away(self, naturals: np.ndarray) -> np.ndarray:
        """Tiles away of every line for hands of these naturals, jokers the rest."""
        jokers = self.size - naturals.sum(axis=1)
        away, _ = self.matcher.tiles_away_counts(naturals, jokers)
        return away

    def value(self, li: int) -> int:
        return self.card.lines[li].value or 0

    def text(self, naturals: np.ndarray) -> str:
        deck = self.card.deck
        codes = [deck.code(t) for t in range(self.kinds) for _ in range(int(naturals[t]))]
        return " ".join(codes + [self.joker_code] * (self.size - int(naturals.sum())))

    # -- hands completing a variation ------------------------------------------------
    def unmade(self, row: _Row) -> bool:
        """Whether no hand of the deck completes this variation."""
        low = np.maximum(row.tiles - row.room, 0)  # naturals it must hold
        most = np.minimum(row.tiles, self.copies)  # naturals it may hold
        return bool((low > self.copies).any()) or self.size - int(most.sum()) > self.jokers

    def fillings(self, row: _Row) -> np.ndarray:
        """Every naturals vector a hand completing this variation may hold
        (jokers the rest, within the deck's)."""
        low = np.maximum(row.tiles - row.room, 0)
        high = np.minimum(row.tiles, self.copies)
        free = np.flatnonzero(high > low)
        grid = np.array(list(itertools.product(*(range(int(low[k]), int(high[k]) + 1)
                                                 for k in free))), dtype=np.int64)
        out = np.repeat(high[None, :], max(1, len(grid)), axis=0)
        if len(free):
            out[:, free] = grid
        return out[self.size - out.sum(axis=1) <= self.jokers]

    def exposed_hands(self, row: _Row) -> Iterator[Hand]:
        """Hands completing the variation with some of its sets of three or
        more alike exposed, each group with every number of jokers it admits."""
        groups = row.variation.groups
        spare = 0 if self.card.all_joker_groups else 1
        sets = [i for i, g in enumerate(groups) if g.identical and g.size >= 3]
        joker = self.card.deck.joker_index
        choices = [range(0, g.size - spare + 1) if g.jokers else range(1) for g in groups]
        for shown in itertools.chain.from_iterable(
                itertools.combinations(sets, k) for k in range(1, len(sets) + 1)):
            for counts in itertools.product(*choices):
                if sum(counts) > self.jokers:
                    continue
                used = np.zeros(self.kinds, dtype=np.int64)
                concealed: list[int] = []
                exposures = []
                for i, (g, k) in enumerate(zip(groups, counts, strict=True)):
                    naturals = g.tiles[: g.size - k]
                    for t in naturals:
                        used[t] += 1
                    held = (*naturals, *([joker] * k)) if joker is not None else naturals
                    if i in shown:
                        exposures.append(tuple(held))
                    else:
                        concealed.extend(held)
                if (used <= self.copies).all():
                    yield Hand(tuple(sorted(concealed)), tuple(exposures))

    def completes(self, hand: Hand, li: int) -> bool:
        size = self.card.lines[li].size
        return any(i == li and s == size for i, s, _ in self.matcher.scores(hand))


def _twin(a: Variation, b: Variation) -> bool:
    """b has a's groups (jokers allowed at least where a allows them)."""
    left = sorted(b.groups, key=lambda g: g.tiles)
    for g in sorted(a.groups, key=lambda g: g.tiles):
        match = next((h for h in left if h.tiles == g.tiles and (h.jokers or not g.jokers)),
                     None)
        if match is None:
            return False
        left.remove(match)
    return not left


def exact(matcher: Matcher) -> Exact:
    """The exact flags of the card a matcher plays."""
    c = _Card(matcher)
    lines = c.card.lines
    found = Exact(structural=[line.id for line in lines if line.structural])
    by_line: dict[int, list[_Row]] = {}
    for row in c.rows:
        by_line.setdefault(row.line, []).append(row)
    for li, rows in by_line.items():
        if all((row.tiles > c.copies).any() for row in rows):
            found.joker_only.append(lines[li].id)
        if all(c.unmade(row) for row in rows):
            found.impossible.append(lines[li].id)
    found.overlaps = _overlaps(c)
    for li, rows in by_line.items():
        _dominated(c, li, rows, by_line, found)
    return found


def _overlaps(c: _Card) -> list[tuple[str, str, str]]:
    rows = c.rows
    if not rows:
        return []
    tiles = np.array([r.tiles for r in rows])
    room = np.array([r.room for r in rows])
    line_of = np.array([r.line for r in rows])
    seen: dict[tuple[int, int], np.ndarray] = {}
    for row in rows:
        later = np.flatnonzero(line_of > row.line)
        if not len(later):
            continue
        naturals = np.minimum(np.minimum(tiles[later], row.tiles), c.copies)
        fits = ((row.tiles - naturals) <= row.room).all(axis=1) & \
            ((tiles[later] - naturals) <= room[later]).all(axis=1) & \
            (c.size - naturals.sum(axis=1) <= c.jokers)
        for j in np.flatnonzero(fits):
            seen.setdefault((row.line, int(line_of[later[j]])), naturals[j])
    if not seen:
        return []
    pairs = list(seen)
    away = c.away(np.array([seen[p] for p in pairs]))
    lines = c.card.lines
    return [(lines[a].id, lines[b].id, c.text(seen[(a, b)]))
            for k, (a, b) in enumerate(pairs) if away[k, a] == 0 and away[k, b] == 0]


def _dominated(c: _Card, li: int, rows: list[_Row], by_line: dict[int, list[_Row]],
               found: Exact) -> None:
    lines = c.card.lines
    line = lines[li]
    # a hand of every variation's most naturals must complete the other line
    most = c.away(np.array([np.minimum(r.tiles, c.copies) for r in rows]))
    rivals = [b for b in by_line if b != li and c.value(b) >= c.value(li) and
              (most[:, b] == 0).all()]
    if not rivals:
        return
    hands = np.concatenate([c.fillings(r) for r in rows])
    away = c.away(hands)
    away = away[away[:, li] == 0]  # hands the matcher says complete the line
    for b in rivals:
        if not (away[:, b] == 0).all():
            continue
        verdict = _exposed(c, line, rows, b, by_line[b])
        if verdict is None:
            found.unsettled.append((line.id, lines[b].id))
        elif verdict:
            found.dominated.append((line.id, lines[b].id))
            return  # one line that dominates it is enough to name


def _exposed(c: _Card, line: Line, rows: list[_Row], b: int, rivals: list[_Row]) -> bool | None:
    """Do the hands completing `line` with exposures complete line b too?
    None: too many hands to try."""
    if line.concealed and not c.matcher.open_hands:
        return True  # it has none
    tried = 0
    for row in rows:
        if any(_twin(row.variation, other.variation) for other in rivals) and \
                not (c.card.lines[b].concealed and not c.matcher.open_hands):
            continue
        for hand in c.exposed_hands(row):
            tried += 1
            if tried > BUDGET:
                return None
            if c.completes(hand, row.line) and not c.completes(hand, b):
                return False
    return True
