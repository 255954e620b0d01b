"""Conformance: every shipped variant, at every player count it allows, plays
seeded random matches in which every step keeps the invariants.

Checked at every step: tiles conserved (wall + hands + exposures + discards
+ tiles in a pass = the deck); scores equal the start plus the scoring
events, and sum to the start where the variant is zero-sum; legal actions
empty only at the end. Checked every ten decisions: the position text
round-trips, a clone is the same state, and resampling what a seat cannot
see leaves its observation and events unchanged. Checked per setup: the
match ends; a replay in another process, under another PYTHONHASHSEED,
reaches the same state. The default suite plays each variant at one player
count, at least 4 random and 2 strict matches' rounds; the slow suite every
count the variant allows, 1,200 rounds a setup.
"""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jongg.compiler.registry import shipped
from jongg.compiler.variant import player_counts, resolve
from jongg.compiler.yaku import shipped_played
from jongg.runtime.agents.play import DECISION_LIMIT, agents_for, play_match
from jongg.runtime.game.game import Game
from jongg.runtime.game.invariants import violations
from jongg.runtime.game.state import IllegalAction, Mode, State, Step
from jongg.runtime.matching.reference import ReferenceMatcher

from .golden.regenerate import agents as agents_of
from .rig import act, game

# every variant the engine plays: a scoring-only one (status: scoring-only) is refused
# for play, and tests/test_score.py scores it
SETUPS = [(name, players) for name in shipped_played()
          for players in player_counts(resolve(name))]
IDS = [f"{name}-{players}p" for name, players in SETUPS]
ROUNDS = 4  # rounds per setup in the default suite (at least one whole match)


def resample_hidden(doc: dict[str, Any], seat: int, rng: random.Random) -> None:
    """Deal everything `seat` cannot see anew, in a position: other seats'
    concealed tiles, tiles on their way in a pass or set aside, and the wall;
    every count stays the same."""
    others = [s for s in range(len(doc["seats"])) if s != seat]
    fields = ("hand", "outgoing", "aside")
    pool = doc["wall"].split() + [c for s in others for f in fields
                                  for c in doc["seats"][s][f].split()]
    rng.shuffle(pool)
    doc["wall"] = " ".join(pool.pop() for _ in doc["wall"].split())
    for s in others:
        for f in fields:
            doc["seats"][s][f] = " ".join(pool.pop() for _ in doc["seats"][s][f].split())
    assert not pool


def check_position(state: State, seat: int, rng: random.Random) -> None:
    """The position text round-trips and plays on the same; a clone is the
    same state; resampling what a seat cannot see leaves its observation,
    and the events it is told, unchanged."""
    g = Game(state.spec, state._matcher)
    text = state.position()
    again = g.load_position(text)
    assert again.position() == text and again.digest() == state.digest()
    assert state.clone().digest() == state.digest()
    doc = json.loads(text)
    resample_hidden(doc, seat, rng)
    twin = g.load_position(json.dumps(doc))
    assert twin.observation(seat) == state.observation(seat), \
        f"seat {seat} sees hidden tiles at step {state.step}"
    for event in state.events_for(seat):
        assert event.seen_by is None or seat in event.seen_by or not event.tiles


def play_checked(name: str, players: int, seed: int, mode: Mode = Mode.GUARDED) -> State:
    """A random match with every invariant checked at every step."""
    g = game(name, players)
    state = g.new_match(seed, mode)
    agents = agents_for(agents_of(name, players), seed, players)
    rng = random.Random(f"secrecy/{seed}")
    assert violations(state) == []
    while not state.is_terminal():
        assert state.decisions < DECISION_LIMIT, "the match does not end"
        seat = state.current_players()[0]
        state.apply(seat, agents[seat].act(state.observe(seat), state.legal_actions(seat)))
        problems = violations(state)
        assert problems == [], f"{name} seed {seed} after {state.history[-1]}: {problems}"
        if state.decisions % 10 == 0:
            check_position(state, rng.randrange(players), rng)
    assert all(not state.legal_actions(s) for s in range(players))
    return state


# one player count per variant in the default suite; every count in the slow suite (whose
# own test plays 1,000 rounds a setup)
ONE_COUNT = {name: players for name, players in reversed(SETUPS)}
EACH_VARIANT = [pytest.param(name, players, id=f"{name}-{players}p",
                        marks=[] if ONE_COUNT[name] == players else [pytest.mark.slow])
           for name, players in SETUPS]


