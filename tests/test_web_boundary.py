"""The web table's trust boundary, in-process: the one resolver kept within
a server's rulesets, the compiled games kept by content and bounded, long
work off the event loop, a table's secret chance, and the restart's check of
a seats file against its log. (tests/test_serve_boundary.py tries the same
boundary against the real `jongg serve`.)"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from jongg.compiler import registry
from jongg.compiler.errors import LoadError
from jongg.compiler.game import load_game
from jongg.runtime.game.chance import KeyedChance, SeededChance
from jongg.runtime.game.log import Header, parse_log
from jongg.runtime.game.state import Mode
from jongg.web import server as server_module
from jongg.web.games import Games
from jongg.web.hall import Hall
from jongg.web.server import application
from jongg.web.store import Store
from jongg.web.work import Busy, Worker

from .webrig import open_table, served


# -- one resolver, kept within the rulesets ---------------------------------------------
def test_names_kept_within_a_folder_reach_nothing_outside(tmp_path: Path) -> None:
    inside, outside = tmp_path / "rulesets", tmp_path / "elsewhere"
    inside.mkdir()
    outside.mkdir()
    (outside / "secret.yaml").write_text("db_password: x\n")
    (inside / "mine.yaml").write_text("card: mine\n")
    (inside / "link.yaml").symlink_to(outside / "secret.yaml")
    with registry.within(inside):
        assert registry.locate("card", "mine.yaml") == (inside / "mine.yaml").resolve()
        assert registry.locate("card", f"{inside}/./mine.yaml") == \
            registry.locate("card", "../rulesets/mine.yaml")  # one file, however spelled
        assert registry.locate("deck", "nymj-75").is_file()  # shipped, by name
        for name in (str(outside / "secret.yaml"), "../elsewhere/secret.yaml", "link.yaml",
                     "x" * 300 + ".yaml", "a\0b.yaml", "/etc/passwd.yaml"):
            with pytest.raises(LoadError) as refused:
                registry.locate("deck", name)
            said = str(refused.value.diagnostics[0])
            assert "no such deck here" in said and str(tmp_path) not in said.replace(name, "")
        found = registry.read("card", "mine.yaml")
        assert found.file == "mine.yaml"  # messages name it without the folder
    assert registry.locate("deck", str(outside / "secret.yaml")).is_file()  # the CLI's own


# -- compiled games: by content, bounded ------------------------------------------------------
def test_one_file_by_many_spellings_is_compiled_once(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path))
    (hall.store.rulesets / "v.yaml").write_text("variant: v\nextends: nymj\n")
    folder = hall.store.rulesets.resolve()
    for n in range(30):
        hall.game(f"{folder}/{'./' * n}v.yaml" if n % 2 else f"{'../rulesets/' * n}v.yaml",
                  None)
    assert len(hall.games.kept) == 1


def test_the_games_kept_are_bounded_in_count_and_bytes() -> None:
    game = load_game("nymj")
    games = Games(most=3, largest=10 * 2**20)
    for n in range(8):
        games.get(("x", str(n), 0), lambda: game)
    assert list(games.kept) == [("x", "5", 0), ("x", "6", 0), ("x", "7", 0)]
    small = Games(most=100, largest=2 * 2**20)
    for n in range(8):
        small.get(("x", str(n), 0), lambda: game)
    assert len(small.kept) <= 2 and small.bytes <= 2 * 2**20


# -- long work off the event loop ------------------------------------------------------------
def test_a_long_check_never_holds_the_other_requests(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An upload's check waits until the lobby has been answered: answered
    while the check runs only if the check is off the event loop."""
    gate = threading.Event()
    order: list[str] = []

    def slow_check(name: str) -> list[Any]:
        gate.wait(20)  # set once the listing is answered
        order.append("checked")
        return []

    monkeypatch.setattr(server_module, "check_variant", slow_check)
    app = application(Hall(Store(tmp_path)))

    async def both() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            upload = asyncio.ensure_future(client.post(
                "/api/rulesets", json={"name": "v.yaml", "text": "variant: v\nextends: nymj\n"}))
            await asyncio.sleep(0)
            listing = await client.get("/api/tables")
            order.append(f"listed {listing.status_code}")
            gate.set()
            assert (await upload).status_code == 200

    asyncio.run(both())
    assert order == ["listed 200", "checked"]


def test_long_work_is_given_up_on_and_bounded() -> None:
    gate = threading.Event()

    async def run() -> list[str]:
        work = Worker(waiting=2, seconds=0.05)
        said = []
        for _ in range(3):
            try:
                await work.run(lambda: gate.wait(10))
            except Busy as error:
                said.append(str(error))
        gate.set()
        work.close()
        return said

    said = asyncio.run(run())
    assert "longer than 0.05 s" in said[0] and "longer than" in said[1]
    assert "busy" in said[2]  # both given-up jobs still run: a third is refused


# -- a table's chance -------------------------------------------------------------------------
def test_a_keyed_chance_is_its_keys_alone() -> None:
    tiles = list(range(144))
    one, other = KeyedChance(bytes(32)), KeyedChance(bytes([1]) + bytes(31))
    assert one.shuffle(0, tiles) == KeyedChance(bytes(32)).shuffle(0, tiles)
    assert one.shuffle(0, tiles) != other.shuffle(0, tiles)
    assert one.shuffle(0, tiles) != one.shuffle(1, tiles)
    assert 0 <= one.seed < 2**63
    assert one.shuffle(0, tiles) != SeededChance(one.seed).shuffle(0, tiles)  # not the seed's


def test_a_logs_key_replays_its_deal_and_a_seeded_header_is_unchanged() -> None:
    seeded = Header("nymj", 4, 7, Mode.GUARDED, "d", ("random",) * 4)
    assert "key" not in seeded.to_json()
    keyed = Header("nymj", 4, 1, Mode.GUARDED, "d", ("random",) * 4, "ab" * 32)
    again = parse_log("x.jsonl", (json.dumps(keyed.to_json()) + "\n").encode()).header
    assert again == keyed
    game = load_game("nymj")
    assert again.new_match(game).position() == keyed.new_match(game).position()
    assert keyed.new_match(game).position() != seeded.new_match(game).position()
    bad = json.dumps({**keyed.to_json(), "key": "not hex"}) + "\n"
    with pytest.raises(ValueError, match="key"):
        parse_log("x.jsonl", bad.encode())


# -- a restart checks each seats file against its log --------------------------------------------
def test_a_restart_refuses_a_seats_file_that_names_other_seats(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        made = open_table(client, "nymj", ["human", "greedy", "greedy"], players=3)
    seats = tmp_path / "tables" / f"{made['id']}.seats.json"
    data = json.loads(seats.read_text())
    data["people"] = {"1": data["people"]["0"]}  # the person moved to a bot's seat
    seats.write_text(json.dumps(data))
    hall = Hall(Store(tmp_path))
    notes = hall.resume_all()
    assert made["id"] not in hall.tables
    assert any("names other seats than its log" in n for n in notes), notes
    listed = {t["id"]: t for t in hall.listing()}
    assert "names other seats" in listed[made["id"]]["problem"]
    assert str(tmp_path) not in listed[made["id"]]["problem"]
