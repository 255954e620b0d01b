"""Decisions a second of each agent, and the search agent's time a decision.

Run: python bench/bench_search.py [--variant mjcg-card] [--rounds 1] [--seed 0]
                                  [--agents random,greedy,expert,search:rollouts=8,...]

For each agent, a match (its first rounds) with that agent at seat 0 and
the greedy agent at the others; only seat 0's decisions are timed, in CPU
time of this process (time.process_time). Prints, per agent, its decisions,
decisions a second, the mean and the slowest decision, and for the search
agent the playouts it ran and how many of its searched decisions (more
than one candidate) it chose other than the expert's choice. A search
decision's time is its playouts times the playout's length: the game
core's speed sets it.
"""

from __future__ import annotations

import argparse
import time

from jongg.api import load_game
from jongg.runs.arena import LADDER
from jongg.runtime.agents.play import agents_for
from jongg.runtime.game.actions import Action
from jongg.runtime.game.view import Observation


class Timed:
    """An agent whose decisions are timed."""

    def __init__(self, agent: object):
        self.agent = agent
        self.times: list[float] = []

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        start = time.process_time()
        chosen: Action = self.agent.act(seen, legal)  # type: ignore[attr-defined]
        self.times.append(time.process_time() - start)
        return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="mjcg-card")
    parser.add_argument("--rounds", type=int, default=1, help="rounds played per agent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", default=",".join(LADDER))
    args = parser.parse_args()
    game = load_game(args.variant)
    print(f"{game.spec.variant}, {game.spec.players} players, seed {args.seed}, "
          f"{args.rounds} round(s) per agent at seat 0 (the others greedy); CPU time")
    for name in args.agents.split(","):
        state = game.new_match(args.seed)
        seats = agents_for([name, "greedy"], args.seed, game.spec.players)
        timed = Timed(seats[0])
        seats[0] = timed  # type: ignore[assignment]
        while not state.is_terminal() and len(state.results) < args.rounds:
            seat = state.current_players()[0]
            state.apply(seat, seats[seat].act(state.observe(seat), state.legal_actions(seat)))
        t = timed.times
        total = sum(t) or 1e-9
        playouts = getattr(timed.agent, "playouts", None)
        extra = f", {playouts} playouts" if playouts is not None else ""
        searched = getattr(timed.agent, "searched", None)
        if searched is not None:  # how often the search chose other than the expert would
            extra += f", departed from the expert {timed.agent.departed} of {searched} searched"
        print(f"{name:>22}: {len(t):4} decisions, {len(t) / total:9.1f} a second, "
              f"mean {1000 * total / max(len(t), 1):7.2f} ms, slowest {1000 * max(t):7.1f} ms"
              f"{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
