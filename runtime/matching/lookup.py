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
from jongg.runtime.matching.accelerated import Fold, extend_each
from jongg.runtime.matching.tables import Component

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
