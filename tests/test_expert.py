"""The expert agent: lines weighed by the odds of completing them and their
value, the Charleston with purpose, claims that pay, defence, racks, strict
mode, and its margin over the greedy agent on seeded deals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from jongg.runs.standings import Played, from_record, margin, schedule
from jongg.runtime.agents.expert import FAR, ExpertAgent, Reading
from jongg.runtime.agents.odds import odds, poisson_at_least
from jongg.runtime.agents.outlook import Prospects, card_table, fits, seat
from jongg.runtime.agents.payoff import win_pays
from jongg.runtime.agents.play import play_match
from jongg.runtime.agents.registry import SHIPPED
from jongg.runtime.agents.shapes import Shapes
from jongg.runtime.agents.unseen import Unseen
from jongg.runtime.game import phases
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.spec import Courtesy, Direction, Pass, Phase, Vote
from jongg.runtime.game.view import Observation

from .rig import act, game, rigged, texts


def _choice(state_seen: Observation, legal: Sequence[object], seat: int = 0) -> str:
    agent = ExpertAgent(0, seat)
    action = agent.act(state_seen, list(legal))  # type: ignore[arg-type]
    return action.text(state_seen.rules.deck)


def _prospects(g: Game, hand: str, unseen: dict[str, int] | None = None,
               draws: float = 20.0) -> tuple[Prospects, list[str]]:
    """The prospects of a concealed hand; `unseen` overrides the copies not
    seen of some kinds (the rest: all but those held)."""
    deck = g.spec.deck
    table = card_table(g.matcher.card)
    counts = np.zeros(len(deck.kinds), dtype=np.int16)
    for code in hand.split():
        counts[deck.kind(code).index] += 1
    left = [k.copies - int(counts[k.index]) for k in deck.kinds]
    for code, n in (unseen or {}).items():
        left[deck.kind(code).index] = n
    joker = deck.joker_index
    jokers = 0
    if joker is not None:
        jokers, counts[joker] = int(counts[joker]), 0
    chances = odds(tuple(left), draws, g.spec.players, joker)
    p = Prospects(table, seat(table, (), joker, False), chances, counts, jokers)
    return p, [g.matcher.card.lines[li].id for li in table.line[p.rows]]


def test_expert_is_a_shipped_agent() -> None:
    assert SHIPPED["expert"] is ExpertAgent


# -- the odds ----------------------------------------------------------------------


def test_poisson_odds_are_read_off_the_grid() -> None:
    rate = np.array([0.0, 1.0, 2.5, 2.5])
    need = np.array([0, 1, 2, 20])
    found = poisson_at_least(rate, need)
    assert found[0] == 1.0 and found[3] == 0.0
    assert found[1] == pytest.approx(1 - np.exp(-1.0), abs=1e-3)
    assert found[2] == pytest.approx(1 - np.exp(-2.5) * 3.5, abs=1e-3)


def test_a_line_whose_missing_tiles_are_all_seen_has_no_chance() -> None:
    """honor-1 (NNNN EEEE WW SSSS) missing its pair of West: live, it has a
    chance; with every other West seen, none (a pair takes no joker)."""
    g = game("mjcg-card", 4)
    hand = "N N N N E E E E S S S S 1B"
    live, ids = _prospects(g, hand)
    dead, _ = _prospects(g, hand, {"W": 0})
    at = ids.index("honor-1")
    assert live.chance[at] > 0.05
    assert dead.chance[at] < 1e-6


def test_fewer_draws_left_and_fewer_live_copies_lower_the_odds() -> None:
    g = game("mjcg-card", 4)
    hand = "N N N N E E E E S S S S W"
    many, ids = _prospects(g, hand, draws=20)
    few, _ = _prospects(g, hand, draws=4)
    scarce, _ = _prospects(g, hand, {"W": 1}, draws=20)
    at = ids.index("honor-1")
    assert many.chance[at] > scarce.chance[at] > 0
    assert many.chance[at] > few.chance[at] > 0


def test_each_kind_reads_the_odds_of_its_copies_left() -> None:
    """The odds are worked out once per number of copies left: every kind
    reads P(Poisson(copies x draws / unseen) >= a), a claimable kind at the
    rate raised by the others' discards, the joker's natural row at none."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    joker = deck.joker_index
    unseen = tuple((k.index * 7) % (k.copies + 1) for k in deck.kinds)
    chances = odds(unseen, 18.0, 4, joker)
    ratio = 18.0 / sum(unseen)
    for kind, left in enumerate(unseen):
        rate = 0.0 if kind == joker else left * ratio
        for a, claimed in ((1, False), (2, False), (2, True)):
            at = rate * (1 + 0.4 * 3) if claimed else rate
            sf = 1 - sum(np.exp(-at) * at ** i / math.factorial(i) for i in range(a))
            grid = chances.log_claimed if claimed else chances.log_sf
            assert np.exp(grid[chances.cols[kind] + a]) == pytest.approx(sf, abs=2e-3), \
                (kind, a)
    assert chances.joker_rate == pytest.approx(unseen[joker] * ratio)


