"""Winning Riichi hands drawn to bite, and the `mahjong` package's answer for
each: the sampler and the oracle behind tests/test_score_oracle.py and
bench/bench_score.py.

A hand is drawn from a theme (one suit, all simples, terminals in every
group, all pungs, dragons, winds, the same run in three suits, a 1-9
straight, identical runs, all green, all honours, all terminals, nine gates,
seven pairs, thirteen orphans, kongs, or no theme at all), then some of its
sets are called or kept as concealed kongs, a winning tile is chosen among
its concealed tiles, and the context is drawn: tsumo or ron, seat and round
wind, riichi, double riichi, ippatsu, the last tile, a kong's replacement, a
robbed kong, the first draw, dora and ura-dora indicators, red fives, honba
and riichi sticks, and (for a share of the hands) the rule options.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from jongg.runtime.scoring.rules import HandScoring
from jongg.runtime.scoring.score import Call, Scored, Win

SUITS = "CDB"  # the package's man, pin, sou
HONOURS = ["E", "S", "W", "N", "WD", "GD", "RD"]  # the package's 27..33
THEMES = ["none", "none", "none", "one-suit", "half-suit", "simples", "outside", "terminals",
          "pungs", "dragons", "winds", "three-suits", "straight", "twins", "green", "honours",
          "gates", "pairs", "orphans", "kongs", "concealed-pungs", "three-pungs"]
# the options a hand may draw, and the package's name for each
OPTIONS = ["open_tanyao", "red_fives", "double_yakuman", "kazoe_yakuman", "kiriage",
           "open_pinfu_fu"]


@dataclass
class Drawn:
    """A hand as drawn: its groups, which are called or concealed kongs, the
    winning tile and the context, in tile codes."""

    groups: list[list[str]]  # every group, the pair (or pairs) included
    called: list[int]  # indexes of groups exposed by a call
    concealed_kongs: list[int]
    winning: str
    self_drawn: bool
    seat: str
    round: str
    declared: set[str] = field(default_factory=set)
    dora: list[str] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)
    red: list[str] = field(default_factory=list)  # the fives held that are red copies
    honba: int = 0
    sticks: int = 0
    options: dict[str, bool] = field(default_factory=dict)
    theme: str = "none"


def _tile(suit: str, n: int) -> str:
    return f"{n}{suit}"


def _run(suit: str, n: int) -> list[str]:
    return [_tile(suit, n), _tile(suit, n + 1), _tile(suit, n + 2)]


class Sampler:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def suited_set(self, suits: str, numbers: range, runs: float) -> list[str]:
        r = self.rng
        suit = r.choice(suits)
        if r.random() < runs:
            low = [n for n in numbers if n + 2 in numbers]
            if low:
                return _run(suit, r.choice(low))
        return [_tile(suit, r.choice(list(numbers)))] * 3

    def honour_set(self, honours: list[str]) -> list[str]:
        return [self.rng.choice(honours)] * 3

    def standard(self, theme: str) -> list[list[str]] | None:
        r = self.rng
        all_numbers = range(1, 10)
        sets: list[list[str]] = []
        pair: list[str]
        if theme == "one-suit":
            suit = r.choice(SUITS)
            sets = [self.suited_set(suit, all_numbers, 0.6) for _ in range(4)]
            pair = [_tile(suit, r.randint(1, 9))] * 2
        elif theme == "half-suit":
            suit = r.choice(SUITS)
            sets = [self.suited_set(suit, all_numbers, 0.5) if r.random() < 0.7
                    else self.honour_set(HONOURS) for _ in range(4)]
            pair = [r.choice(HONOURS)] * 2 if r.random() < 0.5 \
                else [_tile(suit, r.randint(1, 9))] * 2
        elif theme == "simples":
            sets = [self.suited_set(SUITS, range(2, 9), 0.6) for _ in range(4)]
            pair = [_tile(r.choice(SUITS), r.randint(2, 8))] * 2
        elif theme in ("outside", "terminals"):
            for _ in range(4):
                kind = r.random()
                if kind < 0.55 and theme == "outside":
                    sets.append(_run(r.choice(SUITS), r.choice([1, 7])))
                elif kind < 0.8 or theme == "terminals":
                    sets.append([_tile(r.choice(SUITS), r.choice([1, 9]))] * 3)
                else:
                    sets.append(self.honour_set(HONOURS))
            pair = [_tile(r.choice(SUITS), r.choice([1, 9]))] * 2 \
                if theme == "terminals" or r.random() < 0.5 else [r.choice(HONOURS)] * 2
        elif theme in ("pungs", "concealed-pungs", "three-pungs"):
            count = 3 if theme == "three-pungs" else 4
            sets = [self.suited_set(SUITS, all_numbers, 0.0) if r.random() < 0.7
                    else self.honour_set(HONOURS) for _ in range(count)]
            sets += [self.suited_set(SUITS, all_numbers, 1.0) for _ in range(4 - count)]
            pair = self.any_pair()
        elif theme == "dragons":
            dragons = r.sample(["WD", "GD", "RD"], 3)
            sets = [[d] * 3 for d in dragons[: r.choice([2, 3])]]
            pair = [dragons[2]] * 2 if len(sets) == 2 and r.random() < 0.7 else self.any_pair()
            sets += [self.suited_set(SUITS, all_numbers, 0.6) for _ in range(4 - len(sets))]
        elif theme == "winds":
            winds = r.sample(["E", "S", "W", "N"], 4)
            sets = [[w] * 3 for w in winds[: r.choice([3, 4])]]
            pair = [winds[3]] * 2 if len(sets) == 3 else self.any_pair()
            sets += [self.suited_set(SUITS, all_numbers, 0.5) for _ in range(4 - len(sets))]
        elif theme == "three-suits":
            n = r.randint(1, 7)
            if r.random() < 0.75:
                sets = [_run(s, n) for s in SUITS]
            else:
                n = r.randint(1, 9)
                sets = [[_tile(s, n)] * 3 for s in SUITS]
            sets.append(self.suited_set(SUITS, all_numbers, 0.5))
            pair = self.any_pair()
        elif theme == "straight":
            suit = r.choice(SUITS)
            sets = [_run(suit, n) for n in (1, 4, 7)]
            sets.append(self.suited_set(SUITS, all_numbers, 0.5) if r.random() < 0.8
                        else self.honour_set(HONOURS))
            pair = self.any_pair()
        elif theme == "twins":
            suit, n = r.choice(SUITS), r.randint(1, 7)
            sets = [_run(suit, n), _run(suit, n)]
            if r.random() < 0.5:
                suit, n = r.choice(SUITS), r.randint(1, 7)
                sets += [_run(suit, n), _run(suit, n)]
            else:
                sets += [self.suited_set(SUITS, all_numbers, 0.7) for _ in range(2)]
            pair = self.any_pair()
        elif theme == "green":
            greens = ["2B", "3B", "4B", "6B", "8B", "GD"]
            for _ in range(4):
                sets.append(["2B", "3B", "4B"] if r.random() < 0.4 else [r.choice(greens)] * 3)
            pair = [r.choice(greens)] * 2
        elif theme == "honours":
            picks = r.sample(HONOURS, 5)
            sets = [[h] * 3 for h in picks[:4]]
            pair = [picks[4]] * 2
        elif theme == "gates":
            suit = r.choice(SUITS)
            tiles = [_tile(suit, n) for n in [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9]]
            tiles.append(_tile(suit, r.randint(1, 9)))
            return [tiles]  # split by the scorer; kept concealed
        elif theme == "kongs":
            sets = [self.suited_set(SUITS, all_numbers, 0.0) if r.random() < 0.7
                    else self.honour_set(HONOURS) for _ in range(r.choice([3, 3, 4, 2]))]
            sets += [self.suited_set(SUITS, all_numbers, 0.7) for _ in range(4 - len(sets))]
            pair = self.any_pair()
        else:
            sets = [self.suited_set(SUITS, all_numbers, 0.65) if r.random() < 0.85
                    else self.honour_set(HONOURS) for _ in range(4)]
            pair = self.any_pair()
        return [*sets, pair]

    def any_pair(self) -> list[str]:
        r = self.rng
        if r.random() < 0.75:
            return [_tile(r.choice(SUITS), r.randint(1, 9))] * 2
        return [r.choice(HONOURS)] * 2

    def special(self, theme: str) -> list[list[str]]:
        r = self.rng
        if theme == "orphans":
            orphans = [_tile(s, n) for s in SUITS for n in (1, 9)] + HONOURS
            return [[t] for t in orphans] + [[r.choice(orphans)]]
        pool = [_tile(s, n) for s in SUITS for n in range(1, 10)] + HONOURS
        choice = r.random()
        if choice < 0.2:
            pool = [_tile(s, n) for s in SUITS for n in range(2, 9)]
        elif choice < 0.35:
            pool = [t for t in pool if t in HONOURS or t[1] == "C"]
        elif choice < 0.45:
            pool = [t for t in pool if t in HONOURS or t[0] in "19"]
        elif choice < 0.5:
            pool = ["WD", "GD", "RD"] + r.sample(pool, 6)
        return [[t, t] for t in r.sample(pool, 7)]

    def draw(self) -> Drawn | None:
        r = self.rng
        theme = r.choice(THEMES)
        groups = self.special(theme) if theme in ("orphans", "pairs") else self.standard(theme)
        if groups is None:
            return None
        standard = theme not in ("orphans", "pairs", "gates")
        called: list[int] = []
        kongs: list[int] = []
        if standard:
            sets = groups[:4]
            for i, g in enumerate(sets):
                triplet = g[0] == g[1]
                kong_chance = 0.85 if theme == "kongs" else 0.06
                if triplet and r.random() < kong_chance:
                    g.append(g[0])
                    if r.random() < 0.5 and theme != "concealed-pungs":
                        called.append(i)
                    else:
                        kongs.append(i)
                elif theme != "concealed-pungs" and r.random() < 0.22:
                    called.append(i)
        tiles = Counter(t for g in groups for t in g)
        if any(n > 4 for n in tiles.values()):
            return None
        concealed = [t for i, g in enumerate(groups) if i not in called and i not in kongs
                     for t in g]
        winning = r.choice(concealed)
        self_drawn = r.random() < 0.45
        closed = not called
        seat, round_ = r.choice("ESWN"), r.choice("ESWN" if r.random() < 0.3 else "ES")
        d = Drawn(groups, called, kongs, winning, self_drawn, seat, round_, theme=theme)
        if closed and r.random() < 0.45:
            d.declared.add("double_riichi" if r.random() < 0.1 else "riichi")
            if r.random() < 0.25:
                d.declared.add("ippatsu")
        if r.random() < 0.05:
            d.declared.add("last_tile")
        kong = any(len(groups[i]) == 4 for i in [*called, *kongs])
        if self_drawn and kong and r.random() < 0.3 and "last_tile" not in d.declared:
            d.declared.add("kan_replacement")
        if not self_drawn and r.random() < 0.06 and "last_tile" not in d.declared \
                and tiles[winning] == 1:
            d.declared.add("robbed_kan")
        if self_drawn and not called and not kongs and r.random() < 0.05 \
                and not d.declared & {"riichi", "double_riichi", "ippatsu", "last_tile"}:
            d.declared.add("first_draw")
        if not self_drawn and not called and not kongs and seat != "E" and r.random() < 0.15 \
                and not d.declared:
            d.declared.add("first_discard")  # renhou, when an option says so
        every = [_tile(s, n) for s in SUITS for n in range(1, 10)] + HONOURS
        d.dora = [r.choice(every) for _ in range(r.choice([0, 1, 1, 1, 2, 3, 5]))]
        if d.declared & {"riichi", "double_riichi"}:
            d.ura = [r.choice(every) for _ in range(len(d.dora))]
        if r.random() < 0.3:
            d.options = {name: r.random() < 0.5 for name in OPTIONS}
        if "first_discard" in d.declared:
            d.options |= {"renhou": r.random() < 0.85, "renhou_yakuman": r.random() < 0.3}
        fives = [f"5{s}" for s in SUITS if tiles[f"5{s}"]]
        played = d.options.get("red_fives", True)
        if fives and r.random() < (0.5 if played else 0.3):  # held; unplayed, they count nothing
            d.red = r.sample(fives, r.randint(1, len(fives)))
        if played:  # four of a five: one is the red copy
            d.red += [f for f in fives if tiles[f] == 4 and f not in d.red]
        d.honba = r.choice([0, 0, 0, 1, 2, 5])
        d.sticks = r.choice([0, 0, 1, 2])
        return d

    def hands(self, count: int) -> list[Drawn]:
        out: list[Drawn] = []
        while len(out) < count:
            d = self.draw()
            if d is not None:
                out.append(d)
        return out


def to_win(rules: HandScoring, d: Drawn, options: dict[str, bool] | None = None) -> Win:
    deck = rules.deck

    def k(code: str) -> int:
        return deck.by_code[code].index

    hand = tuple(k(t) for i, g in enumerate(d.groups) if i not in d.called
                 and i not in d.concealed_kongs for t in g)
    calls = tuple(Call(tuple(k(t) for t in d.groups[i]), i in d.concealed_kongs)
                  for i in sorted([*d.called, *d.concealed_kongs]))
    return Win(hand, k(d.winning), calls, d.self_drawn, k(d.seat), k(d.round),
               frozenset(d.declared), tuple(k(t) for t in d.dora), tuple(k(t) for t in d.ura),
               len(d.red), d.honba, d.sticks, {**d.options, **(options or {})})


# --- the package's side
def _index34(code: str) -> int:
    if code in HONOURS:
        return 27 + HONOURS.index(code)
    return SUITS.index(code[-1]) * 9 + int(code[:-1]) - 1


NAMES = {
    "riichi": "Riichi", "double-riichi": "Double Riichi", "ippatsu": "Ippatsu",
    "menzen-tsumo": "Menzen Tsumo", "pinfu": "Pinfu", "tanyao": "Tanyao",
    "iipeikou": "Iipeiko", "haku": "Yakuhai (haku)", "hatsu": "Yakuhai (hatsu)",
    "chun": "Yakuhai (chun)", "haitei": "Haitei Raoyue", "houtei": "Houtei Raoyui",
    "rinshan": "Rinshan Kaihou", "chankan": "Chankan", "chiitoitsu": "Chiitoitsu",
    "sanshoku": "Sanshoku Doujun", "sanshoku-doukou": "Sanshoku Doukou", "ittsuu": "Ittsu",
    "chanta": "Chantai", "toitoi": "Toitoi", "sanankou": "San Ankou", "sankantsu": "San Kantsu",
    "honroutou": "Honroutou", "shousangen": "Shou Sangen", "ryanpeikou": "Ryanpeikou",
    "junchan": "Junchan", "honitsu": "Honitsu", "chinitsu": "Chinitsu",
    "kokushi": "Kokushi Musou", "kokushi-13": "Kokushi Musou Juusanmen Matchi",
    "suuankou": "Suu Ankou", "suuankou-tanki": "Suu Ankou Tanki", "daisangen": "Daisangen",
    "shousuushii": "Shousuushii", "daisuushii": "Dai Suushii", "tsuuiisou": "Tsuu Iisou",
    "ryuuiisou": "Ryuuiisou", "chinroutou": "Chinroutou", "chuuren": "Chuuren Poutou",
    "chuuren-9": "Daburu Chuuren Poutou", "suukantsu": "Suu Kantsu", "tenhou": "Tenhou",
    "chiihou": "Chiihou", "renhou": "Renhou", "renhou-yakuman": "Renhou (yakuman)",
}
WIND_WORDS = {"E": "east", "S": "south", "W": "west", "N": "north"}


def ours(d: Drawn, s: Scored) -> dict[str, Any]:
    """Our answer in the package's terms: yaku names with han (13 per yakuman)."""
    yaku = []
    for name, value in s.yaku:
        if name in ("seat-wind", "round-wind"):
            wind = d.seat if name == "seat-wind" else d.round
            label = f"Yakuhai ({name.split('-')[0]} wind {WIND_WORDS[wind]})"
        else:
            label = NAMES[name]
        yaku.append((label, value * 13 if s.yakuman else value))
    for label, value in (("Dora", s.dora), ("Aka Dora", s.red), ("Ura Dora", s.ura)):
        if value:
            yaku.append((label, value))
    return {"wins": s.wins, "yaku": sorted(yaku), "han": s.han + 13 * s.yakuman,
            "fu": None if s.yakuman else s.fu, "total": s.total if s.wins else None,
            "limit": s.limit}


