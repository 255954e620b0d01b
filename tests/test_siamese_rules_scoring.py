"""Siamese Mah Jongg, Royale and Imperial from Royale's scoring on (the match, digital
play, Atomic Cat): the runtime proves the rulebook's clauses, as
tests/test_siamese_rules.py does for the table, the racks and dead hands."""

from __future__ import annotations

import json

import pytest

from jongg.compiler.variant import resolve
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.invariants import violations
from jongg.runtime.game.payout import settle_match
from jongg.runtime.game.spec import Payout, Pledge
from jongg.runtime.game.state import Mode, Step

from .conftest import run_cli
from .rig import act, game, rigged, texts
from .siamese_table import (
    EVEN_3,
    EVEN_3_LESS_8B,
    HONOR_1,
    JUNK_13,
    JUNK_14,
    OTHER_14,
    awards,
    clause,
    declared,
    first,
    royale,
    siamese,
)

# -- Royale scoring and claims ----------------------------------------------------


@clause("SMJ-31")
def test_royale_star_lines_earn_25_jokerless_and_quints_are_not_doubled() -> None:
    year_6 = "2B 0B 2B 6B 2C 0C 2C 6C 2D 0D 2D 6D RD GD"
    # year-6 (*) is 50: jokerless it earns +25, not the double; +10 closed
    star = royale({0: f"{year_6.replace('0B', 'WD').replace('0C', 'WD').replace('0D', 'WD')}"
                         f" {JUNK_14}"})
    line = [t for t in texts(star, 0) if t.startswith("declare")]
    assert line == ["declare 1 year-6", "declare 2 year-6"]
    act(star, 0, "declare 1 year-6")
    act(star, 0, "discard 9B")
    assert awards(star) == [50 + 25 + 10]
    quint = royale({0: f"1B 1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 3B {JUNK_14}"})
    act(quint, 0, "declare 1 quint-1")
    act(quint, 0, "discard 9B")
    assert awards(quint) == [40 + 10]  # a jokerless quint is not doubled
    siamese_plain = siamese({0: f"{HONOR_1} {JUNK_14}"})
    act(siamese_plain, 0, "declare 1 honor-1")
    royale_plain = royale({0: f"{HONOR_1} {JUNK_14}"})
    act(royale_plain, 0, "declare 1 honor-1")
    for state in (siamese_plain, royale_plain):
        act(state, 0, "discard 9B")
    assert awards(siamese_plain) == awards(royale_plain) == [25 * 2 + 10]


@clause("SMJ-32")
def test_royale_mah_jongg_goes_to_a_double_first_then_nearest_the_discarder() -> None:
    even_5 = "2C 2C 2C 4C 4C 4C 6B 6B 6B 8B 8B WD WD"  # even-5 waiting on an 8B
    even_2 = "F F F F 8C 8C 8C 8C 8D 8D 8D 8D 8B"  # even-2 waiting on an 8B
    hands = {0: f"{JUNK_13} 8B {OTHER_14}", 1: f"{EVEN_3_LESS_8B} {JUNK_14}",
             2: f"{even_5} {JUNK_14}", 3: f"{HONOR_1} {even_2}"}
    nearest = royale(hands | {3: f"{even_2} {JUNK_14}"})
    act(nearest, 0, "discard 8B")
    for seat in (1, 2, 3):
        act(nearest, seat, "claim mahjong")
    assert nearest.turn == 1  # South sits nearest after East
    double = royale(hands)
    act(double, 0, "discard 8B")
    for seat, claim in ((1, "claim mahjong"), (2, "claim mahjong"), (3, "claim double")):
        act(double, seat, claim)
    assert double.turn == 3  # SMJ-32: a Double Mah Jongg first


# -- the match ---------------------------------------------------------------------


@clause("SMJ-26")
def test_scores_add_up_over_games_and_the_lower_pays_the_difference() -> None:
    record, state = play_match(game("siamese", 2), 7, ["greedy"], check=True)
    assert record.violations == [] and state.round == 4
    assert state.scores == [sum(e.amount for e in state.payments if e.payee == s) -
                            sum(e.amount for e in state.payments if e.payer == s) for s in (0, 1)]
    low, high = sorted(state.scores)
    payouts = state.payouts()
    assert payouts is not None and sorted(payouts) == [-(high - low), high - low]
    assert settle_match(Payout("difference"), [300, 120]) == [180.0, -180.0]


@clause("SMJ-34")
def test_royale_pays_out_from_a_pot() -> None:
    pot = Payout("pot", stake=5)
    # 20 staked; -30 pays 30 in: 50 in the pot; 40 and 5 are paid; 5 is shared
    assert settle_match(pot, [40, 5, -30, 0]) == [36.25, 1.25, -33.75, -3.75]
    # a pot too small for the scores pays the highest first
    assert settle_match(pot, [100, 50, 0]) == [10.0, -5.0, -5.0]
    assert sum(settle_match(pot, [40, 5, -30, 0])) == 0
    record, state = play_match(game("royale-siamese", 3), 1, ["greedy"], check=True)
    assert record.violations == [] and state.payouts() == settle_match(pot, state.scores)


