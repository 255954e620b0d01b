"""What one server lets its requests take: tables in play, in all and per
address, and the refusal that says so. (Other bounds live beside what they
bound: the compiled games kept, games.py; the uploads kept, store.py; long
work waiting, work.py; a request's bytes and a socket's frames, server.py.)"""

from __future__ import annotations

from dataclasses import dataclass

MOST_TABLES = 200  # tables in play at once, in all
MOST_PER_CLIENT = 20  # tables in play opened from one address
MOST_KEPT = 10_000  # tables kept in the data folder, finished ones included


class Refused(ValueError):
    """A table that cannot be opened as asked; the message says why."""


@dataclass(frozen=True, slots=True)
class Limits:
    tables: int = MOST_TABLES
    per_client: int = MOST_PER_CLIENT
    kept: int = MOST_KEPT

    def check_open(self, live: int, theirs: int, client: str, kept: int = 0) -> None:
        """Refuse a new table past any bound."""
        if kept >= self.kept:
            raise Refused(f"this server keeps {kept} tables, its most: its keeper may move "
                          "finished ones out of its data folder")
        if live >= self.tables:
            raise Refused(f"this server has {live} tables in play, its most: finish or leave "
                          "one, or try again later")
        if client and theirs >= self.per_client:
            raise Refused(f"you have {theirs} tables in play here, the most one address may "
                          "open: finish one first")
