"""`jongg card report` on the command line: the arguments read, the report
run (jongg.cardlab.report) with a progress bar, and what was written said."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from jongg.api import Diagnostic, UsageError
from jongg.cardlab.report import AGAINST, Request, run_report
from jongg.commands.args import agents_arg
from jongg.commands.console import progress_bar
from jongg.runs import scale


def _players(text: str | None) -> tuple[int | None, ...]:
    if text is None:
        return (None,)
    counts: list[int] = []
    for word in text.split(","):
        if not word.strip().isdecimal():
            raise UsageError([Diagnostic(None, f"--players: {word.strip()!r} is not a count",
                                         hint="give counts separated by commas: 3,4,5")])
        if int(word) not in counts:
            counts.append(int(word))
    return tuple(counts)


def _counts(text: str, option: str = "--committed", example: str = "40,10") -> tuple[int, ...]:
    """--committed (rounds a line) or --rounds (free-play rounds): one count
    or one an agent (the last repeats)."""
    counts = []
    for word in text.split(","):
        if not word.strip().isdecimal():
            raise UsageError([Diagnostic(None, f"{option}: {word.strip()!r} is not a count",
                                         hint="give one count, or one an agent: "
                                              f"{example}")])
        counts.append(int(word))
    return tuple(counts)


def default_out(card: str) -> str:
    """The folder a report goes to when none is given: the card's name (a
    file's stem) and -report, in the current folder."""
    name = Path(card).name
    for suffix in (".yaml", ".yml"):
        name = name.removesuffix(suffix)
    return f"{name}-report"


def command(args: Any) -> int:
    """`jongg card report`: play, write the folder, say where and how much."""
    rounds = _counts(str(args.rounds), "--rounds", "1000,100")
    if rounds[0] < 1:
        raise UsageError("--rounds: give at least 1 for the first agent")
    request = Request(args.card, args.variant, _players(args.players), rounds[0],
                      agents_arg(args.agents), args.seed, Path(args.out or default_out(args.card)),
                      scale.workers(args.jobs), args.cluster, args.force, _counts(args.committed),
                      args.against, rounds)
    with progress_bar(args.quiet) as bar:
        tasks: dict[str, Any] = {}

        def tell(label: str, total: int, rounds: int) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.advance(tasks[label], rounds)

        result = run_report(request, tell)
    for free, resumed, agents in zip(result.free, result.resumed, result.committed,
                                     strict=True):
        f = free[0]
        again = f" ({resumed} of them from an earlier run)" if resumed else ""
        print(f"{f.players} players: {f.tally.rounds} rounds{again}, {f.wins} won, "
              f"{f.tally.walls} wall games; {len(f.rows)} lines, "
              f"{sum(1 for r in f.rows if not r.tally.wins)} never won")
        for g in free[1:]:
            print(f"  {g.agent} free play: {g.tally.rounds} rounds, {g.wins} won, "
                  f"{g.tally.walls} wall games")
        for a in agents:
            valued = sum(1 for r in a.rows if r.fair is not None)
            print(f"  {a.agent} committed: {a.rounds} rounds, {valued} of {len(a.rows)} lines "
                  f"valued, {len(a.mispriced())} priced outside their interval")
    if result.against is not None:
        print(f"against {request.against}: {request.out / AGAINST}")
    print(f"report: {request.out / 'report.html'} (and lines.csv, committed.csv, report.json)")
    if result.partial:
        print(f"jongg: interrupted: the report covers the rounds above of {request.rounds} "
              "asked; give the same command again to continue", file=sys.stderr)
        return 130
    return 0
