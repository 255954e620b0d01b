"""JSON Schema validation of loaded documents, every error with its position.

A schema error does not end the check: `readable()` reports every violation
and hands back the data without the parts that break the schema, so the
semantic checks go on over the rest and the author sees every problem at
once. Messages name keys as the author writes them (`before_play[0].to`),
quote at most a short excerpt of a value, and suggest the nearest name for a
misspelt key or choice.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from .errors import Diagnostic, SchemaError, excerpt, raise_if_errors, suggestion
from .source import Document, PathKey

ROUNDS = 8  # removing a broken part can break its parent (a required key): a few passes


@cache
def schema(name: str) -> dict[str, Any]:
    """A shipped schema by name: card, deck, variant."""
    text = resources.files("jongg.compiler.schemas").joinpath(f"{name}.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(name))


def key_path(path: Iterable[Any]) -> str:
    """A path as the author writes it: `before_play[0].to`, `by_players.3.deal`."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _join(*parts: str | None) -> str | None:
    found = [p for p in parts if p]
    return " ".join(found) if found else None


# The schemas' patterns in words: a user reads "lowercase letters, digits and
# hyphens", not a regular expression.
PATTERN_WORDS = {
    "^[a-z0-9][a-z0-9-]*$":
        "lowercase letters, digits and hyphens, starting with a letter or digit",
    "^[a-z][a-z0-9-]*$": "lowercase letters, digits and hyphens, starting with a letter",
    "^[a-z0-9][a-z0-9_-]*$": "lowercase letters, digits, hyphens and underscores",
    "^[a-z][a-z0-9_]*$": "lowercase letters, digits and underscores, starting with a letter "
                         "(a formula's fact)",
    "^(NYMJ|MJCG|SMJ)-[0-9]+$": "a rule clause ID, such as MJCG-15",
    "^[A-Z]$": "one capital letter",
    "^[A-Z][A-Z0-9]{0,2}$": "a capital letter, then up to two capitals or digits",
    "^[FNEWSRG]$": "one of the letters F, N, E, W, S, R, G",
    "^[1-8]$": "a number of players from 1 to 8",
    "\\{n\\}": "a text with {n} where the number goes",
}


def _fitted(text: str, pattern: str) -> str | None:
    """The name a user most likely meant, when lowercasing it and joining
    its words with hyphens makes it fit: 'Two Sets' -> 'two-sets' (or
    uppercasing: 'mjcg 15' -> 'MJCG-15')."""
    for case in (str.lower, str.upper):
        for joiner in ("-", "_"):
            guess = re.sub(r"[^a-zA-Z0-9_-]+", joiner, case(text.strip())).strip("-_")
            if guess and guess != text and re.search(pattern, guess):
                return f"did you mean {guess!r}?"
    return None


def _message(error: jsonschema.ValidationError) -> tuple[str, str | None]:
    """The message and hint of one violation, quoting the value only in short."""
    instance: Any = error.instance
    kind: Any = error.validator
    expected: Any = error.validator_value
    if kind == "enum":
        return (f"{excerpt(instance)} is not one of {expected}",
                suggestion(instance, expected) if isinstance(instance, str) else None)
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        return f"{excerpt(instance)} is not of type {', '.join(map(repr, types))}", None
    if kind == "const":
        return f"{excerpt(instance)} can only be {json.dumps(expected)}", None
    if kind == "required":
        return error.message, "add it"
    if kind == "pattern" and expected in PATTERN_WORDS and isinstance(instance, str):
        return (f"{excerpt(instance)} must be {PATTERN_WORDS[expected]}",
                _fitted(instance, expected))
    message = error.message
    whole = repr(instance)
    if len(whole) > len(excerpt(instance)):
        message = message.replace(whole, excerpt(instance))
    if len(message) > 200:  # a quoting this module does not know: never a whole file
        message = f"{excerpt(instance)} breaks the rule {kind!r}"
    return message, None


def _at(path: PathKey, text: str) -> str:
    where = key_path(path)
    return f"{where}: {text}" if where else text


