"""The compiled games a server keeps: keyed by what they were compiled from
(the file itself, however a request spelled it, and its bytes), at most
MOST of them and about LARGEST bytes, the least recently used let go first.
A live table holds its own game; this keeps only what a new table or a
replay may want again."""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from jongg.api import registry
from jongg.runtime.game.game import Game

MOST = 16
LARGEST = 256 * 2**20  # bytes, as the process grew while each was compiled
LEAST = 2**20  # what one game is counted at, however little the process grew

Key = tuple[str, str, int]


def resident_bytes() -> int:
    """The process's resident bytes now (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm") as stat:
            return int(stat.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class Games:
    def __init__(self, most: int = MOST, largest: int = LARGEST):
        self.most, self.largest = most, largest
        self.kept: OrderedDict[Key, tuple[Game, int]] = OrderedDict()

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self.kept.values())

    def key(self, kind: str, name: str, players: int | None) -> Key:
        """What a game is compiled from: the file found for `name` (within
        the server's rulesets, when called there) and its contents."""
        entry = registry.locate(kind, name)
        data = entry.read_bytes() if isinstance(entry, Path) else b""
        return registry.identity(entry), hashlib.sha256(data).hexdigest(), players or 0

    def get(self, key: Key, compile_: Callable[[], Game]) -> Game:
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found[0]
        before = resident_bytes()
        game = compile_()
        self.kept[key] = (game, max(resident_bytes() - before, LEAST))
        while len(self.kept) > self.most or (len(self.kept) > 1 and self.bytes > self.largest):
            self.kept.popitem(last=False)
        return game
