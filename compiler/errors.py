"""The compiler's errors, one class per stage (load, schema, notation,
semantic, usage); Diagnostic and JonggError live with the runtime's model."""

from __future__ import annotations

from collections.abc import Iterable

from jongg.runtime.errors import (
    Diagnostic,
    JonggError,
    Location,
    Severity,
    counted,
    suggested,
    suggestion,
)

__all__ = ["Diagnostic", "JonggError", "LoadError", "Location", "NotationError", "SchemaError",
           "SemanticError", "Severity", "UsageError", "counted", "raise_if_errors",
           "suggested", "suggestion"]


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


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest choice, or nothing."""
    found = suggestion(word, choices)
    return f" ({found})" if found else ""
