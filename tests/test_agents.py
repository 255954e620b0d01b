"""Agents: the random agent, and the greedy agent that plays by tiles away."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from jongg.runtime.agents import planner as planner_module
from jongg.runtime.agents.bots import GreedyAgent, RandomAgent
from jongg.runtime.agents.planner import TOP_K, Plan, RackPlanner, _less
from jongg.runtime.agents.play import play_first_round, play_match
from jongg.runtime.game.actions import Action
from jongg.runtime.game.game import Game
from jongg.runtime.game.seat import SeatQueries
from jongg.runtime.game.state import State
from jongg.runtime.game.view import Observation, OwnSeat
from jongg.runtime.hand import Hand
from jongg.runtime.matching.reference import ReferenceMatcher

from .rig import act, game, rigged, texts


def _round_wins(name: str, agents: list[str], seeds: range) -> list[int]:
    g = game(name, 4)
    wins = [0] * 4
    for seed in seeds:
        record, _ = play_match(g, seed, agents, check=True)
        assert record.violations == []
        for r in record.rounds:
            if r["winner"] is not None:
                wins[int(r["winner"])] += 1  # type: ignore[call-overload]
    return wins


@pytest.mark.parametrize("name,matches", [("nymj", 6), ("mjcg", 3)])
def test_the_greedy_agent_beats_random_agents_by_a_wide_margin(name: str, matches: int) -> None:
    """Greedy in the first seat, random in the others, seeded: the greedy seat
    wins more rounds than the three random seats together, several times over."""
    wins = _round_wins(name, ["greedy", "random"], range(matches))
    assert wins[0] >= 5
    assert wins[0] >= 3 * max(1, sum(wins[1:]))


def test_the_greedy_agent_declares_and_claims_a_win_when_it_can() -> None:
    g = game("nymj", 4)
    state = rigged(g, {0: "R1 R1 R1 R2 R3 R4 B1 B1 B1 G5 G5"})
    agent = GreedyAgent(0, 0)
    assert agent.act(state.observe(0), state.legal_actions(0)).verb == "declare"
    state = rigged(g, {0: "R1 R2 R3 R4 R5 B1 B2 B3 B4 B5 G5",
                       1: "G1 G1 G1 G2 G3 G4 S1 S1 S1 R1"})
    act(state, 0, "discard R1")  # the card seat 1's pair waits for
    assert 1 in state.current_players()
    choice = GreedyAgent(0, 1).act(state.observe(1), state.legal_actions(1))
    assert choice.text(g.spec.deck) == "claim mahjong"


def test_the_greedy_agent_keeps_what_brings_it_nearest() -> None:
    """It discards the card no set or pair can use, not one of its sets."""
    g = game("nymj", 4)
    state = rigged(g, {0: "R1 R1 R1 R2 R3 R4 B1 B1 B1 G5 E3"})
    assert "declare" not in texts(state, 0)
    choice = GreedyAgent(0, 0).act(state.observe(0), state.legal_actions(0))
    assert choice.text(g.spec.deck) in ("discard G5", "discard E3")


def test_the_greedy_agent_passes_no_joker_and_its_least_useful_tiles() -> None:
    g = game("mjcg", 4)
    state = rigged(g, {0: "1C 1C 1C 1C 2B 2B 2B J N N N 5D 9D 7B"}, dealer=0)
    agent = GreedyAgent(0, 0)
    chosen = []
    for _ in range(3):
        action = agent.act(state.observe(0), state.legal_actions(0))
        chosen.append(action.text(g.spec.deck))
        state.apply(0, action)
    assert sorted(chosen) == ["pass 5D", "pass 7B", "pass 9D"]


def test_agents_draw_their_randomness_from_the_seed() -> None:
    g = game("nymj", 4)
    state = g.new_match(1)
    legal = state.legal_actions(0)
    picks = [RandomAgent(5, 0).act(state.observe(0), legal) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    again = [RandomAgent(5, 0).rng.random(), RandomAgent(6, 0).rng.random()]
    assert again[0] != again[1]


def test_simulate_runs_greedy_and_random_seats(capsys: pytest.CaptureFixture[str]) -> None:
    """`jongg simulate --agents greedy,random` on the Card Game: the greedy
    seat takes the match, no invariant breaks."""
    import json

    from jongg.cli import main

    assert main(["simulate", "mjcg", "--games", "2", "--agents", "greedy,random", "--json",
                 "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["violations"] == 0 and result["agents"] == ["greedy", "random"]
    seats = result["seats"]
    assert seats[0]["round_wins"] >= 3 and seats[0]["match_wins"] == 2


class _Counting:
    """A judge that counts what the game and its agents ask of it."""

    def __init__(self, judge: Any):
        self.judge, self.card = judge, judge.card
        self.asked: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        self.asked[name] += 1
        return getattr(self.judge, name)


def _greedy_siamese(g: Any, counting: _Counting, seed: int = 5
                    ) -> Iterator[tuple[State, Observation, list[Action]]]:
    """Each decision of a seeded Siamese match between greedy seats, on a
    counting judge: (state, what the seat sees, its legal actions), the
    seat's choice applied once the caller has looked."""
    state = Game(g.spec, counting).new_match(seed)
    agents = [GreedyAgent(seed, seat) for seat in range(2)]
    while not state.is_terminal():
        seat = state.current_players()[0]
        seen = state.observe(seat)
        legal = state.legal_actions(seat)
        yield state, seen, legal
        state.apply(seat, agents[seat].act(seen, legal))


