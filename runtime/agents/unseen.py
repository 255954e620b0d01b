"""The copies of each tile kind a seat has not seen, kept from one decision
to the next.

Between two decisions of a seat, what is public (every seat's discards and
exposures) changes by a few tiles: a discard, a claim taking it into an
exposure, a joker exchanged, a new deal. The seat keeps its count of the
copies not yet public and updates it by what changed since it last looked,
instead of counting every discard and exposure again each decision (as the
observation's own `unseen` does); its own tiles (held, passing, set aside)
are read as they are. The answer is the observation's, kind for kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from jongg.runtime.game.rules import Rules
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.view import Observation


class Unseen:
    """One seat's count of the tiles it has not seen, kept between decisions."""

    def __init__(self) -> None:
        self._rules: Rules | None = None
        self._left: list[int] = []  # per kind, the copies not public
        self._discards: list[tuple[int, ...]] = []  # per seat, as last looked
        self._exposures: list[tuple[Exposure, ...]] = []
        self._kept: tuple[Observation, tuple[int, ...]] | None = None

    def of(self, seen: Observation) -> tuple[int, ...]:
        """Per tile kind, the copies this seat has not seen (the same as
        `seen.unseen`)."""
        if self._kept is not None and self._kept[0] is seen:
            return self._kept[1]  # asked again of the same decision
        if seen.rules is not self._rules:
            self._rules = seen.rules
            self._left = [k.copies for k in seen.rules.deck.kinds]
            self._discards = [() for _ in seen.seats]
            self._exposures = [() for _ in seen.seats]
        left = self._left
        for i, other in enumerate(seen.seats):
            was, now = self._discards[i], other.discards
            if now != was:
                if len(now) > len(was) and now[:len(was)] == was:
                    was, now = (), now[len(was):]  # only discards made since
                for t in was:
                    left[t] += 1
                for t in now:
                    left[t] -= 1
                self._discards[i] = other.discards
            shown = other.exposures
            if shown != self._exposures[i]:  # exposures are replaced, never changed
                for e in self._exposures[i]:
                    for t in e.tiles:
                        left[t] += 1
                for e in shown:
                    for t in e.tiles:
                        left[t] -= 1
                self._exposures[i] = shown
        me = seen.me
        mine: Sequence[int] = me.counts
        if me.outgoing or me.aside:
            held = list(mine)
            for t in (*me.outgoing, *me.aside):
                held[t] += 1
            mine = held
        # max(0, n - m), a comparison being cheaper than a call per kind
        unseen = tuple([n - m if n > m else 0 for n, m in zip(left, mine, strict=True)])
        self._kept = (seen, unseen)
        return unseen
