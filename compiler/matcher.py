"""The matcher stage: a compiled card's concrete variations become a table.

For every concrete variation (a column) and every count c of every kind (a
row), the table holds the naturals c tiles of that kind fill in the
variation and how they change the room left for jokers; runtime/matching/matcher.py
explains how the runtime reads it.

A variation whose free groups are few groups of identical tiles beside
concrete ones (`fffa ggga hhhb kkkb [pair]`, `FF 2011a 2[kong]`) becomes a
column per binding of those groups to tiles (each its own kind, as free
identical groups are): scoring it is then the table's work, at array speed,
instead of a search per hand. Other variations with free groups stay as
they are: the runtime's structural programme handles them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from jongg.runtime.card import Card, Variation
from jongg.runtime.matching.columns import Tables, column_groups, pins
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.structure import IDENTICAL, _slot_score

# Free groups become columns when a variation has concrete groups too and
# binds them in at most this many ways, and the card gains at most BOUND_CARD
# columns so (lines of free groups alone have per-suit tables instead).
BOUND_VARIATION = 1200
BOUND_CARD = 20_000


def _bindings(variation: Variation, kinds: list[int]) -> Iterator[tuple[int, ...]]:
    """Every binding of the free groups to kinds, each its own kind; groups
    of one kind of free group are interchangeable, so each class takes a
    combination. Yields the kind of each free group, in order."""
    classes: dict[tuple[str, bool], list[int]] = {}
    for fi, f in enumerate(variation.free):
        classes.setdefault((f.kind, f.jokers), []).append(fi)

    def bind(left: list[list[int]], free: list[int]) -> Iterator[dict[int, int]]:
        if not left:
            yield {}
            return
        members, rest = left[0], left[1:]
        for chosen in itertools.combinations(free, len(members)):
            others = [k for k in free if k not in chosen]
            for tail in bind(rest, others):
                yield {**dict(zip(members, chosen, strict=True)), **tail}

    for found in bind(list(classes.values()), kinds):
        yield tuple(found[fi] for fi in range(len(variation.free)))


def _binding_count(variation: Variation, kinds: int) -> int:
    count, left = 1, kinds
    sizes: dict[tuple[str, bool], int] = {}
    for f in variation.free:
        sizes[f.kind, f.jokers] = sizes.get((f.kind, f.jokers), 0) + 1
    for m in sizes.values():
        count *= math.comb(left, m)
        left -= m
    return count


def expandable(card: Card) -> dict[tuple[int, int], int]:
    """The variations whose free groups become columns, and their bindings:
    identical groups alone beside concrete ones, within the bounds."""
    kinds = sum(1 for k in card.deck.kinds if k.index != card.deck.joker_index)
    out: dict[tuple[int, int], int] = {}
    total = 0
    for li, line in enumerate(card.lines):
        for vi, v in enumerate(line.variations):
            if not v.free or not v.groups or any(f.kind not in IDENTICAL for f in v.free):
                continue
            count = _binding_count(v, kinds)
            if count <= BOUND_VARIATION and total + count <= BOUND_CARD:
                out[li, vi] = count
                total += count
    return out


def build_tables(card: Card) -> Tables:
    deck = card.deck
    joker = deck.joker.index if deck.joker else None
    plain = [k.index for k in deck.kinds if k.index != joker]
    expanded = expandable(card)
    row_of = np.full(len(deck.kinds), -1, dtype=np.int32)
    rows = 0
    for kind in deck.kinds:
        if kind.index != joker:
            row_of[kind.index] = rows
            rows += kind.copies
    columns: list[tuple[int, int]] = []
    bound: list[tuple[int, ...]] = []  # per column, the kind each free group is bound to
    starts: list[int] = []
    for li, line in enumerate(card.lines):
        mine: list[tuple[int, int]] = []
        for vi, v in enumerate(line.variations):
            if not v.free:
                mine.append((li, vi))
                bound.append(())
            elif (li, vi) in expanded:
                for kinds in _bindings(v, plain):
                    mine.append((li, vi))
                    bound.append(kinds)
        if mine:
            starts.append(len(columns))
            columns += mine
    width = max(map(len, bound), default=0)
    bound_array = np.full((len(columns), width), -1, dtype=np.int32)
    for col, kinds in enumerate(bound):
        bound_array[col, :len(kinds)] = kinds
    cells: list[list[tuple[int, int, int]]] = [[] for _ in range(rows)]
    base = np.zeros(len(columns), dtype=np.int32)
    completes = np.zeros((rows, len(columns)), dtype=bool)
    mandatory = np.zeros((len(columns), len(deck.kinds)), dtype=bool)
    for col, (li, vi) in enumerate(columns):
        groups = column_groups(card.lines[li].variations[vi], bound_array[col])
        for k, pin in pins(groups).items():
            empty = _slot_score(0, pin.plain, pin.joker_groups, card.all_joker_groups)[1]
            base[col] += empty
            for c in range(1, deck.kinds[k].copies + 1):
                filled, cap = _slot_score(c, pin.plain, pin.joker_groups, card.all_joker_groups)
                cells[row_of[k] + c - 1].append((col, filled, cap - filled - empty))
            # a complete hand holds this kind within these bounds
            least = pin.plain + (0 if card.all_joker_groups else len(pin.joker_groups))
            mandatory[col, k] = least > 0
            most = pin.plain + sum(pin.joker_groups)
            for c in range(max(1, least), min(most, deck.kinds[k].copies) + 1):
                completes[row_of[k] + c - 1, col] = True
    indptr = np.zeros(rows + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in cells])
    flat = [cell for row in cells for cell in row]
    return Tables(np.array(columns, dtype=np.int32).reshape(-1, 2),
                  np.array(starts, dtype=np.int64), row_of, indptr,
                  np.array(flat, dtype=np.int32).reshape(-1, 3).T.copy(), base,
                  np.packbits(completes, axis=1, bitorder="little"),
                  np.packbits(mandatory, axis=1, bitorder="little"), bound_array)


def compile_matcher(card: Card, *, open_hands: bool = False) -> Matcher:
    return Matcher(card, build_tables(card), open_hands=open_hands)
