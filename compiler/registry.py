"""Finding rulesets by name (shipped with the package) or by path."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .errors import Diagnostic, LoadError

KINDS = {"card": "cards", "deck": "decks", "variant": "variants"}


def shipped(kind: str) -> list[str]:
    """Names of the rulesets of one kind that ship with jongg."""
    folder = resources.files("jongg.rulesets").joinpath(KINDS[kind])
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def locate(kind: str, name: str) -> Traversable | Path:
    """A ruleset file: `name` is a shipped name (`sample`) or a path to a YAML file."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.is_file():
            raise LoadError([Diagnostic(None, f"{name}: no such {kind} file")])
        return path
    entry = resources.files("jongg.rulesets").joinpath(KINDS[kind], f"{name}.yaml")
    if not entry.is_file():
        known = ", ".join(shipped(kind))
        raise LoadError([Diagnostic(None, f"unknown {kind} {name!r}",
                                    hint=f"known {KINDS[kind]}: {known}; or give a path")])
    return entry


def display_name(entry: Traversable | Path, kind: str) -> str:
    """A short file name for messages: rulesets/cards/sample.yaml or the given path."""
    if isinstance(entry, Path):
        return str(entry)
    return f"rulesets/{KINDS[kind]}/{entry.name}"
