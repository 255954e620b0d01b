from collections.abc import Sequence

def fold(tiles: Sequence[int], weights: bytes, parts: bytes,
         count: int) -> tuple[int, ...] | None: ...
