"""Several seats winning on one discard in a scored game: three (or as
many as `abortive.wins_at_once` says) end the round drawn; with
`claims.several_wins: all` each claimer wins, the nearest in turn first,
taking the deposits and the honba (`several_honba: each`: each takes the
honba), the others paid by the discarder after it (double ron). Otherwise
the nearest claimer alone wins (head bump)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jongg.runtime.game import events as ev
from jongg.runtime.game.kongs import Kongs
from jongg.runtime.game.scoring import ScoreEvent


def won(seat: int, line: str | None, shown: Sequence[Sequence[str]],
        paid: Sequence[ScoreEvent]) -> dict[str, Any]:
    """One winner of several on a discard as the round's end names it."""
    return {"seat": seat, "line": line, "shown": [list(group) for group in shown],
            "paid": [p.public() for p in paid]}


class SeveralWins(Kongs):
    """Wins claimed together on one discard."""

    def _several_wins(self, winners: list[int]) -> bool:
        """Seats claiming a win on one discard, nearest first: enough of
        them end the round drawn (and then True); with `several_wins` each
        of them wins, the nearest first (the others are kept to be paid)."""
        scored = self.spec.scored
        if scored is None:
            return False
        if self._wins_at_once(len(winners)):
            return True
        if scored.several_wins:
            self._others_won = winners[1:]
        return False

    def _pay_others(self, discarder: int | None) -> list[dict[str, Any]]:
        """The other seats that won on the discard, each shown and paid by
        the discarder in turn (the deposits were the first's, and the
        honba unless each is paid it); each as the round's end names it."""
        spec = self.spec
        if spec.scored is None or not self._others_won or self._incoming is None:
            return []
        assert discarder is not None  # a win on a discard
        tile = self._incoming[1]
        claim = next(k.name for k in spec.claims.kinds if k.mahjong)
        honba = self._honba
        self._honba = honba if spec.scored.honba_each else 0  # the nearest's, unless each's
        deck = spec.deck
        found = []
        for seat in self._others_won:
            red = self._red_held[seat]
            red.extend([tile] if self._red_won else [])  # the red copy won on counts for each
            self._scored_win = self._scores_win(seat, tile, False, ura=True)
            del red[len(red) - self._red_won:]
            assert self._scored_win.wins, self._scored_win.reason
            self._tell(ev.Claimed(claim, True, discarder), seat, (tile,))
            # the one tile is shown in every winner's hand, and held by none
            me = self._seats[seat]
            match = self._matcher.is_complete(self._card_hand(seat).plus(tile),
                                              open_hands=spec.open_hands)
            assert match is not None
            tiles = sorted([*me.concealed(), tile, *(t for e in me.exposures for t in e.tiles)])
            self._tell(ev.Declared(0, match.line.id, match.line.value or 0), seat, tuple(tiles))
            paid = self._scored_payments(seat, discarder)
            self._pay(paid)
            shown = [*(deck.codes(e.tiles) for e in me.exposures),
                     deck.codes(sorted([*me.concealed(), tile]))]
            found.append(won(seat, match.line.id, shown, paid))
        self._honba = honba
        return found
