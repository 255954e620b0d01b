"""The `jongg` command: a thin front door over the compiler and the runtime.

Every command's arguments are declared here, and only here; what a command
does lives in jongg/commands/card.py or jongg/commands/game.py, imported
when it runs. So `jongg --help` and a mistyped argument answer at once, and
`card check` never loads the game or the matcher.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Callable, Sequence

from jongg import __version__
from jongg.present.guide import COMMANDS, EXAMPLES
from jongg.web import PACE

# the game modes (jongg.runtime.game.rules.Mode), written out so that the
# parser needs no game; tests/test_cli.py holds the two together
MODES = ("guarded", "strict")
# the card report's agents: the two strongest at a budget a report can afford (search at
# 4 playouts a decision plays a committed round in about 1.4 s of CPU on the sample card)
DEFAULT_AGENTS = "expert,search:rollouts=4"


class _Notes(logging.Handler):
    """What the runtime notes on its way (a damaged cache file found and
    rebuilt), said on stderr as 'jongg: ...' (the stream looked up each time,
    as tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"jongg: {self.format(record)}", file=sys.stderr)


def _say_notes() -> None:
    notes = logging.getLogger("jongg")
    if not any(isinstance(h, _Notes) for h in notes.handlers):
        notes.addHandler(_Notes(logging.WARNING))
        notes.propagate = False


class _CommandParser(argparse.ArgumentParser):
    """A command's own parser. argparse hands an argument a command does not
    know up to `jongg`, whose usage names none of the command's options; here
    the command refuses it with its own usage and the nearest option."""

    def parse_known_args(  # type: ignore[override]
            self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            from jongg.runtime.errors import suggestion

            options = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
            close = [suggestion(e.split("=")[0], options) for e in extras if e.startswith("-")]
            near = next((c for c in close if c), None)
            self.error(f"unrecognized arguments: {' '.join(extras)}" + (f" ({near})" if near
                                                                         else ""))
        return parsed, extras


def _variants() -> str:
    from jongg.compiler.shelf import shipped  # names only: the help answers at once

    return ", ".join(shipped("variant"))


def _where_it_runs(parser: argparse.ArgumentParser) -> None:
    """--jobs and --cluster (jongg.runs.scale): where the work runs, never what it finds."""
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes, at most the cores (results do not change); with "
                             "--cluster local, the CPUs of the Ray instance")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run on a Ray cluster (ray start --head prints its address), or "
                             "'local' to start one here; needs jongg[cluster]")


