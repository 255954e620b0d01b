"""Tiles and decks: the runtime's data model of what is played with.

A deck is plain data compiled from rulesets/decks/*.yaml. Every tile kind has
an index; hands and variations are counted over those indices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from jongg.runtime.errors import JonggError


class Category(StrEnum):
    SUITED = "suited"
    DRAGON = "dragon"
    WIND = "wind"
    FLOWER = "flower"
    JOKER = "joker"


@dataclass(frozen=True, slots=True)
class TileKind:
    """One kind of tile: `5D`, `RD`, `N`, `F`, `J`."""

    index: int
    code: str
    name: str
    category: Category
    copies: int
    suit: str | None = None  # suit code for suited tiles
    number: int | None = None  # 1..9 for suited tiles
    matches: str | None = None  # a dragon's matching suit
    zero: bool = False  # the White dragon doubles as 0
    letter: str | None = None  # how hand patterns write this honour (R, G, N, F...)
    tags: tuple[str, ...] = ()  # what scoring may count (the 6-player extra winds)

    @property
    def is_joker(self) -> bool:
        return self.category is Category.JOKER


@dataclass(frozen=True, slots=True)
class Suit:
    code: str
    name: str
    ordered: bool = True  # whether sequential sets (runs) exist in this suit


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    title: str
    kinds: tuple[TileKind, ...]
    suits: tuple[Suit, ...]
    sets: int = 1  # how many physical sets are shuffled together
    by_code: dict[str, TileKind] = field(default_factory=dict, compare=False, repr=False)
    joker_index: int | None = field(default=None, compare=False, repr=False)  # derived

    def __post_init__(self) -> None:
        self.by_code.update({k.code: k for k in self.kinds})
        joker = next((k.index for k in self.kinds if k.is_joker), None)
        object.__setattr__(self, "joker_index", joker)

    @property
    def size(self) -> int:
        return sum(k.copies for k in self.kinds)

    @property
    def joker(self) -> TileKind | None:
        return None if self.joker_index is None else self.kinds[self.joker_index]

    @property
    def jokers(self) -> int:
        joker = self.joker
        return joker.copies if joker else 0

    def kind(self, code: str) -> TileKind:
        return self.by_code[code]

    def suited(self, suit: str, number: int) -> TileKind | None:
        for k in self.kinds:
            if k.suit == suit and k.number == number:
                return k
        return None

    def by_letter(self, letter: str) -> TileKind | None:
        """The honour a pattern letter stands for: R, G, N, E, W, S, F, or 0 (zero)."""
        if letter == "0":
            return next((k for k in self.kinds if k.zero), None)
        return next((k for k in self.kinds if k.letter == letter), None)

    def matching_dragon(self, suit: str) -> TileKind | None:
        return next((k for k in self.kinds if k.matches == suit), None)

    @property
    def tags(self) -> tuple[str, ...]:
        """Every tag some tile of the deck carries, in deck order."""
        return tuple(dict.fromkeys(t for k in self.kinds for t in k.tags))

    def of_category(self, category: Category) -> tuple[TileKind, ...]:
        return tuple(k for k in self.kinds if k.category is category)

    def code(self, index: int) -> str:
        return self.kinds[index].code

    def codes(self, indices: Iterable[int]) -> list[str]:
        return [self.kinds[i].code for i in indices]

    def wall(self) -> list[int]:
        """Every physical tile of the deck, as kind indices, in deck order."""
        return [k.index for k in self.kinds for _ in range(k.copies)]

    def combined(self, sets: int) -> Deck:
        """The same tiles with every copy count multiplied (Royale plays two sets)."""
        kinds = tuple(
            TileKind(k.index, k.code, k.name, k.category, k.copies * sets, k.suit, k.number,
                     k.matches, k.zero, k.letter, k.tags)
            for k in self.kinds
        )
        return Deck(f"{self.name}x{sets}", f"{self.title} x{sets}", kinds, self.suits,
                    self.sets * sets)

    def less(self, copies: dict[int, int]) -> Deck:
        """The same deck with some kinds' copies lowered (tiles taken out)."""
        kinds = tuple(
            TileKind(k.index, k.code, k.name, k.category, copies.get(k.index, k.copies), k.suit,
                     k.number, k.matches, k.zero, k.letter, k.tags)
            for k in self.kinds
        )
        return Deck(self.name, self.title, kinds, self.suits, self.sets)


class TileError(JonggError, ValueError):
    """A tile code or a hand that the deck cannot hold; the message quotes it."""


def parse_tiles(deck: Deck, text: str, *, what: str = "hand") -> list[int]:
    """Parse space-separated tile codes ("1B 1B RD J") into kind indices."""
    indices: list[int] = []
    for token in text.replace(",", " ").split():
        kind = deck.by_code.get(token) or deck.by_code.get(token.upper())
        if kind is None:
            raise TileError(
                f"{what}: unknown tile {token!r}; {deck.name} tiles are "
                f"{' '.join(k.code for k in deck.kinds)}"
            )
        indices.append(kind.index)
    return indices


def check_supply(deck: Deck, tiles: Sequence[int], *, what: str = "hand") -> None:
    """Refuse more copies of a tile than the deck holds."""
    for index, count in Counter(tiles).items():
        kind = deck.kinds[index]
        if count > kind.copies:
            raise TileError(
                f"{what}: {count} copies of {kind.code}, but {deck.name} holds only {kind.copies}"
            )
