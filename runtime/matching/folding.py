"""Building a card's lookups (runtime/matching/lookup.py): each line's rows
folded over its components into per-component codes, the codes' weights and
digit sums, and what the components can complete together; None when a line
cannot be tabled so.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jongg.runtime.card import Card
from jongg.runtime.matching.accelerated import Fold, compiled_fold
from jongg.runtime.matching.building import demands
from jongg.runtime.matching.columns import Columns, set_bits
from jongg.runtime.matching.lookup import (
    BUDGET,
    SPARE_BITS,
    CompleteFold,
    Folded,
    Lookup,
    _readable,
)
from jongg.runtime.matching.plan import Plan
from jongg.runtime.matching.plans import Programme
from jongg.runtime.matching.tables import Component, ShapeTables


def build(card: Card, columns: Columns, programme: Programme, *,
          summing: Fold | None = compiled_fold) -> Lookup | None:
    """The lookups for a card, or None when some line cannot be tabled so.
    `summing` sums the hand's keys (the C accelerator, when built); None sums
    them in Python, to the same answers."""
    components = programme.table_components
    joker = card.deck.joker_index
    structural: dict[int, list[Plan]] = {}
    for plan in programme.structural:
        structural.setdefault(plan.line, []).append(plan)
    # per line: per component, every key's row, and the rows (naturals by share
    # of the groups, or by variation: what the component's tiles fill)
    per_line: list[tuple[int, list[np.ndarray], list[np.ndarray], object]] = []
    if any(comp.radix ** len(comp.kinds) > BUDGET for comp in components):
        return None  # a key per count vector would not fit (a deck of many copies)
    # what can be told without building anything first: a card the lookups
    # cannot serve is found out in a blink, not after seconds of tables
    concrete: dict[int, list[int]] = {}
    for li in range(len(card.lines)):
        if li in structural:
            plans = structural[li]
            if len(plans) != 1 or plans[0].groups or plans[0].shape not in programme.shape_tables:
                return None
            continue
        cols = _concrete_columns(columns, li, components)
        if cols is None:
            return None
        concrete[li] = cols
    sums: dict[tuple[int, int], np.ndarray] = {}
    for comp in components:
        if (len(comp.kinds), comp.copies) not in sums:
            sums[len(comp.kinds), comp.copies] = _digit_sums(comp)
    held = [sums[len(c.kinds), c.copies] for c in components]
    for li in range(len(card.lines)):
        if li in structural:
            tables = programme.shape_tables[structural[li][0].shape]
            per_line.append((li, [t.index for t in tables.tables],
                             [t.rows for t in tables.tables], tables))
            continue
        found = _concrete(columns, concrete[li], components)
        if found is None:
            return None
        per_line.append((li, *found))
    # one code per distinct (tiles held, row of each line) of a component; what
    # a code can complete follows from them
    code_lists, held_of, line_rows, code_signs = [], [], [], []
    key_codes: list[np.ndarray] = []
    for ci in range(len(components)):
        numbered = _codes([held[ci]] + [rows[ci] for _, rows, _, _ in per_line])
        if numbered is None:
            return None
        code, values = numbered
        key_codes.append(code)
        code_lists.append(_readable(code))
        held_of.append(values[:, 0].tolist())
        line_rows.append([values[:, 1 + j].tolist() for j in range(len(per_line))])
        code_signs.append([_complete_shares(tables[ci], values[:, 1 + j], values[:, 0]).tolist()
                           for j, (_, _, tables, _) in enumerate(per_line)])
    folded = []
    for j, (li, _, _, line_tables) in enumerate(per_line):
        rows_by_code = [line_rows[ci][j] for ci in range(len(components))]
        if isinstance(line_tables, ShapeTables):
            fold = line_tables.fold
            last = [(s << 16) | structural[li][0].variation for s in fold.flat_last]
            folded.append(Folded(li, rows_by_code, fold.flat_steps, fold.widths, last))
        else:
            assert isinstance(line_tables, _ConcreteFold)
            folded.append(Folded(li, rows_by_code, line_tables.steps, line_tables.widths,
                                 line_tables.last))
    for ci in range(len(components)):
        code_signs[ci].append(held_of[ci])  # and the tiles held, to refuse a kind held too often
    complete = _complete_fold(card, per_line, code_signs, structural, key_codes)
    weights, fields, shift = _weights(components, joker)
    return Lookup(card, components, weights, fields, code_lists, held_of, folded, complete,
                  shift, code_lists, summing)


def _codes(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """Number the distinct rows of these columns (one entry per key): each
    key's number, and per number its values. Pairs are numbered through a
    dense table of what occurs (no sort); None past BUDGET numbers."""
    code = np.asarray(columns[0], dtype=np.int64)
    values = np.arange(int(code.max(initial=0)) + 1)[:, None]
    for column in columns[1:]:
        column = np.asarray(column, dtype=np.int64)
        span = int(column.max(initial=0)) + 1
        pair = code * span + column
        if len(values) * span <= 4 * len(pair):  # few pairs possible: a dense table of them
            used = np.zeros(len(values) * span, dtype=bool)
            used[pair] = True
            number = np.cumsum(used) - 1
            kept = np.flatnonzero(used)
            code = number[pair]
        else:
            kept, code = np.unique(pair, return_inverse=True)
        values = np.column_stack([values[kept // span], kept % span])
        if len(values) > BUDGET:
            return None
    return code, values


def _weights(components: Sequence[Component], joker: int | None
             ) -> tuple[dict[int, int], list[tuple[int, int]], int]:
    """Each kind's weight in the hand's key: its digit in its component's
    field; the fields; and where the jokers' field starts."""
    weights: dict[int, int] = {}
    fields = []
    shift = 0
    for comp in components:
        n = len(comp.kinds)
        width = (comp.radix ** max(0, n - 1)).bit_length() + comp.radix.bit_length() + SPARE_BITS
        for i, k in enumerate(comp.kinds):
            weights[k] = comp.radix ** (n - 1 - i) << shift
        fields.append((shift, (1 << width) - 1))
        shift += width
    if joker is not None:
        weights[joker] = 1 << shift
    return weights, fields, shift


