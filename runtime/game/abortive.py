"""The State's abortive draws in a scored game (`abortive`,
runtime/game/scored.py): rounds that end drawn before the wall runs out,
the dealer dealing again with one more honba. Each is the variant's to
switch off; nothing here knows a variant.

`abort` is the action of a seat that may end the round on its first turn."""

from __future__ import annotations

from jongg.runtime.game import events as ev
from jongg.runtime.game.actions import Action
from jongg.runtime.game.scored import KONGS
from jongg.runtime.game.scored_round import ScoredRound


class Aborting(ScoredRound):
    """Abortive draws: declared on a first turn, or seen by the table."""

    def _abort_actions(self, seat: int) -> list[Action]:
        """`abort` on the seat's first turn, no call before it, while it
        holds enough kinds of the hand scoring's orphans."""
        scored = self.spec.scored
        if scored is None or scored.abortive is None:
            return []
        rule = scored.abortive
        if not rule.orphans or self._thrown[seat] or self._called or self._claimed_turn:
            return []
        counts = self._seats[seat].counts
        held = sum(1 for k in scored.hand.orphans if counts[k])
        return [self._rules.action("abort")] if held >= rule.orphans else []

    def _abort(self, seat: int) -> None:
        assert self._abort_actions(seat), "abort offered only when the rules allow it"
        self._aborted("orphans", seat)

    def _aborted(self, reason: str, seat: int | None = None) -> None:
        """The round ends drawn: no wall-game payments, the deal stays."""
        self._open_discard = None
        self._ended = "abortive"
        self._tell(ev.Aborted(reason), seat)
        self._end_round(None, None, False)

    def _scored_window_closed(self) -> bool:
        """A discard was let go (no win on it): a declaration made with it
        stands, and its deposit goes down; then an abortive draw the table
        shows ends the round. True: it did."""
        scored = self.spec.scored
        if scored is None:
            return False
        self._deposit_pending()
        rule = scored.abortive
        if rule is None:
            return False
        reason = ""
        thrown = self._thrown
        if rule.first_discards and not self._called and all(len(t) == 1 for t in thrown) \
                and len({t[0] for t in thrown}) == 1 and \
                self.spec.deck.kinds[thrown[0][0]].category.value in rule.first_discards:
            reason = "first_discards"
        elif rule.all_declared and all(self._declared_as):
            reason = "all_declared"
        elif rule.kongs_apart and len(self._kong_seats) >= KONGS and \
                len(set(self._kong_seats)) > 1:
            reason = "kongs_apart"
        if not reason:
            return False
        self._aborted(reason)
        return True

    def _wins_at_once(self, winners: int) -> bool:
        """Whether this many seats claiming a win on one discard end the
        round (and then it has ended)."""
        scored = self.spec.scored
        rule = scored.abortive if scored is not None else None
        if rule is None or not rule.wins_at_once or winners < rule.wins_at_once:
            return False
        self._aborted("wins_at_once")
        return True
