"""Decks: rulesets/decks/*.yaml compiled into runtime Deck values."""

from __future__ import annotations

from jongg.runtime.tiles import Category, Deck, Suit, TileKind

from . import registry
from .errors import Diagnostic, Location, SchemaError, SemanticError, excerpt, raise_if_errors
from .schema import readable
from .source import Document

# The most copies of one tile a deck file may hold (real sets hold 4 or 8),
# and the most sets `name*N` may play together: bounds that keep every table
# the matcher builds small.
MAX_COPIES = 16  # of one tile in one set (real sets hold 3, 4 or 8)
MAX_SETS = 4


def _copies(doc: Document, path: tuple[str | int, ...], copies: int) -> list[Diagnostic]:
    if copies <= MAX_COPIES:
        return []
    written = copies if copies < 10**9 else "over a billion"  # a huge int cannot be printed
    return [Diagnostic(doc.locate(path), f"copies: {written} is more than the {MAX_COPIES} copies "
                                         "of one tile a deck may hold",
                       hint="a real set holds 4 of a tile, 8 flowers or jokers; play several "
                            "sets with 'NAME*2'")]


def compile_deck(doc: Document) -> Deck:
    """A deck; every problem, schema and semantic, is reported at once (a suit
    or tile that breaks the schema is set aside and the rest checked)."""
    screened = readable(doc, "deck", items=("suits", "tiles"))
    broken = SchemaError if screened.diagnostics else SemanticError
    data = screened.data
    if data is None:
        raise_if_errors(screened.diagnostics, SchemaError)
    problems: list[Diagnostic] = list(screened.diagnostics)
    kinds: list[TileKind] = []
    suits: list[Suit] = []
    for s, suit in enumerate(data.get("suits", [])):
        if screened.skips("suits", s):
            continue
        first, last = suit["numbers"]
        names = suit.get("names") or []
        if names and len(names) != last - first + 1:
            problems.append(Diagnostic(doc.locate(("suits", s, "names")),
                                       f"{len(names)} names for {last - first + 1} numbers"))
        problems += _copies(doc, ("suits", s, "copies"), suit["copies"])
        suits.append(Suit(suit["code"], suit["name"], suit.get("ordered", True)))
        for n in range(first, last + 1):
            code = suit.get("tile", "{n}" + suit["code"]).replace("{n}", str(n))
            name = names[n - first] if len(names) > n - first else f"{n} {suit['name']}"
            kinds.append(TileKind(len(kinds), code, name, Category.SUITED, suit["copies"],
                                  suit=suit["code"], number=n))
    suit_codes = {s.code for s in suits}
    for t, tile in enumerate(data.get("tiles", [])):
        if screened.skips("tiles", t):
            continue
        matches = tile.get("matches")
        if matches is not None and matches not in suit_codes:
            problems.append(Diagnostic(doc.locate(("tiles", t, "matches")),
                                       f"matches {excerpt(matches)}, which is not a suit of "
                                       "this deck"))
        problems += _copies(doc, ("tiles", t, "copies"), tile["copies"])
        kinds.append(TileKind(len(kinds), tile["code"], tile["name"], Category(tile["category"]),
                              tile["copies"], matches=matches, zero=tile.get("zero", False),
                              letter=tile.get("letter"), tags=tuple(tile.get("tags", ()))))
    seen: set[str] = set()
    for kind in kinds:
        if kind.code in seen:
            problems.append(Diagnostic(doc.locate(()),
                                       f"tile code {excerpt(kind.code)} is used twice"))
        seen.add(kind.code)
    raise_if_errors(problems, broken)
    return Deck(data["deck"], data.get("title", data["deck"]), tuple(kinds), tuple(suits))


def load_deck(name: str, beside: registry.Entry | None = None,
              where: Location | None = None) -> Deck:
    """A deck by shipped name or path (relative to the file `beside` that
    names it); `name*2` plays that many sets together."""
    base, _, times = name.partition("*")
    found = registry.read("deck", base, beside, where)
    key = (str(found.entry), found.file, found.text)
    deck = _COMPILED.get(key)
    if deck is None:
        if len(_COMPILED) > 64:  # a process checking many files keeps only the latest
            _COMPILED.clear()
        deck = _COMPILED[key] = compile_deck(found.document())
    if times:
        if not times.isdigit() or not 1 <= int(times[:3]) <= MAX_SETS:
            raise SemanticError([Diagnostic(where, f"deck {excerpt(name)}: after '*' give a "
                                                   f"number of sets, 1 to {MAX_SETS}")])
        deck = deck.combined(int(times))
    return deck


# decks compiled, by file and text: a deck is named again and again
_COMPILED: dict[tuple[str, str, str], Deck] = {}
