"""One seat's view of the table at one moment: its observation (typed, and
as plain data), the events it has been told, and what it may do. Built
from the State's public queries only; every presentation function reads
this."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import Declared, Event, EventKind
from jongg.runtime.game.rules import Rules
from jongg.runtime.game.spec import GameSpec
from jongg.runtime.game.view import Observation, rendered
from jongg.runtime.tiles import Deck

if TYPE_CHECKING:
    from jongg.runtime.game.state import State


@dataclass(frozen=True)
class Seen:
    seat: int
    obs: Observation  # typed: the seat's own tiles, every public seat
    data: dict[str, Any]  # the same as plain data (the die, the drawn tile, racks, results)
    events: tuple[Event, ...]  # everything this seat was told, from the match's start
    legal: tuple[Action, ...]  # what it may do now (empty: it waits)

    @classmethod
    def of(cls, state: State, seat: int) -> Seen:
        obs = state.observe(seat)
        return cls(seat, obs, rendered(obs), tuple(state.events_for(seat)),
                   tuple(state.legal_actions(seat)))

    @property
    def rules(self) -> Rules:
        return self.obs.rules

    @property
    def spec(self) -> GameSpec:
        return self.obs.rules.spec

    @property
    def deck(self) -> Deck:
        return self.obs.rules.deck

    @property
    def step(self) -> str:
        return self.obs.step

    @cached_property
    def round_events(self) -> tuple[Event, ...]:
        """The events of the round under way (from its deal)."""
        start = max((i for i, e in enumerate(self.events) if e.kind is EventKind.DEALT),
                    default=0)
        return self.events[start:]

    def declared_line(self, seat: int, rack: int) -> str | None:
        """The line a rack's Mah Jongg was declared with this round."""
        return next((e.of(Declared).line for e in reversed(self.round_events)
                     if e.kind is EventKind.DECLARED and e.seat == seat
                     and e.of(Declared).rack == rack), None)

    def codes(self, indices: tuple[int, ...] | list[int]) -> list[str]:
        return self.deck.codes(indices)
