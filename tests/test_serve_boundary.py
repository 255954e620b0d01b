"""The web table's trust boundary, against the real `jongg serve` started as
a subprocess on a free 127.0.0.1 port: the uvicorn server, its accept loop
and its frame limit included.

No request reads a file outside the rulesets and the server's data (every
key that can name a file, found by walking the schemas); a table's chance is
in no answer nor message while it is played; deep, huge and long input is
refused in words, never with a 500; file descriptors and the disk may run
out (ulimit -n and a file-size limit in the child) without a flood of logs,
debris, or a move shown that the log lost; a frame too large is closed with
its reason. Every test is bounded in requests and in time.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import resource
import signal
import socket
import struct
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from jongg.runtime.game.log import read_log
from jongg.web.names import naming_keys

from .browser import Server, server
from .test_web import CARD

SECRET = "db_password: hunter2-do-not-show\n"


def ask(running: Server, path: str, body: Any = None, *, raw: bytes | None = None,
        method: str | None = None) -> tuple[int, str]:
    """(status, text) of one request; an HTTP error is an answer, not a failure."""
    data = raw if raw is not None else json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(running.url.rstrip("/") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A YAML file on the server's machine that no request may read."""
    folder = tmp_path_factory.mktemp("outside")
    (folder / "secret.yaml").write_text(SECRET)
    return folder / "secret.yaml"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("served") / "data") as started:
        yield started


def sure(running: Server, status: int, text: str, *banned: str) -> None:
    """No 500, and nothing of what the answer must never hold."""
    assert status < 500, (status, text)
    for word in ("hunter2", "db_password", "Traceback", str(running.data), *banned):
        assert word not in text, (word, text)


# -- 2. every key that can name a file ---------------------------------------------
def _filled(pattern: tuple[str, ...], value: str) -> Any:
    """A mapping that writes `value` at `pattern` ("*": a player count or a list item)."""
    if not pattern:
        return value
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        return {"4": _filled(rest, value)} if rest else [value]
    return {head: _filled(rest, value)}


HOSTILE = [(kind, pattern) for kind in ("variant", "card") for pattern, _ in naming_keys(kind)]


def test_the_schemas_mark_every_key_the_compiler_resolves() -> None:
    """The keys are found by walking the schemas: the ones the compiler
    resolves today are among them (a new one marked there is tried too)."""
    found = {(kind, ".".join(p)) for kind, p in HOSTILE}
    assert {("variant", "extends"), ("variant", "deck"), ("variant", "win.card"),
            ("variant", "by_players.*.deck"), ("card", "deck"), ("card", "decks.*")} <= found


@pytest.mark.parametrize("kind,pattern", HOSTILE, ids=[f"{k}:{'.'.join(p)}" for k, p in HOSTILE])
def test_no_upload_reads_a_file_by_any_key(running: Server, outside: Path, kind: str,
                                           pattern: tuple[str, ...]) -> None:
    key = ".".join(pattern).replace("*", "4" if pattern[0] == "by_players" else "0")
    for value in (str(outside), f"../../{outside.name}", "../" * 12 + str(outside)[1:]):
        data = {kind: "leak", **({"extends": "nymj"} if kind == "variant" else
                                 {"deck": "american-152", "lines": []})}
        data.update(_filled(pattern, value))
        name = f"leak-{abs(hash((key, value))) % 10**8}.yaml"
        text = yaml.safe_dump(data, sort_keys=False)
        status, text = ask(running, "/api/rulesets", {"name": name, "text": text})
        sure(running, status, text)  # what it wrote may be quoted; never what is there
        assert status == 400 and key in text and "not a path" in text, (key, value, text)


def test_a_reference_no_check_looks_at_is_still_kept_inside(running: Server) -> None:
    """A bare name of no file here is refused by the resolver itself."""
    text = "variant: bare\nextends: nymj\nby_players:\n  \"4\":\n    deck: secret.yaml\n"
    status, said = ask(running, "/api/rulesets", {"name": "bare.yaml", "text": text})
    sure(running, status, said)
    problems = json.loads(said)["problems"]
    assert any("'secret.yaml': no such deck here" in p and p.startswith("bare.yaml:")
               for p in problems), problems


