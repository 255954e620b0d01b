"""The rulesets that ship with jongg, by kind: only names, read from the
package's folders without parsing a file (the command line lists them in its
help, which must answer at once)."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

KINDS = {"card": "cards", "deck": "decks", "variant": "variants"}


def root() -> Traversable:
    return resources.files("jongg.rulesets")


def shipped(kind: str) -> list[str]:
    """Names of the rulesets of one kind that ship with jongg."""
    folder = root().joinpath(KINDS[kind])
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))