def test_a_claim_seats_its_set_as_the_whole_card_would() -> None:
    """fits() on a few variations says what seat() says of them."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    table = card_table(g.matcher.card)
    joker = deck.joker_index
    rows = np.arange(0, len(table.line), 7)
    for text in (["F F F F"], ["F F F F", "3B 3B J 3B"], ["N N N"], ["1B 2B 3B"],
                 ["2C 2C 2C 2C 2C"], ["RD RD RD", "GD GD GD GD"]):
        exposures = tuple(tuple(deck.kind(c).index for c in e.split()) for e in text)
        for open_hands in (False, True):
            whole = seat(table, exposures, joker, open_hands).open[rows]
            assert (fits(table, exposures, joker, open_hands, rows) == whole).all(), text


def test_losing_a_tile_is_worked_out_as_if_from_scratch() -> None:
    """Prospects.without(t) agrees with the prospects of the hand without t
    (on the variations both weigh), jokers included."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    hand = "F F 2B 2B 2B 4C 4C 6D 6D 8B 8B 8B J N"
    codes = hand.split(" ")
    left = {k.code: k.copies - codes.count(k.code) for k in deck.kinds}
    p, _ = _prospects(g, " ".join(codes), left)
    tiles = sorted({deck.kind(c).index for c in codes})
    after = p.without(tiles, deck.joker_index)
    compared = 0
    for i, t in enumerate(tiles):
        rest = list(codes)
        rest.remove(deck.code(t))
        fresh, _ = _prospects(g, " ".join(rest), left)
        at = {int(r): j for j, r in enumerate(fresh.rows)}
        for row, variation in enumerate(p.rows.tolist()):
            if variation in at:
                assert after[i, row] == pytest.approx(fresh.chance[at[variation]], abs=1e-9)
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("hand", ["F F 2B 2B 2B 4C 4C 6D 6D 8B 8B 8B J N",
                                  "N N N N E E E E S S S S W J",
                                  "N N N N E E E E S S S S W 9C"])
def test_the_hands_own_chance_worked_out_with_its_losses_is_the_same(hand: str) -> None:
    """The hand's own chance (what defence weighs against) worked out in
    the same pass as what losing each tile costs is the chance worked out
    alone, value for value, and the losses are unchanged: a joker held and
    lost, and none held where a jokerless win pays more (MJCG-26)."""
    g = game("mjcg-card", 4)
    joker = g.spec.deck.joker_index
    seen = rigged(g, {0: hand}, dealer=0, skip_phases=True).observe(0)
    agent = ExpertAgent(0, 0)
    agent._learn(seen.rules)
    together, alone = Reading(agent, seen).prospects, Reading(agent, seen).prospects
    tiles = [t for t, n in enumerate(seen.me.counts) if n]
    paid = together.paid_without(tiles, joker, as_is=True)
    assert together.premium  # a jokerless win pays double on the card (MJCG-26)
    assert "chance" in together.__dict__  # worked out in the pass
    assert np.array_equal(together.chance, alone.chance)
    assert np.array_equal(paid, alone.paid_without(tiles, joker))


