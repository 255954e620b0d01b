"""YAML loading that remembers where every node came from.

Documents load into plain dicts, lists and scalars (so JSON Schema validation
sees ordinary data) while a side table maps every path to its file, line and
column. Loading is safe: only plain YAML types are built, never Python objects.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostic, LoadError, Location, excerpt

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
    # the file it was read from: the references it makes are relative to it
    source: Traversable | Path | None = None

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
# libyaml's parser where PyYAML was built with it: the same nodes, ten times sooner
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Bounds checked before any node is built: a ruleset is a few hundred values
# deep a dozen levels; a file past these is refused, not ground through.
MAX_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_VALUES = 100_000  # every value of the file, aliases counted as what they expand to
# what YAML refuses to read (PyYAML's test), found first so it can be located
_UNPRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                          "\U00010000-\U0010FFFF]")


def _mark(file: str, node: yaml.Node) -> Location:
    return Location(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _at(file: str, mark: Any) -> Location:
    """The location of a PyYAML mark (None: the file's start)."""
    return Location(file, mark.line + 1, mark.column + 1) if mark else Location(file, 1, 1)


def _offset(text: str, index: int, file: str) -> Location:
    line = text.count("\n", 0, index) + 1
    return Location(file, line, index - (text.rfind("\n", 0, index) + 1) + 1)


def _screen(text: str, file: str, reader: Any) -> None:
    """Refuse, before building anything, what YAML cannot read and what would
    take unbounded work: control characters, deep nesting, alias bombs (a few
    anchors that expand to millions of values) and aliases inside their anchor."""
    bad = _UNPRINTABLE.search(text)
    if bad:
        raise LoadError([Diagnostic(_offset(text, bad.start(), file),
                                    f"control character U+{ord(bad.group()):04X} is not "
                                    "allowed in YAML", hint="remove it; a ruleset is text")])
    sizes: dict[str, int] = {}  # anchor -> the values it stands for
    reading: set[str] = set()  # anchors of the collections being read
    open_: list[tuple[str | None, int]] = []  # the collections being read: anchor, values
    total = 0
    for event in yaml.parse(text, Loader=reader):
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in reading:
                raise LoadError([Diagnostic(_at(file, event.start_mark),
                                            f"the alias *{excerpt(event.anchor)} is used inside "
                                            "the value it names: it would never end")])
            count = sizes.get(event.anchor or "", 1)  # an unknown one: composing says so
        elif isinstance(event, yaml.ScalarEvent):
            count = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= MAX_DEPTH:
                raise LoadError([Diagnostic(_at(file, event.start_mark),
                                            f"nested more than {MAX_DEPTH} levels deep",
                                            hint="a ruleset needs a dozen at most")])
            open_.append((event.anchor, 1))
            if event.anchor:
                reading.add(event.anchor)
            count = 1
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, inner = open_.pop()
            if anchor:
                sizes[anchor] = inner
                reading.discard(anchor)
            if open_:
                open_[-1] = (open_[-1][0], open_[-1][1] + inner)
            continue
        else:
            continue
        total += count
        if open_:
            open_[-1] = (open_[-1][0], open_[-1][1] + count)
        if total > MAX_VALUES:
            raise LoadError([Diagnostic(_at(file, event.start_mark),
                                        f"this file expands to more than {MAX_VALUES:,} values "
                                        "(aliases count as what they repeat)",
                                        hint="a ruleset needs a few hundred")])


_ESCAPE = re.compile(r"\\U([0-9A-Fa-f]{8})")


def _bad_escape(text: str, file: str) -> Diagnostic:
    """Where a double-quoted "\\U" escape names a code point past Unicode's last."""
    for found in _ESCAPE.finditer(text):
        if int(found.group(1), 16) > sys.maxunicode:
            return Diagnostic(_offset(text, found.start(), file),
                              f"malformed YAML: the escape \"{found.group()}\" is past the last "
                              f"Unicode character (\\U{sys.maxunicode:08X})",
                              hint="write the character itself, or a smaller code")
    return Diagnostic(Location(file, 1, 1), "malformed YAML: an escape names no character")


def load_text(text: str, file: str, source: Traversable | Path | None = None) -> Document:
    try:
        return _load(text, file, source, _LOADER)
    except LoadError:
        if _LOADER is yaml.SafeLoader:
            raise
    # libyaml words some mistakes less well, and places a refusal where its
    # events are built: the Python reader says the same again, exactly
    return _load(text, file, source, yaml.SafeLoader)


def _load(text: str, file: str, source: Traversable | Path | None, reader: Any) -> Document:
    doc = Document(file, None, text, source=source)
    loader: Any = None
    try:
        _screen(text, file, reader)
        loader = reader(text)
        root = loader.get_single_node()
        doc.data = None if root is None else _Builder(loader, doc).build(root, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        raise LoadError([Diagnostic(_at(file, mark), f"malformed YAML: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise LoadError([Diagnostic(Location(file, 1, 1),
                                    f"malformed YAML: {excerpt(str(exc), 200)}")]) from None
    except (ValueError, OverflowError):  # a "\U" escape: the readers chr() it unchecked
        raise LoadError([_bad_escape(text, file)]) from None
    finally:
        if loader is not None:
            loader.dispose()
    return doc


def read_text(entry: Traversable | Path, file: str) -> str:
    """A ruleset file's text, or a LoadError saying why it cannot be read: a
    missing file, one too large to be a ruleset, bytes that are not UTF-8
    (located at the first bad byte)."""
    try:
        if not entry.is_file():
            raise LoadError([Diagnostic(None, f"{file}: no such file" if not
                                        (isinstance(entry, Path) and entry.exists())
                                        else f"{file}: not a file")])
        with entry.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise LoadError([Diagnostic(None, f"{file}: cannot read: {exc.strerror or exc}")]) \
            from None
    if len(raw) > MAX_BYTES:
        raise LoadError([Diagnostic(None, f"{file}: more than {MAX_BYTES // 1024} KiB: too "
                                    "large for a ruleset")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        raise LoadError([Diagnostic(_offset(good, len(good), file),
                                    f"not UTF-8 text: the byte 0x{raw[exc.start]:02X} cannot "
                                    "be read", hint="save the file as UTF-8")]) from None


def load_file(path: str | Path) -> Document:
    path = Path(path)
    return load_text(read_text(path, str(path)), str(path), path)


_MERGE = "tag:yaml.org,2002:merge"  # the key `<<`
_VALUE = "tag:yaml.org,2002:value"  # the key `=`, an ordinary string here as in PyYAML

Pair = tuple[Any, yaml.Node, yaml.Node]  # a key, its node, its value's node


class _Builder:
    """One document's nodes built into plain data, each path located."""

    def __init__(self, loader: Any, doc: Document):
        self.loader = loader
        self.doc = doc
        self.pairs: dict[int, dict[Any, Pair]] = {}  # a mapping node's pairs, merges applied

    def refuse(self, node: yaml.Node, message: str) -> LoadError:
        return LoadError([Diagnostic(_mark(self.doc.file, node), message)])

    def key(self, node: yaml.Node) -> Any:
        key = node.value if node.tag == _VALUE else self.loader.construct_object(node, deep=True)
        if not isinstance(key, str | int) or isinstance(key, bool):
            raise self.refuse(node, f"a key must be a string, not {excerpt(key)}")
        return key

    def merged(self, node: yaml.MappingNode) -> dict[Any, Pair]:
        """A mapping's pairs as YAML's merge key makes them: a key the mapping
        writes beats the same key merged in (`<<: *base` then `x: 9`), and of
        the mappings a `<<: [*a, *b]` list merges, an earlier one beats a later
        one. A key written twice in one mapping is still a duplicate. Merged
        keys come first, in the order they are merged."""
        if id(node) in self.pairs:  # an anchor merged again
            return self.pairs[id(node)]
        own: dict[Any, Pair] = {}
        sources: list[yaml.Node] | None = None  # what `<<` merges, once it is read
        for key_node, value_node in node.value:
            merge = key_node.tag == _MERGE
            key = key_node.value if merge else self.key(key_node)
            if (sources is not None) if merge else (key in own):
                raise self.refuse(key_node, f"duplicate key {excerpt(key)} in this mapping")
            if not merge:
                own[key] = (key, key_node, value_node)
            else:
                sources = value_node.value if isinstance(value_node, yaml.SequenceNode) \
                    else [value_node]
        pairs: dict[Any, Pair] = {}
        for source in sources or ():
            if not isinstance(source, yaml.MappingNode):
                raise self.refuse(source, "malformed YAML: a merge (<<) takes a mapping or a "
                                  "list of mappings")
            for key, pair in self.merged(source).items():
                pairs.setdefault(key, pair)
        pairs.update(own)
        self.pairs[id(node)] = pairs
        return pairs

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        doc = self.doc
        doc.locations[path] = _mark(doc.file, node)
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN:
            raise self.refuse(node, f"the tag {excerpt(node.tag)} is not allowed: plain YAML only")
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key, key_node, value_node in self.merged(node).values():
                doc.key_locations[(*path, key)] = _mark(doc.file, key_node)
                result[key] = self.build(value_node, (*path, key))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        doc.styles[path] = getattr(node, "style", None)
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError) as exc:  # a number of 5000 digits, the 45th of May
            raise self.refuse(node, f"cannot read the value {excerpt(node.value)}: "
                              f"{excerpt(str(exc), 60)}") from None
