"""The card at the table: every line as printed (section, value, concealed
or exposed, the hand in the notation), and one line's variations as tiles
with the hand's nearest filling of it."""

from __future__ import annotations

from jongg.present import words as w
from jongg.present.filling import filled, groups_spans
from jongg.present.printed import Printed, printed
from jongg.present.seen import Seen
from jongg.present.text import Role, Span, Text, join, line, words
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


def card_view(card: Card, year: int | None = None, *, notation: bool = False
              ) -> tuple[Text, ...]:
    """The card by section: each line's id, value, C (concealed) or X, and its
    hand as `jongg card render` prints it (groups in their suits' colours,
    the note after), or with `notation`, as the card writes it."""
    shown = "the lines as written" if notation else "colours are suits"
    out: list[Text] = [words(f"card {card.name}: {card.title} ({counted(len(card.lines), 'line')}; "
                             f"C: concealed, X: exposed; {shown}; card LINE: its variations"
                             f"{'' if notation else '; card notation: as written'})",
                             Role.TITLE)]
    width = max((len(x.id) for x in card.lines), default=0)
    section = None
    for card_line in card.lines:
        if card_line.section != section:
            section = card_line.section
            out.append(words(section or "(no section)", Role.TITLE))
        value = "" if card_line.value is None else str(card_line.value)
        head = f"  {card_line.id:<{width}}  {value:>3}  {'C' if card_line.concealed else 'X'}  "
        if notation:
            out.append(words(head + card_line.pattern))
            continue
        hand, note = printed_hand(card_line, year)
        out.append(line(head, hand, words(f"  ({note})" if note else "", Role.DIM)))
    if all(not x.value for x in card.lines):
        out.append(words("the card gives no values: every win is paid by the variant's "
                         "scoring alone", Role.DIM))
    return tuple(out)


def printed_hand(card_line: Line, year: int | None) -> tuple[Text, str]:
    """A line's hand as the card prints it, and its note."""
    alternatives, note = printed(card_line, year)
    return join((join((_piece(x) for x in alt), " ") for alt in alternatives), " or "), note


def _piece(piece: Printed) -> Text:
    if piece.kind == "choice":
        options = join((join((_piece(g) for g in option), " ") for option in piece.options),
                       " or ")
        return line("(", options, ")")
    return tuple(Span(a.text, role=Role.VARIABLE if a.variable else Role.PLAIN,
                      suit=piece.suit) for a in piece.atoms)


def line_view(seen: Seen, card_line: Line, most: int = 40, year: int | None = None
              ) -> tuple[Text, ...]:
    """One line: its facts, your hand in its nearest variation, and its
    variations as tiles (the first `most`)."""
    deck = seen.deck
    facts = [*([card_line.section] if card_line.section else []), w.value(card_line.value),
             "concealed" if card_line.concealed else "exposed",
             counted(len(card_line.variations), "variation")]
    hand, note = printed_hand(card_line, year)
    out: list[Text] = [line(words(f"{card_line.id}: ", Role.TITLE), hand,
                            words(f"  ({', '.join(facts)})", Role.TITLE)),
                       *([words(f"  {note}", Role.DIM)] if note else []),
                       words(f"  as written: {card_line.pattern}", Role.DIM)]
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
