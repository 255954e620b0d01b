"""Text and JSON renderings of cards, tiles and match results for the CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from jongg.api import counted
from jongg.present.cardview import JOKER_MARK, variation_text
from jongg.present.filling import LEGEND, exposed_jokers, filling_text
from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import Deck

if TYPE_CHECKING:  # the matchers load only with the commands that match
    from jongg.runtime.matching.matcher import Match
    from jongg.runtime.matching.reference import LineMatch

Nearness: TypeAlias = "LineMatch | Match"  # the reference's answer or the compiled matcher's


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def card_table(card: Card) -> str:
    rows = [[line.id, line.section, "" if line.value is None else str(line.value),
             "C" if line.concealed else "X", line.pattern, str(len(line.variations))]
            for line in card.lines]
    head = (f"card {card.name}: {card.title} ({len(card.lines)} lines, deck {card.deck.name}, "
            f"{card.hand_size} tiles)\n")
    return head + _table(rows, ["id", "section", "value", "C/X", "hand", "variations"])


def variation_json(deck: Deck, variation: Variation) -> dict[str, Any]:
    return {"groups": [{"tiles": deck.codes(g.tiles), "jokers": g.jokers}
                       for g in variation.groups],
            "free": [{"kind": f.kind, "jokers": f.jokers} for f in variation.free]}


def line_json(card: Card, line: Line) -> dict[str, Any]:
    return {"id": line.id, "section": line.section, "value": line.value,
            "concealed": line.concealed, "hand": line.pattern, "jokers": line.jokers,
            "note": line.note, "flags": list(line.flags),
            "variations": [variation_json(card.deck, v) for v in line.variations]}


def card_json(card: Card, lines: list[Line] | None = None) -> dict[str, Any]:
    """A card with every line and every variation as tile lists: what
    `card show --json` prints and `card diff` reads back."""
    return {"card": card.name, "title": card.title, "deck": card.deck.name,
            "hand_size": card.hand_size,
            "lines": [line_json(card, line) for line in (card.lines if lines is None
                                                         else lines)]}


def line_variations(card: Card, line: Line) -> str:
    facts = [*([line.section] if line.section else []),
             *([f"value {line.value}"] if line.value is not None else []),
             "concealed" if line.concealed else "exposed",
             counted(len(line.variations), "variation")]
    head = f"{line.id}: {line.pattern}  ({', '.join(facts)})"
    body = [f"{i + 1:>5}  {variation_text(card.deck, v)}" for i, v in enumerate(line.variations)]
    legend = f"  {JOKER_MARK} after a group: jokers may stand in it"
    return "\n".join([head, *body, *([legend] if JOKER_MARK in "".join(body) else [])])


def tiles_table(deck: Deck) -> str:
    rows = [[k.code, k.name, k.category.value, k.suit or "", str(k.copies)] for k in deck.kinds]
    return (f"deck {deck.name}: {deck.title} ({deck.size} in all)\n" +
            _table(rows, ["code", "name", "category", "suit", "copies"]))


def fill_text(match: Nearness, hand: Hand, deck: Deck) -> str:
    return filling_text(exposed_jokers(match.groups, hand.exposures, deck))


def _wants(match: Nearness) -> list[list[str]]:
    return [[s.want for s in group] for group in match.groups]


def match_text(card: Card, hand: Hand, done: list[Nearness], nearest: list[Nearness],
               explain: bool) -> str:
    deck = card.deck
    out = [f"hand: {' '.join(deck.codes(hand.concealed))}"
           + "".join(f"  exposed: {' '.join(deck.codes(e))}" for e in hand.exposures)
           + f"  ({hand.size} of {card.hand_size} tiles, card {card.name})"]
    if done:
        out.append("complete:")
        for m in done:
            worth = "" if m.line.value is None else f" (value {m.line.value})"
            out.append(f"  {m.line.id}{worth}: "
                       + " | ".join(" ".join(g) for g in _wants(m)))
    else:
        out.append("complete: none")
    if not nearest:
        out.append("nearest: no line admits these exposures")
        return "\n".join(out)
    rows = [[m.line.id, str(m.tiles_away), "" if m.line.value is None else str(m.line.value),
             " ".join(m.missing) or "-"] for m in nearest]
    out.append("nearest:")
    out.append("  " + _table(rows, ["line", "away", "value", "missing"]).replace("\n", "\n  "))
    if explain:
        out.append(f"explain ({LEGEND}):")
        for m in nearest:
            out.append(f"  {m.line.id}: {fill_text(m, hand, deck)}")
    return "\n".join(out)


def match_json(card: Card, hand: Hand, done: list[Nearness], nearest: list[Nearness],
               explain: bool) -> dict[str, Any]:
    deck = card.deck

    def entry(m: Nearness) -> dict[str, Any]:
        item: dict[str, Any] = {"line": m.line.id, "value": m.line.value,
                                "tiles_away": m.tiles_away, "missing": m.missing,
                                "joker_slots": m.joker_slots, "variation": _wants(m)}
        if explain:
            item["fill"] = [[{"want": s.want, "tile": s.filled_by, "joker_ok": s.joker_ok,
                              "exposed": s.exposed} for s in g]
                            for g in exposed_jokers(m.groups, hand.exposures, deck)]
        return item

    return {
        "card": card.name,
        "hand": deck.codes(hand.concealed),
        "exposed": [deck.codes(e) for e in hand.exposures],
        "size": hand.size,
        "hand_size": card.hand_size,
        "complete": [{"line": m.line.id, "value": m.line.value, "variation": _wants(m)}
                     for m in done],
        "nearest": [entry(m) for m in nearest],
    }
