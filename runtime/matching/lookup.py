"""One hand by lookups, for a card whose every line is tabled.

A hand without jokers or exposures, on a card whose lines are all either
lines of free groups with per-suit tables (runtime/matching/tables.py) or
concrete lines of few variations, is answered in plain Python without a
NumPy call, a search or a dictionary of counts:

- the hand's tiles are summed through one weight per kind into one integer
  holding every component's key (digits base copies + 1) in its own bits;
- per component, one list lookup gives the key's *code*: how many tiles the
  component holds, its row in each line's table, and what it can complete;
- per line, the rows are combined by that line's fold (for concrete lines:
  the naturals each variation gets from the component, added up), and
- for the complete check, what each component can complete is combined the
  same way, by a small table of its own.

A count over a kind's copies carries into the next digit; the digits then
sum to fewer tiles than the hand holds, and the hand goes the long way,
where it is refused with the reason. So does any hand this cannot answer.
"""

from __future__ import annotations

import array
import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jongg.runtime.card import Card, Line
from jongg.runtime.matching.accelerated import Fold, compiled_fold, extend_each
from jongg.runtime.matching.building import demands
from jongg.runtime.matching.columns import Columns, set_bits
from jongg.runtime.matching.plans import Plan, Programme
from jongg.runtime.matching.tables import Component, ShapeTables

BUDGET = 1 << 21  # cells of a concrete line's rows per component, and codes per component
SPARE_BITS = 9  # each component's key field holds up to 2**9 tiles on its top kind


@dataclass(frozen=True)
class Folded:
    """A line's fold over the components: the row of each code, the steps
    (rows so far, next row) -> rows so far, and the last step's answer
    (score * 2**16 + variation)."""

    line: int
    rows: list[list[int]]  # per component: code -> row
    steps: list[list[int]]
    widths: list[int]  # per component after the first: its rows
    last: list[int]


