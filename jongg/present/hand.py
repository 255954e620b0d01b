"""A hand grouped by suit, as a player sorts it on the rack: each family
(a suit, the dragons, the winds, the flowers, the jokers) together, in the
deck's order. Tiles keep their positions (from 1) for typing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jongg.present.styles import styles
from jongg.runtime.tiles import Deck


@dataclass(frozen=True, slots=True)
class Group:
    family: str  # "Bams", "Dragons", ...
    tiles: tuple[tuple[int, str], ...]  # (position from 1, code)


def grouped(deck: Deck, concealed: Sequence[int]) -> tuple[Group, ...]:
    """The tiles (as the observation orders them: by kind) in families; the
    positions count through the whole hand, so a family's tiles are numbered
    where they stand."""
    style = styles(deck)
    out: list[Group] = []
    family = ""
    run: list[tuple[int, str]] = []
    for position, index in enumerate(concealed, 1):
        code = deck.code(index)
        kin = style[code].family
        if run and kin != family:
            out.append(Group(family, tuple(run)))
            run = []
        family = kin
        run.append((position, code))
    if run:
        out.append(Group(family, tuple(run)))
    return tuple(out)
