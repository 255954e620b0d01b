"""The odds of drawing tiles before the wall ends, as the expert's outlook
reads them (runtime/agents/outlook.py): the copies of a missing kind drawn
before the wall ends are a Poisson count at the rate that kind has among the
tiles a seat has not seen, over the draws left, read off grids computed once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MOST = 8  # a kind is never missing more copies than this
JOKER_TERMS = 16  # terms of the Poisson sum for the slots jokers may fill
CLAIM_SHARE = 0.4  # of another seat's discards, the share a claim could take


@dataclass(frozen=True, eq=False)
class Odds:
    """The chances of drawing tiles before the wall ends, by kind, in one
    flat table: a kind's odds with `copies` missing are read at
    `cols[kind] + copies` past the offset of what is asked (one index
    serves all four: P(at least a drawn), P(at least a drawn or claimed),
    both as logs, and E[min(copies drawn or claimed, b)], E[min(copies
    drawn, b)])."""

    cols: np.ndarray  # (K,): where each kind's odds start past an offset
    flat: np.ndarray  # the rows of the drawn rates, then those of the claimable ones
    claimed: int  # where the claimable rates' rows start
    joker_rate: float  # jokers expected to be drawn
    draws: float
    # (3, K): where each kind's log P(at least a drawn), log P(at least a
    # drawn or claimed) and E[min(copies drawn or claimed, b)] start
    bases: np.ndarray

    @property
    def log_sf(self) -> np.ndarray:
        """log P(at least a copies drawn)."""
        return self.flat[MOST + 1:]

    @property
    def log_claimed(self) -> np.ndarray:
        """log P(at least a copies drawn or claimed)."""
        return self.flat[self.claimed + MOST + 1:]

    @property
    def mean_open(self) -> np.ndarray:
        """E[min(copies drawn or claimed, b)]."""
        return self.flat[self.claimed + 2 * (MOST + 1):]

    @property
    def mean_closed(self) -> np.ndarray:
        """E[min(copies drawn, b)]."""
        return self.flat[2 * (MOST + 1):]


def odds(unseen: tuple[int, ...], draws: float, players: int, joker: int | None) -> Odds:
    """The odds for a seat that has not seen `unseen` copies of each kind
    and will draw about `draws` more tiles; another seat's discard may be
    claimed (an exposed line)."""
    total = sum(unseen)  # in plain Python: a tuple of a few dozen counts
    ratio = max(draws, 0.0) / total if total > 0 else 0.0
    n = max(unseen, default=0) + 1
    key = (ratio, n, players)
    flat = _ROWS.get(key)
    if flat is None:
        if len(_ROWS) >= ROWS_KEPT:
            _ROWS.clear()
        flat = _ROWS[key] = _rows(ratio, n, players)
    width = ODDS_GRID.shape[1]
    cols = np.array(unseen, dtype=np.int64) * width
    joker_rate = 0.0
    if joker is not None:
        joker_rate = unseen[joker] * ratio
        cols[joker] = 0  # no natural draw of a joker: its slots are pooled apart
    a = MOST + 1
    claimed = n * width
    return Odds(cols, flat, claimed, joker_rate, draws,
                cols + np.array([[a], [claimed + a], [claimed + 2 * a]]))


ROWS_KEPT = 256  # odds tables kept (the seats at a table share them, a draw or two apart)
_ROWS: dict[tuple[float, int, int], np.ndarray] = {}


def _rows(ratio: float, n: int, players: int) -> np.ndarray:
    """The odds of every number of copies left below `n`, at `ratio` draws
    a tile unseen, flat: a row per number drawn, then one per number drawn
    or claimed. A kind's odds depend only on its copies left: worked out
    once per number of copies (a handful), each kind reading its row."""
    rate = np.arange(n, dtype=float) * ratio
    claimable = rate * (1 + CLAIM_SHARE * max(players - 1, 0))
    # both rates at once, read off the grid: P(X >= a), its log and E[min(X, b)]
    at = np.minimum(np.concatenate([rate, claimable]), RATE_TOP) / RATE_STEP
    low = at.astype(np.int64)
    frac = (at - low)[:, None]
    below = ODDS_GRID[low]
    flat: np.ndarray = (below + (ODDS_GRID[low + 1] - below) * frac).ravel()
    return flat


RATE_STEP = 0.05  # the grid of rates P(Poisson(rate) >= n) is read from
RATE_TOP = 40.0


def _poisson_grid() -> np.ndarray:
    """(rates, JOKER_TERMS + 2): P(Poisson(rate) >= n) on a grid of rates
    (the last column: beyond the terms kept, never)."""
    rate = np.arange(0.0, RATE_TOP + 2 * RATE_STEP, RATE_STEP)
    n = np.arange(JOKER_TERMS + 1)
    log_pmf = -rate[:, None] + n * np.log(np.maximum(rate[:, None], 1e-300)) - \
        np.array([math.lgamma(i + 1) for i in n])
    pmf = np.where(rate[:, None] > 0, np.exp(log_pmf), (n == 0).astype(float))
    grid: np.ndarray = np.zeros((len(rate), JOKER_TERMS + 2))
    grid[:, 0] = 1.0
    grid[:, 1:-1] = np.maximum(1.0 - np.cumsum(pmf, axis=1)[:, :-1], 0.0)
    return grid


def _odds_grid(poisson: np.ndarray) -> np.ndarray:
    """(rates, 3 (MOST+1)): on the grid of rates, P(X >= a), log P(X >= a)
    and E[min(X, b)] = sum over x < b of P(X > x), for a, b = 0..MOST."""
    sf = poisson[:, :MOST + 1]
    means = np.zeros_like(sf)
    means[:, 1:] = np.cumsum(sf[:, 1:], axis=1)
    return np.concatenate([sf, np.log(np.maximum(sf, 1e-30)), means], axis=1)


POISSON = _poisson_grid()
ODDS_GRID = _odds_grid(POISSON)
# the grid flat, and its rise to the next rate (the last rate: none), for
# reading many cells with one take each
POISSON_FLAT = POISSON.ravel()
POISSON_RISE = np.concatenate([POISSON[1:] - POISSON[:-1], np.zeros((1, POISSON.shape[1]))]).ravel()


def poisson_at_least(rate: np.ndarray, need: np.ndarray) -> np.ndarray:
    """P(Poisson(rate) >= need), elementwise (need <= 0: certain), read
    off a grid of rates with linear interpolation."""
    at = np.minimum(rate, RATE_TOP) / RATE_STEP
    low = at.astype(np.int64)
    cell = low * POISSON.shape[1] + np.minimum(np.maximum(need, 0), JOKER_TERMS + 1)
    found: np.ndarray = POISSON_FLAT.take(cell) + POISSON_RISE.take(cell) * (at - low)
    return found
