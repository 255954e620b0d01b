"""Digests of what a compiled thing depends on, for the caches' keys: this
jongg's code (the compiler, the runtime's model and matcher, the grammar)
and the decks a card may be compiled against. Change any of them and a key
changes, so nothing stale is ever read back."""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources

from . import registry
from .errors import LoadError

# the modules whose code shapes what is cached
_CODE = {"jongg.compiler": None, "jongg.runtime": None, "jongg.runtime.matching": None,
         "jongg.runtime.game": None, "jongg.grammar": ".lark"}
# what a card's check runs: the compiler, its schemas, the runtime's card
# model and files (not the matcher or the game), the grammar
_CARD_CODE = {"jongg.compiler": None, "jongg.compiler.schemas": ".json", "jongg.runtime": None,
              "jongg.grammar": ".lark"}
_DECK_PATHS = re.compile(r"[\w./-]+\.ya?ml")


def _digest(packages: dict[str, str | None]) -> bytes:
    digest = hashlib.sha256()
    for package, suffix in packages.items():
        folder = resources.files(package)
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(suffix or ".py") and entry.is_file():
                digest.update(entry.name.encode())
                digest.update(entry.read_bytes())
    return digest.digest()


@cache
def code_digest() -> bytes:
    """A SHA-256 over the source of every module that shapes a card or matcher."""
    return _digest(_CODE)


@cache
def card_code_digest() -> bytes:
    """A SHA-256 over the source of what a card's check runs (compiler/checked.py):
    a change to the matcher or the game leaves checked cards, and the ones
    jongg ships, good."""
    return _digest(_CARD_CODE)


def decks_digest(text: str, deck: str | None, beside: registry.Entry | None) -> bytes:
    """A SHA-256 over every shipped deck, any deck file the card's `text`
    names by path (relative to `beside`, the card's file), and `deck`."""
    digest = hashlib.sha256()
    for name in registry.shipped("deck"):
        digest.update(registry.locate("deck", name).read_bytes())
    named = [(n, beside) for n in _DECK_PATHS.findall(text)] + ([(deck, None)] if deck else [])
    for name, near in sorted(named, key=lambda pair: pair[0]):
        try:
            path = registry.locate("deck", name.partition("*")[0], near)
        except LoadError:  # not a deck: compiling the card says so
            continue
        digest.update(path.read_bytes())
    return digest.digest()