def test_shortfalls_updated_tile_by_tile_agree_with_a_fresh_count() -> None:
    """A seat's shortfalls are updated from the last counts asked (a draw,
    a discard, a claim's tile between asks); each update agrees with the
    shortfalls counted afresh, exposures seated or not."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    table = card_table(g.matcher.card)
    joker = deck.joker_index
    rng = np.random.default_rng(7)
    for exposures in ((), ((deck.kind("F").index,) * 3,)):
        kept = seat(table, exposures, joker, False)
        counts = np.zeros(len(deck.kinds), dtype=np.int16)
        for _ in range(60):
            kind = int(rng.integers(len(deck.kinds)))
            counts[kind] = max(0, counts[kind] + int(rng.choice([-1, 1, 2])))
            short, wild = kept.shortfalls(counts)
            fresh = seat(table, exposures, joker, False).shortfalls(counts)
            assert (short == fresh[0]).all() and (wild == fresh[1]).all()


@pytest.mark.parametrize("variant, players", [("mjcg-card", 4), ("nymj", 4), ("siamese", 2),
                                              ("imperial-siamese", 4)])
def test_the_kept_count_of_unseen_tiles_is_a_fresh_count_at_every_decision(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiles a seat has not seen, kept and updated between its decisions
    (draws, discards, claims, exchanges, passes, new deals), are the ones
    its observation counts afresh, kind for kind, at every decision of
    seeded matches (Siamese racks included)."""
    kept = Unseen.of
    asked: list[Observation] = []

    def checked(self: Unseen, seen: Observation) -> tuple[int, ...]:
        unseen = kept(self, seen)
        assert unseen == seen.unseen
        asked.append(seen)
        return unseen

    monkeypatch.setattr(Unseen, "of", checked)
    g = game(variant, players)
    play_match(g, 0, ["expert"])
    assert len({id(seen) for seen in asked}) > 100


# -- decisions -----------------------------------------------------------------------


def test_the_expert_declares_and_claims_a_win_only_when_true() -> None:
    g = game("nymj", 4)
    state = rigged(g, {0: "R1 R1 R1 R2 R3 R4 B1 B1 B1 G5 G5"})
    assert _choice(state.observe(0), state.legal_actions(0)) == "declare"
    state = rigged(g, {0: "R1 R2 R3 R4 R5 B1 B2 B3 B4 B5 G5",
                       1: "G1 G1 G1 G2 G3 G4 S1 S1 S1 R1"})
    act(state, 0, "discard R1")
    assert _choice(state.observe(1), state.legal_actions(1), 1) == "claim mahjong"
    # strict mode offers false claims and declarations: the expert makes none
    state = rigged(g, {0: "R1 R1 R1 R2 R3 R5 B1 B1 B1 G5 G4"}, mode=Mode.STRICT)
    assert "declare" in texts(state, 0)
    assert _choice(state.observe(0), state.legal_actions(0)).startswith("discard")


@pytest.mark.parametrize("variant", ["mjcg-card", "nymj"])
def test_in_strict_mode_the_expert_makes_no_mistake(variant: str) -> None:
    """Whole strict-mode matches of experts: no penalty is ever paid."""
    g = game(variant, 4)
    for seed in range(1):
        record, state = play_match(g, seed, ["expert"], mode=Mode.STRICT, check=True)
        assert record.violations == []
        assert not [e for e in state.events if e.kind is EventKind.PENALISED]


def test_the_expert_defends_when_far_from_winning() -> None:
    """Far from every line, it would part with 4C; once an opponent shows
    kongs of flowers and 3B (FFFF 3333a + 4444b = 77c and its kin), it keeps
    the 4C they need and lets a tile go that they need less."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    hand = "4C RD 2B 9D 8D 9B E 4D 1D 8B 7C S 9C 3C"
    calm = rigged(g, {0: hand}, dealer=0, skip_phases=True)
    assert _choice(calm.observe(0), calm.legal_actions(0)) == "discard 4C"
    shown = rigged(g, {0: hand}, exposures={1: ["F F F F", "3B 3B 3B 3B"]}, dealer=0,
                   skip_phases=True)
    agent = ExpertAgent(0, 0)
    seen = shown.observe(0)
    chosen = agent.act(seen, shown.legal_actions(0))
    danger = agent._danger(seen)
    assert danger is not None
    assert agent._read(seen).best_chance() < FAR
    assert chosen.tile != deck.kind("4C").index
    assert danger[deck.kind("4C").index] > danger[chosen.tile]
    assert {deck.code(k) for k in np.flatnonzero(danger == danger.max())} >= {"4C", "7C"}


def test_every_seat_reads_an_opponents_exposures_once_and_alike() -> None:
    """What an opponent's exposures say they need is read once, kept with
    the card's table, and every other seat defends by the same reading: it
    is what the exposures, seated afresh, say."""
    g = game("mjcg-card", 4)
    shown = ["F F F F", "3B 3B 3B 3B"]
    state = rigged(g, {0: "4C RD 2B 9D 8D 9B E 4D 1D 8B 7C S 9C 3C"},
                   exposures={1: shown}, dealer=0, skip_phases=True)
    first, second = ExpertAgent(0, 0), ExpertAgent(1, 2)
    first.act(state.observe(0), state.legal_actions(0))
    table = first.table
    kept = len(table.shares)
    read = first._danger(state.observe(0))
    other = state.observe(2)
    second._learn(other.rules)
    again = second._danger(other)
    assert len(table.shares) == kept  # the second seat worked nothing out again
    deck, joker = g.spec.deck, g.spec.deck.joker_index
    exposures = tuple(tuple(deck.kind(c).index for c in e.split()) for e in shown)
    fresh = seat(table, exposures, joker, g.spec.open_hands).users() * (8 / 14)
    assert read is not None and again is not None
    assert np.array_equal(read, fresh) and np.array_equal(again, fresh)


def test_among_tiles_no_line_can_use_the_one_an_opponent_needs_least_goes() -> None:
    """Near honor-1 (NNNN EEEE WW SSSS), the 4C and the 9D are each worth
    the hand as it is (no variation weighed has a slot for them): the one
    an opponent's exposures need goes last, whichever it is."""
    g = game("mjcg-card", 4)
    deck = g.spec.deck
    hand = "N N N N E E E E S S S W 4C 9D"
    for exposures, kept in ((["F F F F", "3B 3B 3B 3B"], "4C"), (["9B 9B 9B 9B"], "9D")):
        state = rigged(g, {0: hand}, exposures={1: exposures}, dealer=0, skip_phases=True)
        agent = ExpertAgent(0, 0)
        seen = state.observe(0)
        chosen = agent.act(seen, state.legal_actions(0))
        danger = agent._danger(seen)
        assert danger is not None and agent._read(seen).best_chance() >= FAR
        assert danger[deck.kind(kept).index] > danger[chosen.tile]
        assert chosen.text(deck) == f"discard {'9D' if kept == '4C' else '4C'}"


