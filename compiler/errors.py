"""Diagnostics and the error hierarchy: one class per stage.

Every problem a user can cause becomes a Diagnostic that names the file, line
and column (1-based), quotes the offending text, and where it is obvious says
how to fix it. A stage collects all of its diagnostics and raises them
together, so an author sees every problem at once.
"""

from __future__ import annotations

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
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(None, diagnostics)]
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class LoadError(JonggError):
    """A file that cannot be read or is not well-formed YAML."""


class SchemaError(JonggError):
    """A document whose shape the JSON Schema refuses."""


class NotationError(JonggError):
    """A hand pattern that does not parse; `label` names the kind of mistake."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | str, label: str | None = None):
        super().__init__(diagnostics)
        self.label = label


class SemanticError(JonggError):
    """Well-formed data that cannot be played: unknown tiles, impossible hands..."""


class UsageError(JonggError):
    """A bad command-line argument (a tile code, a hand too large...)."""


EXCERPT = 40  # the most characters of a value any message quotes


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A value as a message quotes it: its repr, cut short when long (a file
    named by mistake must never be printed whole)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def raise_if_errors(diagnostics: Iterable[Diagnostic], error: type[JonggError]) -> None:
    found = list(diagnostics)
    if any(d.is_error for d in found):
        raise error(found)
