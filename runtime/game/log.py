"""The event log: JSON lines, written as the game goes, that replay exactly.

    {"log": "jongg", "version": 1, "variant": ..., "players": 4, "seed": 7, ...}
    {"seat": 0, "action": "discard R3"}
    {"event": "round", "round": 0, "winner": 2, ..., "payments": [...], "scores": [...]}
    ...
    {"event": "end", "scores": [...], "winners": [...], "state": "<digest>"}

The header holds everything needed to rebuild the match (variant, player
count, seed, mode, the variant's digest, and a web table's secret key in
place of its seed's chance); the action lines are the only input after it.
Round and end lines are written for readers right after the action that
ends a round or the match, and checked on replay: a log whose records are
missing or disagree with the game its actions play is reported so.

A log is written a whole line at a time (runtime/game/logfile.py); a line cut
short (a full disk, a killed process) can only be the last one: it is left
out, and said so, by replay and by a resumed game, which cuts it before it
goes on. Every other problem is reported with the log's file and line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game import logfile
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.chance import KeyedChance
from jongg.runtime.game.game import Game
from jongg.runtime.game.logfile import LogExists, LogFileError
from jongg.runtime.game.state import IllegalAction, Mode, State

FORMAT = "jongg"
VERSION = 1


class LogError(JonggError, ValueError):
    """A log that cannot be read or replayed; the message names the line."""


def short(value: Any, limit: int = 60) -> str:
    """A value as quoted in a message: its JSON text, cut to `limit` characters."""
    text = json.dumps(value, ensure_ascii=False) if _plain(value) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _found(record: dict[str, Any], key: str) -> str:
    """What a record holds under `key`, as a message quotes it."""
    return short(record[key]) if key in record else "nothing"


def _plain(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Header:
    variant: str
    players: int
    seed: int
    mode: Mode
    digest: str
    agents: tuple[str, ...] = ()
    key: str = ""  # a shared table's secret chance (64 hex digits), in place of the seed's

    def to_json(self) -> dict[str, Any]:
        return {"log": FORMAT, "version": VERSION, "variant": self.variant,
                "players": self.players, "seed": self.seed, "mode": str(self.mode),
                "digest": self.digest, "agents": list(self.agents),
                **({"key": self.key} if self.key else {})}

    def new_match(self, game: Game) -> State:
        """The match as it stood before its first action."""
        chance = KeyedChance(bytes.fromhex(self.key)) if self.key else None
        return game.new_match(self.seed, self.mode, chance)


# -- writing ------------------------------------------------------------------------
class LogWriter:
    """Appends a match's lines to its file as they happen, a whole line at a
    time, holding the file's lock until closed. A new log never replaces a
    file that is there unless `overwrite` is given (LogExists)."""

    def __init__(self, path: Path | str, header: Header, *, overwrite: bool = False):
        self.path = Path(path)
        self.fd: int | None = logfile.create(self.path, overwrite=overwrite)
        self.rounds = 0  # round lines written
        self.ended = False  # the end line written
        try:
            self._write(header.to_json())
        except BaseException:
            self.close()
            raise

    @classmethod
    def fresh(cls, path: Path | str, header: Header) -> LogWriter:
        """A new log at `path` or, when a file is there, at the first free name
        after it: `game.jsonl`, `game-2.jsonl`, `game-3.jsonl`..."""
        path = Path(path)
        for n in range(1, 10_000):
            try:
                return cls(path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}"),
                           header)
            except LogExists:
                continue
        raise LogExists(f"{path}: no free name beside it (tried {path.stem}-2 to -9999)")

    @classmethod
    def reopen(cls, path: Path | str) -> LogWriter:
        """An existing log, locked, to read (`text`) and then go on writing
        (`go_on`); LogLocked when another game has it open."""
        writer = cls.__new__(cls)
        writer.path = Path(path)
        writer.fd = logfile.reopen(writer.path)
        writer.rounds, writer.ended = 0, False
        return writer

    def text(self) -> LogText:
        """The log as it is now (read through the locked file)."""
        return parse_log(self.path, logfile.read_all(self._fd()))

    def go_on(self, text: LogText, replayed: Replay) -> None:
        """Continue a log read as `text` and replayed: cut a torn last line,
        end an unended one, and write the round and end lines its last action
        called for, if they were not written."""
        fd = self._fd()
        logfile.cut(fd, text.size)
        if not text.newline:
            logfile.append(fd, self.path, b"\n")
        self.rounds, self.ended = replayed.rounds, replayed.ended
        self.catch_up(replayed.state)

    def _fd(self) -> int:
        if self.fd is None:
            raise LogFileError(f"{self.path}: the log is closed")
        return self.fd

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":")) + "\n"
        logfile.append(self._fd(), self.path, line.encode())

    def action(self, state: State, seat: int, action: Action) -> None:
        """Record an action just applied, and any round it ended."""
        self.decided(state, seat, action)
        self.catch_up(state)

    def decided(self, state: State, seat: int, action: Action) -> None:
        """Record an action about to be applied: written before anyone is told
        of it, a move the disk refused is never shown as made."""
        self._write({"seat": seat, "action": action.text(state.spec.deck)})

    def rest(self) -> None:
        """Close the file while nobody plays (its lock goes too); `wake`
        opens it again where it was."""
        self.close()

    def wake(self) -> None:
        if self.fd is None and not self.ended:
            self.fd = logfile.reopen(self.path)

    def catch_up(self, state: State) -> None:
        """Write the lines of the rounds ended and of the match's end, if not written."""
        while self.rounds < len(state.results):
            self._write(round_record(state, self.rounds))
            self.rounds += 1
        if state.is_terminal() and not self.ended:
            self._write(end_record(state))
            self.ended = True

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            logfile.close(fd)


