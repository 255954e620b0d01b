"""A position as text: everything a State holds at a decision, hidden tiles
included, as one line of JSON in tile codes (what FEN is to chess).

`position(state)` writes it, `load_position(game, text)` reads it back into
a State that plays on exactly as the original would (with the seed's chance
from there); writing a loaded position gives the same text again. Tests set
up a game this way instead of reaching into a State, and a position can be
pasted into a bug report. The history of actions and the events told so far
are not part of a position; its scores' payments are.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from jongg.runtime.errors import JonggError
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.scoring import Facts, Mahjong, RoundEnd, ScoreEvent
from jongg.runtime.game.seat import Exposure, Seat
from jongg.runtime.game.spec import Phase, Pledge, Vote
from jongg.runtime.game.state import State, Step
from jongg.runtime.tiles import Deck, TileError, parse_tiles

FORMAT = "jongg-position"
VERSION = 2  # 2: a Mah Jongg's facts by name (every field of scoring.Facts)


class PositionError(JonggError, ValueError):
    """A position text that cannot be read for this game."""


def _codes(deck: Deck, tiles: Any) -> str:
    return " ".join(deck.codes(tiles))


def _tiles(deck: Deck, text: str) -> list[int]:
    return parse_tiles(deck, text, what="position") if text else []


def _plain(value: Any) -> Any:
    """A Facts field as JSON holds it: tuples as lists."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _frozen(value: Any) -> Any:
    """A Facts field read back: lists as tuples."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _phase_index(game: Game, phase: Phase | None) -> list[int] | None:
    """Where a phase sits in the variant's phases: its path (a vote's phases nest)."""
    if phase is None:
        return None

    def find(phases: tuple[Phase, ...], path: list[int], same: Any) -> list[int] | None:
        for i, p in enumerate(phases):
            if same(p, phase):
                return [*path, i]
            if isinstance(p, Vote):
                found = find(p.phases, [*path, i], same)
                if found is not None:
                    return found
        return None

    # the very phase object first (equal phases may stand at several places)
    return find(game.spec.phases, [], lambda a, b: a is b) or \
        find(game.spec.phases, [], lambda a, b: a == b)


def _phase_at(game: Game, path: list[int] | None) -> Phase | None:
    if path is None:
        return None
    phases: tuple[Phase, ...] = game.spec.phases
    phase: Phase | None = None
    for i in path:
        phase = phases[i]
        phases = phase.phases if isinstance(phase, Vote) else ()
    return phase


def position(state: State) -> str:
    """The state as one line of text."""
    deck = state.spec.deck
    game = Game(state.spec, state._matcher)

    def exposure(e: Exposure) -> dict[str, Any]:
        return {"tiles": _codes(deck, e.tiles),
                "claimed": deck.code(e.claimed) if e.claimed >= 0 else None,
                "rack": e.rack, "mahjong": e.mahjong, "killed": e.killed}

    def mahjong(m: Mahjong) -> dict[str, Any]:
        return {"seat": m.seat, "rack": m.rack, "line": m.line, "tiles": " ".join(m.tiles),
                "facts": {f.name: _plain(getattr(m.facts, f.name)) for f in fields(Facts)}}

    doc = {
        "format": FORMAT, "version": VERSION, "variant": state.spec.variant,
        "players": state.spec.players, "seed": state.seed, "mode": str(state.mode),
        "round": state.round, "decisions": state.decisions, "dealer": state.dealer,
        "scores": state.scores, "step": str(state.step), "turn": state.turn,
        "phase": _phase_index(game, state.phase),
        "queue": [_phase_index(game, p) for p in state._phase_queue],
        "wall": _codes(deck, state._wall), "wall_owner": state._wall_owner, "die": state._die,
        "seats": [{"hand": _codes(deck, s.concealed()),
                   "exposures": [exposure(e) for e in s.exposures],
                   "discards": _codes(deck, s.discards), "dead": s.dead, "skips": s.skips,
                   "outgoing": _codes(deck, s.outgoing), "rack_dead": s.rack_dead,
                   "pledged": _phase_index(game, s.pledged), "aside": _codes(deck, s.aside)}
                  for s in state._seats],
        "turns": state._turns,
        "discard": None if state._open_discard is None else
        [state._open_discard[0], deck.code(state._open_discard[1])],
        "asked": state._asked, "answers": {str(s): a.text(deck) for s, a in
                                          sorted(state._answers.items())},
        "drawn": None if state._drawn is None else deck.code(state._drawn),
        "claimed_turn": state._claimed_turn, "claimed_from": state._claimed_from,
        "incoming": None if state._incoming is None else
        [state._incoming[0], deck.code(state._incoming[1])],
        "ended": state._ended, "promised": state._promised,
        "declared": [mahjong(m) for m in state._declared],
        "mahjongs": [mahjong(m) for m in state._mahjongs],
        "opening": state._opening, "pass_count": state._pass_count, "blind": state._blind,
        "votes": {str(s): v for s, v in sorted(state._votes.items())},
        "offers": {str(s): v for s, v in sorted(state._offers.items())},
        "turn_away": state._turn_away,
        "results": [{**r.public(), "how": r.how, "mahjongs": list(r.mahjongs)}
                    for r in state.results],
        "payments": [p.public() for p in state.payments],
    }
    if state.spec.scored is not None:  # a scored game's table (scored_round.py)
        doc["scored"] = state._scored_position()
    return json.dumps(doc, separators=(",", ":"))


# The short form: `VARIANT/PLAYERS` then each field of the JSON form, in this
# order and without its key, as compact JSON in which a space is written `+`
# (a `+` of the text itself as \u002b), so fields part at spaces and tiles
# read `1D+2D+3D`; a few hundred characters where the JSON has thousands.
SHORT = "jongg2"
FIELDS = ("seed", "mode", "round", "decisions", "dealer", "scores", "step", "turn", "phase",
          "queue", "wall", "wall_owner", "die", "seats", "turns", "discard", "asked",
          "answers", "drawn", "claimed_turn", "claimed_from", "incoming", "ended", "promised",
          "declared", "mahjongs", "opening", "pass_count", "blind", "votes", "offers",
          "turn_away", "results", "payments")
SCORED = ("scored",)  # a scored game's field, after the others
_HEADER = ("format", "version", "variant", "players")
# a seat, and each of its exposures, as its values in this order (the keys left out)
SEAT = ("hand", "exposures", "discards", "dead", "skips", "outgoing", "rack_dead", "pledged",
        "aside")
EXPOSURE = ("tiles", "claimed", "rack", "mahjong", "killed")


def _keyless(seat: dict[str, Any]) -> list[Any]:
    assert tuple(seat) == SEAT and all(tuple(e) == EXPOSURE for e in seat["exposures"])
    return [[[e[k] for k in EXPOSURE] for e in seat[k]] if k == "exposures" else seat[k]
            for k in SEAT]


def _keyed(values: list[Any]) -> dict[str, Any]:
    seat = dict(zip(SEAT, values, strict=True))
    seat["exposures"] = [dict(zip(EXPOSURE, e, strict=True)) for e in seat["exposures"]]
    return seat


def short_position(state: State) -> str:
    """The state as a short line: FIELDS after a header, parted by spaces."""
    doc = json.loads(position(state))
    names = (*FIELDS, *SCORED) if "scored" in doc else FIELDS
    assert tuple(doc)[len(_HEADER):] == names, "position() and FIELDS disagree"
    doc["seats"] = [_keyless(seat) for seat in doc["seats"]]
    fields_ = (json.dumps(doc[name], separators=(",", ":")).replace("+", "\\u002b")
               .replace(" ", "+") for name in names)
    return " ".join((SHORT, f"{doc['variant']}/{doc['players']}", *fields_))


def _from_short(text: str, scored: bool = False) -> dict[str, Any]:
    words = text.split()
    names = (*FIELDS, *SCORED) if scored else FIELDS
    if len(words) != 2 + len(names) or "/" not in words[1]:
        raise PositionError(f"a short position has {2 + len(names)} fields parted by "
                            f"spaces, not {len(words)}")
    variant, _, players = words[1].rpartition("/")
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "variant": variant,
                           "players": int(players)}
    for name, word in zip(names, words[2:], strict=True):
        try:
            doc[name] = json.loads(word.replace("+", " "))
        except json.JSONDecodeError as error:
            raise PositionError(f"field {name!r} of the short position is not readable at "
                                f"column {error.colno}: {error.msg}") from None
    doc["seats"] = [_keyed(seat) for seat in doc["seats"]]
    return doc


def load_position(game: Game, text: str) -> State:
    """A State at the position `text` describes (the JSON form or the short
    one), for this game."""
    try:
        doc = _from_short(text, game.spec.scored is not None) \
            if text.startswith(SHORT + " ") else json.loads(text)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise PositionError("not a jongg position (no \"format\": \"jongg-position\")")
        if doc.get("version") != VERSION:
            raise PositionError(f"position version {doc.get('version')!r}; this jongg reads "
                                f"version {VERSION}")
        if doc["variant"] != game.spec.variant or doc["players"] != game.spec.players:
            raise PositionError(f"a position of {doc['variant']} for {doc['players']} players, "
                                f"not {game.spec.variant} for {game.spec.players}")
        return _build(game, doc)
    except PositionError:
        raise
    except json.JSONDecodeError as error:
        raise PositionError(f"not JSON at column {error.colno}: {error.msg}") from None
    except (KeyError, TypeError, ValueError, IndexError, TileError) as error:
        raise PositionError(f"a position this game cannot hold: {error}") from None


def _build(game: Game, doc: dict[str, Any]) -> State:
    spec = game.spec
    deck = spec.deck
    state = game.new_match(int(doc["seed"]), Mode(doc["mode"]))

    def exposure(e: dict[str, Any]) -> Exposure:
        claimed = deck.by_code[e["claimed"]].index if e["claimed"] is not None else -1
        return Exposure(tuple(_tiles(deck, e["tiles"])), claimed, int(e["rack"]),
                        bool(e["mahjong"]), bool(e["killed"]))

    def mahjong(m: dict[str, Any]) -> Mahjong:
        written = m["facts"]
        facts = Facts(**{f.name: _frozen(written[f.name]) for f in fields(Facts)})
        return Mahjong(int(m["seat"]), int(m["rack"]), str(m["line"]), facts,
                       tuple(m["tiles"].split()))

    def seat(s: dict[str, Any]) -> Seat:
        counts = [0] * len(deck.kinds)
        for t in _tiles(deck, s["hand"]):
            counts[t] += 1
        pledged = _phase_at(game, s["pledged"])
        if pledged is not None and not isinstance(pledged, Pledge):
            raise PositionError(f"a seat pledged to a phase that is not a pledge: {pledged}")
        return Seat(counts, [exposure(e) for e in s["exposures"]], _tiles(deck, s["discards"]),
                    bool(s["dead"]), int(s["skips"]), _tiles(deck, s["outgoing"]),
                    [bool(d) for d in s["rack_dead"]], pledged, _tiles(deck, s["aside"]))

    def action(text: str) -> Action:
        return parse_action(deck, text)

    state.round, state.decisions, state.dealer = doc["round"], doc["decisions"], doc["dealer"]
    state.scores = [int(v) for v in doc["scores"]]
    state.step, state.turn = Step(doc["step"]), int(doc["turn"])
    state.phase = _phase_at(game, doc["phase"])
    state._phase_queue = [p for p in (_phase_at(game, q) for q in doc["queue"]) if p is not None]
    state._wall, state._wall_owner = _tiles(deck, doc["wall"]), list(doc["wall_owner"])
    state._die = int(doc["die"])
    state._seats = [seat(s) for s in doc["seats"]]
    if len(state._seats) != spec.players:
        raise PositionError(f"{len(state._seats)} seats for {spec.players} players")
    state._turns = int(doc["turns"])
    state._open_discard = None if doc["discard"] is None else \
        (int(doc["discard"][0]), deck.by_code[doc["discard"][1]].index)
    state._asked = [int(s) for s in doc["asked"]]
    state._answers = {int(s): action(a) for s, a in doc["answers"].items()}
    state._drawn = None if doc["drawn"] is None else deck.by_code[doc["drawn"]].index
    state._claimed_turn, state._claimed_from = bool(doc["claimed_turn"]), doc["claimed_from"]
    state._incoming = None if doc["incoming"] is None else \
        (int(doc["incoming"][0]), deck.by_code[doc["incoming"][1]].index)
    state._ended, state._promised = doc["ended"], [int(r) for r in doc["promised"]]
    state._declared = [mahjong(m) for m in doc["declared"]]
    state._mahjongs = [mahjong(m) for m in doc["mahjongs"]]
    state._opening = bool(doc["opening"])
    state._pass_count, state._blind = list(doc["pass_count"]), list(doc["blind"])
    state._votes = {int(s): int(v) for s, v in doc["votes"].items()}
    state._offers = {int(s): int(v) for s, v in doc["offers"].items()}
    state._turn_away = doc["turn_away"]
    state.results = [RoundEnd(r["round"], r["winner"], r["discarder"], r["self_drawn"],
                              r["line"], r["dealer"], r["turns"],
                              tuple(tuple(g) for g in r["shown"]), tuple(r["mahjongs"]),
                              r["how"], winners=tuple(r.get("winners", ())))
                     for r in doc["results"]]
    state.payments = [ScoreEvent(p["round"], p["payer"], p["payee"], p["amount"],
                                 tuple(p["clauses"])) for p in doc["payments"]]
    if spec.scored is not None:
        state._load_scored(doc["scored"])
    state.events = []
    state._forget()
    return state