def _planning_turns(g: Any, counting: _Counting, count: int) -> Iterator[Observation]:
    """What the seat sees at the first `count` turns of that seeded match
    where it has won no rack yet (both racks still to plan)."""
    found = 0
    for state, seen, _ in _greedy_siamese(g, counting):
        if found == count:
            return
        if state.step.value == "turn" and seen.me.mahjongs == 0:
            found += 1
            yield seen


def test_the_greedy_agent_weighs_every_discard_in_one_pass() -> None:
    """Before a discard the agent asks once for the hand less each tile
    (Matcher.discard_nearness), not once per tile; and it plays the same
    match on the reference matcher, which answers tile by tile."""
    g = game("nymj", 4)
    counting = _Counting(g.matcher)
    played = play_first_round(Game(g.spec, counting), 3, ["greedy"]).state
    assert counting.asked["discard_nearness"] > 0
    assert counting.asked["scores"] < 3 * counting.asked["discard_nearness"]
    # a round, not the match: the reference takes a second or two a greedy decision
    again = play_first_round(Game(g.spec, ReferenceMatcher(g.matcher.card)), 3,
                             ["greedy"]).state
    assert played.results and (again.results, again.decisions) == \
        (played.results, played.decisions)


def test_the_greedy_agent_weighs_each_discard_in_one_call_and_keeps_the_hand_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every time the greedy agent weighs its discards it asks the matcher
    once for the hand less each tile, even when it knows all but one of
    those hands (it builds no hand per tile to find out); of them it keeps
    the hand its discard leaves, which the claim windows ask about next.
    A hand's own nearness it asks as such (Matcher.nearness), never
    reading every line's scores; and it reads its tiles once a decision."""
    g = game("mjcg-card", 4)
    counting = _Counting(g.matcher)
    weighings, scored = [0], [0]
    weigh, act_as = GreedyAgent._discard_nearness, GreedyAgent.act

    def weighed(self: GreedyAgent, seen: Any, tiles: set[int]) -> Any:
        weighings[0] += 1
        return weigh(self, seen, tiles)

    def acted(self: GreedyAgent, seen: Any, legal: list[Any]) -> Any:
        before, read = counting.asked["scores"], len(reads)
        action = act_as(self, seen, legal)
        scored[0] += counting.asked["scores"] - before
        assert len(reads) - read <= 1  # its tiles read once a decision
        if action.verb == "discard":
            assert self._hand(seen).minus(action.tile) in self._known(seen)
        return action

    reads: list[object] = []
    concealed = SeatQueries.concealed
    monkeypatch.setattr(GreedyAgent, "_discard_nearness", weighed)
    monkeypatch.setattr(GreedyAgent, "act", acted)
    monkeypatch.setattr(OwnSeat, "concealed", lambda me: reads.append(me) or concealed(me))
    played = play_match(Game(g.spec, counting), 1, ["greedy"])[1]
    assert played.is_terminal() and weighings[0] > 100
    assert counting.asked["discard_nearness"] == weighings[0]
    assert counting.asked["nearness"] > 100 and scored[0] == 0