# -- what digital play cannot get wrong --------------------------------------------


@clause("SMJ-10", "SMJ-14", "SMJ-15", "SMJ-16", "SMJ-19")
def test_the_ruleset_names_what_digital_play_cannot_get_wrong() -> None:
    listed = resolve("siamese", 2).data["cannot_happen"]
    named = {c for item in listed for c in ([item["clause"]] if isinstance(item["clause"], str)
                                            else item["clause"])}
    assert {"SMJ-10", "SMJ-14", "SMJ-15", "SMJ-16", "SMJ-19"} <= named
    assert all(item["why"] for item in listed)


@clause("SMJ-10", "SMJ-14", "SMJ-16", "SMJ-19")
@pytest.mark.parametrize("variant,players", [("siamese", 2), ("royale-siamese", 4)])
def test_the_engine_never_makes_those_mistakes(variant: str, players: int) -> None:
    """In greedy and random strict matches: every claimed tile is in the
    exposure its claim made (nothing exposed before the tile is taken); every
    discard is the tile that left the hand (no mis-named discard); every
    declared Mah Jongg holds a whole line; every seat's count is right at
    every step (play_match's invariants)."""
    record, state = play_match(game(variant, players), 3, ["greedy", "random"],
                               mode=Mode.STRICT, check=True)
    assert record.violations == []
    for seat in state._seats:
        for exposure in seat.exposures:
            if exposure.claimed >= 0:
                assert exposure.claimed in exposure.tiles
    won = [m for r in record.rounds for m in r.get("mahjongs", [])]
    assert won and all(len(m["tiles"]) == 14 for m in won)
    live = game(variant, players).new_match(3, Mode.STRICT)
    for seat, action in state.history[:300]:
        round_ = live.round
        live.apply(seat, action)
        if action.verb == "discard" and live.round == round_:
            assert live._seats[seat].discards[-1] == action.tile


# -- Atomic Cat ----------------------------------------------------------------------

ATOMIC_ASIDE = "1C 2C 3C 4D 5D 6D 7B 8B 9B N E W S"  # atomic-cat with a = Craks: the 14th is RD
EVEN_2_EIGHTS = "F F F F 8C 8C 8C 8C 8D 8D 8D 8D 8B 8B"  # even-2 with n = 8


@clause("SMJ-27")
def test_atomic_cat_is_declared_right_after_the_deal_with_13_tiles_on_rack_one() -> None:
    state = game("siamese", 2).new_match(4)
    assert state.step is Step.VOTING and isinstance(state.phase, Pledge)
    assert "Atomic Cat" in state.phase.question and state.phase.rack == 0
    east = siamese({0: f"{ATOMIC_ASIDE} {first(OTHER_14, 13)} RD"}, pledges={0: ATOMIC_ASIDE})
    me = east._seats[0]
    assert me.pledge == 0 and sorted(east.spec.deck.codes(me.aside)) == \
        sorted(ATOMIC_ASIDE.split())
    assert east.spec.deck.code(east._drawn or 0) == "RD"  # the 28th, drawn: the 14th on rack 1
    # the 13 stay on rack 1: not discarded, not used by rack 2 (no tiles move between racks)
    legal = texts(east, 0)
    assert "discard N" not in legal and "discard RD" in legal
    assert "declare 1 atomic-cat" in legal
    assert not any(t.startswith("declare 2") for t in legal)
    act(east, 0, "declare 1 atomic-cat")
    act(east, 0, "discard 1B")
    assert me.pledge == -1 and me.aside == [] and me.won(0)
    assert awards(east) == [75 + 10]  # singles: no jokerless double; closed +10


@clause("SMJ-27")
def test_only_a_pledged_rack_wins_atomic_cat() -> None:
    state = siamese({0: f"{ATOMIC_ASIDE} RD {JUNK_14}"})
    assert not any("atomic-cat" in t for t in texts(state, 0))


@clause("SMJ-27")
def test_a_tile_claimed_for_atomic_cat_must_be_declared() -> None:
    state = siamese({0: f"{ATOMIC_ASIDE} {OTHER_14}", 1: f"{JUNK_13} {first(JUNK_14, 9)} "
                                                         "RD RD 4B 6B 2B"},
                    draws="N", pledges={0: ATOMIC_ASIDE})
    act(state, 0, "discard W")
    act(state, 1, "discard RD")
    assert "claim mahjong" in texts(state, 0)
    act(state, 0, "claim mahjong")
    assert texts(state, 0) == ["declare 1 atomic-cat"]  # SMJ-27.4: you must declare


