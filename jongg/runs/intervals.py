"""Proportions from counts: intervals and bounds for the rates simulations measure."""

from __future__ import annotations

import math

Z95 = 1.96  # the normal quantile of a two-sided 95% interval


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def never_bound(n: int, confidence: float = 0.95) -> float:
    """The exact (Clopper-Pearson) one-sided upper bound of a rate never seen
    in `n` trials: the rate p with (1 - p)^n = 1 - confidence. About 3/n at
    95% for large n (the rule of three)."""
    if n == 0:
        return 1.0
    return 1.0 - (1.0 - confidence) ** (1.0 / n)
