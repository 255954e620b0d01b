"""Compiled matcher files: plain data, versioned and checksummed.

A file is a NumPy archive (`.npz`, no pickles) holding the matcher's arrays
beside one JSON document: the format name and version, the cache key it was
built under, the card (deck, lines, variations) and a SHA-256 over all of it.
Loading checks the format, the version and the checksum before trusting a
byte, so a stale or damaged file is refused with a message, never misread.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from jongg.runtime.card import Card, FreeGroup, Line, Slots, Variation
from jongg.runtime.errors import JonggError
from jongg.runtime.matching import store
from jongg.runtime.matching.columns import TABLE_ARRAYS, Tables
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.tiles import Category, Deck, Suit, TileKind

FORMAT = "jongg-matcher"
VERSION = 3


class ArtifactError(JonggError, ValueError):
    """A compiled matcher file that cannot be used; the message says why."""

    def __init__(self, path: str | Path, reason: str, advice: str = ""):
        self.reason = reason
        super().__init__(f"{path}: {reason}" + (f"; {advice}" if advice else ""))


# -- the card as JSON -----------------------------------------------------------------
def _deck_json(deck: Deck) -> dict[str, Any]:
    return {"name": deck.name, "title": deck.title, "sets": deck.sets,
            "suits": [[s.code, s.name, s.ordered] for s in deck.suits],
            "kinds": [[k.code, k.name, k.category.value, k.copies, k.suit, k.number, k.matches,
                       k.zero, k.letter, list(k.tags)] for k in deck.kinds]}


def _deck_from(data: dict[str, Any]) -> Deck:
    kinds = tuple(TileKind(i, code, name, Category(cat), copies, suit, number, matches, zero,
                           letter, tuple(tags))
                  for i, (code, name, cat, copies, suit, number, matches, zero, letter, tags)
                  in enumerate(data["kinds"]))
    suits = tuple(Suit(code, name, ordered) for code, name, ordered in data["suits"])
    return Deck(data["name"], data["title"], kinds, suits, data["sets"])


def card_json(card: Card) -> dict[str, Any]:
    return {
        "name": card.name, "title": card.title, "hand_size": card.hand_size,
        "joker_min_group": card.joker_min_group, "all_joker_groups": card.all_joker_groups,
        "deck": _deck_json(card.deck),
        "lines": [{
            "id": line.id, "section": line.section, "value": line.value,
            "concealed": line.concealed, "pattern": line.pattern, "size": line.size,
            "jokers": line.jokers, "note": line.note, "flags": list(line.flags),
            "clauses": list(line.clauses),
            "variations": [[[list(g.tiles), g.jokers] for g in v.groups]
                           + [[f.kind, f.jokers] for f in v.free] for v in line.variations],
        } for line in card.lines],
    }


def _variation(data: list[list[Any]]) -> Variation:
    groups = tuple(Slots(tuple(a), b) for a, b in data if isinstance(a, list))
    free = tuple(FreeGroup(a, b) for a, b in data if isinstance(a, str))
    return Variation(groups, free)


def card_from(data: dict[str, Any]) -> Card:
    lines = tuple(Line(d["id"], d["section"], d["value"], d["concealed"], d["pattern"],
                       tuple(_variation(v) for v in d["variations"]), d["size"], d["jokers"],
                       d["note"], tuple(d["flags"]), tuple(d["clauses"]))
                  for d in data["lines"])
    return Card(data["name"], data["title"], _deck_from(data["deck"]), data["hand_size"], lines,
                data["joker_min_group"], data["all_joker_groups"])


# -- files ------------------------------------------------------------------------------
def _checksum(meta: bytes, arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256(meta)
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        digest.update(a.tobytes())
    return digest.hexdigest()


def save(path: str | Path, card: Card, tables: Tables, *, key: str = "",
         open_hands: bool = False) -> None:
    """Write a compiled matcher; the file appears whole or not at all."""
    meta = json.dumps({"format": FORMAT, "version": VERSION, "key": key,
                       "open_hands": open_hands, "card": card_json(card)},
                      separators=(",", ":")).encode()
    arrays = tables.arrays()
    header = json.dumps({"format": FORMAT, "version": VERSION, "key": key,
                         "checksum": _checksum(meta, arrays)}).encode()
    buffer = io.BytesIO()
    entries: dict[str, Any] = {"header": np.frombuffer(header, dtype=np.uint8),
                               "meta": np.frombuffer(meta, dtype=np.uint8), **arrays}
    np.savez(buffer, **entries)
    store.write_atomic(path, buffer.getvalue())


_REBUILD = "rebuild it with 'jongg compile'"
_FOREIGN = "not a compiled jongg matcher"


def _read(path: str | Path) -> bytes:
    """The file's bytes, read once (a writer renaming a new file in meanwhile
    cannot mix two versions); only a regular file is read."""
    try:
        return store.regular_file(path).read_bytes()
    except FileNotFoundError:
        raise ArtifactError(path, "no such file") from None
    except store.Damaged:
        raise ArtifactError(path, "not a regular file",
                            "a compiled matcher is a file written by 'jongg compile -o'") from None
    except OSError as error:
        raise ArtifactError(path, str(error.strerror or error)) from None


def _header(path: str | Path, data: bytes) -> dict[str, Any]:
    if not data:
        raise ArtifactError(path, f"an empty file, {_FOREIGN}", _REBUILD)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            header = json.loads(archive["header"].tobytes())
    except Exception:  # whatever the bytes are, they are not a header we wrote
        raise ArtifactError(path, f"{_FOREIGN} (unreadable header)", _REBUILD) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ArtifactError(path, _FOREIGN)
    if header.get("version") != VERSION:
        raise ArtifactError(path, f"written in matcher format {header.get('version')}, "
                            f"this jongg reads format {VERSION}", _REBUILD)
    return header


def read_header(path: str | Path) -> dict[str, Any]:
    """The header alone: format, version, cache key and checksum."""
    return _header(path, _read(path))


def load(path: str | Path, *, key: str | None = None) -> Matcher:
    """Read a compiled matcher, refusing a stale (`key` differs), foreign or
    damaged file with ArtifactError."""
    data = _read(path)
    header = _header(path, data)
    if key is not None and header.get("key") != key:
        raise ArtifactError(path, "built from other sources (stale)", "rebuild it")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            meta_bytes = archive["meta"].tobytes()
            arrays = {name: archive[name] for name in TABLE_ARRAYS}
    except Exception:  # a damaged member: the zip's own checks, or numpy's, refused it
        raise ArtifactError(path, "damaged compiled matcher (missing or unreadable arrays)",
                            _REBUILD) from None
    if _checksum(meta_bytes, arrays) != header.get("checksum"):
        raise ArtifactError(path, "damaged compiled matcher (checksum mismatch)", _REBUILD)
    meta = json.loads(meta_bytes)
    return Matcher(card_from(meta["card"]), Tables(**arrays), open_hands=meta["open_hands"])
