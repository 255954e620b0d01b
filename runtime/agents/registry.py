"""Agents by name: the shipped ones (`random`, `greedy`, `expert`, `search`), or any
class a user writes, named `module:Class` (importable from where jongg runs). A class is
made for a seat as `Class(seed, seat)`; its randomness should derive from
the seed (runtime/game/chance.py derived_rng) so a match replays exactly.

A shipped agent may take options after its name, each `:key=value`:
`search:rollouts=200`, `search:ms=300`, `search:line=run-6:rollouts=64`,
`expert:line=run-6`. The name with its options is the agent's name in logs
and standings, so a logged match replays with the same options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from jongg.runtime.agents.bots import Agent, GreedyAgent, RandomAgent
from jongg.runtime.agents.expert import ExpertAgent
from jongg.runtime.agents.options import BadOption, with_options
from jongg.runtime.agents.search import SearchAgent
from jongg.runtime.errors import JonggError, suggestion

AgentMaker = Callable[[int, int], Agent]  # (seed, seat) -> an agent

SHIPPED: dict[str, AgentMaker] = {"random": RandomAgent, "greedy": GreedyAgent,
                                   "expert": ExpertAgent, "search": SearchAgent}


class UnknownAgent(JonggError, ValueError):
    """An agent name that is neither shipped nor an importable module:Class."""


def agent_maker(name: str) -> AgentMaker:
    """The class (or factory) an agent name stands for."""
    if name in SHIPPED:
        return SHIPPED[name]
    module, colon, attribute = name.partition(":")
    if module in SHIPPED:  # a shipped agent with options
        try:
            return with_options(name, SHIPPED[module], module, attribute)
        except BadOption as error:
            raise UnknownAgent(f"agent {name!r}: {error}") from None
    near = suggestion(module, SHIPPED)  # a shipped name mistyped, with or without options
    if not colon or not module or not attribute:
        raise UnknownAgent(f"unknown agent {name!r}{f' ({near})' if near else ''}; agents: "
                           f"{', '.join(SHIPPED)}, or module:Class for one of your own")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except ImportError as error:
        raise UnknownAgent(f"agent {name!r}: cannot import {module!r} ({error})"
                           f"{f'; {near}' if near else ''}") from None
    except AttributeError:
        raise UnknownAgent(f"agent {name!r}: {module!r} has no {attribute!r}") from None
    if not callable(found) or not callable(getattr(found, "act", None)):
        raise UnknownAgent(f"agent {name!r} is not an agent class (it needs an act method)")
    maker: AgentMaker = found
    return maker


def make_agents(agents: Sequence[str | Agent | AgentMaker], seed: int, players: int
                ) -> list[Agent]:
    """One agent per seat from names, classes or ready agents; a short list
    repeats its last entry."""
    chosen = list(agents) or ["random"]
    out = []
    for seat in range(players):
        entry = chosen[min(seat, len(chosen) - 1)]
        if isinstance(entry, str):
            out.append(agent_maker(entry)(seed, seat))
        elif isinstance(entry, type) or not hasattr(entry, "act"):
            maker: AgentMaker = entry
            out.append(maker(seed, seat))
        else:
            agent: Agent = entry  # type: ignore[assignment]
            out.append(agent)
    return out


def agent_name(agent: Agent) -> str:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else f"{type(agent).__module__}:{type(agent).__name__}"
