"""What the rule functions read: the variant, the matcher, and read-only
views of the table and its seats.

The rules (runtime/game/turn.py, claims.py, racks.py, phases.py) are
functions over these views that return decisions: the legal actions, the
claim that wins a window, the tiles a pass hands over. Only the State
applies decisions; the views are typed read-only (Sequence, properties),
so a rule cannot move a tile. A bot reads the same rules through its own
seat's view, built from its observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Protocol

from jongg.runtime.card import Card
from jongg.runtime.game.actions import Action
from jongg.runtime.game.spec import GameSpec, Pledge
from jongg.runtime.hand import Hand
from jongg.runtime.memo import Memo


class Mode(StrEnum):
    GUARDED = "guarded"  # mistakes are refused with the legal alternatives
    STRICT = "strict"  # the rulebook's mistakes may be made, and are penalised


class Judge(Protocol):
    """What a game asks of a matcher (the compiled one, or the reference)."""

    card: Card

    def scores(self, hand: Hand, *, open_hands: bool = False) -> list[tuple[int, int, int]]: ...

    def explain(self, hand: Hand, line: Any, variation: int) -> Any: ...

    def is_complete(self, hand: Hand, *, open_hands: bool = False) -> Any: ...

    def allows(self, exposures: Sequence[Sequence[int]], *, open_hands: bool = False) -> bool: ...

    def allows_beside(self, exposures: tuple[tuple[int, ...], ...], more: tuple[int, ...], *,
                      open_hands: bool = False) -> bool: ...

    def discard_scores(self, hand: Hand, *, open_hands: bool = False
                       ) -> dict[int, list[tuple[int, int, int]]]: ...

    def discard_nearness(self, hand: Hand, *, open_hands: bool = False
                         ) -> dict[int, tuple[int, int] | None]: ...

    def nearness(self, hand: Hand, *, open_hands: bool = False) -> tuple[int, int] | None: ...


class ExposureView(Protocol):
    @property
    def tiles(self) -> tuple[int, ...]: ...
    @property
    def claimed(self) -> int: ...
    @property
    def rack(self) -> int: ...
    @property
    def mahjong(self) -> bool: ...
    @property
    def killed(self) -> bool: ...


class SeatView(Protocol):
    """One seat as the rules read it: the State's seat, or a bot's own seat
    rebuilt from its observation."""

    @property
    def counts(self) -> Sequence[int]: ...
    @property
    def exposures(self) -> Sequence[ExposureView]: ...
    @property
    def rack_dead(self) -> Sequence[bool]: ...
    @property
    def pledged(self) -> Pledge | None: ...
    @property
    def aside(self) -> Sequence[int]: ...
    @property
    def dead(self) -> bool: ...
    @property
    def pledge(self) -> int: ...
    @property
    def mahjongs(self) -> int: ...

    def concealed(self) -> tuple[int, ...]: ...

    def rack_exposures(self, rack: int = 0) -> tuple[tuple[int, ...], ...]: ...

    def hand(self, rack: int = 0) -> Hand: ...

    def won(self, rack: int) -> bool: ...

    def live_racks(self) -> list[int]: ...


class Rules:
    """A variant's rules with its matcher: what every rule function reads,
    and the answers worth keeping (they depend on nothing that changes)."""

    def __init__(self, spec: GameSpec, judge: Judge, mode: Mode = Mode.GUARDED):
        self.spec = spec
        self.judge = judge
        self.mode = mode
        self.deck = spec.deck
        self.joker = spec.deck.joker_index
        self.lines = judge.card.lines
        self.sizes = [line.size for line in self.lines]
        # card flags whose lines only a pledged rack may win (SMJ-27)
        self.pledge_flags = frozenset(p.flag for p in spec.phases if isinstance(p, Pledge))
        self._allowed: dict[str, frozenset[int]] = {}  # by pledge flag ("" for none)
        self._scores: Memo[Hand, list[tuple[int, int, int]]] = Memo(4096)
        self._complete: Memo[Hand, list[tuple[int, int]]] = Memo(4096)
        self._actions: Memo[tuple[Any, ...], Action] = Memo(50_000)
        self._each: dict[str, list[Action]] = {}  # by verb, an action per kind
        kinds = [k for k in spec.claims.kinds if not k.mahjong]
        # the most tiles a set claimed takes from the hand, beside the discard
        self.claim_need = max((size - 1 for k in kinds for size in k.sizes), default=0)
        self.claim_runs = any(k.runs for k in kinds)
        self._options: Memo[tuple[Any, ...], tuple[tuple[str, tuple[int, ...]], ...]] = Memo(
            20_000)
        self._fits: Memo[tuple[Any, ...], bool] = Memo(50_000)
        # a claim window's exposures, by the sets the seat can make and its racks
        self.claims_kept: Memo[tuple[Any, ...], list[Action]] = Memo(20_000)
        self._memos: dict[str, Memo[Any, Any]] = {}  # by name: memo()

    def memo(self, name: str, limit: int) -> Memo[Any, Any]:
        """The memo of this name kept with the rules, shared by every seat
        and match that asks for it: for answers that depend on the rules
        alone, such as an agent's weighing of a hand."""
        known = self._memos.get(name)
        if known is None:
            known = self._memos[name] = Memo(limit)
        return known

    def action(self, verb: str, tile: int = -1, **fields: Any) -> Action:
        """An action that shows itself in this deck's tile codes (actions are
        values: one is made once and handed out again, as every claim window
        offers the same few dozen)."""
        key = (verb, tile, *fields.items())
        return self._actions.get(key, lambda: Action(verb, tile, deck=self.deck, **fields))

    def each_held(self, verb: str, counts: Sequence[int]) -> list[Action]:
        """The action `verb` on each kind held (a discard, a pass): made once
        per kind, as every turn offers them again."""
        made = self._each.get(verb)
        if made is None:
            made = self._each[verb] = [self.action(verb, k) for k in range(len(self.deck.kinds))]
        return [made[k] for k, n in enumerate(counts) if n]

    @property
    def strict(self) -> bool:
        return self.mode is Mode.STRICT

    def scores(self, hand: Hand) -> list[tuple[int, int, int]]:
        """(line, slots filled, variation) of every line the hand may still make
        (read-only: kept per hand, as a claim window asks of the same racks
        again: their resting tiles away, then whether the discard completes them)."""
        return self._scores.get(hand, lambda: self.judge.scores(
            hand, open_hands=self.spec.open_hands))

    def complete_lines(self, hand: Hand) -> list[tuple[int, int]]:
        """(line, variation) of every line the hand completes, highest value
        first, then card order (kept per hand beside its scores: several
        racks ask it of the same pools again)."""
        return self._complete.get(hand, lambda: sorted(
            [(li, v) for li, s, v in self.scores(hand) if s == self.sizes[li]],
            key=lambda d: (-(self.lines[d[0]].value or 0), d[0])))

    def fits(self, exposures: tuple[tuple[int, ...], ...], tile: int,
             tiles: tuple[int, ...]) -> bool:
        """Whether some line can still use a rack with these exposures once
        this set (`tile` claimed with `tiles`) is exposed on it too."""
        return self._fits.get((exposures, tile, tiles), lambda: self.judge.allows_beside(
            exposures, tuple(sorted((tile, *tiles))), open_hands=self.spec.open_hands))

    def claim_options(self, tile: int, held: int, jokers: int, after: bool,
                      partners: tuple[tuple[int, int], ...]
                      ) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(claim kind, tiles from the hand) of every set the discard could
        make with `held` of it and `jokers` jokers in hand (a run with the
        `partners` held), the seat next in turn or not (`after`), whatever
        its racks."""
        return self._options.get((tile, held, jokers, after, partners),
                                 lambda: self._claim_options(tile, held, jokers, after, partners))

    def _claim_options(self, tile: int, held: int, jokers: int, after: bool,
                       partners: tuple[tuple[int, int], ...]
                       ) -> tuple[tuple[str, tuple[int, ...]], ...]:
        joker = self.joker
        found: list[tuple[str, tuple[int, ...]]] = []
        for kind in self.spec.claims.kinds:
            if kind.mahjong or (kind.next_only and not after):
                continue
            for size in kind.sizes:
                need = size - 1
                most = min(held, need)
                least = max(0, need - (jokers if kind.jokers else 0))
                for naturals in range(most, least - 1, -1):
                    found.append((kind.name, (tile,) * naturals + (joker,) * (need - naturals)
                                  if joker is not None else (tile,) * naturals))
            if kind.runs:
                found.extend((kind.name, pair) for pair in partners)
        return tuple(found)

    def discard_scores(self, hand: Hand) -> dict[int, list[tuple[int, int, int]]]:
        """scores() of the hand less one tile, for each kind it holds
        concealed, worked out together (what a player weighs before a discard)."""
        return self.judge.discard_scores(hand, open_hands=self.spec.open_hands)

    def discard_nearness(self, hand: Hand) -> dict[int, tuple[int, int] | None]:
        """For each kind the hand holds concealed, the hand less one of it:
        tiles away from its nearest line and how many lines are that near
        (None: no line), all at once (what a greedy player weighs)."""
        return self.judge.discard_nearness(hand, open_hands=self.spec.open_hands)

    def nearness(self, hand: Hand) -> tuple[int, int] | None:
        """The hand's tiles away from its nearest line and how many lines
        are that near (None: no line): what a greedy player weighs a claim
        or an exchange by (the judge's own, quicker than reading scores())."""
        return self.judge.nearness(hand, open_hands=self.spec.open_hands)

    def completes(self, hand: Hand) -> bool:
        return self.judge.is_complete(hand, open_hands=self.spec.open_hands) is not None

    def nearest(self, hand: Hand, allowed: frozenset[int] | None = None
                ) -> list[tuple[int, int, int]]:
        """(tiles away, line, variation) of every line the hand may still make
        (of those `allowed`, when given), nearest first, then card order."""
        sizes = self.sizes
        return sorted([(sizes[li] - s, li, v) for li, s, v in self.scores(hand)
                       if allowed is None or li in allowed])

    def away(self, hand: Hand) -> int | None:
        """Tiles away from the nearest line (None: no line can be made)."""
        found = self.nearest(hand)
        return found[0][0] if found else None

    def allowed_lines(self, seat: SeatView, rack: int) -> frozenset[int] | None:
        """The lines a rack may win (None: every line): a pledged rack only
        its flag's lines, another rack none of the pledge flags' lines."""
        if not self.pledge_flags:
            return None
        pledged = seat.pledged
        flag = pledged.flag if pledged is not None and pledged.rack == rack else ""
        known = self._allowed.get(flag)
        if known is None:
            known = self._allowed[flag] = frozenset(
                li for li, line in enumerate(self.lines)
                if (flag in line.flags if flag else not self.pledge_flags & set(line.flags)))
        return known


class TableView(Protocol):
    """The table as the rules read it: the State's own fields, private to the
    runtime/game package (a seat learns the table only from its observation).
    `_resting_away` and `_claimable_racks` are kept answers (the State
    remembers them until the tiles change)."""

    @property
    def _rules(self) -> Rules: ...
    @property
    def _seats(self) -> Sequence[SeatView]: ...
    @property
    def _wall(self) -> Sequence[int]: ...
    @property
    def turn(self) -> int: ...
    @property
    def _open_discard(self) -> tuple[int, int] | None: ...
    @property
    def _incoming(self) -> tuple[int, int] | None: ...
    @property
    def _opening(self) -> bool: ...
    @property
    def _turn_away(self) -> int | None: ...
    @property
    def _promised(self) -> Sequence[int]: ...

    def _resting_away(self, seat: int) -> int: ...

    def _resting_near(self, seat: int) -> bool: ...

    def _near_racks(self, seat: int) -> list[int] | None: ...

    def _claimable_racks(self, seat: int, tile: int, mahjongs: int) -> list[int]: ...

    def _last_tile(self, seat: int) -> int | None: ...

    def _waits(self, seat: int) -> list[int]: ...

    def _wins_discard(self, seat: int, tile: int) -> bool: ...


# The Rules of the games being played, shared by their matches: a Rules keeps
# only answers that depend on nothing a match changes, so every match of a
# game finds the answers of those before it (a new match's memos started
# cold: a fifth of a greedy mjcg-card match went on asking them again).
_SHARED: dict[tuple[int, int, Mode], tuple[GameSpec, Judge, Rules]] = {}
_SHARED_GAMES = 16  # games whose Rules are kept at once


def shared_rules(spec: GameSpec, judge: Judge, mode: Mode) -> Rules:
    """The one Rules of this spec, matcher and mode (kept by identity, the
    spec and the matcher held so their ids stay theirs)."""
    key = (id(spec), id(judge), mode)
    kept = _SHARED.get(key)
    if kept is not None and kept[0] is spec and kept[1] is judge:
        return kept[2]
    if len(_SHARED) >= _SHARED_GAMES:
        _SHARED.clear()
    rules = Rules(spec, judge, mode)
    _SHARED[key] = (spec, judge, rules)
    return rules

