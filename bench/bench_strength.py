"""How strong the expert agent is: seeded deals against another agent, seats
rotated (each deal in every lineup), with 95% intervals.

Run: python bench/bench_strength.py [--variant nymj] [--opponent greedy]
                                    [--deals 20] [--seed 2000] [--players K]

Prints, per agent, seat-rounds, round-win share and points per seat-round
with their intervals, match wins and the rating; then the expert's margin
over the opponent in round-win share and in points, with intervals. One
process; `jongg arena` will spread the same schedule over many.
"""

from __future__ import annotations

import argparse
import time

from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match
from jongg.standings import Interval, from_record, margin, schedule, standings


def _shown(i: Interval, digits: int) -> str:
    return f"{i.estimate:.{digits}f} [{i.low:.{digits}f}, {i.high:.{digits}f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    game = load_game(args.variant, args.players)
    players = game.spec.players
    start = time.process_time()
    records = []
    for seating in schedule(["expert", args.opponent], players, args.deals, args.seed):
        record, _ = play_match(game, seating.seed, seating.agents)
        records.append(from_record(seating, record))
    spent = time.process_time() - start
    print(f"{game.spec.variant}, {players} players, {args.deals} deals from seed {args.seed} "
          f"in every lineup ({len(records)} matches, {spent:.0f} s of CPU)")
    for row in standings(records, args.seed):
        print(f"  {row.name:<8} {row.rounds:>6} seat-rounds, round wins {row.round_wins:>5}, "
              f"share {_shown(row.win_share, 3)}, points a round "
              f"{_shown(row.points_per_round, 2)}, match wins {row.match_wins}/{row.matches}, "
              f"rating {_shown(row.rating, 0)}")
    print(f"  expert - {args.opponent}: round-win share "
          f"{_shown(margin(records, 'expert', args.opponent, 'wins'), 3)}, points a round "
          f"{_shown(margin(records, 'expert', args.opponent), 2)}")


if __name__ == "__main__":
    main()
