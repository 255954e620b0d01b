"""Red fives in play (`hand_scoring.dora.red`, runtime/game/scored.py):
some copies of a kind are red, a tile like the others for every pattern and
a dora more for its holder. Tiles are kinds, so the State keeps where each
red copy is: in the live or dead wall (by place), held by a seat, in its
exposures, or among its discards (by place in them).

Which copies are red is chance's, each round (`Chance.tie`, keyed apart from
every other outcome), among every copy dealt or walled. A seat letting go
of a kind it holds a red copy of lets go of a plain copy while it has one,
unless it chooses the red one (`dora.red.chosen`: `discard 5B red`)."""

from __future__ import annotations

from collections.abc import Mapping

from jongg.runtime.game.table import StateData
from jongg.runtime.scoring.rules import Condition

# keys of the chance's ties that choose red copies: below any turn's
RED_TIES = -1_000


def red_kinds(options: Mapping[str, bool], red: Mapping[int, int],
              when: Condition | None) -> dict[int, int]:
    """The kinds with red copies in play, and how many: none when the
    dora's `when` is an option (or all of options) off by default."""
    if when is not None and when[0] == "option":
        names = when[1]
        assert isinstance(names, frozenset)
        if not all(options.get(name, False) for name in names):
            return {}
    return dict(red)


class RedFives(StateData):
    """Where the red copies are (the part of runtime/game/scored_round.py's
    ScoredRound that keeps them)."""

    _dead: list[int]  # the dead wall (ScoredRound)

    def _red_deal(self) -> None:
        n = self.spec.players
        self._red_held: list[list[int]] = [[] for _ in range(n)]  # kinds held concealed
        self._red_shown: list[list[int]] = [[] for _ in range(n)]  # kinds in its exposures
        self._red_thrown: list[list[int]] = [[] for _ in range(n)]  # places in its discards
        self._red_wall: list[list[int]] = []  # [place in the live wall, kind]
        self._red_dead: list[list[int]] = []  # [place in the dead wall, kind]
        self._red_adding = False  # the tile added to a pung, open to robbing, is red
        self._red_won = False  # the discard won on was red (several may win on it)
        scored = self.spec.scored
        if scored is None or not self._seats:
            return
        dora = scored.hand.dora
        for kind, copies in sorted(red_kinds(scored.hand.options, dora.red,
                                             dora.red_when).items()):
            places = [("held", s) for s, seat in enumerate(self._seats)
                      for _ in range(seat.counts[kind])]
            places += [("wall", i) for i, t in enumerate(self._wall) if t == kind]
            places += [("dead", i) for i, t in enumerate(self._dead) if t == kind]
            for copy in range(min(copies, len(places))):
                where, at = places.pop(self._chance.tie(
                    self.round, RED_TIES - 8 * kind - copy, len(places)))
                if where == "held":
                    self._red_held[at].append(kind)
                else:
                    (self._red_wall if where == "wall" else self._red_dead).append([at, kind])

    def _red_drew(self, seat: int) -> None:
        """The seat drew the live wall's last tile (its place: the wall's length now)."""
        place = len(self._wall)
        for item in self._red_wall:
            if item[0] == place:
                self._red_wall.remove(item)
                self._red_held[seat].append(item[1])
                return

    def _red_replaced(self, seat: int) -> None:
        """A kong's replacement: the dead wall's first tile to the seat, the
        live wall's first to the dead wall's end; every place moves up one."""
        for item in list(self._red_dead):
            if item[0] == 0:
                self._red_dead.remove(item)
                self._red_held[seat].append(item[1])
            else:
                item[0] -= 1
        for item in list(self._red_wall):
            if item[0] == 0:
                self._red_wall.remove(item)
                self._red_dead.append([len(self._dead) - 1, item[1]])
            else:
                item[0] -= 1

    def _red_discarded(self, seat: int, tile: int, red: bool = False) -> None:
        """A red copy is let go when chosen (`red`), or when the seat holds
        no plain one left."""
        held = self._red_held[seat]
        if held.count(tile) > self._seats[seat].counts[tile] or (red and tile in held):
            held.remove(tile)
            self._red_thrown[seat].append(len(self._seats[seat].discards) - 1)

    def _red_taken(self, discarder: int) -> bool:
        """Whether the discarder's last discard, just taken from its
        discards by a claim, was red (it is no longer among them)."""
        thrown = self._red_thrown[discarder]
        if thrown and thrown[-1] == len(self._seats[discarder].discards):
            thrown.pop()
            return True
        return False

    def _red_exposed(self, seat: int) -> None:
        """Red copies no longer among the seat's concealed tiles are in its exposures."""
        held = self._red_held[seat]
        counts = self._seats[seat].counts
        for kind in sorted(set(held)):
            while held.count(kind) > counts[kind]:
                held.remove(kind)
                self._red_shown[seat].append(kind)

    def _red_choices(self, seat: int, discards: list[int]) -> list[int]:
        """The kinds of these discards the seat may let go of a red copy of
        rather than a plain one (`dora.red.chosen`): it holds both."""
        scored = self.spec.scored
        if scored is None or not scored.hand.dora.red_chosen:
            return []
        held = self._red_held[seat]
        counts = self._seats[seat].counts
        return [t for t in discards if 0 < held.count(t) < counts[t]]

    def _red_count(self, seat: int) -> int:
        """Red copies among the seat's tiles (concealed and exposed)."""
        return len(self._red_held[seat]) + len(self._red_shown[seat])

    def _red_position(self) -> dict[str, object]:
        return {"red_held": self._red_held, "red_shown": self._red_shown,
                "red_thrown": self._red_thrown, "red_wall": self._red_wall,
                "red_dead": self._red_dead, "red_adding": self._red_adding,
                "red_won": self._red_won}

    def _load_red(self, doc: dict[str, object]) -> None:
        n = self.spec.players

        def lists(key: str, inner: int) -> list[list[int]]:
            value = doc.get(key, [[] for _ in range(n)] if inner < 0 else [])
            assert isinstance(value, list)
            return [[int(x) for x in item] for item in value]

        self._red_held, self._red_shown = lists("red_held", -1), lists("red_shown", -1)
        self._red_thrown = lists("red_thrown", -1)
        self._red_wall, self._red_dead = lists("red_wall", 2), lists("red_dead", 2)
        self._red_adding = bool(doc.get("red_adding", False))
        self._red_won = bool(doc.get("red_won", False))