def test_a_claim_window_asks_the_matcher_once_per_exposures() -> None:
    """Which lines a hand may make depends on its exposures alone: a claim
    window asks it of each set beside a rack's exposures
    (Matcher.allows_beside), the matcher keeps the answer (Matcher.allows)
    for every match it serves, and it is the reference's answer."""
    g = game("mjcg", 4)
    counting = _Counting(g.matcher)
    played = Game(g.spec, counting)
    play_match(played, 1, ["random"])
    asked = counting.asked["allows_beside"]
    assert asked > 0 and g.matcher._allowed
    reference = ReferenceMatcher(g.matcher.card)
    for exposures in list(g.matcher._allowed)[:40]:
        assert g.matcher.allows(exposures[0], open_hands=exposures[1]) == \
            reference.allows(exposures[0], open_hands=exposures[1])


def test_whether_a_line_takes_exposures_is_answered_without_cutting_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Most exposures a claim window asks about are never held: whether some
    line takes them (Matcher.allows) is read off the table's columns without
    cutting the table down to the columns they sit on, and it is the
    reference's answer. A hand then scored with them has their placing cut,
    not worked out again."""
    g = game("mjcg-advanced", 4)
    columns = g.matcher.columns
    _, state = play_match(Game(g.spec, g.matcher), 2, ["random"])
    # what its claim windows asked: a set beside each rack's exposures
    asked = [(tuple(sorted((*held, tuple(sorted((tile, *tiles)))))), g.spec.open_hands)
             for held, tile, tiles in list(state._rules._fits._known)[:40]]
    reference = ReferenceMatcher(g.matcher.card)
    g.matcher._allowed.clear()
    columns._seats.clear()
    placings: list[Any] = []
    place = type(columns)._place
    monkeypatch.setattr(type(columns), "_place",
                        lambda self, *args: placings.append(args) or place(self, *args))
    answers = [g.matcher.allows(e, open_hands=o) for e, o in asked]
    assert not columns._seats
    assert any(answers) and not all(answers)
    assert answers == [reference.allows(e, open_hands=o) for e, o in asked]
    held, open_hands = next(key for key, ok in zip(asked, answers, strict=True) if ok)
    placed = len(placings)
    assert g.matcher.scores(Hand((), held), open_hands=open_hands)
    assert len(placings) == placed and columns._seats


def test_a_rack_plan_fills_a_line_only_where_it_changes_the_answer() -> None:
    """Filling a line (Matcher.explain) is the costly step of planning
    several racks: a plan compared by its measure alone fills none on the
    last rack of its chain (nothing is planned on what it leaves), and the
    plan with its detail has the same measure and lines."""
    g = game("siamese", 2)
    counting = _Counting(g.matcher)
    checked = 0
    for seen in _planning_turns(g, counting, 20):
        planner = RackPlanner()
        pool = seen.me.concealed()
        before = counting.asked["explain"]
        away = planner.away(seen, pool)
        # two racks to win: the first rack's options are filled, the second's never
        assert counting.asked["explain"] - before <= TOP_K
        plan = planner.plan(seen, pool)
        assert (plan.away, len(plan.lines)) == (away, 2)
        assert sum(plan.reserved.values()) <= len(pool) and set(plan.missing) <= {0, 1}
        checked += 1
    assert checked == 20


def test_a_chain_plans_the_next_rack_on_the_sorted_tiles_left() -> None:
    """The racks after an option are planned on the pool less the tiles it
    takes, as sorted tiles (no multiset made and sorted again per option)."""
    rng = random.Random(7)
    for _ in range(200):
        pool = tuple(sorted(rng.choices(range(12), k=rng.randrange(30))))
        taken = Counter(rng.sample(pool, rng.randrange(len(pool) + 1)))
        assert _less(pool, taken) == tuple(sorted((Counter(pool) - taken).elements()))


def test_a_plans_nearest_lines_are_the_rules_nearest_first_few(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner ranks each hand's lines by one int a line instead of a
    tuple sorted for every line: the same lines, in the same order, as
    Rules.nearest for every hand it asks in a seeded Siamese match."""
    g = game("siamese", 2)
    asked: list[tuple[Any, Hand, frozenset[int] | None, list[tuple[int, int, int]]]] = []
    ranked = planner_module._nearest

    def kept(seen: Any, hand: Hand, allowed: frozenset[int] | None
             ) -> list[tuple[int, int, int]]:
        found = ranked(seen, hand, allowed)
        asked.append((seen.rules, hand, allowed, found))
        return found

    monkeypatch.setattr(planner_module, "_nearest", kept)
    # a matcher of its own: the rules' memos (the planner's among them) start empty
    play_first_round(Game(g.spec, _Counting(g.matcher)), 3, ["greedy"])
    assert len(asked) > 100 and any(allowed is not None for _, _, allowed, _ in asked)
    for rules, hand, allowed, found in asked:
        assert found == rules.nearest(hand, allowed)[:TOP_K]


