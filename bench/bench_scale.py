"""The card report's throughput: the same rounds in one process, on a pool of
processes and on Ray, and the scaling from 1 to 2 cores.

Run: python bench/bench_scale.py [--card sample] [--variant mjcg-card]
                                 [--rounds 40] [--agents greedy] [--jobs 2] [--no-ray]

Plays the card report's job (the first round of each seed's match, counted
per line) through jongg.runs.scale, after compiling the game once, and prints
rounds per second, rounds per second per core, and how much the second core
adds. Ray (the cluster extra) is started here with --jobs CPUs (`--cluster
local`); its start is timed apart from its rounds. Every run must give the
same tally: the benchmark says so, or fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from functools import partial

from jongg.cardlab.report import card_source
from jongg.cardlab.tally import ReportSetup, Tally, encode, merge, play_rounds, table_game
from jongg.runs import scale


def timed(table: ReportSetup, seeds: range, **where: object) -> tuple[Tally, float]:
    start = time.perf_counter()
    outcome = scale.gather(partial(play_rounds, table), seeds, merge, size=10,
                           **where)  # type: ignore[arg-type]
    assert outcome.result is not None and not outcome.partial
    return outcome.result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--card", default="sample")
    parser.add_argument("--variant", default="mjcg-card")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--agents", default="greedy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    table = ReportSetup(args.variant, card_source(args.card), 4, tuple(args.agents.split(",")))
    game = table_game(table)  # compiled before any clock starts
    seeds = range(0, args.rounds)
    print(f"{args.card} ({len(game.matcher.card.lines)} lines) in {args.variant}, "
          f"{args.rounds} rounds, {args.agents} agents")
    one, alone = timed(table, seeds)
    print(f"1 process:  {args.rounds / alone:6.2f} rounds/s")
    many, pooled = timed(table, seeds, jobs=args.jobs)
    assert encode(many) == encode(one), "the pool's tally differs"
    print(f"{args.jobs} processes: {args.rounds / pooled:6.2f} rounds/s, "
          f"{args.rounds / pooled / args.jobs:.2f} per core; "
          f"scaling {alone / pooled:.2f}x of {args.jobs}")
    if args.no_ray or importlib.util.find_spec("ray") is None:
        return
    start = time.perf_counter()
    ray, _ = scale.connect(scale.LOCAL, args.jobs)
    ray.get(ray.remote(lambda: None).remote())  # a worker up: the start is not the rounds'
    print(f"Ray, local, {args.jobs} CPUs: started in {time.perf_counter() - start:.1f} s")
    far, on_ray = timed(table, seeds, cluster=scale.LOCAL, jobs=args.jobs)
    ray.shutdown()
    assert encode(far) == encode(one), "Ray's tally differs"
    print(f"Ray:        {args.rounds / on_ray:6.2f} rounds/s, "
          f"{args.rounds / on_ray / args.jobs:.2f} per core; {pooled / on_ray:.2f}x the pool")


if __name__ == "__main__":
    main()
