"""A saved game stepped through from its log: the table after any number of
its decisions, from one seat's view or with every hand open.

The log is replayed once when opened (runtime/game/log.py: a log that does
not hold together is refused, naming the line); a step is then reached by
playing the log's actions from the nearest copy of the state kept on the
way, so stepping back and forth costs a few dozen actions at most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jongg.runtime.game.actions import Action
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import LogText, replay
from jongg.runtime.game.state import State

from . import protocol

EVERY = 50  # decisions between kept copies of the state


class Replayer:
    """One log, ready to show at any step."""

    def __init__(self, game: Game, log: LogText):
        self.game = game
        self.header = log.header
        self.actions: list[tuple[int, Action]] = []
        replayed = replay(log, game, before=lambda s, seat, a, n: self.actions.append((seat, a)))
        self.notes = [*replayed.notes, *replayed.problems]
        self.kept: dict[int, State] = {0: log.header.new_match(game)}
        self.state = self.kept[0].clone()
        self.at = 0

    @property
    def steps(self) -> int:
        return len(self.actions)

    def _seek(self, step: int) -> State:
        step = max(0, min(step, self.steps))
        if step < self.at or step - self.at > EVERY:
            start = max(k for k in self.kept if k <= step)
            self.state, self.at = self.kept[start].clone(), start
        while self.at < step:
            seat, action = self.actions[self.at]
            self.state.apply(seat, action)
            self.at += 1
            if self.at % EVERY == 0 and self.at not in self.kept:
                self.kept[self.at] = self.state.clone()
        return self.state

    def frame(self, step: int, seat: int | None) -> dict[str, Any]:
        """The table after `step` decisions as `seat` saw it (None: every hand
        open), with the round's events up to there."""
        state = self._seek(step)
        since = protocol.round_start(state)
        frame = protocol.update(state, seat, since) if seat is not None else \
            protocol.open_update(state, since)
        last = self.actions[self.at - 1] if self.at else None
        if last is not None and seat is not None and last[0] != seat:
            last = None  # another seat's action may be a secret (a pass, a vote)
        return {**frame, "type": "frame", "step": self.at, "steps": self.steps,
                "last": None if last is None else {
                    "seat": last[0], "action": last[1].text(self.game.spec.deck)}}

    def summary(self, shown: Callable[[str], str] = str, *, reveal: bool = True
                ) -> dict[str, Any]:
        """The log's header as a page shows it (the variant as `shown` names
        it); its chance (the seed, a table's key) only when `reveal`: a
        match still played keeps it secret."""
        h = self.header
        chance = {"seed": h.seed, "key": h.key or None} if reveal else {}
        return {"variant": shown(h.variant), "players": h.players, **chance,
                "mode": str(h.mode), "agents": list(h.agents), "steps": self.steps,
                "notes": self.notes}