# -- 3. an uploaded log names no file ------------------------------------------------
def test_an_uploaded_log_names_no_file(running: Server, outside: Path) -> None:
    header = {"log": "jongg", "version": 1, "players": 4, "seed": 1, "mode": "guarded",
              "digest": "", "agents": ["random"] * 4}
    answers = []
    for variant in (str(outside), str(outside.parent / "sekret.yaml"), "../../x.yaml",
                    "/etc/passwd.yaml", "x" * 300 + ".yaml", "../" * 40 + "etc/x.yaml"):
        text = json.dumps({**header, "variant": variant}) + "\n"
        status, said = ask(running, "/api/replays", {"name": "up.jsonl", "text": text})
        sure(running, status, said)
        assert status == 400 and "cannot be played here" in said, said
        answers.append(json.loads(said)["error"].replace("sekret", "secret"))
    assert answers[0] == answers[1], answers  # a file there or not: the same words


# -- 5, 6. deep, huge and long input ---------------------------------------------------
def test_deep_yaml_is_refused_in_words(running: Server) -> None:
    for n, text in enumerate(["variant: deep\nx: " + "[" * 2000 + "]" * 2000,
                              "card: deep\nlines: " + "{a: " * 2000 + "1" + "}" * 2000,
                              "variant: deep\nextends: nymj\ntitle: " + "[" * 2000 + "]" * 2000]):
        status, said = ask(running, "/api/rulesets", {"name": f"deep{n}.yaml", "text": text})
        sure(running, status, said)
        assert "nested more than 64 levels" in said, said
        status, _ = ask(running, "/api/tables")
        assert status == 200


def test_the_upload_and_body_limits_hold(running: Server) -> None:
    big = "variant: big\n# " + "x" * (600 * 1024) + "\n"
    status, said = ask(running, "/api/rulesets", {"name": "big.yaml", "text": big})
    assert status == 400 and "larger than 512 KiB" in said, said
    assert not (running.data / "rulesets" / "big.yaml").exists()
    huge = json.dumps({"name": "huge.yaml", "text": "x" * (5 * 2**20)}).encode()
    status, said = ask(running, "/api/rulesets", raw=huge)
    assert status == 413 and "larger than 4096 KiB" in said, said


def test_long_names_are_refused_in_words(running: Server) -> None:
    long = "v" * 300
    for path, body in [("/api/tables", {"variant": long, "seats": ["human"]}),
                       ("/api/tables", {"variant": long + ".yaml", "seats": ["human"]}),
                       ("/api/tables", {"variant": "nymj", "card": long + ".yaml",
                                        "seats": ["human"]}),
                       ("/api/tables", {"variant": "nymj", "card": long, "seats": ["human"]}),
                       ("/api/rulesets", {"name": long + ".yaml", "text": CARD})]:
        status, said = ask(running, path, body)
        sure(running, status, said)
        assert status == 400, (body, said)
    status, said = ask(running, f"/api/replays/{long}?view=all&step=0")
    assert status == 404, said


# -- 4. a flood of bounded size ----------------------------------------------------------
def _resident(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def spellings(folder: Path, count: int) -> Iterator[str]:
    """`count` different names of one uploaded file."""
    for n in range(count):
        yield f"{'./' * (n % 7)}{'../rulesets/' * (n // 7)}flood.yaml" if n % 2 else \
            f"{folder}/{'./' * n}flood.yaml"


def flood(running: Server, count: int) -> int:
    """Replay one log under `count` spellings of its variant: the bytes the
    server grew by."""
    variant = "variant: flood\ntitle: Flood\nextends: mjcg\n"
    assert ask(running, "/api/rulesets", {"name": "flood.yaml", "text": variant})[0] == 200
    header = {"log": "jongg", "version": 1, "players": 4, "seed": 1, "mode": "guarded",
              "digest": "", "agents": ["random"] * 4}
    rulesets = (running.data / "rulesets").resolve()
    before = None
    for n, name in enumerate(spellings(rulesets, count)):
        text = json.dumps({**header, "variant": name}) + "\n"
        status, said = ask(running, "/api/replays", {"name": "f.jsonl", "text": text})
        sure(running, status, said)
        assert status == 201, said
        if n == 0:
            before = _resident(running.process.pid)  # once the game is compiled
    assert before is not None
    return _resident(running.process.pid) - before


def test_one_file_by_many_names_is_compiled_once(running: Server) -> None:
    grown = flood(running, 12)
    assert grown < 40 * 2**20, f"the server grew {grown / 2**20:.0f} MiB"


@pytest.mark.slow
def test_a_flood_of_spellings_stays_bounded(tmp_path: Path) -> None:
    with server(tmp_path / "data") as started:
        grown = flood(started, 100)
    assert grown < 60 * 2**20, f"the server grew {grown / 2**20:.0f} MiB"


def test_tables_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    body = {"variant": "nymj", "players": 3, "seats": ["human", "greedy"]}
    with server(tmp_path / "data", flags=["--most-tables", "4", "--most-per-address",
                                          "3"]) as started:
        answers = [ask(started, "/api/tables", body) for _ in range(4)]
    assert [status for status, _ in answers] == [201, 201, 201, 400]
    assert "the most one address may open" in answers[-1][1]
    assert len(list((tmp_path / "data" / "tables").glob("*.jsonl"))) == 3


# -- 7. file descriptors run out -----------------------------------------------------------
def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))