def round_record(state: State, index: int) -> dict[str, Any]:
    end = state.results[index]
    payments = [e.public() for e in state.payments if e.round == end.round]
    return {"event": "round", **end.public(), "payments": payments}


def end_record(state: State) -> dict[str, Any]:
    payouts = state.payouts()
    return {"event": "end", "scores": state.scores, "winners": state.leaders(),
            "rounds": state.round, "decisions": state.decisions, "state": state.digest(),
            **({"payouts": payouts} if payouts is not None else {})}


# -- reading ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Record:
    number: int  # the line, from 1
    data: dict[str, Any]


@dataclass(frozen=True)
class LogText:
    """A log's whole lines, read: its header and its records."""

    path: str
    header: Header
    records: tuple[Record, ...]
    size: int  # bytes of the whole lines: where a resumed game writes on
    torn: int | None = None  # the number of a last line cut short, left out
    newline: bool = True  # the last whole line ends with its newline

    @property
    def last(self) -> int:
        """The number of the last whole line."""
        return self.records[-1].number if self.records else 1


def read_header(path: Path | str) -> Header:
    return read_log(path).header


def read_log(path: Path | str) -> LogText:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise LogError(f"{path}: {error.strerror or error}") from None
    return parse_log(path, data)


def parse_log(path: Path | str, data: bytes) -> LogText:
    """The whole lines of a log; a last line cut short is left out (`torn`)."""
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the log ends with a newline
    records: list[Record] = []
    size, torn, newline = len(data), None, True
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            records.append(Record(number, _json(path, number, raw)))
    if tail.strip():
        number = len(lines) + 1
        try:
            records.append(Record(number, _json(path, number, tail)))
            newline = False
        except LogError:  # written in part: everything before it stands
            size, torn = len(data) - len(tail), number
    elif tail:
        size -= len(tail)  # spaces after the last newline
    if not records:
        what = "its first line is cut short" if torn else "empty log"
        raise LogError(f"{path}: {what}: no header, nothing to replay")
    if records[0].number != 1:
        raise LogError(f"{path}:1: the header must be the first line")
    return LogText(str(path), _header(path, records[0].data), tuple(records[1:]), size,
                   torn, newline)


def _json(path: Path | str, number: int, raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LogError(f"{path}:{number}:{error.start + 1}: not UTF-8 text") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogError(f"{path}:{number}:{error.colno}: not JSON: {error.msg}") from None
    except RecursionError:
        raise LogError(f"{path}:{number}: not a log record (nested too deeply)") from None
    except ValueError as error:  # e.g. a number of thousands of digits
        raise LogError(f"{path}:{number}: not a log record ({error})") from None
    if not isinstance(record, dict):
        raise LogError(f"{path}:{number}:1: expected a JSON object")
    return record


def _header(path: Path | str, record: dict[str, Any]) -> Header:
    where = f"{path}:1:1"
    if record.get("log") != FORMAT:
        raise LogError(f"{where}: not a jongg log (no \"log\": \"jongg\" header)")
    if record.get("version") != VERSION:
        raise LogError(f"{where}: log version {short(record.get('version'))}; this jongg reads "
                       f"version {VERSION}")

    def valid(key: str, what: str, ok: Callable[[Any], bool], default: Any = None) -> Any:
        value = record.get(key, default)
        if not ok(value):
            raise LogError(f"{where}: a header without a valid \"{key}\" ({what}, not "
                           f"{_found(record, key)})")
        return value

    def whole(value: Any) -> bool:
        return type(value) is int

    variant = valid("variant", "a variant's name or path", lambda v: isinstance(v, str) and v != "")
    players = valid("players", "a number of players", lambda v: whole(v) and v >= 1)
    seed = valid("seed", "a whole number", whole)
    mode = valid("mode", "guarded or strict",
                 lambda v: isinstance(v, str) and v in {m.value for m in Mode}, "guarded")
    digest = valid("digest", "the variant's digest", lambda v: isinstance(v, str), "")
    agents = valid("agents", "a list of agent names",
                   lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v), [])
    key = valid("key", "64 hex digits",
                lambda v: isinstance(v, str) and _KEY.fullmatch(v) is not None, "")
    return Header(variant, players, seed, Mode(mode), digest, tuple(agents), key)


_KEY = re.compile(r"(?:[0-9a-f]{64})?")


