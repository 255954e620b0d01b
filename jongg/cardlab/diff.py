"""`jongg card diff`: two cards, or a card and an expansion from another
source, compared line by line.

A side is a card (a shipped name or a YAML path) or a JSON file of tile lists:
what `jongg card show --json` prints, or a plain object mapping each line id
to its variations, each a list of tile codes (`{"run-1": [["1B", "1B", ...],
...]}`). Variations compare as the tiles they hold, in any order, so a
transcription checks against a source that groups its tiles differently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jongg.api import Diagnostic, UsageError, counted, read_card
from jongg.runtime.card import Card

Tiles = tuple[str, ...]  # a variation's tile codes, sorted


@dataclass
class LineView:
    """What a diff compares of one line."""

    hand: str | None = None
    value: int | None = None
    concealed: bool | None = None
    variations: dict[Tiles, str] = field(default_factory=dict)  # tiles -> how they are shown


@dataclass
class Side:
    name: str
    lines: dict[str, LineView]


def _card_side(name: str, card: Card) -> Side:
    deck = card.deck
    lines = {}
    for line in card.lines:
        shown = {}
        for v in line.variations:
            groups = [deck.codes(g.tiles) for g in v.groups]
            key = tuple(sorted(t for g in groups for t in g) + [str(f) for f in v.free])
            shown[key] = " | ".join([*(" ".join(g) for g in groups), *map(str, v.free)])
        lines[line.id] = LineView(line.pattern, line.value, line.concealed, shown)
    return Side(name, lines)


def _bad(path: str, where: str, what: str) -> UsageError:
    return UsageError([Diagnostic(None, f"{path}: {where}: {what}",
                                  hint="give what 'jongg card show --json' prints, or "
                                       '{"LINE": [["1B", "1B", ...], ...]}')])


def _tiles(path: str, where: str, value: Any) -> list[str]:
    if isinstance(value, dict) and "tiles" in value:  # a group of 'card show --json'
        value = value["tiles"]
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _bad(path, where, "expected a list of tile codes")
    return value


def _variation(path: str, where: str, value: Any) -> tuple[Tiles, str]:
    if isinstance(value, dict):  # {"groups": [{"tiles": [...]}, ...], "free": [...]}
        groups = value.get("groups")
        if not isinstance(groups, list):
            raise _bad(path, where, "a variation object needs 'groups'")
        tiles = [_tiles(path, f"{where}.groups[{i}]", g) for i, g in enumerate(groups)]
        free = [f"[{f.get('kind')}]" if isinstance(f, dict) else str(f)
                for f in value.get("free") or []]
        shown = " | ".join([*(" ".join(g) for g in tiles), *free])
        return tuple(sorted(t for g in tiles for t in g) + free), shown
    flat = _tiles(path, where, value)
    return tuple(sorted(flat)), " ".join(flat)


def _json_side(path: str) -> Side:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError([Diagnostic(None, f"{path}: no such file")]) from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UsageError([Diagnostic(None, f"{path}: not JSON: {str(error)[:120]}")]) from None
    if isinstance(data, dict) and isinstance(data.get("lines"), list):
        entries = []
        for i, line in enumerate(data["lines"]):
            if not isinstance(line, dict) or not isinstance(line.get("id"), str):
                raise _bad(path, f"$.lines[{i}]", "a line needs an 'id'")
            entries.append((f"$.lines[{i}]", line["id"], line.get("variations"), line))
    elif isinstance(data, dict):
        entries = [(f"$.{key}", key, value, {}) for key, value in data.items()]
    else:
        raise _bad(path, "$", "expected an object")
    lines = {}
    for where, line_id, variations, line in entries:
        if not isinstance(variations, list):
            raise _bad(path, where, "expected the line's variations, a list")
        shown = dict(_variation(path, f"{where}[{k}]", v) for k, v in enumerate(variations))
        hand = line.get("hand") if isinstance(line.get("hand"), str) else None
        value = line.get("value") if isinstance(line.get("value"), int) else None
        concealed = line.get("concealed") if isinstance(line.get("concealed"), bool) else None
        lines[line_id] = LineView(hand, value, concealed, shown)
    return Side(path, lines)


def load_side(name: str) -> Side:
    if name.endswith(".json"):
        return _json_side(name)
    return _card_side(name, read_card(name))


def _changes(old: LineView, new: LineView) -> list[str]:
    out = []
    for what, a, b in (("hand", old.hand, new.hand), ("value", old.value, new.value),
                       ("concealed", old.concealed, new.concealed)):
        if a is not None and b is not None and a != b:
            out.append(f"{what} {a!r} -> {b!r}" if what == "hand" else f"{what} {a} -> {b}")
    return out


def diff_text(old: Side, new: Side, shown: int = 5) -> tuple[str, bool]:
    """The differences as text, and whether there are any."""
    out = [f"--- {old.name}", f"+++ {new.name}"]
    added = [i for i in new.lines if i not in old.lines]
    removed = [i for i in old.lines if i not in new.lines]
    for line_id in added:
        view = new.lines[line_id]
        out.append(f"added: {line_id}" + (f": {view.hand}" if view.hand else "")
                   + f" ({counted(len(view.variations), 'variation')})")
    for line_id in removed:
        view = old.lines[line_id]
        out.append(f"removed: {line_id}" + (f": {view.hand}" if view.hand else "")
                   + f" ({counted(len(view.variations), 'variation')})")
    same = 0
    for line_id in (i for i in old.lines if i in new.lines):
        a, b = old.lines[line_id], new.lines[line_id]
        changes = _changes(a, b)
        gained = [t for t in b.variations if t not in a.variations]
        lost = [t for t in a.variations if t not in b.variations]
        if not (changes or gained or lost):
            same += 1
            continue
        out.append(f"changed: {line_id}" + (f": {'; '.join(changes)}" if changes else ""))
        for word, keys, view in (("gained", gained, b), ("lost", lost, a)):
            if keys:
                out.append(f"  {word} {counted(len(keys), 'variation')}:")
                out += [f"    {view.variations[k]}" for k in keys[:shown]]
                if len(keys) > shown:
                    out.append(f"    ... and {len(keys) - shown} more")
    differ = len(out) > 2
    out.append(f"{counted(same, 'line')} the same, {len(added)} added, {len(removed)} removed, "
               f"{len(old.lines) - same - len(removed)} changed")
    return "\n".join(out), differ
