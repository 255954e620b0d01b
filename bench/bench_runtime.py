"""The game runtime: random-agent matches, rounds and decisions per second.

Run: python bench/bench_runtime.py [--variant nymj] [--players 4] [--matches 40]
                                   [--reference 2] [--greedy 0] [--expert 0]

Plays seeded matches with random agents on one core, with the compiled
matcher, then the first few again with the reference matcher behind the
same game (the brute-force oracle: what the compiled matcher buys in play;
the two must play the same matches, which is checked), and prints rounds and
decisions per second, the median round, the ratio, and the goals (rounds per
second per core, 4 players unless said):

    nymj, mjcg: random agents >= 50; mjcg: greedy agents >= 2
    mjcg-advanced: random agents >= 30
    mjcg-card: greedy agents >= 30, expert agents >= 10
    imperial-siamese: random agents >= 15
    siamese (2 players): greedy agents >= 15

`--greedy N` and `--expert N` time N matches of those agents in every seat
(`--matches 0` leaves the random agents out)
(with `--reference`, the first greedy match is played again on the reference
matcher, and must be the same match). A run with invariant checks at every
step (what `jongg simulate` does) is timed too. Rates are per second of this
process's CPU time ("per core"), so other work on the machine does not count
against them; the wall-clock seconds are printed beside.
"""

from __future__ import annotations

import argparse
import statistics
import time

from timing import goal_line

from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.game import Game
from jongg.runtime.matching.reference import ReferenceMatcher

# rounds per second per core, by variant and agent
GOALS = {"nymj": {"random": 50.0}, "mjcg": {"random": 50.0, "greedy": 2.0},
         "mjcg-advanced": {"random": 30.0}, "mjcg-card": {"greedy": 30.0, "expert": 10.0},
         "imperial-siamese": {"random": 15.0}, "siamese": {"greedy": 15.0}}


def measure(game: Game, seeds: range, *, check: bool = False,
            agents: tuple[str, ...] = ("random",),
            records: list[object] | None = None) -> dict[str, float]:
    rounds = decisions = 0
    per_round: list[float] = []
    start, wall = time.process_time(), time.perf_counter()
    for seed in seeds:
        begin = time.process_time()
        record, _ = play_match(game, seed, agents, check=check)
        spent = time.process_time() - begin
        if records is not None:
            records.append((record.rounds, record.decisions))
        rounds += len(record.rounds)
        decisions += record.decisions
        per_round += [spent / len(record.rounds)] * len(record.rounds)
    seconds = time.process_time() - start
    return {"matches": len(seeds), "rounds": rounds, "decisions": decisions,
            "seconds": seconds, "wall": time.perf_counter() - wall,
            "rounds_per_s": rounds / seconds, "decisions_per_s": decisions / seconds,
            "median_round_ms": statistics.median(per_round) * 1e3}


def _row(name: str, m: dict[str, float]) -> str:
    return (f"{name:<26} {int(m['matches']):>7} {int(m['rounds']):>6} "
            f"{m['rounds_per_s']:>9.1f} {m['decisions_per_s']:>11.0f} "
            f"{m['median_round_ms']:>10.2f} {m['wall']:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=40,
                        help="matches with random agents (0: none, only --greedy/--expert)")
    parser.add_argument("--reference", type=int, default=2,
                        help="matches replayed on the reference matcher")
    parser.add_argument("--greedy", type=int, default=0,
                        help="matches with greedy agents in every seat, timed too")
    parser.add_argument("--expert", type=int, default=0,
                        help="matches with expert agents in every seat, timed too")
    args = parser.parse_args()
    game = load_game(args.variant, args.players)
    play_match(game, 10_000, ["random"])  # warm the matcher's memo and tables
    played: dict[str, list[object]] = {"random": []}
    print(f"{game.spec.variant}, {game.spec.players} players, one core")
    print(f"{'':<26} {'matches':>7} {'rounds':>6} {'rounds/s':>9} {'decisions/s':>11} "
          f"{'round (ms)':>10} {'wall (s)':>8}")
    figures: dict[str, dict[str, float]] = {}
    if args.matches:  # random agents (--matches 0: only the agents asked for below)
        figures["random"] = compiled = measure(game, range(args.matches),
                                               records=played["random"])
        checked = measure(game, range(max(1, args.matches // 4)), check=True)
        print(_row("compiled matcher", compiled))
        print(_row("  + invariant checks", checked))
    oracle = Game(game.spec, ReferenceMatcher(game.matcher.card))
    references: dict[str, dict[str, float]] = {}
    if args.reference and args.matches:
        again: list[object] = []
        references["random"] = measure(oracle, range(args.reference), records=again)
        assert again == played["random"][:args.reference], "the reference played other matches"
        print(_row("reference matcher", references["random"]))
        ratio = compiled["rounds_per_s"] / references["random"]["rounds_per_s"]
        print(f"compiled / reference: {ratio:.1f}x rounds per second (the same matches)")
    for name, matches in (("greedy", args.greedy), ("expert", args.expert)):
        if matches:
            played[name] = []
            figures[name] = measure(game, range(matches), agents=(name,), records=played[name])
            print(_row(f"{name} agents", figures[name]))
    if args.reference and args.greedy:  # one match: the reference weighs discards the long way
        again = []
        references["greedy"] = measure(oracle, range(1), agents=("greedy",), records=again)
        assert again == played["greedy"][:1], "the reference played another greedy match"
        print(_row("greedy, reference matcher", references["greedy"]))
    print("goals (rounds per second per core; the reference: the brute-force matcher):")
    for name, goal in GOALS.get(args.variant, {}).items():
        if name in figures:
            beside = references.get(name)
            print(goal_line(f"{game.spec.variant}, {name} agents", figures[name]["rounds_per_s"],
                            beside["rounds_per_s"] if beside else None, goal, "rounds/s",
                            at_least=True))


if __name__ == "__main__":
    main()
