"""How far apart the search agent's candidates are, and how noisy weighing them is.

Run: python bench/bench_worlds.py [--variant nymj] [--seed 3] [--worlds 200]
                                  [--rounds 1] [--policy greedy] [--uniform]
     python bench/bench_worlds.py --nearness 30 [--variant nymj]

A round is played by the expert at every seat. At each of seat 0's
decisions in play where the search agent would weigh more than one
candidate, every candidate is played out in `--worlds` worlds twice: as the
agent weighs them (each candidate meets the same playout chance in a world:
common random numbers) and with the playout policy's chance running on from
one candidate to the next (unpaired). For each candidate beside the
expert's choice it prints its mean gain over that choice, the standard
error of that mean both ways, and in how many worlds the two differed.
The last line: the median of the squared ratio of the two standard errors,
the factor of worlds that pairing saves for the same precision.

With `--nearness D`: over D deals of expert self-play, at every third of
seat 0's turns, how far the other seats' hands are from their nearest line
(tiles away): their true hands, and those of five worlds each way, kept
(as their players would have kept them) and uniform; by the tiles left in
the wall (in twenties) and the seat's exposures.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from jongg.api import load_game
from jongg.runtime.agents.expert import ExpertAgent
from jongg.runtime.agents.search import SearchAgent
from jongg.runtime.agents.worlds import IN_PLAY, Memory, Worlds
from jongg.runtime.game.actions import Action
from jongg.runtime.game.state import IllegalAction
from jongg.runtime.game.view import Observation


def unpaired(agent: SearchAgent, seen: Observation, candidates: list[Action],
             memory: Memory, worlds: int) -> list[list[float]]:
    """Per world, each candidate's points, the playout policy's chance
    running on from one playout to the next."""
    sampler = Worlds(agent._game_of(seen), seen, memory, kept=agent.worlds == "kept")
    players = agent._playout_players(seen)
    scored = []
    while len(scored) < worlds:
        world = sampler.sample(agent.rng, agent.rng.randrange(1 << 30))
        scores = []
        for action in candidates:
            twin = world.clone()
            try:
                twin.apply(agent.seat, action)
            except IllegalAction:
                break
            scores.append(agent._playout(twin, players))
        if len(scores) == len(candidates):
            scored.append(scores)
    return scored


def gains(scored: list[list[float]], i: int) -> tuple[float, float, int]:
    """Candidate i's mean gain over the first, its standard error, and the worlds they differ in."""
    g = [w[i] - w[0] for w in scored]
    return statistics.mean(g), statistics.stdev(g) / len(g) ** 0.5, sum(1 for x in g if x)


def nearness(variant: str, deals: int) -> None:
    game = load_game(variant)
    near: dict[tuple[str, int, int], list[int]] = defaultdict(list)
    rng = random.Random(1)
    for seed in range(deals):
        state = game.new_match(seed)
        experts = [ExpertAgent(seed, s) for s in range(game.spec.players)]
        turns = 0
        while not state.is_terminal() and not state.results:
            seat = state.current_players()[0]
            seen, legal = state.observe(seat), state.legal_actions(seat)
            if seat == 0 and seen.step == "turn" and len(legal) > 1:
                turns += 1
                if turns % 3 == 0:
                    dealt = {"true": [state]}
                    for name in ("kept", "uniform"):
                        worlds = Worlds(game, seen, Memory(), kept=name == "kept")
                        dealt[name] = [worlds.sample(rng, 1) for _ in range(5)]
                    for name, states in dealt.items():
                        for world in states:
                            for s in range(1, game.spec.players):
                                hand = world._seats[s].hand()
                                away = seen.rules.away(hand)
                                near[(name, seen.wall // 20, len(hand.exposures))].append(
                                    99 if away is None else away)
            state.apply(seat, experts[seat].act(seen, legal))
    print(f"{game.spec.variant}, {deals} deals of expert self-play: the other seats' "
          "tiles away from their nearest line")
    print("wall left  exposures  hands  true  kept  uniform")
    for stage, shown in sorted({(w, e) for _, w, e in near}):
        cells = [near[(name, stage, shown)] for name in ("true", "kept", "uniform")]
        if len(cells[0]) >= 10:
            print(f"{20 * stage:3}-{20 * stage + 19:<5} {shown:9}  {len(cells[0]):5}  "
                  + "  ".join(f"{statistics.mean(c):4.2f}" for c in cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--policy", default="greedy", choices=("greedy", "expert"))
    parser.add_argument("--uniform", action="store_true", help="the other hands dealt uniformly")
    parser.add_argument("--nearness", type=int, metavar="DEALS",
                        help="how near the others' hands are: true, kept, uniform")
    args = parser.parse_args()
    if args.nearness:
        nearness(args.variant, args.nearness)
        return 0
    game = load_game(args.variant)
    state = game.new_match(args.seed)
    experts = [ExpertAgent(args.seed, s) for s in range(game.spec.players)]
    agent = SearchAgent(args.seed, 0, rollouts=2 * args.worlds * 8, policy=args.policy,
                        worlds="uniform" if args.uniform else "kept")
    print(f"{game.spec.variant}, seed {args.seed}, {args.worlds} worlds a candidate, "
          f"{args.policy} playouts; gain over the expert's choice, standard error "
          "paired / unpaired, worlds differing paired / unpaired")
    saved = []
    while not state.is_terminal() and len(state.results) < args.rounds:
        seat = state.current_players()[0]
        seen, legal = state.observe(seat), state.legal_actions(seat)
        if seat == 0 and len(legal) > 1 and seen.step in IN_PLAY:
            candidates = agent._candidates(seen, legal)
            memory = agent._memory(seen)
            if len(candidates) > 1:
                agent.rollouts = args.worlds * len(candidates)
                paired = agent._weigh(seen, candidates, memory)
                loose = unpaired(agent, seen, candidates, memory, len(paired))
                cells = []
                for i in range(1, len(candidates)):
                    mean, se, differ = gains(paired, i)
                    _, se_loose, differ_loose = gains(loose, i)
                    cells.append(f"{candidates[i].verb} {mean:+6.2f} "
                                 f"se {se:5.2f} / {se_loose:5.2f}, {differ} / {differ_loose}")
                    if se > 0:
                        saved.append((se_loose / se) ** 2)
                print(f"  {seen.step:6} wall {seen.wall:3}  {candidates[0].verb:7}"
                      f" {statistics.mean(w[0] for w in paired):+6.2f} | " + " | ".join(cells),
                      flush=True)
            agent._remember(seen, candidates[0])
        state.apply(seat, experts[seat].act(seen, legal))
    if saved:
        print(f"pairing saves {statistics.median(saved):.1f}x the worlds (median over "
              f"{len(saved)} candidates)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
