"""The web table's ASGI application (Starlette) and its server (uvicorn).

Pages: `/` (open a table, upload a variant or a card, the tables here),
`/table/ID#TOKEN` (one seat's table: the token stays in the page, after
the '#', so it is never sent in a request line or logged), `/replay/ID`
(a saved game, step by step). The JSON API under `/api/` serves them, and
each seat plays over one WebSocket, `/ws/ID`, whose first message is its
token (jongg/web/protocol.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from jongg.api import JonggError, check_card, check_variant, load_ruleset
from jongg.runtime.game.log import LogError, parse_log
from jongg.runtime.tiles import TileError

from . import frames, protocol
from .hall import Hall, Refused
from .replays import Replayer
from .short import quiet_when_short_of_files
from .store import StoreError, same_token
from .tables import Watcher, log
from .timers import Timers
from .work import Busy, Worker

STATIC = resources.files("jongg.web") / "static"
LARGEST_BODY = 4 * 1024 * 1024  # bytes of a request: an uploaded log or ruleset
LARGEST_FRAME = 64 * 1024  # bytes of a socket's message (a seat sends a few dozen)
HELLO_WITHIN = 30.0  # seconds a socket may wait before saying which seat it is
KEPT_REPLAYS = 32  # uploaded logs kept open for replay at once
TOKEN_HEADER = "x-jongg-token"
POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


class Problem(Exception):
    """An API request refused: its HTTP status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        with resources.as_file(STATIC / name) as path:
            return FileResponse(path, media_type="text/html")
    return serve


