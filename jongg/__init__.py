"""jongg: a declarative rules compiler and runtime for mahjong-family games.

The front door (docs/api.md has a five-minute tour):

    import jongg
    card = jongg.load_card("sample")             # compiled once, then from the cache
    card.nearest(card.hand("F F 2B WD 2B 6B 2C 2C 2C 2C 2D 2D J"), 3)
    game = jongg.load_game("nymj", players=4)
    state = game.new_match(seed=7)
    state.legal_actions(0); state.apply(0, "discard R3"); print(state)
    jongg.play_match(game, seed=7, agents=["greedy", "random"])

Names are loaded when first used, so `import jongg` (and the command line)
starts quickly.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

# name -> the module it lives in
_EXPORTS = {
    "load_card": "jongg.api", "load_game": "jongg.api", "load_variant": "jongg.api",
    "parse_hand": "jongg.api", "shipped": "jongg.api", "Card": "jongg.api",
    "Hand": "jongg.runtime.hand", "Deck": "jongg.runtime.tiles",
    "Game": "jongg.runtime.game.game", "State": "jongg.runtime.game.state",
    "Step": "jongg.runtime.game.table", "Mode": "jongg.runtime.game.rules",
    "Action": "jongg.runtime.game.actions", "IllegalAction": "jongg.runtime.game.state",
    "Event": "jongg.runtime.game.events", "EventKind": "jongg.runtime.game.events",
    "Observation": "jongg.runtime.game.view", "ArrangedChance": "jongg.runtime.game.chance",
    "SeededChance": "jongg.runtime.game.chance", "Agent": "jongg.runtime.agents.bots",
    "RandomAgent": "jongg.runtime.agents.bots", "GreedyAgent": "jongg.runtime.agents.bots",
    "play_match": "jongg.runtime.agents.play", "JonggError": "jongg.runtime.errors",
    "Referee": "jongg.runtime.agents.referee", "AgentFailed": "jongg.runtime.agents.referee",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jongg' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
