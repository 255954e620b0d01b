"""The shipped agents play a scored game as such (runtime/agents/scored.py):
riichi is declared when it is what gives the waiting hand a win, a call is
taken only when the hand after it waits on a winning tile; and seeded riichi
matches keep every invariant and replay from their logs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jongg.runtime.agents.play import agents_for, play_match
from jongg.runtime.game.log import replay
from jongg.runtime.game.state import State

from .rig import game
from .scored_rig import deal, drive, to_turn
from .test_riichi_play import CLEAN, EAST, PINFU, RIICHI

G = game("riichi")
AGENTS = ("greedy", "expert")


def choice(state: State, seat: int, agent: str) -> str:
    bot = agents_for([agent], state.seed, 4)[seat]
    return str(bot.act(state.observe(seat), state.legal_actions(seat)).text(state.spec.deck))


@pytest.mark.parametrize("agent", AGENTS)
def test_riichi_is_declared_when_it_is_the_hands_yaku(agent: str) -> None:
    """South's hand waits on 5D/8D whatever it lets go of the N drawn: with
    no other yaku on a ron, the agent declares riichi with that discard; a
    pinfu hand has its yaku, and discards plainly."""
    state = deal(G, {0: EAST, 1: RIICHI}, draws="N", dead=CLEAN)
    to_turn(state, 1)
    assert choice(state, 1, agent) == "announce riichi N"
    state = deal(G, {0: EAST, 1: PINFU}, draws="N", dead=CLEAN)
    to_turn(state, 1)
    assert "announce riichi N" in [a.text(G.spec.deck) for a in state.legal_actions(1)]
    assert choice(state, 1, agent) == "discard N"


@pytest.mark.parametrize("agent", AGENTS)
def test_no_call_that_leaves_the_hand_without_a_winning_wait(agent: str) -> None:
    """A pon of 9D would leave South's hand open with no yaku on any wait
    (no tanyao with terminals, no yakuhai): it is let go. A pon of the red
    dragon makes the hand wait with a yakuhai: it is taken."""
    south = "9D 9D 1C 2C 3C 7B 8B 9B 1D 2D 3D 5B 6B"
    east = "9D 1B 4B 7B 4C 7C 2D 6D E S N WD GD RD"
    state = deal(G, {0: east, 1: south}, dead={13: "WD", 12: "WD"})
    drive(state, [(0, "discard 9D")])
    assert "claim pon 9D 9D" in [a.text(G.spec.deck) for a in state.legal_actions(1)]
    assert choice(state, 1, agent) == "pass"


def test_a_call_that_gives_the_hand_a_winning_wait_is_taken() -> None:
    """A pon of the red dragon makes South's hand wait with a yakuhai:
    greedy, whose hand it brings nearer, takes it."""
    south = "RD RD 1C 2C 3C 7B 8B 9B 1D 2D 3D 5B 9D"
    east = "9D 1B 4B 7B 4C 7C 2D 6D E S N WD GD RD"
    state = deal(G, {0: east, 1: south}, dead={13: "WD", 12: "WD"})
    drive(state, [(0, "discard RD")])
    assert choice(state, 1, "greedy") == "claim pon RD RD"


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_seeded_riichi_matches_keep_every_invariant_and_replay(agent: str,
                                                               tmp_path: Path) -> None:
    for seed in (1, 2):
        log = tmp_path / f"{agent}-{seed}.jsonl"
        record, state = play_match(G, seed, (agent,), log=log, check=True)
        assert record.violations == [] and state.is_terminal()
        result = replay(log, G)
        assert result.complete and result.problems == []
        assert result.state.digest() == state.digest()


@pytest.mark.slow
def test_ten_thousand_riichi_rounds_keep_every_invariant() -> None:
    """The slow suite: seeded riichi matches, greedy and random seats, until
    10,000 rounds have been played with every invariant checked at every
    step (JONGG_RIICHI_ROUNDS plays fewer, for a quick look)."""
    wanted = int(os.environ.get("JONGG_RIICHI_ROUNDS", "10000"))
    rounds, seed, won = 0, 50_000, 0
    while rounds < wanted:
        record, _ = play_match(G, seed, ("greedy", "random", "greedy", "random"), check=True)
        assert record.violations == [], f"seed {seed}: {record.violations}"
        rounds += len(record.rounds)
        won += sum(r["winner"] is not None for r in record.rounds)
        seed += 1
    assert won > 0


KAN_HAND = "1C 1C 1C 2B 3B 4B 3D 4D 5D 9B 9B 6D 7D"  # waits 5D/8D, its 1C a set apart
RUN = "1C 1C 1C 2C 3D 4D 5D 2B 3B 4B 6B 7B 8B"  # waits 2C/3C, its 1C read with the 2C too


@pytest.mark.parametrize("agent", AGENTS)
def test_a_closed_kan_that_keeps_the_wait_is_declared(agent: str) -> None:
    """South draws the fourth 1C: its waits after a kan are those after
    letting the 1C go, so the agent declares the kan (a replacement tile and
    a kan dora more). With 1C in a run as well the kan would change the
    wait: the agent lets the tile go plainly."""
    state = deal(G, {0: EAST.replace("1C", "5C"), 1: KAN_HAND}, draws="1C", dead=CLEAN)
    to_turn(state, 1)
    assert choice(state, 1, agent) == "kong 1C"
    # 1C 1C 1C 2C waits on 2C and 3C; a kan of the 1C would leave 2C alone
    state = deal(G, {0: EAST.replace("1C", "5C"), 1: RUN}, draws="1C", dead=CLEAN)
    to_turn(state, 1)
    assert "kong 1C" in [a.text(G.spec.deck) for a in state.legal_actions(1)]
    assert choice(state, 1, agent) != "kong 1C"


@pytest.mark.parametrize("agent", AGENTS)
def test_a_riichi_hand_declares_the_kan_that_keeps_its_wait_and_no_other(agent: str) -> None:
    """After riichi, the fourth 1C drawn is declared a kan when the wait
    stays the same; on a hand whose 1C is read in a run too the kan is not
    even offered (the rules keep riichi's wait), and the tile is let go."""
    state = deal(G, {0: EAST.replace("1C", "5C"), 1: KAN_HAND}, draws="N 8B 8B 8B 1C",
                 dead=CLEAN)
    drive(state, [(1, "announce riichi N")])
    to_turn(state, 1)
    assert choice(state, 1, agent) == "kong 1C"
    state = deal(G, {0: EAST.replace("1C", "5C"), 1: RUN}, draws="N 8B 8B 8B 1C", dead=CLEAN)
    drive(state, [(1, "announce riichi N")])
    to_turn(state, 1)
    assert [a.text(G.spec.deck) for a in state.legal_actions(1)] == ["discard 1C"]
    assert choice(state, 1, agent) == "discard 1C"


@pytest.mark.parametrize("agent", AGENTS)
def test_nine_kinds_of_orphans_are_let_end_the_round_and_eleven_played_on(agent: str) -> None:
    """On its first turn with nine kinds of terminals and honours the agent
    ends the round (abort); with eleven, thirteen orphans is near: it plays."""
    nine = "1B 9B 1C 9C 1D 9D E S N 5B 5C 6C 7C 8C"
    state = deal(G, {0: nine}, dead=CLEAN)
    assert choice(state, 0, agent) == "abort"
    eleven = "1B 9B 1C 9C 1D 9D E S W N RD 5C 6C 7C"
    state = deal(G, {0: eleven}, dead=CLEAN)
    assert choice(state, 0, agent) != "abort"
