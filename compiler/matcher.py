"""The matcher stage: a compiled card's concrete variations become a table.

For every concrete variation (a column) and every count c of every kind (a
row), the table holds the naturals c tiles of that kind fill in the
variation and how they change the room left for jokers; runtime/matching/matcher.py
explains how the runtime reads it. Variations with free groups stay as they
are: the runtime's structural programme handles them.
"""

from __future__ import annotations

import numpy as np

from jongg.runtime.card import Card
from jongg.runtime.matching.columns import Tables, pins
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.structure import _slot_score


def build_tables(card: Card) -> Tables:
    deck = card.deck
    joker = deck.joker.index if deck.joker else None
    row_of = np.full(len(deck.kinds), -1, dtype=np.int32)
    rows = 0
    for kind in deck.kinds:
        if kind.index != joker:
            row_of[kind.index] = rows
            rows += kind.copies
    columns: list[tuple[int, int]] = []
    starts: list[int] = []
    for li, line in enumerate(card.lines):
        mine = [(li, vi) for vi, v in enumerate(line.variations) if not v.free]
        if mine:
            starts.append(len(columns))
            columns += mine
    cells: list[list[tuple[int, int, int]]] = [[] for _ in range(rows)]
    base = np.zeros(len(columns), dtype=np.int32)
    completes = np.zeros((rows, len(columns)), dtype=bool)
    mandatory = np.zeros((len(columns), len(deck.kinds)), dtype=bool)
    for col, (li, vi) in enumerate(columns):
        for k, pin in pins(card.lines[li].variations[vi].groups).items():
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
                  np.packbits(mandatory, axis=1, bitorder="little"))


def compile_matcher(card: Card, *, open_hands: bool = False) -> Matcher:
    return Matcher(card, build_tables(card), open_hands=open_hands)
