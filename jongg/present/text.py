"""Sentences as plain data: spans of text, some of them tiles, each with a
role (what it means, not how it looks). A front end turns roles and tiles
into its own styles; `plain` gives the words alone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    PLAIN = ""
    TITLE = "title"  # a heading
    YOU = "you"  # the seat reading it
    KEY = "key"  # something to type
    GOOD = "good"  # a win, a Mah Jongg
    BAD = "bad"  # a dead hand, a penalty
    WARN = "warn"  # a warning, a refusal
    DIM = "dim"  # positions, asides
    MISSING = "missing"  # a tile still wanted
    VARIABLE = "variable"  # a letter of the card standing for numbers or honours


@dataclass(frozen=True, slots=True)
class Span:
    text: str
    tile: str | None = None  # a tile code: drawn as that tile
    role: Role = Role.PLAIN
    suit: str | None = None  # a card's suit letter (a, b, c): printed in that suit's colour


Text = tuple[Span, ...]


def words(text: str, role: Role = Role.PLAIN) -> Text:
    return (Span(text, None, role),) if text else ()


def tile(code: str, role: Role = Role.PLAIN) -> Text:
    return (Span(code, code, role),)


def tiles(codes: Iterable[str], role: Role = Role.PLAIN) -> Text:
    """Tiles separated by spaces."""
    return join((tile(c, role) for c in codes), " ")


def join(parts: Iterable[Text], sep: str = " ") -> Text:
    out: list[Span] = []
    for i, part in enumerate(p for p in parts if p):
        if i and sep:
            out.append(Span(sep))
        out.extend(part)
    return tuple(out)


def line(*parts: Text | str) -> Text:
    """Pieces run together: strings as plain words."""
    out: list[Span] = []
    for part in parts:
        out.extend(words(part) if isinstance(part, str) else part)
    return tuple(out)


def plain(text: Text) -> str:
    return "".join(s.text for s in text)


def as_data(text: Text) -> list[dict[str, str]]:
    """A sentence as plain data (JSON) for a page to draw: each span's text,
    and its tile, role and suit when it has them."""
    out = []
    for s in text:
        span = {"text": s.text}
        if s.tile is not None:
            span["tile"] = s.tile
        if s.role:
            span["role"] = str(s.role)
        if s.suit is not None:
            span["suit"] = s.suit
        out.append(span)
    return out
