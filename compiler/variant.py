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
import dataclasses
import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from jongg.runtime.card import Card, Line
from jongg.runtime.game import facts as fact_table
from jongg.runtime.game.facts import Moment, Sizes
from jongg.runtime.game.formula import Formula
from jongg.runtime.game.scoring import DEAD_FACTS, MATCH_FACTS, WALL_FACTS
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

from . import registry
from .bounds import Bound, bound
from .card import compile_card_document
from .deck import load_deck
from .errors import (
    Diagnostic,
    JonggError,
    Location,
    SchemaError,
    SemanticError,
    Severity,
    excerpt,
    raise_if_errors,
)
from .formula import compile_formula
from .schema import Readable, readable, schema
from .source import Document, PathKey

MAX_ROUNDS = 1000  # a match must be able to end within as many rounds
MAX_AMOUNT = 10**9  # the most points one payment may pay


# A file's own words about itself: a variant that extends another does not
# inherit them, since they would describe the base (its title names its card,
# its open choices may be ones the variant changes).
PROSE = ("title", "note", "open")


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant's deck and card (what matching needs), at its default player count."""

    name: str
    title: str
    deck: Deck
    card: Card  # the lines the variant plays
    open_hands: bool = False
    card_source: str = ""  # the card and deck as a matcher is compiled from them
    deck_source: str = ""
    flags: tuple[str, ...] = ()  # win.flags


@dataclass(frozen=True, slots=True)
class Layer:
    """One part of a variant's data: a file's top level, or its overrides for
    one player count (`prefix` ("by_players", key))."""

    doc: Document
    prefix: PathKey
    data: dict[str, Any]

    def __str__(self) -> str:
        name = PurePath(self.doc.file).name
        return f"{name} by_players {self.prefix[1]}" if self.prefix else name


@dataclass
class Resolved:
    """A variant's merged data, and where each part of it was written."""

    name: str
    data: dict[str, Any]
    sources: list[tuple[Document, PathKey]] = field(default_factory=list)  # strongest first
    # the layer that wrote each value (mappings merge, so a value is anything else)
    origins: dict[PathKey, Layer] = field(default_factory=dict)
    schema: list[Diagnostic] = field(default_factory=list)  # the chain's schema problems
    broken: list[PathKey] = field(default_factory=list)  # parts set aside for them
    docs: list[Document] = field(default_factory=list)  # the extends chain, most derived first

    def locate(self, path: PathKey) -> Location | None:
        """Where the value at `path` comes from: the file that writes the
        deepest part of it (the strongest one on a tie)."""
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
            best = self.sources[0][0].locate(())
        return best

    def string_start(self, path: PathKey) -> Location | None:
        for doc, prefix in self.sources:
            if (*prefix, *path) in doc.locations:
                return doc.string_start((*prefix, *path))
        return self.locate(path)

    def writer(self, path: PathKey) -> Document | None:
        """The file that wrote the value at `path` (its references are relative to it)."""
        layer = self.origins.get(path)
        return layer.doc if layer else None

    def origin(self, path: PathKey) -> str:
        """Where a value came from, in words: a file, a file's by_players count, a default."""
        layer = self.origins.get(path)
        return str(layer) if layer else "default"


def _merge(base: dict[str, Any], override: dict[str, Any], origins: dict[PathKey, Layer],
           layer: Layer, path: PathKey = ()) -> dict[str, Any]:
    """`override` over `base`: mappings merge key by key, anything else is
    replaced; `origins` follows which layer wrote each value."""
    out = dict(base)
    for key, value in override.items():
        at = (*path, key)
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value, origins, layer, at)
            continue
        for gone in [p for p in origins if p[: len(at)] == at]:
            del origins[gone]
        out[key] = value
        _record(value, at, origins, layer)
    return out


def _record(value: Any, at: PathKey, origins: dict[PathKey, Layer], layer: Layer) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _record(item, (*at, key), origins, layer)
    else:
        origins[at] = layer


