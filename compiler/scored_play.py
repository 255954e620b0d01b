"""A scored game's table (runtime/game/scored.py): `win.scored`, the dead
wall, declarations made with a discard and furiten, compiled and checked
against the variant's hand_scoring (every context they name must be one of
its `context`)."""

from __future__ import annotations

from typing import Any

from jongg.runtime.game.scored import (
    KONGS,
    Abortive,
    DeadWall,
    Declaration,
    Furiten,
    Liability,
    ScoredWins,
)
from jongg.runtime.scoring.rules import HandScoring

from .checking import Checking, _clauses
from .errors import excerpt

# the table's moments a win may be told of, as win.scored names their contexts
MOMENTS = ("last_tile", "first_draw", "first_discard", "kong_replacement", "robbed_kong")
# the discards barred after a claimed set unless claims.kuikae says (the common rule)
KUIKAE = ("called", "other_end")
# the action words a declaration may not take
VERBS = frozenset({"discard", "declare", "claim", "pass", "exchange", "vote", "offer", "blind",
                   "off", "kong"})


class ScoredPlay(Checking):
    """The checks and compilation of `win.scored` and what it brings."""

    def scored_wins(self, hand: HandScoring | None) -> ScoredWins | None:
        d = self.data
        given = d.get("win", {}).get("scored")
        if given is None:
            for key, path in (("dead_wall", ("dead_wall",)), ("declarations", ("declarations",)),
                              ("abortive", ("abortive",)), ("liability", ("liability",))):
                if key in d:
                    self.problem(path, f"{key} is read only by a scored game",
                                 hint="add win: {scored: {}} and a hand_scoring")
            for key in ("furiten", "several_wins", "kuikae", "several_honba"):
                if key in d.get("claims", {}):
                    self.problem(("claims", key), f"{key} is read only by a scored game",
                                 hint="add win: {scored: {}} and a hand_scoring")
            match = d.get("match", {})
            if match.get("dealer_passes") == "unless-dealer-wins-or-waits":
                self.problem(("match", "dealer_passes"), "only a scored game knows who waits "
                             "at a wall game", hint="unless-dealer-wins, or add win.scored")
            if match.get("honba"):
                self.problem(("match", "honba"), "honba is read only by a scored game's "
                             "hand_scoring payments", hint="add win.scored and hand_scoring")
            return None
        if hand is None:
            if "hand_scoring" not in d:
                self.problem(("win", "scored"), "win.scored needs the variant's hand_scoring: "
                             "it decides and pays every win", hint="add hand_scoring")
            return None
        context = set(hand.context)

        def known(path: tuple[Any, ...], name: str) -> str:
            if name and name not in context:
                self.problem(path, f"{excerpt(name)} is not a context of hand_scoring",
                             hint=f"hand_scoring.context: {', '.join(hand.context) or 'none'}")
            return name

        moments = {m: known(("win", "scored", m), given.get(m, "")) for m in MOMENTS}
        dead = None
        if "dead_wall" in d:
            w = d["dead_wall"]
            timing = w.get("kong_indicators", "after-discard")
            timing = {True: "at-once", False: "none"}.get(timing, timing)
            dead = DeadWall(w["tiles"], w.get("indicators", 1), w.get("ura", False), timing)
            need = 2 * (dead.indicators + KONGS) + KONGS
            if need > dead.tiles:
                self.problem(("dead_wall", "tiles"), f"a dead wall of {dead.tiles} tiles "
                             f"cannot hold {dead.indicators} indicator(s) and {KONGS} more for "
                             f"kongs, each with one under it, and {KONGS} replacement tiles",
                             hint=f"tiles: {need} or more")
        declarations: list[Declaration] = []
        for i, item in enumerate(d.get("declarations", [])):
            at = ("declarations", i)
            name = item["name"]
            if name in VERBS or name in {x.name for x in declarations}:
                self.problem((*at, "name"), f"declaration {excerpt(name)} is already an action "
                             "or another declaration's name", hint="name it otherwise")
            declarations.append(Declaration(
                name, known((*at, "context"), item["context"]), item.get("deposit", 0),
                item.get("concealed", True), item.get("waiting", True),
                item.get("wall_at_least", 0), item.get("score_at_least", 0),
                item.get("locks", True), known((*at, "first_turn"), item.get("first_turn", "")),
                known((*at, "streak"), item.get("streak", "")), _clauses(item.get("clause"))))
        furiten = None
        if "furiten" in d.get("claims", {}):
            f = d["claims"]["furiten"]
            furiten = Furiten(f.get("own_discards", True), f.get("passed", "turn"),
                              f.get("declared_passed", "round"))
        abortive = None
        if "abortive" in d:
            a = d["abortive"]
            categories = {k.category.value for k in hand.deck.kinds}
            for i, name in enumerate(a.get("first_discards", [])):
                if name not in categories:
                    self.problem(("abortive", "first_discards", i), f"the deck has no category "
                                 f"{excerpt(name)}", hint=f"one of {', '.join(sorted(categories))}")
            if a.get("orphans", 9) and not hand.orphans:
                self.problem(("abortive", "orphans"), "hand_scoring has no orphans form to "
                             "count the orphans of", hint="orphans: 0")
            abortive = Abortive(a.get("orphans", 9), tuple(a.get("first_discards", ["wind"])),
                                a.get("all_declared", True), a.get("kongs_apart", True),
                                a.get("wins_at_once", 3))
        return ScoredWins(hand, moments["last_tile"], moments["first_draw"],
                          moments["kong_replacement"], moments["robbed_kong"], dead,
                          tuple(declarations), furiten, abortive, self.liabilities(hand),
                          d.get("claims", {}).get("several_wins", "nearest") == "all",
                          tuple(d.get("claims", {}).get("kuikae", KUIKAE)),
                          moments["first_discard"], self.honba_each())

    def honba_each(self) -> bool:
        """`claims.several_honba: each`: read only with several_wins: all."""
        claims = self.data.get("claims", {})
        each: bool = claims.get("several_honba", "nearest") == "each"
        if "several_honba" in claims and claims.get("several_wins", "nearest") != "all":
            self.problem(("claims", "several_honba"), "several_honba is read only when several "
                         "seats win on one discard", hint="add claims.several_wins: all")
        return each

    def liabilities(self, hand: HandScoring) -> tuple[Liability, ...]:
        """`liability`: each names a yaku of the hand scoring and a category
        of the deck."""
        found = []
        names = {y.name for y in hand.yaku}
        categories = {k.category.value for k in hand.deck.kinds}
        for i, item in enumerate(self.data.get("liability", [])):
            if item["yaku"] not in names:
                self.problem(("liability", i, "yaku"), f"hand_scoring has no yaku "
                             f"{excerpt(item['yaku'])}", hint="name one of hand_scoring.yaku")
            if item["category"] not in categories:
                self.problem(("liability", i, "category"), f"the deck has no category "
                             f"{excerpt(item['category'])}",
                             hint=f"one of {', '.join(sorted(categories))}")
            found.append(Liability(item["yaku"], item["category"], item["sets"]))
        return tuple(found)
