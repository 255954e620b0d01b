"""How the page shows the game, as plain data: each tile's colour, family
and label, and the events as the page is sent them (a
winning hand in its line's groups, each joker with the tile it stands for).
Sentences, prompts and hints are the presentation model's (web/said.py).

Colours are the ones players know, read from the names a deck gives its
suits and tiles (Bams green, Craks red, Dots blue; each dragon its own),
then from the tile's category; suits with no colour of their own take the
next of a palette. Nothing here knows a variant by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from jongg.present.faces import faces
from jongg.present.filling import filled
from jongg.present.styles import styles
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.rules import Rules
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import Slot
from jongg.runtime.tiles import Category, Deck

Shown = list[dict[str, str]]  # a group of a hand shown: {"tile": code, "as": code for a joker}

# The page draws ink on ivory: the shared styles' colours (jongg/present/styles.py),
# but winds in black as printed tiles have them, and gold where a terminal says yellow.
INK = {Category.WIND: "black", Category.JOKER: "gold"}
ON_IVORY = {"yellow": "gold"}


def tiles(deck: Deck) -> dict[str, dict[str, Any]]:
    """Every tile of the deck by code: its name, colour, family (the group
    a hand shows it in), the big and small labels drawn on it, and its
    place in a sorted hand."""
    shared = styles(deck)
    drawn = faces(deck)
    suits = {s.code: s.name for s in deck.suits}
    out: dict[str, dict[str, Any]] = {}
    for kind in deck.kinds:
        style = shared[kind.code]
        colour = INK.get(kind.category) or ON_IVORY.get(style.colour, style.colour) or "black"
        if kind.suit is not None:
            big = str(kind.number) if kind.number is not None else kind.code
            small = kind.name if kind.name and not kind.name[0].isdigit() else suits[kind.suit]
        else:
            big, small = _honour_label(kind.code, kind.name, kind.category)
        out[kind.code] = {"name": kind.name, "colour": colour,
                          "family": style.family or kind.category.value,
                          "big": big, "small": small, "order": kind.index,
                          "category": kind.category.value, "face": drawn[kind.code]}
    return out


def _honour_label(code: str, name: str, category: Category) -> tuple[str, str]:
    if category is Category.DRAGON:
        return "\u25a0" if "white" not in name.lower() else "\u25a1", name.split()[0]
    if category is Category.JOKER:
        return "J", "Joker"
    if category is Category.FLOWER:
        return "\u273f", name
    return code, name


def told(rules: Rules, event: Event) -> dict[str, Any]:
    """An event as the page is sent it: a Mah Jongg declared, and a round's
    end with each Mah Jongg, shown in its line's groups, jokers resolved
    ("filled"). Built from the event alone (tiles every seat is shown)."""
    out = event.to_json()
    if event.kind is EventKind.DECLARED and event.tiles and out.get("line"):
        out["filled"] = winning(rules, [list(event.tiles)], out["line"])
    if event.kind is not EventKind.ROUND_ENDED:
        return out
    several = "mahjongs" in out and rules.spec.racks > 1
    if out.get("line") and out.get("shown") and not several:
        out["filled"] = winning(rules, out["shown"], out["line"])
    if several:  # several racks: each Mah Jongg its own (a copy: events never change)
        out["mahjongs"] = [{**m, "filled": winning(rules, [m["tiles"]], m["line"])}
                           for m in out["mahjongs"]]
    return out


def winning(rules: Rules, shown: Sequence[Sequence[str]], line: str) -> list[Shown] | None:
    """A hand shown (its exposures, then the rest) in the groups of the line
    it completes, each joker with the tile it stands for; None when the
    matcher does not find it complete on that line (the page shows the
    tiles as they were shown)."""
    deck = rules.deck
    joker = deck.code(rules.joker) if rules.joker is not None else None
    try:
        *exposed, rest = [[deck.kind(c).index for c in group] for group in shown]
    except (KeyError, ValueError):
        return None
    hand = Hand(tuple(sorted(rest)), tuple(tuple(e) for e in exposed))
    near = filled(rules, hand, line)
    if near is None or near.away:
        return None
    groups = near.groups
    # an exposure is shown as it was made (the matcher names its tiles, not its jokers)
    out = [_group(list(group), joker) for group in shown[:-1]]
    concealed: tuple[tuple[Slot, ...], ...] = tuple(g for g in groups
                                                     if not any(s.exposed for s in g))
    out += [_group([_filler(s, joker) for s in g], joker, [s.want for s in g])
            for g in concealed]
    return out


def _filler(slot: Slot, joker: str | None) -> str:
    """The tile in a slot of a complete hand (the matcher says "J" for a joker)."""
    if slot.filled_by == "J" and joker is not None:
        return joker
    return slot.filled_by or slot.want


def _group(codes: list[str], joker: str | None, wants: list[str] | None = None) -> Shown:
    """One group's tiles, each joker with what it stands for: the slot's
    tile, or (a slot such as '[pung]', an exposure) the group's natural tile."""
    naturals = Counter(c for c in codes if c != joker)
    natural = naturals.most_common(1)[0][0] if naturals else None
    out: Shown = []
    for i, code in enumerate(codes):
        if code != joker:
            out.append({"tile": code})
            continue
        want = wants[i] if wants is not None else None
        stands = want if want is not None and want != joker and not want.startswith("[") \
            else natural
        out.append({"tile": code, **({"as": stands} if stands is not None else {})})
    return out