def _chain(name: str) -> tuple[list[tuple[Document, Readable]], list[Diagnostic]]:
    """The documents of `name`'s extends chain, most derived first, each with
    what of it the schema lets the check read, and every schema problem. A
    base is named relative to the file that extends it."""
    docs: list[tuple[Document, Readable]] = []
    problems: list[Diagnostic] = []
    seen: list[str] = []  # the files, whatever path named them
    names: list[str] = []  # as written
    beside: registry.Entry | None = None
    where: Location | None = None
    while True:
        try:
            doc, screened = _read(registry.read("variant", name, beside, where))
        except JonggError as error:
            raise type(error)([*problems, *error.diagnostics]) from None
        problems += screened.diagnostics
        if screened.data is None:
            raise SchemaError(problems)
        docs.append((doc, screened))
        assert doc.source is not None
        seen.append(registry.identity(doc.source))
        names.append(name)
        base = screened.data.get("extends")
        if base is None:
            return docs, problems
        where = doc.locate(("extends",))
        beside = doc.source
        try:
            again = registry.identity(registry.locate("variant", base, beside, where))
        except JonggError as error:
            raise type(error)([*problems, *error.diagnostics]) from None
        if again in seen:
            loop = " -> ".join([*names, base])
            raise SemanticError([*problems, Diagnostic(where, f"extends makes a cycle: {loop}",
                                                       hint="a variant may not extend itself")])
        name = base


# variant files read, by file and text: a variant is resolved at every player count
_READ: dict[tuple[str, str], tuple[Document, Readable]] = {}


def _read(found: registry.Text) -> tuple[Document, Readable]:
    """A variant file's document and what of it the schema lets the check read."""
    key = (found.file, found.text)
    if key not in _READ:
        if len(_READ) > 64:  # a process checking many files keeps only the latest
            _READ.clear()
        doc = found.document()
        _READ[key] = (doc, readable(doc, "variant"))
    return _READ[key]


def _count_key(overrides: dict[Any, Any], players: int) -> str | int | None:
    """The by_players key of a count: YAML reads `3:` as a number, `"3":` as text."""
    for key in (str(players), players):
        if key in overrides:
            return key
    return None


