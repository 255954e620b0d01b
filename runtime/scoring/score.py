"""Scoring one winning hand: every reading's yaku, han, fu, dora, limit and
payments, and the best reading (the highest total; then yakuman, han, fu)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from jongg.runtime.errors import JonggError
from jongg.runtime.tiles import Category

from .conditions import Scene, holds, matches
from .readings import KONG, PUNG, RUN, Group, Reading, completes, readings
from .rules import HandScoring


class ScoreInputError(JonggError, ValueError):
    """A hand that cannot be scored as given: the message names what is wrong."""


@dataclass(frozen=True, slots=True)
class Call:
    """A set exposed by a call, or a kong declared concealed."""

    tiles: tuple[int, ...]
    concealed: bool = False


@dataclass(frozen=True, slots=True)
class Win:
    """A winning hand and how it was won. `hand` is the concealed tiles,
    the winning tile among them; kinds are the deck's tile indices."""

    hand: tuple[int, ...]
    winning: int
    calls: tuple[Call, ...] = ()
    self_drawn: bool = False
    seat: int = -1  # the seat's wind (a kind); -1: the first of the winds
    round: int = -1  # the round's wind
    declared: frozenset[str] = frozenset()
    dora: tuple[int, ...] = ()  # indicators
    ura: tuple[int, ...] = ()
    red: int = 0  # red fives among the tiles
    honba: int = 0
    sticks: int = 0
    options: dict[str, bool] = field(default_factory=dict)  # overrides of the defaults


@dataclass(frozen=True, slots=True)
class Scored:
    wins: bool
    reason: str = ""
    yaku: tuple[tuple[str, int], ...] = ()  # (name, han), or (name, yakuman) for yakuman
    yakuman: int = 0
    han: int = 0  # the yaku's and the dora's
    fu: int = 0
    dora: int = 0
    red: int = 0
    ura: int = 0
    limit: str = ""
    basic: int = 0
    payments: tuple[tuple[str, int], ...] = ()  # (payer, amount)
    total: int = 0
    form: str = ""
    wait: str = ""
    fu_items: tuple[tuple[str, int], ...] = ()
    raw_fu: int = 0  # before rounding

    def key(self) -> tuple[int, bool, int, int, int]:
        return (self.total if self.wins else -1, self.yakuman > 0, self.han, self.fu, self.raw_fu)


def _kind_of(group: Call) -> str:
    tiles = group.tiles
    if len(tiles) == 4:
        return KONG
    return PUNG if tiles[0] == tiles[1] else RUN


