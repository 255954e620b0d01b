"""`jongg variant`, `jongg simulate` and `jongg replay`: the commands that
compile and run games."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from jongg.compiler.errors import Diagnostic, UsageError
from jongg.compiler.game import load_game
from jongg.compiler.registry import shipped
from jongg.compiler.variant import check_variant, compile_variant, notes, player_counts, resolve
from jongg.runtime.agents.registry import SHIPPED, UnknownAgent, agent_maker
from jongg.runtime.game.log import LogError, read_header, replay
from jongg.runtime.game.state import Mode

from .resolved import annotated
from .simulate import Job, simulate, wilson


def _clauses(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "clause":
                found.update([value] if isinstance(value, str) else value)
            else:
                _clauses(value, found)
    elif isinstance(node, list):
        for item in node:
            _clauses(item, found)
    return found


def cmd_variant_show(args: argparse.Namespace) -> int:
    if args.resolved:
        spec = compile_variant(args.variant, args.players)  # every problem first
        resolved = resolve(args.variant, spec.players)
        data = resolved.data
        if not args.json:
            print(f"# {spec.variant} resolved for {spec.players} players")
    else:
        data = resolve(args.variant).data
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    if args.resolved:
        print(annotated(resolved))
        for note in notes(spec, resolved):
            print(f"# {note}")
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).rstrip())
    clauses = sorted(_clauses(data, set()), key=lambda c: (c.split("-")[0], int(c.split("-")[1])))
    print(f"# clauses: {', '.join(clauses) if clauses else 'none'}")
    return 0


def cmd_variant_check(args: argparse.Namespace) -> int:
    status = 0
    for name in args.variants:
        problems = check_variant(name)
        for d in sorted(problems, key=lambda d: (d.location.file, d.location.line,
                                                 d.location.column) if d.location else
                        ("", 0, 0)):
            print(str(d))
        if any(d.is_error for d in problems):
            status = 1
            print(f"{name}: {sum(d.is_error for d in problems)} error(s)")
        else:
            counts = player_counts(resolve(name))
            print(f"{name}: ok: {counts.start}-{counts.stop - 1} players")
    return status


def _agents(text: str) -> tuple[str, ...]:
    """Agents by seat from --agents: shipped names or module:Class."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise UsageError([Diagnostic(None, f"--agents: no agent named in {text!r}",
                                     hint=f"agents: {', '.join(SHIPPED)}, or module:Class")])
    for name in names:
        try:
            agent_maker(name)
        except UnknownAgent as error:
            raise UsageError(f"--agents: {error}") from None
    return names


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games: give at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs: give at least 1")
    agents = _agents(args.agents)
    spec = compile_variant(args.variant, args.players)  # every problem before any process starts
    load_game(args.variant, spec.players)  # compile the matcher once, into the cache
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    job = Job(args.variant, spec.players, agents, Mode(args.mode), args.log_dir, True)
    console = Console(stderr=True)
    show = console.is_terminal and not args.quiet
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, disable=not show) as bar:
        task = bar.add_task(f"{spec.variant}, {spec.players} players", total=args.games)
        summary = simulate(job, args.games, args.seed, args.jobs,
                           lambda n: bar.advance(task, n))
    result = summary.to_json()
    if args.json:
        print(json.dumps(result))
    else:
        _print_summary(result, spec.seats, spec.word("points"), spec.racks > 1)
    return 1 if summary.violations else 0


def _print_summary(result: dict[str, Any], seats: tuple[str, ...], points: str,
                   racks: bool) -> None:
    console = Console()
    games, rounds = result["games"], result["rounds"]
    console.print(f"{result['variant']}: {games} matches, {rounds} rounds, "
                  f"{result['players']} players ({', '.join(result['agents'])}), "
                  f"seeds {result['seed']}..{result['seed'] + games - 1}")
    # several racks: Mah Jonggs are declared apart from round wins; payouts when paid
    paid = all("mean_payout" in s for s in result["seats"])
    columns = ["seat", "match wins", "95% interval", "round wins",
               *(["Mah Jonggs"] if racks else []), f"mean {points}",
               *(["mean payout"] if paid else [])]
    table = Table(*columns)
    for seat in result["seats"]:
        low, high = wilson(seat["match_wins"], games)
        table.add_row(seats[seat["seat"]], f"{seat['match_wins']:g}",
                      f"{low:.1%} - {high:.1%}", str(seat["round_wins"]),
                      *([str(seat["mahjongs"])] if racks else []),
                      f"{seat['mean_score']:.2f}",
                      *([f"{seat['mean_payout']:.2f}"] if paid else []))
    console.print(table)
    won = result["self_drawn"] + result["by_claim"]
    console.print(f"rounds won: {won} ({result['self_drawn']} self-drawn, "
                  f"{result['by_claim']} by claim); wall games: {result['wall_games']}")
    if result["unwon"] or result["dead_ends"]:
        console.print(f"rounds ended with Mah Jonggs but no winner: {result['unwon']}; "
                      f"ended by dead hands: {result['dead_ends']}")
    console.print(f"mean turns a round: {result['mean_turns']:.1f}")
    if result["lines"]:
        lines = Table("hands won by line", "rounds")
        for line, n in result["lines"].items():
            lines.add_row(line, str(n))
        console.print(lines)
    console.print(f"invariant violations: {result['violations']}; "
                  f"{result['seconds']:.1f} s ({result['rounds_per_second']} rounds/s)")
    for problem in result["problems"]:
        console.print(f"  {problem}")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        header = read_header(args.log)
        game = load_game(header.variant, header.players)
        result = replay(args.log, game)
    except LogError as error:
        raise UsageError(str(error)) from None
    state = result.state
    out = {"log": args.log, "variant": header.variant, "players": header.players,
           "seed": header.seed, "complete": result.complete, "rounds": state.round,
           "decisions": state.decisions, "scores": state.scores,
           "winners": state.winners() if state.is_terminal() else [],
           "state": state.digest(), "same": not result.problems, "problems": result.problems}
    if args.json:
        print(json.dumps(out))
    else:
        for problem in result.problems:
            print(problem, file=sys.stderr)
        end = "the end of the match" if result.complete else "where it stopped (no end recorded)"
        verdict = "same final state and scores" if not result.problems else "DIFFERS"
        print(f"{args.log}: replayed {state.decisions} decisions of {header.variant} "
              f"({header.players} players, seed {header.seed}) to {end}: {verdict}")
        print(f"scores: {' '.join(map(str, state.scores))}; state {state.digest()}")
    return 0 if not result.problems else 1


def cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from . import terminal

    console = Console(highlight=False)
    if args.resume:
        try:
            header = read_header(args.resume)
            game = load_game(header.variant, header.players)
            table = terminal.resume(game, Path(args.resume), console=console, fast=args.fast)
        except (LogError, ValueError) as error:
            raise UsageError(f"--resume: {error}") from None
        console.print(f"resuming {header.variant} from {args.resume} "
                      f"({table.state.decisions} decisions played, state "
                      f"{table.state.digest()})")
    else:
        if not args.variant:
            raise UsageError("play: name a variant (or --resume LOG)")
        agents = _agents(args.agents)
        game = load_game(args.variant, args.players)
        if not 1 <= args.seat <= game.spec.players:
            raise UsageError(f"--seat: give 1 to {game.spec.players}")
        log = Path(args.log or f"jongg-{game.spec.variant}-{args.seed}.jsonl")
        mode = Mode.STRICT if args.strict else Mode.GUARDED
        table = terminal.start(game, seat=args.seat - 1, agents=agents, seed=args.seed,
                               mode=mode, log=log, console=console, fast=args.fast)
        console.print(f"{game.spec.title}: you are {game.spec.seats[args.seat - 1]}; "
                      f"the game is written to {log} (type help for commands)")
    try:
        table.play()
    except (terminal.Quit, KeyboardInterrupt):  # Ctrl-C may come while a bot thinks
        console.print(f"\nstopped at state {table.state.digest()}; resume with: "
                      f"jongg play --resume {table.writer.path}")
    finally:
        table.writer.close()
    return 0


def register(commands: Any) -> None:
    variant = commands.add_parser("variant", help="inspect and check variants")
    actions = variant.add_subparsers(dest="variant_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="print a variant (with --resolved: every default "
                              "filled in, extends and player-count overrides applied)")
    show.add_argument("variant", metavar="VARIANT", help="a shipped name or a path")
    show.add_argument("--resolved", action="store_true", help="fill in every default")
    show.add_argument("--players", type=int, help="the player count to resolve for")
    show.add_argument("--json", action="store_true", help="print JSON instead of YAML")
    show.set_defaults(run=cmd_variant_show)
    check = actions.add_parser("check", help="check variants at every player count they allow")
    check.add_argument("variants", nargs="+", metavar="VARIANT")
    check.set_defaults(run=cmd_variant_check)

    sim = commands.add_parser("simulate", help="play many matches with bots and summarise them")
    sim.add_argument("variant", metavar="VARIANT", help=f"one of {', '.join(shipped('variant'))}"
                     ", or a path")
    sim.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="match i plays seed SEED+i")
    sim.add_argument("--players", type=int, help="player count (default: the variant's)")
    sim.add_argument("--agents", default="random",
                     help="agents by seat, comma-separated; the last repeats (default random)")
    sim.add_argument("--jobs", type=int, default=1, help="processes (results do not change)")
    sim.add_argument("--mode", choices=[m.value for m in Mode], default="guarded",
                     help="strict: agents may make the rulebook's mistakes")
    sim.add_argument("--log-dir", metavar="DIR", help="write every match's log here")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=cmd_simulate)

    play = commands.add_parser("play", help="play a variant at the terminal against bots")
    play.add_argument("variant", metavar="VARIANT", nargs="?", help="a variant name or path")
    play.add_argument("--players", type=int, help="player count (default: the variant's)")
    play.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    play.add_argument("--agents", default="greedy",
                      help="bots for the other seats, comma-separated (default greedy)")
    play.add_argument("--seed", type=int, default=0, help="the match seed")
    play.add_argument("--strict", action="store_true",
                      help="let mistakes be made, and apply the rulebook's penalty")
    play.add_argument("--fast", action="store_true", help="bots play without pauses")
    play.add_argument("--log", metavar="FILE", help="where the game is written "
                      "(default jongg-VARIANT-SEED.jsonl)")
    play.add_argument("--resume", metavar="LOG", help="continue a game from its log")
    play.set_defaults(run=cmd_play)

    rep = commands.add_parser("replay", help="rebuild a game from its log and check it")
    rep.add_argument("log", metavar="LOG", help="a log written by simulate --log-dir or play")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")
    rep.set_defaults(run=cmd_replay)

