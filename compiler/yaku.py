"""A variant's hand scoring (`options:` and `hand_scoring:`), checked and
compiled into jongg.runtime.scoring.rules.HandScoring: yaku as conditions over
a hand's decomposition, han and fu as formulas, dora, limits and payments.

Every problem is reported at the YAML that causes it (file:line:column);
nothing here knows a variant or a yaku by name.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from jongg.runtime.game.formula import Formula
from jongg.runtime.scoring.rules import (
    NEVER_HIGH,
    NEVER_LOW,
    Condition,
    Dora,
    Fu,
    FuItem,
    HandScoring,
    Level,
    Limits,
    Payment,
    Where,
    Yaku,
)
from jongg.runtime.tiles import Category, Deck

from .errors import Diagnostic, JonggError, SemanticError, excerpt, raise_if_errors
from .formula import compile_formula
from .source import PathKey

# classes every deck has; the deck's categories (dragon, wind) are classes too
BUILT_IN = ("suited", "honour", "terminal", "simple", "seat-wind", "round-wind")
HAND_FACTS = ("concealed", "self_drawn")
ELEMENT_FACTS = ("open", "called", "kong", "pung", "run", "pair",
                 *(f"has_{c.replace('-', '_')}" for c in
                   ("terminal", "honour", "simple", "suited", "dragon", "wind", "seat-wind",
                    "round-wind")))
LIMIT_FACTS = ("han", "fu", "yakuman")
PAYMENT_FACTS = (*LIMIT_FACTS, "basic", "self_drawn", "winner_is_dealer", "payer_is_dealer",
                 "honba", "sticks")

# how dear a condition is to test: flags before counts, counts before waits
COST = {"form": 0, "flag": 0, "declared": 0, "option": 0, "yaku": 0, "wait": 0, "fu": 0,
        "waits": 3, "any": 2, "all": 2, "not": 2}
Problem = Callable[..., None]  # (path, message, hint=None, *, text=False)


def _names(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


class _HandCompiler:
    def __init__(self, data: dict[str, Any], deck: Deck, players: int, problem: Problem,
                 found: list[Diagnostic], locate: Callable[[PathKey], Any]):
        self.data = data
        self.deck = deck
        self.players = players
        self.problem = problem
        self.found = found  # a formula's own diagnostics, located inside its text
        self.locate = locate  # where a formula's text begins
        self.options = {k: bool(v.get("default")) for k, v in data.get("options", {}).items()}
        section = data["hand_scoring"]
        self.context = tuple(section.get("context", []))
        self.defined = dict(section.get("classes", {}))
        categories = {k.category.value for k in deck.kinds if k.category is not Category.SUITED}
        self.class_names = {*BUILT_IN, *categories, *self.defined}
        self.yaku_seen: list[str] = []
        self.failed = False

    def fail(self, path: PathKey, message: str, hint: str | None = None) -> None:
        self.failed = True
        self.problem(path, message, hint)

    def suggest(self, name: str, known: list[str] | tuple[str, ...] | set[str]) -> str:
        close = difflib.get_close_matches(name, list(known), n=1)
        return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(known))}"

    def kind(self, code: Any, path: PathKey) -> int:
        found = self.deck.by_code.get(str(code))
        if found is None:
            self.fail(path, f"the deck {excerpt(self.deck.name)} has no tile {excerpt(str(code))}",
                      self.suggest(str(code), [k.code for k in self.deck.kinds]))
            return -1
        return found.index

    def formula(self, path: PathKey, value: Any, facts: tuple[str, ...]) -> Formula | None:
        try:
            return compile_formula(str(value), (*self.options, *facts),
                                   origin=self.locate(path) if isinstance(value, str) else None)
        except JonggError as error:
            self.failed = True
            self.found.extend(error.diagnostics)
            return None

    # --- conditions
    def compare(self, value: Any) -> tuple[int, int]:
        if isinstance(value, int):
            return value, value
        low = value.get("at_least", value.get("is", NEVER_LOW))
        high = value.get("at_most", value.get("is", NEVER_HIGH))
        return low, high

    def where(self, value: dict[str, Any] | None, path: PathKey) -> Where | None:
        if value is None:
            return None

        def listed(key: str) -> frozenset[Any] | None:
            return frozenset(_names(value[key])) if key in value else None

        for key in ("is", "has"):
            for i, name in enumerate(_names(value.get(key, []))):
                if name not in self.class_names:
                    at = (*path, key, i) if isinstance(value[key], list) else (*path, key)
                    self.fail(at, f"no tile class {excerpt(name)}",
                              self.suggest(name, self.class_names))
        tiles = None
        if "tile" in value:
            tiles = frozenset(self.kind(c, (*path, "tile")) for c in _names(value["tile"]))
        suits = listed("suit")
        for s in suits or ():
            if s not in {x.code for x in self.deck.suits}:
                self.fail((*path, "suit"), f"the deck has no suit {excerpt(str(s))}",
                          f"suits: {', '.join(x.code for x in self.deck.suits)}")
        return ("where", listed("kind"), value.get("open"), value.get("called"), listed("is"),
                listed("has"), tiles, suits, listed("number"), value.get("winning"),
                self.where(value.get("not"), (*path, "not")))

    def condition(self, value: Any, path: PathKey, *, fu: bool = False) -> Condition:
        if isinstance(value, list):
            return ("all", tuple(self.condition(v, (*path, i), fu=fu)
                                 for i, v in enumerate(value)))
        parts: list[Condition] = []
        for key, item in value.items():
            at = (*path, key)
            if key in ("all", "any"):
                parts.append((key, tuple(self.condition(v, (*at, i), fu=fu)
                                         for i, v in enumerate(item))))
            elif key == "not":
                parts.append(("not", self.condition(item, at, fu=fu)))
            elif key == "form":
                parts.append(("form", frozenset(_names(item))))
            elif key in ("concealed", "self_drawn", "dealer"):
                parts.append(("flag", key, item))
            elif key == "declared":
                for name in _names(item):
                    if name not in self.context:
                        self.fail(at, f"{excerpt(name)} is not in hand_scoring.context",
                                  self.suggest(name, self.context))
                parts.append(("declared", frozenset(_names(item))))
            elif key == "option":
                for name in _names(item):
                    if name not in self.options:
                        self.fail(at, f"no option {excerpt(name)}",
                                  self.suggest(name, set(self.options) or {"(none)"}))
                parts.append(("option", frozenset(_names(item))))
            elif key == "yaku":
                if item not in self.yaku_seen:
                    self.fail(at, f"{excerpt(item)} is not a yaku listed before this one",
                              "a yaku may read only the yaku above it")
                parts.append(("yaku", item))
            elif key == "wait":
                parts.append(("wait", frozenset(_names(item))))
            elif key in ("waits", "fu"):
                if key == "fu" and not fu:
                    self.fail(at, "fu: compares the fu counted so far, only in hand_scoring.fu.add")
                parts.append((key, *self.compare(item)))
            elif key == "count":
                self.needs_comparison(item, at)
                parts.append(("count", item["of"], self.where(item.get("where"), (*at, "where")),
                              *self.compare(item)))
            elif key == "every":
                parts.append(("every", item["of"], self.where(item["where"], (*at, "where"))))
            elif key == "alike":
                self.needs_comparison(item, at)
                if "times" in item and "at_least" not in item:
                    self.fail(at, "alike with times counts families of at_least members",
                              "add at_least: N")
                parts.append(("alike", item["of"], self.where(item.get("where"), (*at, "where")),
                              tuple(item.get("same", [])), tuple(item.get("differ", [])),
                              *self.compare(item), item.get("times")))
        # the cheap tests first: a reading fails most yaku on one of them
        parts.sort(key=lambda part: COST.get(str(part[0]), 1))
        return parts[0] if len(parts) == 1 else ("all", tuple(parts))

    def needs_comparison(self, item: dict[str, Any], path: PathKey) -> None:
        if not {"is", "at_least", "at_most"} & set(item):
            self.fail(path, "say how many: is, at_least or at_most")

    # --- the parts
    def yaku(self, items: list[dict[str, Any]]) -> tuple[Yaku, ...]:
        out = []
        names = [y["name"] for y in items]
        for i, y in enumerate(items):
            path: PathKey = ("hand_scoring", "yaku", i)
            if names.index(y["name"]) != i:
                self.fail((*path, "name"), f"yaku {excerpt(y['name'])} is listed twice")
            if ("han" in y) == ("yakuman" in y):
                self.fail(path, f"yaku {excerpt(y['name'])} needs han or yakuman, not both",
                          "han: {closed: N, open: N} or yakuman: 1")
            for j, gone in enumerate(y.get("replaces", [])):
                if gone not in names:
                    self.fail((*path, "replaces", j), f"no yaku {excerpt(gone)} to replace",
                              self.suggest(gone, names))
            when = self.condition(y["when"], (*path, "when"))
            han = y.get("han", {})
            closed = self.formula((*path, "han", "closed"), han["closed"], ()) if han else None
            opened = self.formula((*path, "han", "open"), han["open"], ()) \
                if "open" in han else None
            yakuman = self.formula((*path, "yakuman"), y["yakuman"], ()) if "yakuman" in y \
                else None
            self.yaku_seen.append(y["name"])
            out.append(Yaku(y["name"], y.get("title", y["name"]), when, closed, opened, yakuman,
                            tuple(y.get("replaces", []))))
        return tuple(out)

    def fu(self, fu: dict[str, Any]) -> Fu | None:
        path: PathKey = ("hand_scoring", "fu")
        fixed = tuple((self.condition(f["when"], (*path, "fixed", i, "when")), f["fu"])
                      for i, f in enumerate(fu.get("fixed", [])))
        base = self.formula((*path, "base"), fu["base"], HAND_FACTS)
        add = []
        for i, item in enumerate(fu.get("add", [])):
            at = (*path, "add", i)
            each = item.get("each")
            facts = (*HAND_FACTS, *ELEMENT_FACTS) if each else HAND_FACTS
            value = self.formula((*at, "fu"), item["fu"], facts)
            when = self.condition(item["when"], (*at, "when"), fu=True) if "when" in item \
                else None
            picked = (each["of"], self.where(each.get("where", {}), (*at, "each", "where"))) \
                if each else None
            if value is not None:
                add.append(FuItem(item["name"], value, when, picked))  # type: ignore[arg-type]
        if base is None:
            return None
        return Fu(fixed, base, tuple(add), fu.get("round", 1))

    def dora(self, dora: dict[str, Any]) -> Dora:
        path: PathKey = ("hand_scoring", "dora")
        following: dict[int, int] = {}
        by_suit: dict[str, list[tuple[int, int]]] = {}
        for k in self.deck.kinds:
            if k.suit is not None and k.number is not None:
                by_suit.setdefault(k.suit, []).append((k.number, k.index))
        cycles = [[i for _, i in sorted(kinds)] for kinds in by_suit.values()]
        for c, cycle in enumerate(dora.get("cycles", [])):
            cycles.append([self.kind(code, (*path, "cycles", c, j))
                           for j, code in enumerate(cycle)])
        for cycle in cycles:
            for j, kind in enumerate(cycle):
                following[kind] = cycle[(j + 1) % len(cycle)]
        red_part = dora.get("red", {})
        red = {self.kind(code, (*path, "red", "tiles", code)): n
               for code, n in red_part.get("tiles", {}).items()}
        red_when = self.condition(red_part["when"], (*path, "red", "when")) \
            if "when" in red_part else None
        ura = dora.get("ura")
        ura_when = self.condition(ura.get("when", {}), (*path, "ura", "when")) \
            if ura is not None else None
        return Dora(following, red, red_when, ura_when, bool(red_part.get("chosen", False)))

    def limits(self, limits: dict[str, Any]) -> Limits | None:
        path: PathKey = ("hand_scoring", "limits")
        basic = self.formula((*path, "basic"), limits["basic"], LIMIT_FACTS)
        levels = []
        for i, level in enumerate(limits.get("levels", [])):
            when = self.formula((*path, "levels", i, "when"), level["when"], LIMIT_FACTS)
            value = self.formula((*path, "levels", i, "basic"), level["basic"], LIMIT_FACTS)
            if when is not None and value is not None:
                levels.append(Level(level["name"], when, value))
        return Limits(basic, tuple(levels)) if basic is not None else None

    def payments(self, items: list[dict[str, Any]]) -> tuple[Payment, ...]:
        out = []
        for i, p in enumerate(items):
            path: PathKey = ("hand_scoring", "payments", i)
            amount = self.formula((*path, "amount"), p["amount"], PAYMENT_FACTS)
            when = self.formula((*path, "when"), p["when"], PAYMENT_FACTS) if "when" in p \
                else None
            if amount is not None:
                out.append(Payment(p["payer"], amount, when))
        return tuple(out)

    def compile(self) -> HandScoring | None:
        section = self.data["hand_scoring"]
        deck = self.deck
        winds = tuple(self.kind(c, ("hand_scoring", "winds", i))
                      for i, c in enumerate(section.get("winds", [])))
        if not winds:
            winds = tuple(k.index for k in deck.kinds if k.category is Category.WIND)
        if not winds:
            self.fail(("hand_scoring",), "seat winds are needed: the deck has no winds",
                      "add hand_scoring.winds")
        defined: dict[int, set[str]] = {}
        for name, codes in self.defined.items():
            for j, code in enumerate(codes):
                defined.setdefault(self.kind(code, ("hand_scoring", "classes", name, j)),
                                   set()).add(name)
        ends: dict[str, tuple[int, int]] = {}
        for k in deck.kinds:
            if k.suit is not None and k.number is not None:
                low, high = ends.get(k.suit, (k.number, k.number))
                ends[k.suit] = (min(low, k.number), max(high, k.number))
        classes = []
        for k in deck.kinds:
            mine = set(defined.get(k.index, ()))
            if k.category is Category.SUITED:
                mine.add("suited")
                assert k.suit is not None
                mine.add("terminal" if k.number in ends[k.suit] else "simple")
            elif k.category in (Category.DRAGON, Category.WIND):
                mine |= {"honour", k.category.value}
            else:
                mine.add(k.category.value)
            classes.append(frozenset(mine))
        orphans = frozenset(k.index for k, c in zip(deck.kinds, classes, strict=True)
                            if c & {"terminal", "honour"})
        runs = [-1] * len(deck.kinds)
        ordered = {s.code for s in deck.suits if s.ordered}
        for k in deck.kinds:
            if k.suit in ordered and k.number is not None:
                after = deck.suited(k.suit, k.number + 1)
                runs[k.index] = after.index if after is not None else -1
        yaku = self.yaku(section["yaku"])
        fu = self.fu(section["fu"])
        dora = self.dora(section.get("dora", {}))
        limits = self.limits(section["limits"])
        payments = self.payments(section["payments"])
        if self.failed or fu is None or limits is None:
            return None
        docs = {k: v.get("doc", "") for k, v in self.data.get("options", {}).items()}
        return HandScoring(self.data["variant"], deck, self.players, self.options, docs, winds,
                           self.context, tuple(classes), orphans, tuple(runs), yaku, fu, dora,
                           limits, payments)


def compile_hand_scoring(data: dict[str, Any], deck: Deck, players: int, problem: Problem,
                         found: list[Diagnostic], locate: Callable[[PathKey], Any]
                         ) -> HandScoring | None:
    """The variant's hand scoring, or None (and problems) when it has none or
    it is broken. `problem(path, message, hint)` reports at the YAML of path;
    a formula's own problems, located in its text, join `found`; `locate(path)`
    is where a string's text begins."""
    if "hand_scoring" not in data:
        for name in data.get("options", {}):
            problem(("options", name), f"option {excerpt(name)} is read by nothing: the variant "
                    "has no hand_scoring", None)
        return None
    return _HandCompiler(data, deck, players, problem, found, locate).compile()


