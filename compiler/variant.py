"""Variants: YAML in, a game specification per player count out.

A variant is read in four steps:
1. every file of its `extends:` chain is loaded and schema-checked;
2. the chain is merged (mappings key by key, everything else replaced), then
   the `by_players:` overrides of the chosen player count;
3. every default the schema documents is filled in, so the resolved variant
   says everything (`jongg variant show NAME --resolved`);
4. semantic checks, all reported at once with the position of the YAML that
   caused them, then compilation into jongg.runtime.game.spec.GameSpec.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jongg.runtime.card import Card
from jongg.runtime.game.formula import Formula
from jongg.runtime.game.scoring import (
    DEAD_FACTS,
    MAHJONG_FACTS,
    MATCH_FACTS,
    WALL_FACTS,
    WIN_FACTS,
)
from jongg.runtime.game.spec import (
    ClaimKind,
    Claims,
    Courtesy,
    Debt,
    Direction,
    GameSpec,
    MatchRules,
    Pass,
    Payment,
    Payout,
    Penalties,
    Penalty,
    Phase,
    Pledge,
    Scoring,
    Turn,
    Vote,
    Walls,
)
from jongg.runtime.tiles import Deck

from .card import load_card, load_ruleset
from .deck import load_deck
from .errors import Diagnostic, JonggError, Location, SemanticError, raise_if_errors
from .formula import compile_formula
from .schema import schema, validate
from .source import Document, PathKey


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant's deck and card (what matching needs), for any player count."""

    name: str
    title: str
    deck: Deck
    card: Card
    open_hands: bool = False


@dataclass
class Resolved:
    """A variant's merged data, and where each part of it was written."""

    name: str
    data: dict[str, Any]
    sources: list[tuple[Document, PathKey]] = field(default_factory=list)  # most derived first

    def locate(self, path: PathKey) -> Location | None:
        """Where the value at `path` comes from: the file that writes the
        deepest part of it (the most derived one on a tie)."""
        best: Location | None = None
        depth = -1
        for doc, prefix in self.sources:
            key = (*prefix, *path)
            while len(key) > len(prefix) and key not in doc.locations:
                key = key[:-1]
            found = len(key) - len(prefix)
            if found > depth and (found or not path):
                best, depth = doc.locations.get(key, Location(doc.file, 1, 1)), found
        if best is None and self.sources:
            best = Location(self.sources[0][0].file, 1, 1)
        return best

    def string_start(self, path: PathKey) -> Location | None:
        for doc, prefix in self.sources:
            if (*prefix, *path) in doc.locations:
                return doc.string_start((*prefix, *path))
        return self.locate(path)


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _chain(name: str) -> list[Document]:
    """The documents of `name`'s extends chain, most derived first."""
    docs: list[Document] = []
    seen: list[str] = []
    while True:
        doc = load_ruleset("variant", name)
        validate(doc, "variant")
        docs.append(doc)
        seen.append(name)
        base = doc.data.get("extends")
        if base is None:
            return docs
        if base in seen:
            loop = " -> ".join([*seen, base])
            raise SemanticError([Diagnostic(doc.locate(("extends",)),
                                            f"extends makes a cycle: {loop}",
                                            hint="a variant may not extend itself")])
        name = base


def resolve(name: str, players: int | None = None) -> Resolved:
    """The variant's data with its `extends:` chain applied; with `players`,
    the `by_players` overrides of that count too and every default filled."""
    docs = _chain(name)
    data: dict[str, Any] = {}
    for doc in reversed(docs):
        data = _merge(data, {k: v for k, v in doc.data.items() if k != "extends"})
    sources: list[tuple[Document, PathKey]] = [(doc, ()) for doc in docs]
    if players is not None:
        overrides = [(doc, key) for doc in docs
                     for key in (str(players), players) if key in doc.data.get("by_players", {})]
        for doc, key in reversed(overrides):  # YAML reads `3:` as a number, `"3":` as text
            data = _merge(data, doc.data["by_players"][key])
        sources = [(doc, ("by_players", key)) for doc, key in overrides] + sources
        data.pop("by_players", None)
        data = fill_defaults(data)
    return Resolved(name, data, sources)


