"""What every check of a resolved variant shares: its data, the problems
found (each placed where the value that caused it was written), the rulesets
it names, and its formulas compiled against the facts they may read."""

from __future__ import annotations

from typing import Any

from jongg.runtime.card import Card
from jongg.runtime.game.formula import Formula
from jongg.runtime.scoring.rules import HandScoring
from jongg.runtime.tiles import Deck

from . import registry
from .bounds import Bound
from .errors import Diagnostic, JonggError, Severity, excerpt
from .formula import compile_formula
from .inherit import Resolved
from .source import PathKey


def _clauses(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class Checking:
    """A resolved variant under check, every problem kept."""

    def __init__(self, resolved: Resolved, players: int, card: str | None = None):
        self.resolved = resolved
        self.data = resolved.data
        self.players = players
        self.card_given = card  # a card played instead of the variant's own (name or path)
        self.problems: list[Diagnostic] = []
        self.deck_value: Deck | None = None
        self.deck_ref: str | None = None  # the deck and card, named from anywhere
        self.card_ref: str | None = None
        self.values: Bound = (0, 0)  # the lowest and highest value of the lines played
        self.unplayed_flags: list[str] = []  # flags of the card the variant does not name
        self.hand_scoring: HandScoring | None = None  # a winning hand's scoring (compiler.yaku)

    def problem(self, path: PathKey, message: str, hint: str | None = None, *,
                warning: bool = False, text: bool = False) -> None:
        """A problem at the value `path` (with `text`, where its characters begin),
        unless that value broke the schema and was set aside: the schema message
        has said what is wrong there."""
        for broken in self.resolved.broken:
            if path[: len(broken)] == broken or (path and broken[: len(path)] == path):
                return
        where = self.resolved.string_start(path) if text else self.resolved.locate(path)
        self.problems.append(Diagnostic(where, message,
                                        Severity.WARNING if warning else Severity.ERROR, hint))

    def reference(self, kind: str, path: PathKey) -> str | None:
        """The ruleset a value names, relative to the file that writes it, as a
        name that finds it again from anywhere; None (and a problem) when there
        is none to be found."""
        value: Any = self.data
        for key in path:
            value = value[key]
        writer = self.resolved.writer(path)
        try:
            entry = registry.locate(kind, str(value), writer.source if writer else None,
                                    self.resolved.locate(path))
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None
        return registry.reference(entry)

    def formula(self, path: PathKey, facts: tuple[str, ...]) -> Formula | None:
        text: Any = self.data
        for key in path:
            text = text[key]
        try:
            return compile_formula(str(text), facts, origin=self.resolved.string_start(path))
        except JonggError as error:
            self.problems.extend(self.unplayed(d) for d in error.diagnostics)
            return None

    def unplayed(self, d: Diagnostic) -> Diagnostic:
        """A flagged_<flag> fact of a flag the card has but the variant does not
        play is unknown for that reason: say so."""
        for flag in self.unplayed_flags:
            if d.message.startswith(f"unknown fact 'flagged_{flag.replace('-', '_')}'"):
                return Diagnostic(d.location, d.message, d.severity,
                                  f"the card's lines flagged {excerpt(flag)} are not played: name "
                                  "it in win.flags")
        return d

    @staticmethod
    def flags(card: Card) -> tuple[str, ...]:
        return tuple(sorted({f for line in card.lines for f in line.flags}))
