"""How the page shows the game, as plain data: each tile's colour, family
and label, the card's lines, and a seat's nearest lines (its hints).

Colours are the ones players know, read from the names a deck gives its
suits and tiles (Bams green, Craks red, Dots blue; each dragon its own),
then from the tile's category; suits with no colour of their own take the
next of a palette. Nothing here knows a variant by name.
"""

from __future__ import annotations

from typing import Any

from jongg.runtime.card import Card
from jongg.runtime.game.state import State
from jongg.runtime.tiles import Category, Deck

NAMED = {"bams": "green", "bamboo": "green", "craks": "red", "characters": "red",
         "dots": "blue", "circles": "blue", "red": "red", "green": "green", "blue": "blue",
         "red dragon": "red", "green dragon": "green", "white dragon": "white"}
BY_CATEGORY = {Category.WIND: "black", Category.FLOWER: "magenta", Category.JOKER: "gold",
               Category.DRAGON: "white"}
PALETTE = ("gold", "magenta", "cyan", "orange")
FAMILIES = {Category.DRAGON: "Dragons", Category.WIND: "Winds", Category.FLOWER: "Flowers",
            Category.JOKER: "Jokers"}


def tiles(deck: Deck) -> dict[str, dict[str, Any]]:
    """Every tile of the deck by code: its name, colour, family (the group
    a hand shows it in), the big and small labels drawn on it, and its
    place in a sorted hand."""
    named = {s.code: NAMED.get(s.name.lower()) for s in deck.suits}
    spare = iter([c for c in PALETTE if c not in named.values()] + list(PALETTE))
    colours = {code: colour or next(spare) for code, colour in named.items()}
    suits = {s.code: s.name for s in deck.suits}
    out: dict[str, dict[str, Any]] = {}
    for kind in deck.kinds:
        if kind.suit is not None:
            colour, family = colours[kind.suit], suits[kind.suit]
            big = str(kind.number) if kind.number is not None else kind.code
            small = kind.name if kind.name and not kind.name[0].isdigit() else suits[kind.suit]
        else:
            colour = NAMED.get(kind.name.lower()) or BY_CATEGORY.get(kind.category, "black")
            family = FAMILIES.get(kind.category, kind.category.value)
            big, small = _honour_label(kind.code, kind.name, kind.category)
        out[kind.code] = {"name": kind.name, "colour": colour, "family": family,
                          "big": big, "small": small, "order": kind.index}
    return out


def _honour_label(code: str, name: str, category: Category) -> tuple[str, str]:
    if category is Category.DRAGON:
        return "\u25a0" if "white" not in name.lower() else "\u25a1", name.split()[0]
    if category is Category.JOKER:
        return "J", "Joker"
    if category is Category.FLOWER:
        return "\u273f", name
    return code, name


def card(c: Card) -> list[dict[str, Any]]:
    """The card's lines as the page lists them."""
    return [{"id": line.id, "section": line.section, "value": line.value,
             "concealed": line.concealed, "hand": line.pattern, "note": line.note}
            for line in c.lines]


def hints(state: State, seat: int, top: int = 3) -> list[dict[str, Any]]:
    """The seat's nearest lines, rack by rack, from what it may see: its own
    tiles and exposures."""
    seen = state.observe(seat)
    nearest = getattr(state.matcher, "nearest", None)
    if nearest is None:
        return []
    out = []
    me = seen.me
    for rack in range(state.spec.racks):
        if me.won(rack) or me.rack_dead[rack]:
            continue
        for m in nearest(seen.hand(rack), top):
            out.append({"rack": rack, "line": m.line.id, "away": m.tiles_away,
                        "value": m.line.value or 0, "missing": list(m.missing),
                        "jokers": m.joker_slots})
    return out
