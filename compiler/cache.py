"""Compiled matchers, built once and kept in the user's cache directory.

The cache key is a SHA-256 over everything the artifact depends on: the
card's text, the deck files it may name, the grammar, and the source of the
compiler and of the runtime's data model. Change any of them and the key
changes, so a stale artifact is never read; a damaged one (bad checksum) is
rebuilt. The directory is `platformdirs.user_cache_dir("jongg")`, or
JONGG_CACHE_DIR when set (never inside site-packages, which may be read-only).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from pathlib import Path

from jongg.runtime.matching import artifact
from jongg.runtime.matching.matcher import Matcher

from . import registry
from .card import load_card
from .keys import code_digest, decks_digest
from .matcher import build_tables
from .places import cache_dir as cache_dir
from .places import tables_dir as tables_dir
from .source import read_text
from .variant import played


@dataclass(frozen=True, slots=True)
class Compiled:
    """A matcher and how it was obtained."""

    matcher: Matcher
    path: Path
    key: str
    from_cache: bool
    seconds: float  # building or loading
    note: str = ""  # why a cached file was rebuilt


def source_key(card: str, deck: str | None = None, open_hands: bool = False,
               flags: tuple[str, ...] | None = None) -> str:
    """The cache key of a card (shipped name or path) compiled against `deck`,
    with the lines a variant plays (`flags`; None: every line): every shipped
    deck counts, and so does any deck file the card names by path."""
    digest = hashlib.sha256(f"artifact {artifact.VERSION}".encode())
    digest.update(code_digest())
    entry = registry.locate("card", card)
    text = read_text(entry, registry.display_name(entry, "card"))
    digest.update(text.encode())
    digest.update(f"deck={deck} open={open_hands} flags={flags}".encode())
    digest.update(decks_digest(text, deck, entry))
    return digest.hexdigest()


def _file_name(card: str, key: str) -> str:
    stem = re.sub(r"[^\w-]", "_", Path(card).stem if card.endswith((".yaml", ".yml")) else card)
    return f"{stem}-{key[:20]}.npz"


def _build(card: str, deck: str | None, open_hands: bool,
           flags: tuple[str, ...] | None) -> tuple[Matcher, float]:
    start = time.perf_counter()
    compiled_card = load_card(card, deck)
    if flags is not None:
        compiled_card = played(compiled_card, flags)
    built = Matcher(compiled_card, build_tables(compiled_card), open_hands=open_hands)
    return built, time.perf_counter() - start


def compile_to(path: str | Path, card: str, deck: str | None = None, *,
               open_hands: bool = False, key: str = "",
               flags: tuple[str, ...] | None = None) -> Compiled:
    """Compile a card (the lines of `flags` a variant plays) and write its matcher to `path`."""
    built, seconds = _build(card, deck, open_hands, flags)
    artifact.save(path, built.card, built.tables, key=key, open_hands=open_hands)
    return Compiled(built, Path(path), key, False, seconds)


def matcher(card: str, deck: str | None = None, *, open_hands: bool = False,
            flags: tuple[str, ...] | None = None) -> Compiled:
    """The compiled matcher of a card (of the lines a variant plays, by
    `flags`): from the cache when it is there and sound, else built and cached."""
    key = source_key(card, deck, open_hands, flags)
    path = cache_dir() / _file_name(card, key)
    note = ""
    if path.exists():
        start = time.perf_counter()
        try:
            loaded = artifact.load(path, key=key)
            return Compiled(loaded, path, key, True, time.perf_counter() - start)
        except artifact.ArtifactError as error:
            note = f"rebuilt {path} ({error.reason})"
    built, seconds = _build(card, deck, open_hands, flags)
    try:
        artifact.save(path, built.card, built.tables, key=key, open_hands=open_hands)
    except OSError as error:  # no cache to write to: the matcher serves this run only
        note = (f"not cached ({error.strerror or error}: {path.parent}); "
                "set JONGG_CACHE_DIR to a writable folder")
    return Compiled(built, path, key, False, seconds, note)
