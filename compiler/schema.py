"""JSON Schema validation of loaded documents, every error with its position."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from .errors import Diagnostic, SchemaError, raise_if_errors
from .source import Document


@cache
def schema(name: str) -> dict[str, Any]:
    """A shipped schema by name: card, deck, variant."""
    text = resources.files("jongg.compiler.schemas").joinpath(f"{name}.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def json_path(path: Any) -> str:
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _diagnostics(doc: Document, error: jsonschema.ValidationError) -> list[Diagnostic]:
    """One diagnostic per problem: each unknown key of a mapping on its own."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        path = tuple(error.absolute_path)
        props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        allowed = ", ".join(sorted(props))
        unknown = [k for k in error.instance if k not in props]
        if unknown:
            return [Diagnostic(doc.locate_key((*path, key)),
                               f"{json_path(path)}: unknown key {key!r}",
                               hint=f"allowed keys: {allowed}") for key in unknown]
    return [_diagnostic(doc, error)]


def _diagnostic(doc: Document, error: jsonschema.ValidationError) -> Diagnostic:
    path = tuple(error.absolute_path)
    location = doc.locate(path)
    message = error.message
    hint = None
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        allowed = sorted(props)
        unknown = [k for k in error.instance if k not in allowed]
        if unknown:
            location = doc.locate_key((*path, unknown[0]))
            message = f"unknown key {unknown[0]!r}"
            hint = f"allowed keys: {', '.join(allowed)}"
    elif error.validator == "oneOf" and error.context:
        best = jsonschema.exceptions.best_match(error.context)
        message = best.message
    elif error.validator == "required":
        hint = "add it"
    return Diagnostic(location, f"{json_path(path)}: {message}", hint=hint)


def validate(doc: Document, name: str) -> None:
    """Raise SchemaError with every violation of schema `name` in `doc`."""
    validator = jsonschema.Draft202012Validator(schema(name))
    errors = sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    raise_if_errors((d for e in errors for d in _diagnostics(doc, e)), SchemaError)
