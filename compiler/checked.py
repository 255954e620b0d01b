"""Checked cards kept on disk. A card's check (its compiled card and every
warning) is a function of its text, its file's name, the deck it is compiled
against and the code a check runs, so a card checked once is read back the
next time instead of expanded again: `jongg variant check` compiles each card
at every player count's deck, and a rules author runs it after every edit.

Only a card that compiled is kept (a card with errors is rewritten anyway).
The file is JSON, checked as the cache's other files are (jongg.runtime.files);
one that cannot be read or does not match is ignored and written anew.
Keeping is best effort: a cache that cannot be written costs the next check
its time, never its answer.

jongg ships the checks of its own cards and variants (compiler/shipped_cards/,
written by `python -m jongg.compiler.ship_checked`), under the same keys: the
first check after installing reads them instead of expanding. A key covers the
code that made the file, so a shipped file is read only by the code that wrote
it; after any change to that code none matches, and the cards are checked as
if none were shipped (a test says when the shipped files need writing again).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import zlib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jongg.runtime.card_json import card_from, card_json
from jongg.runtime.errors import Diagnostic, Location, Severity
from jongg.runtime.files import read_checked, write_checked

from .keys import card_code_digest, decks_digest
from .places import cache_dir

if TYPE_CHECKING:
    from .card import CardReport
    from .source import Document

FORMAT = "jongg-checked-card"
VERSION = 3
SHIPPED = "shipped_cards"  # the folder of jongg.compiler that holds the shipped checks
read_shipped = True  # off while the shipped checks are written, from fresh checks


def key(doc: Document, deck: str | None) -> str:
    """What a card's check depends on: its text, its file's name, its decks and the code."""
    digest = hashlib.sha256(f"{FORMAT} {VERSION}".encode())
    digest.update(card_code_digest())
    digest.update(f"file={doc.file}\0deck={deck}\0".encode())
    digest.update(doc.text.encode())
    digest.update(decks_digest(doc.text, deck, doc.source))
    return digest.hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / "cards" / f"{key[:32]}.json"


def _diagnostic_json(d: Diagnostic) -> list[Any]:
    where = [d.location.file, d.location.line, d.location.column] if d.location else None
    return [where, d.message, d.severity.value, d.hint]


def _diagnostic_from(data: list[Any]) -> Diagnostic:
    where, message, severity, hint = data
    return Diagnostic(Location(*where) if where else None, message, Severity(severity), hint)


def read(key: str, shipped: bool = True) -> CardReport | None:
    """The report kept under `key` (or, with `shipped`, shipped with jongg), or None."""
    try:
        return _report(key, read_checked(_path(key)))
    except (OSError, ValueError):  # ValueError: Damaged too
        pass  # not kept, or not readable: shipped, or checked again
    if not shipped:
        return None
    try:
        payload = gzip.decompress(_shipped_path(key).read_bytes())
    except (OSError, EOFError, zlib.error):  # not shipped, or damaged (gzip's CRC)
        return None
    return _report(key, payload)


def _shipped_path(key: str) -> Traversable:
    return resources.files(__package__).joinpath(SHIPPED, f"{key[:32]}.json.gz")


def _report(key: str, payload: bytes) -> CardReport | None:
    """The report in a kept file's payload, if it is the one kept under `key`."""
    from .card import CardReport

    try:
        kept = json.loads(payload)
        if kept["key"] != key:
            return None
        report = kept["report"]
        return CardReport(report["file"], card_from(report["card"]),
                          [_diagnostic_from(d) for d in report["diagnostics"]])
    except (ValueError, KeyError, TypeError, IndexError):
        return None  # not readable: checked again


def keep(key: str, report: CardReport) -> None:
    """Keep a report whose card compiled."""
    if report.card is None:
        return
    body = {"file": report.file, "card": card_json(report.card),
            "diagnostics": [_diagnostic_json(d) for d in report.diagnostics]}
    payload = json.dumps({"format": FORMAT, "version": VERSION, "key": key, "report": body},
                         separators=(",", ":"))
    with contextlib.suppress(OSError):  # no cache to be had: the next check costs its time
        write_checked(_path(key), payload.encode())
