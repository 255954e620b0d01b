"""Wins a variant's hand scoring decides: what a scored game adds to the
table (a dead wall and its indicators, declarations with a deposit,
furiten), and the rule functions that read it.

A variant with `win: {scored: ...}` wins only with a hand its hand_scoring
scores as a win (a hand with no yaku completes nothing), and is paid what
that scoring says. Every name here (a declaration's, a scoring context's)
is the variant's own: nothing in this module knows a variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from jongg.runtime.scoring.readings import completes
from jongg.runtime.scoring.rules import HandScoring
from jongg.runtime.scoring.score import Call, Scored, Scorer, Win

KONGS = 4  # kongs a round may have: the dead wall's replacement tiles


@dataclass(frozen=True, slots=True)
class DeadWall:
    """The wall's last `tiles` are not drawn: `indicators` of them lie face
    up from the deal (each with one under it, shown at a win, when `ura`),
    and a replacement draw after a kong comes from it (the live wall giving
    one back). Each kong turns the next indicator face up (`kong_indicators`):
    "after-discard", a concealed kong's at once and an open or added kong's
    when the seat discards after its replacement (or declares another kong
    first); "at-once", every kong's at once; "none"."""

    tiles: int
    indicators: int = 1
    ura: bool = False
    kong_indicators: str = "after-discard"


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declaration made with a discard (`NAME TILE` discards TILE with it):
    on a concealed hand one tile from a win (`waiting`), with `wall_at_least`
    live tiles left and `score_at_least` points, the seat puts `deposit` on
    the table and, when `locks`, discards every tile it draws that does not
    win. A win after it has the scoring context `context`; `first_turn` when
    it was made on the seat's first discard with no call before it; and
    `streak` too while no call and none of the seat's own discards came
    between it and the win."""

    name: str
    context: str
    deposit: int = 0
    concealed: bool = True
    waiting: bool = True
    wall_at_least: int = 0
    score_at_least: int = 0
    locks: bool = True
    first_turn: str = ""
    streak: str = ""
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Furiten:
    """When a seat may not win on a discard although the discard completes
    its hand: `own_discards`, while it waits on a tile it discarded itself
    this round; after passing a discard it could have won on, until its
    next discard (`passed` "turn") or for the rest of the round ("round");
    `declared_passed`: the same, once it has made a declaration."""

    own_discards: bool = True
    passed: str = "turn"  # "none", "turn" or "round"
    declared_passed: str = "round"


@dataclass(frozen=True, slots=True)
class Abortive:
    """Rounds that end drawn before the wall runs out (`abortive`), the
    dealer keeping the deal and a honba added; each is off with 0, false or
    []. A seat on its first turn, no call before it, holding `orphans`
    kinds of the hand scoring's orphans may end the round (`abort`); it
    ends when every seat's first discard is the same tile of a category in
    `first_discards` with no call; when every seat has declared
    (`all_declared`, once the last declaring discard is let go); when the
    dead wall's kongs are all made and not by one seat (`kongs_apart`,
    once the discard after the last is let go); and when `wins_at_once`
    seats claim a win on one discard."""

    orphans: int = 9
    first_discards: tuple[str, ...] = ("wind",)
    all_declared: bool = True
    kongs_apart: bool = True
    wins_at_once: int = 3


@dataclass(frozen=True, slots=True)
class Liability:
    """The seat whose discard is claimed for another's `sets`-th exposed
    pung or kong of tiles of `category` is liable for that seat's win with
    `yaku` (pao): it pays a self-drawn win whole, and half of a win on a
    third seat's discard (the discarder the rest); the deposits are the
    table's as ever."""

    yaku: str
    category: str
    sets: int


@dataclass(frozen=True, slots=True)
class ScoredWins:
    """What `win.scored` says: the hand scoring that decides and pays every
    win, and the scoring contexts the table gives a win (empty: none)."""

    hand: HandScoring
    last_tile: str = ""  # a win on the live wall's last tile or its discard
    first_draw: str = ""  # a self-drawn win on the seat's first draw, no call before it
    kong_replacement: str = ""  # a win on a kong's replacement tile
    robbed_kong: str = ""  # a win on a tile added to an exposed pung
    dead_wall: DeadWall | None = None
    declarations: tuple[Declaration, ...] = ()
    furiten: Furiten | None = None
    abortive: Abortive | None = None
    liabilities: tuple[Liability, ...] = ()
    several_wins: bool = False  # every seat claiming a win on one discard wins (else the nearest)
    # the discards barred right after a claimed set (kuikae): "called", the
    # claimed tile's kind; "other_end", for a run claimed at one end, the tile
    # beyond its other end
    kuikae: tuple[str, ...] = ()
    first_discard: str = ""  # a win on a discard before the seat's first draw, no call before it
    honba_each: bool = False  # with several_wins, each winner is paid the honba (else the nearest)

    def declaration(self, name: str) -> Declaration:
        return next(d for d in self.declarations if d.name == name)


@dataclass(frozen=True, slots=True)
class Setting:
    """Everything a win's score reads besides the seat's tiles."""

    seat_wind: int
    round_wind: int
    declared: frozenset[str]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    honba: int
    sticks: int
    red: int = 0  # red copies among the seat's tiles


class Exposed(Protocol):
    """An exposure as these rules read it (a seat's, or a bot's own)."""

    @property
    def tiles(self) -> tuple[int, ...]: ...
    @property
    def claimed(self) -> int: ...


_SCORERS: dict[int, tuple[HandScoring, Scorer]] = {}


