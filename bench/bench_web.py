"""The web table under load: many tables at once, people's seats played over
WebSockets by clients in this process, the other seats by the server's bots.

Run: python bench/bench_web.py [--variant nymj] [--tables 24] [--people 2]
                               [--bots random] [--seconds 20] [--think 0]

Starts `jongg serve --pace 0` on a free port of this machine (127.0.0.1
only), opens the tables, joins each person's seat through its own socket
and plays it with random legal choices until every match ends or the time
is up (the run stops by itself). With `--think S` a person takes a while
to choose, as people do: each move waits a random 0.5 S to 1.5 S after its
update (0, the default, answers at once: the server saturated). Prints
the decisions per second at all tables (people's and bots'), the moves
per second the clients sent, and the latency of a move: from sending an action to its seat's update,
median and 99th percentile. For scale, the same variant's matches are
played in this process without the server, with random agents in every
seat (what the server's game engine alone does per second), and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


async def seat(url: str, token: str, rng: random.Random, until: float,
               latencies: list[float], think: float = 0.0) -> int:
    """Play one seat with random legal choices; the moves it made."""
    import websockets

    moves = 0
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] in ("update", "refused") and sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["type"] != "update":
                continue
            if message["over"]:
                break
            if message["legal"] and sent_at is None:
                legal = message["legal"]
                choice = "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal)
                if think:  # the table waits on this seat meanwhile
                    await asyncio.sleep(think * (0.5 + rng.random()))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice}))
                moves += 1
    return moves


def decisions(base: str, ids: set[str]) -> int:
    return sum(t["decisions"] or 0 for t in api(base, "/api/tables")["tables"] if t["id"] in ids)


async def load(base: str, tables: list[dict[str, Any]], seconds: float, think: float
               ) -> tuple[int, list[float], float]:
    rng = random.Random(1)
    latencies: list[float] = []
    ws_base = base.replace("http://", "ws://")
    start = time.monotonic()
    until = start + seconds
    jobs = [seat(f"{ws_base}/ws/{t['id']}", link["url"].split("#")[1],
                 random.Random(rng.random()), until, latencies, think)
            for t in tables for link in t["links"]]
    moves = sum(await asyncio.gather(*jobs))
    return moves, latencies, time.monotonic() - start


def in_process(variant: str, players: int, seconds: float = 5.0) -> float:
    """Decisions per second of random-agent matches without the server."""
    game = load_game(variant, players)
    made = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        record, _ = play_match(game, seed, ["random"])
        made += record.decisions
        seed += 1
    return made / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--people", type=int, default=2, help="seats a table played over "
                        "sockets (the rest are the server's bots)")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="a person's mean seconds to choose (0: at once)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "jongg", "serve", "--port", "0",
                                   "--data", data, "--pace", "0",
                                   "--most-per-address", str(max(20, args.tables))],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            base = server.stdout.readline().split()[2].rstrip("/")
            seats = ["human"] * args.people + [args.bots] * (args.players - args.people)
            # a seeded table seats one person at most (the seed tells every hand)
            seeded = args.people <= 1
            tables = [api(base, "/api/tables", {"variant": args.variant, "players": args.players,
                                                "seats": seats, **({"seed": n} if seeded else {})})
                      for n in range(args.tables)]
            ids = {t["id"] for t in tables}
            before = decisions(base, ids)
            moves, latencies, spent = asyncio.run(load(base, tables, args.seconds, args.think))
            made = decisions(base, ids) - before
        finally:
            server.terminate()
            server.wait(timeout=30)
    engine = in_process(args.variant, args.players)
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
    print(f"{args.variant}, {args.players} players: {args.tables} tables at once, "
          f"{args.people} seat(s) each over WebSockets ({args.tables * args.people} sockets), "
          f"the rest {args.bots} bots; {spent:.1f} s; a person thinks "
          f"{args.think:g} s a move on average")
    print(f"decisions at all tables: {made} ({made / spent:,.0f}/s); moves sent over "
          f"sockets: {moves} ({moves / spent:,.0f}/s)")
    print(f"latency of a move (sent -> its seat's update): median "
          f"{statistics.median(ms):.1f} ms, 99th percentile {p99:.1f} ms")
    print(f"the engine alone, random agents in this process: {engine:,.0f} decisions/s; "
          f"the server plays {made / spent / engine:.0%} of that")


if __name__ == "__main__":
    main()
