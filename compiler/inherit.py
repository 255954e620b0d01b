"""A variant's layers: its `extends:` chain, merged, with the `by_players:`
overrides of a player count (steps 1 and 2 of compiler/variant.py).

Every file of the chain is loaded and schema-checked; the chain is merged
(mappings key by key, everything else replaced), then the overrides of the
chosen count; `Resolved` keeps where each value was written, so a problem is
placed in the file that caused it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from . import registry
from .defaults import fill_defaults
from .errors import Diagnostic, JonggError, Location, SchemaError, SemanticError
from .schema import Readable, readable
from .source import Document, PathKey

# A file's own words about itself: a variant that extends another does not
# inherit them, since they would describe the base (its title names its card,
# its open choices may be ones the variant changes).
PROSE = ("title", "note", "open")


@dataclass(frozen=True, slots=True)
class Layer:
    """One part of a variant's data: a file's top level, or its overrides for
    one player count (`prefix` ("by_players", key))."""

    doc: Document
    prefix: PathKey
    data: dict[str, Any]

    def __str__(self) -> str:
        name = PurePath(self.doc.file).name
        return f"{name} by_players {self.prefix[1]}" if self.prefix else name


@dataclass
class Resolved:
    """A variant's merged data, and where each part of it was written."""

    name: str
    data: dict[str, Any]
    sources: list[tuple[Document, PathKey]] = field(default_factory=list)  # strongest first
    # the layer that wrote each value (mappings merge, so a value is anything else)
    origins: dict[PathKey, Layer] = field(default_factory=dict)
    schema: list[Diagnostic] = field(default_factory=list)  # the chain's schema problems
    broken: list[PathKey] = field(default_factory=list)  # parts set aside for them
    docs: list[Document] = field(default_factory=list)  # the extends chain, most derived first

    def locate(self, path: PathKey) -> Location | None:
        """Where the value at `path` comes from: the file that writes the
        deepest part of it (the strongest one on a tie)."""
        best: Location | None = None
        depth = -1
        for doc, prefix in self.sources:
            key = (*prefix, *path)
            while len(key) > len(prefix) and key not in doc.locations:
                key = key[:-1]
            found = len(key) - len(prefix)
            if found > depth and (found or not path):
                best, depth = doc.locations.get(key, Location(doc.file, 1, 1)), found
        if best is None and self.sources:
            best = self.sources[0][0].locate(())
        return best

    def string_start(self, path: PathKey) -> Location | None:
        for doc, prefix in self.sources:
            if (*prefix, *path) in doc.locations:
                return doc.string_start((*prefix, *path))
        return self.locate(path)

    def writer(self, path: PathKey) -> Document | None:
        """The file that wrote the value at `path` (its references are relative to it)."""
        layer = self.origins.get(path)
        return layer.doc if layer else None

    def origin(self, path: PathKey) -> str:
        """Where a value came from, in words: a file, a file's by_players count, a default."""
        layer = self.origins.get(path)
        return str(layer) if layer else "default"


def _merge(base: dict[str, Any], override: dict[str, Any], origins: dict[PathKey, Layer],
           layer: Layer, path: PathKey = ()) -> dict[str, Any]:
    """`override` over `base`: mappings merge key by key, anything else is
    replaced; `origins` follows which layer wrote each value."""
    out = dict(base)
    for key, value in override.items():
        at = (*path, key)
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value, origins, layer, at)
            continue
        for gone in [p for p in origins if p[: len(at)] == at]:
            del origins[gone]
        out[key] = value
        _record(value, at, origins, layer)
    return out


def _record(value: Any, at: PathKey, origins: dict[PathKey, Layer], layer: Layer) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _record(item, (*at, key), origins, layer)
    else:
        origins[at] = layer


def _chain(name: str) -> tuple[list[tuple[Document, Readable]], list[Diagnostic]]:
    """The documents of `name`'s extends chain, most derived first, each with
    what of it the schema lets the check read, and every schema problem. A
    base is named relative to the file that extends it."""
    docs: list[tuple[Document, Readable]] = []
    problems: list[Diagnostic] = []
    seen: list[str] = []  # the files, whatever path named them
    names: list[str] = []  # as written
    beside: registry.Entry | None = None
    where: Location | None = None
    while True:
        try:
            doc, screened = _read(registry.read("variant", name, beside, where))
        except JonggError as error:
            raise type(error)([*problems, *error.diagnostics]) from None
        problems += screened.diagnostics
        if screened.data is None:
            raise SchemaError(problems)
        docs.append((doc, screened))
        assert doc.source is not None
        seen.append(registry.identity(doc.source))
        names.append(name)
        base = screened.data.get("extends")
        if base is None:
            return docs, problems
        where = doc.locate(("extends",))
        beside = doc.source
        try:
            again = registry.identity(registry.locate("variant", base, beside, where))
        except JonggError as error:
            raise type(error)([*problems, *error.diagnostics]) from None
        if again in seen:
            loop = " -> ".join([*names, base])
            raise SemanticError([*problems, Diagnostic(where, f"extends makes a cycle: {loop}",
                                                       hint="a variant may not extend itself")])
        name = base


# variant files read, by file and text: a variant is resolved at every player count
_READ: dict[tuple[str, str, str], tuple[Document, Readable]] = {}


def _read(found: registry.Text) -> tuple[Document, Readable]:
    """A variant file's document and what of it the schema lets the check read."""
    key = (str(found.entry), found.file, found.text)
    if key not in _READ:
        if len(_READ) > 64:  # a process checking many files keeps only the latest
            _READ.clear()
        doc = found.document()
        _READ[key] = (doc, readable(doc, "variant"))
    return _READ[key]


def _count_key(overrides: dict[Any, Any], players: int) -> str | int | None:
    """The by_players key of a count: YAML reads `3:` as a number, `"3":` as text."""
    for key in (str(players), players):
        if key in overrides:
            return key
    return None


def resolve(name: str, players: int | None = None) -> Resolved:
    """The variant's data with its `extends:` chain applied; with `players`,
    the `by_players` overrides of that count too and every default filled.

    What a file writes beats everything it inherits, at every player count:
    the layers apply base first, each file's top level and then its overrides
    for the count, so a base's per-count values hold only where the variants
    built on it are silent."""
    chain, problems = _chain(name)
    layers: list[Layer] = []
    for doc, screened in reversed(chain):
        own = doc is chain[0][0]
        data = screened.data

        def words(part: dict[str, Any], own: bool = own) -> dict[str, Any]:
            return {k: v for k, v in part.items()
                    if k not in ("extends", "by_players") and (own or k not in PROSE)}

        layers.append(Layer(doc, (), words(data)))
        overrides = data.get("by_players", {})
        key = _count_key(overrides, players) if players is not None else None
        if key is not None:
            layers.append(Layer(doc, ("by_players", key), words(overrides[key])))
    origins: dict[PathKey, Layer] = {}
    merged: dict[str, Any] = {}
    for layer in layers:
        merged = _merge(merged, layer.data, origins, layer)
    if players is None:  # every file's overrides, for display
        shown: dict[str, Any] = {}
        for _, screened in reversed(chain):
            shown = _merge(shown, screened.data.get("by_players", {}), {}, layers[0])
        if shown:
            merged["by_players"] = shown
    else:
        merged = fill_defaults(merged)
    broken = [p[2:] if p[0] == "by_players" else p
              for _, screened in chain for p in screened.removed]
    return Resolved(name, merged, [(layer.doc, layer.prefix) for layer in reversed(layers)],
                    origins, problems, [p for p in broken if p], [doc for doc, _ in chain])