def test_tables_outnumber_file_descriptors(tmp_path: Path) -> None:
    """Under ulimit -n 100: 150 tables open and stay playable; connections
    past the limit wait, said in one line, and the server serves on."""
    body = {"variant": "nymj", "players": 3, "seats": ["human", "greedy"]}
    with server(tmp_path / "data", flags=["--most-tables", "1000", "--most-per-address",
                                          "1000"], limit=_few_files) as started:
        made = [ask(started, "/api/tables", body) for _ in range(150)]
        assert [s for s, _ in made] == [201] * 150, {s for s, _ in made}
        held = []
        for _ in range(150):  # more connections than the server has files
            held.append(socket.create_connection(("127.0.0.1", started.port), timeout=10))
        time.sleep(1.5)  # the accept loop meets the limit, and waits
        for sock in held:
            sock.close()
        status, listing = 0, ""
        for _ in range(40):  # its retry comes within a second or two
            try:
                status, listing = ask(started, "/api/tables")
                break
            except OSError:
                time.sleep(0.25)
        assert status == 200 and len(json.loads(listing)["tables"]) == 150
        last = json.loads(made[-1][1])
        token = last["links"][0]["url"].split("#")[1]
        update = _first_update(started, last["id"], token)
        assert update["legal"] or update["view"]
        started.stop()
    said = "".join(started.said)
    assert said.count("short of file descriptors") == 1, said[-3000:]
    assert "Traceback" not in said, said[-3000:]


def _first_update(running: Server, table: str, token: str) -> dict[str, Any]:
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{running.port}/ws/{table}", open_timeout=20) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        for _ in range(10):
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "update":
                return message  # type: ignore[no-any-return]
    raise AssertionError("no update")


# -- 8. the disk fills ---------------------------------------------------------------------
def _small_files(size: int) -> Any:
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_table_the_disk_cannot_hold_leaves_nothing(tmp_path: Path) -> None:
    body = {"variant": "nymj", "players": 3, "seats": ["human", "greedy"]}
    with server(tmp_path / "data", limit=_small_files(100)) as started:
        status, said = ask(started, "/api/tables", body)
        assert status == 400 and "File too large" in said, said
        sure(started, status, said)
    assert [p.name for p in (tmp_path / "data" / "tables").iterdir()] == []
    with server(tmp_path / "data") as again:
        assert "cannot be taken up" not in "".join(again.said)
        assert ask(again, "/api/tables", body)[0] == 201


