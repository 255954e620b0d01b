"""The `jongg` command: a thin front door over the compiler and the runtime."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jongg.compiler import registry
from jongg.compiler.card import check_card, load_card, load_ruleset
from jongg.compiler.deck import load_deck
from jongg.compiler.errors import Diagnostic, JonggError, LoadError, UsageError, counted
from jongg.compiler.registry import shipped
from jongg.compiler.source import load_file
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import Deck, TileError, check_supply, parse_tiles

from . import __version__, card_diff, card_render, report
from .scale import add_scale_options

if TYPE_CHECKING:
    from jongg.runtime.card import Card
    from jongg.runtime.matching.matcher import Matcher

# The matcher, the cache and the game come in with the commands that use them,
# so checking a card starts quickly.
OWN_COMMANDS = ("card", "match", "compile", "tiles")


def _out(text: str = "") -> None:
    print(text)


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


# -- card check / card show ---------------------------------------------------
def cmd_card_check(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            doc = registry.load("card", path)  # a YAML file (or a shipped card), never another
            result = check_card(doc, args.deck)
            diagnostics = result.diagnostics
        except JonggError as error:
            diagnostics, result = error.diagnostics, None
        for d in sorted(diagnostics, key=lambda d: (d.location.line, d.location.column)
                        if d.location else (0, 0)):
            _out(str(d))
        errors = [d for d in diagnostics if d.is_error]
        warnings = [d for d in diagnostics if not d.is_error]
        if errors or (args.strict and warnings):
            status = 1
        if result is not None and result.card is not None:
            card = result.card
            variations = sum(len(line.variations) for line in card.lines)
            extra = f", {counted(len(warnings), 'warning')}" if warnings else ""
            _out(f"{path}: ok: card {card.name!r}, {counted(len(card.lines), 'line')}, "
                 f"{counted(variations, 'variation')}, deck {card.deck.name}{extra}")
        elif errors:
            _out(f"{path}: {counted(len(errors), 'error')}, {counted(len(warnings), 'warning')}")
    return status


def cmd_card_show(args: argparse.Namespace) -> int:
    card = load_card(args.card, args.deck)
    line = None
    if args.line:
        try:
            line = card.line(args.line)
        except KeyError:
            raise UsageError([Diagnostic(None, f"--line: card {card.name!r} has no line "
                                               f"{args.line!r}", hint="see 'jongg card show "
                                               f"{args.card}' for the ids")]) from None
    if args.json:
        _out(json.dumps(report.card_json(card, None if line is None else [line])))
    elif line is not None:
        _out(report.line_variations(card, line))
    else:
        _out(report.card_table(card))
    return 0


def cmd_card_diff(args: argparse.Namespace) -> int:
    if args.show < 1:
        raise UsageError("--show: give a number of variations, 1 or more")
    text, differ = card_diff.diff_text(card_diff.load_side(args.old),
                                       card_diff.load_side(args.new), args.show)
    _out(text)
    return 1 if differ and args.check else 0


def cmd_card_render(args: argparse.Namespace) -> int:
    card = load_card(args.card, args.deck)
    data = load_ruleset("card", args.card).data
    year = data.get("year") if isinstance(data.get("year"), int) else None
    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"-o: {out} exists; give --force to replace it")
    try:
        out.write_text(card_render.card_html(card, year), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"-o: cannot write {out}: {error.strerror or error}") from None
    _out(f"card {card.name!r}: {counted(len(card.lines), 'line')} -> {out}")
    return 0


def cmd_card_report(args: argparse.Namespace) -> int:
    from . import card_report  # the game, the bots and matplotlib come in here

    return card_report.command(args)


# -- match ----------------------------------------------------------------------
def _tiles(deck: Deck, text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(parse_tiles(deck, text, what=what))
    except TileError as error:
        raise UsageError(str(error)) from None


def read_hand(card: Card, hand_text: str, exposed: Sequence[str]) -> Hand:
    deck = card.deck
    for e in exposed:
        if not e.split():
            raise UsageError(f"--exposed {e!r}: an exposure needs its tiles, like "
                             "--exposed \"2C 2C 2C\"")
    hand = Hand(_tiles(deck, hand_text, "--hand"),
                tuple(_tiles(deck, e, f"--exposed {e!r}") for e in exposed))
    if hand.size > card.hand_size:
        raise UsageError(f"--hand: {hand.size} tiles (exposures included), more than the hand "
                         f"size {card.hand_size} of card {card.name!r}")
    if hand.size == 0:
        raise UsageError("--hand: no tiles given")
    try:
        check_supply(deck, [*hand.concealed, *(t for e in hand.exposures for t in e)],
                     what="--hand")
    except TileError as error:
        raise UsageError(str(error)) from None
    return hand


Ruleset = tuple[str, str, str | None, bool, tuple[str, ...] | None]


def _ruleset(name: str, kind: str | None) -> Ruleset:
    """(kind, card, deck, open hands, flags of the lines played) of a card or
    variant given by name or path."""
    from jongg.compiler.variant import load_variant

    if kind is None:
        if name.endswith((".yaml", ".yml")):
            data = load_file(name).data
            kind = "variant" if isinstance(data, dict) and "variant" in data else "card"
        elif name in shipped("variant"):
            kind = "variant"
        elif name in shipped("card"):
            kind = "card"
        else:
            raise UsageError([Diagnostic(None, f"no variant or card named {name!r}",
                                         hint="variants: " + ", ".join(shipped("variant")) +
                                         "; cards: " + ", ".join(shipped("card")))])
    if kind == "card":
        return kind, name, None, False, None
    variant = load_variant(name)  # every problem of the variant, reported before compiling
    return kind, variant.card_source, variant.deck_source, variant.open_hands, variant.flags


def _load_matcher(args: argparse.Namespace) -> Matcher:
    from jongg.compiler import cache
    from jongg.runtime.matching import artifact

    if args.matcher:
        try:
            return artifact.load(args.matcher)
        except artifact.ArtifactError as error:
            raise UsageError(f"--matcher: {error}") from None
    kind = "variant" if args.variant else "card"
    _, card, deck, open_hands, flags = _ruleset(args.variant or args.card, kind)
    compiled = cache.matcher(card, deck, open_hands=open_hands, flags=flags)
    if compiled.note:
        print(f"jongg: {compiled.note}", file=sys.stderr)
    compiled.matcher.prepare(cache.tables_dir(), build=False)  # tables 'jongg compile' kept
    return compiled.matcher


def cmd_match(args: argparse.Namespace) -> int:
    from jongg.runtime.matching.reference import completed, match_card

    if args.top < 1:
        raise UsageError("--top: give a number of lines, 1 or more")
    if not (args.card or args.variant or args.matcher):
        raise UsageError("match: give --card, --variant or --matcher")
    matcher = _load_matcher(args)
    card = matcher.card
    hand = read_hand(card, args.hand, args.exposed or [])
    if args.reference:  # the brute-force oracle, for comparison
        nearest: list[report.Nearness] = list(match_card(card, hand,
                                                         open_hands=matcher.open_hands))
        done: list[report.Nearness] = list(completed(card, hand, open_hands=matcher.open_hands))
    else:
        nearest = list(matcher.tiles_away(hand))
        done = list(matcher.completions(hand))
    shown = nearest[: args.top]
    if args.json:
        _out(json.dumps(report.match_json(card, hand, done, shown, args.explain), indent=2))
    else:
        _out(report.match_text(card, hand, done, shown, args.explain))
    return 0


# -- compile ----------------------------------------------------------------------
def cmd_compile(args: argparse.Namespace) -> int:
    from jongg.compiler import cache

    kind, card, deck, open_hands, flags = _ruleset(args.ruleset, args.kind)
    if args.output:
        try:
            compiled = cache.compile_to(args.output, card, deck, open_hands=open_hands,
                                        key=cache.source_key(card, deck, open_hands, flags),
                                        flags=flags)
        except OSError as error:
            raise UsageError(f"-o: cannot write {args.output}: {error.strerror or error}") \
                from None
    else:
        compiled = cache.matcher(card, deck, open_hands=open_hands, flags=flags)
        if compiled.note:
            print(f"jongg: {compiled.note}", file=sys.stderr)
    c = compiled.matcher.card
    variations = sum(len(line.variations) for line in c.lines)
    how = "loaded from the cache" if compiled.from_cache else "compiled"
    where = f"-> {compiled.path} ({compiled.path.stat().st_size / 1024:.0f} KiB)" \
        if compiled.path.exists() else "(not written)"
    what = f"card {c.name!r}" if kind == "card" else f"variant {args.ruleset!r} (card {c.name!r})"
    _out(f"{what}: {len(c.lines)} lines, {variations} variations; {how} in "
         f"{compiled.seconds * 1000:.0f} ms {where}")
    if any(v.free and not v.groups for line in c.lines for v in line.variations):
        built = compiled.matcher.prepare(cache.tables_dir())
        how = f"built in {built:.1f} s" if built else "loaded"
        kept = f" ({cache.tables_dir()})" if cache.tables_dir().is_dir() else " (not kept)"
        _out(f"per-suit tables of the structural lines: {how}{kept}")
    return 0


# -- tiles ------------------------------------------------------------------------
def cmd_tiles(args: argparse.Namespace) -> int:
    from jongg.compiler.variant import load_variant

    if args.name in shipped("variant"):
        deck = load_variant(args.name).deck
    else:
        try:
            deck = load_deck(args.name)
        except LoadError as error:
            if any(d.location for d in error.diagnostics) or args.name.endswith((".yaml", ".yml")):
                raise
            raise UsageError([Diagnostic(None, f"no variant or deck named {args.name!r}",
                                         hint="variants: " + ", ".join(shipped("variant")) +
                                         "; decks: " + ", ".join(shipped("deck")))]) from None
    _out(report.tiles_table(deck))
    return 0


# -- the parser -------------------------------------------------------------------
def build_parser(games: bool = True) -> argparse.ArgumentParser:
    """The whole command line; without `games`, only the card, match, compile
    and tiles commands (all a command of those needs)."""
    parser = argparse.ArgumentParser(
        prog="jongg", description="A declarative rules compiler for mahjong-family games.")
    parser.add_argument("--version", action="version", version=f"jongg {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    card = commands.add_parser("card", help="validate and inspect hand cards")
    card_commands = card.add_subparsers(dest="card_command", required=True, metavar="ACTION")
    check = card_commands.add_parser("check", help="validate card files, reporting every problem")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--deck", help="check against this deck instead of the card's own")
    check.add_argument("--strict", action="store_true", help="warnings fail too")
    check.set_defaults(run=cmd_card_check)
    show = card_commands.add_parser("show", help="list a card's lines, or one line's variations")
    show.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    show.add_argument("--line", metavar="ID", help="print this line's variations as tiles")
    show.add_argument("--deck", help="expand against this deck")
    show.add_argument("--json", action="store_true",
                      help="print every line (or the --line) with its variations as tile lists "
                           "and the groups jokers may fill")
    show.set_defaults(run=cmd_card_show)
    diff = card_commands.add_parser(
        "diff", help="compare two cards, or a card and an expansion given as JSON")
    diff.add_argument("old", metavar="OLD", help="a card (name or path) or a .json expansion")
    diff.add_argument("new", metavar="NEW", help="a card (name or path) or a .json expansion")
    diff.add_argument("--show", type=int, default=5,
                      help="how many gained or lost variations to list a line (default 5)")
    diff.add_argument("--check", action="store_true", help="exit 1 when they differ")
    diff.set_defaults(run=cmd_card_diff)
    render = card_commands.add_parser("render", help="write the card as a printable HTML page")
    render.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file")
    render.add_argument("--deck", help="expand against this deck")
    render.add_argument("--force", action="store_true", help="replace FILE if it exists")
    render.set_defaults(run=cmd_card_render)
    rep = card_commands.add_parser(
        "report", help="play a card with bots and report how each line plays (HTML, CSV, JSON)")
    rep.add_argument("card", metavar="CARD", help="a shipped card name or a path")
    rep.add_argument("--variant", default="mjcg-card",
                     help="the game the card is played in (default mjcg-card)")
    rep.add_argument("--players", metavar="N[,N...]",
                     help="player counts, e.g. 3,4 (default: the variant's)")
    rep.add_argument("--rounds", type=int, default=1000,
                     help="rounds played at each player count (default 1000)")
    rep.add_argument("--agents", default="greedy",
                     help="agents by seat, comma-separated; the last repeats (default greedy)")
    rep.add_argument("--seed", type=int, default=0,
                     help="round i is the first round of match SEED+i (default 0)")
    rep.add_argument("-o", "--out", required=True, metavar="DIR",
                     help="the report's folder; the same command again continues it")
    rep.add_argument("--force", action="store_true",
                     help="replace report files in DIR that no card report wrote")
    rep.add_argument("--quiet", action="store_true", help="no progress bar")
    add_scale_options(rep)
    rep.set_defaults(run=cmd_card_report)

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
    match.set_defaults(run=cmd_match)

    comp = commands.add_parser(
        "compile", help="compile a card or variant's matcher (into the cache, or to a file)")
    comp.add_argument("ruleset", metavar="RULESET", help="a variant or card: name or path")
    comp.add_argument("-o", "--output", metavar="FILE", help="write the compiled matcher here")
    comp.add_argument("--kind", choices=("card", "variant"),
                      help="what RULESET is, when a card and a variant share its name")
    comp.set_defaults(run=cmd_compile)

    tiles = commands.add_parser("tiles", help="list the tile codes of a variant or a deck")
    tiles.add_argument("name", metavar="VARIANT", help="a variant or a deck name")
    tiles.set_defaults(run=cmd_tiles)
    if games:
        from . import arena_command, game_commands

        game_commands.register(commands)
        arena_command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(games=not words or words[0] not in OWN_COMMANDS).parse_args(words)
    _say_notes()
    try:
        status: int = args.run(args)
        return status
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
