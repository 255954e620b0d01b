"""What a hand may become: the odds of completing the card's lines before
the wall ends, as the expert agent weighs them.

Every concrete variation of the card is a row of two arrays over tile kinds:
the slots no joker may fill (`need`) and those a joker may (`wild`). A
hand's shortfall on every variation is read off its counts in one step, and
the odds of making it up come from a closed form: the copies of a missing
kind drawn before the wall ends are a Poisson count, at the rate that kind
has among the tiles this seat has not seen, over the draws left; the slots a
joker may fill pool every useful natural (drawn, or claimed from a discard
when the line may be exposed) with every joker drawn or held. Rough, but
monotone in what matters (tiles missing, copies still live, jokers, draws
left) and cheap enough to ask of every discard.

Lines with free groups (`3[set] [pair]`) have no rows: the matcher answers
for them (runtime/agents/shapes.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from jongg.runtime.agents.odds import MOST, Odds, poisson_at_least
from jongg.runtime.card import Card, Variation
from jongg.runtime.memo import Memo

SIZES = (3, 4, 5, 6)  # identical groups an exposure may be seated on
SLACK = 3  # variations this much further than the nearest are still weighed
CANDIDATES = 48  # at most this many variations weighed per hand
FEW_CHANGED = 8  # kinds whose counts changed, at most, for shortfalls to be updated
SUM = np.add.reduce  # a sum along an axis, without ndarray.sum's wrapper (small arrays)


@dataclass(eq=False)
class CardTable:
    """The card's concrete variations as arrays over tile kinds."""

    need: np.ndarray  # (V, K): slots no joker may fill
    wild: np.ndarray  # (V, K): slots a joker may fill
    sets: np.ndarray  # (V, K, 4): identical groups of 3..6 a joker may fill
    plain_sets: np.ndarray  # (V, K, 4): identical groups of 3..6 no joker may fill
    line: np.ndarray  # (V,): the variation's line
    value: np.ndarray  # (V,): what the line pays (1 when the card gives no values)
    bare: np.ndarray  # (V,): what it pays won jokerless (a variant may pay more)
    concealed: np.ndarray  # (V,): a concealed line
    kind: np.ndarray  # (E,): the kinds each variation uses, variation by variation
    row: np.ndarray  # (E,): the variation of each
    starts: np.ndarray  # (V,): where each variation's entries start
    structural: tuple[int, ...]  # lines with free groups: the matcher answers for them
    runs: bool  # some free group is a run (or a set, which may be one)
    scale: float  # what a line pays, on average
    # Seated.changes of the variations with no exposure seated, kept for
    # every seat and match the card plays
    changes: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, repr=False)
    # per kind, how surely an opponent's exposures say they need it (the
    # expert's defence), by exposures and rules: the same for every seat
    shares: Memo[tuple[object, ...], np.ndarray | None] = field(
        default_factory=lambda: Memo(4_096), repr=False)

    @property
    def kinds(self) -> int:
        return int(self.need.shape[1])

    @cached_property
    def need_used(self) -> np.ndarray:
        found: np.ndarray = self.need[self.row, self.kind]
        return found

    @cached_property
    def wild_used(self) -> np.ndarray:
        found: np.ndarray = self.wild[self.row, self.kind]
        return found

    def entries(self, kind: int) -> np.ndarray:
        """The table's entries of one kind."""
        return self._entries[kind]

    @cached_property
    def slots(self) -> np.ndarray:
        """(2, V, K): need and wild stacked, gathered together for a hand's rows."""
        found: np.ndarray = np.stack((self.need, self.wild))
        return found

    @cached_property
    def premium(self) -> np.ndarray:
        """(V,): the variations a jokerless win pays more on."""
        found: np.ndarray = self.bare > self.value
        return found

    @cached_property
    def deep(self) -> bool:
        """Some variation has more slots of a kind than the odds are kept for
        (no shipped card: then shortfalls are capped before the odds are read)."""
        return bool(self.need.size) and max(int(self.need.max()), int(self.wild.max())) > MOST

    @cached_property
    def uses(self) -> np.ndarray:
        """(V, K) as floats: whether a variation has a slot for a kind."""
        found: np.ndarray = ((self.need + self.wild) > 0).astype(float)
        return found

    @cached_property
    def _entries(self) -> list[np.ndarray]:
        return [np.flatnonzero(self.kind == k) for k in range(self.kinds)]


