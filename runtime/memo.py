"""Answers kept for reuse, up to a size: the memo of a pure computation
(a hand's tiles away, a table's frontier) that many questions repeat.

When full it forgets everything at once: cheaper than keeping an order of
use, and the answers that matter come back within a few questions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_UNKNOWN = object()  # no answer kept (None may be one)


class Memo(Generic[K, V]):
    def __init__(self, limit: int):
        self.limit = limit
        self._known: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._known)

    def __contains__(self, key: K) -> bool:
        return key in self._known

    def clear(self) -> None:
        """Forget every answer (a test that times or counts the work afresh)."""
        self._known.clear()

    def keep(self, key: K, value: V) -> None:
        """Keep an answer worked out elsewhere (a batch that answered it)."""
        known = self._known
        if len(known) >= self.limit and key not in known:  # the key hashed again only when full
            known.clear()
        known[key] = value

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The answer for `key`, computed (and kept) the first time. The key
        is hashed once when known, twice when not (a hand's hash walks all
        its tiles, and is not kept)."""
        value = self._known.get(key, _UNKNOWN)
        if value is not _UNKNOWN:
            return value  # type: ignore[return-value]
        value = compute()
        self.keep(key, value)
        return value
