"""Helpers for the web table's tests: an app over a fresh data folder, run
in-process (Starlette's TestClient), its tables opened and its seats'
sockets joined."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient  # the web extra: the test extras install it

from jongg.web.hall import Hall
from jongg.web.server import application
from jongg.web.store import Store

BASE = "http://127.0.0.1"


_HALLS: dict[int, Hall] = {}  # the hall behind each client served


@contextmanager
def served(data: Path, *, pace: float = 0.0) -> Iterator[tuple[TestClient, Hall]]:
    hall = Hall(Store(data), pace=pace)
    hall.resume_all()
    with TestClient(application(hall), base_url=BASE) as client:
        _HALLS[id(client)] = hall
        try:
            yield client, hall
        finally:
            del _HALLS[id(client)]


def open_table(client: TestClient, variant: str, seats: Sequence[str], *, seed: int = 1,
               players: int | None = None, strict: bool = False) -> dict[str, Any]:
    """A table opened through the API with the seed asked for; a table of
    several people takes a secret key instead (a seed seats one person), which
    the test fixes from `seed` so the table plays the same every run."""
    body: dict[str, Any] = {"variant": variant, "seats": list(seats), "seed": seed,
                            "strict": strict}
    if list(seats).count("human") > 1:
        del body["seed"]
        _HALLS[id(client)].keys = lambda n: hashlib.sha256(f"test key {seed}".encode()
                                                           ).digest()[:n]
    if players is not None:
        body["players"] = players
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def token(link: dict[str, Any]) -> str:
    return str(link["url"]).split("#", 1)[1]


@contextmanager
def seats(client: TestClient, made: dict[str, Any]) -> Iterator[dict[int, Any]]:
    """Every person's seat joined: its socket, past the welcome and the first update."""
    with ExitStack() as stack:
        joined = {}
        for link in made["links"]:
            ws = stack.enter_context(client.websocket_connect(f"ws://127.0.0.1/ws/{made['id']}"))
            ws.send_text(json.dumps({"type": "hello", "token": token(link)}))
            assert ws.receive_json()["type"] == "welcome"
            joined[link["seat"]] = ws
        yield joined


def shared_table(state: Any, people: tuple[int, ...], tmp_path: Path,
                 timers: Any = None) -> Any:
    """A table on this state, without a server: people in `people`, greedy
    bots elsewhere (drive it inside an event loop for its bots and timers)."""
    from jongg.runtime.agents.bots import GreedyAgent
    from jongg.runtime.game.log import Header, LogWriter
    from jongg.web.tables import SharedTable
    from jongg.web.timers import Timers

    spec = state.spec
    names = tuple("human" if s in people else "greedy" for s in range(spec.players))
    writer = LogWriter(tmp_path / "t.jsonl", Header(spec.variant, spec.players, 0, state.mode,
                                                    spec.digest, names))
    agents = {s: GreedyAgent(0, s) for s in range(spec.players) if s not in people}
    from .rig import game

    return SharedTable("t", game(spec.variant), state, writer, names,
                       {s: f"hash{s}" for s in people}, agents, timers=timers or Timers())
