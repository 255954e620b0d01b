"""`jongg simulate`, `jongg play` and `jongg replay`: the commands that run
games (their arguments are declared in jongg/cli.py)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from jongg.api import Diagnostic, JonggError, UsageError, compile_variant, load_game
from jongg.commands.args import agents_arg
from jongg.commands.console import plain_console, progress_bar, table_building
from jongg.runs.intervals import wilson
from jongg.runs.scale import workers
from jongg.runs.simulate import Job, clashes, file_stem, simulate
from jongg.runtime.agents.play import resume_match
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogError, LogWriter, read_log, replay, short
from jongg.runtime.game.logfile import LogExists, LogFileError
from jongg.runtime.game.state import Mode

if TYPE_CHECKING:
    from jongg import terminal


def _log_game(path: str, header: Header) -> Game:
    """The game a log's header names, its problems said to come from the log."""
    try:
        with table_building() as hear:
            return load_game(header.variant, header.players, progress=hear)
    except JonggError as error:
        raise UsageError([Diagnostic(None, f"{path}:1: the log's game, {short(header.variant)} "
                                           f"for {header.players} players, cannot be loaded"),
                          *error.diagnostics]) from None


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games: give at least 1")
    jobs = workers(args.jobs)
    agents = agents_arg(args.agents)
    spec = compile_variant(args.variant, args.players)  # every problem before any process starts
    with table_building(args.quiet) as hear:  # compile the matcher once, into the cache
        load_game(args.variant, spec.players, progress=hear)
    if args.log_dir:
        _log_dir(args.log_dir, spec.variant, spec.players, args.seed, args.games)
    job = Job(args.variant, spec.players, agents, Mode(args.mode), args.log_dir, True)
    with progress_bar(args.quiet) as bar:
        task = bar.add_task(escape(f"{spec.variant}, {spec.players} players"), total=args.games)
        try:
            summary = simulate(job, args.games, args.seed, jobs,
                               lambda n: bar.advance(task, n), args.cluster)
        except LogExists as error:  # another run began writing here since the check
            raise UsageError(f"--log-dir: {error}; another run writes its logs there") from None
    result = summary.to_json()
    if args.json:
        print(json.dumps(result))
    else:
        _print_summary(result, spec.seats, spec.word("points"), spec.racks > 1, args.variant)
    if summary.partial:
        print(f"jongg: interrupted: {summary.games} of {summary.asked} matches finished; the "
              "summary is of those alone (partial)", file=sys.stderr)
        return 130
    return 1 if summary.violations else 0


def _log_dir(folder: str, variant: str, players: int, seed: int, games: int) -> None:
    """A folder for this run's logs, where no log of an earlier run would be
    replaced: a run that would write a log that is there is refused."""
    try:
        os.makedirs(folder, exist_ok=True)
        there = clashes(folder, variant, players, seed, games)
    except OSError as error:
        raise UsageError(f"--log-dir: {folder}: {error.strerror or error}") from None
    if there:
        more = f" and {len(there) - 3} more" if len(there) > 3 else ""
        raise UsageError([Diagnostic(None, f"--log-dir: {folder} holds logs this run would "
                                           f"write: {', '.join(there[:3])}{more}",
                                     hint="give another folder, or other seeds with --seed; "
                                          "a log is never replaced")])


def _print_summary(result: dict[str, Any], seats: tuple[str, ...], points: str,
                   racks: bool, variant: str) -> None:
    console = plain_console()
    games, rounds = result["games"], result["rounds"]
    partial = f" (partial: interrupted, of {result['asked']} asked)" if result.get("partial") \
        else ""
    seeds = f"seeds {result['seed']}..{result['seed'] + games - 1}" if games else \
        "no match finished"
    console.print(f"{result['variant']}: {games} matches{partial}, {rounds} rounds, "
                  f"{result['players']} players ({', '.join(result['agents'])}), {seeds}")
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
    console.print(next_steps(variant), soft_wrap=True)


def next_steps(variant: str) -> str:
    """Where to go from a summary: a game of one's own, a card of one's own."""
    return (f"next: play it yourself: jongg play {shlex.quote(variant)} (jongg play --help "
            "lists every variant)\n"
            "      write a card: docs/notation.md, then jongg card check CARD.yaml\n"
            "      report on a card: jongg card report sample (how each line plays)")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        log = read_log(args.log)
        header = log.header
        game = _log_game(args.log, header)
        result = replay(log, game)
    except LogError as error:
        raise UsageError(str(error)) from None
    state = result.state
    out = {"log": args.log, "variant": header.variant, "players": header.players,
           "seed": header.seed, "complete": result.complete, "rounds": state.round,
           "decisions": state.decisions, "scores": state.scores,
           "winners": state.winners() or [],
           "state": state.digest(), "same": not result.problems, "problems": result.problems,
           "notes": result.notes, "last_line": result.last}
    if args.json:
        print(json.dumps(out))
    else:
        for note in result.notes:
            print(f"jongg: {note}", file=sys.stderr)
        for problem in result.problems:
            print(problem, file=sys.stderr)
        if result.complete:
            end = "the end of the match"
        else:
            end = f"where the log stops, line {result.last} (round {state.round + 1}, no end " \
                  "recorded)"
        verdict = "DIFFERS" if result.problems else "same final state and scores" \
            if result.complete else "every recorded round agrees"
        print(f"{args.log}: replayed {state.decisions} decisions of {header.variant} "
              f"({header.players} players, seed {header.seed}) to {end}: {verdict}")
        print(f"scores: {' '.join(map(str, state.scores))}; state {state.digest()}")
    return 0 if not result.problems else 1