def scoring_only(data: dict[str, Any]) -> bool:
    """A variant whose hands are scored but which the engine does not play yet
    (`status: scoring-only`)."""
    return data.get("status") == "scoring-only"


def refuse_unplayed(resolved: Any) -> None:
    """Playing a scoring-only variant is refused, at its status, saying why."""
    if scoring_only(resolved.data):
        name = resolved.name
        raise SemanticError([Diagnostic(
            resolved.locate(("status",)), f"{excerpt(name)} is scored, not played, for now "
            "(status: scoring-only): the game engine does not play its rules yet",
            hint=f"score its hands with: jongg score {name} --hand ... --win ...")])


_LOADED: dict[tuple[str, str], HandScoring] = {}


def load_hand_scoring(name: str) -> HandScoring:
    """A variant's compiled hand scoring (a shipped name or a path), after every
    problem of the variant is reported; SemanticError when it has none."""
    from . import registry, variant

    found = registry.read("variant", name)
    key = (found.file, found.text)
    if key in _LOADED:
        return _LOADED[key]
    raise_if_errors(variant.check_variant(name), SemanticError)
    base = variant.resolve(name)
    players = variant.fill_defaults(base.data)["players"]["default"]
    compiler = variant._Compiler(variant.resolve(name, players), players)
    compiler.compile()
    raise_if_errors(compiler.problems, SemanticError)
    if compiler.hand_scoring is None:
        raise SemanticError([Diagnostic(base.locate(()), f"{excerpt(name)} has no hand_scoring: "
                                        "its hands are scored by its payments when played",
                                        hint="jongg score needs a variant with hand_scoring, "
                                        "e.g. riichi")])
    _LOADED[key] = compiler.hand_scoring
    return compiler.hand_scoring


def played(name: str) -> bool:
    """Whether the engine plays a variant (its status is not scoring-only)."""
    from .variant import resolve

    return not scoring_only(resolve(name).data)


def shipped_played() -> list[str]:
    """The shipped variants the engine plays: every one but the scoring-only
    ones, which conformance, golden logs and the tables leave out by their
    status (and tests/test_score.py scores)."""
    from .registry import shipped

    return [name for name in shipped("variant") if played(name)]
