"""Finding rulesets: by shipped name, or by a path to a YAML file.

A ruleset names others (a variant its deck, card and base; a card its deck).
A path there is relative to the file that writes it, so a variant and its card
can sit together anywhere; a path given on the command line is relative to
the current directory. Only YAML files are rulesets: any other name is
refused before anything is read, so a reference can never read another kind
of file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from .errors import Diagnostic, LoadError, Location, excerpt, suggested
from .shelf import KINDS as KINDS
from .shelf import root as _root
from .shelf import shipped as shipped
from .source import Document, load_text, read_text

SUFFIXES = (".yaml", ".yml")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")

Entry = Traversable | Path
# A server's rulesets folder: while set, a path names a YAML file inside it
# and nothing else (see `within`).
_WITHIN: ContextVar[Path | None] = ContextVar("rulesets_within", default=None)


@contextmanager
def within(folder: Path) -> Iterator[None]:
    """Resolve names as a server must: a shipped ruleset by its name, or a
    YAML file inside `folder` (a relative path from the file that names it,
    or from `folder`) or among jongg's own rulesets, never a file elsewhere,
    whatever the spelling, a link or `..`. Messages name such files relative
    to `folder`, so they never show where the server keeps them."""
    token = _WITHIN.set(folder.resolve())
    try:
        yield
    finally:
        _WITHIN.reset(token)


def locate(kind: str, name: str, beside: Entry | None = None,
           where: Location | None = None) -> Entry:
    """A ruleset file: `name` is a shipped name (`sample`) or a path to a YAML
    file, relative to the file `beside` that names it (else to the current
    directory). `where` locates a refusal at the reference."""
    if name.endswith(SUFFIXES):
        folder = _WITHIN.get()
        if folder is not None:
            return _inside(folder, kind, name, beside, where)
        path = Path(name)
        if beside is not None and not path.is_absolute():
            if not isinstance(beside, Path):  # a shipped file in an archive
                raise LoadError([Diagnostic(where, f"{excerpt(name)}: a shipped ruleset "
                                            "names others by name")])
            path = beside.parent / path
        if not _is_file(path):
            relative = f" (relative to {beside})" if beside is not None and \
                not Path(name).is_absolute() else ""
            shown = str(path) if len(str(path)) <= 120 else excerpt(str(path), 120)
            raise LoadError([Diagnostic(where, f"{shown}: no such {kind} file{relative}")])
        return path
    if not _NAME.fullmatch(name):
        raise LoadError([Diagnostic(where, f"{excerpt(name)} is not a {kind}: give a shipped "
                                    f"name or a path to a .yaml or .yml file",
                                    hint=_nearest(kind, name.strip().lower(), "shipped"))])
    entry = _root().joinpath(KINDS[kind], f"{name}.yaml")
    if not entry.is_file():
        raise LoadError([Diagnostic(where, f"unknown {kind} {excerpt(name)}",
                                    hint=_nearest(kind, name, "known") + "; or give a path "
                                    "to a .yaml file")])
    return entry


def _nearest(kind: str, name: str, known: str) -> str:
    """The shipped names of a kind, the one a mistyped name most likely meant first."""
    names = shipped(kind)
    return suggested(name, names, f"{known} {KINDS[kind]}: {', '.join(names)}")


def _inside(folder: Path, kind: str, name: str, beside: Entry | None,
            where: Location | None) -> Path:
    """A path named while resolution is kept `within` a folder: the file
    itself (links and `..` followed), refused unless it lies in the folder.
    The refusal says what was written, never what is there."""
    if beside is not None and not isinstance(beside, Path):
        raise LoadError([Diagnostic(where, f"{excerpt(name)}: a shipped ruleset names others "
                                    "by name")])
    start = beside.parent if isinstance(beside, Path) else folder
    shelf = _root()
    roots = [folder, *([shelf.resolve()] if isinstance(shelf, Path) else [])]  # jongg's own too
    try:
        path = (start / name).resolve()
        inside = any(path.is_relative_to(r) for r in roots) and _is_file(path)
    except (OSError, RuntimeError, ValueError):  # too long, a loop of links, a NUL
        inside = False
    if not inside:
        raise LoadError([Diagnostic(where, f"{excerpt(name)}: no such {kind} here: name a "
                                    f"shipped {kind} or a file uploaded to this server",
                                    hint=f"shipped {KINDS[kind]}: {', '.join(shipped(kind))}")])
    return path


def is_shipped(entry: Entry) -> bool:
    root = _root()
    return not isinstance(entry, Path) or (isinstance(root, Path) and entry.parent.parent == root)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, a loop of links
        return False


def display_name(entry: Entry, kind: str) -> str:
    """A short file name for messages: rulesets/cards/sample.yaml or the given path."""
    if is_shipped(entry):
        return f"rulesets/{KINDS[kind]}/{entry.name}"
    folder = _WITHIN.get()
    if folder is not None and isinstance(entry, Path) and entry.is_relative_to(folder):
        return str(entry.relative_to(folder))
    return str(entry)


def reference(entry: Entry) -> str:
    """How to name a located ruleset again, from anywhere in this process: a
    shipped file by its name, any other by its path."""
    if is_shipped(entry):
        return entry.name.removesuffix(".yaml")
    return str(entry)


@dataclass(frozen=True, slots=True)
class Text:
    """A ruleset file's text, and where it was read: enough to know whether it
    was compiled before, without parsing it again."""

    entry: Entry
    file: str  # as messages name it
    text: str

    def document(self) -> Document:
        return load_text(self.text, self.file, self.entry)


def read(kind: str, name: str, beside: Entry | None = None,
         where: Location | None = None) -> Text:
    """A ruleset's text, read from where `locate` finds it."""
    entry = locate(kind, name, beside, where)
    shown = display_name(entry, kind)
    return Text(entry, shown, read_text(entry, shown))


def identity(entry: Entry) -> str:
    """The file itself, however a path names it (`a.yaml`, `sub/../a.yaml`)."""
    return str(entry.resolve()) if isinstance(entry, Path) else str(entry)


def load(kind: str, name: str, beside: Entry | None = None,
         where: Location | None = None) -> Document:
    """A ruleset's document, read from where `locate` finds it."""
    return read(kind, name, beside, where).document()