def _digit_sums(comp: Component) -> np.ndarray:
    """Per key of a component, the tiles it holds."""
    rest = np.arange(comp.radix ** len(comp.kinds))
    total = np.zeros(len(rest), dtype=np.int64)
    for _ in comp.kinds:
        rest, digit = np.divmod(rest, comp.radix)
        total += digit
    return total


def _complete_shares(rows: np.ndarray, row: np.ndarray, held: np.ndarray) -> np.ndarray:
    """Per (row, tiles held) pair, as bits, the shares of the groups (or the
    variations) whose naturals are every tile held."""
    bits = 1 << np.arange(rows.shape[1], dtype=np.int64)
    shares: np.ndarray = ((rows[row] == held[:, None]) * bits).sum(axis=1)
    return shares


@dataclass(frozen=True)
class _ConcreteFold:
    steps: list[list[int]]
    widths: list[int]
    last: list[int]


def _concrete_columns(columns: Columns, li: int, components: Sequence[Component]
                      ) -> list[int] | None:
    """A concrete line's columns, or None when its rows could not be worked
    out within BUDGET: free groups, too many variations for bits, or too
    many kinds of a component in use."""
    cols = [c for c in range(columns.count) if columns.column_line[c] == li]
    if not cols or len(cols) != len(columns.card.lines[li].variations) or len(cols) > 60:
        return None
    for comp in components:
        used = sum(bool(columns.naturals(k, cols).any()) for k in comp.kinds)
        if comp.radix ** used * len(cols) > BUDGET:
            return None
    return cols


def _concrete(columns: Columns, cols: list[int], components: Sequence[Component]
              ) -> tuple[list[np.ndarray], list[np.ndarray], _ConcreteFold] | None:
    """A concrete line's rows per component (the naturals each variation
    gets from the component's tiles): every key's row, the rows, and the
    line's fold. Worked out over the kinds the line uses, then spread over
    every key."""
    rows_of: list[np.ndarray] = []
    tables: list[np.ndarray] = []
    for comp in components:
        n, radix = len(comp.kinds), comp.radix
        used = [i for i, k in enumerate(comp.kinds) if columns.naturals(k, cols).any()]
        sub = np.zeros((radix ** len(used), len(cols)), dtype=np.int16)
        rest = np.arange(len(sub))
        for i in reversed(used):
            rest, digit = np.divmod(rest, radix)
            sub += columns.naturals(comp.kinds[i], cols)[digit]
        table, sub_row = np.unique(sub, axis=0, return_inverse=True)
        keys = np.arange(radix ** n)
        key_sub = np.zeros(len(keys), dtype=np.int64)
        for i in used:
            key_sub = key_sub * radix + keys // radix ** (n - 1 - i) % radix
        rows_of.append(sub_row.ravel()[key_sub])
        tables.append(table)
    fold = _concrete_fold(tables)
    return None if fold is None else (rows_of, tables, fold)








