"""The State as a python-chess user expects to move it: `push` and `pop`,
`legal_moves` when one seat is to act, `winners()` only once the match is
over, a short `repr`, and a short one-line position.

These stand beside the OpenSpiel-shaped calls (`current_players()`,
`legal_actions(seat)`, `apply(seat, action)`, `clone()`), which they use.
Seats are 0-based here, as everywhere in Python; the CLI and the tables
number them from 1 ("Seat 1" is seat 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action
from jongg.runtime.game.table import StateData, Step

if TYPE_CHECKING:
    from jongg.runtime.game.state import State


class SeatNeeded(JonggError, ValueError):
    """A call that takes the one seat to act, when not exactly one is."""


class Moves(StateData):
    """push/pop, legal_moves, repr and the short position of a State."""

    def to_act(self) -> int:
        """The one seat to act now; SeatNeeded when none or several are (a
        claim window, a pass or a vote asks several at once)."""
        seats = self.current_players()
        if len(seats) == 1:
            return seats[0]
        if not seats:
            raise SeatNeeded("no seat is to act: the match is over" if self.is_terminal()
                             else "no seat is to act")
        names = ", ".join(f"{s} ({self.spec.seats[s]})" for s in seats)
        raise SeatNeeded(f"{len(seats)} seats are to act now: {names}; name one: "
                         "state.legal_actions(seat), state.push(action, seat)")

    @property
    def legal_moves(self) -> list[Action]:
        """The legal actions of the one seat to act (SeatNeeded if several are)."""
        return self.legal_actions(self.to_act())

    def push(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action (or its text) of `seat`, by default the one seat
        to act; `pop()` takes it back. IllegalAction, and nothing changed,
        if the rules do not allow it."""
        if seat is None:
            seat = self.to_act()
        before = self.clone()
        before._pushed = []  # a snapshot keeps no stack of its own
        self.apply(seat, action)
        self._pushed.append(before)

    def pop(self) -> tuple[int, Action]:
        """Take back the last action `push` applied: the state is again what
        it was before it, and the (seat, action) is returned."""
        if not self._pushed:
            raise IndexError("pop from a state with no pushed action")
        seat, action = self.history[-1]
        stack = self._pushed
        snapshot = stack.pop()
        vars(self).update(vars(snapshot.clone()))  # the snapshot stays as it was
        self._pushed = stack
        return seat, action

    @property
    def move_stack(self) -> list[tuple[int, Action]]:
        """The (seat, action) pairs that `pop()` can take back, oldest first."""
        return self.history[len(self.history) - len(self._pushed):]

    def short_position(self) -> str:
        """The position as a short line of text that loads back with
        `Game.load_position` (runtime/game/position.py)."""
        from jongg.runtime.game.position import short_position
        return short_position(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        spec = self.spec
        if self.step is Step.OVER:
            now = f"over, won by {', '.join(str(s) for s in self.leaders())}"
        else:
            now = f"{self.step} ({', '.join(str(s) for s in self.current_players())} to act)"
        return (f"<State {spec.variant} {spec.players}p seed={self.seed} round={self.round + 1} "
                f"{now}, decision {self.decisions}>")

    # -- what the State supplies --------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        raise NotImplementedError  # State

    def legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError  # State

    def clone(self) -> State:
        raise NotImplementedError  # State
