"""Tile styles as data: each tile's colour as players know it, its family
(the group a hand shows it in) and its Unicode mahjong glyph where it has
one. Colours are names (green, red, blue, white, cyan, magenta, yellow);
each front end maps them to its own palette.

Colours come from the names a deck gives its suits and tiles (Bams green,
Craks red, Dots blue; each dragon its own colour, the White "Soap" white),
then from the category (winds, flowers, jokers), then from a palette for
suits with no colour of their own (NYMJ's Seasons and Emotions).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from jongg.runtime.tiles import Category, Deck, TileKind

# the colours players know, by the name a deck gives a suit or a tile (lower case)
NAMED_COLOURS = {
    "bams": "green", "bamboo": "green", "bamboos": "green", "bam": "green",
    "craks": "red", "crak": "red", "cracks": "red", "characters": "red",
    "dots": "blue", "dot": "blue", "circles": "blue",
    "red": "red", "green": "green", "blue": "blue",
    "red dragon": "red", "green dragon": "green", "white dragon": "white", "soap": "white",
}
CATEGORY_COLOURS = {Category.WIND: "cyan", Category.FLOWER: "magenta",
                    Category.JOKER: "yellow", Category.DRAGON: "white"}
PALETTE = ("yellow", "magenta", "cyan", "green", "red", "blue")  # suits with no colour known
CATEGORY_FAMILIES = {Category.DRAGON: "Dragons", Category.WIND: "Winds",
                     Category.FLOWER: "Flowers", Category.JOKER: "Jokers"}

# Unicode mahjong tiles (U+1F000..U+1F02B), by suit name and number, and by tile name
SUIT_GLYPHS = {"craks": 0x1F007, "characters": 0x1F007, "bams": 0x1F010,
               "bamboo": 0x1F010, "bamboos": 0x1F010, "dots": 0x1F019, "circles": 0x1F019}
NAMED_GLYPHS = {"east": "\U0001F000", "south": "\U0001F001", "west": "\U0001F002",
                "north": "\U0001F003", "red dragon": "\U0001F004",
                "green dragon": "\U0001F005", "white dragon": "\U0001F006",
                "flower": "\U0001F022", "joker": "\U0001F02A"}


@dataclass(frozen=True, slots=True)
class TileStyle:
    code: str
    name: str
    colour: str
    family: str  # the suit's name, or the category's (Dragons, Winds, Flowers, Jokers)
    glyph: str | None  # the Unicode mahjong tile, when the tile has one
    bold: bool  # honours and jokers stand out from the suits


@cache
def styles(deck: Deck) -> dict[str, TileStyle]:
    """Every tile of the deck's style, by code."""
    named = {s.code: NAMED_COLOURS.get(s.name.lower()) for s in deck.suits}
    spare = iter([c for c in PALETTE if c not in named.values()] + list(PALETTE))
    suit_colours = {code: colour or next(spare) for code, colour in named.items()}
    suit_names = {s.code: s.name for s in deck.suits}
    return {k.code: _style(k, suit_colours, suit_names) for k in deck.kinds}


def _style(kind: TileKind, suit_colours: dict[str, str], suit_names: dict[str, str]
           ) -> TileStyle:
    name = kind.name.lower()
    if kind.suit is not None:
        suit = suit_names[kind.suit]
        first = SUIT_GLYPHS.get(suit.lower())
        glyph = chr(first + kind.number - 1) if first is not None and kind.number and \
            1 <= kind.number <= 9 else None
        return TileStyle(kind.code, kind.name, suit_colours[kind.suit], suit, glyph, False)
    colour = NAMED_COLOURS.get(name) or CATEGORY_COLOURS.get(kind.category, "")
    return TileStyle(kind.code, kind.name, colour, CATEGORY_FAMILIES.get(kind.category, ""),
                     NAMED_GLYPHS.get(name), True)