def fill_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """Every default the variant schema documents, filled in where unset."""
    root = schema("variant")
    defs = root["$defs"]

    def fill(node: dict[str, Any], value: Any) -> Any:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        if isinstance(value, dict) and "properties" in node:
            for key, sub in node["properties"].items():
                if key not in value:
                    target = defs[sub["$ref"].rsplit("/", 1)[-1]] if "$ref" in sub else sub
                    if "default" in sub:
                        value[key] = copy.deepcopy(sub["default"])
                    elif target.get("type") == "object" and "properties" in target \
                            and "required" not in target and node is root:
                        value[key] = {}
                if key in value:
                    value[key] = fill(sub, value[key])
        elif isinstance(value, list) and "items" in node:
            return [fill(node["items"], item) for item in value]
        return value

    out: dict[str, Any] = fill(root, copy.deepcopy(data))
    return out


def _clauses(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class _Compiler:
    """Semantic checks and compilation of one resolved variant, every problem kept."""

    def __init__(self, resolved: Resolved, players: int):
        self.resolved = resolved
        self.data = resolved.data
        self.players = players
        self.problems: list[Diagnostic] = []
        self.deck_value: Deck | None = None

    def problem(self, path: PathKey, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(self.resolved.locate(path), message, hint=hint))

    def formula(self, path: PathKey, facts: tuple[str, ...]) -> Formula | None:
        text: Any = self.data
        for key in path:
            text = text[key]
        try:
            return compile_formula(str(text), facts, origin=self.resolved.string_start(path))
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None

    def compile(self) -> GameSpec | None:
        d = self.data
        deck = self.deck_value = self.deck()
        card = self.card(deck)
        seats = self.seats()
        deal, extra = self.deal(deck)
        phases = tuple(self.phases(d.get("before_play", []), ("before_play",)))
        turn = Turn(1 if d["turn"]["direction"] == "right" else -1, d["turn"]["opening"],
                    d["turn"]["exchange_jokers"], d["turn"]["declare_before_opening"],
                    _clauses(d["turn"].get("clause")))
        claims = self.claims()
        p = d["penalties"]
        penalties = Penalties(Penalty(p["false_claim"]), Penalty(p["false_declare"]),
                              _clauses(p.get("clause")), Penalty(p["misfit_exposure"]),
                              p["all_dead"], p["dead_turn"])
        scoring = self.scoring(card)
        match = self.match()
        racks = d["seats"]["racks"]
        for i, kind in enumerate(claims.kinds):
            if kind.mahjongs > 1 and not (kind.mahjong and kind.mahjongs <= racks):
                self.problem(("claims", "kinds", i, "mahjongs"), f"claim {kind.name!r} completes "
                             f"{kind.mahjongs} Mah Jonggs at once: it needs mahjong: true and "
                             f"as many racks (seats.racks is {racks})")
        walls = d.get("walls")
        if d["seats"]["wins_needed"] > racks:
            self.problem(("seats", "wins_needed"), "a player cannot need more Mah Jonggs "
                         "than it has racks")
        if card is not None and "each" in d.get("deal", {}):
            self.deal_fits(card, racks, deal, extra)
        if self.problems or deck is None or card is None or match is None:
            return None
        return GameSpec(
            variant=d["variant"], title=d.get("title", d["variant"]), players=self.players,
            seats=seats, deck=deck, card=d["win"]["card"], deck_source=self.deck_source(),
            hand_size=card.hand_size, deal=deal,
            dealer_extra=extra, racks=racks, wins_needed=d["seats"]["wins_needed"],
            walls=Walls(walls["per_seat"], walls["die"], walls["take"], walls["height"],
                        _clauses(walls.get("clause"))) if walls else None,
            flags=self.flags(card),
            open_hands=d["win"]["open_hands"], phases=phases, turn=turn, claims=claims,
            penalties=penalties, scoring=scoring, match=match, words=dict(d.get("words", {})),
            options={"visibility": d["visibility"]["hands"]},
            digest=hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16])

    def deck(self) -> Deck | None:
        if "deck" not in self.data:
            self.problem((), "the variant has no deck", hint="add deck: NAME, or extend a variant")
            return None
        try:
            deck = load_deck(self.data["deck"])
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None
        sets = self.data["deck_sets"]
        deck = deck.combined(sets) if sets > 1 else deck
        return self.without(deck)

    def deck_source(self) -> str:
        """The deck the card is compiled against: every set the variant plays."""
        sets = self.data["deck_sets"]
        return f"{self.data['deck']}*{sets}" if sets > 1 else self.data["deck"]

    def without(self, deck: Deck) -> Deck:
        """The deck less the tiles `deck_without` takes out (Royale for three, SMJ-28)."""
        removed = self.data.get("deck_without", {})
        copies = {}
        for code, n in removed.items():
            kind = deck.by_code.get(code)
            if kind is None:
                self.problem(("deck_without", code), f"the deck {deck.name!r} has no tile "
                             f"{code!r}", hint=f"tiles: {' '.join(k.code for k in deck.kinds)}")
            elif n > kind.copies:
                self.problem(("deck_without", code), f"cannot take {n} {code} out of "
                             f"{deck.name!r}, which holds {kind.copies}")
            else:
                copies[kind.index] = kind.copies - n
        return deck.less(copies) if copies else deck

    @staticmethod
    def flags(card: Card) -> tuple[str, ...]:
        return tuple(sorted({f for line in card.lines for f in line.flags}))

    def card(self, deck: Deck | None) -> Card | None:
        if "win" not in self.data:
            self.problem((), "the variant has no winning hands",
                         hint="add win: {card: NAME}, or extend a variant")
            return None
        if deck is None:
            return None
        try:
            return load_card(self.data["win"]["card"], deck=self.deck_source())
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None

    def seats(self) -> tuple[str, ...]:
        names = self.data["seats"].get("names")
        if names is None:
            return tuple(f"Seat {i + 1}" for i in range(self.players))
        if len(names) != self.players:
            self.problem(("seats", "names"), f"{len(names)} seat names for {self.players} "
                         "players", hint="name every seat, or set them under by_players")
        return tuple(names)

    def deal(self, deck: Deck | None) -> tuple[int, int]:
        each = self.data.get("deal", {}).get("each")
        if each is None:
            self.problem((), "the variant has no deal", hint="add deal: {each: N, dealer: M}")
            return 0, 0
        dealer = self.data["deal"].get("dealer", each + 1)
        if deck is not None:
            dealt = each * (self.players - 1) + dealer
            if dealt > deck.size:
                self.problem(("deal",), f"the deal needs {dealt} tiles for {self.players} "
                             f"players but the deck {deck.name!r} holds {deck.size}")
        return each, dealer - each

    def deal_fits(self, card: Card, racks: int, each: int, extra: int) -> None:
        """A seat's tiles after its first draw must fit its racks' hands."""
        room = card.hand_size * racks
        hands = f"{racks} hands of" if racks > 1 else "a complete hand of"
        if extra < 0:
            self.problem(("deal",), f"the dealer is dealt {each + extra} tiles, fewer than the "
                         f"{each} every other seat is dealt",
                         hint="deal.dealer counts the dealer's tiles, extra included")
        elif each + extra > room:
            self.problem(("deal",), f"the dealer is dealt {each + extra} tiles, more than "
                         f"{hands} the card {card.name!r} ({room})")
        if each + 1 > room:
            self.problem(("deal",), f"every seat is dealt {each} tiles and draws one: more "
                         f"than {hands} the card {card.name!r} ({room})")

    def phases(self, items: list[dict[str, Any]], path: PathKey) -> Iterator[Phase]:
        for i, item in enumerate(items):
            where = (*path, i)
            kind = item["phase"]
            needs = {"pass": ("to", "count"), "courtesy": ("to", "most"),
                     "vote": ("question", "then"), "pledge": ("flag", "count")}[kind]
            missing = [k for k in needs if k not in item]
            if missing:
                self.problem(where, f"a {kind} phase needs {' and '.join(missing)}")
                continue
            to = Direction(item.get("to", "right"))
            if to is Direction.ACROSS and self.players % 2:
                self.problem((*where, "to"), f"'across' has no partner with {self.players} "
                             "players", hint="set this phase under by_players")
            clauses = _clauses(item.get("clause"))
            if kind == "pass":
                if item["blind"] > item["count"]:
                    self.problem((*where, "blind"), "a blind pass cannot pass more tiles "
                                 "than the pass holds")
                yield Pass(to, item["count"], item["blind"], item["jokers"], clauses)
            elif kind == "courtesy":
                yield Courtesy(to, item["most"], item["agree"], item["jokers"], clauses)
            elif kind == "pledge":
                if item["rack"] > self.data["seats"]["racks"]:
                    self.problem((*where, "rack"), f"rack {item['rack']} is pledged, but a "
                                 f"player has {self.data['seats']['racks']}")
                question = item.get("question", f"pledge rack {item['rack']} to the "
                                                f"{item['flag']} line")
                yield Pledge(item["flag"], item["rack"] - 1, item["count"],
                             tuple(item["forced_off"]), question, clauses)
            else:
                yield Vote(item["question"], item["rule"],
                           tuple(self.phases(item["then"], (*where, "then"))), clauses)

    def claims(self) -> Claims:
        c = self.data["claims"]
        kinds = tuple(ClaimKind(k["name"], k["mahjong"], tuple(k["sizes"]), k["runs"],
                                k["jokers"], k["from"] == "next", _clauses(k.get("clause")),
                                k["mahjongs"])
                      for k in c.get("kinds", []))
        names = [k.name for k in kinds]
        for i, k in enumerate(kinds):
            if names.index(k.name) != i:
                self.problem(("claims", "kinds", i, "name"), f"claim {k.name!r} is defined twice")
            if not (k.mahjong or k.sizes or k.runs):
                self.problem(("claims", "kinds", i), f"claim {k.name!r} completes nothing",
                             hint="give it mahjong: true, sizes: [...] or runs: true")
        priority = c.get("priority", names)
        for i, name in enumerate(priority):
            if name not in names:
                self.problem(("claims", "priority", i), f"priority names no claim {name!r}",
                             hint=f"claims here: {', '.join(names) or 'none'}")
        for name in names:
            if name not in priority:
                self.problem(("claims", "priority"), f"claim {name!r} has no place in priority")
        return Claims(kinds, tuple(priority), c["ties"], c["jokers"], c["exposure_must_fit"],
                      _clauses(c.get("clause")))

    def scoring(self, card: Card | None) -> Scoring:
        s = self.data["scoring"]

        deck = self.deck_value
        held = tuple(f"held_{t.replace('-', '_')}" for t in deck.tags) if deck else ()
        # a line's card flags: Royale's star and quint lines (SMJ-31)
        flagged = tuple(f"flagged_{f.replace('-', '_')}" for f in self.flags(card)) \
            if card else ()
        hand_facts = WIN_FACTS + MAHJONG_FACTS + held + flagged

        def payments(key: str, facts: tuple[str, ...]) -> tuple[Payment, ...]:
            out = []
            for i, item in enumerate(s.get(key, [])):
                amount = self.formula(("scoring", key, i, "amount"), facts)
                where = ("scoring", key, i)
                if s["zero_sum"] and "bank" in (item["payer"], item["to"]):
                    self.problem((*where, "payer" if item["payer"] == "bank" else "to"),
                                 "a zero-sum game cannot award points from the bank or pay "
                                 "them to it", hint="set scoring.zero_sum: false")
                if (item["payer"] == "dead") != (key == "dead"):
                    self.problem((*where, "payer"), "scoring.dead is paid by the seat whose "
                                 "hands died (payer: dead), and only it",
                                 hint="payer: dead goes in scoring.dead")
                if amount is not None:
                    out.append(Payment(item["payer"], amount, item["to"],
                                       _clauses(item.get("clause"))))
            return tuple(out)

        return Scoring(payments("win", hand_facts), payments("wall_game", WALL_FACTS),
                       s["zero_sum"], Debt(s["debt"]), _clauses(s.get("clause")),
                       payments("mahjong", hand_facts), payments("dead", DEAD_FACTS))

    def match(self) -> MatchRules | None:
        m = self.data["match"]
        if "end" not in m:
            self.problem(("match",), "the match has no end", hint="add match.end, e.g. "
                         "'rounds >= players'")
            return None
        end = self.formula(("match", "end"), MATCH_FACTS)
        if end is None:
            return None
        payout = None
        if "payout" in m:
            p = m["payout"]
            if p["kind"] == "difference" and self.players != 2:
                self.problem(("match", "payout", "kind"), f"a difference payout needs two "
                             f"players, not {self.players}", hint="use kind: pot")
            payout = Payout(p["kind"], p["stake"], p["per_point"], _clauses(p.get("clause")))
        return MatchRules(m["start"], end, m["first_dealer"], m["dealer_passes"],
                          1 if m["dealer_direction"] == "right" else -1, m["ties"],
                          _clauses(m.get("clause")), payout)


