"""Whether the search agent's departures from the expert hold up when
looked at again for longer.

Run: python bench/bench_departures.py [--variant nymj] [--rounds 4] [--seed 1000]
         [--search search:rollouts=32] [--long 400] [--policies greedy,mixed]

Plays the first rounds of a match with the search agent at seat 0 and the
expert at the others. At every decision where the search chooses other
than the expert's choice, both actions are weighed again over --long
worlds (common to both, each played with the same chance) with each
playout policy of --policies: `greedy` at every seat, as the search's own
playouts, or `mixed`, the expert at the searching seat (as the round will
really go on) and greedy at the others. Prints each departure's gain over
the expert's choice in points (mean and standard error over the worlds),
then, per policy, how many departures the long look confirms (gain above
zero), and their mean gain with its standard error across departures. A
search whose departures the mixed long look does not confirm is led astray
by its playout policy, not by too few worlds.

`--every` asks how much there is to find at all: at every decision the
search weighs (not only its departures), every candidate it weighed is
played over --long worlds; the best of them on one half of the worlds is
scored against the expert's choice on the other half (so the luck that
picked it does not count). Its mean gain over the searched decisions is
what a search choosing among these candidates could win at most, per
decision and per round.
"""

from __future__ import annotations

import argparse
import statistics
import time

from jongg.api import load_game
from jongg.runtime.agents.play import agents_for
from jongg.runtime.agents.search import SearchAgent
from jongg.runtime.game.actions import Action
from jongg.runtime.game.view import Observation


def gain(scored: list[list[float]]) -> tuple[float, float]:
    """The second candidate's mean gain over the first, and its standard error."""
    gains = [w[1] - w[0] for w in scored]
    if len(gains) < 2:
        return 0.0, float("inf")
    return statistics.fmean(gains), statistics.stdev(gains) / len(gains) ** 0.5


def headroom(scored: list[list[float]]) -> float:
    """The gain over the first candidate of the best one on the first half
    of the worlds, scored on the second half."""
    half = len(scored) // 2
    if half < 1 or not scored[0]:
        return 0.0
    chose, judge = scored[:half], scored[half:]
    best = max(range(len(scored[0])), key=lambda i: (sum(w[i] for w in chose), -i))
    return statistics.fmean(w[best] - w[0] for w in judge)


class Watched:
    """The search agent, its departures (or, `every`, all it searched) looked at again."""

    def __init__(self, agent: SearchAgent, long: int, policies: list[str], seed: int,
                 every: bool = False):
        self.agent = agent
        self.long = long
        self.every = every
        self.lookers = {p: SearchAgent(seed + 7, agent.seat, rollouts=2 * long, policy=p,
                                       worlds=agent.worlds) for p in policies}
        self.found: list[dict[str, tuple[float, float]]] = []
        self.room: list[dict[str, float]] = []  # per searched decision, --every

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        memory = self.agent._memory(seen)  # read before the agent remembers its choice
        before, searched = self.agent.departed, self.agent.searched
        chosen = self.agent.act(seen, legal)
        if self.every and self.agent.searched > searched:
            candidates = self.agent.weighed
            room = {}
            for p, looker in self.lookers.items():
                looker.rollouts = self.long * len(candidates)  # --long worlds each
                room[p] = headroom(looker.weigh(seen, candidates, memory,
                                                planned=self.agent.planned))
            self.room.append(room)
            plans = "".join(f", {plan}" for plan in self.agent.planned.values())
            print(f"  round {seen.round} {seen.step}: {len(candidates)} candidates{plans}, "
                  "best over the expert's: " + ", ".join(f"{p} {g:+.3f}" for p, g in room.items()),
                  flush=True)
        elif self.agent.departed > before:
            first = self.agent.weighed[0]
            looks = {p: gain(looker.weigh(seen, [first, chosen], memory,
                                          planned=self.agent.planned))
                     for p, looker in self.lookers.items()}
            self.found.append(looks)
            deck = seen.rules.spec.deck
            said = ", ".join(f"{p} {m:+.2f} ± {e:.2f}" for p, (m, e) in looks.items())
            print(f"  round {seen.round} {seen.step}: expert {first.text(deck)}, "
                  f"search {chosen.text(deck)}: {said}", flush=True)
        return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of each match looked at")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--search", default="search:rollouts=32")
    parser.add_argument("--long", type=int, default=400, help="worlds of the long look")
    parser.add_argument("--policies", default="greedy,mixed")
    parser.add_argument("--every", action="store_true",
                        help="weigh every searched decision's candidates: the most there is to win")
    args = parser.parse_args()
    game = load_game(args.variant)
    policies = args.policies.split(",")
    print(f"{game.spec.variant}: {args.search} at seat 0, the expert at the others; "
          f"departures looked at again over {args.long} worlds")
    start = time.process_time()
    found: list[dict[str, tuple[float, float]]] = []
    room: list[dict[str, float]] = []
    searched = rounds = 0
    for match in range(args.matches):
        seed = args.seed + match
        state = game.new_match(seed)
        seats = agents_for([args.search, "expert"], seed, game.spec.players)
        watched = Watched(seats[0], args.long, policies, seed,  # type: ignore[arg-type]
                          every=args.every)
        seats[0] = watched  # type: ignore[assignment]
        while not state.is_terminal() and len(state.results) < args.rounds:
            seat = state.current_players()[0]
            state.apply(seat, seats[seat].act(state.observe(seat), state.legal_actions(seat)))
        found += watched.found
        room += watched.room
        searched += watched.agent.searched
        rounds += len(state.results)
    print(f"{len(found)} departures of {searched} searched decisions, "
          f"{time.process_time() - start:.0f} s of CPU")
    if args.every:
        for p in policies:
            gains = [r[p] for r in room]
            if len(gains) < 2:
                continue
            mean, error = statistics.fmean(gains), statistics.stdev(gains) / len(gains) ** 0.5
            print(f"{p:>7}: the best candidate over the expert's choice, {len(gains)} searched "
                  f"decisions in {rounds} rounds: {mean:+.3f} ± {error:.3f} points a decision, "
                  f"{mean * len(gains) / max(rounds, 1):+.3f} a round")
        return 0
    for p in policies:
        means = [look[p][0] for look in found]
        if len(means) < 2:
            continue
        sure = sum(1 for look in found if look[p][0] > 1.96 * look[p][1])
        wrong = sum(1 for look in found if look[p][0] < -1.96 * look[p][1])
        print(f"{p:>7}: gain above zero in {sum(m > 0 for m in means)} of {len(means)} "
              f"(clearly {sure}, clearly below {wrong}); mean gain "
              f"{statistics.fmean(means):+.3f} ± {statistics.stdev(means) / len(means) ** 0.5:.3f}"
              " points a departure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
