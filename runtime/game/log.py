"""The event log: JSON lines, written as the game goes, that replay exactly.

    {"log": "jongg", "version": 1, "variant": ..., "players": 4, "seed": 7, ...}
    {"seat": 0, "action": "discard R3"}
    {"event": "round", "round": 0, "winner": 2, ..., "payments": [...], "scores": [...]}
    ...
    {"event": "end", "scores": [...], "winners": [...], "state": "<digest>"}

The header holds everything needed to rebuild the match (variant, player
count, seed, mode, the variant's digest); the action lines are the only input
after it. Round and end lines are written for readers, and checked on replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import IllegalAction, Mode, State

FORMAT = "jongg"
VERSION = 1


class LogError(JonggError, ValueError):
    """A log that cannot be read or replayed; the message names the line."""


@dataclass(frozen=True, slots=True)
class Header:
    variant: str
    players: int
    seed: int
    mode: Mode
    digest: str
    agents: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"log": FORMAT, "version": VERSION, "variant": self.variant,
                "players": self.players, "seed": self.seed, "mode": str(self.mode),
                "digest": self.digest, "agents": list(self.agents)}


class LogWriter:
    """Appends a match's lines to a file as they happen, flushing each."""

    def __init__(self, path: Path | str, header: Header):
        self.path = Path(path)
        self.file: IO[str] = self.path.open("w", encoding="utf-8")
        self.rounds = 0
        self._write(header.to_json())

    @classmethod
    def append(cls, path: Path | str, rounds: int) -> LogWriter:
        """Go on writing a log whose first `rounds` round lines are written."""
        writer = cls.__new__(cls)
        writer.path = Path(path)
        writer.file = writer.path.open("a", encoding="utf-8")
        writer.rounds = rounds
        return writer

    def _write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.file.flush()

    def action(self, state: State, seat: int, action: Action) -> None:
        """Record an action just applied, and any round it ended."""
        self._write({"seat": seat, "action": action.text(state.spec.deck)})
        while self.rounds < len(state.results):
            self._write(round_record(state, self.rounds))
            self.rounds += 1
        if state.is_terminal():
            self._write(end_record(state))

    def close(self) -> None:
        self.file.close()


def round_record(state: State, index: int) -> dict[str, Any]:
    end = state.results[index]
    payments = [e.public() for e in state.payments if e.round == end.round]
    return {"event": "round", **end.public(), "payments": payments}


def end_record(state: State) -> dict[str, Any]:
    payouts = state.payouts()
    return {"event": "end", "scores": state.scores, "winners": state.winners(),
            "rounds": state.round, "decisions": state.decisions, "state": state.digest(),
            **({"payouts": payouts} if payouts is not None else {})}


@dataclass
class Replay:
    header: Header
    state: State
    complete: bool  # the log reached the end of the match
    problems: list[str] = field(default_factory=list)  # where the replay differs


def read_header(path: Path | str) -> Header:
    lines = read_lines(path)
    if not lines:
        raise LogError(f"{path}: empty log")
    return _header(path, lines[0])


def read_lines(path: Path | str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise LogError(f"{path}: {error.strerror or error}") from None


def _json(path: Path | str, number: int, text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogError(f"{path}:{number}:{error.colno}: not JSON: {error.msg}") from None
    if not isinstance(record, dict):
        raise LogError(f"{path}:{number}:1: expected a JSON object")
    return record


def _header(path: Path | str, text: str) -> Header:
    record = _json(path, 1, text)
    if record.get("log") != FORMAT:
        raise LogError(f"{path}:1:1: not a jongg log (no \"log\": \"jongg\" header)")
    if record.get("version") != VERSION:
        raise LogError(f"{path}:1:1: log version {record.get('version')!r}; this jongg reads "
                       f"version {VERSION}")
    try:
        return Header(str(record["variant"]), int(record["players"]), int(record["seed"]),
                      Mode(record.get("mode", "guarded")), str(record.get("digest", "")),
                      tuple(record.get("agents", ())))
    except (KeyError, ValueError, TypeError) as error:
        raise LogError(f"{path}:1:1: a header without a valid {error}") from None


def replay(path: Path | str, game: Game) -> Replay:
    """Rebuild the match of a log with `game`, checking every recorded round
    and the end against the rebuilt state."""
    lines = read_lines(path)
    header = _header(path, lines[0])
    state = game.new_match(header.seed, header.mode)
    problems = []
    if header.digest and header.digest != game.spec.digest:
        problems.append(f"{path}:1: the variant {header.variant!r} has changed since the log "
                        "was written; the replay may differ")
    complete = False
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        record = _json(path, number, text)
        if "action" in record:
            try:
                seat = int(record["seat"])
                state.apply(seat, parse_action(game.spec.deck, str(record["action"])))
            except (IllegalAction, ValueError, KeyError) as error:
                raise LogError(f"{path}:{number}: {error}") from None
        elif record.get("event") == "round":
            index = int(record.get("round", -1))
            if index >= len(state.results):
                problems.append(f"{path}:{number}: round {index} ended in the log, not here")
            elif round_record(state, index) != record:
                problems.append(f"{path}:{number}: round {index} differs: the log says "
                                f"{record}, the replay {round_record(state, index)}")
        elif record.get("event") == "end":
            complete = True
            again = end_record(state)
            if again != record:
                problems.append(f"{path}:{number}: the end differs: the log says {record}, "
                                f"the replay {again}")
    return Replay(header, state, complete, problems)
