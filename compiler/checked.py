"""Checked cards kept on disk. A card's check (its compiled card and every
warning) is a function of its text, its file's name, the deck it is compiled
against and this jongg's code, so a card checked once is read back the next
time instead of expanded again: `jongg variant check` compiles each card at
every player count's deck, and a rules author runs it after every edit.

Only a card that compiled is kept (a card with errors is rewritten anyway).
The file is JSON with a checksum; one that cannot be read or does not match
is ignored and written anew. Keeping is best effort: a cache that cannot be
written costs the next check its time, never its answer."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jongg.runtime.card_json import card_from, card_json
from jongg.runtime.errors import Diagnostic, Location, Severity

from .keys import code_digest, decks_digest
from .places import cache_dir

if TYPE_CHECKING:
    from .card import CardReport
    from .source import Document

FORMAT = "jongg-checked-card"
VERSION = 1


def _key(doc: Document, deck: str | None) -> str:
    digest = hashlib.sha256(f"{FORMAT} {VERSION}".encode())
    digest.update(code_digest())
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


def read(doc: Document, deck: str | None) -> CardReport | None:
    """The kept report of this card against `deck`, or None."""
    from .card import CardReport

    key = _key(doc, deck)
    try:
        kept = json.loads(_path(key).read_bytes())
        body = json.dumps(kept["report"], separators=(",", ":"))
        if kept["key"] != key or kept["checksum"] != hashlib.sha256(body.encode()).hexdigest():
            return None
        report = kept["report"]
        return CardReport(report["file"], card_from(report["card"]),
                          [_diagnostic_from(d) for d in report["diagnostics"]])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # not kept, or not readable: checked again


def keep(doc: Document, deck: str | None, report: CardReport) -> None:
    """Keep a report whose card compiled."""
    if report.card is None:
        return
    key = _key(doc, deck)
    body = {"file": report.file, "card": card_json(report.card),
            "diagnostics": [_diagnostic_json(d) for d in report.diagnostics]}
    text = json.dumps(body, separators=(",", ":"))
    whole = json.dumps({"format": FORMAT, "version": VERSION, "key": key,
                        "checksum": hashlib.sha256(text.encode()).hexdigest(), "report": body},
                       separators=(",", ":"))
    path = _path(key)
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(whole, encoding="utf-8")
        os.replace(temporary, path)  # whole or not at all
    except OSError:
        with contextlib.suppress(OSError):  # no folder: no file either
            temporary.unlink(missing_ok=True)