def resolve(name: str, players: int | None = None) -> Resolved:
    """The variant's data with its `extends:` chain applied; with `players`,
    the `by_players` overrides of that count too and every default filled.

    What a file writes beats everything it inherits, at every player count:
    the layers apply base first, each file's top level and then its overrides
    for the count, so a base's per-count values hold only where the variants
    built on it are silent."""
    chain, problems = _chain(name)
    layers: list[Layer] = []
    for doc, screened in reversed(chain):
        own = doc is chain[0][0]
        data = screened.data

        def words(part: dict[str, Any], own: bool = own) -> dict[str, Any]:
            return {k: v for k, v in part.items()
                    if k not in ("extends", "by_players") and (own or k not in PROSE)}

        layers.append(Layer(doc, (), words(data)))
        overrides = data.get("by_players", {})
        key = _count_key(overrides, players) if players is not None else None
        if key is not None:
            layers.append(Layer(doc, ("by_players", key), words(overrides[key])))
    origins: dict[PathKey, Layer] = {}
    merged: dict[str, Any] = {}
    for layer in layers:
        merged = _merge(merged, layer.data, origins, layer)
    if players is None:  # every file's overrides, for display
        shown: dict[str, Any] = {}
        for _, screened in reversed(chain):
            shown = _merge(shown, screened.data.get("by_players", {}), {}, layers[0])
        if shown:
            merged["by_players"] = shown
    else:
        merged = fill_defaults(merged)
    broken = [p[2:] if p[0] == "by_players" else p
              for _, screened in chain for p in screened.removed]
    return Resolved(name, merged, [(layer.doc, layer.prefix) for layer in reversed(layers)],
                    origins, problems, [p for p in broken if p], [doc for doc, _ in chain])


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

    def __init__(self, resolved: Resolved, players: int, card: str | None = None):
        self.resolved = resolved
        self.data = resolved.data
        self.players = players
        self.card_given = card  # a card played instead of the variant's own (name or path)
        self.problems: list[Diagnostic] = []
        self.deck_value: Deck | None = None
        self.deck_ref: str | None = None  # the deck and card, named from anywhere
        self.card_ref: str | None = None
        self.values: Bound = (0, 0)  # the lowest and highest value of the lines played
        self.unplayed_flags: list[str] = []  # flags of the card the variant does not name

    def problem(self, path: PathKey, message: str, hint: str | None = None, *,
                warning: bool = False, text: bool = False) -> None:
        """A problem at the value `path` (with `text`, where its characters begin),
        unless that value broke the schema and was set aside: the schema message
        has said what is wrong there."""
        for broken in self.resolved.broken:
            if path[: len(broken)] == broken or (path and broken[: len(path)] == path):
                return
        where = self.resolved.string_start(path) if text else self.resolved.locate(path)
        self.problems.append(Diagnostic(where, message,
                                        Severity.WARNING if warning else Severity.ERROR, hint))

    def reference(self, kind: str, path: PathKey) -> str | None:
        """The ruleset a value names, relative to the file that writes it, as a
        name that finds it again from anywhere; None (and a problem) when there
        is none to be found."""
        value: Any = self.data
        for key in path:
            value = value[key]
        writer = self.resolved.writer(path)
        try:
            entry = registry.locate(kind, str(value), writer.source if writer else None,
                                    self.resolved.locate(path))
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None
        return registry.reference(entry)

    def formula(self, path: PathKey, facts: tuple[str, ...]) -> Formula | None:
        text: Any = self.data
        for key in path:
            text = text[key]
        try:
            return compile_formula(str(text), facts, origin=self.resolved.string_start(path))
        except JonggError as error:
            self.problems.extend(self.unplayed(d) for d in error.diagnostics)
            return None

    def unplayed(self, d: Diagnostic) -> Diagnostic:
        """A flagged_<flag> fact of a flag the card has but the variant does not
        play is unknown for that reason: say so."""
        for flag in self.unplayed_flags:
            if d.message.startswith(f"unknown fact 'flagged_{flag.replace('-', '_')}'"):
                return Diagnostic(d.location, d.message, d.severity,
                                  f"the card's lines flagged {excerpt(flag)} are not played: name "
                                  "it in win.flags")
        return d

    def compile(self) -> GameSpec | None:
        deck = self.deck_value = self.deck()
        card = self.card(deck)
        d = self.data  # another card's name and flags, when one is played
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
                self.problem(("claims", "kinds", i, "mahjongs"), f"claim {excerpt(kind.name)} "
                             f"completes {kind.mahjongs} Mah Jonggs at once: it needs mahjong: "
                             f"true and as many racks (seats.racks is {racks})")
        walls = d.get("walls")
        if d["seats"]["wins_needed"] > racks:
            self.problem(("seats", "wins_needed"), "a player cannot need more Mah Jonggs "
                         "than it has racks")
        if card is not None and "each" in d.get("deal", {}):
            self.deal_fits(card, racks, deal, extra)
        if any(p.is_error for p in self.problems) or deck is None or card is None \
                or match is None or self.card_ref is None:
            return None
        return GameSpec(
            variant=d["variant"], title=d.get("title", d["variant"]), players=self.players,
            seats=seats, deck=deck, card=self.card_ref, deck_source=self.deck_source(),
            hand_size=card.hand_size, deal=deal,
            dealer_extra=extra, racks=racks, wins_needed=d["seats"]["wins_needed"],
            walls=Walls(walls["per_seat"], walls["die"], walls["take"], walls["height"],
                        _clauses(walls.get("clause"))) if walls else None,
            flags=self.flags(card), card_flags=tuple(d["win"]["flags"]),
            open_hands=d["win"]["open_hands"], phases=phases, turn=turn, claims=claims,
            penalties=penalties, scoring=scoring, match=match, words=dict(d.get("words", {})),
            options={"visibility": d["visibility"]["hands"]},
            digest=hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16])

    def deck(self) -> Deck | None:
        if "deck" not in self.data:
            self.problem(("deck",), "the variant has no deck",
                         hint="add deck: NAME, or extend a variant")
            return None
        self.deck_ref = self.reference("deck", ("deck",))
        if self.deck_ref is None:
            return None
        try:
            deck = load_deck(self.deck_ref)
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None
        sets = self.data["deck_sets"]
        deck = deck.combined(sets) if sets > 1 else deck
        return self.without(deck)

    def deck_source(self) -> str:
        """The deck the card is compiled against: every set the variant plays."""
        assert self.deck_ref is not None
        sets = self.data["deck_sets"]
        return f"{self.deck_ref}*{sets}" if sets > 1 else self.deck_ref

    def without(self, deck: Deck) -> Deck:
        """The deck less the tiles `deck_without` takes out (Royale for three, SMJ-28)."""
        removed = self.data.get("deck_without", {})
        copies = {}
        for code, n in removed.items():
            kind = deck.by_code.get(code)
            if kind is None:
                self.problem(("deck_without", code), f"the deck {excerpt(deck.name)} has no "
                             f"tile {excerpt(code)}",
                             hint=f"tiles: {' '.join(k.code for k in deck.kinds)}")
            elif n > kind.copies:
                self.problem(("deck_without", code), f"cannot take {n} {code} out of "
                             f"{excerpt(deck.name)}, which holds {kind.copies}")
            else:
                copies[kind.index] = kind.copies - n
        return deck.less(copies) if copies else deck

    @staticmethod
    def flags(card: Card) -> tuple[str, ...]:
        return tuple(sorted({f for line in card.lines for f in line.flags}))

    def card(self, deck: Deck | None) -> Card | None:
        """The card, less the flagged lines the variant does not play."""
        if "win" not in self.data:
            self.problem(("win",), "the variant has no winning hands",
                         hint="add win: {card: NAME}, or extend a variant")
            return None
        self.card_ref = self.reference("card", ("win", "card")) if self.card_given is None \
            else self.given_card()
        if deck is None or self.card_ref is None:
            return None
        try:
            card = _card(self.card_ref, self.deck_source())
        except JonggError as error:
            self.problems.extend(error.diagnostics)
            return None
        named = self.data["win"]["flags"]
        on_card = self.flags(card)
        if self.card_given is not None:
            # another card: of the flags the variant plays, those the card has; the
            # spec (and its digest) names the card played
            named = [f for f in named if f in on_card]
            self.data = {**self.data, "win": {**self.data["win"], "card": self.card_ref,
                                              "flags": named}}
        elif self.inherited_flags():
            # win.flags belong with the card they were written for: of a base's, a
            # variant naming its own card keeps those its card carries, and says so
            kept = [f for f in named if f in on_card]
            if kept != named:
                base = self.resolved.origin(("win", "flags"))
                dropped = ", ".join(f for f in named if f not in on_card)
                self.problem(("win", "card"), f"win.flags of {base} ({dropped}) name lines of "
                             f"its own card; the card {excerpt(card.name)} carries "
                             f"{'none of them' if not kept else 'only ' + ', '.join(kept)}: "
                             "the others are not named here", hint="write win.flags here to "
                             "choose the flagged lines of this card", warning=True)
            named = kept
            self.data = {**self.data, "win": {**self.data["win"], "flags": named}}
        self.unplayed_flags = [f for f in on_card if f not in named]
        for i, flag in enumerate(named):
            if flag not in on_card:
                self.problem(("win", "flags", i), f"no line of the card {excerpt(card.name)} is "
                             f"flagged {excerpt(flag)}", hint=f"flags on the card: "
                             f"{', '.join(on_card) or 'none'}")
        chosen = played(card, named)
        if not chosen.lines:
            self.problem(("win", "flags"), f"the variant plays none of the lines of the card "
                         f"{excerpt(card.name)}: each is flagged", hint="name their flags in "
                         "win.flags")
            return None
        values = [line.value or 0 for line in chosen.lines]
        self.values = (min(values), max(values))
        return chosen

    def inherited_flags(self) -> bool:
        """Whether win.flags come from a base while this variant names its own card."""
        card, flags = self.resolved.writer(("win", "card")), self.resolved.writer(("win", "flags"))
        docs = self.resolved.docs
        return card is not None and flags is not None and card is not flags and \
            card in docs and flags in docs and docs.index(card) < docs.index(flags)

    def given_card(self) -> str | None:
        """The card played instead of the variant's own, named from the
        current directory, as a name that finds it again from anywhere."""
        assert self.card_given is not None
        try:
            return registry.reference(registry.locate("card", self.card_given))
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
            self.problem(("deal",), "the variant has no deal",
                         hint="add deal: {each: N, dealer: M}")
            return 0, 0
        dealer = self.data["deal"].get("dealer", each + 1)
        if deck is not None:
            dealt = each * (self.players - 1) + dealer
            if dealt > deck.size:
                self.problem(("deal",), f"the deal needs {dealt} tiles for {self.players} "
                             f"players but the deck {excerpt(deck.name)} holds {deck.size}")
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
                         f"{hands} the card {excerpt(card.name)} ({room})")
        if each + 1 > room:
            self.problem(("deal",), f"every seat is dealt {each} tiles and draws one: more "
                         f"than {hands} the card {excerpt(card.name)} ({room})")

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
                if item["flag"] not in self.data.get("win", {}).get("flags", ()):
                    self.problem((*where, "flag"), f"the pledge plays the lines flagged "
                                 f"{excerpt(item['flag'])}, which win.flags does not name",
                                 hint=f"add it: win: {{flags: [{item['flag']}]}}")
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
                self.problem(("claims", "kinds", i, "name"),
                             f"claim {excerpt(k.name)} is defined twice")
            if not (k.mahjong or k.sizes or k.runs):
                self.problem(("claims", "kinds", i), f"claim {excerpt(k.name)} completes nothing",
                             hint="give it mahjong: true, sizes: [...] or runs: true")
        priority = c.get("priority", names)
        for i, name in enumerate(priority):
            if name not in names:
                self.problem(("claims", "priority", i), f"priority names no claim {excerpt(name)}",
                             hint=f"claims here: {', '.join(names) or 'none'}")
        for name in names:
            if name not in priority:
                self.problem(("claims", "priority"),
                             f"claim {excerpt(name)} has no place in priority")
        return Claims(kinds, tuple(priority), c["ties"], c["jokers"], c["exposure_must_fit"],
                      _clauses(c.get("clause")))

    def scoring(self, card: Card | None) -> Scoring:
        s = self.data["scoring"]

        # the deck's tags, and a line's card flags: Royale's star and quint lines (SMJ-31)
        hand_facts = tuple(f.name for f in fact_table.declared(Moment.WIN, *self.keys(card)))

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
                    self.amount_bounds(("scoring", key, i, "amount"), amount,
                                       self.fact_bounds(facts, card))
                    out.append(Payment(item["payer"], amount, item["to"],
                                       _clauses(item.get("clause"))))
            return tuple(out)

        return Scoring(payments("win", hand_facts), payments("wall_game", WALL_FACTS),
                       s["zero_sum"], Debt(s["debt"]), _clauses(s.get("clause")),
                       payments("mahjong", hand_facts), payments("dead", DEAD_FACTS))

    def keys(self, card: Card | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The tags and flags the held_ and flagged_ families are declared for."""
        deck = self.deck_value
        return (deck.tags if deck else (), self.flags(card) if card else ())

    def fact_bounds(self, facts: tuple[str, ...], card: Card | None = None
                    ) -> dict[str, Bound]:
        """The range of each fact a formula may read, as the facts table
        declares it for this variant's sizes (an undeclared name is an error)."""
        racks = self.data["seats"]["racks"]
        sizes = Sizes(self.players, racks, (self.data.get("deal", {}).get("each") or 0) + 1 +
                      14 * racks, self.values, MAX_ROUNDS)
        return {f: fact_table.fact(f, *self.keys(card)).range(sizes) for f in facts}

    def amount_bounds(self, path: PathKey, amount: Formula, facts: dict[str, Bound]) -> None:
        """A payment is paid from `payer` to `to`: a negative amount would pay
        the other way, and an amount past MAX_AMOUNT cannot be summed exactly."""
        low, high = bound(amount.tree, facts)
        if high < 0:
            self.problem(path, f"the payment {excerpt(amount.text)} is always negative: it "
                         "would pay the other way", hint="write a positive amount and swap "
                         "payer and to", text=True)
        elif low < 0:
            self.problem(path, f"the payment {excerpt(amount.text)} can be negative, which "
                         "would pay the other way", hint="if it cannot, ignore this; "
                         "max(0, ...) makes sure", warning=True, text=True)
        if max(-low, high) > MAX_AMOUNT:
            most = "has no bound" if max(-low, high) == math.inf else \
                f"can reach {max(-low, high):.3g}"
            self.problem(path, f"the payment {excerpt(amount.text)} {most}: a payment is at "
                         f"most {MAX_AMOUNT:,} points", hint="use smaller numbers, or fewer "
                         "factors", text=True)

    def match_ends(self, end: Formula) -> None:
        """The match must be able to end: its end must hold after some round,
        for some scores, within MAX_ROUNDS rounds."""
        facts = self.fact_bounds(MATCH_FACTS)
        for rounds in range(1, MAX_ROUNDS + 1):
            facts["rounds"] = (rounds, rounds)
            if bound(end.tree, facts) != (0, 0):
                return
        self.problem(("match", "end"), f"match.end {excerpt(end.text)} never holds in the first "
                     f"{MAX_ROUNDS:,} rounds, whatever the scores: the match would not end",
                     hint="e.g. 'rounds >= players'", text=True)

    def match(self) -> MatchRules | None:
        m = self.data["match"]
        if "end" not in m:
            self.problem(("match", "end"), "the match has no end", hint="add match.end, e.g. "
                         "'rounds >= players'")
            return None
        end = self.formula(("match", "end"), MATCH_FACTS)
        if end is None:
            return None
        self.match_ends(end)
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


def played(card: Card, flags: Iterable[str]) -> Card:
    """The card a variant plays: its unflagged lines, and the lines every one of
    whose flags the variant names (win.flags)."""
    named = set(flags)
    lines = tuple(line for line in card.lines if set(line.flags) <= named)
    return card if len(lines) == len(card.lines) else dataclasses.replace(card, lines=lines)


# cards compiled against a deck, by file, text and deck: a variant is compiled at
# every player count, each naming the same card
_CARDS: dict[tuple[str, str, str], Card] = {}


def _card(reference: str, deck: str) -> Card:
    """A card compiled against a variant's deck, once per text."""
    found = registry.read("card", reference)
    key = (found.file, found.text, deck)
    card = _CARDS.get(key)
    if card is None:
        if len(_CARDS) > 16:  # a process checking many files keeps only the latest
            _CARDS.clear()
        card = _CARDS[key] = compile_card_document(found.document(), deck)
    return card


def _counts_written(resolved: Resolved, counts: range) -> list[Diagnostic]:
    """A by_players count the variant's own file writes must be one it is played at."""
    doc = resolved.docs[0]
    overrides = doc.data.get("by_players") if isinstance(doc.data, dict) else None
    if not isinstance(overrides, dict):
        return []
    return [Diagnostic(doc.locate_key(("by_players", key)), f"by_players {excerpt(str(key))}: the "
                       f"variant is played by {counts.start} to {counts.stop - 1} players",
                       hint="remove it, or change players")
            for key in overrides
            if str(key).isdecimal() and int(key) not in counts]


def _raise(resolved: Resolved, problems: list[Diagnostic]) -> None:
    raise_if_errors([*resolved.schema, *problems],
                    SchemaError if resolved.schema else SemanticError)


def compile_variant(name: str, players: int | None = None, card: str | None = None
                    ) -> GameSpec:
    """The game specification of `name` for `players` (default: the variant's
    default count). Every problem at that count is reported at once. With
    `card` (a shipped name or a path), the variant is played with that card
    instead of its own: its lines of the flags the variant names, and its
    unflagged lines."""
    base = resolve(name)
    counts = player_counts(base)
    if players is None:
        players = fill_defaults(base.data)["players"]["default"]
    if players not in counts:
        raise SemanticError([Diagnostic(None, f"{name} is played by {counts.start} to "
                                        f"{counts.stop - 1} players, not {players}")])
    compiler = _Compiler(resolve(name, players), players, card)
    spec = compiler.compile()
    _raise(base, [*_counts_written(base, counts), *compiler.problems])
    assert spec is not None
    return spec


def check_variant(name: str) -> list[Diagnostic]:
    """Every problem of a variant at every player count it allows."""
    problems: list[Diagnostic] = []
    try:
        base = resolve(name)
        problems += base.schema
        fill = fill_defaults(base.data)["players"]
        if not fill["min"] <= fill["default"] <= fill["max"]:
            problems.append(Diagnostic(base.locate(("players",)), "players: default must lie "
                                       "between min and max"))
        counts = player_counts(base)
        problems += _counts_written(base, counts)
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


def notes(spec: GameSpec, resolved: Resolved) -> list[str]:
    """What the resolved data alone does not say: which of the card's lines
    the variant plays, and whose words its title and notes are."""
    card = _card(spec.card, spec.deck_source)
    chosen = {line.id for line in played(card, spec.card_flags).lines}
    flagged = [line for line in card.lines if line.flags]

    def listed(lines: list[Line]) -> str:
        return ", ".join(f"{line.id} ({', '.join(line.flags)})" for line in lines) or "none"

    share = "all" if len(chosen) == len(card.lines) else f"{len(chosen)} of the"
    out = [f"lines played: {share} {len(card.lines)} of the card {excerpt(card.name)}"
           + (": every unflagged line, and the flagged lines "
              f"{listed([x for x in flagged if x.id in chosen])}" if flagged else "")]
    if flagged:
        out.append(f"flagged lines left out (not named in win.flags): "
                   f"{listed([x for x in flagged if x.id not in chosen])}")
    bases = [str(doc.data.get("variant", doc.file)) for doc in resolved.docs[1:]
             if isinstance(doc.data, dict)]
    if bases:
        out.append(f"title, note and open are this file's own; those of {', '.join(bases)} "
                   "describe those variants and are not inherited")
    return out


def load_variant(name: str) -> Variant:
    """The deck and card of a variant at its default player count (matching
    needs no more), after every problem at every count is reported."""
    problems = check_variant(name)
    raise_if_errors(problems, SemanticError)
    spec = compile_variant(name)
    card = played(_card(spec.card, spec.deck_source), spec.card_flags)
    return Variant(spec.variant, spec.title, load_deck(spec.deck_source.partition("*")[0]),
                   card, spec.open_hands, spec.card, spec.deck_source, spec.card_flags)
