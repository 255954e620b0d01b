"""The web table: `jongg serve`, any compiled variant in the browser.

    command.py   `jongg serve` on the command line (says how to install the extra)
    server.py    the ASGI application: pages, the JSON API, one WebSocket a seat
    hall.py      the server's tables: opened, found, taken up from the data folder
    tables.py    a live table: its State, its seats (people and bots), its log, its sockets
    store.py     the data folder: each table's log and its seats file, never replaced
    protocol.py  the messages: what each seat is sent (its own view only), what it may send
    replays.py   a saved game stepped through from its log, from a seat or all hands open
    look.py      how tiles, the card and the hand are shown (plain data for the page)
    static/      the page: HTML, CSS and a little JavaScript, no build step

Each seat's socket is sent only what that seat may see: its observation,
the events as it may be told them and its own legal actions.
"""

from __future__ import annotations

NEEDS = ("starlette", "uvicorn", "websockets")
INSTALL = "pip install 'jongg[web]'"
PACE = 0.4  # seconds before each bot move people watch (a brisk table)


def missing() -> list[str]:
    """The web extra's packages this Python lacks."""
    from importlib.util import find_spec

    return [name for name in NEEDS if find_spec(name) is None]
