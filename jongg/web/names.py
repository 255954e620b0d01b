"""What a request may name: a shipped ruleset by its name, or a file
uploaded to this server, nothing else.

Every name a request makes (a table's variant and card, an uploaded log's
variant, and through them every base, deck and card those files name) is
resolved by the compiler's one resolver, kept `within` the server's rulesets
folder (compiler/registry.py): a path anywhere else, however spelled, is
refused there, before anything is read, and the message says what was
written, not what is there.

The keys by which a ruleset names another are found in the schemas (each
carries "x-names": the kind it names), so an upload is told which of its
keys named a path the moment it arrives, a new key included.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jongg.api import JonggError, did_you_mean, registry, schema

Pattern = tuple[str, ...]  # keys from the top; "*" for any key or any item


class Unnamed(ValueError):
    """A name that finds nothing a request may use; the message says why."""


@cache
def naming_keys(kind: str) -> tuple[tuple[Pattern, str], ...]:
    """Every place in a `kind` file (variant, card) whose value names a ruleset
    file, with the kind it names, read from the kind's schema."""
    root = schema(kind)
    found: list[tuple[Pattern, str]] = []

    def walk(node: Any, at: Pattern, refs: frozenset[str]) -> None:
        if not isinstance(node, dict):
            return
        if "x-names" in node:
            found.append((at, str(node["x-names"])))
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and ref not in refs:
            target: Any = root
            for part in ref[2:].split("/"):
                target = target.get(part) if isinstance(target, dict) else None
            walk(target, at, refs | {ref})
        for key, inner in (node.get("properties") or {}).items():
            walk(inner, (*at, key), refs)
        for key in ("additionalProperties", "items"):
            walk(node.get(key), (*at, "*"), refs)
        for key in ("anyOf", "oneOf", "allOf"):
            for inner in node.get(key) or ():
                walk(inner, at, refs)
        for key in ("then", "else"):
            walk(node.get(key), at, refs)

    walk(root, (), frozenset())
    return tuple(dict.fromkeys(found))


def named(data: Any, kind: str) -> Iterator[tuple[str, str, str]]:
    """(the key as a path such as `by_players.4.deck`, the name written, the
    kind it names) for every ruleset a file's data names."""
    for pattern, names in naming_keys(kind):
        for at, value in _matching(data, pattern, ()):
            if isinstance(value, str):
                yield ".".join(map(str, at)), value, names


def _matching(node: Any, pattern: Pattern, at: tuple[str | int, ...]
              ) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if not pattern:
        yield at, node
        return
    head, rest = pattern[0], pattern[1:]
    if isinstance(node, dict):
        keys = list(node) if head == "*" else [head] if head in node else []
        for key in keys:
            yield from _matching(node[key], rest, (*at, key))
    elif isinstance(node, list) and head == "*":
        for i, item in enumerate(node):
            yield from _matching(item, rest, (*at, i))


def a_path(name: str) -> bool:
    """Whether a name reaches beyond its own folder (rather than naming a
    shipped ruleset or a file beside the one that names it)."""
    return "/" in name or "\\" in name or name.startswith(".") or "\0" in name


class Names:
    """The names of one server's requests, resolved inside its rulesets folder."""

    def __init__(self, rulesets: Path):
        self.rulesets = rulesets

    def within(self) -> Any:
        """Resolution kept inside this server's rulesets (a context manager):
        every compile, check and replay of a request runs inside it."""
        return registry.within(self.rulesets)

    def find(self, kind: str, name: str) -> str:
        """A request's ruleset as the compiler names it: a shipped name, or
        the path of a file uploaded here (Unnamed for anything else)."""
        if not name.endswith(registry.SUFFIXES):
            if name in registry.shipped(kind):
                return name
            known = [*registry.shipped(kind), *(p.name for p in self.rulesets.glob("*.yaml"))]
            raise Unnamed(f"no {kind} {name[:60]!r}: choose a shipped one or upload it"
                          + did_you_mean(name[:60], known))
        if a_path(name):
            raise Unnamed(f"{kind} {name[:60]!r}: name a file uploaded here, not a path")
        with self.within():
            try:
                return str(registry.locate(kind, name))
            except JonggError:
                raise Unnamed(f"no {kind} {name[:60]!r} here: upload it first") from None

    def shown(self, name: str) -> str:
        """A compiler's name for a ruleset as a message may show it: a file
        here by its name alone, never by where the server keeps it."""
        path = Path(name)
        if path.is_absolute():
            return path.name if path.parent == self.rulesets.resolve() else "(a file elsewhere)"
        return name
