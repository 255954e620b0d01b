"""Per-suit tables for structural lines: hands matched by lookups.

For a line of free groups alone (four sets and a pair, seven pairs, three
sets and a pair), a hand without jokers or exposures scores the sum, over the
deck's components, of what each component's counts can do for each share of
the line's groups. That depends only on the counts, so it is computed once
for every count vector (runtime/matching/building.py) and kept on disk, as an
index (count vector -> row) and a few distinct rows.

Rows are few, so their combination is tabled too (the *fold*): component by
component, (rows so far, next row) -> rows so far, and at the last component
the line's best score. A hand is then one lookup per component and one per
fold step, in plain Python for one hand and as array lookups for a batch.

Loose kinds (honours) have no runs and are interchangeable when they hold
the same number of copies: their index is filled from the sorted counts.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from jongg.runtime.matching import accelerated, store
from jongg.runtime.matching.building import IMPOSSIBLE, Progress, build, demands
from jongg.runtime.matching.structure import Demand, Shape

VERSION = 2
FOLD_CELLS = 1 << 22  # fold work done at once (memory stays in tens of MB)
WITHIN_KEPT = 50_000  # best_within() answers kept per line shape


@dataclass(frozen=True)
class Component:
    kinds: tuple[int, ...]
    runs: bool
    copies: int  # the same for every kind of the component

    @property
    def radix(self) -> int:
        return self.copies + 1


@dataclass(frozen=True)
class ComponentTable:
    """One component's table: every count vector's row, and the rows (per
    share of the line's groups, the most naturals filled, or IMPOSSIBLE)."""

    index: np.ndarray  # (vectors,) unsigned
    rows: np.ndarray  # (R, shares) int16


@dataclass(frozen=True)
class Fold:
    """Rows combined component by component: steps[c][a, r] is the
    combination after component c + 1 of combination a and row r there;
    last[a, r] the line's best score. Also as flat lists, for one hand."""

    steps: list[np.ndarray]
    last: np.ndarray
    flat_steps: list[list[int]]
    flat_last: list[int]
    widths: list[int]  # rows of each component after the first


class ShapeTables:
    """A structural line's tables over a deck's components."""

    def __init__(self, shape: Shape, components: Sequence[Component],
                 tables: Sequence[ComponentTable]):
        self.shape = shape
        self.components = list(components)
        self.tables = list(tables)
        shares = demands(shape)
        index = {d: i for i, d in enumerate(shares)}
        self.width = len(shares)
        pairs = sorted((index[tuple(a + b for a, b in zip(d1, d2, strict=True))], i, j)
                       for i, d1 in enumerate(shares) for j, d2 in enumerate(shares)
                       if all(a + b <= m for a, b, m in zip(d1, d2, shape.demand, strict=True)))
        self._target = np.array([t for t, _, _ in pairs])
        self._left = np.array([i for _, i, _ in pairs])
        self._right = np.array([j for _, _, j in pairs])
        self._bounds = np.flatnonzero(np.r_[True, np.diff(self._target) != 0])
        self._within_memo: dict[Demand, tuple[list[int], list[tuple[int, int]]]] = {}
        self._within_bytes: dict[Demand, bytes] = {}
        # best_within() by keys and share
        self._within_best: dict[tuple[tuple[int, ...], Demand], int] = {}

    # -- the fold ---------------------------------------------------------------------
    @cached_property
    def fold(self) -> Fold:
        acc = self.tables[0].rows.astype(np.int32)
        steps: list[np.ndarray] = []
        last = np.zeros((0, 0), dtype=np.int16)
        for c, table in enumerate(self.tables[1:], start=1):
            rows = table.rows.astype(np.int32)
            if c == len(self.tables) - 1:
                last = self._pairs(acc, rows, best=True).astype(np.int16)
            else:
                combined = self._pairs(acc, rows, best=False)
                acc, step = _distinct(combined.reshape(-1, self.width))
                steps.append(step.reshape(len(combined), len(rows)).astype(np.int32))
        if len(self.tables) == 1:  # one component: its rows' best
            last = acc.max(axis=1, keepdims=True).astype(np.int16)
        widths = [len(t.rows) for t in self.tables[1:]]
        return Fold(steps, last, [s.ravel().tolist() for s in steps], last.ravel().tolist(),
                    widths)

    def _pairs(self, acc: np.ndarray, rows: np.ndarray, *, best: bool) -> np.ndarray:
        """Every combination of acc's and rows' shares: per target share (or,
        with `best`, over all), the most naturals; a chunk of acc at a time."""
        chunk = max(1, FOLD_CELLS // max(1, len(rows) * len(self._left)))
        out = []
        for a in range(0, len(acc), chunk):
            summed = acc[a:a + chunk, None, self._left] + rows[None, :, self._right]
            part = summed.max(axis=2) if best else \
                np.maximum.reduceat(summed, self._bounds, axis=2)
            out.append(np.where(part < 0, IMPOSSIBLE, part))
        return np.concatenate(out)

    # -- one hand, in plain Python (a handful of NumPy calls would cost more) ------
    def best_keys(self, keys: Sequence[int]) -> int:
        """The most slots the naturals fill, for one jokerless hand given as
        its components' keys."""
        fold = self.fold
        rows = [index[key] for index, key in zip(self._index_lists, keys, strict=True)]
        acc = rows[0]
        for step, width, row in zip(fold.flat_steps, fold.widths, rows[1:-1], strict=False):
            acc = step[acc * width + row]
        if len(rows) == 1:
            return fold.flat_last[acc]
        return fold.flat_last[acc * fold.widths[-1] + rows[-1]]

    @cached_property
    def _index_lists(self) -> list[list[int]]:
        """The indexes as lists (read faster than arrays from Python); the
        components of one signature share theirs."""
        lists: dict[int, list[int]] = {}
        for t in self.tables:
            if id(t) not in lists:
                lists[id(t)] = as_list(t.index)
        return [lists[id(t)] for t in self.tables]

    def best_within(self, keys: Sequence[int], demand: Demand) -> int:
        """The best of one jokerless hand over a share of the groups (what is
        left when exposures have taken the rest). Kept by its keys and share:
        a player weighing its discards asks the same hand again for each
        variation and exposure seating the line has."""
        key = (tuple(keys), demand)
        known = self._within_best.get(key)
        if known is None:
            known = self._within_best[key] = self._best_within(keys, demand)
            if len(self._within_best) > WITHIN_KEPT:
                self._within_best = {key: known}
        return known

    def _best_within(self, keys: Sequence[int], demand: Demand) -> int:
        rows = [table[index[key]] for table, index, key in
                zip(self._row_lists, self._index_lists, keys, strict=True)]
        if accelerated.max_plus is not None:
            return accelerated.max_plus(rows, self._steps_packed, self._within_packed(demand))
        acc = rows[0]
        for part in rows[1:-1]:
            acc = [max([acc[i] + part[j] for i, j in pairs]) for pairs in self._by_target]
        if len(rows) == 1:
            return max([acc[i] for i in self._within(demand)[0]])
        part = rows[-1]
        return max([acc[i] + part[j] for i, j in self._within(demand)[1]])

    @cached_property
    def _row_lists(self) -> list[list[list[int]]]:
        """Each component's rows as lists (components of one signature share theirs)."""
        lists: dict[int, list[list[int]]] = {}
        for t in self.tables:
            if id(t) not in lists:
                lists[id(t)] = t.rows.tolist()
        return [lists[id(t)] for t in self.tables]

    def _within(self, demand: Demand) -> tuple[list[int], list[tuple[int, int]]]:
        """The shares inside `demand`, and the pairs of shares whose sum is."""
        known = self._within_memo.get(demand)
        if known is None:
            shares = demands(self.shape)
            inside = [i for i, d in enumerate(shares)
                      if all(a <= m for a, m in zip(d, demand, strict=True))]
            pairs = [(i, j) for i, j in zip(self._left.tolist(), self._right.tolist(),
                                            strict=True)
                     if all(a + b <= m for a, b, m in zip(shares[i], shares[j], demand,
                                                          strict=True))]
            known = self._within_memo[demand] = (inside, pairs)
        return known

    @cached_property
    def _steps_packed(self) -> bytes:
        """_by_target for the accelerator: each share's count of pairs, then its pairs."""
        flat: list[int] = []
        for pairs in self._by_target:
            flat.append(len(pairs))
            flat.extend(itertools.chain.from_iterable(pairs))
        return np.array(flat, dtype=np.int32).tobytes()

    def _within_packed(self, demand: Demand) -> bytes:
        """_within(demand) for the accelerator: with one component the shares
        inside the demand, with more the pairs of the last fold, flat."""
        known = self._within_bytes.get(demand)
        if known is None:
            inside, pairs = self._within(demand)
            flat = inside if len(self.tables) == 1 else list(itertools.chain.from_iterable(pairs))
            known = self._within_bytes[demand] = np.array(flat, dtype=np.int32).tobytes()
        return known

    @cached_property
    def _by_target(self) -> list[list[tuple[int, int]]]:
        groups: dict[int, list[tuple[int, int]]] = {}
        for t, i, j in zip(self._target.tolist(), self._left.tolist(), self._right.tolist(),
                           strict=True):
            groups.setdefault(t, []).append((i, j))
        return [groups[t] for t in sorted(groups)]

    # -- many hands -----------------------------------------------------------------------
    def best(self, keys: Sequence[np.ndarray]) -> np.ndarray:
        """The most slots the naturals fill, for hands without jokers or
        exposures given as their components' keys (component_keys)."""
        fold = self.fold
        rows = [t.index[key] for t, key in zip(self.tables, keys, strict=True)]
        acc = rows[0].astype(np.intp)
        for step, row in zip(fold.steps, rows[1:-1], strict=False):
            acc = step[acc, row]
        best: np.ndarray = fold.last[acc, 0 if len(rows) == 1 else rows[-1]].astype(np.int32)
        return best


def as_list(values: np.ndarray) -> list[int]:
    """An array of small numbers as a list sharing one int object per value
    (tolist() would make one per entry past 256)."""
    if int(values.max(initial=0)) < 256:
        small: list[int] = values.tolist()
        return small
    pool = list(range(int(values.max()) + 1))
    return list(map(pool.__getitem__, values.tolist()))


def _distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    return unique, inverse.ravel()


def component_keys(components: Sequence[Component], counts: np.ndarray) -> list[np.ndarray]:
    """Each component's counts as a table key: digits in base copies + 1, the
    first kind most significant (lines of one deck share them)."""
    return [counts[:, comp.kinds] @ (comp.radix ** np.arange(len(comp.kinds) - 1, -1, -1))
            for comp in components]


@functools.cache
def _code() -> str:
    """The source the tables come from: a change to it makes new tables."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in (here / "structure.py", here / "building.py", here / "tables.py",
                 here.parent / "card.py"):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


Signature = tuple[int, int, bool]  # a component's kinds, copies and runs: what its table needs


def signature(comp: Component) -> Signature:
    return (len(comp.kinds), comp.copies, comp.runs)


def table_file(folder: Path, shape: Shape, sig: Signature) -> Path:
    n, copies, runs = sig
    key = f"{VERSION} {_code()} {shape!r} {n} {copies} {runs}"
    return folder / f"shape-{hashlib.sha256(key.encode()).hexdigest()[:24]}.table"


def _read(path: Path, sig: Signature, width: int, *, rebuild: bool) -> ComponentTable | None:
    """A kept table, or None when it is missing or unsound (noted, and built
    again when `rebuild`)."""
    try:
        index, rows = store.load_arrays(path, "index", "rows")
    except FileNotFoundError:
        return None
    except (OSError, store.Damaged) as error:
        reason = str(error)
    else:
        n, copies, _ = sig
        if index.shape == ((copies + 1) ** n,) and rows.ndim == 2 and rows.shape[1] == width \
                and index.dtype.kind == "u" and int(index.max(initial=0)) < len(rows):
            return ComponentTable(index, rows)
        reason = f"{path}: shaped {index.shape} and {rows.shape}, not a table of this shape"
    store.notes.warning("%s; %s", reason, "building it again" if rebuild else
                        "not used (run 'jongg compile' to build it again)")
    return None


def load_or_build(shape: Shape, components: Sequence[Component], folder: Path | None, *,
                  build_missing: bool = True, progress: Progress | None = None
                  ) -> tuple[ShapeTables | None, float]:
    """The tables, from `folder` when there, else built (and saved there);
    with the seconds spent building (0 when all were loaded). Without
    `build_missing`, None unless every table is there already. `progress` is
    told (done, total) as the build goes, in count-vector layers."""
    width = len(demands(shape))
    found: dict[Signature, ComponentTable | None] = {}
    for sig in map(signature, components):
        if sig not in found:
            found[sig] = _read(table_file(folder, shape, sig), sig, width,
                               rebuild=build_missing) if folder else None
    missing = [sig for sig, table in found.items() if table is None]
    if missing and not build_missing:
        return None, 0.0
    begin = time.perf_counter()
    total = sum(n for n, _, _ in missing)
    done = 0
    for sig in missing:
        n, copies, runs = sig

        def step(layer: int, _: int, base: int = done) -> None:
            if progress is not None:
                progress(base + layer, total)

        index, rows = build(shape, n, copies, runs, step)
        found[sig] = ComponentTable(index, rows)
        done += n
        if folder is not None:
            try:
                store.save_arrays(table_file(folder, shape, sig), index=index, rows=rows)
            except OSError as error:  # no place to keep it: built again next time
                store.notes.debug("not kept: %s", error.strerror or error)
    built = time.perf_counter() - begin if missing else 0.0
    tables = [found[signature(c)] for c in components]
    return ShapeTables(shape, components, [t for t in tables if t is not None]), built
