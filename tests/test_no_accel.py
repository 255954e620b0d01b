"""JONGG_NO_ACCEL=1: the matcher's C accelerator left unused, as on a machine
without a C compiler; seeded matches play the same without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jongg.runtime.agents.play import play_match
from jongg.runtime.matching import accelerated

from .rig import game

ROOT = Path(__file__).resolve().parents[1]
# one match per row of bench/bench_versus.py's kinds of play: greedy seats
# weigh exposed hands (nymj, the plans' tables), random ones make exposures
# the claim windows ask about (mjcg-advanced), several racks (siamese)
MATCHES = [("nymj", 4, "greedy", 3), ("mjcg-advanced", 4, "random", 5),
           ("siamese", 2, "greedy", 7)]

PLAY = """
import json, sys
from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match
from jongg.runtime.matching import accelerated
out = {"accelerated": accelerated.compiled_fold is not None, "matches": []}
for variant, players, agents, seed in json.loads(sys.argv[1]):
    _, state = play_match(load_game(variant, players), seed, [agents])
    out["matches"].append([[s, a.text(state.spec.deck)] for s, a in state.history])
print(json.dumps(out))
"""


def _played(no_accel: str | None, matches: list[tuple[str, int, str, int]]
            ) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "JONGG_NO_ACCEL"}
    if no_accel is not None:
        env["JONGG_NO_ACCEL"] = no_accel
    done = subprocess.run([sys.executable, "-c", PLAY, json.dumps(matches)], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_no_accel_leaves_the_accelerator_unused_and_plays_the_same_matches() -> None:
    """Without the accelerator the same seeds play the same actions as the
    in-process matches (with it, where it is built)."""
    without = _played("1", MATCHES)
    assert without["accelerated"] is False
    here = []
    for variant, players, agents, seed in MATCHES:
        _, state = play_match(game(variant, players), seed, [agents])
        here.append([[s, a.text(state.spec.deck)] for s, a in state.history])
    assert without["matches"] == here


@pytest.mark.skipif(accelerated.compiled_fold is None, reason="the C accelerator is not built here")
def test_the_accelerator_runs_unless_no_accel_says_otherwise() -> None:
    """An empty or 0 JONGG_NO_ACCEL leaves the built accelerator in use."""
    assert _played("0", [])["accelerated"] is True
    assert _played(None, [])["accelerated"] is True