def _concrete_fold(tables: list[np.ndarray]) -> _ConcreteFold | None:
    """Add the components' naturals in turn; at the last, the best variation
    (the first reaching the most naturals), as score * 2**16 + variation.
    None when a step would pass BUDGET cells (a line of many variations
    spread over every suit: its rows multiply)."""
    acc = tables[0].astype(np.int32)
    steps: list[list[int]] = []
    widths: list[int] = []
    for c, table in enumerate(tables[1:], start=1):
        if len(acc) * table.size > BUDGET:
            return None
        summed = acc[:, None, :] + table[None, :, :]
        widths.append(len(table))
        if c == len(tables) - 1:
            best = summed.max(axis=2)
            first = summed.argmax(axis=2)
            return _ConcreteFold(steps, widths, ((best << 16) | first).ravel().tolist())
        flat = summed.reshape(-1, summed.shape[2])
        acc, inverse = np.unique(flat, axis=0, return_inverse=True)
        steps.append(inverse.ravel().tolist())
    best, first = acc.max(axis=1), acc.argmax(axis=1)
    return _ConcreteFold(steps, widths, ((best << 16) | first).tolist())


def _complete_fold(card: Card, per_line: list[tuple[int, list[np.ndarray], list[np.ndarray],
                                                     object]],
                   code_signs: list[list[list[int]]], structural: dict[int, list[Plan]],
                   key_codes: list[np.ndarray]) -> CompleteFold:
    """Combine what each component can complete: for a line of free groups,
    the sums of shares reachable (as bits over the shares); for a concrete
    line, the variations every component allows (bits, ANDed); and the
    tiles held (added, up to the hand's size and one)."""
    most = card.hand_size + 1
    lines = card.lines
    kinds: list[tuple[str, dict[int, list[tuple[int, int]]] | None, int, int]] = []
    for li, _, _, tables in per_line:
        if isinstance(tables, ShapeTables):
            shares = demands(tables.shape)
            index = {d: i for i, d in enumerate(shares)}
            # per share held: the shares it adds up to with each share more (j, bit of the sum)
            add: dict[int, list[tuple[int, int]]] = {}
            for held, a in enumerate(shares):
                for more, b in enumerate(shares):
                    if (s := tuple(x + y for x, y in zip(a, b, strict=True))) in index:
                        add.setdefault(held, []).append((more, 1 << index[s]))
            kinds.append(("shares", add, index[tables.shape.demand], li))
        else:
            kinds.append(("variations", None, 0, li))

    @functools.cache
    def combine(state: tuple[int, ...], sign: tuple[int, ...]) -> tuple[int, ...]:
        out = []
        for (kind, add, _, _), have, more in zip(kinds, state, sign, strict=False):
            if kind == "variations":
                out.append(have & more)
                continue
            assert isinstance(add, dict)
            grown = 0
            for share in set_bits(have):  # the shares held
                for j, bit in add.get(share, ()):
                    if more >> j & 1:
                        grown |= bit
            out.append(grown)
        return (*out, min(state[-1] + sign[-1], most))

    components = len(code_signs)
    signs: list[list[tuple[int, ...]]] = []
    sign_of: list[Sequence[int]] = []
    for ci in range(components):
        distinct: dict[tuple[int, ...], int] = {}
        of_code = [distinct.setdefault((*sign[:-1], min(sign[-1], most)), len(distinct))
                   for sign in zip(*code_signs[ci], strict=True)]
        sign_of.append(_readable(np.asarray(of_code, dtype=np.int64)[key_codes[ci]]))
        signs.append(list(distinct))
    states: dict[tuple[int, ...], int] = {}
    start = [states.setdefault(s, len(states)) for s in signs[0]]
    steps, widths = [], []
    for ci in range(1, components):
        now = list(states)
        states = {}
        step = [states.setdefault(combine(state, sign), len(states))
                for state in now for sign in signs[ci]]
        steps.append(step)
        widths.append(len(signs[ci]))
    rank = sorted(range(len(lines)), key=lambda li: (-(lines[li].value or 0), li))
    answer: list[tuple[int, int] | None] = []
    for state in states:
        found = None
        for li in rank:
            j = next((j for j, k in enumerate(kinds) if k[3] == li), None)
            if j is None:
                continue
            kind, _, whole, _ = kinds[j]
            if kind == "shares" and state[j] >> whole & 1:
                found = (li, structural[li][0].variation)
            elif kind == "variations" and state[j]:
                found = (li, (state[j] & -state[j]).bit_length() - 1)
            if found:
                break
        answer.append(found)
    return CompleteFold(sign_of, start, steps, widths, answer, [s[-1] for s in states])
