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

from jongg.runtime.card import Card
from jongg.runtime.card_json import card_from, card_json
from jongg.runtime.errors import JonggError
from jongg.runtime.matching import store
from jongg.runtime.matching.columns import TABLE_ARRAYS, Tables
from jongg.runtime.matching.matcher import Matcher

FORMAT = "jongg-matcher"
VERSION = 3


class ArtifactError(JonggError, ValueError):
    """A compiled matcher file that cannot be used; the message says why."""

    def __init__(self, path: str | Path, reason: str, advice: str = ""):
        self.reason = reason
        super().__init__(f"{path}: {reason}" + (f"; {advice}" if advice else ""))


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
