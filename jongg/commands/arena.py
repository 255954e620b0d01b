"""`jongg arena`: the command that plays agents against each other and
prints their standings (jongg/runs/arena.py plays, jongg/runs/standings.py judges)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich import box
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from jongg.api import Diagnostic, UsageError, compile_variant, counted, load_game
from jongg.commands.args import agents_arg
from jongg.commands.console import plain_console, progress_bar, table_building
from jongg.runs.arena import LADDER, Bouts, Result, arena
from jongg.runs.scale import workers
from jongg.runs.standings import Interval
from jongg.runtime.game.state import Mode

NEXT = "\n"  # between an estimate and its interval in a table cell


def cmd_arena(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise UsageError("--rounds: give at least 1")
    agents = agents_arg(",".join(LADDER) if args.agents.strip() == "ladder" else args.agents)
    twice = next((n for i, n in enumerate(agents) if n in agents[:i]), None)
    if twice is not None:
        raise UsageError([Diagnostic(None, f"--agents: {twice[:40]!r} is named twice",
                                     hint="name each agent once: seats rotate, so each "
                                          "plays every seat")])
    if len(agents) < 2:
        raise UsageError([Diagnostic(None, f"--agents: only {agents[0][:40]!r}; an arena "
                                           "needs at least two agents",
                                     hint="e.g. --agents expert,greedy,random")])
    jobs = workers(args.jobs)
    spec = compile_variant(args.variant, args.players)  # every problem before any process starts
    bouts = Bouts(args.variant, spec.players, agents, Mode(args.mode))
    with table_building(args.quiet) as hear:  # the tables built once, into the cache
        load_game(args.variant, spec.players, progress=hear)
    out = Path(args.out) if args.out else None
    with progress_bar(args.quiet) as bar:
        task = bar.add_task(escape(f"{spec.variant}, {spec.players} players, deals"),
                            total=args.rounds)
        result = arena(bouts, args.rounds, args.seed, jobs=jobs, cluster=args.cluster, out=out,
                       progress=lambda n: bar.advance(task, n))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _print_standings(result, spec.variant)
    if result.resumed and not args.json:
        print(f"jongg: {result.resumed} of the deals were read back from {out}",
              file=sys.stderr)
    if result.partial:
        keep = f"; run it again with --out {out} to play the rest" if out else \
            " (give --out FILE to keep what is played)"
        print(f"jongg: interrupted: {result.done} of {result.deals} deals finished; the "
              f"standings are of those alone (partial){keep}", file=sys.stderr)
        return 130
    return 0


def _shown(i: Interval, digits: int, sep: str = " ") -> str:
    return f"{i.estimate:.{digits}f}{sep}[{i.low:.{digits}f}, {i.high:.{digits}f}]"


def _percent(i: Interval, sep: str = " ", share: bool = True) -> str:
    """A share (its interval cut to 0..1) or, not a share, a margin (signed)."""
    low, high = (max(i.low, 0), min(i.high, 1)) if share else (i.low, i.high)
    return f"{i.estimate:.0%}{sep}[{low:.0%}, {high:.0%}]"


def seats_held(agents: int, players: int) -> str:
    """How the rotation shares a match's seats among the agents (each holds
    every seat once a deal, so `players` seat-matches a deal, over `agents`
    matches)."""
    if players % agents == 0:
        each = players // agents
        return f"each agent holds {each} of the {players} seats in every match" if each > 1 \
            else "each agent holds one seat in every match"
    if agents > players:
        return f"each agent holds one seat in {players} of every {agents} matches"
    few = players // agents
    return f"each agent holds {few} or {few + 1} of the {players} seats in a match"


def _print_standings(result: Result, variant: str) -> None:
    console = plain_console()
    agents = result.bouts.agents
    players = result.bouts.players
    seeds = f"seeds {result.seed}..{result.seed + result.done - 1}" if result.done else \
        "no deal finished"
    partial = f" (partial: interrupted, of {result.deals} asked)" if result.partial else ""
    console.print(f"{variant}, {players} players: {counted(result.done, 'deal')}{partial}, "
                  f"{seeds}, each in {len(agents)} seatings ({len(result.matches)} matches); "
                  "95% intervals", soft_wrap=True)
    # the table counts by seat: an agent in two seats of a match plays it twice
    console.print(f"{seats_held(len(agents), players)}, counted in each seat: match wins "
                  f"are out of {result.done * players} seat-matches an agent, rounds are "
                  "seat-rounds", soft_wrap=True)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for heading in ("agent", "seat-rounds", "round wins", "points/round", "match wins",
                    "rating"):  # folded where narrow, never cut short: two agents' names
        table.add_column(heading, overflow="fold")  # may differ only in their last option
    for row in result.table:  # each estimate above its interval
        table.add_row(row.name, str(row.rounds),
                      f"{row.round_wins}, {_percent(row.win_share, NEXT)}",
                      _shown(row.points_per_round, 1, NEXT),
                      f"{row.match_wins}/{row.matches}, {_percent(row.match_share, NEXT)}",
                      _shown(row.rating, 0, NEXT))
    if not console.is_terminal:  # a file or a pipe has no width: the table at its own
        console.width = max(console.width, Measurement.get(
            console, console.options.update(max_width=10_000), table).maximum)
    console.print(table)
    said = [(result.table[0].name, *gap, "") for gap in result.gaps()]
    said += [(*step, " (the next below)") for step in result.steps()[1:]]  # the first: above
    for better, worse, wins, points, note in said:
        console.print(f"{better} over {worse}{note}: round wins "
                      f"{_percent(wins, share=False)}, points a round {_shown(points, 1)}",
                      soft_wrap=True)
