"""`jongg variant show --resolved` as YAML that says where each value came from.

Every value (anything but a mapping, which merges key by key) is followed by
a comment naming the file that wrote it, `nymj.yaml`, the file's overrides for
the player count, `mjcg.yaml by_players 6`, or `default`. The text stays YAML:
it loads to the same data.
"""

from __future__ import annotations

from typing import Any

import yaml

from jongg.api import PathKey, Resolved

ALIGN = 56  # the column comments line up on, when the value is shorter


def _dump(key: str, value: Any) -> list[str]:
    text = yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                          width=1_000_000, default_flow_style=False)
    return text.rstrip("\n").split("\n")


def _rows(resolved: Resolved, value: dict[str, Any], path: PathKey,
          indent: str) -> list[tuple[str, str | None]]:
    rows: list[tuple[str, str | None]] = []
    for key, item in value.items():
        at = (*path, key)
        if isinstance(item, dict) and item:
            rows.append((f"{indent}{key}:", None))
            rows += _rows(resolved, item, at, indent + "  ")
            continue
        lines = [indent + line for line in _dump(key, item)]
        written = resolved.origin(at)
        origin = "default" if written == "default" else f"from {written}"
        if len(lines) == 1 or lines[0].endswith(":"):  # a comment can close the first line
            rows.append((lines[0], origin))
        else:  # a scalar over several lines: the comment goes above it
            rows.append((f"{indent}# {origin}", None))
            rows.append((lines[0], None))
        rows += [(line, None) for line in lines[1:]]
    return rows


def annotated(resolved: Resolved) -> str:
    """The resolved variant as YAML, each value commented with its origin."""
    rows = _rows(resolved, resolved.data, (), "")
    width = max((len(text) for text, origin in rows if origin and len(text) < ALIGN), default=0)
    return "\n".join(f"{text.ljust(width)}  # {origin}" if origin else text
                     for text, origin in rows)
