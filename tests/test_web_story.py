"""The web table says what the terminal says: one presentation model
(jongg/present) narrates, prompts and hints for both. A seeded round is
played at the web table through a real socket; the same actions are then
played again at the terminal's table, and the two narrations, line by line,
are the same. A browser coming back mid-round is told the round so far in
the same words."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from rich.console import Console

from jongg.present.text import Text, plain
from jongg.runtime.agents.referee import Referee
from jongg.runtime.game.actions import Action
from jongg.runtime.game.log import Header, LogWriter
from jongg.runtime.game.view import Observation
from jongg.terminal.loop import TerminalGame
from jongg.web import protocol

from .rig import game
from .webrig import open_table, seats, served


class Again:
    """Plays a seat's actions as they were played before, in order."""

    name = "again"

    def __init__(self, actions: list[Action]):
        self.actions = iter(actions)

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        action = next(self.actions)
        assert action in legal
        return action


def spoken(said: list[list[dict[str, str]]]) -> list[str]:
    return ["".join(span["text"] for span in spans) for spans in said]


def web_round(tmp_path: Path, variant: str, seed: int, decisions: int
              ) -> tuple[list[str], list[Any], dict[str, Any]]:
    """Seat 1 played by the test through its socket, every other seat a
    bot, until `decisions` are made or the round ends: what its page was
    told, the actions played, and a page coming back at the end."""
    rng = random.Random(seed)
    story: list[str] = []
    with served(tmp_path / "web") as (client, hall):
        made = open_table(client, variant, ["human", "greedy", "greedy", "greedy"], seed=seed)
        state = hall.tables[made["id"]].state
        with seats(client, made) as sockets:
            ws = sockets[0]
            while True:
                m = ws.receive_json()
                if m["type"] == "refused":  # an update's choice the bots' moves overtook
                    continue
                assert m["type"] == "update", m
                story += spoken(m["story"])
                if m["result"] or m["decisions"] >= decisions:
                    break
                if m["legal"]:
                    ws.send_text(json.dumps({"type": "act", "action": rng.choice(m["legal"])}))
        played = state.history[:m["decisions"]]  # the bots may have played on since
        back = protocol.update(state, 0, protocol.round_start(state))
        return story, played, back


def terminal_round(tmp_path: Path, variant: str, seed: int, history: list[Any]) -> list[str]:
    """The same actions played at the terminal's table, seat 1 its person:
    what its screen was told."""
    g = game(variant)
    state = g.new_match(seed)
    plays: dict[int, list[Action]] = {s: [] for s in range(g.spec.players)}
    for seat, action in history:
        plays[seat].append(action)
    writer = LogWriter(tmp_path / "terminal.jsonl",
                       Header(g.spec.variant, g.spec.players, seed, state.mode, g.spec.digest))
    console = Console(file=io.StringIO(), width=200, no_color=True)
    table = TerminalGame(g, state, 0, {}, writer, console, fast=True, read=lambda _: "")
    told: list[Text] = []
    table.screen.told = told.extend  # type: ignore[method-assign]
    referee = Referee(state, {s: Again(a) for s, a in plays.items()})
    referee.listen(0, table.hear)
    while state.decisions < len(history):
        seat = referee.bot()
        assert seat is not None
        referee.play(seat)
    writer.close()
    return [plain(t) for t in told]


def test_a_seeded_round_is_told_the_same_at_the_web_table_and_the_terminal(
        tmp_path: Path) -> None:
    web, history, back = web_round(tmp_path, "mjcg", 3, 120)
    terminal = terminal_round(tmp_path, "mjcg", 3, history)
    assert len(web) > 40 and web == terminal
    # the Charleston, the vote and the play are all told, from seat 1's side
    assert any(s.startswith("You pass ") for s in web)
    assert any(s.startswith("Vote: ") for s in web)
    assert any(" discards " in s for s in web)
    # a page coming back is told the round so far in the very same words
    again = spoken(back["story"])
    assert again[:len(web)] == web


def test_a_replay_with_every_hand_open_is_told_as_an_onlooker_sees_it() -> None:
    """The open replay's story: the same narrator, from no seat (nobody is
    "you"), with each round's end in words."""
    g = game("nymj")
    state = g.new_match(4)
    rng = random.Random(4)
    while not state.results:
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    ended = [e for e in state.events if e.kind.value == "round_ended"][-1]
    frame = protocol.open_update(state, ended.number - 6)
    told = spoken(frame["story"])
    assert told and not any(t.startswith(("You ", "Your ")) for t in told)
    assert frame["result"]["title"] == "round 1 over"
    assert not any("you" in t.split() for t in spoken(frame["result"]["lines"]))