def their_input(d: Drawn, options: dict[str, bool]) -> tuple[Any, ...]:
    """The package's arguments for a hand (HandCalculator.estimate_hand_value's),
    its options set to ours."""
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    used: Counter[int] = Counter()
    red_left = {_index34(t) for t in d.red}

    def take(code: str) -> int:
        i = _index34(code)
        if i in red_left:
            red_left.discard(i)
            return i * 4  # the package's red fives are copy 0
        # copy 0 of a five is the red one: a plain five takes it last
        order = (1, 2, 3, 0) if code[0] == "5" and code not in HONOURS else (0, 1, 2, 3)
        copy = order[used[i]]
        used[i] += 1
        return i * 4 + copy

    group_tiles = [[take(t) for t in g] for g in d.groups]
    tiles = [t for g in group_tiles for t in g]
    win_candidates = [t for i, g in enumerate(group_tiles) if i not in d.called
                      and i not in d.concealed_kongs for t in g if t // 4 == _index34(d.winning)]
    melds = []
    for i in sorted([*d.called, *d.concealed_kongs]):
        g = group_tiles[i]
        if len(g) == 4:
            melds.append(Meld(Meld.KAN, g, opened=i in d.called))
        elif g[0] // 4 == g[1] // 4:
            melds.append(Meld(Meld.PON, g, opened=True))
        else:
            melds.append(Meld(Meld.CHI, g, opened=True))
    rules = OptionalRules(
        has_open_tanyao=options["open_tanyao"], has_aka_dora=options["red_fives"],
        has_double_yakuman=options["double_yakuman"],
        kazoe_limit=HandConstants.KAZOE_LIMITED if options["kazoe_yakuman"]
        else HandConstants.KAZOE_SANBAIMAN,
        kiriage=options["kiriage"], fu_for_open_pinfu=options["open_pinfu_fu"],
        renhou_as_yakuman=options["renhou_yakuman"])
    declared = d.declared
    dealer = d.seat == "E"
    config = HandConfig(
        is_tsumo=d.self_drawn, is_riichi="riichi" in declared or "double_riichi" in declared,
        is_daburu_riichi="double_riichi" in declared, is_ippatsu="ippatsu" in declared,
        is_haitei="last_tile" in declared and d.self_drawn,
        is_houtei="last_tile" in declared and not d.self_drawn,
        is_rinshan="kan_replacement" in declared, is_chankan="robbed_kan" in declared,
        is_tenhou="first_draw" in declared and dealer,
        is_chiihou="first_draw" in declared and not dealer,
        # the package has no renhou off: it is told of renhou only when the option is on
        is_renhou="first_discard" in declared and options["renhou"],
        player_wind=_index34(d.seat), round_wind=_index34(d.round),
        kyoutaku_number=d.sticks, tsumi_number=d.honba, options=rules)
    dora = [_index34(t) * 4 + 3 for t in d.dora]
    ura = [_index34(t) * 4 + 3 for t in d.ura]
    return tiles, win_candidates[-1], melds, dora, config, ura


def their_answer(result: Any) -> dict[str, Any]:
    """The package's answer, in the terms `ours` gives."""
    if result.error:
        return {"wins": False, "error": result.error}
    yakuman = any(y.is_yakuman for y in result.yaku)
    yaku = []
    for y in result.yaku:
        han = y.han_open if result.is_open_hand and y.han_open else y.han_closed
        yaku.append((y.name, han))
    return {"wins": True, "yaku": sorted(yaku), "han": result.han,
            "fu": None if yakuman else result.fu, "total": result.cost["total"],
            "limit": result.cost["yaku_level"]}


def theirs(d: Drawn, options: dict[str, bool]) -> dict[str, Any]:
    """The mahjong package's HandCalculator on the same hand."""
    from mahjong.hand_calculating.hand import HandCalculator

    tiles, win, melds, dora, config, ura = their_input(d, options)
    return their_answer(HandCalculator.estimate_hand_value(tiles, win, melds, dora, config,
                                                           ura_dora_indicators=ura))


def their_options(rules: HandScoring, d: Drawn) -> dict[str, bool]:
    return {**rules.options, **d.options}


def mix(scored: list[tuple[Drawn, Scored]]) -> dict[str, Counter[str]]:
    """What the hands drawn hold: yaku, forms, waits, openness, how won, winds,
    declarations, dora and red fives, honba."""
    out: dict[str, Counter[str]] = {k: Counter() for k in
                                    ("yaku", "form", "wait", "hand", "won", "seat", "round",
                                     "declared", "bonus", "limit")}
    for d, s in scored:
        for name, _ in s.yaku:
            out["yaku"][name] += 1
        out["form"][s.form or "none"] += 1
        out["wait"][s.wait or "none"] += 1
        out["hand"]["open" if d.called else "closed"] += 1
        out["won"]["tsumo" if d.self_drawn else "ron"] += 1
        out["seat"][d.seat] += 1
        out["round"][d.round] += 1
        for name in d.declared:
            out["declared"][name] += 1
        for name, n in (("dora", s.dora), ("red five", s.red), ("ura-dora", s.ura),
                        ("red five held, not played", len(d.red) - s.red),
                        ("honba", d.honba), ("sticks", d.sticks)):
            if n:
                out["bonus"][name] += 1
        out["limit"][s.limit or ("no yaku" if not s.wins else "below mangan")] += 1
    return out


def print_mix(m: dict[str, Counter[str]], total: int) -> str:
    lines = []
    for key, counter in m.items():
        shown = ", ".join(f"{name} {n}" for name, n in sorted(counter.items(),
                                                               key=lambda x: (-x[1], x[0])))
        lines.append(f"{key}: {shown}")
    return f"{total:,} hands\n" + "\n".join(lines)
