"""`jongg score VARIANT`: a winning hand scored by the variant's hand_scoring
(yaku with their han, han, fu, limit, payments), one from the arguments or
many from a JSON-lines file (docs/score.md)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any, TextIO

from jongg.api import JonggError, load_hand_scoring
from jongg.runtime.scoring.rules import HandScoring
from jongg.runtime.scoring.score import Call, Scored, ScoreInputError, Scorer, Win
from jongg.runtime.scoring.text import parse

# a batch line's keys, and what each holds
KEYS = {"hand": str, "win": str, "calls": list, "concealed_kongs": list, "self_drawn": bool,
        "seat": str, "round": str, "context": list, "dora": str, "ura": str, "honba": int,
        "sticks": int, "options": dict}


def _tiles(rules: HandScoring, text: str, what: str) -> tuple[list[int], int]:
    return parse(rules, text, what)


def _one(rules: HandScoring, text: str, what: str) -> int:
    kinds, _ = _tiles(rules, text, what)
    if len(kinds) != 1:
        raise ScoreInputError(f"{what}: one tile, not {text!r}")
    return kinds[0]


def _option(rules: HandScoring, text: str) -> tuple[str, bool]:
    name, _, value = text.partition("=")
    if name not in rules.options:
        raise ScoreInputError(f"--option {text!r}: no option {name!r}; options: "
                              f"{', '.join(rules.options) or 'none'}")
    if value.lower() not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
        raise ScoreInputError(f"--option {text!r}: say {name}=true or {name}=false")
    return name, value.lower() in ("true", "yes", "1", "on")


def build(rules: HandScoring, entry: dict[str, Any]) -> Win:
    """A Win from one batch line's (or the arguments') values; the message of
    a ScoreInputError names the key."""
    for key, value in entry.items():
        if key not in KEYS:
            raise ScoreInputError(f"unknown key {key!r}; keys: {', '.join(KEYS)}")
        if not isinstance(value, KEYS[key]) or (KEYS[key] is int and isinstance(value, bool)):
            raise ScoreInputError(f"{key}: expected {KEYS[key].__name__}, not {value!r}")
    for key in ("hand", "win"):
        if key not in entry:
            raise ScoreInputError(f"{key} is missing")
    hand, red = _tiles(rules, entry["hand"], "hand")
    win = _one(rules, entry["win"], "win")
    calls = []
    for key, concealed in (("calls", False), ("concealed_kongs", True)):
        for text in entry.get(key, []):
            if not isinstance(text, str):
                raise ScoreInputError(f"{key}: each is a string of tiles, not {text!r}")
            tiles, more = _tiles(rules, text, key)
            if concealed and len(tiles) == 1:
                tiles = tiles * 4  # a concealed kong named by its tile
            calls.append(Call(tuple(tiles), concealed))
            red += more
    for key in ("honba", "sticks"):
        if not 0 <= entry.get(key, 0) <= 1000:
            raise ScoreInputError(f"{key}: 0 to 1000, not {entry[key]}")
    options = {}
    for name, value in entry.get("options", {}).items():
        if name not in rules.options or not isinstance(value, bool):
            raise ScoreInputError(f"options: {name!r} must be one of "
                                  f"{', '.join(rules.options)}, set true or false")
        options[name] = value
    for name in entry.get("context", []):
        if name not in rules.context:
            raise ScoreInputError(f"context: {name!r} is not one of {', '.join(rules.context)}")
    return Win(tuple(hand), win, tuple(calls), entry.get("self_drawn", False),
               _one(rules, entry["seat"], "seat") if "seat" in entry else -1,
               _one(rules, entry["round"], "round") if "round" in entry else -1,
               frozenset(entry.get("context", [])),
               tuple(_tiles(rules, entry.get("dora", ""), "dora")[0]),
               tuple(_tiles(rules, entry.get("ura", ""), "ura")[0]),
               red, entry.get("honba", 0), entry.get("sticks", 0), options)


def answer(rules: HandScoring, s: Scored) -> dict[str, Any]:
    """A scored hand as JSON (docs/score.md)."""
    if not s.wins:
        return {"wins": False, "reason": s.reason}
    titles = {y.name: y.title for y in rules.yaku}
    out: dict[str, Any] = {"wins": True}
    if s.yakuman:
        out["yaku"] = [{"name": n, "title": titles[n], "yakuman": v} for n, v in s.yaku]
        out["yakuman"] = s.yakuman
    else:
        out["yaku"] = [{"name": n, "title": titles[n], "han": v} for n, v in s.yaku]
        out["dora"] = {"dora": s.dora, "red": s.red, "ura": s.ura}
        out["han"] = s.han
        out["fu"] = s.fu
        out["fu_items"] = [{"name": n, "fu": v} for n, v in s.fu_items]
    out.update({"limit": s.limit or None, "basic": s.basic, "form": s.form, "wait": s.wait,
                "payments": [{"payer": p, "amount": a} for p, a in s.payments],
                "total": s.total})
    return out


def text(a: dict[str, Any]) -> str:
    if not a["wins"]:
        return f"no win: {a['reason']}"
    lines = []
    for y in a["yaku"]:
        worth = f"{y['yakuman']} yakuman" if "yakuman" in y else f"{y['han']} han"
        lines.append(f"  {y['name']:<16} {worth:>10}   {y['title']}")
    if "dora" in a:
        for name, n in a["dora"].items():
            if n:
                lines.append(f"  {name:<16} {f'{n} han':>10}")
        head = f"{a['han']} han {a['fu']} fu"
        fu = ", ".join(f"{i['name']} {i['fu']}" for i in a["fu_items"])
        lines.append(f"  fu: {fu}")
    else:
        head = f"{a['yakuman']} yakuman"
    limit = f" ({a['limit']})" if a["limit"] else ""
    pays = ", ".join(f"{p['payer']} {p['amount']:,}" for p in a["payments"])
    return f"{head}{limit}: {a['total']:,} points ({pays})\n" + "\n".join(lines)


def _entry(args: argparse.Namespace) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for key in ("hand", "win", "seat", "round", "dora", "ura"):
        value = getattr(args, key)
        if value is not None:
            entry[key] = value
    entry["calls"] = args.call or []
    entry["concealed_kongs"] = args.concealed_kong or []
    entry["self_drawn"] = args.tsumo
    entry["context"] = [n.strip() for c in args.context or [] for n in c.split(",") if n.strip()]
    entry["honba"], entry["sticks"] = args.honba, args.sticks
    return entry


def _batch(rules: HandScoring, scorer: Scorer, path: str, out: TextIO,
           options: dict[str, bool]) -> int:
    try:
        source = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise JonggError(f"--batch {path}: {error.strerror or error}") from None
    status = 0
    with source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError as error:
                    raise ScoreInputError(f"not JSON ({error.msg}, column {error.colno})") \
                        from None
                if not isinstance(entry, dict):
                    raise ScoreInputError("a line is a JSON object")
                win = build(rules, entry)
                if options:  # --option, under what a line sets itself
                    win = dataclasses.replace(win, options={**options, **win.options})
                result = {"line": number, **answer(rules, scorer.score(win))}
            except ScoreInputError as error:
                print(f"{path}:{number}: error: {error}", file=sys.stderr)
                result = {"line": number, "error": str(error)}
                status = 1
            out.write(json.dumps(result) + "\n")
    return status


def cmd_score(args: argparse.Namespace) -> int:
    rules = load_hand_scoring(args.variant)
    scorer = Scorer(rules)
    options = dict(_option(rules, o) for o in args.option or [])
    if args.batch is not None:
        if args.hand is not None:
            raise JonggError("--batch reads the hands from a file: give --hand or --batch")
        return _batch(rules, scorer, args.batch, sys.stdout, options)
    if args.hand is None or args.win is None:
        raise JonggError("give --hand and --win (or --batch FILE)")
    entry = _entry(args)
    if options:
        entry["options"] = options
    try:
        result = answer(rules, scorer.score(build(rules, entry)))
    except ScoreInputError as error:
        said = str(error)
        flag = _argument(said)
        key = flag[2:].replace("-", "_")
        for prefix in (f"{key}: ", f"{key}s: "):  # the flag already names it
            said = said.removeprefix(prefix)
        raise JonggError(f"{flag}: {said}") from None
    print(json.dumps(result, indent=2) if args.json else text(result))
    return 0


def _argument(message: str) -> str:
    """The argument a message is about, as written on the command line."""
    for said, flag in (("hand", "--hand"), ("win", "--win"), ("the winning tile", "--win"),
                       ("calls", "--call"), ("call ", "--call"),
                       ("concealed_kongs", "--concealed-kong"), ("seat", "--seat"),
                       ("the seat wind", "--seat"), ("round", "--round"),
                       ("the round wind", "--round"), ("context", "--context"),
                       ("unknown context", "--context"), ("dora", "--dora"), ("ura", "--ura"),
                       ("honba", "--honba"), ("sticks", "--sticks"), ("options", "--option"),
                       ("unknown option", "--option")):
        if message.startswith(said):
            return flag
    return "--hand"