def test_after_a_draw_no_line_can_use_the_expert_keeps_its_joker() -> None:
    """Holding honor-1 but for a West and a South, a kong of North shown
    with a joker (so no jokerless win to hope for) and a joker in hand, it
    draws a 9D no line can use while an opponent shows kongs: of the tiles
    its lines have no slot for it lets the 9D go, never the joker (which
    fills no slot either, but may fill any)."""
    g = game("mjcg-card", 4)
    state = rigged(g, {0: "E E E E S S S W J",
                       3: "1B 2B 3B 4B 5B 6B 7B 8B 1C 2C 3C 4C 5C 6C"}, draws="9D",
                   exposures={0: ["N N N J"], 1: ["F F F F", "9B 9B 9B 9B"]}, dealer=3,
                   skip_phases=True)
    agent = ExpertAgent(0, 0)
    before = state.observe(0)  # the hand the last discard left
    p = agent._read(before).prospects
    agent._last = (before.me.hand(), p)
    assert not p.premium and float(p.chance.max()) >= FAR
    act(state, 3, "discard 1B")
    while state.current_players() != [0] or state.step.value != "turn":
        for other in state.current_players():
            act(state, other, "pass")
    seen = state.observe(0)
    assert agent._danger(seen) is not None
    assert _choice_of(agent, seen, state.legal_actions(0)) == "discard 9D"


def _choice_of(agent: ExpertAgent, seen: Observation, legal: Sequence[object]) -> str:
    action = agent.act(seen, list(legal))  # type: ignore[arg-type]
    return action.text(seen.rules.deck)


def test_the_expert_passes_what_its_lines_cannot_use_and_never_a_joker() -> None:
    g = game("mjcg-card", 4)
    state = rigged(g, {0: "N N N N E E E E S S S J 5B 9D"}, dealer=0)
    agent = ExpertAgent(0, 0)
    chosen = []
    while 0 in state.current_players() and state.step.value == "passing":
        action = agent.act(state.observe(0), state.legal_actions(0))
        chosen.append(action.text(g.spec.deck))
        state.apply(0, action)
    assert len(chosen) == 3
    assert "pass J" not in chosen
    assert {"pass 5B", "pass 9D"} <= set(chosen)


