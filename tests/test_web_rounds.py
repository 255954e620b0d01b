"""A round's end at a web table with two people: the final table frozen
(every hand shown, the winner's in its line's groups, the payments), and
the next round held until each person has said next; bots do not wait for
each other, but nothing moves while a person has still to confirm."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from jongg.web.tables import SharedTable, Watcher

from .rig import edited, game, rigged
from .webrig import open_table, seats, served, shared_table

WON = "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 1C 5D 5D"  # four sets and a pair, dealt whole


def kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [m["type"] for m in messages]


def test_two_people_each_confirm_the_next_round_and_see_the_final_table(
        tmp_path: Path) -> None:
    async def play() -> None:
        state = rigged(game("classic"), {0: WON}, skip_phases=True, dealer=0)
        table = shared_table(state, (0, 2), tmp_path)
        told: dict[int, list[dict[str, Any]]] = {0: [], 2: []}
        for seat in told:
            table.join(Watcher(seat, told[seat].append), None)
        assert table.act(0, "declare") is None  # East's Mah Jongg, dealt whole
        for seat, messages in told.items():
            final = messages[-1]
            assert final["type"] == "round_over" and final["waiting"] == [0, 2]
            assert final["winner"] == 0 and not final["wall_game"]
            assert [len(h["concealed"]) for h in final["hands"][1:]] == [13, 13, 13]
            groups = [[t["tile"] for t in g] for g in final["hands"][0]["filled"]]
            assert sorted(map(len, groups)) == [2, 3, 3, 3, 3]  # in its line's groups
            assert sorted(t for g in groups for t in g) == sorted(WON.split())
            assert final["payments"] and final["scores"]
            said = ["".join(s["text"] for s in line) for line in final["result"]["lines"]]
            assert said[0].startswith("You win" if seat == 0 else "East wins")
            assert messages[-2]["type"] == "update" and messages[-2]["legal"] == []
        decided = state.decisions
        await asyncio.sleep(0.05)  # bots hold while the people read the round's end
        assert state.decisions == decided
        assert table.act(2, "pass") is not None and state.decisions == decided
        before = {s: len(m) for s, m in told.items()}
        assert table.next_round(0) is None
        assert told[2][-1]["type"] == "round_over" and told[2][-1]["waiting"] == [2]
        assert told[0][-1]["confirmed"] and not told[2][-1]["confirmed"]
        await asyncio.sleep(0.05)
        assert state.decisions == decided  # one person has still to confirm
        assert table.next_round(2) is None
        for seat, messages in told.items():
            assert "next_round" in kinds(messages[before[seat]:])
        fresh = told[0][-1]  # East deals again: the next round's first discard is its
        assert fresh["type"] == "update" and fresh["legal"] and not fresh.get("held")
        assert table.act(0, fresh["legal"][-1]) is None
        for _ in range(100):  # and the bots play on at once
            await asyncio.sleep(0.01)
            if state.decisions > decided + 1:
                break
        assert state.decisions > decided + 1
        assert table.next_round(0) is not None  # nothing left to confirm
        await table.close()

    asyncio.run(play())


def test_a_solo_table_waits_for_its_one_person(tmp_path: Path) -> None:
    async def play() -> None:
        state = rigged(game("classic"), {0: WON}, skip_phases=True, dealer=0)
        table = shared_table(state, (0,), tmp_path)
        told: list[dict[str, Any]] = []
        table.join(Watcher(0, told.append), None)
        table.act(0, "declare")
        assert told[-1]["type"] == "round_over" and told[-1]["waiting"] == [0]
        decided = state.decisions
        await asyncio.sleep(0.05)
        assert state.decisions == decided
        # a browser coming back to the held table is shown the final table again
        again: list[dict[str, Any]] = []
        table.join(Watcher(0, again.append), None)
        assert "round_over" in kinds(again)
        assert table.act(0, "discard 5D") is not None  # held: nothing is taken
        table.next_round(0)
        assert table.act(0, told[-1]["legal"][-1]) is None
        assert state.decisions == decided + 1
        await table.close()

    asyncio.run(play())


def test_a_wall_game_is_frozen_as_a_wall_game(tmp_path: Path) -> None:
    """The wall holds one tile: East discards, South draws the last and
    discards, nobody claims: the frozen table says the wall ran out, with
    every hand shown."""
    async def play() -> None:
        dealt = rigged(game("classic"), {}, skip_phases=True, dealer=0)
        state = edited(dealt, lambda d: d.update(wall=d["wall"].split()[0]))
        table = shared_table(state, (0, 1, 2, 3), tmp_path)
        told: list[dict[str, Any]] = []
        table.join(Watcher(0, told.append), None)
        for _ in range(12):
            if table.ending.held:
                break
            for seat in state.current_players():
                legal = [a.text(state.spec.deck) for a in state.legal_actions(seat)]
                assert table.act(seat, "pass" if "pass" in legal else legal[-1]) is None
        final = told[-1]
        assert final["type"] == "round_over" and final["wall_game"] and final["winner"] is None
        assert final["waiting"] == [0, 1, 2, 3] and len(final["hands"]) == 4
        assert [len(h["concealed"]) for h in final["hands"]] == [13, 13, 13, 13], final["hands"]
        lines = ["".join(s["text"] for s in line) for line in final["result"]["lines"]]
        assert lines[0] == "the wall is empty: nobody wins this round"
        await table.close()

    asyncio.run(play())


def test_a_browser_coming_back_to_a_held_table_is_sent_the_discards_as_the_round_ended(
        tmp_path: Path) -> None:
    """The State has dealt the next round when the table is held, so a page
    reloaded then has only the new round's view: the final table carries
    each seat's discards as the round ended, the claimed ones with who took
    them, as the page kept them while it watched."""
    async def play() -> None:
        dealt = rigged(game("classic"), {}, skip_phases=True, dealer=0)
        state = edited(dealt, lambda d: d.update(wall=" ".join(d["wall"].split()[:3])))
        table = shared_table(state, (0, 1, 2, 3), tmp_path)
        table.join(Watcher(0, [].append), None)
        thrown: dict[int, list[str]] = {s: [] for s in range(4)}
        for _ in range(30):
            if table.ending.held:
                break
            for seat in state.current_players():
                legal = [a.text(state.spec.deck) for a in state.legal_actions(seat)]
                choice = "pass" if "pass" in legal else legal[-1]
                if choice.startswith("discard"):
                    thrown[seat].append(choice.split()[1])
                assert table.act(seat, choice) is None
        assert table.ending.held and any(thrown.values())
        assert all(not s["discards"] for s in state.observation(0)["seats"])  # a new deal
        again: list[dict[str, Any]] = []
        table.join(Watcher(2, again.append), None)
        final = next(m for m in again if m["type"] == "round_over")
        assert [[d["tile"] for d in row] for row in final["pile"]] == [thrown[s] for s in range(4)]
        assert final["table"]["round"] == 0 and final["table"]["wall"] <= 1
        # and it is told the round that ended, not the next one's deal alone
        told = [e["kind"] for e in next(m for m in again if m["type"] == "update")["events"]]
        assert "round_ended" in told and told.count("discarded") == sum(map(len, thrown.values()))
        await table.close()

    asyncio.run(play())


def test_a_finished_match_is_played_again_each_person_with_their_own_new_link(
        tmp_path: Path) -> None:
    """The last round of a classic match won at once: the table freezes
    with the standings and nothing to wait for; "rematch" opens the same
    table again, once, and each person is sent only their own seat's link."""
    with served(tmp_path) as (client, hall):
        made = open_table(client, "classic", ["human", "human", "greedy", "greedy"], seed=3)
        opened = hall.tables[made["id"]]
        last = edited(rigged(game("classic"), {0: WON}, skip_phases=True, dealer=0),
                      lambda d: d.update(round=7))
        hall.tables[made["id"]] = SharedTable(opened.id, opened.game, last, opened.writer,
                                              opened.names, opened.hashes, opened.agents)
        with seats(client, made) as sockets:
            for ws in sockets.values():
                assert ws.receive_json()["type"] == "update"
            sockets[1].send_text(json.dumps({"type": "rematch"}))
            assert sockets[1].receive_json()["type"] == "refused"  # the match goes on
            sockets[0].send_text(json.dumps({"type": "act", "action": "declare"}))
            for ws in sockets.values():
                assert ws.receive_json()["type"] == "update"
                final = ws.receive_json()
                assert final["type"] == "round_over" and final["match_over"]
                assert final["waiting"] == [] and final["match"]["title"]
            links = {}
            for seat, ws in sockets.items():
                ws.send_text(json.dumps({"type": "rematch"}))
                again = ws.receive_json()
                assert again["type"] == "rematch", again
                links[seat] = again
        assert links[0]["table"] == links[1]["table"] != made["id"]
        fresh = hall.tables[links[0]["table"]]
        for seat, link in links.items():
            assert fresh.seat_of(link["url"].split("#")[1]) == seat
        assert fresh.names == opened.names and not fresh.state.is_terminal()
