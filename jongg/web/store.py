"""The data folder of `jongg serve --data DIR`: every table's log and seats
file, and the variants and cards people uploaded.

    DIR/tables/ID.jsonl        the game's log (runtime/game/log.py), written as it goes
    DIR/tables/ID.seats.json   who sits where: the agents' names, and for each person's
                               seat a hash of its secret token (never the token)
    DIR/rulesets/NAME.yaml     uploaded variants and cards

A table's files are created exclusively: nothing saved is ever replaced. An
uploaded ruleset with the name of a different one already there is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from jongg.api import JonggError, load_text
from jongg.runtime.files import write_all
from jongg.runtime.game.log import Header, LogWriter
from jongg.runtime.game.logfile import LogExists, LogFileError, held_alone

from .names import a_path, named

SEATS = ".seats.json"
RULESET = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.ya?ml")
LARGEST_RULESET = 512 * 1024  # bytes of an uploaded variant or card
MOST_RULESETS = 256  # uploads kept in all
MOST_RULESET_BYTES = 32 * 2**20


class StoreError(ValueError):
    """A request the data folder cannot honour; the message says why."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, hashed: str) -> bool:
    return hmac.compare_digest(token_hash(token), hashed)


@dataclass(frozen=True)
class Seats:
    """A table's seats file: the people's token hashes, by seat."""

    table: str
    hashes: dict[int, str]  # seat -> sha256 of its token
    created: str = ""
    timers: dict[str, float] = field(default_factory=dict)  # seconds: a claim's, a turn's

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "created": self.created,
                "people": {str(s): h for s, h in sorted(self.hashes.items())},
                **({"timers": self.timers} if self.timers else {})}

    @classmethod
    def from_json(cls, data: Any) -> Seats:
        if not isinstance(data, dict) or not isinstance(data.get("people"), dict):
            raise StoreError("not a seats file (no \"people\")")
        hashes = {}
        for seat, hashed in data["people"].items():
            if not seat.isdigit() or not isinstance(hashed, str):
                raise StoreError(f"a seat {seat!r} that is not a seat number with a hash")
            hashes[int(seat)] = hashed
        timers = data.get("timers") or {}
        if not isinstance(timers, dict):
            raise StoreError("its \"timers\" are not an object of seconds")
        return cls(str(data.get("table", "")), hashes, str(data.get("created", "")), timers)


