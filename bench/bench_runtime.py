"""The game runtime: random-agent matches, rounds and decisions per second.

Run: python bench/bench_runtime.py [--variant nymj] [--players 4] [--matches 40]
                                   [--reference 2] [--greedy 0]

Plays seeded matches with random agents on one core, with the compiled
matcher, then the first few again with the reference matcher behind the
same game (the brute-force oracle: what the compiled matcher buys in play;
the two must play the same matches, which is checked), and prints rounds and
decisions per second, the median round, the ratio, and the goals (rounds per
second per core, 4 players):

    nymj, mjcg: random agents >= 50; mjcg: greedy agents >= 2
    mjcg-advanced: random agents >= 30
    mjcg-card: greedy agents >= 30
    imperial-siamese: random agents >= 15
    siamese (2 players): greedy agents >= 15

`--greedy N` times N matches of greedy agents in every seat (and, with
`--reference`, the first again on the reference matcher). A run with
invariant checks at every step (what `jongg simulate` does) is timed too.
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

# rounds per second per core: (random agents, greedy agents) by variant
GOALS: dict[str, tuple[float | None, float | None]] = {
    "nymj": (50.0, None), "mjcg": (50.0, 2.0), "mjcg-advanced": (30.0, None),
    "mjcg-card": (None, 30.0), "imperial-siamese": (15.0, None), "siamese": (None, 15.0)}


def measure(game: Game, seeds: range, *, check: bool = False,
            agents: tuple[str, ...] = ("random",),
            records: list[object] | None = None) -> dict[str, float]:
    rounds = decisions = 0
    per_round: list[float] = []
    start = time.perf_counter()
    for seed in seeds:
        begin = time.perf_counter()
        record, _ = play_match(game, seed, agents, check=check)
        spent = time.perf_counter() - begin
        if records is not None:
            records.append((record.rounds, record.decisions))
        rounds += len(record.rounds)
        decisions += record.decisions
        per_round += [spent / len(record.rounds)] * len(record.rounds)
    seconds = time.perf_counter() - start
    return {"matches": len(seeds), "rounds": rounds, "decisions": decisions,
            "seconds": seconds, "rounds_per_s": rounds / seconds,
            "decisions_per_s": decisions / seconds,
            "median_round_ms": statistics.median(per_round) * 1e3}


def _row(name: str, m: dict[str, float]) -> str:
    return (f"{name:<26} {int(m['matches']):>7} {int(m['rounds']):>6} "
            f"{m['rounds_per_s']:>9.1f} {m['decisions_per_s']:>11.0f} "
            f"{m['median_round_ms']:>10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--reference", type=int, default=2,
                        help="matches replayed on the reference matcher")
    parser.add_argument("--greedy", type=int, default=0,
                        help="matches with greedy agents in every seat, timed too")
    args = parser.parse_args()
    game = load_game(args.variant, args.players)
    play_match(game, 10_000, ["random"])  # warm the matcher's memo and tables
    played: list[object] = []
    compiled = measure(game, range(args.matches), records=played)
    checked = measure(game, range(max(1, args.matches // 4)), check=True)
    print(f"{game.spec.variant}, {game.spec.players} players, random agents, one core")
    print(f"{'':<26} {'matches':>7} {'rounds':>6} {'rounds/s':>9} {'decisions/s':>11} "
          f"{'round (ms)':>10}")
    print(_row("compiled matcher", compiled))
    print(_row("  + invariant checks", checked))
    reference = None
    if args.reference:
        oracle = Game(game.spec, ReferenceMatcher(game.matcher.card))
        again: list[object] = []
        reference = measure(oracle, range(args.reference), records=again)
        assert again == played[:args.reference], "the reference played other matches"
        print(_row("reference matcher", reference))
        ratio = compiled["rounds_per_s"] / reference["rounds_per_s"]
        print(f"compiled / reference: {ratio:.1f}x rounds per second (the same matches)")
    greedy_played: list[object] = []
    greedy = measure(game, range(args.greedy), agents=("greedy",),
                     records=greedy_played) if args.greedy else None
    greedy_reference = None
    if greedy:
        print(_row("greedy agents", greedy))
        if args.reference:  # one match: the reference weighs every discard the long way
            oracle = Game(game.spec, ReferenceMatcher(game.matcher.card))
            again = []
            greedy_reference = measure(oracle, range(1), agents=("greedy",), records=again)
            assert again == greedy_played[:1], "the reference played another greedy match"
            print(_row("greedy, reference matcher", greedy_reference))
    rows = [("random", compiled, reference), ("greedy", greedy, greedy_reference)]
    goals = GOALS.get(args.variant, (None, None))
    print("goals (rounds per second per core; the reference: the brute-force matcher):")
    for label, figure, beside in rows:
        goal = goals[0] if label == "random" else goals[1]
        if goal is not None and figure is not None:
            print(goal_line(f"{game.spec.variant}, {label} agents", figure["rounds_per_s"],
                            beside["rounds_per_s"] if beside else None,
                            goal, "rounds/s", at_least=True))


if __name__ == "__main__":
    main()
