"""A table's chance: secret, unless the person who opens it chooses a seed.

A table opened without a seed draws a 256-bit key, kept in its log on the
server; every round's shuffle, die and ties are derived from it by a keyed
hash (runtime/game/chance.py: KeyedChance), so what a seat sees (its tiles,
its draws) tells nothing of the key nor of any other round. The key (and the
seed that seeds the table's bots, derived from it) is never sent while the
match is played: a finished match's replay shows it, so the game stays
reproducible. A seed chosen at opening (for practice, or to report a bug)
makes the deal known to whoever knows the seed: such a table is marked
seeded wherever it is listed, and seats one person at most.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from jongg.runtime.game.chance import KeyedChance

KEY_BYTES = 32  # 256 bits
LARGEST_SEED = 2**63
Keys = Callable[[int], bytes]  # a source of secret bytes (secrets.token_bytes)


class Unseeded(ValueError):
    """A seed that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Dealing:
    """How a table meets chance: its key (hex; empty when seeded) and the
    seed of its bots (and, when seeded, of its tiles)."""

    seed: int
    key: str = ""

    @property
    def seeded(self) -> bool:
        return not self.key


def dealing(seed: int | None, people: int, keys: Keys = secrets.token_bytes) -> Dealing:
    """A new table's chance: the seed asked for (one person at most), or a fresh key."""
    if seed is None:
        key = keys(KEY_BYTES)
        return Dealing(KeyedChance(key).seed, key.hex())
    if not 0 <= seed < LARGEST_SEED:
        raise Unseeded("a seed is a whole number from 0")
    if people > 1:
        raise Unseeded(f"a seeded table seats one person at most, not {people}: whoever "
                       "knows the seed knows every hand; leave the seed out to play together")
    return Dealing(seed)
