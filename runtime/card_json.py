"""A card as plain JSON data and back: what a compiled matcher file holds,
and what the cache of checked cards keeps. No NumPy here: a card check reads
it without loading the matcher."""

from __future__ import annotations

from typing import Any

from jongg.runtime.card import Card, FreeGroup, Line, Slots, Variation
from jongg.runtime.tiles import Category, Deck, Suit, TileKind


def _deck_json(deck: Deck) -> dict[str, Any]:
    return {"name": deck.name, "title": deck.title, "sets": deck.sets,
            "suits": [[s.code, s.name, s.ordered] for s in deck.suits],
            "kinds": [[k.code, k.name, k.category.value, k.copies, k.suit, k.number, k.matches,
                       k.zero, k.letter, list(k.tags)] for k in deck.kinds]}


def _deck_from(data: dict[str, Any]) -> Deck:
    kinds = tuple(TileKind(i, code, name, Category(cat), copies, suit, number, matches, zero,
                           letter, tuple(tags))
                  for i, (code, name, cat, copies, suit, number, matches, zero, letter, tags)
                  in enumerate(data["kinds"]))
    suits = tuple(Suit(code, name, ordered) for code, name, ordered in data["suits"])
    return Deck(data["name"], data["title"], kinds, suits, data["sets"])


def card_json(card: Card) -> dict[str, Any]:
    return {
        "name": card.name, "title": card.title, "hand_size": card.hand_size,
        "joker_min_group": card.joker_min_group, "all_joker_groups": card.all_joker_groups,
        "deck": _deck_json(card.deck),
        "lines": [{
            "id": line.id, "section": line.section, "value": line.value,
            "concealed": line.concealed, "pattern": line.pattern, "size": line.size,
            "jokers": line.jokers, "note": line.note, "flags": list(line.flags),
            "clauses": list(line.clauses),
            "variations": [[[list(g.tiles), g.jokers] for g in v.groups]
                           + [[f.kind, f.jokers] for f in v.free] for v in line.variations],
        } for line in card.lines],
    }


def _variation(data: list[list[Any]]) -> Variation:
    groups = tuple(Slots(tuple(a), b) for a, b in data if isinstance(a, list))
    free = tuple(FreeGroup(a, b) for a, b in data if isinstance(a, str))
    return Variation(groups, free)


def card_from(data: dict[str, Any]) -> Card:
    lines = tuple(Line(d["id"], d["section"], d["value"], d["concealed"], d["pattern"],
                       tuple(_variation(v) for v in d["variations"]), d["size"], d["jokers"],
                       d["note"], tuple(d["flags"]), tuple(d["clauses"]))
                  for d in data["lines"])
    return Card(data["name"], data["title"], _deck_from(data["deck"]), data["hand_size"], lines,
                data["joker_min_group"], data["all_joker_groups"])
