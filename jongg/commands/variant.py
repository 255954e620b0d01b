"""`jongg variant show` and `jongg variant check`: the commands that read and
compile variants, without running a game (their arguments are declared in
jongg/cli.py)."""

from __future__ import annotations

import argparse
import json
from typing import Any

import yaml

from jongg.api import (
    Diagnostic,
    Resolved,
    UsageError,
    check_variant,
    compile_variant,
    notes,
    player_counts,
    resolve,
    scoring_only,
)
from jongg.commands.resolved import annotated


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


def _playable(name: str, written: Resolved, players: int | None) -> None:
    """Refuse a --players the variant is not played by, resolved or not."""
    if players is None:
        return
    counts = player_counts(written)
    if players not in counts:
        raise UsageError([Diagnostic(None, f"{name} is played by {counts.start} to "
                                     f"{counts.stop - 1} players, not {players}")])


def cmd_variant_show(args: argparse.Namespace) -> int:
    written = resolve(args.variant)
    _playable(args.variant, written, args.players)
    if args.resolved:
        spec = compile_variant(args.variant, args.players)  # every problem first
        resolved = resolve(args.variant, spec.players)
        data = resolved.data
        if not args.json:
            print(f"# {spec.variant} resolved for {spec.players} players")
    else:
        data = written.data
        if args.players is not None and not args.json:
            print(f"# {args.variant} as written, for every player count (its by_players "
                  f"overrides included): --resolved shows it for {args.players} players")
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
            resolved = resolve(name)
            counts = player_counts(resolved)
            only = " (scored, not played: status scoring-only)" \
                if scoring_only(resolved.data) else ""
            print(f"{name}: ok: {counts.start}-{counts.stop - 1} players{only}")
    return status
