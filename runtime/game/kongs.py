"""The State's kongs in a game with a dead wall (runtime/game/scored.py):
a kong declared on one's own turn, concealed (four held) or added (the
fourth tile put to an exposed pung, which the other seats may rob for a
win), or claimed from a discard; each is followed by a replacement tile
from the dead wall, and turns one more indicator face up. A kong's fourth
tile is beside the hand's size: the card reads a kong as a set of three.

`kong TILE` is the action on one's own turn."""

from __future__ import annotations

from jongg.runtime.game import events as ev
from jongg.runtime.game import scored as sc
from jongg.runtime.game.abortive import Aborting
from jongg.runtime.game.actions import Action
from jongg.runtime.game.seat import Exposure
from jongg.runtime.game.table import Step
from jongg.runtime.hand import Hand


class Kongs(Aborting):
    """Kongs declared, robbed and replaced."""

    def _kong_tiles(self) -> int:
        """Replacement tiles the dead wall can still give this round (0: no kongs)."""
        scored = self.spec.scored
        if scored is None or scored.dead_wall is None or self._live_wall() <= 0:
            return 0
        return sc.KONGS - self._kongs

    def _kong_actions(self, seat: int) -> list[Action]:
        """The kongs the seat may declare on its turn: four of a kind held
        (a locked hand: only of the tile it drew, and only if its waits stay
        the same), or the fourth tile of one of its exposed pungs."""
        if not self._kong_tiles():
            return []
        me = self._seats[seat]
        locked = self._declared_as[seat] != ""
        found = []
        for tile, n in enumerate(me.counts):
            if n == 4 and (not locked or (tile == self._drawn and self._waits_kept(seat, tile))):
                found.append(self._rules.action("kong", tile))
        if not locked:
            for e in me.exposures:
                tiles = e.tiles
                if e.claimed >= 0 and len(tiles) == 3 and tiles[0] == tiles[2] and \
                        me.counts[tiles[0]]:
                    found.append(self._rules.action("kong", tiles[0]))
        return found

    def _waits_kept(self, seat: int, tile: int) -> bool:
        scored = self.spec.scored
        assert scored is not None
        me = self._seats[seat]
        before = list(me.counts)
        before[tile] -= 1
        after = list(me.counts)
        after[tile] -= 4
        kong = (*me.exposures, Exposure((tile,) * 4, -1))
        return sc.waits(scored, before, me.exposures) == sc.waits(scored, after, kong)

    def _kong(self, seat: int, action: Action) -> None:
        tile = action.tile
        me = self._seats[seat]
        self._turn_away = None
        added = next((i for i, e in enumerate(me.exposures)
                      if e.claimed >= 0 and e.tiles == (tile,) * 3), None)
        if added is None:
            me.counts[tile] -= 4
            me.exposures.append(Exposure((tile,) * 4, -1))
        else:
            me.counts[tile] -= 1
            old = me.exposures[added]
            me.exposures[added] = Exposure((tile,) * 4, old.claimed, old.rack)
        self._changed(seat)
        self._tell(ev.Konged(added is not None), seat, (tile,) * 4)
        shown = len(self._red_shown[seat])
        self._scored_called()
        self._red_adding = added is not None and len(self._red_shown[seat]) > shown
        if added is not None:
            robbers = [s for s in self._others(seat) if self._wins_robbing(s, tile)]
            if robbers:  # the added tile may be robbed for a win first
                self._robbing = (seat, added)
                self._open_discard = (seat, tile)
                self._answers, self._asked = {}, robbers
                self._claim_options = {}
                self.step = Step.CLAIMS
                return
        self._replace(seat, concealed=added is None)

    def _others(self, seat: int) -> list[int]:
        n, direction = self.spec.players, self.spec.turn.direction
        return [(seat + i * direction) % n for i in range(1, n) if not self._seats[
            (seat + i * direction) % n].dead]

    def _wins_robbing(self, seat: int, tile: int) -> bool:
        """Whether the seat may win on a tile added to a pung (not furiten)."""
        if self._is_furiten(seat):
            return False
        return self._scores_win(seat, tile, False, robbed=True).wins

    def _rob_actions(self, seat: int) -> list[Action]:
        assert self._open_discard is not None
        found = [self._rules.action("pass")]
        found.extend(self._rules.action("claim", claim=k.name) for k in self.spec.claims.kinds
                     if k.mahjong)
        return found

    def _resolve_rob(self) -> None:
        """The added kong's window closes: robbed by the nearest seat that
        claims it, or the kong stands and its replacement is drawn."""
        assert self._robbing is not None and self._open_discard is not None
        konger, index = self._robbing
        tile = self._open_discard[1]
        robbers = [s for s in self._asked if self._answers[s].verb == "claim"]
        self._scored_passed([s for s in self._asked if s not in robbers], None, tile)
        self._open_discard = None
        if not robbers:
            self._robbing = None
            self.step = Step.TURN
            self._replace(konger)
            return
        winner = robbers[0]  # asked nearest first
        if self._red_adding:  # the red copy added is the robber's
            self._red_shown[konger].remove(tile)
            self._red_held[winner].append(tile)
        kong = self._seats[konger].exposures[index]
        self._seats[konger].exposures[index] = Exposure((tile,) * 3, kong.claimed, kong.rack)
        self._changed(konger)
        me = self._seats[winner]
        me.counts[tile] += 1
        self._changed(winner)
        self.turn, self._drawn = winner, None
        self._claimed_turn, self._claimed_from = True, konger
        self._incoming = (winner, tile)
        self.step = Step.TURN
        claim = next(k.name for k in self.spec.claims.kinds if k.mahjong)
        self._tell(ev.Claimed(claim, True, konger), winner, (tile,))
        self._end_round(winner, konger, False)
        self._robbing = None

    def _replace(self, seat: int, concealed: bool = False) -> None:
        """A kong's replacement tile, drawn from the dead wall's start; the
        kong's indicator is turned now or at the seat's discard."""
        scored = self.spec.scored
        assert scored is not None and scored.dead_wall is not None
        timing = scored.dead_wall.kong_indicators
        self._flipped, self._unflipped = self._flipped + self._unflipped, 0  # the last kong's
        if timing == "at-once" or (timing == "after-discard" and concealed):
            self._flipped += 1
        elif timing == "after-discard":
            self._unflipped = 1
        tile = self._dead.pop(0)
        self._dead.append(self._wall.pop(0))  # the live wall gives the dead wall one back
        self._red_replaced(seat)
        self._kongs += 1
        self._kong_seats.append(seat)
        me = self._seats[seat]
        self._incoming = (seat, tile)
        self._tell(ev.Drew(self._live_wall()), seat, (tile,), frozenset({seat}))
        me.counts[tile] += 1
        self._changed(seat)
        self._drawn = tile
        self.turn = seat
        self._claimed_turn = False
        self._replacement = True
        self.step = Step.TURN

    def _scored_claims(self, seat: int, actions: list[Action]) -> list[Action]:
        """A claim window's actions in a scored game: a locked hand claims
        no set, the live wall's last discard is claimed only for a win, a
        kong only while the dead wall has a replacement for it."""
        if self.spec.scored is None:
            return actions
        if self._robbing is not None:
            return self._rob_actions(seat)
        barred = self._declared_as[seat] != "" or self._live_wall() <= 0
        kongs = self._kong_tiles() > 0
        return [a for a in actions if a.verb != "claim" or not a.tiles
                or not (barred or (len(a.tiles) == 3 and not kongs))]

    def _extra_tiles(self, seat: int) -> int:
        """Tiles the seat holds beside the hand's size: a kong's fourth, in a
        game with a dead wall."""
        if self.spec.scored is None or self.spec.scored.dead_wall is None:
            return 0
        return sum(1 for e in self._seats[seat].exposures if len(e.tiles) == 4)

    def _card_hand(self, seat: int) -> Hand:
        """The seat's hand as the card reads it: each kong a set of three
        in a game with a dead wall."""
        me = self._seats[seat]
        if self.spec.scored is None or self.spec.scored.dead_wall is None:
            return me.hand()
        return Hand(me.concealed(), tuple(e.tiles[:3] for e in me.exposures))
