"""The State's phases before play: each phase started, and applied once
every seat has answered (passes handed over, votes counted, offers agreed,
pledges made). What the answers decide comes from runtime/game/phases.py."""

from __future__ import annotations

from jongg.runtime.game import events as ev
from jongg.runtime.game import phases
from jongg.runtime.game.spec import Courtesy, Pass, Pledge, Vote
from jongg.runtime.game.table import StateData, Step


class PrePlay(StateData):
    """The State's part that runs the phases before play."""

    def _next_phase(self) -> None:
        """Start the next pre-play phase, or play."""
        while self._phase_queue:
            phase = self._phase_queue.pop(0)
            self.phase = phase
            self._tell(phases.describe(phase))
            if isinstance(phase, Vote | Pledge):
                self.step, self._votes = Step.VOTING, {}
                return
            self._blind = [0] * self.spec.players
            if isinstance(phase, Courtesy) or phase.blind:
                self.step, self._offers = Step.OFFERING, {}
                return
            self._pass_count = [phase.count] * self.spec.players
            self.step = Step.PASSING
            return
        self.phase = None
        self.turn = self.dealer
        self._turn_away = None
        self.step = Step.TURN
        self._tell(ev.PlayBegun(), self.dealer)
        if self.spec.turn.opening == "draw":
            self._draw(self.dealer)

    def _votes_counted(self) -> None:
        """Every seat has answered: a pledge's pledgers set tiles aside; a
        vote that says yes queues its phases."""
        phase = self.phase
        if isinstance(phase, Pledge):
            self._pledges_made(phase)
            return
        assert isinstance(phase, Vote)
        yes = phases.carried(phase, self._votes)
        self._tell(ev.Voted(sum(self._votes.values()), len(self._votes) - sum(self._votes.values()),
                            yes))
        if yes:
            self._phase_queue[:0] = list(phase.phases)
        self._next_phase()

    def _pledges_made(self, phase: Pledge) -> None:
        """Every seat has said whether it pledges: the pledging seats choose
        the tiles they set aside, one at a time."""
        for seat, yes in sorted(self._votes.items()):
            if yes:
                self._seats[seat].pledged = phase
                self._tell(ev.Pledged(phase.rack, phase.flag), seat)
        self._pass_count = [phase.count if self._votes[s] else 0 for s in range(self.spec.players)]
        self.step = Step.PASSING
        if not self.current_players():
            self._next_phase()

    def _counts_agreed(self) -> None:
        """Every seat has said how many: the tiles each now chooses from hand."""
        assert self.phase is not None
        self._pass_count, self._blind = phases.agreed_counts(self._rules, self.phase, self._offers)
        courtesy = isinstance(self.phase, Courtesy)
        for seat in range(self.spec.players):
            self._tell(ev.Offered(self._offers[seat], self._pass_count[seat],
                                  None if courtesy else self._blind[seat]), seat)
        self.step = Step.PASSING
        if not self.current_players():
            self._hand_over()

    def _hand_over(self) -> None:
        """Every seat has chosen: the passed tiles reach their partners (a
        pledge's tiles stay on the seat's pledged rack)."""
        phase = self.phase
        if isinstance(phase, Pledge):
            for me in self._seats:
                me.aside, me.outgoing = me.outgoing, []
            self._forget_away()
            self._next_phase()
            return
        assert isinstance(phase, Pass | Courtesy)
        chosen = [list(s.outgoing) for s in self._seats]
        for giver, to, tiles in phases.hand_over(self._rules, phase, chosen, self._blind):
            for t in tiles:
                self._seats[to].counts[t] += 1
            self._tell(ev.Passed(to, self._blind[to]), giver, tuple(chosen[giver]),
                       frozenset({giver}))
            self._tell(ev.Received(giver), to, tuple(tiles), frozenset({to}))
        for s in self._seats:
            s.outgoing = []
        self._forget_away()
        self._next_phase()