class Web:
    """The application's handlers, around one Hall."""

    def __init__(self, hall: Hall, work: Worker):
        self.hall = hall
        self.work = work
        self.replays: dict[str, Replayer] = {}

    # -- the JSON API ----------------------------------------------------------------
    async def body(self, request: Request) -> Any:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise Problem(415, "send JSON (Content-Type: application/json)")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > LARGEST_BODY:
                raise Problem(413, f"a request larger than {LARGEST_BODY // 1024} KiB")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise Problem(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise Problem(400, "the request must be a JSON object")
        return data

    async def variants(self, request: Request) -> Response:
        cards = [p.name for p in self.hall.store.uploaded() if _kind(p) == "card"]
        return JSONResponse({"variants": await self.work.run(self.hall.variants),
                             "agents": self.hall.agents, "cards": cards})

    async def tables(self, request: Request) -> Response:
        return JSONResponse({"tables": self.hall.listing()})

    async def open_table(self, request: Request) -> Response:
        data = await self.body(request)
        variant, seats = data.get("variant"), data.get("seats")
        players, seed = data.get("players"), data.get("seed")
        card, strict = data.get("card") or None, data.get("strict", False)
        if not isinstance(variant, str) or not variant:
            raise Problem(400, "name a \"variant\"")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise Problem(400, "\"seats\": a list, by seat, of \"human\" or an agent's name")
        if players is not None and type(players) is not int:
            raise Problem(400, "\"players\" must be a whole number")
        if seed is not None and type(seed) is not int:
            raise Problem(400, "\"seed\" must be a whole number")
        if card is not None and not isinstance(card, str):
            raise Problem(400, "\"card\" must be an uploaded card's file name")
        try:
            timers = Timers.read(data.get("timers"))
        except ValueError as error:
            raise Problem(400, str(error)) from None
        hall, client = self.hall, _client(request)
        try:
            hall.may_open(client)  # before the work, as after it
            prepared = await self.work.run(lambda: hall.prepare(variant, players, card))
            table, tokens = hall.open(variant, players, seats, seed=seed,
                                      strict=strict is True, client=client, prepared=prepared,
                                      timers=timers)
        except (Refused, StoreError) as error:
            raise Problem(400, str(error)) from None
        table.wake()
        table.rest()
        links = [{"seat": s, "name": table.spec.seats[s], "url": f"/table/{table.id}#{t}"}
                 for s, t in sorted(tokens.items())]
        seeded = not hall.saved[table.id].header.key
        return JSONResponse({"id": table.id, "seeded": seeded,
                             "seed": table.state.seed if seeded else None, "links": links},
                            status_code=201)

    async def upload(self, request: Request) -> Response:
        data = await self.body(request)
        name, text = data.get("name"), data.get("text")
        if not isinstance(name, str) or not isinstance(text, str):
            raise Problem(400, "send {\"name\": \"house.yaml\", \"text\": \"...\"}")
        store, names = self.hall.store, self.hall.names

        def save_and_check() -> tuple[Path, str, list[str]]:
            path = store.save_ruleset(name, text)  # its references read: off the loop too
            kind = _kind(path)
            with names.within():
                try:
                    if kind == "variant":
                        return path, kind, [str(d) for d in check_variant(str(path))
                                            if d.is_error]
                    if kind == "card":
                        return path, kind, [str(d) for d in
                                            check_card(load_ruleset("card", str(path))).errors]
                except JonggError as error:
                    return path, kind, [str(d) for d in error.diagnostics]
            return path, kind, [f"{name}: neither a variant (variant: NAME) nor a card "
                                "(card: NAME)"]

        try:
            path, kind, problems = await self.work.run(save_and_check)
        except StoreError as error:
            raise Problem(400, str(error)) from None
        return JSONResponse({"name": path.name, "kind": kind,
                             "problems": [store.quiet(p) for p in problems[:50]]})

    # -- replays -------------------------------------------------------------------
    async def replayer(self, request: Request, table_id: str) -> tuple[Replayer, bool]:
        """A table's replay (or an uploaded log's), and whether it may be seen
        from every seat: a saved table's only once its match is over."""
        if table_id in self.replays:
            return self.replays[table_id], True
        hall = self.hall
        if table_id not in hall.saved:
            raise Problem(404, f"no table {table_id[:40]!r} here")
        over = hall.finished(table_id)

        def replay() -> Replayer:
            log = hall.log_of(table_id)
            return Replayer(hall.game(log.header.variant, log.header.players), log)

        try:
            replayer = await self.work.run(replay)
        except (LogError, JonggError) as error:
            raise Problem(400, f"cannot replay table {table_id}: "
                               f"{hall.store.quiet(str(error))}") from None
        if over:
            self.keep(table_id, replayer)
        return replayer, over

    async def replay_frame(self, request: Request) -> Response:
        """?view=all (every hand open), a seat from 1, or mine (the seat of the
        token sent in the X-Jongg-Token header); ?step=N decisions."""
        table_id = request.path_params["table"]
        view = request.query_params.get("view", "all")
        step = request.query_params.get("step", "0")
        if not step.isdigit() or len(step) > 9:
            raise Problem(400, f"step: a whole number of decisions, not {step[:20]!r}")
        replayer, open_to_all = await self.replayer(request, table_id)
        players = replayer.header.players
        seat: int | None = None
        if view == "mine" or not open_to_all:
            token = request.headers.get(TOKEN_HEADER, "")
            hashes = self.hall.store.seats(table_id).hashes if table_id in self.hall.saved \
                else {}
            seat = next((s for s, h in hashes.items() if token and same_token(token, h)), None)
            if seat is None or view not in ("mine", str(seat + 1)):
                raise Problem(403, "this table's match is not over: it replays only from "
                                   "your own seat, with your seat's link")
        elif view != "all":
            if not view.isdigit() or not 1 <= int(view) <= players:
                raise Problem(400, f"view: 'all', 'mine' or a seat from 1 to {players}")
            seat = int(view) - 1
        return JSONResponse({**replayer.frame(int(step), seat),
                             **replayer.summary(self.hall.names.shown, reveal=open_to_all),
                             **_static(replayer)})

    async def upload_log(self, request: Request) -> Response:
        data = await self.body(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise Problem(400, "send {\"text\": \"the log's lines\"}")
        name = str(data.get("name") or "log")[:60]
        hall = self.hall

        def replay() -> Replayer:
            log = parse_log(name, text.encode())
            try:  # the log's variant as any request's: shipped, or uploaded here
                game = hall.game(log.header.variant, log.header.players)
            except JonggError as error:
                first = error.diagnostics[0].message if error.diagnostics else str(error)
                raise LogError(f"{name}:1: the log's variant cannot be played here: "
                               f"{hall.store.quiet(first)}") from None
            return Replayer(game, log)

        try:
            replayer = await self.work.run(replay)
        except LogError as error:
            raise Problem(400, str(error)) from None
        replay_id = "u" + secrets.token_hex(6)
        self.keep(replay_id, replayer)
        return JSONResponse({"id": replay_id, **replayer.summary(hall.names.shown)},
                            status_code=201)

    def keep(self, replay_id: str, replayer: Replayer) -> None:
        self.replays[replay_id] = replayer
        while len(self.replays) > KEPT_REPLAYS:
            self.replays.pop(next(iter(self.replays)))

    # -- one seat's socket ------------------------------------------------------------
    async def play(self, ws: WebSocket) -> None:
        await ws.accept()
        table = self.hall.tables.get(ws.path_params["table"])
        if table is None:
            table_id = ws.path_params["table"]
            why = f"the match at table {table_id} is over: replay it at /replay/{table_id}" \
                if self.hall.finished(table_id) else f"no table {table_id[:40]!r} here"
            await _close(ws, protocol.error("unknown-table", why), 4404)
            return
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        pump = asyncio.get_running_loop().create_task(_pump(ws, queue))
        watcher: Watcher | None = None
        try:
            while True:
                try:
                    async with asyncio.timeout(HELLO_WITHIN if watcher is None else None):
                        message = await ws.receive()
                except TimeoutError:
                    await _close(ws, protocol.error("no-hello", "say which seat you are: send "
                                                    "{\"type\": \"hello\", \"token\": ...}"),
                                 4408)
                    return
                if message["type"] == "websocket.disconnect":
                    return
                try:
                    said = protocol.read(message.get("text") or message.get("bytes") or b"")
                except protocol.ProtocolError as error:
                    queue.put_nowait(protocol.error(error.code, str(error)))
                    continue
                if watcher is None:
                    if said.type != "hello":
                        queue.put_nowait(protocol.error("hello-first", "send hello with your "
                                                        "seat's token first"))
                        continue
                    seat = table.seat_of(said.token)
                    if seat is None:
                        await queue.join()
                        await _close(ws, protocol.error(
                            "wrong-token", "this link's token opens no seat at this table "
                            "(ask for the link again)"), 4403)
                        return
                    watcher = Watcher(seat, queue.put_nowait)
                    table.join(watcher, said.since)
                elif said.type == "act":
                    refusal = table.act(watcher.seat, said.action)
                    if refusal is not None:
                        queue.put_nowait(protocol.refused(said.action, refusal))
                elif said.type == "hint":
                    queue.put_nowait(table.hints(watcher.seat))
                elif said.type == "rematch":
                    try:
                        again, tokens = self.hall.rematch(table, _client(ws))
                    except (Refused, StoreError) as error:
                        queue.put_nowait(protocol.refused("rematch", str(error)))
                        continue
                    token = tokens.get(watcher.seat)  # its own seat's link, to it alone
                    queue.put_nowait({"type": "rematch", "table": again,
                                      "url": f"/table/{again}#{token}" if token else None})
                elif said.type == "next":
                    refusal = table.next_round(watcher.seat)
                    if refusal is not None:
                        queue.put_nowait(protocol.refused("next", refusal))
                else:
                    queue.put_nowait(protocol.error("already", "this socket has its seat"))
        except WebSocketDisconnect:
            return
        finally:
            if watcher is not None:
                table.leave(watcher)
            pump.cancel()


async def _pump(ws: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Send a socket's messages in order; a socket gone ends it."""
    while True:
        message = await queue.get()
        try:
            await ws.send_text(json.dumps(message, separators=(",", ":")))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            queue.task_done()


async def _close(ws: WebSocket, message: dict[str, Any], code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        if ws.application_state is WebSocketState.CONNECTED:
            await ws.send_text(json.dumps(message))
            await ws.close(code)


def _client(request: HTTPConnection) -> str:
    """The address a request came from (tables are counted by it)."""
    return request.client.host if request.client is not None else ""


def _kind(path: Path) -> str:
    """Whether an uploaded file is a variant or a card (by its top key)."""
    try:
        head = path.read_text()[:4000]
    except OSError:
        return ""
    for line in head.splitlines():
        key = line.split(":", 1)[0].strip()
        if key in ("variant", "card") and not line.startswith((" ", "#")):
            return key
    return ""


def _static(replayer: Replayer) -> dict[str, Any]:
    from . import look

    spec = replayer.game.spec
    return {"title": spec.title, "seats": list(spec.seats), "racks": spec.racks,
            "words": dict(spec.words), "tiles": look.tiles(spec.deck)}


class Headers:
    """Security headers on every response: the page loads only its own
    files, and no other site may frame it."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Any) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"],
                                      (b"content-security-policy", POLICY.encode()),
                                      (b"x-content-type-options", b"nosniff"),
                                      (b"referrer-policy", b"no-referrer")]
            await send(message)

        await self.app(scope, receive, headed)


def application(hall: Hall, *, local: bool = True, work: Worker | None = None) -> Starlette:
    """The app around a hall. `local`: bound to this machine, so only
    requests naming it by a local name are answered (no DNS rebinding)."""
    work = work or Worker()
    web = Web(hall, work)

    def api(handler: Callable[[Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except Problem as problem:
                return JSONResponse({"error": str(problem)}, status_code=problem.status)
            except TileError as error:
                return JSONResponse({"error": str(error)}, status_code=400)
            except Busy as error:
                return JSONResponse({"error": str(error)}, status_code=503,
                                    headers={"Retry-After": "5"})
            except OSError as error:  # the machine short of files or room: said, not a 500
                log.warning("%s %s: %s", request.method, request.url.path,
                            error.strerror or error)
                return JSONResponse({"error": "the server cannot do that now ("
                                     f"{error.strerror or 'a system error'}); try again later"},
                                    status_code=503, headers={"Retry-After": "5"})
        return answer

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hall.start()
        yield
        await hall.close()
        work.close()

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table}", page("table.html")),
        Route("/replay/{table}", page("replay.html")),
        Route("/api/variants", api(web.variants)),
        Route("/api/tables", api(web.tables), methods=["GET"]),
        Route("/api/tables", api(web.open_table), methods=["POST"]),
        Route("/api/rulesets", api(web.upload), methods=["POST"]),
        Route("/api/replays", api(web.upload_log), methods=["POST"]),
        Route("/api/replays/{table}", api(web.replay_frame)),
        WebSocketRoute("/ws/{table}", web.play),
        Mount("/static", StaticFiles(packages=[("jongg.web", "static")]), name="static"),
    ]
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else ["*"]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                                 Middleware(Headers)])


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (OSError when the address is taken or not ours)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(app: Starlette, sock: socket.socket) -> None:
    """Serve until interrupted."""
    import uvicorn

    gentle = frames.protocol()
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            ws=gentle if gentle is not None else "websockets",
                            ws_max_size=LARGEST_FRAME, lifespan="on",
                            loop="jongg.web.short:Loop")
    quiet_when_short_of_files()
    uvicorn.Server(config).run(sockets=[sock])