def test_a_plan_weighed_against_a_bound_is_exact_below_it() -> None:
    """A claim, a joker exchange or a discard is weighed only against the
    best plan so far: away(below=b) is the plan's measure when that is less
    than b and b or more otherwise, and options that cannot come under b
    are not filled (fewer fillings than the exact measure takes)."""
    g = game("siamese", 2)
    counting = _Counting(g.matcher)
    fillings = {"exact": 0, "bounded": 0}
    checked = 0
    for seen in _planning_turns(g, counting, 30):
        pool = seen.me.concealed()
        for tile in sorted(set(pool))[:3]:
            less = list(pool)
            less.remove(tile)
            g.matcher._explained.clear()
            seen.rules._memos.clear()  # the planner's, kept with the rules
            before = counting.asked["explain"]
            exact = RackPlanner().away(seen, tuple(less))
            fillings["exact"] += counting.asked["explain"] - before
            for below in (exact - 1, exact, exact + 1, exact + 5):
                g.matcher._explained.clear()
                seen.rules._memos.clear()  # the planner's, kept with the rules
                before = counting.asked["explain"]
                bounded = RackPlanner().away(seen, tuple(less), below=below)
                if below == exact:
                    fillings["bounded"] += counting.asked["explain"] - before
                assert bounded == exact if exact < below else bounded >= below
        checked += 1
    assert checked == 30
    assert fillings["bounded"] < fillings["exact"]


def test_a_claim_window_reads_a_racks_missing_tiles_only_as_asked() -> None:
    """A claim window wants a plan's measure, and a rack's missing tiles
    only to ask whether the discard is among them: the plan without its
    detail answers that (wants()) as plan.missing with the detail does,
    for every rack and tile, filling a line only when a slot of its
    variation could take the tile."""
    g = game("siamese", 2)
    counting = _Counting(g.matcher)
    windows = unfilled = 0
    for _, seen, legal in _greedy_siamese(g, counting):
        if windows == 25:
            break
        if seen.discard is not None and any(a.verb == "claim" and a.tiles for a in legal):
            pool = seen.me.concealed()
            planner = RackPlanner()
            lazy = planner.plan(seen, pool, detail=False)
            full = RackPlanner().plan(seen, pool)
            assert lazy == Plan(full.away, full.lines)
            before = counting.asked["explain"]
            tile = seen.discard[1]
            racks = {a.number for a in legal if a.verb == "claim" and a.tiles}
            wanted = [planner.wants(seen, lazy, r, tile) for r in sorted(racks)]
            unfilled += counting.asked["explain"] == before
            code = g.spec.deck.code
            assert wanted == [code(tile) in full.missing.get(r, ()) for r in sorted(racks)]
            for r in seen.me.live_racks():
                for t in set(pool):
                    assert planner.wants(seen, lazy, r, t) == (code(t) in full.missing.get(r, ()))
            windows += 1
    assert windows == 25 and unfilled > 0