_TABLES: dict[int, tuple[Card, CardTable]] = {}


def card_table(card: Card) -> CardTable:
    """The card's table, built once per card."""
    known = _TABLES.get(id(card))
    if known is None or known[0] is not card:
        known = _TABLES[id(card)] = (card, _build(card))
    return known[1]


def _build(card: Card) -> CardTable:
    kinds = len(card.deck.kinds)
    rows: list[tuple[int, Variation]] = []
    structural = []
    runs = False
    for li, line in enumerate(card.lines):
        if line.structural:
            structural.append(li)
            runs = runs or any(f.kind in ("run", "set") for v in line.variations
                               for f in v.free)
            continue
        rows.extend((li, v) for v in line.variations)
    n = len(rows)
    need = np.zeros((n, kinds), dtype=np.int16)
    wild = np.zeros((n, kinds), dtype=np.int16)
    sets = np.zeros((n, kinds, len(SIZES)), dtype=np.int16)
    plain = np.zeros((n, kinds, len(SIZES)), dtype=np.int16)
    for row, (_, variation) in enumerate(rows):
        for group in variation.groups:
            into = wild if group.jokers else need
            for t in group.tiles:
                into[row, t] += 1
            if group.identical and group.size in SIZES:
                (sets if group.jokers else plain)[row, group.tiles[0], group.size - 3] += 1
    lines = card.lines
    line_of = np.array([li for li, _ in rows], dtype=np.int32)
    value = np.array([float(lines[li].value or 1) for li, _ in rows])
    concealed = np.array([lines[li].concealed for li, _ in rows], dtype=bool)
    scale = sum(float(line.value or 1) for line in lines) / max(len(lines), 1)
    used_row, used_kind = np.nonzero(need + wild)
    starts = np.searchsorted(used_row, np.arange(n)).astype(np.int64)
    return CardTable(need, wild, sets, plain, line_of, value, value, concealed, used_kind,
                     used_row, starts, tuple(structural), runs, scale)


