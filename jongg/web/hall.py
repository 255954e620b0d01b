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

from jongg.api import (
    JonggError,
    compile_variant,
    load_game,
    player_counts,
    resolve,
    shipped_played,
)
from jongg.runtime.agents.play import HUMAN, resume_match
from jongg.runtime.agents.registry import SHIPPED, UnknownAgent, agent_maker
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogError, LogText, LogWriter, read_log
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import Mode

from .games import Games
from .limits import Limits, Refused
from .names import Names, Unnamed
from .secret import Keys, Unseeded, dealing
from .store import Store, StoreError
from .tables import SharedTable, log
from .timers import Timers
from .turnstile import Turnstile


@dataclass(frozen=True)
class Saved:
    """A table the server knows: live, finished, or one that cannot go on."""

    id: str
    header: Header
    finished: bool
    problem: str | None = None


class Hall:
    """Every table of the server, by id.

    What takes a while (compiling a game) is done by `prepare` and `game`,
    which a server runs off its event loop (jongg/web/work.py); `open` and
    everything else is quick."""

    def __init__(self, store: Store, *, pace: float = 0.0, agents: Sequence[str] = (),
                 keys: Keys = secrets.token_bytes, limits: Limits | None = None):
        self.store = store
        self.pace = pace
        self.agents = [*SHIPPED, *(a for a in agents if a not in SHIPPED)]
        self.tables: dict[str, SharedTable] = {}  # the tables in play, and finished ones watched
        self.saved: dict[str, Saved] = {}  # every table in the data folder, live ones too
        self.names = Names(store.rulesets)
        self.games = Games()
        self.keys = keys
        self.limits = limits or Limits()
        self.opener: dict[str, str] = {}  # table -> the address that opened it
        self.listed: dict[tuple[str, int], dict[str, Any] | None] = {}  # uploads, checked
        self.turnstile = Turnstile()  # every table's bots take turns with the people

    def game(self, variant: str, players: int | None) -> Game:
        """The compiled game of a variant named as the compiler names it (or
        as a log names it), resolved within this server's rulesets."""
        with self.names.within():
            key = self.games.key("variant", variant, players)
            return self.games.get(key, lambda: load_game(variant, players))

    def prepare(self, variant: str, players: int | None, card: str | None = None
                ) -> tuple[str, Game]:
        """The variant a request names (a shipped one, or a file uploaded
        here, with an uploaded card), compiled: (its name, its game)."""
        try:
            name = self.names.find("variant", variant)
            if card:
                self.names.find("card", card)
                name = str(self.store.with_card(variant, card))
        except (Unnamed, StoreError) as error:
            raise Refused(str(error)) from None
        try:
            return name, self.game(name, players)
        except JonggError as error:
            raise Refused("; ".join(str(d) for d in error.diagnostics[:5])) from None

    # -- opening -------------------------------------------------------------------
    def open(self, variant: str, players: int | None, seats: Sequence[str], *,
             seed: int | None = None, strict: bool = False, card: str | None = None,
             client: str = "", prepared: tuple[str, Game] | None = None,
             timers: Timers | None = None) -> tuple[SharedTable, dict[int, str]]:
        """A new table, and the secret token of each person's seat. `prepared`:
        what `prepare` made of the variant (else it is prepared here);
        `timers`: a claim window's and a turn's, at a table of several people."""
        self.may_open(client)
        name, game = prepared or self.prepare(variant, players, card)
        spec = game.spec
        if not seats or len(seats) > spec.players:
            raise Refused(f"{len(seats)} seats chosen for {spec.players} players")
        seats = [*seats, *[seats[-1]] * (spec.players - len(seats))]  # the last repeats
        for agent in seats:
            if agent != HUMAN and agent not in self.agents:
                raise Refused(f"no agent {agent[:60]!r} here; agents: {', '.join(self.agents)} "
                              "(more with jongg serve --agents)")
        people = [s for s, a in enumerate(seats) if a == HUMAN]
        timers = timers or Timers()
        if timers and len(people) < 2:
            raise Refused("timers are for a table of several people: a table of one person "
                          "waits for that person (leave \"timers\" out)")
        try:
            chance = dealing(seed, len(people), self.keys)
        except Unseeded as error:
            raise Refused(str(error)) from None
        mode = Mode.STRICT if strict else Mode.GUARDED
        header = Header(name, spec.players, chance.seed, mode, spec.digest, tuple(seats),
                        chance.key)
        try:
            table_id, tokens, writer = self.store.create(
                header, people, datetime.now(UTC).isoformat(timespec="seconds"),
                timers.to_json())
        except StoreError as error:
            raise Refused(self.store.quiet(str(error))) from None
        agents = {s: agent_maker(a)(chance.seed, s) for s, a in enumerate(seats) if a != HUMAN}
        table = SharedTable(table_id, game, header.new_match(game), writer, tuple(seats),
                            self.store.seats(table_id).hashes, agents, self.pace,
                            timers=timers, turnstile=self.turnstile)
        self.tables[table_id] = table
        self.saved[table_id] = Saved(table_id, header, False)
        self.opener[table_id] = client
        return table, tokens

    def may_open(self, client: str) -> None:
        """Refused: a new table past this server's bounds (jongg/web/limits.py)."""
        self.prune()
        self.limits.check_open(self._live(), self._live(client), client, len(self.saved))

    def _live(self, client: str | None = None) -> int:
        """The tables in play (opened by `client`, when given)."""
        return sum(1 for t in self.tables.values() if not t.state.is_terminal() and
                   (client is None or self.opener.get(t.id) == client))

    def prune(self) -> None:
        """Let go of finished tables nobody watches (their replay reads the log)."""
        for table_id, table in list(self.tables.items()):
            if table.state.is_terminal() and not table.watchers and table.driver is None:
                del self.tables[table_id]
                self.saved[table_id] = Saved(table_id, self.saved[table_id].header, True)

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
                text = self.store.quiet(text)  # as the lobby lists it
                try:
                    header = read_log(self.store.log_path(table_id)).header
                except LogError:
                    continue
                self.saved[table_id] = Saved(table_id, header, False, text)
        return notes

    def _resume(self, table_id: str) -> None:
        path = self.store.log_path(table_id)
        seated = self.store.seats(table_id)
        hashes = seated.hashes
        try:
            timers = Timers.read(seated.timers)
        except ValueError as error:
            raise StoreError(f"its seats file: {error}") from None
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
                                            hashes, resumed.agents, self.pace, timers=timers,
                                            turnstile=self.turnstile)
        self.saved[table_id] = Saved(table_id, text.header, False)
        log.info("table %s taken up at decision %d", table_id, state.decisions)

    def start(self) -> None:
        """Let the bots of every live table play (inside the running loop)."""
        for table in self.tables.values():
            table.wake()
            table.rest()  # a table waiting for its people holds no file meanwhile

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()

    # -- what the lobby lists -------------------------------------------------------------
    def rematch(self, table: SharedTable, client: str = "") -> tuple[str, dict[int, str]]:
        """The same table again once its match is over (the variant, seats,
        mode and timers; a fresh deal): its id and each person's seat token,
        the same for every person who asks (one rematch a table)."""
        if not table.state.is_terminal():
            raise Refused("the match is not over: a rematch comes after it")
        if table.rematched is None:
            header = self.saved[table.id].header
            seeded = not header.key and len(table.hashes) == 1
            made, tokens = self.open(header.variant, header.players, list(table.names),
                                     seed=secrets.randbelow(2**31) if seeded else None,
                                     strict=header.mode is Mode.STRICT, client=client,
                                     prepared=(header.variant, table.game),
                                     timers=table.timers)
            made.wake()
            made.rest()
            table.rematched = (made.id, tokens)
        return table.rematched

    def finished(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        if table is not None:
            return table.state.is_terminal()
        saved = self.saved.get(table_id)
        return saved is not None and saved.finished

    def log_of(self, table_id: str) -> LogText:
        return read_log(self.store.log_path(table_id))

    def listing(self) -> list[dict[str, Any]]:
        """The tables here, as anyone may see them: never a table's key, and
        a seed only where the person who opened it chose it (marked seeded)."""
        self.prune()
        out = []
        for table_id, saved in self.saved.items():
            table = self.tables.get(table_id)
            state = table.state if table is not None else None
            seeded = not saved.header.key
            out.append({"id": table_id, "variant": Path(saved.header.variant).stem,
                        "players": saved.header.players, "agents": list(saved.header.agents),
                        "seeded": seeded, "seed": saved.header.seed if seeded else None,
                        "mode": str(saved.header.mode), "finished": self.finished(table_id),
                        "round": state.round + 1 if state is not None else None,
                        "decisions": state.decisions if state is not None else None,
                        "timers": table.timers.to_json() if table is not None else None,
                        "problem": saved.problem})
        return out

    def variants(self) -> list[dict[str, Any]]:
        """The variants a table may be opened for: shipped, then uploaded
        (each uploaded file checked once: slow, so run off the loop)."""
        out: list[dict[str, Any]] = [
            {"name": n, "source": "shipped", "players": list(player_counts(resolve(n))),
             "title": _title(n)} for n in shipped_played()]  # not the scoring-only ones
        with self.names.within():
            for path in self.store.uploaded():
                key = (path.name, path.stat().st_size)  # an upload is never replaced
                if key not in self.listed:
                    self.listed[key] = _listed(path)
                listed = self.listed[key]
                if listed is not None:
                    out.append(listed)
        return out


def _listed(path: Path) -> dict[str, Any] | None:
    try:
        counts = player_counts(resolve(str(path)))
        spec = compile_variant(str(path), None)
    except JonggError:
        return None  # an uploaded card, or a variant with problems: not listed
    return {"name": path.name, "source": "uploaded", "players": list(counts),
            "title": spec.title}


def _title(name: str) -> str:
    data = resolve(name).data
    return str(data.get("title", name))