def _diagnostics(doc: Document, error: jsonschema.ValidationError) -> list[Diagnostic]:
    """One diagnostic per problem: each unknown key of a mapping on its own."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        unknown = [k for k in error.instance if k not in props]
        if unknown:
            allowed = f"allowed keys: {', '.join(sorted(props))}" if props else None
            return [Diagnostic(doc.locate_key((*path, key)),
                               _at(path, f"unknown key {excerpt(key)}"),
                               hint=_join(suggestion(key, props), allowed))
                    for key in unknown]
    if error.validator == "propertyNames":
        message, hint = _message(error)
        key: Any = error.instance
        return [Diagnostic(doc.locate_key((*path, key)),
                           _at(path, f"the key {message}"), hint=hint)]
    if error.validator == "oneOf" and error.context:
        # the branch written for the value's type says most: a string that
        # breaks the string branch's pattern is not told it is not a list
        typed = [e for e in error.context if e.validator != "type"]
        best = jsonschema.exceptions.best_match(typed or error.context)
        message, hint = _message(best)
        return [Diagnostic(doc.locate(path), _at(tuple(best.absolute_path), message), hint=hint)]
    message, hint = _message(error)
    return [Diagnostic(doc.locate(path), _at(path, message), hint=hint)]


def _broken(error: jsonschema.ValidationError) -> list[PathKey]:
    """Where in the data the violation is: the node to set aside."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return [(*path, key) for key in error.instance if key not in props] or [path]
    if error.validator == "propertyNames":
        key: Any = error.instance
        return [(*path, key)]
    return [path]


def _errors(data: Any, name: str) -> list[jsonschema.ValidationError]:
    return sorted(_validator(name).iter_errors(data),
                  key=lambda e: list(map(str, e.absolute_path)))


def check(doc: Document, name: str) -> list[Diagnostic]:
    """Every violation of schema `name` in `doc`."""
    return [d for e in _errors(doc.data, name) for d in _diagnostics(doc, e)]


def validate(doc: Document, name: str) -> None:
    """Raise SchemaError with every violation of schema `name` in `doc`."""
    raise_if_errors(check(doc, name), SchemaError)


@dataclass
class Readable:
    """What a check can still read of a document that breaks its schema."""

    diagnostics: list[Diagnostic]
    data: Any  # the data less its broken parts; None when the root itself is broken
    # items of a top-level list set aside whole (a card's lines): key -> indexes
    skipped: dict[str, set[int]] = field(default_factory=dict)
    # the mapping entries taken out, as paths
    removed: list[PathKey] = field(default_factory=list)

    def skips(self, key: str, index: int) -> bool:
        return index in self.skipped.get(key, ())


def _cut(data: Any, path: PathKey) -> PathKey:
    """The deepest mapping entry on `path`: what is taken out for a break there
    (a list's item is never taken out alone, which would renumber the rest)."""
    cut: PathKey = ()
    node = data
    for i, part in enumerate(path):
        if isinstance(node, dict) and part in node:
            cut = path[: i + 1]
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            break
    return cut


def _inside(path: PathKey, skipped: dict[str, set[int]]) -> bool:
    return len(path) >= 2 and path[0] in skipped and path[1] in skipped[str(path[0])]


def readable(doc: Document, name: str, items: tuple[str, ...] = ()) -> Readable:
    """Every violation of schema `name`, and the data without what breaks it:
    the broken mapping entry is taken out (its default then applies), an item
    of a list in `items` is set aside whole, and a broken root or required
    top-level key leaves nothing to read."""
    errors = _errors(doc.data, name)
    if not errors:
        return Readable([], doc.data, {key: set() for key in items})
    data = copy.deepcopy(doc.data)
    result = Readable([d for e in errors for d in _diagnostics(doc, e)], data,
                      {key: set() for key in items})
    required = set(schema(name).get("required", ()))
    for _ in range(ROUNDS):
        broken = [p for e in _errors(data, name) for p in _broken(e)
                  if not _inside(p, result.skipped)]
        if not broken:
            return result
        for path in broken:
            if len(path) >= 2 and path[0] in result.skipped and isinstance(path[1], int):
                result.skipped[str(path[0])].add(path[1])  # the item is not read at all
                continue
            cut = _cut(data, path)
            if not cut or (len(cut) == 1 and cut[0] in required):
                result.data = None
                return result
            parent = data
            for part in cut[:-1]:
                parent = parent[part]
            if isinstance(parent, dict) and cut[-1] in parent:
                del parent[cut[-1]]
                result.removed.append(cut)
    result.data = None  # still broken after every pass: read nothing rather than guess
    return result
