"""Golden logs: a seeded match per shipped variant and player count, kept in
tests/golden/ and replayed here. A change of behaviour shows as a replay that
differs; a ruleset without a golden log fails until one is written with
`python tests/golden/regenerate.py`."""

from __future__ import annotations

import pytest

from jongg.runtime.game.log import read_header, replay

from .golden.regenerate import SEED, golden_path, setups
from .rig import game


@pytest.mark.parametrize("name,players", setups(), ids=[f"{n}-{p}p" for n, p in setups()])
def test_every_ruleset_replays_its_golden_log(name: str, players: int) -> None:
    path = golden_path(name, players)
    assert path.exists(), f"{name} with {players} players has no golden log: run " \
        "python tests/golden/regenerate.py"
    header = read_header(path)
    assert (header.variant, header.players, header.seed) == (name, players, SEED)
    result = replay(path, game(name, players))
    assert result.complete, f"{path.name} stops before the end of its match"
    assert result.problems == [], "\n".join(result.problems) + \
        "\n(a deliberate change? run python tests/golden/regenerate.py and review the diff)"
    assert result.state.is_terminal()
