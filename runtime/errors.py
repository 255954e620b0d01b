"""Diagnostics, and the base of every error jongg reports to a user.

Every problem a user can cause becomes a Diagnostic that names the file, line
and column (1-based), quotes the offending text, and where it is obvious says
how to fix it. A stage collects all of its diagnostics and raises them
together, so an author sees every problem at once. The compiler's stages
(compiler/errors.py) and the runtime's errors (tiles, actions, logs,
compiled files) all derive from JonggError, so a front door catches one
class.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Location:
    file: str
    line: int  # 1-based
    column: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def shifted(self, line_offset: int, column_offset: int) -> Location:
        """A position inside a string that starts at this location."""
        if line_offset:
            return Location(self.file, self.line + line_offset, column_offset + 1)
        return Location(self.file, self.line, self.column + column_offset)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    location: Location | None
    message: str
    severity: Severity = Severity.ERROR
    hint: str | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        text = f"{where}{self.severity.value}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


class JonggError(Exception):
    """Base of every error jongg reports to a user; carries diagnostics."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | str):
        if isinstance(diagnostics, str):  # a message alone reads as itself
            self.diagnostics = [Diagnostic(None, diagnostics)]
            super().__init__(diagnostics)
            return
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def counted(n: int, noun: str) -> str:
    """`1 line`, `2 lines`: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def suggestion(word: object, choices: Iterable[object]) -> str | None:
    """`did you mean 'x'?` for the choice closest to a mistyped word, or None:
    the one wording every unknown name is answered with (a fact, a key, a
    variant, a card, a deck, a command's option)."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


def suggested(word: object, choices: Iterable[object], hint: str) -> str:
    """A hint led by the suggestion for a mistyped word, when there is one:
    `did you mean 'nymj'? known variants: ...`."""
    close = suggestion(word, choices)
    return f"{close} {hint}" if close else hint