def player_counts(resolved: Resolved) -> range:
    p = fill_defaults(resolved.data)["players"]
    return range(p["min"], p["max"] + 1)


def compile_variant(name: str, players: int | None = None) -> GameSpec:
    """The game specification of `name` for `players` (default: the variant's
    default count). Every problem at that count is reported at once."""
    base = resolve(name)
    counts = player_counts(base)
    if players is None:
        players = fill_defaults(base.data)["players"]["default"]
    if players not in counts:
        raise SemanticError([Diagnostic(None, f"{name} is played by {counts.start} to "
                                        f"{counts.stop - 1} players, not {players}")])
    compiler = _Compiler(resolve(name, players), players)
    spec = compiler.compile()
    raise_if_errors(compiler.problems, SemanticError)
    assert spec is not None
    return spec


def check_variant(name: str) -> list[Diagnostic]:
    """Every problem of a variant at every player count it allows."""
    problems: list[Diagnostic] = []
    try:
        base = resolve(name)
        fill = fill_defaults(base.data)["players"]
        if not fill["min"] <= fill["default"] <= fill["max"]:
            problems.append(Diagnostic(base.locate(("players",)), "players: default must lie "
                                       "between min and max"))
        counts = player_counts(base)
        found: dict[str, tuple[Diagnostic, list[int]]] = {}
        for players in counts:
            compiler = _Compiler(resolve(name, players), players)
            compiler.compile()
            for d in compiler.problems:
                found.setdefault(str(d), (d, []))[1].append(players)
        for d, where in found.values():
            if len(where) < len(counts):  # say which player counts it concerns
                d = Diagnostic(d.location, f"{d.message} (with {'/'.join(map(str, where))} "
                               "players)", d.severity, d.hint)
            problems.append(d)
    except JonggError as error:
        problems.extend(error.diagnostics)
    return problems


def load_variant(name: str) -> Variant:
    """The deck and card of a variant (matching needs no more)."""
    problems = check_variant(name)
    raise_if_errors(problems, SemanticError)
    data = resolve(name).data
    deck = load_deck(data["deck"])
    card = load_card(data["win"]["card"], deck=data["deck"])
    return Variant(data["variant"], data.get("title", data["variant"]), deck, card,
                   bool(data["win"].get("open_hands", False)))