class Store:
    """The data folder."""

    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.tables = self.root / "tables"
        self.rulesets = self.root / "rulesets"
        self._lock: int | None = None
        for folder in (self.root, self.tables, self.rulesets):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)

    def lock(self) -> None:
        """Hold the folder for this server alone: a table's log is closed
        while nobody plays it, so its own lock cannot keep a second server
        off it (StoreError when another holds the folder)."""
        fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        if not held_alone(fd):
            raise StoreError(f"{self.root}: another jongg serve uses this folder")
        self._lock = fd

    def quiet(self, text: str) -> str:
        """A message about the data folder, naming its files without the
        folder itself (the server's paths are nobody's business)."""
        return text.replace(f"{self.tables}/", "").replace(f"{self.rulesets}/", "") \
            .replace(str(self.root), "the data folder")

    def log_path(self, table: str) -> Path:
        return self.tables / f"{table}.jsonl"

    def seats_path(self, table: str) -> Path:
        return self.tables / f"{table}{SEATS}"

    def saved(self) -> list[str]:
        """The tables saved here, oldest first."""
        found = [p for p in self.tables.iterdir() if p.name.endswith(SEATS)]
        found.sort(key=lambda p: (p.stat().st_mtime, p.name))
        return [p.name[:-len(SEATS)] for p in found]

    def create(self, header: Header, people: list[int], created: str,
               timers: dict[str, float] | None = None
               ) -> tuple[str, dict[int, str], LogWriter]:
        """A new table's files, under a fresh name: (its id, each person's
        seat token, the log's writer). Nothing is left behind when they
        cannot be written (a full disk): the refusal says why."""
        for _ in range(100):
            table = secrets.token_hex(5)
            tokens = {seat: secrets.token_urlsafe(18) for seat in people}
            seats = Seats(table, {s: token_hash(t) for s, t in tokens.items()}, created,
                          dict(timers or {}))
            if not write_new(self.seats_path(table), json.dumps(seats.to_json()).encode(),
                             f"table {table}"):
                continue
            try:
                return table, tokens, LogWriter(self.log_path(table), header)
            except LogExists:  # a log without a seats file: leave it be, take another name
                self.seats_path(table).unlink(missing_ok=True)
                continue
            except LogFileError as error:  # the log was ours: neither file stays
                self.log_path(table).unlink(missing_ok=True)
                self.seats_path(table).unlink(missing_ok=True)
                raise StoreError(f"table {table} cannot be opened: "
                                 f"{_why(error, self.root)}") from None
        raise StoreError("no free table name found")

    def seats(self, table: str) -> Seats:
        path = self.seats_path(table)
        try:
            return Seats.from_json(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            raise StoreError(f"{path}: {error}") from None

    # -- uploaded variants and cards -----------------------------------------
    def uploaded(self) -> list[Path]:
        return sorted(p for p in self.rulesets.iterdir() if RULESET.fullmatch(p.name))

    def save_ruleset(self, name: str, text: str) -> Path:
        """Keep an uploaded variant or card as `name`; the same text again is
        kept once, a different text under a name taken is refused."""
        if not RULESET.fullmatch(name):
            raise StoreError(f"{name[:60]!r}: name the file like 'house.yaml' (letters, "
                             "digits, '.', '-', '_')")
        if len(text.encode()) > LARGEST_RULESET:
            raise StoreError(f"{name}: larger than {LARGEST_RULESET // 1024} KiB")
        _references(name, text)
        path = self.rulesets / name
        with contextlib.suppress(FileNotFoundError):
            if path.read_text() == text:
                return path
            raise StoreError(f"{name}: a different {name} is here already; rename yours")
        kept = self.uploaded()
        if len(kept) >= MOST_RULESETS or \
                sum(p.stat().st_size for p in kept) + len(text.encode()) > MOST_RULESET_BYTES:
            raise StoreError(f"{name}: this server keeps {MOST_RULESETS} uploads "
                             f"({MOST_RULESET_BYTES // 2**20} MiB) at most, and is full")
        if not write_new(path, text.encode(), name):
            raise StoreError(f"{name}: a different {name} is here already; rename yours")
        return path

    def with_card(self, variant: str, card: str) -> Path:
        """A variant file here that plays `variant` (a shipped name, or a file
        uploaded here) with the uploaded `card` (a file name here)."""
        stem = re.sub(r"[^A-Za-z0-9-]", "-", f"{Path(variant).stem}-{Path(card).stem}")
        text = yaml.safe_dump({"variant": stem, "title": f"{stem} (the card {card})",
                               "extends": variant, "win": {"card": card}}, sort_keys=False)
        return self.save_ruleset(f"{stem}.yaml", text)


def write_new(path: Path, data: bytes, what: str) -> bool:
    """Create `path` holding `data`, whole or not at all: written beside it
    under a passing name, then linked in place (never over a file there:
    False). A write that fails (a full disk) leaves nothing behind and
    raises StoreError saying why."""
    part = path.with_name(f".{path.name}.{os.urandom(4).hex()}.part")
    try:
        write_all(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), data)
        os.link(part, path)
    except FileExistsError:
        return False
    except OSError as error:
        raise StoreError(f"{what} cannot be saved: {_why(error, path.parent)}") from None
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    return True


def _why(error: OSError, root: Path) -> str:
    """An OSError in words, without the server's paths."""
    text = error.strerror or str(error)
    return text.replace(str(root), "the data folder")


def _references(name: str, text: str) -> None:
    """An uploaded ruleset names others by shipped name or by a file beside
    it, never by a path elsewhere on this machine: every key the schemas say
    names a ruleset is looked at (jongg/web/names.py). It is read by the
    compiler's own loader (depth and size bounded); a file it cannot read is
    refused when it is checked."""
    try:
        data = load_text(text, name).data
    except JonggError:
        return
    if not isinstance(data, dict):
        return
    kind = "card" if "card" in data and "variant" not in data else "variant"
    for key, value, _ in named(data, kind):
        if a_path(value):
            raise StoreError(f"{name}: {key}: {value[:60]!r}: name a shipped ruleset or a "
                             "file uploaded beside this one, not a path")