def test_a_rack_plan_leaves_unfilled_an_option_its_other_racks_cannot_lift(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer tiles never bring a rack nearer, so the racks planned after an
    option are at least as far as on the whole pool: an option whose tiles
    away with that floor cannot beat the best plan so far is not filled. The
    plans are those of filling every option, with fewer fillings."""
    g = game("siamese", 2)
    counting = _Counting(g.matcher)
    fillings = {"floor": 0, "none": 0}
    checked = 0
    for seen in _planning_turns(g, counting, 40):
        pool = seen.me.concealed()
        plans = []
        for floor in fillings:
            if floor == "none":
                monkeypatch.setattr("jongg.runtime.agents.planner._least_rest",
                                    lambda *_: 0)
            g.matcher._explained.clear()
            seen.rules._memos.clear()  # the planner's, kept with the rules
            before = counting.asked["explain"]
            plans.append(RackPlanner().plan(seen, pool))
            fillings[floor] += counting.asked["explain"] - before
            monkeypatch.undo()
        assert plans[0] == plans[1]
        checked += 1
    assert checked == 40
    assert fillings["floor"] < fillings["none"]


def test_a_claim_windows_exposure_masks_are_kept_per_exposure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim window asks which columns a rack's exposures, each set it
    could make beside them, could sit on: each exposure's mask is worked out
    once, and the answers are those worked out afresh."""
    g = game("imperial-siamese", 4)
    columns, joker = g.matcher.columns, g.matcher.joker
    asked: list[tuple[tuple[int, ...], ...]] = []
    able = type(columns).able

    def kept(self: Any, exposures: Any, joker: int | None) -> int:
        asked.append(tuple(map(tuple, exposures)))
        return able(self, exposures, joker)

    monkeypatch.setattr(type(columns), "able", kept)
    play_match(g, 2, ["random"])
    assert len(asked) > 50
    made: list[object] = []
    seat_mask = type(columns)._seat_mask
    monkeypatch.setattr(type(columns), "_seat_mask", lambda self, key: made.append(key) or
                        seat_mask(self, key))
    for exposures in asked:
        assert able(columns, exposures, joker) == _mask_afresh(columns, exposures, joker)
    assert made == []  # every exposure's mask was kept from the match


def _mask_afresh(columns: Any, exposures: Sequence[Sequence[int]], joker: int | None) -> int:
    """Columns.able() the long way: each exposure's groups looked up anew."""
    index = columns._seat_index
    mask, kinds = columns._every, set()
    for exposure in exposures:
        named = {t for t in exposure if t != joker}
        if len(named) != 1 or named & kinds:
            return 0
        kinds |= named
        here = 0
        for w in (True,) if joker in exposure else (True, False):
            key = (next(iter(named)), len(exposure), w)
            here |= sum(1 << int(c) for c in {*index.fits.get(key, ()),
                                               *index.partial.get(key, ((),))[0]})
        mask &= here
    return mask


def test_a_claim_is_chosen_as_weighing_every_set_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """A set claimed brings a hand at most one tile nearer a line, and no
    nearer than the discard held concealed would: so the greedy agent
    weighs no set when the discard held would not bring the hand nearer,
    and once a set does bring it a tile nearer it weighs no more. It
    chooses what weighing every set would, and stops early in some windows."""
    chosen = GreedyAgent._claim
    stopped, skipped = [0], [0]

    def checked(self: GreedyAgent, seen: Any, legal: list[Any]) -> Any:
        assert seen.discard is not None
        tile = seen.discard[1]
        now = self.nearness(seen, seen.me.hand())
        held = self.nearness(seen, self._hand(seen).plus(tile))
        best, every = now, next(a for a in legal if a.verb == "pass")
        sets = [a for a in legal if a.verb == "claim" and a.tiles]
        for action in sets:
            after = self.nearness(seen, self._hand(seen).exposing(tile, action.tiles))
            assert after[0] >= max(now[0] - 1, held[0])
            if after[0] < best[0]:
                best, every = after, action
        weighed.clear()
        answer = chosen(self, seen, legal)
        assert answer == every
        exposing = [h for h in weighed if len(h.exposures) > len(seen.me.exposures)]
        if sets and held[0] >= now[0]:  # no set can bring the hand nearer
            assert not exposing
            skipped[0] += 1
        if best[0] == now[0] - 1 and every is not sets[-1]:  # a later set need not be weighed
            assert len(exposing) < len(sets)
            stopped[0] += 1
        return answer

    weighed: list[object] = []
    nearness = GreedyAgent.nearness
    monkeypatch.setattr(GreedyAgent, "nearness", lambda self, seen, hand: weighed.append(hand)
                        or nearness(self, seen, hand))
    monkeypatch.setattr(GreedyAgent, "_claim", checked)
    for seed in range(3):
        play_match(game("mjcg-card", 4), seed, ["greedy"])
    assert stopped[0] > 0 and skipped[0] > 0
