"""Type-ahead: lines typed at a terminal before the question they would
answer was asked (a discard typed while the bots play). Read at the next
question they would be taken for its answer; the table takes them away
instead, and says so."""

from __future__ import annotations

import os
import select
import sys
from typing import TextIO


def drained(stream: TextIO | None = None) -> str:
    """What was typed at the terminal and not read yet, taken away ('' when
    input is not a terminal: a script's lines are meant in order)."""
    stream = sys.stdin if stream is None else stream
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return ""
    if not os.isatty(fd):
        return ""
    taken = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        taken += chunk
    return taken.decode(errors="replace")


def dropped(text: str) -> str:
    """What the table says of type-ahead it took away."""
    typed = " / ".join(x.strip() for x in text.splitlines() if x.strip())
    return f"not read: {typed!r}, typed before this question was asked; type it again " \
        "if you still mean it"
