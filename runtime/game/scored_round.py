"""The State's part for a scored game (`win.scored`, runtime/game/scored.py):
the dead wall and its indicators, declarations made with a discard and
their deposits, furiten, the wins its hand scoring allows and pays, and the
counters a match carries from round to round (honba, the deposits on the
table, how often the deal has passed).

Every method is a no-op or keeps the old answer for a game that is not
scored, so the State calls them unconditionally."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from jongg.runtime.game import events as ev
from jongg.runtime.game import scored as sc
from jongg.runtime.game.actions import RED, Action
from jongg.runtime.game.liability import liable_payments, made_liable
from jongg.runtime.game.red import RedFives
from jongg.runtime.game.scoring import BANK, ScoreEvent
from jongg.runtime.scoring.score import Scored


class ScoredRound(RedFives):
    """Scored wins, declarations, furiten and the dead wall."""

    # -- the match and the round ----------------------------------------------

    def _scored_match(self) -> None:
        """The counters a match carries: honba, deposits on the table (in
        sticks of each declaration's deposit, and in points), deal passes."""
        self._honba = 0
        self._sticks = 0
        self._deposits = 0
        self._passes = 0
        self._scored_deal()

    def _scored_deal(self) -> None:
        n = self.spec.players
        scored = self.spec.scored
        dead = scored.dead_wall.tiles if scored is not None and scored.dead_wall else 0
        self._dead = self._wall[:dead]  # the dead wall: the wall's last tiles to be reached
        del self._wall[:dead]
        self._declared_as: list[str] = [""] * n  # the declaration each seat made ("" none)
        self._first_turn = [False] * n  # the declaration was made on the seat's first turn
        self._streak = [False] * n  # a declaration's streak still unbroken
        self._furiten: list[str] = [""] * n  # "turn" or "round": after passing a win
        self._thrown: list[list[int]] = [[] for _ in range(n)]  # own discards, claimed or not
        self._called = False  # a set was claimed this round
        self._kongs = 0  # replacement tiles drawn from the dead wall
        self._kong_seats: list[int] = []  # the seat of each kong, in order
        self._flipped = 0  # indicators kongs have turned face up
        self._unflipped = 0  # kongs whose indicator turns at the seat's discard
        self._replacement = False  # the tile this turn began with came from the dead wall
        self._scored_win: Scored | None = None
        self._robbing: tuple[int, int] | None = None  # (seat, exposure) of a kong open to robbing
        self._pending = -1  # the seat whose declaring discard is still open to a win
        self._others_won: list[int] = []  # the other seats winning on the discard won on
        self._liable: list[dict[str, int]] = [{} for _ in range(n)]  # yaku: the liable seat
        self._red_deal()

    def _live_wall(self) -> int:
        """Tiles left to draw in turn (the dead wall is apart: `_dead`)."""
        return len(self._wall)

    def _table_points(self) -> int:
        """Points deposited on the table that no seat holds now."""
        return self._deposits

    def _indicators(self, ura: bool = False) -> tuple[int, ...]:
        """The dora indicators face up (`ura`: those under them)."""
        scored = self.spec.scored
        if scored is None or scored.dead_wall is None:
            return ()
        dead = scored.dead_wall
        shown = dead.indicators + self._flipped
        up, under = sc.indicators(self._dead, dead, shown, self._kongs)
        return under if ura else up

    def _public_scored(self, seat: int | None = None) -> sc.Public | None:
        """What every seat sees of the scored game's table (None: not
        scored), and `seat` its own red copies held."""
        scored = self.spec.scored
        if scored is None:
            return None
        winds = scored.hand.winds
        n = self.spec.players
        return sc.Public(tuple(winds[(s - self.dealer) % n % len(winds)] for s in range(n)),
                         winds[self._passes // n % len(winds)], self._indicators(), self._honba,
                         self._sticks, tuple(self._declared_as), self._live_wall(),
                         tuple(tuple(r) for r in self._red_shown),
                         tuple(tuple(r) for r in self._red_thrown),
                         tuple(sorted(self._red_held[seat])) if seat is not None else ())

    # -- what a win scores ----------------------------------------------------

    def _setting(self, seat: int, declared: frozenset[str], ura: bool) -> sc.Setting:
        public = self._public_scored()
        assert public is not None
        setting = public.setting(seat, declared)
        return dataclasses.replace(setting, ura=self._indicators(ura=True)) if ura else setting

    def _context(self, seat: int, self_drawn: bool, robbed: bool = False) -> frozenset[str]:
        robbed = robbed or (self._robbing is not None and not self_drawn)
        """The scoring contexts the table gives a win of `seat` now."""
        scored = self.spec.scored
        assert scored is not None
        found = set()
        name = self._declared_as[seat]
        if name:
            d = scored.declaration(name)
            found.add(d.first_turn if self._first_turn[seat] and d.first_turn else d.context)
            if self._streak[seat] and d.streak:
                found.add(d.streak)
        if scored.last_tile and self._live_wall() == 0 and not self._replacement:
            found.add(scored.last_tile)
        if not self._called and not self._thrown[seat]:  # the seat's first turn, no call
            found.add(scored.first_draw if self_drawn else scored.first_discard)
        if scored.kong_replacement and self_drawn and self._replacement:
            found.add(scored.kong_replacement)
        if scored.robbed_kong and robbed:
            found.add(scored.robbed_kong)
        found.discard("")
        return frozenset(found)

    def _scores_win(self, seat: int, tile: int | None, self_drawn: bool, *, ura: bool = False,
                   robbed: bool = False, held: bool = False) -> Scored:
        """The score of the seat's hand as a win now: self-drawn (`tile` the
        one drawn, None for a dealt hand), or with the discard `tile` (`held`:
        taken into the hand already)."""
        scored = self.spec.scored
        assert scored is not None
        me = self._seats[seat]
        concealed = list(me.concealed())
        if not self_drawn and not held:
            assert tile is not None
            concealed.append(tile)
        setting = self._setting(seat, self._context(seat, self_drawn, robbed), ura)
        setting = dataclasses.replace(setting, red=self._red_count(seat))
        return sc.score(scored, concealed, me.exposures, tile, self_drawn, setting)

    def _wins_drawn(self, seat: int) -> bool:
        """Whether the seat's hand, on its turn, is a win its scoring allows."""
        if self.spec.scored is None:
            return True
        if self._claimed_turn:  # a claimed set is never a win: a win is claimed as one
            return False
        return self._scores_win(seat, self._drawn, True).wins

    def _wins_discard(self, seat: int, tile: int) -> bool:
        """Whether the seat may win on the discard: its scoring allows the
        hand, and the seat is not furiten."""
        if self.spec.scored is None:
            return True
        return not self._is_furiten(seat) and self._scores_win(seat, tile, False).wins

    def _waits(self, seat: int) -> list[int]:
        """The kinds that would complete the seat's resting hand (yaku aside)."""
        scored = self.spec.scored
        if scored is None:
            return []
        me = self._seats[seat]
        return self._waits_of(me.counts, me.exposures)

    def _waits_of(self, counts: Sequence[int], exposures: Sequence[sc.Exposed]) -> list[int]:
        """The waits of these tiles (yaku aside), kept with the rules: a
        seat's hand is asked again discard after discard."""
        scored = self.spec.scored
        assert scored is not None
        key = (tuple(counts), tuple(e.tiles for e in exposures))
        found: list[int] = self._rules.memo("scored.waits", 50_000).get(
            key, lambda: sc.waits(scored, counts, exposures))
        return found

    def _is_furiten(self, seat: int) -> bool:
        scored = self.spec.scored
        if scored is None or scored.furiten is None:
            return False
        if self._furiten[seat]:
            return True
        if scored.furiten.own_discards:
            thrown = set(self._thrown[seat])
            return any(t in thrown for t in self._waits(seat))
        return False

    # -- the turn ---------------------------------------------------------------

    def _scored_turn(self, seat: int, actions: list[Action]) -> list[Action]:
        """A turn's actions in a scored game: those of `_turn_offers`, less
        a discard the set just claimed bars (kuikae), unless it bars every
        one (in either mode: like a locked hand's, never a mistake made)."""
        scored = self.spec.scored
        if scored is None:
            return actions
        actions = self._turn_offers(seat, actions)
        exposures = self._seats[seat].exposures
        if not (scored.kuikae and self._claimed_turn and self._drawn is None and exposures):
            return self._with_red(seat, actions)
        barred = sc.swap_barred(scored, exposures[-1])
        kept = [a for a in actions if a.verb not in ("discard", "announce") or a.tile not in barred]
        return self._with_red(seat, kept if any(a.verb == "discard" for a in kept) else actions)

    def _with_red(self, seat: int, actions: list[Action]) -> list[Action]:
        """The actions, and after them the discard of a red copy of each kind
        the seat may choose to let go of one of (red.py); a locked hand lets
        go of the tile it drew."""
        scored = self.spec.scored
        assert scored is not None
        name = self._declared_as[seat]
        if name and scored.declaration(name).locks:
            return actions
        red = self._red_choices(seat, [a.tile for a in actions if a.verb == "discard"])
        return [*actions, *(self._rules.action("discard", t, claim=RED) for t in red)]

    def _turn_offers(self, seat: int, actions: list[Action]) -> list[Action]:
        """A locked hand discards only the tile it drew; a declaration is
        offered with each discard that leaves the hand waiting."""
        scored = self.spec.scored
        assert scored is not None
        if not self._rules.strict:  # a win only as the scoring allows it
            wins = self._wins_drawn(seat)
            actions = [a for a in actions if a.verb != "declare" or wins]
            if wins and not any(a.verb == "declare" for a in actions):
                actions.insert(0, self._rules.action("declare"))
        actions = [*actions, *self._kong_actions(seat), *self._abort_actions(seat)]
        name = self._declared_as[seat]
        if name and scored.declaration(name).locks and self._drawn is not None:
            return [a for a in actions if a.verb != "discard" or a.tile == self._drawn]
        if name or not scored.declarations:
            return actions
        me = self._seats[seat]
        found = list(actions)
        # a draw and a discard bring a hand at most one tile nearer: one more than a tile
        # away before the draw is never waiting after the discard (the card's lines are
        # the hand scoring's forms)
        if self._turn_away is not None and self._turn_away > 2 and \
                not any(len(e.tiles) == 4 for e in me.exposures):  # the card reads no kong
            return found
        for d in scored.declarations:
            if d.concealed and any(e.claimed >= 0 for e in me.exposures):
                continue
            if self._live_wall() < d.wall_at_least or self.scores[seat] < d.score_at_least:
                continue
            for tile, n in enumerate(me.counts):
                if not n:
                    continue
                if d.waiting:
                    less = list(me.counts)
                    less[tile] -= 1
                    if not self._waits_of(less, me.exposures):
                        continue
                found.append(self._rules.action("announce", tile, claim=d.name))
        return found

    def _kong_actions(self, seat: int) -> list[Action]:
        return []  # runtime/game/kongs.py

    def _abort_actions(self, seat: int) -> list[Action]:
        return []  # runtime/game/abortive.py

    def _scored_window_closed(self) -> bool:
        return False  # runtime/game/abortive.py

    def _several_wins(self, winners: list[int]) -> bool:
        return False  # runtime/game/several.py

    def _announce(self, seat: int, action: Action) -> None:
        """A declaration made with a discard: its deposit goes on the table."""
        scored = self.spec.scored
        assert scored is not None
        d = scored.declaration(action.claim)
        first = not self._thrown[seat] and not self._called
        self._declared_as[seat] = d.name
        self._first_turn[seat] = first and bool(d.first_turn)
        self._tell(ev.Announced(d.name, d.deposit, self._first_turn[seat]), seat)
        self._pending = seat  # its deposit is put down once no seat wins on the discard
        self._discard(seat, action.tile)
        self._streak[seat] = bool(d.streak)  # the discard that declares does not end it

    def _deposit_pending(self) -> None:
        """The declaring discard was not won on: the declaration stands and
        its deposit goes on the table (won on, it fails: no deposit)."""
        seat, self._pending = self._pending, -1
        if seat < 0:
            return
        scored = self.spec.scored
        assert scored is not None
        d = scored.declaration(self._declared_as[seat])
        if d.deposit:
            self._pay([ScoreEvent(self.round, seat, BANK, d.deposit, d.clauses)])
            self._sticks += 1
            self._deposits += d.deposit

    def _scored_discarded(self, seat: int, tile: int, red: bool = False) -> None:
        """The seat discarded: its own discards grow, a passed win's furiten
        for the turn ends, and so does its declaration's streak."""
        if self.spec.scored is None:
            return
        self._thrown[seat].append(tile)
        self._red_discarded(seat, tile, red)
        self._flipped, self._unflipped = self._flipped + self._unflipped, 0
        if self._furiten[seat] == "turn":
            self._furiten[seat] = ""
        self._streak[seat] = False
        self._replacement = False

    def _scored_passed(self, asked: list[int], won_by: int | None, tile: int) -> None:
        """Seats that let a discard go that they could have won on are furiten."""
        scored = self.spec.scored
        if scored is None or scored.furiten is None:
            return
        rule = scored.furiten
        for seat in asked:
            if seat == won_by or self._furiten[seat] == "round":
                continue
            how = rule.declared_passed if self._declared_as[seat] else rule.passed
            if how != "none" and tile in self._waits(seat) and \
                    self._scores_win(seat, tile, False).wins:
                self._furiten[seat] = how

    def _scored_called(self) -> None:
        """A set was claimed: every declaration's streak ends."""
        scored = self.spec.scored
        if scored is None:
            return
        self._deposit_pending()
        self._called = True
        self._streak = [False] * self.spec.players
        if self._open_discard is not None and self._red_taken(self._open_discard[0]):
            self._red_shown[self.turn].append(self._open_discard[1])  # a red discard claimed
        self._red_exposed(self.turn)
        if self._open_discard is not None and scored.liabilities:  # a set claimed
            discarder = self._open_discard[0]
            for yaku in made_liable(scored, self.spec.deck,
                                    self._seats[self.turn].exposures):
                self._liable[self.turn].setdefault(yaku, discarder)

    # -- the round's end ----------------------------------------------------------

    def _scored_result(self, winner: int | None, self_drawn: bool) -> None:
        """The winner's score, worked out before its tiles are shown."""
        if self.spec.scored is None or winner is None:
            self._scored_win = None
            return
        if self._pending >= 0:  # a win on the declaring discard: the declaration fails
            self._declared_as[self._pending], self._pending = "", -1
        if not self_drawn and self._claimed_from is not None and \
                self._incoming is not None and self._red_taken(self._claimed_from):
            self._red_held[winner].append(self._incoming[1])  # won on a red discard
            self._red_won = True
        tile = self._incoming[1] if self._incoming is not None and self._incoming[0] == winner \
            else None
        if self_drawn and self._drawn is None:
            tile = None  # a dealt hand: the best tile to have won on
        self._scored_win = self._scores_win(winner, tile, self_drawn, ura=True, held=True)
        assert self._scored_win.wins, self._scored_win.reason

    def _scored_payments(self, winner: int, discarder: int | None) -> list[ScoreEvent]:
        """What the winner's scoring says each payer pays; the deposits on
        the table go to the winner."""
        won = self._scored_win
        scored = self.spec.scored
        if won is None or scored is None:
            return []
        n = self.spec.players
        winds = scored.hand.winds
        deck = self.spec.deck
        by_wind = {deck.code(winds[(s - self.dealer) % n % len(winds)]): s for s in range(n)}
        events = []
        for payer, amount in won.payments:
            if payer == "discarder":
                if discarder is None:
                    continue
                who = discarder
            elif payer == "table":
                who = BANK
            else:
                who = by_wind[payer]
            events.append(ScoreEvent(self.round, who, winner, amount))
        liable = next((self._liable[winner][name] for name, _ in won.yaku
                       if name in self._liable[winner]), None)
        if liable is not None:
            events = liable_payments(events, winner, liable, discarder)
        self._tell(ev.Scored([list(y) for y in won.yaku], won.han, won.fu, won.limit,
                             list(deck.codes(self._indicators())),
                             list(deck.codes(self._indicators(ura=True)))
                             if self._declared_as[winner] else [], won.total,
                             [list(item) for item in won.fu_items]), winner)
        self._sticks, self._deposits = 0, 0
        return events

    def _waiting_seats(self) -> tuple[int, ...]:
        """The seats one tile from a win (at a wall game)."""
        if self.spec.scored is None:
            return ()
        return tuple(s for s in range(self.spec.players) if self._waits(s))

    def _clean_seats(self) -> tuple[int, ...]:
        """The seats whose every discard this round is one of the hand
        scoring's orphans, none of them claimed (at a wall game)."""
        scored = self.spec.scored
        if scored is None:
            return ()
        orphans = scored.hand.orphans
        return tuple(s for s, thrown in enumerate(self._thrown)
                     if thrown and len(self._seats[s].discards) == len(thrown)
                     and all(t in orphans for t in thrown))

    def _scored_next(self, winner: int | None, waiting: tuple[int, ...]) -> bool:
        """After a round: the counters move on; whether the dealer keeps the deal."""
        match = self.spec.match
        assert match is not None
        dealer_won = winner == self.dealer or self.dealer in self._others_won
        if match.dealer_passes == "always":
            keeps = False
        elif self._ended == "abortive":  # an abortive draw: the dealer deals again
            keeps = True
        elif match.dealer_passes == "unless-dealer-wins-or-waits" and winner is None:
            keeps = self.dealer in waiting
        else:
            keeps = dealer_won
        if match.honba:
            self._honba = self._honba + 1 if winner is None or dealer_won else 0
        self._others_won = []
        if not keeps:
            self._passes += 1
        return keeps

    # -- the position (runtime/game/position.py) ------------------------------------

    def _scored_position(self) -> dict[str, Any]:
        """The scored game's table as plain data: the dead wall, the counters,
        each seat's declaration, streak, furiten and own discards."""
        deck = self.spec.deck
        return {"dead": " ".join(deck.codes(self._dead)), "honba": self._honba,
                "sticks": self._sticks, "deposits": self._deposits, "passes": self._passes,
                "declared": self._declared_as, "first_turn": self._first_turn,
                "streak": self._streak, "furiten": self._furiten,
                "thrown": [" ".join(deck.codes(t)) for t in self._thrown],
                "called": self._called, "kongs": self._kongs, "kong_seats": self._kong_seats,
                "flipped": self._flipped, "unflipped": self._unflipped,
                "replacement": self._replacement,
                "robbing": None if self._robbing is None else list(self._robbing),
                "pending": self._pending, "liable": self._liable, **self._red_position()}

    def _load_scored(self, doc: dict[str, Any]) -> None:
        deck = self.spec.deck
        n = self.spec.players

        def tiles(text: str) -> list[int]:
            return [deck.by_code[c].index for c in text.split()]

        def by_seat(values: list[Any], kind: type) -> list[Any]:
            if len(values) != n:
                raise ValueError(f"{len(values)} seats for {n} players")
            return [kind(v) for v in values]

        self._dead = tiles(doc["dead"])
        self._honba, self._sticks = int(doc["honba"]), int(doc["sticks"])
        self._deposits, self._passes = int(doc["deposits"]), int(doc["passes"])
        self._declared_as = by_seat(doc["declared"], str)
        self._first_turn = by_seat(doc["first_turn"], bool)
        self._streak = by_seat(doc["streak"], bool)
        self._furiten = by_seat(doc["furiten"], str)
        self._thrown = [tiles(t) for t in by_seat(doc["thrown"], str)]
        self._called, self._kongs = bool(doc["called"]), int(doc["kongs"])
        self._replacement = bool(doc["replacement"])
        self._kong_seats = [int(s) for s in doc.get("kong_seats", [])]
        self._flipped = int(doc.get("flipped", self._kongs))
        self._unflipped = int(doc.get("unflipped", 0))
        robbing = doc["robbing"]
        self._robbing = None if robbing is None else (int(robbing[0]), int(robbing[1]))
        self._pending = int(doc.get("pending", -1))
        self._load_red(doc)
        self._liable = [{str(k): int(v) for k, v in d.items()}
                        for d in by_seat(doc.get("liable", [{}] * n), dict)]

    # -- what the State's parts call on each other -----------------------------

    def _discard(self, seat: int, tile: int, red: bool = False) -> None:
        raise NotImplementedError  # State

    def _pay(self, payments: list[ScoreEvent]) -> None:
        raise NotImplementedError  # Endings

    def _end_round(self, winner: int | None, discarder: int | None, self_drawn: bool) -> None:
        raise NotImplementedError  # Endings
