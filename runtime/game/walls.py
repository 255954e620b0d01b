"""The wall as built on the table (Siamese, SMJ-03..05, SMJ-29).

Each seat builds `per_seat` walls of the shuffled tiles; the dealer throws a
die and cuts its first wall by that many stacks, moving them to the wall's
tail; tiles are then taken from the dealer's walls first, then from each
next seat's walls in turn. The tiles are laid out evenly over all the walls
(a rulebook's "19 stacks" is what 152 tiles make over four walls; where the
tiles do not divide, the first walls are one tile longer).
"""

from __future__ import annotations

from jongg.runtime.game.spec import Walls


def wall_sizes(tiles: int, walls: int) -> list[int]:
    """How many tiles each of `walls` walls holds, in the order they are drawn."""
    base, extra = divmod(tiles, walls)
    return [base + (1 if i < extra else 0) for i in range(walls)]


def lay_out(shuffled: list[int], order: list[int], walls: Walls, die: int
            ) -> tuple[list[int], list[int]]:
    """The tiles in the order they are taken, reversed for popping from the
    end, and beside them whose wall each lies in. `order` lists the seats
    from the dealer in turn order."""
    sizes = wall_sizes(len(shuffled), len(order) * walls.per_seat)
    drawn: list[int] = []
    owners: list[int] = []
    start = 0
    for i, size in enumerate(sizes):
        wall = shuffled[start:start + size]
        start += size
        if i == 0 and die:  # the cut: die x height tiles go to the wall's tail
            cut = min(die * walls.height, size)
            wall = wall[cut:] + wall[:cut]
        drawn.extend(wall)
        owners.extend([order[i // walls.per_seat]] * size)
    drawn.reverse()
    owners.reverse()
    return drawn, owners