def scorer(hand: HandScoring) -> Scorer:
    """The one Scorer of a compiled hand scoring (kept by identity)."""
    kept = _SCORERS.get(id(hand))
    if kept is None or kept[0] is not hand:
        if len(_SCORERS) > 16:
            _SCORERS.clear()
        kept = _SCORERS[id(hand)] = (hand, Scorer(hand))
    return kept[1]


def calls(exposures: Sequence[Exposed]) -> tuple[Call, ...]:
    """A seat's exposures as the scorer's calls (a kong with no claimed tile
    was declared concealed)."""
    return tuple(Call(tuple(e.tiles), concealed=e.claimed < 0 and len(e.tiles) == 4)
                 for e in exposures)


def score(wins: ScoredWins, concealed: Sequence[int], exposures: Sequence[Exposed],
          winning: int | None, self_drawn: bool, setting: Setting) -> Scored:
    """The best score of a hand of `concealed` tiles (the winning one among
    them) with these exposures; with no winning tile named (a dealt hand)
    the best over every tile held."""
    run = scorer(wins.hand)
    tiles = tuple(sorted(concealed))
    called = calls(exposures)
    best: Scored | None = None
    for tile in ([winning] if winning is not None else sorted(set(tiles))):
        scored = run.score(Win(tiles, tile, called, self_drawn, setting.seat_wind,
                               setting.round_wind, setting.declared, setting.dora, setting.ura,
                               setting.red, setting.honba, setting.sticks))
        if best is None or scored.key() > best.key():
            best = scored
    assert best is not None
    return best


def swap_barred(wins: ScoredWins, exposure: Exposed) -> frozenset[int]:
    """The kinds a seat may not discard right after claiming `exposure`
    (kuikae): the claimed tile's, and for a run claimed at one end the one
    that would make the same run's other end with the two tiles it used."""
    tile, tiles = exposure.claimed, exposure.tiles
    if tile < 0 or len(tiles) != 3:
        return frozenset()
    barred = {tile} if "called" in wins.kuikae else set()
    after = wins.hand.runs
    low, middle, high = sorted(tiles)
    if "other_end" in wins.kuikae and after[low] == middle and after[middle] == high:
        if tile == low and after[high] >= 0:
            barred.add(after[high])
        elif tile == high:
            barred.update(k for k, nxt in enumerate(after) if nxt == low)
    return frozenset(barred)


def waits(wins: ScoredWins, counts: Sequence[int], exposures: Sequence[Exposed]) -> list[int]:
    """The kinds that would complete a hand of these concealed `counts` and
    exposures into a winning shape (yaku aside), not counting a kind whose
    every copy the hand holds itself. Only a kind held, one within two of
    one in its run, or an orphan when every tile held is one, can be."""
    rules = wins.hand
    sets = len(exposures)
    if sum(counts) + 3 * sets != 13:
        return []
    found: list[int] = []
    less = list(counts)
    for i in _candidates(rules, counts):
        copies = rules.deck.kinds[i].copies
        if less[i] + sum(1 for e in exposures for t in e.tiles if t == i) >= copies:
            continue
        less[i] += 1
        if completes(less, sets, rules.runs, rules.orphans):
            found.append(i)
        less[i] -= 1
    return found


def _candidates(rules: HandScoring, counts: Sequence[int]) -> list[int]:
    after = rules.runs
    before = {nxt: k for k, nxt in enumerate(after) if nxt >= 0}
    held = [k for k, n in enumerate(counts) if n]
    near = set(held)
    for k in held:
        for one in (after[k], before.get(k, -1)):
            if one >= 0:
                near.add(one)
        if after[k] >= 0 and after[after[k]] >= 0:
            near.add(after[after[k]])
        if before.get(before.get(k, -1), -1) >= 0:
            near.add(before[before[k]])
    if rules.orphans and all(k in rules.orphans for k in held):
        near |= rules.orphans
    return sorted(near)


def indicators(tiles: Sequence[int], dead: DeadWall, shown: int, kongs: int
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The face-up indicators and those under them, read from the dead
    wall's `tiles`: indicator i lies at its end less 2i, its ura under it,
    each moved one nearer the start by every kong's replacement taken from
    the start (the live wall giving one back at the end)."""
    up = tuple(tiles[dead.tiles - 1 - 2 * i - kongs] for i in range(shown))
    under = tuple(tiles[dead.tiles - 2 - 2 * i - kongs] for i in range(shown)) if dead.ura else ()
    return up, under


@dataclass(frozen=True, slots=True)
class Public:
    """What every seat sees of a scored game's table: the winds, the
    indicators face up, the counters and each seat's declaration ("" none)."""

    seat_winds: tuple[int, ...]  # by seat
    round_wind: int
    indicators: tuple[int, ...]
    honba: int
    sticks: int
    declared: tuple[str, ...]  # by seat
    live_wall: int
    red_shown: tuple[tuple[int, ...], ...] = ()  # by seat: the red copies among its exposures
    red_thrown: tuple[tuple[int, ...], ...] = ()  # by seat: the places of red ones in its discards
    red_held: tuple[int, ...] = ()  # the red copies the seat it is shown to holds concealed

    def setting(self, seat: int, declared: frozenset[str] = frozenset()) -> Setting:
        """A win's setting as the seat can know it before the win (no ura)."""
        return Setting(self.seat_winds[seat], self.round_wind, declared, self.indicators, (),
                       self.honba, self.sticks)


def wins_on(wins: ScoredWins, counts: Sequence[int], exposures: Sequence[Exposed],
            setting: Setting, self_drawn: bool = False) -> list[int]:
    """The waits of a hand one tile from a win that score a win with this setting."""
    concealed = [t for t, n in enumerate(counts) for _ in range(n)]
    return [w for w in waits(wins, counts, exposures)
            if score(wins, [*concealed, w], exposures, w, self_drawn, setting).wins]