def test_the_expert_lets_its_joker_go_when_a_jokerless_win_pays_more() -> None:
    """MJCG-26: card play doubles a jokerless win. Holding honor-1 (NNNN
    EEEE WW SSSS) but for a West, whose pair no joker may fill, the joker
    adds nothing to the odds: the expert discards it (the same line, now
    won jokerless, pays double) rather than break a kong for it."""
    g = game("mjcg-card", 4)
    state = rigged(g, {0: "N N N N E E E E S S S S W J"}, dealer=0, skip_phases=True)
    assert _choice(state.observe(0), state.legal_actions(0)) == "discard J"
    reading = ExpertAgent(0, 0)
    seen = state.observe(0)
    reading.act(seen, state.legal_actions(0))
    p = reading._read(seen).prospects
    assert p.premium
    joker = g.spec.deck.joker_index
    at = [g.matcher.card.lines[li].id for li in p.table.line[p.rows]].index("honor-1")
    kept = p.paid_without([g.spec.deck.kind("S").index], joker)[0, at]
    let_go = p.paid_without([joker], joker)[0, at]
    assert let_go == pytest.approx(2 * kept)


def _beginner(*hands: str) -> tuple[Game, list[Observation], int]:
    """mjcg, East dealt each of these hands in turn (play begun), and the
    beginner's line."""
    g = game("mjcg", 4)
    seen = [rigged(g, {0: hand}, dealer=0, skip_phases=True).observe(0) for hand in hands]
    (li,) = card_table(g.matcher.card).structural
    return g, seen, li


def test_lines_of_free_groups_weigh_a_jokerless_win_too() -> None:
    """MJCG-23: the beginner's game doubles a jokerless win. Three kongs
    and a lone 4B want its pair, which no joker may fill: holding no joker,
    the line is weighed at what it pays jokerless, twice the jokered pay;
    holding one, at the jokered pay."""
    g, (bare, jokered), li = _beginner("1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 4B 9D",
                                       "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B J 4B 9D")
    rules = bare.rules
    line = rules.lines[li]
    shapes = Shapes(card_table(rules.judge.card), {li: win_pays(rules.spec, line, False)},
                    {li: win_pays(rules.spec, line, True)})
    for seen, paid in ((bare, 2.0), (jokered, 1.0)):
        hand = seen.me.hand().minus(g.spec.deck.kind("9D").index)
        odds, drawn = shapes.outlooks(rules, hand, seen.unseen, 20.0)[li]
        assert odds > 0
        assert shapes.values(rules, hand, seen.unseen, 20.0)[li] == \
            pytest.approx(paid * odds * shapes.pays[li].mixed(drawn))


def test_a_wait_a_discard_may_fill_is_paid_in_part_as_claimed() -> None:
    """MJCG-23: a self-drawn win pays double; MJCG-20: no discarded joker
    may be claimed. A lone 4B waits on its pair (MJCG-12: no joker), which
    another seat's discard may give: those wins are weighed at the claimed
    pay, in the share the discards add to the draws. A kong short of one waits on its
    last 3B, a 1B that frees its joker, or a joker, which only a draw
    brings: mostly self-drawn."""
    g, (pair, kong), li = _beginner("1B 1B 1B J 2B 2B 2B 2B 3B 3B 3B 3B 4B 9D",
                                    "1B 1B 1B J 2B 2B 2B 2B 3B 3B 3B 4B 4B 9D")
    rules = pair.rules
    deck = g.spec.deck
    pays = win_pays(rules.spec, rules.lines[li], False)
    assert pays.drawn == 2 * pays.claimed
    shapes = Shapes(card_table(rules.judge.card), {li: pays})
    others = 0.4 * (rules.spec.players - 1)  # the share of discards a claim may take
    nine = deck.kind("9D").index
    found = {}
    for name, seen, outs, claimable in ((("pair", pair, ["4B"], ["4B"])),
                                        ("kong", kong, ["1B", "3B", "J"], ["1B", "3B"])):
        hand = seen.me.hand().minus(nine)
        unseen = seen.unseen
        total = sum(unseen)
        drawn = 20.0 * sum(unseen[deck.kind(k).index] for k in outs) / total
        claimed = 20.0 * others * sum(unseen[deck.kind(k).index] for k in claimable) / total
        chance, share = shapes.outlooks(rules, hand, unseen, 20.0)[li]
        assert chance == pytest.approx(1 - math.exp(-drawn), rel=1e-3)  # read off a grid
        assert share == pytest.approx(drawn / (drawn + claimed))
        assert shapes.values(rules, hand, unseen, 20.0)[li] == \
            pytest.approx(chance * (share * pays.drawn + (1 - share) * pays.claimed))
        found[name] = share
    assert found["kong"] > 0.7 > 0.5 > found["pair"]


def _asked(seen: Observation, phase: Phase, step: str) -> str:
    """What the expert answers if this phase were under way."""
    rules = seen.rules
    legal = ([rules.action("vote", number=1), rules.action("vote", number=0)]
             if isinstance(phase, Vote) else phases.count_actions(rules, phase))
    return _choice(replace(seen, phase=phase, step=step), legal)