@clause("SMJ-27")
def test_with_a_mah_jongg_out_drawing_a_flower_ends_atomic_cat() -> None:
    state = siamese({0: f"{ATOMIC_ASIDE} W", 1: f"{JUNK_13} {JUNK_14}"}, draws="N F",
                    pledges={0: ATOMIC_ASIDE})
    declared(state, 0, 2, EVEN_2_EIGHTS)
    assert violations(state) == []
    act(state, 0, "discard W")
    act(state, 1, "discard N")
    me = state._seats[0]
    assert state.turn == 0 and state.spec.deck.code(state._drawn or 0) == "F"
    assert me.pledge == -1 and me.aside == [] and sum(me.counts) == 14
    assert violations(state) == []


@clause("SMJ-27")
def test_going_off_atomic_cat_returns_the_13_to_the_pool() -> None:
    state = siamese({0: f"{ATOMIC_ASIDE} {OTHER_14}"}, pledges={0: ATOMIC_ASIDE})
    assert "off" in texts(state, 0) and "discard N" not in texts(state, 0)
    act(state, 0, "off")
    assert state._seats[0].pledge == -1 and "discard N" in texts(state, 0)
    assert "off" not in texts(state, 0)


@clause("SMJ-27")
def test_atomic_cat_has_no_duplicate_numbers() -> None:
    card = game("siamese", 2).matcher.card
    line = card.line("atomic-cat")
    assert "atomic" in line.flags and not line.jokers
    deck = card.deck
    for variation in line.variations:
        numbers = [deck.kinds[t].number for g in variation.groups for t in g.tiles
                   if deck.kinds[t].number is not None]
        assert sorted(numbers) == list(range(1, 10))


@clause("SMJ-27", "SMJ-24", "SMJ-25")
def test_a_discard_completing_atomic_cat_beside_a_finished_rack_is_a_double() -> None:
    aside = "1D 2D 3D 4B 5B 6B 7C 8C 9C N E W S"  # atomic-cat with a = Dots: the 14th is WD
    state = siamese({0: f"{aside} {EVEN_3} 9D", 1: f"{JUNK_13} {JUNK_14}"}, draws="N",
                    pledges={0: aside})
    act(state, 0, "discard 9D")
    act(state, 1, "pass")  # West could call the 9D for a pung
    act(state, 1, "discard WD")
    legal = texts(state, 0)
    # rack 2 was complete already: the tile is needed for both at once, not for one
    assert "claim double" in legal and "claim mahjong" not in legal
    act(state, 0, "claim double")
    assert set(texts(state, 0)) == {"declare 1 atomic-cat", "declare 2 even-3"}
    act(state, 0, "declare 1 atomic-cat")
    act(state, 0, "declare 2 even-3")
    assert state.results[0].winner == 0 and state.results[0].discarder == 1
    assert sorted(awards(state)) == [30 * 2 * 2 + 10, 75 * 2 + 10]
    assert state.scores == [290, -25]


@clause("SMJ-17", "SMJ-26")
def test_simulate_counts_mah_jonggs_by_seat_and_the_payouts(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "simulate", "siamese", "--games", "2", "--seed", "3",
                             "--agents", "greedy,random", "--json")
    result = json.loads(out)
    assert status == 0 and result["violations"] == 0 and result["rounds"] == 8
    east, west = result["seats"]
    assert east["mahjongs"] >= 2 * east["round_wins"] and east["mahjongs"] > 0
    assert east["mean_payout"] == -west["mean_payout"]
    assert result["wall_games"] + result["unwon"] + result["dead_ends"] + \
        east["round_wins"] + west["round_wins"] == 8
    status, out, _ = run_cli(capsys, "simulate", "siamese", "--games", "1", "--seed", "3",
                             "--agents", "greedy,random")
    assert status == 0 and "Jonggs" in out and "payout" in out  # columns (rich may wrap them)


@clause("SMJ-27")
def test_the_greedy_agent_pledges_when_the_deal_is_one_tile_from_atomic_cat() -> None:
    from jongg.runtime.agents.bots import GreedyAgent
    near = rigged(game("siamese", 2), {0: f"{ATOMIC_ASIDE} {JUNK_14}", 1: f"{JUNK_14} {JUNK_13}"})
    far = rigged(game("siamese", 2), {0: f"{OTHER_14} {JUNK_13}", 1: f"{JUNK_14} {JUNK_13}"})
    for state, pledges in ((near, True), (far, False)):
        agent = GreedyAgent(0, 0)
        vote = agent.act(state.observe(0), state.legal_actions(0))
        assert vote.text(state.spec.deck) == ("vote yes" if pledges else "vote no")
        state.apply(0, vote)
        act(state, 1, "vote no")
        while state.step is Step.PASSING:
            state.apply(0, agent.act(state.observe(0), state.legal_actions(0)))
        assert sorted(state.spec.deck.codes(state._seats[0].aside)) == \
            (sorted(ATOMIC_ASIDE.split()) if pledges else [])
