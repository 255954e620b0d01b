"""YAML loading that remembers where every node came from.

Documents load into plain dicts, lists and scalars (so JSON Schema validation
sees ordinary data) while a side table maps every path to its file, line and
column. Loading is safe: only plain YAML types are built, never Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostic, LoadError, Location

PathKey = tuple[str | int, ...]


@dataclass
class Document:
    """A loaded YAML document: its data and the location of every node."""

    file: str
    data: Any
    text: str
    locations: dict[PathKey, Location] = field(default_factory=dict)
    # where a mapping's key is written (for unknown-key messages)
    key_locations: dict[PathKey, Location] = field(default_factory=dict)
    # the quoting style of scalar strings, so positions inside them are exact
    styles: dict[PathKey, str | None] = field(default_factory=dict)

    def locate(self, path: PathKey | list[str | int]) -> Location:
        """The location of the deepest node of `path` that exists."""
        key = tuple(path)
        while key and key not in self.locations:
            key = key[:-1]
        return self.locations.get(key, Location(self.file, 1, 1))

    def locate_key(self, path: PathKey) -> Location:
        return self.key_locations.get(tuple(path)) or self.locate(path)

    def string_start(self, path: PathKey) -> Location:
        """Where the characters of a scalar string begin (after an opening quote)."""
        loc = self.locate(path)
        style = self.styles.get(tuple(path))
        if style in ("'", '"'):
            return Location(loc.file, loc.line, loc.column + 1)
        if style in ("|", ">"):  # the text starts on the next line, indented
            rows = self.text.splitlines()
            if loc.line < len(rows):
                row = rows[loc.line]
                return Location(loc.file, loc.line + 1, len(row) - len(row.lstrip()) + 1)
        return loc


_PLAIN = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _mark(file: str, node: yaml.Node) -> Location:
    return Location(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _unreadable(text: str, file: str, exc: yaml.reader.ReaderError) -> LoadError:
    """A character YAML does not allow (a control character), at its position."""
    at = exc.position
    line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    return LoadError([Diagnostic(Location(file, line, column),
                                 f"malformed YAML: the character {exc.character:#04x} is not "
                                 "allowed in a YAML file")])


def load_text(text: str, file: str) -> Document:
    doc = Document(file, None, text)
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:
        raise _unreadable(text, file, exc) from None
    try:
        root = loader.get_single_node()
        doc.data = None if root is None else _build(loader, root, (), doc)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file, 1, 1)
        problem = exc.problem or exc.context or "malformed YAML"
        raise LoadError([Diagnostic(loc, f"malformed YAML: {problem}")]) from None
    except yaml.reader.ReaderError as exc:
        raise _unreadable(text, file, exc) from None
    except yaml.YAMLError as exc:
        raise LoadError([Diagnostic(Location(file, 1, 1), f"malformed YAML: {exc}")]) from None
    finally:
        loader.dispose()
    return doc


def load_file(path: str | Path) -> Document:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError([Diagnostic(None, f"{path}: no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError([Diagnostic(None, f"{path}: cannot read: {exc}")]) from None
    return load_text(text, str(path))


def _build(loader: yaml.SafeLoader, node: yaml.Node, path: PathKey, doc: Document) -> Any:
    doc.locations[path] = _mark(doc.file, node)
    if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN:
        raise LoadError([Diagnostic(_mark(doc.file, node),
                                    f"the tag {node.tag!r} is not allowed: plain YAML only")])
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves YAML merge keys (<<)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str | int) or isinstance(key, bool):
                raise LoadError([Diagnostic(_mark(doc.file, key_node),
                                            f"a key must be a string, not {key!r}")])
            if key in result:
                raise LoadError([Diagnostic(_mark(doc.file, key_node),
                                            f"duplicate key {key!r} in this mapping")])
            doc.key_locations[(*path, key)] = _mark(doc.file, key_node)
            result[key] = _build(loader, value_node, (*path, key), doc)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, (*path, i), doc) for i, item in enumerate(node.value)]
    doc.styles[path] = getattr(node, "style", None)
    return loader.construct_object(node, deep=True)