# -- replaying ----------------------------------------------------------------------
# Called with each action before it is applied (the state, the seat, the
# action, its line): a resumed game's bots choose again there.
BeforeAction = Callable[[State, int, Action, int], None]


@dataclass
class Replay:
    header: Header
    state: State
    complete: bool  # the log reached the end of the match, and recorded it
    problems: list[str] = field(default_factory=list)  # where the log and the replay differ
    notes: list[str] = field(default_factory=list)  # what was left out, and why
    last: int = 1  # the last whole line read
    rounds: int = 0  # round lines found
    ended: bool = False  # an end line found


def _differences(logged: dict[str, Any], again: dict[str, Any]) -> str:
    keys = [k for k in dict.fromkeys([*again, *logged]) if logged.get(k) != again.get(k)]
    said = "; ".join(f"\"{k}\": the log says {short(logged.get(k), 40)}, the replay "
                     f"{short(again.get(k), 40)}" for k in keys[:3])
    return said + (f" (and {len(keys) - 3} more)" if len(keys) > 3 else "")


def _action(path: str, record: Record, game: Game) -> tuple[int, Action]:
    data, where = record.data, f"{path}:{record.number}"
    seat, text = data.get("seat"), data.get("action")
    players = game.spec.players
    if type(seat) is not int or not 0 <= seat < players:
        raise LogError(f"{where}: \"seat\" must be a seat number from 0 to {players - 1}, "
                       f"not {_found(data, 'seat')}")
    if not isinstance(text, str):
        raise LogError(f"{where}: \"action\" must be an action's text, not "
                       f"{_found(data, 'action')}")
    try:
        return seat, parse_action(game.spec.deck, text)
    except ValueError as error:
        raise LogError(f"{where}: {error}") from None


def replay(source: Path | str | LogText, game: Game, *,
           before: BeforeAction | None = None) -> Replay:
    """Rebuild the match of a log with `game`, checking the log's round and
    end lines against the rebuilt match: each must be there, where the
    action that ended its round put it, and say what the replay says."""
    log = source if isinstance(source, LogText) else read_log(source)
    path, header = log.path, log.header
    state = header.new_match(game)
    out = Replay(header, state, False)
    problems, notes = out.problems, out.notes
    if header.digest and header.digest != game.spec.digest:
        problems.append(f"{path}:1: the variant {header.variant!r} has changed since the log "
                        "was written; the replay may differ")
    ended_by: dict[int, int] = {}  # round index -> the line of the action that ended it
    over = 0  # the line of the action that ended the match
    for record in log.records:
        data, number = record.data, record.number
        out.last = number
        if "action" in data:
            for index in range(out.rounds, len(state.results)):
                problems.append(f"{path}:{ended_by[index]}: this action ended round "
                                f"{index + 1}, but no round line follows it")
            out.rounds = max(out.rounds, len(state.results))
            if over and not out.ended:
                problems.append(f"{path}:{over}: this action ended the match, but no end "
                                "line follows it")
                out.ended = True
            seat, action = _action(path, record, game)
            try:
                if action not in state.legal_actions(seat):
                    state.apply(seat, action)  # raises IllegalAction: the state's own reason
                if before is not None:
                    before(state, seat, action, number)
                state.apply(seat, action)
            except IllegalAction as error:
                raise LogError(f"{path}:{number}: {error}") from None
            for index in range(len(ended_by), len(state.results)):
                ended_by[index] = number
            over = number if state.is_terminal() else 0
        elif data.get("event") == "round":
            index = out.rounds
            if index >= len(state.results):
                problems.append(f"{path}:{number}: a round line where the replay has ended "
                                f"{len(state.results)} round(s), all recorded")
                continue
            again = round_record(state, index)
            if again != data:
                problems.append(f"{path}:{number}: round {index + 1} differs: "
                                f"{_differences(data, again)}")
            out.rounds += 1
        elif data.get("event") == "end":
            if out.ended:
                problems.append(f"{path}:{number}: a second end line")
            elif not state.is_terminal():
                problems.append(f"{path}:{number}: an end line where the replay's match goes "
                                "on")
            else:
                again = end_record(state)
                if again != data:
                    problems.append(f"{path}:{number}: the end differs: "
                                    f"{_differences(data, again)}")
                out.complete = True
            out.ended = True
        else:
            problems.append(f"{path}:{number}: not a line jongg writes (an action, a round "
                            f"or the end): {short(data)}")
    if log.torn is not None:
        notes.append(f"{path}:{log.torn}: the last line is cut short (a full disk or a "
                     f"killed process?); read up to line {log.last}")
    elif not log.newline:
        notes.append(f"{path}:{log.last}: the last line has no newline; read as whole")
    unwritten = [f"round {i + 1}" for i in range(out.rounds, len(state.results))]
    if over and not out.ended:
        unwritten.append("the match's end")
    if unwritten:  # a log stopped right after its last action: a writer cut short
        at = ended_by.get(out.rounds, over)
        notes.append(f"{path}:{at}: the log stops before the lines of "
                     f"{' and '.join(unwritten)}, which this action ended")
    return out
