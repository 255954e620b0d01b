"""The tables of one server: opening a table, finding one, taking up every
unfinished table from its log when the server starts, and the finished ones
kept for replay.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jongg.compiler.errors import JonggError
from jongg.compiler.game import load_game
from jongg.compiler.registry import shipped
from jongg.compiler.variant import compile_variant, player_counts, resolve
from jongg.runtime.agents.play import HUMAN, resume_match
from jongg.runtime.agents.registry import SHIPPED, UnknownAgent, agent_maker
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogError, LogText, LogWriter, read_log
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import Mode

from .store import Store, StoreError
from .tables import SharedTable, log

LARGEST_SEED = 2**63


class Refused(ValueError):
    """A table that cannot be opened as asked; the message says why."""


@dataclass(frozen=True)
class Saved:
    """A table the server knows: live, finished, or one that cannot go on."""

    id: str
    header: Header
    finished: bool
    problem: str | None = None


class Hall:
    """Every table of the server, by id."""

    def __init__(self, store: Store, *, pace: float = 0.0, agents: Sequence[str] = ()):
        self.store = store
        self.pace = pace
        self.agents = [*SHIPPED, *(a for a in agents if a not in SHIPPED)]
        self.tables: dict[str, SharedTable] = {}
        self.saved: dict[str, Saved] = {}  # every table in the data folder, live ones too
        self.games: dict[tuple[str, int], Game] = {}

    def game(self, variant: str, players: int | None) -> Game:
        """The compiled game (kept: a server opens many tables of a few games)."""
        key = (variant, players or 0)
        if key not in self.games:
            self.games[key] = load_game(variant, players)
        return self.games[key]

    def variant_path(self, name: str) -> str:
        """A variant as a table names it: shipped by name, uploaded by its file."""
        if name in shipped("variant"):
            return name
        path = self.store.rulesets / name
        if path.name != name or not path.is_file():
            raise Refused(f"no variant {name[:60]!r}: choose a shipped one or upload it")
        return str(path)

    # -- opening -------------------------------------------------------------------
    def open(self, variant: str, players: int | None, seats: Sequence[str], *,
             seed: int | None = None, strict: bool = False, card: str | None = None
             ) -> tuple[SharedTable, dict[int, str]]:
        """A new table, and the secret token of each person's seat."""
        name = self.variant_path(variant)
        if card:
            if not (self.store.rulesets / card).is_file() or "/" in card:
                raise Refused(f"no uploaded card {card[:60]!r}")
            try:
                name = str(self.store.with_card(variant, card))
            except StoreError as error:
                raise Refused(str(error)) from None
        try:
            game = self.game(name, players)
        except JonggError as error:
            raise Refused("; ".join(str(d) for d in error.diagnostics[:5])) from None
        spec = game.spec
        if not seats or len(seats) > spec.players:
            raise Refused(f"{len(seats)} seats chosen for {spec.players} players")
        seats = [*seats, *[seats[-1]] * (spec.players - len(seats))]  # the last repeats
        for agent in seats:
            if agent != HUMAN and agent not in self.agents:
                raise Refused(f"no agent {agent[:60]!r} here; agents: {', '.join(self.agents)} "
                              "(more with jongg serve --agents)")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not 0 <= seed < LARGEST_SEED:
            raise Refused("a seed is a whole number from 0")
        mode = Mode.STRICT if strict else Mode.GUARDED
        header = Header(name, spec.players, seed, mode, spec.digest, tuple(seats))
        people = [s for s, a in enumerate(seats) if a == HUMAN]
        table_id, tokens, writer = self.store.create(
            header, people, datetime.now(UTC).isoformat(timespec="seconds"))
        agents = {s: agent_maker(a)(seed, s) for s, a in enumerate(seats) if a != HUMAN}
        table = SharedTable(table_id, game, game.new_match(seed, mode), writer, tuple(seats),
                            self.store.seats(table_id).hashes, agents, self.pace)
        self.tables[table_id] = table
        self.saved[table_id] = Saved(table_id, header, False)
        return table, tokens

    # -- taking up the tables of the data folder ---------------------------------------
    def resume_all(self) -> list[str]:
        """Take up every unfinished table saved here, where its log stopped;
        what could not be taken up is said, not fatal."""
        notes = []
        for table_id in self.store.saved():
            try:
                self._resume(table_id)
            except (LogError, LogFileError, StoreError, JonggError, UnknownAgent) as error:
                text = str(error) if not isinstance(error, JonggError) or \
                    not error.diagnostics else str(error.diagnostics[0])
                notes.append(f"table {table_id}: cannot be taken up: {text}")
                try:
                    header = read_log(self.store.log_path(table_id)).header
                except LogError:
                    continue
                self.saved[table_id] = Saved(table_id, header, False, text)
        return notes

    def _resume(self, table_id: str) -> None:
        path = self.store.log_path(table_id)
        hashes = self.store.seats(table_id).hashes
        writer = LogWriter.reopen(path)  # locked: another server on this folder is refused
        try:
            text = writer.text()
            game = self.game(text.header.variant, text.header.players)
            resumed = resume_match(game, text, terminal=False)
            state = resumed.replayed.state
            if resumed.replayed.problems:
                raise LogError("; ".join(resumed.replayed.problems[:3]))
            if state.is_terminal():
                writer.go_on(text, resumed.replayed)  # writes an end line left unwritten
                writer.close()
                self.saved[table_id] = Saved(table_id, text.header, True)
                return
            if set(hashes) != set(resumed.humans):
                raise LogError(f"{path}: its seats file names other seats than its log")
            writer.go_on(text, resumed.replayed)
        except BaseException:
            writer.close()
            raise
        self.tables[table_id] = SharedTable(table_id, game, state, writer, text.header.agents,
                                            hashes, resumed.agents, self.pace)
        self.saved[table_id] = Saved(table_id, text.header, False)
        log.info("table %s taken up at decision %d", table_id, state.decisions)

    def start(self) -> None:
        """Let the bots of every live table play (inside the running loop)."""
        for table in self.tables.values():
            table.wake()

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()

    # -- what the lobby lists -------------------------------------------------------------
    def finished(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        if table is not None:
            return table.state.is_terminal()
        saved = self.saved.get(table_id)
        return saved is not None and saved.finished

    def log_of(self, table_id: str) -> LogText:
        return read_log(self.store.log_path(table_id))

    def listing(self) -> list[dict[str, Any]]:
        out = []
        for table_id, saved in self.saved.items():
            table = self.tables.get(table_id)
            state = table.state if table is not None else None
            out.append({"id": table_id, "variant": Path(saved.header.variant).stem,
                        "players": saved.header.players, "agents": list(saved.header.agents),
                        "seed": saved.header.seed, "mode": str(saved.header.mode),
                        "finished": self.finished(table_id),
                        "round": state.round + 1 if state is not None else None,
                        "decisions": state.decisions if state is not None else None,
                        "problem": saved.problem})
        return out

    def variants(self) -> list[dict[str, Any]]:
        """The variants a table may be opened for: shipped, then uploaded."""
        out = []
        named = [(n, n, "shipped") for n in shipped("variant")]
        named += [(p.name, str(p), "uploaded") for p in self.store.uploaded()]
        for shown, name, source in named:
            try:
                counts = player_counts(resolve(name))
                spec = compile_variant(name, None) if source == "uploaded" else None
            except JonggError:
                continue  # an uploaded card, or a variant with problems: not listed
            out.append({"name": shown, "source": source, "players": list(counts),
                        "title": spec.title if spec is not None else _title(name)})
        return out


def _title(name: str) -> str:
    data = resolve(name).data
    return str(data.get("title", name))