def resume_command(path: Path) -> str:
    """The command that goes on with a game, from any folder, quoted for the shell."""
    return f"jongg play --resume {shlex.quote(str(path.absolute()))}"


def cmd_play(args: argparse.Namespace) -> int:
    from jongg import terminal

    console = plain_console()
    table = _resumed(args, console) if args.resume else _started(args, console)
    again = resume_command(table.writer.path)
    try:
        table.play()
    except (terminal.Quit, KeyboardInterrupt):  # Ctrl-C may come while a bot thinks
        console.print(f"\nstopped at state {table.state.digest()}; resume with: {again}",
                      soft_wrap=True)  # the command whole on one line, to copy
    except LogFileError as error:  # a full disk: the log keeps every whole line written
        raise UsageError([Diagnostic(None, f"{error}; the game stops here, its log kept up to "
                                           "the last move written",
                                     hint=f"make room, then resume with: {again}")]) from None
    except BaseException:
        print(f"jongg: the game stopped; its log keeps it: resume with: {again}",
              file=sys.stderr)
        raise
    finally:
        table.writer.close()
    return 0


def _started(args: argparse.Namespace, console: Console) -> terminal.TerminalGame:
    from jongg import terminal

    if not args.variant:
        raise UsageError("play: name a variant (or --resume LOG)")
    if args.overwrite and not args.log:
        raise UsageError("--overwrite: name the log to start over in, with --log FILE")
    agents = agents_arg(args.agents)
    with table_building() as hear:
        game = load_game(args.variant, args.players, progress=hear)
    if not 1 <= args.seat <= game.spec.players:
        raise UsageError(f"--seat: give 1 to {game.spec.players}")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    log = Path(args.log or f"jongg-{file_stem(game.spec.variant)}-{seed}.jsonl")
    mode = Mode.STRICT if args.strict else Mode.GUARDED
    try:
        table = terminal.start(game, seat=args.seat - 1, agents=agents, seed=seed, mode=mode,
                               log=log, console=console, fast=args.fast,
                               overwrite=args.overwrite, fresh=args.log is None,
                               glyphs=args.glyphs)
    except LogExists:
        raise UsageError([Diagnostic(None, f"--log: {log} is there already (a saved game?)",
                                     hint=f"go on with it: {resume_command(log)}; or start "
                                          "over in it with --overwrite")]) from None
    except LogFileError as error:
        raise UsageError(f"--log: {error}") from None
    console.print(f"{game.spec.title}: you are {game.spec.seats[args.seat - 1]}; seed {seed}")
    console.print(f"the game is written to {table.writer.path} (type help for commands)",
                  soft_wrap=True)  # the path whole, to copy
    return table


def _resumed(args: argparse.Namespace, console: Console) -> terminal.TerminalGame:
    from jongg import terminal

    given = [name for name, value in (("VARIANT", args.variant), ("--seed", args.seed),
                                      ("--log", args.log), ("--overwrite", args.overwrite),
                                      ("--players", args.players), ("--strict", args.strict))
             if value]
    if given:
        raise UsageError(f"--resume: the log holds the game ({', '.join(given)} cannot change "
                         "it); give --resume LOG alone, with --fast or --glyphs if you like")
    path = Path(args.resume)
    try:
        writer = LogWriter.reopen(path)  # locked first: no other jongg appends meanwhile
    except LogFileError as error:
        raise UsageError(f"--resume: {error}") from None
    try:
        log = writer.text()
        game = _log_game(args.resume, log.header)
        resumed = resume_match(game, log)
        replayed = resumed.replayed
        for note in replayed.notes:
            print(f"jongg: {note}", file=sys.stderr)
        for problem in replayed.problems:
            print(f"jongg: warning: {problem}", file=sys.stderr)
        if log.torn is not None:
            print(f"jongg: {path}:{log.torn}: cutting the torn line off before the game goes "
                  "on", file=sys.stderr)
        writer.go_on(log, replayed)
    except LogError as error:
        writer.close()
        raise UsageError(f"--resume: {error}") from None
    except LogFileError as error:
        writer.close()
        raise UsageError(f"--resume: {error}") from None
    except BaseException:
        writer.close()
        raise
    table = terminal.resume(game, resumed, writer, console=console, fast=args.fast,
                            glyphs=args.glyphs)
    console.print(f"resuming {log.header.variant} from {args.resume} "
                  f"({table.state.decisions} decisions played, state {table.state.digest()})",
                  soft_wrap=True)
    return table
