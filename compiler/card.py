"""Cards: rulesets/cards/*.yaml validated and expanded into runtime Cards.

`check_card` returns every diagnostic (errors and warnings) at once;
`compile_card` raises when there is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.tiles import Category, Deck

from . import checked, registry
from .deck import load_deck
from .errors import (
    Diagnostic,
    JonggError,
    Location,
    SchemaError,
    SemanticError,
    Severity,
    counted,
    raise_if_errors,
)
from .expand import ExpansionError, Problem, Rules, expand
from .notation import parse
from .schema import readable
from .source import Document


@dataclass
class CardReport:
    """The result of checking a card: what compiled, and every problem found."""

    file: str
    card: Card | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    schema_errors: int = 0  # how many of the errors break the schema

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]


def _clauses(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _most_copies(deck: Deck) -> int:
    """The most copies the deck holds of a tile that is not a joker."""
    return max((k.copies for k in deck.kinds if k.category is not Category.JOKER), default=0)


def _supply(variation: Variation, deck: Deck, plain: int, keep: int = 0) -> str | None:
    """Why the deck cannot build this variation even with jokers, or None if it
    can (`plain`: the deck's _most_copies, the same for every variation;
    `keep`: the naturals a group that takes jokers keeps, 1 when a card's
    groups may not be jokers alone)."""
    # plain dicts, not Counters: this runs for every variation on every deck
    strict: dict[int, int] = {}
    total: dict[int, int] = {}
    for group in variation.groups:
        for tile in group.tiles:
            total[tile] = total.get(tile, 0) + 1
        if not group.jokers:
            for tile in group.tiles:
                strict[tile] = strict.get(tile, 0) + 1
        elif keep:  # a group jokers may stand in is of identical tiles (Slots)
            strict[group.tiles[0]] = strict.get(group.tiles[0], 0) + keep
    shortfall = 0
    kinds = deck.kinds
    for tile, need in total.items():
        kind = kinds[tile]
        if strict.get(tile, 0) > kind.copies:
            where = "where no joker may go" if not keep else \
                "where no joker may go or a group keeps one natural"
            return (f"needs {strict[tile]} {kind.code} {where}, but {deck.name} "
                    f"holds {kind.copies}")
        shortfall += max(0, need - kind.copies)
    for free in variation.free:
        usable = deck.jokers if free.jokers and free.kind not in ("run", "pair", "single") else 0
        if free.kind not in ("run", "set") and plain + usable < free.size:
            return f"needs a {free.kind} of {free.size}, more than {deck.name} can make"
    if shortfall > deck.jokers:
        return (f"needs {shortfall} jokers beyond the natural tiles, but {deck.name} "
                f"has {deck.jokers}")
    return None


def _joker_only(variation: Variation, deck: Deck) -> str | None:
    need: dict[int, int] = {}
    single_group_over: set[int] = set()
    kinds = deck.kinds
    for group in variation.groups:
        tiles = group.tiles
        for tile in tiles:
            need[tile] = need.get(tile, 0) + 1
        for tile in set(tiles):
            if tiles.count(tile) > kinds[tile].copies:
                single_group_over.add(tile)
    for tile, count in need.items():
        kind = kinds[tile]
        if count > kind.copies and tile not in single_group_over:
            return f"{count} {kind.code} where {deck.name} holds {kind.copies}"
    return None


def _written(text: str, where: Location) -> str | None:
    """The plain scalar written at `where`, as the author typed it."""
    rows = text.splitlines()
    if not 0 < where.line <= len(rows):
        return None
    match = re.match(r"[^\s,}\]#]+", rows[where.line - 1][where.column - 1:])
    return match.group() if match else None


class _CardChecker:
    def __init__(self, doc: Document, deck_override: str | None = None):
        self.doc = doc
        self.diagnostics: list[Diagnostic] = []
        self.deck_override = deck_override
        self.skipped: set[int] = set()  # lines that break the schema
        self.schema_errors = 0

    def problem(self, where: Location, message: str, *, warning: bool = False,
                hint: str | None = None) -> None:
        severity = Severity.WARNING if warning else Severity.ERROR
        self.diagnostics.append(Diagnostic(where, message, severity, hint))

    def decks(self, data: dict[str, Any]) -> list[Deck]:
        names = [self.deck_override] if self.deck_override else \
            [data["deck"], *data.get("decks", [])]
        # the card's own decks are named relative to it; an override, from the command line
        # or a variant, is already resolved
        beside = None if self.deck_override else self.doc.source
        decks = []
        for i, name in enumerate(names):
            where = self.doc.locate(("deck",) if i == 0 else ("decks", i - 1))
            try:
                decks.append(load_deck(name, beside, where))
            except JonggError as error:
                for d in error.diagnostics:  # each at the card's reference, naming the deck's spot
                    inside = f"{d.location}: " if d.location and d.location.file != where.file \
                        else ""
                    self.problem(where, f"{inside}{d.message}", hint=d.hint)
        return decks

    def run(self) -> Card | None:
        self.ids()
        # schema errors do not stop the check: a broken line is set aside, a broken
        # top-level key is read as absent, and the rest is checked all the same
        screened = readable(self.doc, "card", items=("lines",))
        self.diagnostics += screened.diagnostics
        self.schema_errors = len(screened.diagnostics)
        self.skipped = screened.skipped["lines"]
        data = screened.data
        if data is None:
            return None
        decks = self.decks(data)
        if not decks:
            return None
        deck = decks[0]
        hand_size = data.get("hand_size", 14)
        lines: list[Line] = []
        seen_ids: dict[str, int] = {}
        for i, raw in enumerate(data["lines"]):
            if i in self.skipped:
                continue
            line = self.line(i, raw, data, deck, decks, hand_size)
            if raw["id"] in seen_ids:
                self.problem(self.doc.locate(("lines", i, "id")),
                             f"line id {raw['id']!r} is used twice (first on line "
                             f"{self.doc.locate(('lines', seen_ids[raw['id']])).line})")
            seen_ids.setdefault(raw["id"], i)
            if line is not None:
                lines.append(line)
        self.overlaps(lines)
        card = Card(data["card"], data.get("title", data["card"]), deck, hand_size, tuple(lines),
                    data.get("joker_min_group", 3), data.get("all_joker_groups", True))
        return card

    def ids(self) -> None:
        """A line id YAML reads as a number (13579_1 is 135791 to YAML 1.1): say
        so, and check the rest of the card with the id as the author wrote it."""
        data = self.doc.data
        lines = data.get("lines") if isinstance(data, dict) else None
        for i, raw in enumerate(lines if isinstance(lines, list) else []):
            if not isinstance(raw, dict) or not isinstance(raw.get("id"), int | float) or \
                    isinstance(raw.get("id"), bool):
                continue
            where = self.doc.locate(("lines", i, "id"))
            written = _written(self.doc.text, where) or str(raw["id"])[:20]
            self.problem(where, f"line id {written} is read by YAML as the number "
                                f"{str(raw['id'])[:20]}",
                         hint=f"put it in quotes: id: \"{written}\"")
            raw["id"] = written

    def line(self, i: int, raw: dict[str, Any], data: dict[str, Any], deck: Deck,
             decks: list[Deck], hand_size: int) -> Line | None:
        path = ("lines", i)
        start = self.doc.string_start((*path, "hand"))
        if data.get("values_required", True) and "value" not in raw:
            self.problem(self.doc.locate(path), f"line {raw['id']!r} has no value",
                         hint="add 'value: N'")
        try:
            pattern = parse(raw["hand"], origin=start)
        except JonggError as error:
            self.diagnostics += error.diagnostics
            return None
        variations: list[Variation] = []
        for k, each in enumerate(decks):
            rules = Rules(each, data.get("year"), data.get("joker_min_group", 3),
                          raw.get("jokers", True), data.get("budget", 20000), hand_size)
            try:
                expansion = expand(pattern, rules)
            except ExpansionError as error:
                self.report(start, error.problems, raw["id"])
                return None
            plain = _most_copies(each)
            keep = 0 if data.get("all_joker_groups", True) else 1
            buildable = [v for v in expansion.variations
                         if _supply(v, each, plain, keep) is None]
            if k == 0:
                self.report(start, expansion.warnings, raw["id"])
                self.joker_only(start, raw["id"], buildable, each)
            if not buildable and expansion.variations:
                reason = _supply(expansion.variations[0], each, plain, keep)
                self.problem(start, f"line {raw['id']!r} cannot be built from {each.name}: "
                                    f"{reason}", hint=self.joker_hint(raw, keep))
                return None
            if not expansion.variations:
                self.problem(start, f"line {raw['id']!r} has no variation in {each.name}: "
                                    "its numbers or tiles do not exist there")
                return None
            if k == 0:
                variations = buildable
        sizes = sorted({v.size for v in variations})
        if sizes != [hand_size]:
            self.problem(start, f"line {raw['id']!r} has {', '.join(map(str, sizes))} tiles, "
                                f"not the hand size {hand_size}: {raw['hand']!r}")
            return None
        return Line(raw["id"], raw.get("section", ""), raw.get("value"),
                    raw.get("concealed", False), raw["hand"], tuple(variations), hand_size,
                    raw.get("jokers", True), raw.get("note", ""), tuple(raw.get("flags", ())),
                    _clauses(raw.get("clause")))

    def joker_only(self, start: Location, line_id: str, variations: list[Variation],
                   deck: Deck) -> None:
        """Warn of variations only jokers can make: more of a tile than the deck
        holds, spread over groups that each fit (a quint or a sextet of one
        tile needs its jokers by design, and is not warned of)."""
        found = [(v, why) for v in variations if (why := _joker_only(v, deck))]
        if found:
            variation, why = found[0]
            shown = " | ".join(" ".join(deck.codes(g.tiles)) for g in variation.groups)
            some = f"every one of its {counted(len(variations), 'variation')}" \
                if len(found) == len(variations) else \
                f"{len(found)} of its {counted(len(variations), 'variation')}"
            self.problem(start, f"line {line_id!r}: {some} can be made only with jokers "
                                f"({why}), such as {shown}", warning=True,
                         hint="check the suits or numbers the line allows")

    @staticmethod
    def joker_hint(raw: dict[str, Any], keep: int = 0) -> str | None:
        if raw.get("jokers", True) is False:
            return "this line allows no jokers ('jokers: false')"
        if "!" in raw["hand"]:
            return "a group marked '!' allows no jokers"
        if keep:
            return "all_joker_groups: true would let a group be jokers alone"
        return None

    def report(self, start: Location, problems: list[Problem], line_id: str) -> None:
        for pr in problems:
            where = start.shifted(pr.at[0] - 1, pr.at[1] - 1)
            self.problem(where, f"line {line_id!r}: {pr.message}", warning=pr.warning,
                         hint=pr.hint)

    def overlaps(self, lines: list[Line]) -> None:
        """Duplicate lines (the same variations) and lines contained in others."""
        keys = [frozenset(v.key() for v in line.variations) for line in lines]
        index: dict[str, int] = {}
        for i, raw in enumerate(self.doc.data["lines"]):
            if i not in self.skipped:
                index.setdefault(raw["id"], i)
        for b, line in enumerate(lines):
            where = self.doc.locate(("lines", index[line.id]))
            for a in range(b):
                if keys[a] == keys[b]:
                    self.problem(where, f"line {line.id!r} duplicates line {lines[a].id!r}: "
                                        "they have the same variations")
                    break
                if keys[b] < keys[a] or keys[a] < keys[b]:
                    small, big = (line, lines[a]) if keys[b] < keys[a] else (lines[a], line)
                    self.problem(where, f"every variation of line {small.id!r} is also one "
                                        f"of line {big.id!r}", warning=True)


def check_card(doc: Document, deck: str | None = None) -> CardReport:
    """Every problem of a card; the compiled card too when there is no error.
    A card that compiled is kept in the cache, and read back while its text,
    its decks and this jongg are the same (compiler/checked.py)."""
    key = checked.key(doc, deck)
    kept = checked.read(key, shipped=checked.read_shipped)
    if kept is not None:
        return kept
    report = _check(doc, deck)
    checked.keep(key, report)
    return report


def _check(doc: Document, deck: str | None) -> CardReport:
    checker = _CardChecker(doc, deck)
    try:
        card = checker.run()
    except JonggError as error:
        return CardReport(doc.file, None, checker.diagnostics + error.diagnostics)
    if any(d.is_error for d in checker.diagnostics):
        card = None
    return CardReport(doc.file, card, checker.diagnostics, checker.schema_errors)


def compile_card_document(doc: Document, deck: str | None = None) -> Card:
    report = check_card(doc, deck)
    raise_if_errors(report.diagnostics, SchemaError if report.schema_errors else SemanticError)
    assert report.card is not None
    return report.card


def load_card(name: str, deck: str | None = None, beside: registry.Entry | None = None,
              where: Location | None = None) -> Card:
    """A card by shipped name (`sample`) or path (relative to the file `beside`
    that names it)."""
    return compile_card_document(registry.load("card", name, beside, where), deck)


def load_ruleset(kind: str, name: str) -> Document:
    """A ruleset's document by shipped name or path."""
    return registry.load(kind, name)