def test_a_move_the_disk_refused_is_never_shown_as_made(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    body = {"variant": "nymj", "players": 3, "seats": ["human", "greedy"]}
    with server(tmp_path / "data", limit=_small_files(2500)) as started:
        status, said = ask(started, "/api/tables", body)
        assert status == 201, said
        made = json.loads(said)
        token = made["links"][0]["url"].split("#")[1]
        seen, stopped = 0, ""
        with connect(f"ws://127.0.0.1:{started.port}/ws/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            for _ in range(3000):
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "update":
                    seen = message["decisions"]
                    if message["legal"]:
                        ws.send(json.dumps({"type": "act", "action": message["legal"][-1]}))
                elif message["type"] == "round_over" and not message["confirmed"]:
                    ws.send(json.dumps({"type": "next"}))  # on to the next round
                elif message["type"] in ("error", "refused") and "File too large" in \
                        message["message"]:
                    stopped = message["message"]
                    break
            with contextlib.suppress(TimeoutError):  # anything told after it, read too
                while True:
                    message = json.loads(ws.recv(timeout=1.0))
                    seen = max(seen, message.get("decisions", 0))
        assert stopped, "the log never filled"
    path = tmp_path / "data" / "tables" / f"{made['id']}.jsonl"
    kept = [r.data for r in read_log(path).records if "action" in r.data]
    assert len(kept) == seen  # every move the seat was shown, and no other, is in the log
    sure(started, 200, stopped)
    with server(tmp_path / "data") as again:  # taken up from there (its bots may go on)
        listed = json.loads(ask(again, "/api/tables")[1])["tables"]
        assert listed[0]["decisions"] >= seen and listed[0]["problem"] is None
    assert [r.data for r in read_log(path).records if "action" in r.data][:seen] == kept


# -- 9. a frame too large -------------------------------------------------------------------
def test_a_frame_too_large_is_closed_with_its_reason(running: Server) -> None:
    status, said = ask(running, "/api/tables", {"variant": "nymj", "players": 3,
                                                "seats": ["human", "greedy"]})
    assert status == 201
    table = json.loads(said)["id"]
    with socket.create_connection(("127.0.0.1", running.port), timeout=20) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n"
                     f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 101")
        size = 3_000_000  # a masked text frame of 3 MB
        sock.sendall(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", size) + os.urandom(4) +
                     bytes(size))
        got = head.split(b"\r\n\r\n", 1)[1]
        while chunk := sock.recv(65536):  # a reset here is the defect
            got += chunk
    assert got[0] == 0x88, got[:40]  # a close frame
    code = struct.unpack("!H", got[2:4])[0]
    reason = got[4:2 + got[1]].decode()
    assert code == 1009 and "exceeds limit" in reason, (code, reason)


# -- 1. nothing a seat receives holds the table's chance ---------------------------------------
def test_no_answer_nor_message_holds_a_tables_chance(running: Server) -> None:
    body = {"variant": "nymj", "players": 4, "seats": ["human", "human", "greedy"]}
    opened = [ask(running, "/api/tables", body) for _ in range(2)]  # two tables at once
    assert [s for s, _ in opened] == [201, 201]
    made = [json.loads(text) for _, text in opened]
    heard = [text for _, text in opened] + [ask(running, "/api/tables")[1],
                                            ask(running, "/api/variants")[1]]
    hands = []
    from websockets.sync.client import connect

    for table in made:
        for link in table["links"]:
            token = link["url"].split("#")[1]
            with connect(f"ws://127.0.0.1:{running.port}/ws/{table['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                heard += [ws.recv(timeout=20), ws.recv(timeout=20)]
            request = urllib.request.Request(
                f"{running.url}api/replays/{table['id']}?view=mine&step=0",
                headers={"X-Jongg-Token": token})
            with urllib.request.urlopen(request, timeout=30) as response:
                frame = response.read().decode()
            heard.append(frame)
            hands.append(json.loads(frame)["view"]["hand"])
        for page in ("/", f"/table/{table['id']}", f"/replay/{table['id']}"):
            heard.append(ask(running, page)[1])
    everything = "\n".join(heard)
    for table in made:
        header = read_log(running.data / "tables" / f"{table['id']}.jsonl").header
        assert len(header.key) == 64  # 256 bits, kept on the server
        assert header.key not in everything and str(header.seed) not in everything
    assert table["seeded"] is False and table["seed"] is None
    listed = json.loads(ask(running, "/api/tables")[1])["tables"]
    assert all(t["seeded"] is False and t["seed"] is None for t in listed
               if t["id"] in {m["id"] for m in made})
    assert hands[0] != hands[2] and hands[1] != hands[3]  # two tables, two deals


def test_a_seeded_table_is_marked_and_seats_one_person(running: Server) -> None:
    status, said = ask(running, "/api/tables", {"variant": "nymj", "players": 3, "seed": 5,
                                                "seats": ["human", "human", "greedy"]})
    assert status == 400 and "one person at most" in said, said
    status, said = ask(running, "/api/tables", {"variant": "nymj", "players": 3, "seed": 5,
                                                "seats": ["human", "greedy"]})
    assert status == 201 and json.loads(said)["seeded"] is True
    listed = {t["id"]: t for t in json.loads(ask(running, "/api/tables")[1])["tables"]}
    assert listed[json.loads(said)["id"]]["seed"] == 5


def test_a_finished_match_shows_its_key(running: Server) -> None:
    status, said = ask(running, "/api/tables", {"variant": "nymj", "players": 3,
                                                "seats": ["greedy"]})
    table = json.loads(said)["id"]
    for _ in range(200):
        if any(t["id"] == table and t["finished"] for t in
               json.loads(ask(running, "/api/tables")[1])["tables"]):
            break
        time.sleep(0.1)
    shown = json.loads(ask(running, f"/api/replays/{table}?view=all&step=0")[1])
    header = read_log(running.data / "tables" / f"{table}.jsonl").header
    assert shown["key"] == header.key and shown["seed"] == header.seed
