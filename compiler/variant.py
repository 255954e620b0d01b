"""Variants: YAML in, a game specification per player count out.

A variant is read in four steps:
1. every file of its `extends:` chain is loaded and schema-checked, and
2. the chain is merged (mappings key by key, everything else replaced), then
   the `by_players:` overrides of the chosen player count (compiler/inherit.py);
3. every default the schema documents is filled in, so the resolved variant
   says everything (`jongg variant show NAME --resolved`; compiler/defaults.py);
4. semantic checks, all reported at once with the position of the YAML that
   caused them, then compilation into jongg.runtime.game.spec.GameSpec (here;
   what every check shares in compiler/checking.py, the payments' and the
   match end's in compiler/payments.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from jongg.runtime.card import Card, Line
from jongg.runtime.game.spec import (
    ClaimKind,
    Claims,
    Courtesy,
    Direction,
    GameSpec,
    Pass,
    Penalties,
    Penalty,
    Phase,
    Pledge,
    Turn,
    Vote,
    Walls,
)
from jongg.runtime.tiles import Deck

from . import registry
from .card import compile_card_document
from .checking import _clauses
from .deck import load_deck
from .defaults import fill_defaults
from .errors import (
    Diagnostic,
    JonggError,
    SchemaError,
    SemanticError,
    excerpt,
    raise_if_errors,
)
from .inherit import PROSE, Layer, Resolved, resolve
from .payments import MAX_AMOUNT, MAX_ROUNDS, PaymentChecks
from .scored_play import ScoredPlay
from .source import PathKey
from .yaku import compile_hand_scoring


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



__all__ = ["MAX_AMOUNT", "MAX_ROUNDS", "PROSE", "Layer", "Resolved", "Variant", "check_variant",
           "compile_variant", "fill_defaults", "load_variant", "notes", "played",
           "player_counts", "resolve"]


class _Compiler(PaymentChecks, ScoredPlay):
    """Semantic checks and compilation of one resolved variant, every problem kept."""

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
        if deck is not None:  # options and hand_scoring: jongg.compiler.yaku
            self.hand_scoring = compile_hand_scoring(d, deck, self.players, self.problem,
                                                     self.problems, self.resolved.string_start)
        scored = self.scored_wins(self.hand_scoring)
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
            scored=scored,
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

    def newest(self, *paths: PathKey) -> PathKey:
        """Of values that together make a problem, the one written by the most
        derived file of the extends chain (the first on a tie)."""
        docs = self.resolved.docs

        def depth(path: PathKey) -> int:
            found = [docs.index(layer.doc) for at, layer in self.resolved.origins.items()
                     if at[:len(path)] == path and layer.doc in docs]
            return min(found, default=len(docs))
        return min(paths, key=depth)

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
        """A seat's tiles after its first draw must fit its racks' hands. A
        deal that does not fit the card is placed in the file that made the
        pair: the one naming the card when it extends the deal's."""
        room = card.hand_size * racks
        where = self.newest(("deal",), ("win", "card"))
        hands = f"{racks} hands of" if racks > 1 else "a complete hand of"
        if extra < 0:
            self.problem(("deal",), f"the dealer is dealt {each + extra} tiles, fewer than the "
                         f"{each} every other seat is dealt",
                         hint="deal.dealer counts the dealer's tiles, extra included")
        elif each + extra > room:
            self.problem(where, f"the dealer is dealt {each + extra} tiles, more than "
                         f"{hands} the card {excerpt(card.name)} ({room})")
        if each + 1 > room:
            self.problem(where, f"every seat is dealt {each} tiles and draws one: more "
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
_CARDS: dict[tuple[str, str, str, str], Card] = {}


def _card(reference: str, deck: str) -> Card:
    """A card compiled against a variant's deck, once per text."""
    found = registry.read("card", reference)
    key = (str(found.entry), found.file, found.text, deck)
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
