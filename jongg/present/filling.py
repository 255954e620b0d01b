"""How a hand fills a line of the card, slot by slot (the matcher's
explain): each joker with what it stands for, exposed tiles marked, and
the tiles still missing. As spans for the tables, and as the plain text
`jongg match --explain` prints."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from jongg.present.text import Role, Span, Text, join
from jongg.runtime.card import Line
from jongg.runtime.game.rules import Rules
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import Slot
from jongg.runtime.tiles import Deck

Groups = tuple[tuple[Slot, ...], ...]

LEGEND = ("J=x: a joker stands for x; x^: exposed; (x): missing, (x?): missing, "
          "a joker may fill it")


@dataclass(frozen=True, slots=True)
class Near:
    """One line as near as a hand is to it: its best variation, filled."""

    line: Line
    away: int
    groups: Groups

    @property
    def missing(self) -> list[str]:
        return [s.want for g in self.groups for s in g if s.filled_by is None]

    @property
    def joker_slots(self) -> int:
        return sum(1 for g in self.groups for s in g if s.filled_by is None and s.joker_ok)


def nearest(rules: Rules, hand: Hand, k: int | None = None,
            allowed: frozenset[int] | None = None) -> list[Near]:
    """The lines the hand may still make, nearest first (then card order), filled."""
    found = rules.nearest(hand, allowed)
    lines = rules.lines
    return [Near(lines[li], away, explained(rules, hand, lines[li], v))
            for away, li, v in (found if k is None else found[:k])]


def filled(rules: Rules, hand: Hand, line_id: str) -> Near | None:
    """The hand in one line's nearest variation (None: its exposures rule the line out)."""
    lines = rules.lines
    for away, li, v in rules.nearest(hand):
        if lines[li].id == line_id:
            return Near(lines[li], away, explained(rules, hand, lines[li], v))
    return None


def exposed_jokers(filling: Iterable[Sequence[Slot]], exposures: Sequence[Sequence[int]],
                   deck: Deck) -> Groups:
    """The groups with each exposure's jokers in their slots. The matcher
    seats an exposure whole and fills its group with the group's tiles, so
    which slots hold a joker is read here from the exposures themselves:
    each is given the exposed group it fits (its naturals among the group's
    tiles), and the slots its naturals leave are its jokers (J=x^). The
    groups are returned unchanged where no exposure holds a joker."""
    groups = tuple(tuple(g) for g in filling)
    joker = deck.joker_index
    if joker is None or not any(joker in e for e in exposures):
        return groups
    shown = [Counter(deck.code(t) for t in e if t != joker) for e in exposures]
    sizes = [len(e) for e in exposures]
    seated = [gi for gi, g in enumerate(groups) if g and all(s.exposed for s in g)]

    def fits(ei: int, gi: int) -> bool:
        wants = Counter(s.want for s in groups[gi])
        return sizes[ei] == len(groups[gi]) and not shown[ei] - wants

    def seat(ei: int, taken: tuple[int, ...]) -> tuple[int, ...] | None:
        if ei == len(exposures):
            return taken
        for gi in seated:
            if gi not in taken and fits(ei, gi):
                found = seat(ei + 1, (*taken, gi))
                if found is not None:
                    return found
        return None

    places = seat(0, ())
    if places is None:
        return groups
    out = list(groups)
    for naturals, gi in zip(shown, places, strict=True):
        left = Counter(naturals)
        row = []
        for slot in groups[gi]:
            if left[slot.want]:
                left[slot.want] -= 1
                row.append(slot)
            else:
                row.append(dataclasses.replace(slot, filled_by="J"))
        out[gi] = tuple(row)
    return tuple(out)


def explained(rules: Rules, hand: Hand, card_line: Line, variation: int) -> Groups:
    """The matcher's filling of one variation. A card may let jokers stand in
    a group, but with a deck that has none (NYMJ's) no slot is a joker's."""
    groups = rules.judge.explain(hand, card_line, variation)
    if rules.deck.joker_index is not None:
        return groups
    return tuple(tuple(replace(s, joker_ok=False) for s in g) for g in groups)


def slot_text(slot: Slot) -> str:
    """J=x, x^, (x), (x?) or the natural that fills it; an exposed joker is J=x^."""
    if slot.filled_by is None:
        return f"({slot.want}{'?' if slot.joker_ok else ''})"
    shown = f"J={slot.want}" if slot.filled_by == "J" else slot.filled_by
    return f"{shown}^" if slot.exposed else shown


def filling_text(groups: Iterable[Sequence[Slot]]) -> str:
    return " | ".join(" ".join(slot_text(s) for s in group) for group in groups)


def slot_spans(slot: Slot, joker: str = "J") -> Text:
    """A slot as spans: the tile that fills it (a joker with what it stands
    for), or the tile wanted, marked missing."""
    if slot.filled_by is None:
        mark = "?" if slot.joker_ok else ""
        return (Span("(", role=Role.MISSING), Span(slot.want, _code(slot.want), Role.MISSING),
                Span(f"{mark})", role=Role.MISSING))
    if slot.filled_by == joker and slot.want != joker:
        return (Span(joker, joker), Span(f"={slot.want}", role=Role.DIM))
    return (Span(slot.filled_by, slot.filled_by),)


def groups_spans(groups: Iterable[Sequence[Slot]], joker: str = "J") -> Text:
    """Groups in brackets: '[5B 5B J=5B] [N N]'."""
    return join(((Span("["), *join(slot_spans(s, joker) for s in g), Span("]"))
                 for g in groups), " ")


def _code(want: str) -> str | None:
    """A wanted slot's tile, or None for a structural placeholder ('[pung]')."""
    return None if want.startswith("[") else want