class Lookup:
    """The lookups of a card whose lines are all tabled.

    scores(concealed): (line, score, variation) for every line, in card
    order; complete(concealed), for a hand of the card's size: the best line
    it completes and the variation, or None; nearest(concealed, make, *rest):
    every line nearest first (ties: card order), each as make((line, tiles
    away, variation, *rest)); completed(concealed, make, *rest): the best
    line completed as make((line, 0, variation, *rest)), None when there is
    none or the hand is not of the card's size. They answer None (complete()
    and completed(): False) when the hand must go the long way: a kind the
    deck has not, jokers, a kind held more often than the deck has it."""

    scores: Callable[[Sequence[int]], list[tuple[int, int, int]] | None]
    nearest: Callable[..., list[Any] | None]
    complete: Callable[[Sequence[int]], tuple[int, int] | None | bool]
    completed: Callable[..., Any]

    def __init__(self, card: Card, components: Sequence[Component], weights: dict[int, int],
                 fields: list[tuple[int, int]], codes: list[Sequence[int]],
                 held: list[list[int]],
                 lines: list[Folded], complete: CompleteFold, joker_shift: int,
                 key_codes: list[Sequence[int]], fold: Fold | None = None):
        self.card = card
        self.key_codes = key_codes  # per component: key -> code, readable as an array
        self.components = list(components)
        self.weights = weights
        self.fields = fields  # per component: (shift, mask)
        self.codes = codes  # per component: key -> code
        self.held = held  # per component: code -> tiles held
        self.lines = lines
        self.complete_fold = complete
        self.joker_shift = joker_shift
        self.fold = fold  # the keys summed in C (_fold.c), or None: in Python
        self._compile()

    # -- many hands, as arrays -----------------------------------------------------------
    def scores_counts(self, keys: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """For jokerless hands given as their components' keys
        (tables.component_keys): per hand and line (card order), the best
        score and its variation."""
        codes = [_numbers(c)[k] for c, k in zip(self.key_codes, keys, strict=True)]
        best = np.empty((len(codes[0]), len(self.lines)), dtype=np.int32)
        which = np.empty_like(best)
        for j, (rows, steps, last) in enumerate(self._line_arrays):
            acc = rows[0][codes[0]]
            for c in range(1, len(codes) - 1):
                acc = steps[c - 1][acc, rows[c][codes[c]]]
            found = last[acc, rows[-1][codes[-1]]] if len(codes) > 1 else last[acc, 0]
            best[:, j], which[:, j] = found >> 16, found & 0xFFFF
        return best, which

    def complete_counts(self, keys: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """For jokerless hands of the card's size given as their keys: the
        line each completes (highest value, then card order) and its
        variation, -1 for none."""
        start, steps, lines, variations = self._complete_arrays
        signs = [_numbers(s)[k] for s, k in zip(self.complete_fold.sign_of, keys, strict=True)]
        acc = start[signs[0]]
        for step, sign in zip(steps, signs[1:], strict=True):
            acc = step[acc, sign]
        return lines[acc], variations[acc]

    @functools.cached_property
    def _line_arrays(self) -> list[tuple[list[np.ndarray], list[np.ndarray], np.ndarray]]:
        out = []
        for line in self.lines:
            rows = [np.asarray(r, dtype=np.intp) for r in line.rows]
            steps = [np.asarray(s, dtype=np.intp).reshape(-1, w)
                     for s, w in zip(line.steps, line.widths, strict=False)]
            last = np.asarray(line.last, dtype=np.int64).reshape(-1, line.widths[-1]
                                                                  if line.widths else 1)
            out.append((rows, steps, last))
        return out

    @functools.cached_property
    def _complete_arrays(self) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        fold = self.complete_fold
        steps = [np.asarray(s, dtype=np.intp).reshape(-1, w)
                 for s, w in zip(fold.steps, fold.widths, strict=True)]
        lines = np.array([-1 if a is None else a[0] for a in fold.answer])
        variations = np.array([-1 if a is None else a[1] for a in fold.answer])
        return np.asarray(fold.start, dtype=np.intp), steps, lines, variations

    # -- one hand -------------------------------------------------------------------------
    def _answers(self, line: Folded) -> tuple[list[int], tuple[tuple[int, int, int], ...],
                                                tuple[tuple[Line, int, int], ...]]:
        """A line's last step as answers: per entry, the number of its
        answer, and per number (line, score, variation) as scores() lists it
        and (Line, tiles away, variation) as nearest() makes it."""
        card_line = self.card.lines[line.line]
        distinct = sorted(set(line.last))
        number = {found: i for i, found in enumerate(distinct)}
        return ([number[found] for found in line.last],
                tuple((line.line, found >> 16, found & 0xFFFF) for found in distinct),
                tuple((card_line, card_line.size - (found >> 16), found & 0xFFFF)
                      for found in distinct))

    def _compile(self) -> None:
        """scores(), nearest() and complete() written out for this card's
        components and lines: the same lookups as _codes() and the folds,
        without the loops (a loop's bookkeeping costs as much as the
        lookups). The hand's key is summed from its tiles' weights by one
        itemgetter; each fold step's table holds its states already times
        the next step's width; a line's last step gives the number of its
        answer, the tuple each query returns (there are few), so that
        nothing is worked out per line in Python; the tables are arrays of
        machine integers (_compact). nearest() numbers every line's answers
        in one list ordered by (tiles away, line), so that the lines are put
        nearest first by sorting plain integers. serve() writes the same
        out once more as a matcher's own queries, taking the Hand."""
        m = len(self.fields)
        names: dict[str, Any] = {"W": self.weights, "GET": operator.itemgetter,
                                 "ADD": operator.add, "REPEAT": itertools.repeat}
        for c, ((shift, mask), codes, held) in enumerate(zip(self.fields, self.codes, self.held,
                                                             strict=True)):
            names.update({f"S{c}": shift, f"M{c}": mask, f"C{c}": codes, f"H{c}": held})

        summed = "key = sum(GET(*concealed)(W))"
        if self.fold is not None:  # each component's key summed in C, a machine word each
            kinds = len(self.card.deck.kinds)
            part, digit = [255] * kinds, [0] * kinds  # 255: no component's (a joker)
            for c, comp in enumerate(self.components):
                for i, k in enumerate(comp.kinds):
                    part[k], digit[k] = c, comp.radix ** (len(comp.kinds) - 1 - i)
            names.update({"FOLD": self.fold, "FN": m, "FP": bytes(part),
                          "FW": array.array("Q", digit).tobytes()})
            summed = f"{', '.join(f'k{c}' for c in range(m))}, = FOLD(concealed, FW, FP, FN)"

        def field(c: int) -> str:
            """Component c's field of the key; the top one unmasked: a joker's
            bit above it reads past the end of its list, as does a count
            over the deck's copies of its top kind."""
            if self.fold is not None:
                return f"k{c}"  # unmasked too: a count past the copies reads past the end
            at = "key" if self.fields[c][0] == 0 else f"key >> S{c}"
            return at if c == m - 1 else f"{at} & M{c}"

        parts = ", ".join(f"C{c}[{field(c)}]" for c in range(m))
        tiles = " + ".join(f"H{c}[a{c}]" for c in range(m))
        answers = [self._answers(line) for line in self.lines]
        # every line's answers in one list, nearest first, ties in card order
        ordered = sorted((near[1], line.line, j, i) for j, (line, (_, _, nears))
                         in enumerate(zip(self.lines, answers, strict=True))
                         for i, near in enumerate(nears))
        place = {(j, i): at for at, (_, _, j, i) in enumerate(ordered)}
        names["NEAR"] = [answers[j][2][i] for _, _, j, i in ordered]
        scored, near = [], []
        for j, line in enumerate(self.lines):
            numbers, names[f"Y{j}"], _ = answers[j]
            names[f"A{j}"] = _compact(numbers)
            names[f"N{j}"] = _compact([place[j, i] for i in numbers])
            widths = line.widths
            if m > 1:
                names[f"R{j}_0"] = _compact([r * widths[0] for r in line.rows[0]])
            else:
                names[f"R{j}_0"] = _compact(line.rows[0])
            for c in range(1, m):
                names[f"R{j}_{c}"] = _compact(line.rows[c])
            for c, step in enumerate(line.steps, start=1):
                names[f"T{j}_{c}"] = _compact([t * widths[c] for t in step])
            acc = f"R{j}_0[a0]"
            for c in range(1, m - 1):
                acc = f"T{j}_{c}[{acc} + R{j}_{c}[a{c}]]"
            last = f"{acc} + R{j}_{m - 1}[a{m - 1}]" if m > 1 else acc
            scored.append(f"Y{j}[A{j}[{last}]]")
            near.append(f"N{j}[{last}]")
        fold = self.complete_fold
        start = _compact(fold.start if m == 1 else [s * fold.widths[0] for s in fold.start])
        lines = self.card.lines
        names.update({"START": start, "ANSWER": fold.answer, "TILES": _compact(fold.tiles),
                      "G0": fold.sign_of[0], "SIZE": self.card.hand_size,
                      "DONE": [None if a is None else (lines[a[0]], 0, a[1])
                               for a in fold.answer]})
        acc = f"START[G0[{field(0)}]]"
        for c in range(1, m):
            step = fold.steps[c - 1]
            names.update({f"G{c}": fold.sign_of[c], f"U{c}": _compact(
                step if c == m - 1 else [u * fold.widths[c] for u in step])})
            acc = f"U{c}[{acc} + G{c}[{field(c)}]]"
        coded = f"""
        {summed}
        {", ".join(f"a{c}" for c in range(m))}, = {parts},"""
        folded = f"""
        {summed}
        acc = {acc}"""
        miss = "(KeyError, IndexError, TypeError)"
        # (TypeError: a hand of fewer than two tiles, which one itemgetter cannot sum, or
        # one FOLD cannot read: it answers None)
        nearest = f"sorted(({', '.join(near)},))"
        source = f"""
def scores(concealed):
    try:{coded}
    except {miss}:
        return None
    if {tiles} != len(concealed):
        return None
    return [{", ".join(scored)}]

def nearest(concealed, make, *rest):
    try:{coded}
    except {miss}:
        return None
    if {tiles} != len(concealed):
        return None
    return list(map(make, map(ADD, map(NEAR.__getitem__, {nearest}), REPEAT(rest))))

def complete(concealed):
    try:{folded}
    except {miss}:
        return False
    if TILES[acc] != len(concealed):
        return False
    return ANSWER[acc]

def completed(concealed, make, *rest):
    if len(concealed) != SIZE:
        return None
    try:{folded}
    except {miss}:
        return False
    if TILES[acc] != SIZE:
        return False
    found = DONE[acc]
    return None if found is None else make(found + rest)
"""
        exec(compile(source, f"<lookups of {self.card.name}>", "exec"), names)
        self.scores = names["scores"]
        self.nearest = names["nearest"]
        self.complete = names["complete"]
        self.completed = names["completed"]
        # a matcher's own queries: the hand in, the long way for what the lookups cannot answer
        self._names = names

        def opening(long: str) -> str:
            """A query's start: the hand's code in each component, or the long way."""
            return f"""
    concealed = hand.concealed
    if hand.exposures:
        return {long}(hand, open_hands)
    try:{coded}
    except {miss}:
        return {long}(hand, open_hands)
    if {tiles} != len(concealed):
        return {long}(hand, open_hands)"""

        self._served = f"""
def scores(hand, *, open_hands=None):{opening("LONG_SCORES")}
    return [{", ".join(scored)}]

def tiles_away(hand, *, open_hands=None):{opening("LONG_AWAY")}
    return EXTEND(MAKE, NEAR_OWNED, {nearest}, hand)

def is_complete(hand, *, open_hands=None):
    concealed = hand.concealed
    if hand.exposures:
        return LONG_COMPLETE(hand, open_hands)
    if len(concealed) != SIZE:
        return None
    try:{folded}
    except {miss}:
        return LONG_COMPLETE(hand, open_hands)
    if TILES[acc] != SIZE:
        return LONG_COMPLETE(hand, open_hands)
    found = DONE_OWNED[acc]
    return None if found is None else MAKE(found + (hand,))
"""

    def serve(self, owner: Any, make: Callable[..., Any],
              long: dict[str, Callable[[Any, bool | None], Any]]) -> dict[str, Callable[..., Any]]:
        """A matcher's scores(), tiles_away() and is_complete(), written out
        for this card as the queries above are, taking the Hand: one call
        from the caller to the lookups, no more. A hand with exposures, or
        one the lookups cannot read, goes to long[query](hand, open_hands);
        each answer is make((line, tiles away, variation, owner, hand))."""
        names = dict(self._names)
        names.update({"MAKE": make, "EXTEND": extend_each, "LONG_SCORES": long["scores"],
                      "LONG_AWAY": long["tiles_away"], "LONG_COMPLETE": long["is_complete"],
                      "NEAR_OWNED": [near + (owner,) for near in names["NEAR"]],
                      "DONE_OWNED": [None if done is None else done + (owner,)
                                     for done in names["DONE"]]})
        exec(compile(self._served, f"<queries of {self.card.name}>", "exec"), names)
        return {query: names[query] for query in ("scores", "tiles_away", "is_complete")}


@dataclass(frozen=True)
class CompleteFold:
    """What the components can complete, combined: per component its codes'
    signatures folded in turn (flat (acc, code) -> acc tables), and per
    final state the best line completed with its variation."""

    sign_of: list[Sequence[int]]  # per component: key -> what it can complete (a signature)
    start: list[int]  # signature of the first component -> state
    steps: list[list[int]]
    widths: list[int]
    answer: list[tuple[int, int] | None]
    tiles: list[int]  # per final state: the tiles held (up to the hand's size and one)


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


def _numbers(values: Sequence[int]) -> np.ndarray:
    """An array of machine integers seen as a NumPy array (no copy)."""
    if isinstance(values, array.array):
        return np.frombuffer(values, dtype=np.uint16 if values.typecode == "H" else np.uint32)
    return np.asarray(values)


def _compact(values: list[int]) -> Sequence[int]:
    """A table the written-out queries read, as machine integers: a list
    of Python integers is eight bytes an entry, which the processor's cache
    holds four times fewer of (the queries read a few entries of tables of
    tens of thousands, a new hand new entries)."""
    found = np.asarray(values, dtype=np.int64)
    if int(found.max(initial=0)) >> 32:
        return array.array("q", found.tobytes())
    return _readable(found)


def _readable(codes: np.ndarray) -> Sequence[int]:
    """Codes as plain Python reads them: an array of machine integers (a
    list would read a little faster and weigh ten times as much)."""
    kind = "H" if int(codes.max(initial=0)) < 1 << 16 else "I"
    return array.array(kind, codes.astype(np.uint16 if kind == "H" else np.uint32).tobytes())


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