def test_blind_and_courtesy_counts_follow_the_worthless_tiles() -> None:
    """Holding honor-1 but for its West pair, with one odd tile: of a blind
    pass of three, two go on unseen (only one tile is worthless); a
    courtesy pass offers that one; a hand of odd tiles passes none blind."""
    g = game("mjcg-card", 4)
    near = rigged(g, {1: "N N N N E E E E S S S S 5B"}).observe(1)
    blind = Pass(Direction.LEFT, 3, blind=3)
    courtesy = Courtesy(Direction.ACROSS, 3)
    assert _asked(near, blind, "offering") == "blind 2"
    assert _asked(near, courtesy, "offering") == "offer 1"
    far = rigged(g, {1: "1B 5B 9B 2C 6C 8C 3D 7D 9D N RD GD E"}).observe(1)
    assert _asked(far, blind, "offering") == "blind 0"
    assert _asked(far, courtesy, "offering") == "offer 3"


def test_votes_for_a_second_charleston_only_when_far() -> None:
    g = game("mjcg-card", 4)
    question = Vote("dance again", "any-yes", ())
    near = rigged(g, {1: "N N N N E E E E S S S S W"}).observe(1)
    far = rigged(g, {1: "1B 5B 9B 2C 6C 8C 3D 7D 9D N RD GD E"}).observe(1)
    assert _asked(near, question, "voting") == "vote no"
    assert _asked(far, question, "voting") == "vote yes"


def test_the_expert_claims_a_set_its_line_wants_and_lets_another_go() -> None:
    """Holding honor-1 but for a West and the fourth South: a South is
    claimed for the kong; a 9D, though it could make a pung, is let go."""
    g = game("mjcg-card", 4)
    for tile, hand, claims in (("S", "N N N N E E E E W S S S 9D", True),
                               ("9D", "N N N N E E E E W S S 9D 9D", False)):
        state = rigged(g, {0: f"{tile} 1B 2B 3B 4B 5B 6B 7B 8B 1C 2C 3C 4C 5C", 1: hand},
                       dealer=0, skip_phases=True)
        act(state, 0, f"discard {tile}")
        assert 1 in state.current_players()
        choice = _choice(state.observe(1), state.legal_actions(1), 1)
        assert choice.startswith("claim") == claims, choice


# -- strength ---------------------------------------------------------------------------


def _arena(variant: str, deals: int, seed: int, opponent: str = "greedy") -> list[Played]:
    g = game(variant)
    out = []
    for seating in schedule(["expert", opponent], g.spec.players, deals, seed):
        record, _ = play_match(g, seating.seed, seating.agents)
        out.append(from_record(seating, record))
    return out


@pytest.mark.slow  # a few deals a variant: the slow suite, beside the arena's margins
@pytest.mark.parametrize("variant,deals,seed", [("mjcg-card", 4, 1000), ("nymj", 4, 1000)])
def test_on_a_few_seeded_deals_the_expert_takes_more_than_greedy(variant: str, deals: int,
                                                                 seed: int) -> None:
    """Seats rotated, each deal in both lineups: more round wins and more
    points a round than greedy (a check on four deals, too few for an
    interval: the slow test proves the margins with one)."""
    found = _arena(variant, deals, seed)
    assert margin(found, "expert", "greedy", "wins").estimate > 0
    assert margin(found, "expert", "greedy").estimate > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant,deals", [("mjcg-card", 120), ("nymj", 120)])
def test_the_expert_beats_greedy_by_a_margin_whose_interval_excludes_zero(
        variant: str, deals: int) -> None:
    """Head to head on 120 seeded deals (seeds 1000-1119, each in both
    lineups, four seats: two each), the expert takes more round wins and
    more points a round than greedy, the 95% interval of each margin above
    zero: on mjcg-card, 8% [5%, 11%] of round wins and 9.6 [3.1, 16.0]
    points a round; on nymj, 3.5% [1.3%, 5.7%] and 0.24 [0.07, 0.41]
    (the figures docs/bots.md shows, from `jongg arena VARIANT --agents
    expert,greedy --rounds 120 --seed 1000`: the same matches)."""
    found = _arena(variant, deals, 1000)
    wins, points = margin(found, "expert", "greedy", "wins"), margin(found, "expert", "greedy")
    assert wins.low > 0, wins
    assert points.low > 0, points
