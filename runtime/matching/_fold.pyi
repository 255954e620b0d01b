from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

def fold(tiles: Sequence[int], weights: bytes, parts: bytes,
         count: int) -> tuple[int, ...] | None: ...

def extend_each(cls: type[T], heads: list[tuple[Any, ...]], keys: list[int],
                last: object) -> list[T]: ...

def line_keys(lanes: Any, rows: list[int], width: int, count: int, starts: list[int],
              joker_keys: Any) -> list[int]: ...

def discard_nearness(dense: Any, row_of: Any, counts: dict[int, int], jokers: int, joker: int,
                     tiles: list[int], base: Any, needed: Any, line_of: Any, lines: int,
                     exposed: int, most: int
                     ) -> tuple[list[int], list[int], int, int] | None: ...

def line_best(dense: Any, row_of: Any, counts: dict[int, int], jokers: int, base: Any,
              exposed: int, starts: list[int], lines: list[int], variations: list[int],
              least: int) -> list[tuple[int, int, int]]: ...

def max_plus(rows: list[list[int]], steps: bytes, last: bytes) -> int: ...
