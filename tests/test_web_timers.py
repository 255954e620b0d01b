"""Timers at a web table of several people: a claim window's and a turn's,
set when the table is opened (none at a table of one person), the time
left sent with each update, and on expiry the person's answer made for
them: a claim passed, the tile just drawn discarded, before play the tiles
the hints suggest passed and a vote's or an offer's least. Short timers; the
tests wait for the table to move, never measure time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from jongg.runtime.game.events import EventKind
from jongg.runtime.game.state import Step
from jongg.web.tables import Watcher
from jongg.web.timers import Timers

from .rig import game, rigged
from .webrig import open_table, served, shared_table


def test_a_person_whose_time_runs_out_passes_the_claim_and_discards_the_tile_drawn(
        tmp_path: Path) -> None:
    async def play() -> None:
        state = rigged(game("classic"), {}, skip_phases=True, dealer=0)
        table = shared_table(state, (0, 2), tmp_path, Timers(claim=0.02, turn=0.02))
        told: list[dict[str, Any]] = []  # both people's messages
        table.join(Watcher(0, told.append), None)
        first = told[-1]
        assert first["legal"] and first["timer"]["kind"] == "turn"
        assert 0 <= first["timer"]["left"] <= first["timer"]["seconds"] == 0.02
        table.join(Watcher(2, told.append), None)

        def claim_timed() -> bool:
            return any(m.get("timer", {}).get("kind") == "claim" for m in told)

        for _ in range(4000):  # nobody acts: the timers play for the people
            await asyncio.sleep(0.005)
            if sum(seat in (0, 2) for seat, _ in state.history) >= 8 and claim_timed():
                break
        mine = [a for seat, a in state.history if seat in (0, 2)]
        assert len(mine) >= 8, "the timers never answered for the people"
        # a person's claim window passed, a person's turn the tile just drawn
        assert any(a.verb == "pass" and a.tile < 0 for a in mine)
        events = state.events
        drew = [e for e in events if e.kind is EventKind.DREW and e.seat in (0, 2)]
        assert drew
        for e in drew:
            after = next((x for x in events[e.number + 1:] if x.seat == e.seat
                          and x.kind in (EventKind.DISCARDED, EventKind.DECLARED)), None)
            if after is not None and after.kind is EventKind.DISCARDED:
                assert after.tiles == e.tiles, "the tile just drawn is discarded"
        assert claim_timed(), "no person was asked in a claim window"
        # a seat is shown only its own time: never while another decides
        assert all(m["legal"] for m in told if "timer" in m)
        await table.close()

    asyncio.run(play())


def test_a_person_whose_time_runs_out_before_play_passes_the_suggested_tiles_and_votes_no(
        tmp_path: Path) -> None:
    """The Card Game's Charleston at a table of two people who never act:
    the phase timer passes each pass's three tiles (the hints' choice, never
    a joker: MJCG-08), votes no to a second Charleston, offers none, and play
    begins."""
    async def play() -> None:
        state = rigged(game("mjcg-card"), {}, dealer=0)
        assert state.step is Step.PASSING
        table = shared_table(state, (0, 2), tmp_path, Timers(phase=0.02))
        told: list[dict[str, Any]] = []
        table.join(Watcher(0, told.append), None)
        assert told[-1]["timer"]["kind"] == "phase"
        table.join(Watcher(2, told.append), None)
        for _ in range(4000):
            await asyncio.sleep(0.005)
            if state.step in (Step.TURN, Step.CLAIMS):
                break
        assert state.step in (Step.TURN, Step.CLAIMS), f"still {state.step} before play"
        mine = [(seat, a) for seat, a in state.history if seat in (0, 2)]
        passed = [a for _, a in mine if a.verb == "pass"]
        assert len(passed) >= 2 * 9, "each person's three first passes made for them"
        assert all(a.tile != state.spec.deck.joker_index for a in passed)
        votes = [a.number for _, a in mine if a.verb == "vote"]
        assert votes and set(votes) == {0}
        assert all(a.number == 0 for _, a in mine if a.verb == "offer")
        await table.close()

    asyncio.run(play())


def test_a_table_without_timers_waits_and_says_no_time(tmp_path: Path) -> None:
    async def play() -> None:
        state = rigged(game("classic"), {}, skip_phases=True, dealer=0)
        table = shared_table(state, (0, 2), tmp_path, Timers())
        told: list[dict[str, Any]] = []
        table.join(Watcher(0, told.append), None)
        await asyncio.sleep(0.05)
        assert state.decisions == 0 and "timer" not in told[-1]
        assert state.step is Step.TURN and state.turn == 0
        await table.close()

    asyncio.run(play())


def test_timers_are_set_when_a_table_of_several_people_is_opened(tmp_path: Path) -> None:
    with served(tmp_path) as (client, hall):
        body: dict[str, Any] = {"variant": "classic", "seats": ["human", "greedy"],
                                "seed": 1, "timers": {"claim": 10}}
        solo = client.post("/api/tables", json=body)
        assert solo.status_code == 400 and "several people" in solo.json()["error"]
        for wrong, said in (({"claim": -1}, "from 0.01"), ({"turn": "soon"}, "seconds"),
                            ({"nap": 3}, "no timer 'nap'"), ([10], "an object")):
            body = {"variant": "classic", "seats": ["human", "human"], "timers": wrong}
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 400 and said in answer.json()["error"], answer.text
        made = open_table(client, "classic", ["human", "human", "greedy"], seed=2)
        assert not hall.tables[made["id"]].timers  # none asked for: none
        body = {"variant": "classic", "seats": ["human", "human", "greedy"],
                "timers": {"claim": 15, "turn": 45}}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        timed = answer.json()["id"]
        assert hall.tables[timed].timers == Timers(15.0, 45.0)
        seats = json.loads((tmp_path / "tables" / f"{timed}.seats.json").read_text())
        assert seats["timers"] == {"claim": 15.0, "turn": 45.0}
    with served(tmp_path) as (client, hall):  # a restart takes them up with the table
        assert hall.tables[timed].timers == Timers(15.0, 45.0)