@pytest.mark.parametrize("name,players", EACH_VARIANT)
def test_random_matches_keep_every_invariant(name: str, players: int) -> None:
    rounds = 0
    seed = 0
    ends: Counter[str] = Counter()
    while rounds < ROUNDS:
        state = play_checked(name, players, seed)
        rounds += state.round
        ends.update(r.how for r in state.results)
        seed += 1
    assert ends["wall"] + ends["won"] == rounds
    if game(name, players).spec.racks > 1:  # the greedy seat completes racks
        assert ends["won"] > 0


@pytest.mark.parametrize("name,players", EACH_VARIANT)
def test_strict_matches_keep_every_invariant(name: str, players: int) -> None:
    """In strict mode the random agents make the rulebook's mistakes, and the
    penalties (skipped turns, dead hands) keep the invariants too."""
    penalised = 0
    for seed in range(2):
        state = play_checked(name, players, 100 + seed, Mode.STRICT)
        penalised += sum(1 for seat, a in state.history if a.verb in ("claim", "declare"))
    assert penalised > 0


@pytest.mark.parametrize("name,players", EACH_VARIANT)
def test_a_replay_in_another_process_reaches_the_same_state(
        name: str, players: int, tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    _, live = play_match(game(name, players), 11, agents_of(name, players), log=log)
    env = dict(os.environ, PYTHONHASHSEED="4242" if os.environ.get("PYTHONHASHSEED") != "4242"
               else "77")
    done = subprocess.run([sys.executable, "-m", "jongg", "replay", str(log), "--json"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["complete"] and result["same"], result["problems"]
    assert result["state"] == live.digest()
    assert result["scores"] == live.scores


@pytest.mark.parametrize("seed", [1, 2])
def test_a_match_plays_the_same_on_the_reference_matcher(seed: int) -> None:
    """Every question the game asks its matcher (can this seat win with the
    discard, may this set be exposed, is this hand complete) gets the
    reference's answer: a seeded match takes the same course on both."""
    compiled = game("nymj", 4)
    checked = Game(compiled.spec, ReferenceMatcher(compiled.matcher.card))
    _, one = play_match(compiled, seed, ["random"])
    _, two = play_match(checked, seed, ["random"])
    assert one.history == two.history
    assert one.digest() == two.digest() and one.scores == two.scores


def test_an_illegal_action_is_refused_with_the_legal_ones_and_changes_nothing() -> None:
    state = game("nymj", 4).new_match(3)
    before = state.digest()
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, "discard R1")  # not seat 2's turn
    assert "cannot act now" in str(refused.value) and "Seat 1" in str(refused.value)
    held = next(k for k, n in enumerate(state._seats[0].counts) if n == 0)
    code = state.spec.deck.code(held)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, f"discard {code}")
    message = str(refused.value)
    assert f"'discard {code}' is not legal" in message
    assert "legal: " in message and "discard " in message.split("legal: ")[1]
    assert state.digest() == before and state.step is Step.TURN and state.decisions == 0


# -- no rule keyed on a variant's name -----------------------------------------------
RUNTIME = Path(__file__).resolve().parents[1] / "runtime"


def test_runtime_code_never_branches_on_a_variant_name() -> None:
    """What differs between variants is data: no string in the runtime names
    a shipped variant, card or deck, and no comparison reads a name."""
    names = {n for kind in ("variant", "card", "deck") for n in shipped(kind)}
    found = []
    for path in sorted(RUNTIME.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lower() in names:
                found.append(f"{path.name}:{node.lineno}: the string {node.value!r}")
            if isinstance(node, ast.Compare):
                sides = (node.left, *node.comparators)
                named = [s.attr for s in sides if isinstance(s, ast.Attribute)
                         and s.attr in ("variant", "name", "title", "card", "deck")]
                if named and any(isinstance(s, ast.Constant) and isinstance(s.value, str)
                                 for s in sides):
                    found.append(f"{path.name}:{node.lineno}: compares .{named[0]} to a string")
    assert found == []
    assert len(list(RUNTIME.rglob("*.py"))) > 10  # the scan did read the runtime


@pytest.mark.slow
@pytest.mark.parametrize("name,players", SETUPS, ids=IDS)
def test_thousands_of_random_rounds(name: str, players: int) -> None:
    """The slow suite: seeded random matches until 1,000 rounds per setup have
    been played guarded and 200 strict, every invariant checked at every step."""
    for mode, rounds_wanted, first in ((Mode.GUARDED, 1000, 10_000), (Mode.STRICT, 200, 20_000)):
        rounds, seed = 0, first
        while rounds < rounds_wanted:
            record, _ = play_match(game(name, players), seed, agents_of(name, players),
                                   mode=mode, check=True)
            assert record.violations == [], f"{mode} seed {seed}: {record.violations}"
            rounds += len(record.rounds)
            seed += 1
