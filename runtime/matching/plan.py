"""A variation as the structural programme sees it (a Plan), and what is
kept per set of exposures while its plans are scored (runtime/matching/plans.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from jongg.runtime.card import Slots
from jongg.runtime.matching.structure import Demand, GroupType, Shape

Seating = tuple[frozenset[int], tuple[int, ...], tuple[int, ...]]
# a seating as Programme.score reads it (Programme._ways)
Way = tuple[bool, Shape, frozenset[int], Demand, list[Slots]]
T = TypeVar("T")
UNSEATED: list[Seating] = [(frozenset(), (), ())]


@dataclass(frozen=True, slots=True)
class Plan:
    """A variation as the structural programme sees it."""

    line: int
    variation: int
    groups: tuple[Slots, ...]
    types: tuple[GroupType, ...]  # the free groups, one entry per group
    shape: Shape  # the free groups by type
    concealed: bool
    needs: dict[int, int]  # the concrete groups' tiles, counted
    free_size: int

    def ceiling(self, counts: dict[int, int], jokers: int, exposed: int) -> int:
        """No filling beats this: naturals fill at most the concrete slots of
        their tile and every free slot; jokers and exposed tiles come on top."""
        needs = self.needs
        return (sum(min(n, needs.get(t, 0)) for t, n in counts.items()) + self.free_size
                + jokers + exposed)


Exposed = tuple[tuple[int, ...], ...]
PlanKey = tuple[int, int]  # (line, variation)
EXPOSURES_KEPT = 4096  # sets of exposures whose seatings are kept


def by_exposures(kept: dict[Exposed, dict[PlanKey, T]], exposures: Exposed
                  ) -> dict[PlanKey, T]:
    """What is kept for these exposures, by plan (all of it forgotten when
    too many exposures are kept)."""
    known = kept.get(exposures)
    if known is None:
        if len(kept) > EXPOSURES_KEPT:
            kept.clear()
        known = kept[exposures] = {}
    return known


def shape_of(types: Sequence[GroupType], all_jokers: bool) -> Shape:
    kinds = sorted(set(types), key=lambda t: (t.kind, t.jokers))
    return Shape(tuple(kinds), tuple(types.count(t) for t in kinds), all_jokers)