class Scorer:
    """Scores hands for one compiled HandScoring."""

    def __init__(self, rules: HandScoring):
        self.rules = rules
        deck = rules.deck
        self.kinds = [k for k in deck.kinds if k.category not in (Category.FLOWER, Category.JOKER)]
        ends: dict[str, tuple[int, int]] = {}
        for k in deck.kinds:
            if k.suit is not None and k.number is not None:
                low, high = ends.get(k.suit, (k.number, k.number))
                ends[k.suit] = (min(low, k.number), max(high, k.number))
        self.first = {k.index for k in deck.kinds if k.suit and k.number == ends[k.suit][0]}
        self.last = {k.index for k in deck.kinds if k.suit and k.number == ends[k.suit][1]}
        self.suits = [k.suit for k in deck.kinds]
        self.numbers = [k.number for k in deck.kinds]
        self.worth: dict[tuple[tuple[str, bool], ...], list[tuple[int, int, bool]]] = {}

    # --- input
    def check(self, win: Win) -> None:
        rules = self.rules
        deck = rules.deck
        for name in win.declared:
            if name not in rules.context:
                raise ScoreInputError(f"unknown context {name!r}; the variant knows: "
                                      f"{', '.join(rules.context) or 'none'}")
        for name in win.options:
            if name not in rules.options:
                raise ScoreInputError(f"unknown option {name!r}; options: "
                                      f"{', '.join(rules.options) or 'none'}")
        for call in win.calls:
            tiles = sorted(call.tiles)
            kind = _kind_of(call)
            if kind == RUN:
                ok = len(tiles) == 3 and not call.concealed and \
                    rules.runs[tiles[0]] == tiles[1] and rules.runs[tiles[1]] == tiles[2]
            else:
                ok = len(set(tiles)) == 1 and len(tiles) in (3, 4) and \
                    (not call.concealed or len(tiles) == 4)
            if not ok:
                raise ScoreInputError(f"call {' '.join(deck.codes(call.tiles))!r} is not a run, "
                                      "pung or kong" + (" (a concealed call is a kong)"
                                                        if call.concealed else ""))
        sets = len(win.calls)
        if len(win.hand) + 3 * sets != 14:
            raise ScoreInputError(f"the hand holds {len(win.hand)} concealed tiles and "
                                  f"{sets} call(s): a winning hand has 14 tiles, "
                                  f"so {14 - 3 * sets} concealed (the winning tile among them)")
        if win.winning not in win.hand:
            raise ScoreInputError(f"the winning tile {deck.code(win.winning)} is not in the hand")
        held = Counter(win.hand)
        for call in win.calls:
            held.update(call.tiles)
        for tile, n in held.items():
            if n > deck.kinds[tile].copies:
                raise ScoreInputError(f"{n} of {deck.code(tile)}: the deck holds "
                                      f"{deck.kinds[tile].copies}")
        for wind, what in ((win.seat, "seat"), (win.round, "round")):
            if wind != -1 and wind not in rules.winds:
                raise ScoreInputError(f"the {what} wind {deck.code(wind)} is not one of "
                                      f"{' '.join(deck.codes(rules.winds))}")
        red = sum(min(held[k], n) for k, n in rules.dora.red.items())
        if win.red > red:
            raise ScoreInputError(f"{win.red} red five(s), but the hand holds only {red} of the "
                                  "tiles with red copies")

    # --- scoring
    def score(self, win: Win) -> Scored:
        self.check(win)
        rules = self.rules
        options = {**rules.options, **win.options}
        seat = win.seat if win.seat != -1 else rules.winds[0]
        round_ = win.round if win.round != -1 else rules.winds[0]
        dealer = seat == rules.winds[0]
        classes = list(rules.classes)
        classes[seat] = classes[seat] | {"seat-wind"}
        classes[round_] = classes[round_] | {"round-wind"}

        counts = [0] * len(rules.deck.kinds)
        for t in win.hand:
            counts[t] += 1
        called = [Group(_kind_of(c), tuple(sorted(c.tiles)), not c.concealed, not c.concealed)
                  for c in win.calls]
        concealed = all(c.concealed for c in win.calls)
        waits_memo: list[int] = []

        def waits() -> int:
            if not waits_memo:
                less = list(counts)
                less[win.winning] -= 1
                n = 0
                for k in self.kinds:
                    if less[k.index] + sum(1 for c in win.calls for t in c.tiles
                                           if t == k.index) >= k.copies:
                        continue
                    less[k.index] += 1
                    n += completes(less, len(win.calls), rules.runs, rules.orphans)
                    less[k.index] -= 1
                waits_memo.append(n)
            return waits_memo[0]

        best: Scored | None = None
        for reading in readings(counts, called, win.winning, win.self_drawn, rules.runs,
                                rules.orphans, self.first, self.last):
            scene = Scene(reading, concealed, win.self_drawn, dealer, win.declared, options,
                          classes, self.suits, self.numbers, waits)
            scored = self._reading(scene, win, options, dealer, seat)
            if best is None or scored.key() > best.key():
                best = scored
        if best is None:
            return Scored(False, "the tiles do not make a winning hand")
        return best

    def _worth(self, options: dict[str, bool]) -> list[tuple[int, int, bool]]:
        """Each yaku's (closed, open, yakuman) worth under these options."""
        key = tuple(sorted(options.items()))
        worth = self.worth.get(key)
        if worth is None:
            worth = []
            for y in self.rules.yaku:
                if y.yakuman is not None:
                    n = y.yakuman(options)
                    worth.append((n, n, True))
                else:
                    assert y.closed is not None
                    worth.append((y.closed(options), y.open(options) if y.open else 0, False))
            self.worth[key] = worth
        return worth

    def _yaku(self, scene: Scene, options: dict[str, bool]) -> list[tuple[str, int, bool]]:
        found: list[tuple[str, int, bool]] = []
        for y, (closed, opened, yakuman) in zip(self.rules.yaku, self._worth(options),
                                                 strict=True):
            value = closed if scene.concealed else opened
            if value <= 0 or not holds(scene, y.when):
                continue
            if value > 0:
                found.append((y.name, value, yakuman))
                scene.scored.add(y.name)
        gone = {r for y in self.rules.yaku if y.name in scene.scored for r in y.replaces}
        found = [f for f in found if f[0] not in gone]
        if any(f[2] for f in found):
            found = [f for f in found if f[2]]
        return found

    def _fu(self, scene: Scene, options: dict[str, bool]) -> tuple[int, int, list[tuple[str, int]]]:
        fu = self.rules.fu
        for when, value in fu.fixed:
            if holds(scene, when):
                return value, value, [("fixed", value)]
        facts: dict[str, int | bool] = {**options, "concealed": scene.concealed,
                                        "self_drawn": scene.self_drawn}
        base = fu.base(facts)
        items = [("base", base)]
        scene.fu = 0
        for item in fu.add:
            if item.when is not None and not holds(scene, item.when):
                continue
            if item.each is None:
                value = item.fu(facts)
            else:
                of, where = item.each
                value = 0
                for e in scene.elements(of):
                    if matches(scene, e, where):
                        value += item.fu(self._element_facts(scene, e, facts))
            if value:
                items.append((item.name, value))
                scene.fu += value
        raw = base + scene.fu
        scene.fu = None
        return -(-raw // fu.round) * fu.round, raw, items

    @staticmethod
    def _element_facts(scene: Scene, e: Group, facts: dict[str, int | bool]
                       ) -> dict[str, int | bool]:
        out = dict(facts)
        out.update({"open": e.open, "called": e.called, "kong": e.kind == KONG,
                    "pung": e.kind == PUNG, "run": e.kind == RUN, "pair": e.kind == "pair"})
        held: set[str] = set()
        for t in e.tiles:
            held |= scene.classes[t]
        for name in ("terminal", "honour", "simple", "suited", "dragon", "wind",
                     "seat-wind", "round-wind"):
            out[f"has_{name.replace('-', '_')}"] = name in held
        return out

    def _reading(self, scene: Scene, win: Win, options: dict[str, bool], dealer: bool,
                 seat: int) -> Scored:
        rules = self.rules
        found = self._yaku(scene, options)
        fu, raw, items = self._fu(scene, options)
        reading: Reading = scene.reading
        if not found:
            return Scored(False, "no yaku", form=reading.form, wait=reading.wait, fu=fu,
                          raw_fu=raw, fu_items=tuple(items))
        yakuman = sum(v for _, v, y in found if y)
        han = sum(v for _, v, y in found if not y)
        dora = red = ura = 0
        if not yakuman:
            tiles = [t for g in reading.groups for t in g.tiles]
            dora = sum(tiles.count(rules.dora.following.get(i, -1)) for i in win.dora)
            if rules.dora.red and (rules.dora.red_when is None
                                   or holds(scene, rules.dora.red_when)):
                red = win.red
            if rules.dora.ura_when is not None and holds(scene, rules.dora.ura_when):
                ura = sum(tiles.count(rules.dora.following.get(i, -1)) for i in win.ura)
            han += dora + red + ura
        facts: dict[str, int | bool] = {**options, "han": han, "fu": fu, "yakuman": yakuman}
        limit = next((level for level in rules.limits.levels if level.when(facts)), None)
        basic = limit.basic(facts) if limit else rules.limits.basic(facts)
        payments = []
        others = [w for w in rules.winds if w != seat][: rules.players - 1]
        pay: dict[str, int | bool] = {**facts, "basic": basic, "self_drawn": win.self_drawn,
                                      "winner_is_dealer": dealer, "honba": win.honba,
                                      "sticks": win.sticks, "payer_is_dealer": False}
        for p in rules.payments:
            payers = [(rules.deck.code(w), w == rules.winds[0]) for w in others] \
                if p.payer == "each-opponent" else [(p.payer, False)]
            for name, is_dealer in payers:
                pay["payer_is_dealer"] = is_dealer
                if p.when is not None and not p.when(pay):
                    continue
                amount = p.amount(pay)
                if amount:
                    payments.append((name, amount))
        return Scored(True, "", tuple((n, v) for n, v, _ in found), yakuman, han, fu, dora, red,
                      ura, limit.name if limit else "", basic, tuple(payments),
                      sum(a for _, a in payments), reading.form, reading.wait, tuple(items), raw)