@dataclass(frozen=True, eq=False)
class Seated:
    """The variations a set of exposures leaves open, with what is left of
    each once the exposures are seated in its groups."""

    table: CardTable
    open: np.ndarray  # (V,) bool
    need_used: np.ndarray  # (E,): slots no joker may fill, at the table's entries
    wild_used: np.ndarray  # (E,): slots a joker may fill
    taken: tuple[tuple[int, np.ndarray, np.ndarray], ...] = ()  # (kind, need, wild) seated
    # the last counts asked of shortfalls(), with its answer: a hand changes
    # a tile or two between asks, so the next answer is an update
    last: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list, repr=False)
    # (kind, copies held before, after) -> what that change does to every
    # variation's shortfalls, (2, V) (one whole add beats a scattered one)
    changes: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, repr=False)

    @cached_property
    def rows(self) -> np.ndarray:
        """The variations open."""
        found: np.ndarray = np.flatnonzero(self.open)
        return found

    @cached_property
    def every(self) -> bool:
        """Every variation is open."""
        return len(self.rows) == len(self.open)

    def shortfalls(self, counts: np.ndarray) -> np.ndarray:
        """(2, V): per variation, the slots no joker may fill that the held
        tiles leave short, and the slots a joker may fill they leave short
        (spare copies filling them first)."""
        table = self.table
        if self.last:
            old, short = self.last[0]
            changed = (old != counts).nonzero()[0].tolist()
            if len(changed) <= FEW_CHANGED:
                if changed:
                    for kind in changed:
                        short = short + self._change(kind, int(old[kind]), int(counts[kind]))
                    self.last[0] = (counts.copy(), short)
                return short
        short = np.zeros((2, len(table.line)), dtype=np.int16)
        if len(table.kind):
            for into, entries in zip(short, self._entry_short(np.arange(len(table.kind)),
                                                              counts), strict=True):
                into[:] = np.add.reduceat(entries, table.starts)
        self.last[:] = [(counts.copy(), short)]
        return short

    def _change(self, kind: int, was: int, now: int) -> np.ndarray:
        """What holding `now` copies of a kind instead of `was` does to the
        shortfalls (kept: a hand moves among few counts)."""
        # a kind no exposure was seated on changes what it changes with none
        book = self.changes if any(kind == k for k, _, _ in self.taken) else \
            self.table.changes
        known = book.get((kind, was, now))
        if known is None:
            at = self.table.entries(kind)
            before = self._entry_short(at, np.full(self.table.kinds, was))
            after = self._entry_short(at, np.full(self.table.kinds, now))
            known = np.zeros((2, len(self.table.line)), dtype=np.int16)
            rows = self.table.row[at]  # a kind's entries are on distinct variations
            known[0, rows], known[1, rows] = after[0] - before[0], after[1] - before[1]
            book[kind, was, now] = known
        return known

    def _entry_short(self, at: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        held = counts[self.table.kind[at]].astype(np.int64)
        need = self.need_used[at]
        short = np.maximum(need - held, 0)
        wild = np.maximum(self.wild_used[at] - np.maximum(held - need, 0), 0)
        return short, wild

    def users(self) -> np.ndarray:
        """(K,): per kind, the share of the open variations with a slot left
        for it (one product over the card's table, the kinds the exposures
        were seated on counted again)."""
        open_rows = self.open.astype(float)
        counts = open_rows @ self.table.uses
        for kind, plain, jokered in self.taken:
            left = self.table.need[:, kind] - plain + self.table.wild[:, kind] - jokered
            counts[kind] = open_rows @ (left > 0)
        found: np.ndarray = counts / open_rows.sum()
        return found

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """(2, rows, K): the need and wild slots left on these variations."""
        found: np.ndarray = self.table.slots[:, rows]
        need, wild = found
        for kind, plain, jokered in self.taken:
            need[:, kind] -= plain[rows]
            wild[:, kind] -= jokered[rows]
        return found


def seat(table: CardTable, exposures: tuple[tuple[int, ...], ...], joker: int | None,
         open_hands: bool) -> Seated:
    """Seat the exposures: each identical set in a group of its kind and
    size (one holding a joker only where jokers may go)."""
    rows = len(table.line)
    if not exposures:
        return Seated(table, np.ones(rows, dtype=bool), table.need_used, table.wild_used,
                      changes=table.changes)
    grouped = _grouped(exposures, joker)
    if grouped is None:
        return Seated(table, np.zeros(rows, dtype=bool), table.need_used, table.wild_used)
    ok = np.ones(rows, dtype=bool) if open_hands else ~table.concealed
    need_used, wild_used = table.need_used.copy(), table.wild_used.copy()
    taken = []
    for (kind, size), (mixed, natural) in grouped.items():
        jokered = table.sets[:, kind, size - 3]
        plain = table.plain_sets[:, kind, size - 3]
        on_plain = np.minimum(plain, natural)
        on_wild = mixed + natural - on_plain
        ok &= on_wild <= jokered
        at = table.entries(kind)
        need_used[at] -= size * on_plain[table.row[at]]
        wild_used[at] -= size * on_wild[table.row[at]]
        taken.append((kind, size * on_plain, size * on_wild))
    return Seated(table, ok, need_used, wild_used, tuple(taken))


def fits(table: CardTable, exposures: tuple[tuple[int, ...], ...], joker: int | None,
         open_hands: bool, rows: np.ndarray) -> np.ndarray:
    """Whether the exposures seat on each of these variations: seat()'s
    `open` for a few rows, as a claim asks of the ones it weighs."""
    if not exposures:
        return np.ones(len(rows), dtype=bool)
    grouped = _grouped(exposures, joker)
    if grouped is None:
        return np.zeros(len(rows), dtype=bool)
    ok = np.ones(len(rows), dtype=bool) if open_hands else ~table.concealed[rows]
    for (kind, size), (mixed, natural) in grouped.items():
        on_plain = np.minimum(table.plain_sets[rows, kind, size - 3], natural)
        ok &= mixed + natural - on_plain <= table.sets[rows, kind, size - 3]
    return ok


def _grouped(exposures: tuple[tuple[int, ...], ...], joker: int | None
             ) -> dict[tuple[int, int], list[int]] | None:
    """(kind, size) -> [sets holding a joker, natural sets] of the
    exposures; None when one is a run or a pair (no group takes it)."""
    seen: dict[tuple[int, int], list[int]] = {}
    for tiles in exposures:
        naturals = [t for t in tiles if t != joker]
        if not naturals or len(set(naturals)) > 1 or len(tiles) not in SIZES:
            return None
        counts = seen.setdefault((naturals[0], len(tiles)), [0, 0])
        counts[len(naturals) == len(tiles)] += 1
    return seen





class Prospects:
    """One hand's nearest variations and the odds of completing each; what
    losing one tile does to them, for many tiles at once."""

    def __init__(self, table: CardTable, seated: Seated, chances: Odds,
                 counts: np.ndarray, jokers: int, allowed: np.ndarray | None = None,
                 jokerless: bool = False):
        """`jokerless`: the hand may still win without a joker (none among
        its exposures), weighed where the variant pays more for it."""
        self.table, self.chances = table, chances
        self.jokers = jokers
        self.counts = counts
        short, wild_short = seated.shortfalls(counts)
        rows = None  # every variation (no exposure, no racks' choice): no gather
        if allowed is not None or not seated.every:
            rows = seated.rows if allowed is None else \
                np.flatnonzero(seated.open & allowed[table.line])
            short, wild_short = short[rows], wild_short[rows]
        away = short + np.maximum(wild_short - jokers, 0)
        self.nearest = int(np.minimum.reduce(away)) if len(away) else 1_000
        keep = (away <= self.nearest + SLACK).nonzero()[0]
        if len(keep) > CANDIDATES:
            order = np.lexsort((-table.value[keep if rows is None else rows[keep]],
                                away[keep]))
            keep = np.sort(keep[order[:CANDIDATES]])
        self.rows = keep if rows is None else rows[keep]
        self.dense = seated.dense(self.rows)
        self.need, self.wild = need, wild = self.dense
        over = need - counts  # slots left (spare copies: below zero)
        gap = np.empty((2, *over.shape), dtype=over.dtype)  # the slots short, stacked
        self.short, self.short_wild = short, short_wild = gap
        np.maximum(over, 0, out=short)
        np.minimum(over, 0, out=short_wild)
        short_wild += wild
        np.maximum(short_wild, 0, out=short_wild)
        self.need_short, self.wild_short = SUM(gap, axis=2)
        self.away = away[keep]
        # where each slot's odds are read, in one flat table: no-joker slots
        # drawn, drawn or claimed, joker slots pooled (3, V', K)
        self.at = (np.minimum(gap, MOST) if table.deep else gap)[[0, 0, 1]] + \
            chances.bases[:, None, :]
        # a concealed line takes no discard but the last, so only draws fill it
        self.closed = table.concealed[self.rows]
        self.any_closed = bool(np.count_nonzero(self.closed))
        if self.any_closed:
            self.at[2, self.closed] -= chances.claimed
        self.looked = chances.flat.take(self.at)
        self.sums = SUM(self.looked, axis=2)  # log_draw, log_claim, mean: (3, V')
        self.log_draw, self.log_claim, self.mean = self.sums
        self.value = table.value[self.rows]
        self.bare = table.bare[self.rows]
        # a jokerless win pays more on some variation this hand may still make
        self.premium = jokerless and bool(np.count_nonzero(table.premium[self.rows]))
        lines = table.line[self.rows]
        change = np.empty(len(lines), dtype=bool)
        change[:1] = True
        np.not_equal(lines[1:], lines[:-1], out=change[1:])
        self.starts = change.nonzero()[0]
        self.lines = lines[self.starts]  # the lines weighed, in card order

    @cached_property
    def chance(self) -> np.ndarray:
        """(V',): each weighed variation's chance, the hand as it is (worked
        out when asked: weighing discards or a claim needs only what losing
        a tile does)."""
        return self._chance(self.log_draw, self.log_claim, self.need_short, self.mean,
                            self.wild_short, self.jokers)

    def _chance(self, log_draw: np.ndarray, log_claim: np.ndarray, need_short: np.ndarray,
                mean: np.ndarray, wild_short: np.ndarray, jokers: int | np.ndarray | None
                ) -> np.ndarray:
        """The chance of a variation: its no-joker slots drawn, but the last
        one may be claimed from a discard (for Mah Jongg), taken as one of
        them in turn; its joker slots from the pool of naturals and jokers
        (`jokers` None: from naturals alone, every joker drawn let go)."""
        last = (log_claim - log_draw) / np.maximum(need_short, 1)
        if jokers is None:
            jokered = poisson_at_least(mean, wild_short)
        else:
            jokered = poisson_at_least(mean + self.chances.joker_rate, wild_short - jokers)
        chance: np.ndarray = np.exp(log_draw + last) * jokered
        return chance

    def without(self, tiles: Sequence[int], joker: int | None) -> np.ndarray:
        """(tiles, V'): the chances once the hand loses each of these tiles
        (one at a time; a natural opens a slot it filled, no-joker slots
        filling first)."""
        return self._without(tiles, joker, False)[0]

    def paid_without(self, tiles: Sequence[int], joker: int | None,
                     jokerless: bool = True, as_is: bool = False) -> np.ndarray:
        """(tiles, V'): what each variation is expected to pay once the hand
        loses each of these tiles: its chance times what it pays, or, when
        no joker is left in the hand, its chance from naturals alone times
        what it pays jokerless, whichever is more (`jokerless` False: the
        hand keeps a joker elsewhere). `as_is`: the hand's own chance is
        worked out in the same pass (kept as `chance`)."""
        chance, natural = self._without(tiles, joker, jokerless and self.premium, as_is)
        paid: np.ndarray = chance * self.value
        if natural is not None:
            paid = np.maximum(paid, natural * self.bare)
        return paid

    def paid_apart(self, tiles: Sequence[int], joker: int | None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """paid_without() with `jokerless` and without, from one working-out."""
        chance, natural = self._without(tiles, joker, self.premium)
        paid: np.ndarray = chance * self.value
        if natural is None:
            return paid, paid
        return np.maximum(paid, natural * self.bare), paid

    def paid(self) -> np.ndarray:
        """(V',): what each variation is expected to pay, the hand as it is."""
        found: np.ndarray = self.chance * self.value
        if self.premium and self.jokers == 0:
            natural = self._chance(self.log_draw, self.log_claim, self.need_short, self.mean,
                                   self.wild_short, None)
            found = np.maximum(found, natural * self.bare)
        return found

    def _without(self, tiles: Sequence[int], joker: int | None, premium: bool,
                 as_is: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """The chances once the hand loses each tile, and with `premium`,
        the chances from naturals alone where no joker is left (else 0):
        every tile at once, each read off the odds one slot further.
        `as_is`: a last row loses nothing (no slot opens, no joker goes),
        which is the hand's own chance, kept as `chance`."""
        if not len(self.rows) or not len(tiles):
            out = np.empty((len(tiles), len(self.rows)))
            return out, (np.zeros(out.shape) if premium else None)
        n = len(tiles)
        as_is = as_is and "chance" not in self.__dict__  # not when already worked out
        jokered = [i for i, t in enumerate(tiles) if t == joker]
        kept = jokered + [n] if as_is else jokered  # rows whose logs stay the hand's
        kinds = np.array([*tiles, tiles[0]] if as_is else tiles)
        need, wild = self.dense[:, :, kinds].transpose(0, 2, 1)
        room = self.counts[kinds][:, None] - need  # copies held beyond the no-joker slots
        # losing a natural opens a no-joker slot it filled, else a joker slot
        # (its spare copies: neither)
        more = room <= 0
        spill = (room > 0) & (room <= wild)
        jokers: int | np.ndarray = self.jokers
        if kept:  # a joker lost opens no slot: one joker fewer
            more[kept] = spill[kept] = False
        if jokered:
            jokers = np.full((len(kinds), 1), self.jokers)
            jokers[jokered] -= 1
        at = self.at[:, :, kinds].transpose(0, 2, 1)
        looked = self.looked[:, :, kinds].transpose(0, 2, 1)
        after = self.chances.flat.take(at + np.stack((more, more, spill)))
        logs = self.sums[:2, None] + after[:2] - looked[:2]
        mean = self.mean + (after[2] - looked[2])
        if kept:
            logs[:, kept] = self.sums[:2, None]
        bare = None
        if premium:  # chances from naturals alone where no joker is left
            bare = np.equal(jokers, 0)
        chance, natural = self._odds_of(logs[0], logs[1], self.need_short + more, mean,
                                        self.wild_short + spill, jokers, bare)
        if not as_is:
            return chance, natural
        self.__dict__["chance"] = chance[n]  # the cached property, worked out here
        return chance[:n], None if natural is None else natural[:n]

    def _odds_of(self, log_draw: np.ndarray, log_claim: np.ndarray, need_short: np.ndarray,
                 mean: np.ndarray, wild_short: np.ndarray, jokers: int | np.ndarray,
                 bare: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
        """_chance() with `jokers` (by tile), and where `bare` says, from
        naturals alone (elsewhere 0), worked out together."""
        if bare is None or not bare.any():
            natural = None if bare is None else np.zeros(mean.shape)
            return self._chance(log_draw, log_claim, need_short, mean, wild_short,
                                jokers), natural
        last = (log_claim - log_draw) / np.maximum(need_short, 1)
        pooled = poisson_at_least(np.concatenate([mean + self.chances.joker_rate, mean]),
                                  np.concatenate([wild_short - jokers, wild_short]))
        drawn = np.exp(log_draw + last)
        natural = drawn * pooled[len(mean):]
        if not bare.all():
            natural[~bare.ravel()] = 0.0
        return drawn * pooled[:len(mean)], natural

    def line_values(self, chance: np.ndarray) -> np.ndarray:
        """(..., lines weighed): each line's best expected value."""
        return self.by_line(chance * self.value)

    def by_line(self, paid: np.ndarray) -> np.ndarray:
        """(..., lines weighed): the best of each line's variations."""
        if not len(self.rows):
            none: np.ndarray = paid[..., :0]
            return none
        return np.maximum.reduceat(paid, self.starts, axis=-1)


def worth(values: np.ndarray, share: float) -> np.ndarray:
    """A hand's worth from its lines' expected values (last axis): the best,
    and `share` of the next two (options kept open)."""
    if values.shape[-1] == 0:
        return np.zeros(values.shape[:-1])
    top = -np.sort(-values, axis=-1)[..., :3]
    found: np.ndarray = top[..., 0] + share * SUM(top[..., 1:], axis=-1)
    return found
