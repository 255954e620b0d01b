"""The web table's server: opening tables, clear errors for what cannot be
read or is not allowed, bots that play on, a seat taken back by a browser
that comes back, every unfinished table taken up after a restart, saved
games never replaced, replays, uploaded variants and cards."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from jongg.runtime.game.log import read_log
from jongg.web import store as store_module
from jongg.web.store import Store, StoreError

from .conftest import run_cli
from .webrig import open_table, seats, served, token


def until_deciding(ws: Any) -> dict[str, Any]:
    """Read a seat's messages until it has something to decide."""
    for _ in range(2000):
        message = ws.receive_json()
        if message["type"] == "update" and (message["legal"] or message["over"]):
            return message  # type: ignore[no-any-return]
    raise AssertionError("the seat was never asked to decide")


def test_a_person_plays_against_bots_who_play_on(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        made = open_table(client, "nymj", ["human", "greedy", "random", "greedy"], seed=4)
        assert [link["seat"] for link in made["links"]] == [0]
        table = hall.tables[made["id"]]
        with seats(client, made) as joined:
            ws = joined[0]
            for _ in range(6):  # six of the person's decisions, the bots between them
                update = until_deciding(ws)
                if update["over"]:
                    break
                ws.send_text(json.dumps({"type": "act", "action": update["legal"][-1]}))
        assert table.state.decisions > 6
        lines = read_log(tmp_path / "tables" / f"{made['id']}.jsonl")
        assert len([r for r in lines.records if "action" in r.data]) == table.state.decisions
        assert lines.header.agents == ("human", "greedy", "random", "greedy")


@pytest.mark.parametrize("sent,code", [
    ("{not json", "bad-json"),
    ("[1, 2]", "bad-message"),
    ('{"type": "shout"}', "bad-message"),
    ('{"type": "hello"}', "bad-message"),
    ('{"type": "hello", "token": "x", "since": -1}', "bad-message"),
    ('{"type": "act", "action": "discard R1"}', "hello-first"),
    ("x" * 5000, "too-long"),
])
def test_bad_messages_get_clear_errors(tmp_path: Path, sent: str, code: str) -> None:
    with served(tmp_path) as (client, _):
        made = open_table(client, "nymj", ["human", "random"], players=3)
        with client.websocket_connect(f"ws://127.0.0.1/ws/{made['id']}") as ws:
            ws.send_text(sent)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == code, answer
            assert answer["message"]
            ws.send_text(json.dumps({"type": "hello", "token": token(made["links"][0])}))
            assert ws.receive_json()["type"] == "welcome"  # the socket still works


def test_unknown_tables_and_wrong_tokens_are_refused(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        made = open_table(client, "nymj", ["human", "random"], players=3)
        with client.websocket_connect("ws://127.0.0.1/ws/nosuchtable") as ws:
            answer = ws.receive_json()
            assert answer["code"] == "unknown-table" and "nosuchtable" in answer["message"]
        with client.websocket_connect(f"ws://127.0.0.1/ws/{made['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "guessed"}))
            answer = ws.receive_json()
            assert answer["code"] == "wrong-token"
            assert "opens no seat" in answer["message"]


def test_a_forged_or_out_of_turn_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        made = open_table(client, "nymj", ["human", "human", "human"], players=3, seed=2)
        table = hall.tables[made["id"]]
        log = tmp_path / "tables" / f"{made['id']}.jsonl"
        with seats(client, made) as joined:
            updates = {s: ws.receive_json() for s, ws in joined.items()}
            dealer = next(s for s, u in updates.items() if u["legal"])
            other = (dealer + 1) % 3
            held = updates[other]["view"]["hand"][0]
            before = table.state.digest(), log.read_bytes()
            for seat, text, said in [
                (other, f"discard {held}", "it is Seat"),  # out of turn
                (dealer, "discard ZZ", "unknown tile"),  # no such tile
                (dealer, "declare", "not legal now"),  # not a Mah Jongg
                (dealer, "discard " + _not_held(updates[dealer]), "not legal now"),
                (dealer, "fly away", "cannot read the action"),
            ]:
                joined[seat].send_text(json.dumps({"type": "act", "action": text}))
                answer = joined[seat].receive_json()
                assert answer["type"] == "refused" and said in answer["message"], answer
                assert answer["action"] == text
            assert (table.state.digest(), log.read_bytes()) == before


def _not_held(update: dict[str, Any]) -> str:
    held = set(update["view"]["hand"])
    return next(code for code in ("R1", "R2", "B1", "G5", "S3", "E2") if code not in held)


def test_opening_a_table_is_checked(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        for body, said in [
            ({"variant": "nosuch", "seats": ["human"]}, "no variant"),
            ({"variant": "nymj", "players": 3, "seats": ["human"] * 4}, "4 seats chosen for 3"),
            ({"variant": "nymj", "players": 3, "seats": ["human", "os:system", "random"]},
             "no agent"),
            ({"variant": "nymj", "players": 9, "seats": ["human"] * 9}, "players"),
            ({"variant": "nymj", "seats": "human"}, "seats"),
            ({"variant": "nymj", "seats": ["human"] * 4, "seed": "x"}, "seed"),
        ]:
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400, (body, response.text)
            assert said in response.json()["error"], (body, response.json())
        response = client.post("/api/tables", content=b"variant=nymj",
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert response.status_code == 415
        assert client.get("/api/tables", headers={"Host": "evil.example"}).status_code == 400


def test_a_browser_that_comes_back_gets_its_seat_and_the_round(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        made = open_table(client, "mjcg", ["human", "greedy", "greedy", "greedy"], seed=6)
        with seats(client, made) as joined:
            first = until_deciding(joined[0])
            joined[0].send_text(json.dumps({"type": "act", "action": first["legal"][0]}))
            left = joined[0].receive_json()
        # the socket is gone; the seat's link joins again
        with seats(client, made) as joined:
            again = joined[0].receive_json()
        assert again["view"] == hall.tables[made["id"]].state.observation(0)
        assert again["view"]["passing"] == left["view"]["passing"] != []
        assert again["events"][0]["kind"] == "dealt"  # told the round from its deal


def test_a_restart_takes_up_every_unfinished_table_from_its_log(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        made = open_table(client, "nymj", ["human", "greedy", "greedy", "greedy"], seed=9)
        finished = open_table(client, "nymj", ["random"] * 3, players=3, seed=1)
        with seats(client, made) as joined:
            for _ in range(4):
                update = until_deciding(joined[0])
                joined[0].send_text(json.dumps({"type": "act", "action": update["legal"][0]}))
            until_deciding(joined[0])
        state = hall.tables[made["id"]].state
        digest, decisions = state.digest(), state.decisions
        over = hall.tables[finished["id"]].state
        for _ in range(200):  # the bots' table plays to its end meanwhile
            if over.is_terminal():
                break
            client.get("/api/tables")
        assert over.is_terminal()
    with served(tmp_path) as (client, hall):  # the server again, on the same folder
        taken = hall.tables[made["id"]].state
        assert (taken.digest(), taken.decisions) == (digest, decisions)
        assert finished["id"] not in hall.tables and hall.finished(finished["id"])
        with seats(client, made) as joined:  # the old link opens the same seat
            update = joined[0].receive_json()
            assert update["legal"] and update["view"] == taken.observation(0)


def test_a_saved_game_is_never_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    store = Store(tmp_path)
    names = iter(["aaaaaaaaaa", "aaaaaaaaaa", "bbbbbbbbbb"])
    monkeypatch.setattr(store_module.secrets, "token_hex", lambda n: next(names))
    (store.tables / "aaaaaaaaaa.jsonl").write_text("a saved game\n")
    (store.tables / "aaaaaaaaaa.seats.json").write_text("its seats\n")
    with served(tmp_path) as (client, _):
        made = open_table(client, "nymj", ["human", "random"], players=3)
    assert made["id"] == "bbbbbbbbbb"
    assert (store.tables / "aaaaaaaaaa.jsonl").read_text() == "a saved game\n"
    assert (store.tables / "aaaaaaaaaa.seats.json").read_text() == "its seats\n"


def test_the_seats_file_keeps_no_token(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        made = open_table(client, "nymj", ["human", "human", "random"], players=3)
    text = (tmp_path / "tables" / f"{made['id']}.seats.json").read_text()
    assert all(token(link) not in text for link in made["links"])
    assert oct(os.stat(tmp_path / "tables" / f"{made['id']}.seats.json").st_mode)[-3:] == "600"


def frame(client: Any, table: str, view: str, step: int, seat_token: str = "") -> Any:
    headers = {"X-Jongg-Token": seat_token} if seat_token else {}
    return client.get(f"/api/replays/{table}?view={view}&step={step}", headers=headers)


def test_replays_step_through_a_saved_game(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        made = open_table(client, "nymj", ["human", "greedy", "greedy"], players=3, seed=3)
        with seats(client, made) as joined:
            for _ in range(3):
                update = until_deciding(joined[0])
                joined[0].send_text(json.dumps({"type": "act", "action": update["legal"][0]}))
            until_deciding(joined[0])
        mine = token(made["links"][0])
        # while it is played: only the seat's own view, with its token
        assert frame(client, made["id"], "all", 0).status_code == 403
        assert frame(client, made["id"], "2", 0, mine).status_code == 403
        response = frame(client, made["id"], "mine", 4, mine)
        assert response.status_code == 200
        shown = response.json()
        assert shown["step"] == 4 and shown["view"]["seat"] == 0
        assert all("hand" not in s for s in shown["view"]["seats"])
        # a finished game from any seat, or every hand open
        bots = open_table(client, "nymj", ["greedy"] * 3, players=3, seed=8)
        over = hall.tables[bots["id"]].state
        for _ in range(500):
            if over.is_terminal():
                break
            client.get("/api/tables")
        steps = over.decisions
        everything = frame(client, bots["id"], "all", 10).json()
        assert everything["steps"] == steps and everything["view"]["seat"] is None
        assert all(len(s["hand"]) == s["concealed"] for s in everything["view"]["seats"])
        back = frame(client, bots["id"], "2", 3).json()
        assert back["step"] == 3 and back["view"]["seat"] == 1
        end = frame(client, bots["id"], "all", 10**6).json()
        assert end["step"] == steps and end["over"]
        assert frame(client, bots["id"], "9", 0).status_code == 400
        assert frame(client, "nosuch", "all", 0).status_code == 404


def test_an_uploaded_log_replays(tmp_path: Path) -> None:
    golden = Path(__file__).parent / "golden" / "nymj-4p.jsonl"
    with served(tmp_path) as (client, _):
        response = client.post("/api/replays", json={"name": golden.name,
                                                      "text": golden.read_text()})
        assert response.status_code == 201, response.text
        replay_id = response.json()["id"]
        shown = frame(client, replay_id, "all", 20).json()
        assert shown["step"] == 20 and shown["variant"] == "nymj"
        bad = client.post("/api/replays", json={"name": "x.jsonl", "text": "{\"log\": 1}\n"})
        assert bad.status_code == 400 and "x.jsonl:1:1" in bad.json()["error"]


CARD = """card: mine
deck: american-152
lines:
  - {id: kongs, hand: "1111a 2222a 3333a 44a", value: 25}
  - {id: pairs, hand: "11a 22a 33a 44a 55a 66a 77a", value: 50, jokers: false}
"""


def test_a_users_card_and_variant_are_played(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        response = client.post("/api/rulesets", json={"name": "mine.yaml", "text": CARD})
        assert response.json() == {"name": "mine.yaml", "kind": "card", "problems": []}
        made = client.post("/api/tables", json={"variant": "mjcg", "card": "mine.yaml",
                                                "seats": ["human", "greedy", "greedy",
                                                          "greedy"]})
        assert made.status_code == 201, made.text
        with seats(client, made.json()) as joined:
            welcome_card = joined[0].receive_json()
        assert welcome_card["type"] == "update"
        variant = "variant: house\ntitle: House\nextends: nymj\nwin: {card: mine.yaml}\n"
        assert client.post("/api/rulesets", json={"name": "house.yaml", "text": variant}
                           ).json()["problems"] != []  # nymj's deck has no such tiles
        listed = client.get("/api/variants").json()
        assert "mine.yaml" in listed["cards"]
        assert "house.yaml" not in [v["name"] for v in listed["variants"]]


def test_uploads_never_reach_beyond_their_folder_nor_replace_a_file(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for text in ("variant: x\nextends: /etc/x.yaml\n", "card: y\ndeck: ../decks/d.yaml\n",
                 "variant: z\nwin: {card: sub/c.yaml}\n"):
        with pytest.raises(StoreError, match="not a path"):
            store.save_ruleset("x.yaml", text)
    store.save_ruleset("mine.yaml", CARD)
    store.save_ruleset("mine.yaml", CARD)  # the same again: kept once
    with pytest.raises(StoreError, match="rename yours"):
        store.save_ruleset("mine.yaml", CARD + "# changed\n")
    with pytest.raises(StoreError, match="name the file"):
        store.save_ruleset("../up.yaml", CARD)
    assert (store.rulesets / "mine.yaml").read_text() == CARD


def test_the_pages_set_text_as_text() -> None:
    """No script of the pages builds markup from data: a title, a seat name
    or a line id an uploaded ruleset writes is shown as written."""
    static = Path(__file__).resolve().parents[1] / "jongg" / "web" / "static"
    scripts = sorted(static.glob("*.js"))
    assert scripts
    for script in scripts:
        text = script.read_text()
        for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
            assert risky not in text, f"{script.name} uses {risky}"


def test_serve_says_how_to_install_the_web_extra(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("jongg.web.command.missing", lambda: ["starlette", "uvicorn"])
    status, _, err = run_cli(capsys, "serve", "--port", "0")
    assert status == 1
    assert "starlette, uvicorn" in err and "pip install 'jongg[web]'" in err


def test_serve_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, err = run_cli(capsys, "serve", "--port", str(port), "--data",
                                 str(tmp_path))
        assert status == 1 and f"--port {port}: cannot listen there" in err
    for argv, said in [(["--port", "70000"], "--port: give 0 to 65535"),
                       (["--pace", "-1"], "--pace"),
                       (["--agents", "nosuch"], "--agents: unknown agent 'nosuch'")]:
        status, _, err = run_cli(capsys, "serve", "--data", str(tmp_path), *argv)
        assert status == 1 and said in err, err


def test_serve_listens_on_this_machine_only_unless_told() -> None:
    from jongg.cli import build_parser
    from jongg.web.command import local

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"
    assert local("127.0.0.1") and local("::1") and local("localhost")
    assert not local("0.0.0.0") and not local("192.168.1.2")
