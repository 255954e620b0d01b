"""The game runtime: random-agent matches, rounds and decisions per second.

Run: python bench/bench_runtime.py [--variant nymj] [--players 4] [--matches 40]
                                   [--reference 2] [--greedy 0] [--suggested]

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

`--greedy N` times N matches of greedy agents in every seat. A run with
invariant checks at every step (what `jongg simulate` does) is timed too.
`--suggested` times the same matches again with two game-side calls changed
as the matcher now allows (a claim window asks `Matcher.allows` whether a
set fits instead of scoring the hand; the greedy agent weighs its discards
with one `Matcher.discard_scores` call), patched in for the run only.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Iterator

from timing import goal_line

from jongg.compiler.game import load_game
from jongg.runtime.agents.bots import FAR
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.game import Game
from jongg.runtime.hand import Hand
from jongg.runtime.matching.reference import ReferenceMatcher

# rounds per second per core: (random agents, greedy agents) by variant
GOALS: dict[str, tuple[float | None, float | None]] = {
    "nymj": (50.0, None), "mjcg": (50.0, 2.0), "mjcg-advanced": (30.0, None),
    "mjcg-card": (None, 30.0), "imperial-siamese": (15.0, None), "siamese": (None, 15.0)}


@contextlib.contextmanager
def suggested() -> Iterator[None]:
    """The game with the two calls the report suggests (runtime/game and
    runtime/agents are not the matcher's to change): a set fits when
    `allows` says so, and the greedy agent's discards are weighed by one
    `discard_scores` call per hand."""
    from jongg.runtime.agents.bots import GreedyAgent
    from jongg.runtime.game.state import State

    def fits(self: State, seat: int, tile: int, tiles: tuple[int, ...], rack: int = 0) -> bool:
        return bool(self.matcher.allows(self._exposed_hand(seat, tile, tiles, rack).exposures,
                                        open_hands=self.spec.open_hands))

    def without(self: GreedyAgent, state: State, seat: int, tile: int) -> Hand:
        hand = original_without(self, state, seat, tile)
        full = state.seats[seat].hand()
        if full not in self._weighed:
            self._weighed = {full: state.matcher.discard_scores(
                full, open_hands=state.spec.open_hands)}
        lines = state.matcher.card.lines
        away = [lines[li].size - sc for li, sc, _ in self._weighed[full][tile]]
        best = min(away, default=FAR[0])
        self._memo[hand] = (best, -away.count(best))
        return hand

    original_fits, original_without = State._fits, GreedyAgent._without
    State._fits = fits  # type: ignore[method-assign]
    GreedyAgent._without = without  # type: ignore[method-assign]
    GreedyAgent._weighed = {}  # type: ignore[attr-defined]
    try:
        yield
    finally:
        State._fits = original_fits  # type: ignore[method-assign]
        GreedyAgent._without = original_without  # type: ignore[method-assign]


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
    parser.add_argument("--suggested", action="store_true",
                        help="time the matches again with the suggested game-side calls")
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
    if greedy:
        print(_row("greedy agents", greedy))
    rows = [("random", compiled), ("greedy", greedy)]
    if args.suggested:
        with suggested():
            same: list[object] = []
            calls = measure(game, range(args.matches), records=same)
            assert same == played, "the suggested calls changed a match"
            print(_row("suggested calls", calls))
            greedy_calls = None
            if args.greedy:
                same = []
                greedy_calls = measure(game, range(args.greedy), agents=("greedy",),
                                       records=same)
                assert same == greedy_played, "the suggested calls changed a match"
                print(_row("greedy, suggested calls", greedy_calls))
        rows += [("random, suggested calls", calls), ("greedy, suggested calls", greedy_calls)]
    goals = GOALS.get(args.variant, (None, None))
    print("goals (rounds per second per core; the reference: the brute-force matcher):")
    for label, figure in rows:
        goal = goals[0] if label.startswith("random") else goals[1]
        if goal is not None and figure is not None:
            print(goal_line(f"{game.spec.variant}, {label} agents", figure["rounds_per_s"],
                            reference["rounds_per_s"] if reference and
                            label.startswith("random") else None,
                            goal, "rounds/s", at_least=True))


if __name__ == "__main__":
    main()