def build_parser() -> argparse.ArgumentParser:
    """The whole command line. Each command's `run` names its function as
    'module:function' in the jongg package."""
    parser = argparse.ArgumentParser(
        prog="jongg", description="A declarative rules compiler for mahjong-family games.")
    parser.add_argument("--version", action="version", version=f"jongg {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_CommandParser)

    card = commands.add_parser("card", help="validate and inspect hand cards")
    card_commands = card.add_subparsers(dest="card_command", required=True, metavar="ACTION")
    check = card_commands.add_parser("check", help="validate card files, reporting every problem")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--deck", help="check against this deck instead of the card's own")
    check.add_argument("--strict", action="store_true", help="warnings fail too")
    check.set_defaults(run="commands.card:cmd_card_check")
    show = card_commands.add_parser("show", help="list a card's lines, or one line's variations")
    show.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    show.add_argument("--line", metavar="ID", help="print this line's variations as tiles")
    show.add_argument("--deck", help="expand against this deck")
    show.add_argument("--json", action="store_true",
                      help="print every line (or the --line) with its variations as tile lists "
                           "and the groups jokers may fill")
    show.set_defaults(run="commands.card:cmd_card_show")
    diff = card_commands.add_parser(
        "diff", help="compare two cards, or a card and an expansion given as JSON")
    diff.add_argument("old", metavar="OLD", help="a card (name or path) or a .json expansion")
    diff.add_argument("new", metavar="NEW", help="a card (name or path) or a .json expansion")
    diff.add_argument("--show", type=int, default=5,
                      help="how many gained or lost variations to list a line (default 5)")
    diff.add_argument("--check", action="store_true", help="exit 1 when they differ")
    diff.set_defaults(run="commands.card:cmd_card_diff")
    render = card_commands.add_parser("render", help="write the card as a printable HTML page")
    render.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file")
    render.add_argument("--deck", help="expand against this deck")
    render.add_argument("--force", action="store_true", help="replace FILE if it exists")
    render.set_defaults(run="commands.card:cmd_card_render")
    report = card_commands.add_parser(
        "report", help="play a card with bots and report how each line plays (HTML, CSV, JSON)")
    report.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    report.add_argument("--variant", default="mjcg-card",
                        help="the game the card is played in (default mjcg-card)")
    report.add_argument("--players", metavar="N[,N...]",
                        help="player counts, e.g. 3,4 (default: the variant's)")
    report.add_argument("--rounds", default="1000,100", metavar="N[,N...]",
                        help="free-play rounds at each player count, every seat one agent: one "
                             "count or one an agent, the last repeating (default 1000,100: "
                             "1000 expert, 100 search; 0 after the first: none)")
    report.add_argument("--agents", default=DEFAULT_AGENTS,
                        help="the agents measured, comma-separated: each plays one seat "
                             "committed to each line in turn, the first agent the others "
                             f"(default {DEFAULT_AGENTS})")
    report.add_argument("--committed", default="40,10", metavar="N[,N...]",
                        help="committed rounds per line, one count or one an agent, the last "
                             "repeating (default 40,10: 40 expert, 10 search; 0: none)")
    report.add_argument("--against", metavar="CARD",
                        help="another card (a last year's, a draft) played on the same seeds "
                             "and compared line by line")
    report.add_argument("--seed", type=int, default=0,
                        help="round i is the first round of match SEED+i (default 0)")
    report.add_argument("-o", "--out", metavar="DIR",
                        help="the report's folder (default: CARD-report here, named after "
                             "the card); the same command again continues it")
    report.add_argument("--force", action="store_true",
                        help="replace report files in DIR that no card report wrote")
    report.add_argument("--quiet", action="store_true", help="no progress bar")
    _where_it_runs(report)
    report.set_defaults(run="commands.report:command")

    match = commands.add_parser("match", help="which lines a hand completes, and how near it is")
    source = match.add_mutually_exclusive_group()
    source.add_argument("--card", help="a shipped card name or a path")
    source.add_argument("--variant", help="a variant: its deck and winning hands")
    source.add_argument("--matcher", metavar="FILE", help="a file written by 'jongg compile -o'")
    match.add_argument("--hand", required=True, help='concealed tiles, e.g. "1B 1B 2C J"')
    match.add_argument("--exposed", action="append", metavar="TILES",
                       help="an exposed group (repeatable), e.g. \"2C 2C 2C J\"")
    match.add_argument("--top", type=int, default=5, help="how many nearest lines (default 5)")
    match.add_argument("--json", action="store_true", help="print JSON")
    match.add_argument("--explain", action="store_true", help="show how the tiles fill each line")
    match.add_argument("--reference", action="store_true",
                       help="answer with the brute-force reference matcher (slow; for checking)")
    match.set_defaults(run="commands.card:cmd_match")

    comp = commands.add_parser(
        "compile", help="compile a card or variant's matcher (into the cache, or to a file)")
    comp.add_argument("ruleset", metavar="RULESET", help="a variant or card: name or path")
    comp.add_argument("-o", "--output", metavar="FILE", help="write the compiled matcher here")
    comp.add_argument("--kind", choices=("card", "variant"),
                      help="what RULESET is, when a card and a variant share its name")
    comp.set_defaults(run="commands.card:cmd_compile")

    tiles = commands.add_parser("tiles", help="list the tile codes of a variant or a deck")
    tiles.add_argument("name", metavar="VARIANT", help="a variant or a deck name")
    tiles.set_defaults(run="commands.card:cmd_tiles")

    variant = commands.add_parser("variant", help="inspect and check variants")
    actions = variant.add_subparsers(dest="variant_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="print a variant (with --resolved: every default "
                              "filled in, extends and player-count overrides applied)")
    show.add_argument("variant", metavar="VARIANT", help="a shipped name or a path")
    show.add_argument("--resolved", action="store_true", help="fill in every default")
    show.add_argument("--players", type=int, help="the player count to resolve for")
    show.add_argument("--json", action="store_true", help="print JSON instead of YAML")
    show.set_defaults(run="commands.variant:cmd_variant_show")
    check = actions.add_parser("check", help="check variants at every player count they allow")
    check.add_argument("variants", nargs="+", metavar="VARIANT")
    check.set_defaults(run="commands.variant:cmd_variant_check")

    score = commands.add_parser("score", help="score a winning hand (yaku, han, fu, limit, "
                                "payments) by a variant's hand_scoring, e.g. riichi")
    score.add_argument("variant", metavar="VARIANT",
                       help="a variant with hand_scoring: name or path")
    score.add_argument("--hand", help='the concealed tiles, the winning tile among them, e.g. '
                       '"123C 406D 789B EEE 22B" (0 is a red five)')
    score.add_argument("--win", help="the winning tile")
    score.add_argument("--call", action="append", metavar="TILES",
                       help='a set exposed by a call (repeatable), e.g. "3C 4C 5C"')
    score.add_argument("--concealed-kong", action="append", metavar="TILE",
                       help="a kong declared concealed (repeatable)")
    score.add_argument("--tsumo", action="store_true",
                       help="self-drawn (default: won on a discard)")
    score.add_argument("--seat", help="the seat's wind (default: the dealer's)")
    score.add_argument("--round", help="the round's wind (default: the first)")
    score.add_argument("--context", action="append", metavar="NAMES",
                       help="how it was won, from the variant's hand_scoring.context, e.g. "
                            "riichi,ippatsu")
    score.add_argument("--dora", help="dora indicators, e.g. \"3C RD\"")
    score.add_argument("--ura", help="ura-dora indicators")
    score.add_argument("--honba", type=int, default=0, help="honba counters")
    score.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table")
    score.add_argument("--option", action="append", metavar="NAME=VALUE",
                       help="a rule option for this run, e.g. kiriage=true")
    score.add_argument("--batch", metavar="FILE",
                       help="score the JSON lines of FILE ('-': stdin), one answer a line")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.set_defaults(run="commands.score:cmd_score")

    sim = commands.add_parser("simulate", help="play many matches with bots and summarise them")
    sim.add_argument("variant", metavar="VARIANT", help=f"one of {_variants()}"
                     ", or a path")
    sim.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="match i plays seed SEED+i")
    sim.add_argument("--players", type=int, help="player count (default: the variant's)")
    sim.add_argument("--agents", default="random",
                     help="agents by seat, comma-separated; the last repeats (default random)")
    _where_it_runs(sim)
    sim.add_argument("--mode", choices=MODES, default="guarded",
                     help="strict: agents may make the rulebook's mistakes")
    sim.add_argument("--log-dir", metavar="DIR", help="write every match's log here "
                     "(VARIANT-Np-SEED.jsonl; a run that would replace a log is refused)")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run="commands.game:cmd_simulate")

    arena = commands.add_parser("arena", help="play agents against each other, seats rotated, "
                                "and rank them")
    arena.add_argument("variant", metavar="VARIANT", help=f"one of {_variants()}, or a path")
    arena.add_argument("--agents", default="expert,greedy,random", metavar="A,B,...",
                       help="the agents, comma-separated: shipped names (with options, "
                            "e.g. search:rollouts=32) or module:Class; 'ladder' for random, "
                            "greedy, expert and search at two budgets (default "
                            "expert,greedy,random)")
    arena.add_argument("--rounds", type=int, default=20, metavar="N",
                       help="deals to play (default 20): deal d plays seed S+d as one "
                            "match in every seating of the rotation")
    arena.add_argument("--seed", type=int, default=0, metavar="S",
                       help="the first deal's seed (default 0)")
    arena.add_argument("--players", type=int, metavar="K",
                       help="player count (default: the variant's)")
    _where_it_runs(arena)
    arena.add_argument("--mode", choices=MODES, default="guarded",
                       help="strict: agents may make the rulebook's mistakes")
    arena.add_argument("--out", metavar="FILE",
                       help="keep every finished deal in FILE as it is played; the same "
                            "command with the same FILE goes on where it stopped")
    arena.add_argument("--json", action="store_true", help="print the standings as JSON")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run="commands.arena:cmd_arena")

    play = commands.add_parser("play", help="play a variant at the terminal against bots",
                               epilog=COMMANDS.format(**EXAMPLES),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("variant", metavar="VARIANT", nargs="?",
                      help=f"one of {_variants()}, or a path")
    play.add_argument("--players", type=int, help="player count (default: the variant's)")
    play.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    play.add_argument("--agents", default="greedy",
                      help="bots for the other seats, comma-separated (default greedy)")
    play.add_argument("--seed", type=int, help="the match seed (default: a fresh random one, "
                      "printed at the start and kept in the log)")
    play.add_argument("--strict", action="store_true",
                      help="let mistakes be made, and apply the rulebook's penalty")
    play.add_argument("--fast", action="store_true", help="bots play without pauses")
    play.add_argument("--glyphs", action="store_true",
                      help="draw tiles as Unicode mahjong tiles where they have one (a font "
                      "with U+1F000..1F02B)")
    play.add_argument("--log", metavar="FILE", help="where the game is written, a new file "
                      "(default: a free name jongg-VARIANT-SEED.jsonl here)")
    play.add_argument("--overwrite", action="store_true",
                      help="start over in the --log FILE that is there (its game is lost)")
    play.add_argument("--resume", metavar="LOG", help="continue a game from its log")
    play.set_defaults(run="commands.game:cmd_play")

    rep = commands.add_parser("replay", help="rebuild a game from its log and check it")
    rep.add_argument("log", metavar="LOG", help="a log written by simulate --log-dir or play")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")
    rep.set_defaults(run="commands.game:cmd_replay")

    serve = commands.add_parser("serve", help="a web table: play any variant in the browser, "
                                "against bots and other people (needs jongg[web])")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any "
                       "free port, printed)")
    serve.add_argument("--data", metavar="DIR", help="where tables are kept, each game's log "
                       "written as it goes (default: jongg's folder in your data directory)")
    serve.add_argument("--pace", type=float, default=PACE, metavar="SECONDS",
                       help=f"bots wait this long before each move on their turn (default "
                            f"{PACE}; 0: full speed)")
    serve.add_argument("--agents", metavar="NAMES", help="agents a table may seat besides "
                       "the shipped ones, comma-separated module:Class names")
    serve.add_argument("--most-tables", type=int, default=200, metavar="N",
                       help="tables in play at once, in all (default 200)")
    serve.add_argument("--most-per-address", type=int, default=20, metavar="N",
                       help="tables in play opened from one address (default 20)")
    serve.set_defaults(run="web.command:cmd_serve")
    return parser


def _command(name: str) -> Callable[[argparse.Namespace], int]:
    module, function = name.split(":")
    run: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(f"jongg.{module}"), function)
    return run


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    _say_notes()
    from jongg.runtime.errors import JonggError

    try:
        return _command(args.run)(args)
    except JonggError as error:
        for d in error.diagnostics:
            print(str(d), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug of ours: say so plainly, never a traceback
        if os.environ.get("JONGG_DEBUG"):
            raise
        print(f"jongg: internal error: {type(error).__name__}: {error} "
              "(set JONGG_DEBUG=1 for details)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
