"""The card at the table: every line as printed (section, value, concealed
or exposed, the hand in the notation), and one line's variations as tiles
with the hand's nearest filling of it."""

from __future__ import annotations

from jongg.present import words as w
from jongg.present.filling import filled, groups_spans
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, line, words
from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.errors import counted
from jongg.runtime.tiles import Deck

JOKER_MARK = "(J)"  # after a group whose slots jokers may fill


def variation_text(deck: Deck, variation: Variation) -> str:
    """One variation as tiles: '1B 1B 1B (J) | 2B 2B | ...'."""
    groups = [" ".join(deck.codes(g.tiles)) + (f" {JOKER_MARK}" if g.jokers else "")
              for g in variation.groups]
    groups += [str(f) + (f" {JOKER_MARK}" if f.jokers else "") for f in variation.free]
    return " | ".join(groups)


def card_view(card: Card) -> tuple[Text, ...]:
    """The card by section: each line's id, value, C (concealed) or X, and hand."""
    out: list[Text] = [words(f"card {card.name}: {card.title} ({counted(len(card.lines), 'line')}; "
                             "C: concealed, X: exposed; card LINE: its variations)", Role.TITLE)]
    width = max((len(x.id) for x in card.lines), default=0)
    section = None
    for card_line in card.lines:
        if card_line.section != section:
            section = card_line.section
            out.append(words(section or "(no section)", Role.TITLE))
        value = "" if card_line.value is None else str(card_line.value)
        out.append(words(f"  {card_line.id:<{width}}  {value:>3}  "
                         f"{'C' if card_line.concealed else 'X'}  {card_line.pattern}"))
    if all(not x.value for x in card.lines):
        out.append(words("the card gives no values: every win is paid by the variant's "
                         "scoring alone", Role.DIM))
    return tuple(out)


def line_view(seen: Seen, card_line: Line, most: int = 40) -> tuple[Text, ...]:
    """One line: its facts, your hand in its nearest variation, and its
    variations as tiles (the first `most`)."""
    deck = seen.deck
    facts = [*([card_line.section] if card_line.section else []), w.value(card_line.value),
             "concealed" if card_line.concealed else "exposed",
             counted(len(card_line.variations), "variation")]
    out: list[Text] = [words(f"{card_line.id}: {card_line.pattern}  ({', '.join(facts)})",
                             Role.TITLE)]
    if card_line.note:
        out.append(words(f"  {card_line.note}", Role.DIM))
    near = filled(seen.rules, seen.obs.hand(), card_line.id)
    if near is None:
        out.append(words("  your exposures rule this line out", Role.WARN))
    else:
        joker = deck.code(deck.joker_index) if deck.joker_index is not None else "J"
        out.append(line(f"  you, {near.away} away: ", groups_spans(near.groups, joker)))
    for i, v in enumerate(card_line.variations[:most], 1):
        out.append(words(f"{i:>5}  {variation_text(deck, v)}"))
    if len(card_line.variations) > most:
        out.append(words(f"  ... and {len(card_line.variations) - most} more "
                         f"(jongg card show CARD --line {card_line.id})", Role.DIM))
    if any(g.jokers for v in card_line.variations for g in v.groups):
        out.append(words(f"  {JOKER_MARK} after a group: jokers may stand in it", Role.DIM))
    return tuple(out)
