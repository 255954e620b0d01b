"""`jongg card`, `jongg match`, `jongg compile` and `jongg tiles`: the
commands over cards and matchers (their arguments are declared in
jongg/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jongg.api import (
    Diagnostic,
    JonggError,
    LoadError,
    UsageError,
    check_card,
    counted,
    load_deck,
    load_file,
    load_ruleset,
    read_card,
    registry,
    shipped,
    suggested,
)
from jongg.cardlab import diff, render
from jongg.commands import printing
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import Deck, TileError, check_supply, parse_tiles

if TYPE_CHECKING:
    from jongg.runtime.card import Card
    from jongg.runtime.matching.matcher import Matcher


def _out(text: str = "") -> None:
    print(text)


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
    card = read_card(args.card, args.deck)
    line = None
    if args.line:
        try:
            line = card.line(args.line)
        except KeyError:
            raise UsageError([Diagnostic(None, f"--line: card {card.name!r} has no line "
                                               f"{args.line!r}", hint=suggested(
                                                   args.line, [ln.id for ln in card.lines],
                                                   f"see 'jongg card show {args.card}' for "
                                                   "the ids"))]) from None
    if args.json:
        _out(json.dumps(printing.card_json(card, None if line is None else [line])))
    elif line is not None:
        _out(printing.line_variations(card, line))
    else:
        _out(printing.card_table(card))
    return 0


def cmd_card_diff(args: argparse.Namespace) -> int:
    if args.show < 1:
        raise UsageError("--show: give a number of variations, 1 or more")
    text, differ = diff.diff_text(diff.load_side(args.old),
                                       diff.load_side(args.new), args.show)
    _out(text)
    return 1 if differ and args.check else 0


def cmd_card_render(args: argparse.Namespace) -> int:
    card = read_card(args.card, args.deck)
    data = load_ruleset("card", args.card).data
    year = data.get("year") if isinstance(data.get("year"), int) else None
    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"-o: {out} exists; give --force to replace it")
    try:
        out.write_text(render.card_html(card, year), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"-o: cannot write {out}: {error.strerror or error}") from None
    _out(f"card {card.name!r}: {counted(len(card.lines), 'line')} -> {out}")
    return 0


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


def _unnamed(name: str, other: str) -> UsageError:
    """A name that is neither a shipped variant nor a shipped `other` (card
    or deck): both lists, the nearest name first."""
    variants, others = shipped("variant"), shipped(other)
    return UsageError([Diagnostic(None, f"no variant or {other} named {name!r}", hint=suggested(
        name, [*variants, *others], f"variants: {', '.join(variants)}; {other}s: "
        f"{', '.join(others)}"))])


Ruleset = tuple[str, str, str | None, bool, tuple[str, ...] | None]


def _ruleset(name: str, kind: str | None) -> Ruleset:
    """(kind, card, deck, open hands, flags of the lines played) of a card or
    variant given by name or path."""
    from jongg.api import load_variant

    if kind is None:
        if name.endswith((".yaml", ".yml")):
            data = load_file(name).data
            kind = "variant" if isinstance(data, dict) and "variant" in data else "card"
        elif name in shipped("variant"):
            kind = "variant"
        elif name in shipped("card"):
            kind = "card"
        else:
            raise _unnamed(name, "card")
    if kind == "card":
        return kind, name, None, False, None
    variant = load_variant(name)  # every problem of the variant, reported before compiling
    return kind, variant.card_source, variant.deck_source, variant.open_hands, variant.flags


def _load_matcher(args: argparse.Namespace) -> Matcher:
    from jongg.api import cache
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
        nearest: list[printing.Nearness] = list(match_card(card, hand,
                                                         open_hands=matcher.open_hands))
        done: list[printing.Nearness] = list(completed(card, hand, open_hands=matcher.open_hands))
    else:
        nearest = list(matcher.tiles_away(hand))
        done = list(matcher.completions(hand))
    shown = nearest[: args.top]
    if args.json:
        _out(json.dumps(printing.match_json(card, hand, done, shown, args.explain), indent=2))
    else:
        _out(printing.match_text(card, hand, done, shown, args.explain))
    return 0


# -- compile ----------------------------------------------------------------------
def cmd_compile(args: argparse.Namespace) -> int:
    from jongg.api import cache
    from jongg.commands.console import table_building

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
        with table_building() as hear:
            built = compiled.matcher.prepare(cache.tables_dir(), progress=hear)
        how = f"built in {built:.1f} s" if built else "loaded"
        kept = f" ({cache.tables_dir()})" if cache.tables_dir().is_dir() else " (not kept)"
        _out(f"per-suit tables of the structural lines: {how}{kept}")
    return 0


# -- tiles ------------------------------------------------------------------------
def cmd_tiles(args: argparse.Namespace) -> int:
    from jongg.api import load_variant

    if args.name in shipped("variant"):
        deck = load_variant(args.name).deck
    else:
        try:
            deck = load_deck(args.name)
        except LoadError as error:
            if any(d.location for d in error.diagnostics) or args.name.endswith((".yaml", ".yml")):
                raise
            raise _unnamed(args.name, "deck") from None
    _out(printing.tiles_table(deck))
    return 0
