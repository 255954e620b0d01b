"""Siamese Mah Jongg, Royale and Imperial: the runtime proves the rulebook's
clauses (SMJ-01..35 of docs/clauses.md), each test marked with the
clauses it proves.

Rounds are rigged with tests.rig: East (seat 0, the dealer) holds the named
28 tiles (27 dealt and the 28th drawn to open, SMJ-08), the other seats the
named 27, and `draws` come off the wall first, in order. Racks are numbered
from 1 in the text form of actions (`declare 2 even-3`, `claim set 9C 9C on
2`). The hands are lines of the sample card (rulesets/cards/sample.yaml).
"""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.runtime.game.invariants import violations
from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.spec import Pledge
from jongg.runtime.game.state import Exposure, IllegalAction, Mode, Step
from jongg.runtime.game.walls import lay_out, wall_sizes

from .rig import act, game, texts
from .siamese_table import (
    EVEN_3,
    EVEN_3_LESS_8B,
    HONOR_1,
    HONOR_1_JOKER,
    JUNK_13,
    JUNK_14,
    OTHER_14,
    SP_3,
    awards,
    clause,
    declared,
    first,
    holding,
    open_play,
    royale,
    siamese,
)

# -- the table -----------------------------------------------------------------


@clause("SMJ-01", "SMJ-35")
@pytest.mark.parametrize("variant,players,racks,sets", [
    ("siamese", 2, 2, 1), ("royale-siamese", 3, 2, 2), ("royale-siamese", 4, 2, 2),
    ("imperial-siamese", 2, 4, 2), ("imperial-siamese", 3, 4, 3),
    ("imperial-siamese", 4, 4, 3)])
def test_every_player_plays_its_racks_with_the_sets_of_tiles_the_game_uses(
        variant: str, players: int, racks: int, sets: int) -> None:
    spec = game(variant, players).spec
    assert (spec.players, spec.racks, spec.wins_needed) == (players, racks, racks)
    removed = 8 if (variant, players) == ("royale-siamese", 3) else 0
    assert spec.deck.size == 152 * sets - removed
    state = game(variant, players).new_match(1)
    assert all(len(s.rack_dead) == racks and s.live_racks() == list(range(racks))
               for s in state._seats)


@clause("SMJ-28")
def test_royale_for_three_takes_out_four_jokers_and_four_flowers() -> None:
    three, four = game("royale-siamese", 3).spec.deck, game("royale-siamese", 4).spec.deck
    assert (three.kind("J").copies, three.kind("F").copies) == (12, 12)
    assert (four.kind("J").copies, four.kind("F").copies) == (16, 16)
    assert three.kind("5B").copies == four.kind("5B").copies == 8
    assert (three.size, four.size) == (296, 304)
    assert game("royale-siamese", 4).spec.racks == 2


@clause("SMJ-03")
def test_four_walls_of_19_stacks_two_high_two_before_each_player() -> None:
    spec = game("siamese", 2).spec
    assert spec.walls is not None and spec.walls.per_seat == 2 and spec.walls.height == 2
    assert wall_sizes(spec.deck.size, 2 * spec.walls.per_seat) == [19 * 2] * 4


@clause("SMJ-04")
@pytest.mark.parametrize("die", [1, 6])
def test_the_die_cuts_easts_first_wall_by_that_many_stacks(die: int) -> None:
    walls = game("siamese", 2).spec.walls
    assert walls is not None
    tiles = list(range(152))
    drawn, owners = lay_out(tiles, [0, 1], walls, die)
    order = drawn[::-1]  # the order tiles are taken
    cut = 2 * die
    assert order[:38] == tiles[cut:38] + tiles[:cut]  # the counted stacks go to the tail
    assert order[38:] == tiles[38:]
    assert owners[::-1] == [0] * 76 + [1] * 76
    rolls = {game("siamese", 2).new_match(seed)._die for seed in range(40)}
    assert rolls == set(range(1, 7))


@clause("SMJ-05", "SMJ-08")
def test_27_each_four_at_a_time_from_easts_walls_then_east_picks_the_28th() -> None:
    state = game("siamese", 2).new_match(5)
    assert [sum(s.counts) for s in state._seats] == [27, 27]
    open_play(state)
    assert [sum(s.counts) for s in state._seats] == [28, 27]
    # 55 tiles left East's walls (54 dealt, the 28th drawn); West's are untouched
    assert Counter(state._wall_owner) == {0: 76 - 55, 1: 76}
    assert state.step is Step.TURN and state.turn == 0 and state._drawn is not None
    walls = game("siamese", 2).spec.walls
    assert walls is not None and walls.take == 4


@clause("SMJ-29", "SMJ-30")
def test_royale_uses_each_players_two_walls_before_the_next_players() -> None:
    state = game("royale-siamese", 4).new_match(2)
    open_play(state)
    assert [sum(s.counts) for s in state._seats] == [28, 27, 27, 27]
    # 109 tiles taken: East's 76, then 33 of South's (the player to East's right)
    assert Counter(state._wall_owner) == {1: 76 - 33, 2: 76, 3: 76}
    act(state, 0, texts(state, 0)[-1])  # East discards
    while state.step is Step.CLAIMS:
        seat = state.current_players()[0]
        act(state, seat, "pass")
    assert state.turn == 1 and sum(state._seats[1].counts) == 28  # SMJ-30: East's right


@clause("SMJ-07")
@pytest.mark.parametrize("variant,players", [("siamese", 2), ("royale-siamese", 3),
                                             ("imperial-siamese", 4)])
def test_there_is_no_charleston(variant: str, players: int) -> None:
    # the only pre-play phase is the Atomic Cat question (SMJ-27): no tile changes hands
    assert [type(p) for p in game(variant, players).spec.phases] == [Pledge]
    state = game(variant, players).new_match(0)
    open_play(state)
    assert state.step is Step.TURN


@clause("SMJ-08")
def test_east_discards_then_the_other_player_picks_and_discards() -> None:
    state = siamese({0: f"{JUNK_14} {OTHER_14}", 1: f"{JUNK_13} {OTHER_14}"}, draws="N")
    assert texts(state, 0)[0].startswith("discard")
    act(state, 0, "discard 1D")
    assert state.step is Step.TURN and state.turn == 1 and state._drawn is not None
    assert state.spec.deck.code(state._drawn) == "N" and sum(state._seats[1].counts) == 28


# -- one pool, several racks -----------------------------------------------------


@clause("SMJ-06", "SMJ-24")
def test_the_pool_serves_either_rack_and_two_mah_jonggs_at_once_score_double() -> None:
    state = siamese({0: f"{HONOR_1} {EVEN_3}"})
    legal = texts(state, 0)
    for rack in (1, 2):  # the tiles are one pool: either line may go on either rack
        assert f"declare {rack} honor-1" in legal and f"declare {rack} even-3" in legal
    act(state, 0, "declare 2 honor-1")
    assert state._seats[0].won(1) and not state._seats[0].won(0)
    # the rest of the pool is the other line, for the other rack
    assert [t for t in texts(state, 0) if t.startswith("declare")] == ["declare 1 even-3"]
    act(state, 0, "declare 1 even-3")
    end = state.results[0]
    assert end.winner == 0 and end.how == "won" and len(end.mahjongs) == 2
    # SMJ-24: both doubled; both jokerless (doubled again) and closed (+10)
    assert awards(state) == [25 * 2 * 2 + 10, 30 * 2 * 2 + 10]
    assert state.scores == [110 + 130, 0]


@clause("SMJ-12", "SMJ-22")
def test_a_first_mah_jongg_scores_its_value_and_the_player_plays_on() -> None:
    state = siamese({0: f"{HONOR_1_JOKER} {JUNK_14}"})
    act(state, 0, "declare 1 honor-1")
    me = state._seats[0]
    assert sum(me.counts) == 14 and state.step is Step.TURN and state.turn == 0
    assert not any(a.startswith("declare") for a in texts(state, 0))
    act(state, 0, "discard 9B")  # SMJ-12: a discard ends the turn; 13 tiles play on
    assert sum(me.counts) == 13 and me.live_racks() == [1]
    assert awards(state) == [25 + 10]  # with a joker: the card value, +10 closed
    assert state.round == 0 and state.turn == 1


@clause("SMJ-22")
def test_a_jokerless_first_mah_jongg_doubles_but_not_singles_and_pairs() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}"})
    act(state, 0, "declare 1 honor-1")
    act(state, 0, "discard 9B")
    state2 = siamese({0: f"{SP_3} {JUNK_14}"})
    act(state2, 0, "declare 1 sp-3")
    act(state2, 0, "discard 9B")
    assert awards(state) == [25 * 2 + 10]
    assert awards(state2) == [50 + 10]  # a singles-and-pairs line admits no jokers


@clause("SMJ-22", "SMJ-02")
def test_the_discarder_of_a_first_mah_jongg_pays_nothing() -> None:
    state = siamese({0: f"{JUNK_13} 8B {OTHER_14}",
                     1: f"{EVEN_3_LESS_8B} {JUNK_14}"})
    act(state, 0, "discard 8B")
    assert "claim mahjong" in texts(state, 1)
    act(state, 1, "claim mahjong")  # the claim must now be declared, on a rack it completes
    assert texts(state, 1) == ["declare 1 even-3", "declare 2 even-3"]
    act(state, 1, "declare 1 even-3")
    act(state, 1, "discard 9B")
    # jokerless, doubled; closed (+10): no exposure before, the called tile allowed
    assert state.scores == [0, 30 * 2 + 10]
    assert all(e.payer == BANK for e in state.payments)


@clause("SMJ-17", "SMJ-23")
def test_a_second_mah_jongg_wins_doubled_and_doubled_again_when_jokerless() -> None:
    with_joker = EVEN_3.replace("2B 2B 2B 2B", "2B 2B 2B J")
    for pool, award in ((EVEN_3, 30 * 2 * 2 + 10), (with_joker, 30 * 2 + 10)):
        state = siamese({0: pool, 1: f"{JUNK_13} {OTHER_14}"})
        declared(state, 0, 1, HONOR_1)  # the first Mah Jongg, exposed earlier
        assert violations(state) == []
        act(state, 0, "declare 2 even-3")
        end = state.results[0]
        assert (end.winner, end.how, end.line) == (0, "won", "even-3")
        assert awards(state) == [award] and state.round == 1  # SMJ-17: the game ends


@clause("SMJ-25", "SMJ-17")
def test_the_discarder_of_the_winning_second_mah_jongg_loses_25() -> None:
    state = siamese({0: f"{JUNK_13} 8B {OTHER_14}", 1: f"{EVEN_3_LESS_8B} {JUNK_14}"})
    holding(state, 1, EVEN_3_LESS_8B)
    declared(state, 1, 2, HONOR_1)
    assert violations(state) == []
    act(state, 0, "discard 8B")
    act(state, 1, "claim mahjong")
    act(state, 1, "declare 1 even-3")
    assert state.results[0].winner == 1 and state.results[0].discarder == 0
    assert [(e.payer, e.payee, e.amount) for e in state.payments] == [
        (BANK, 1, 30 * 2 * 2 + 10), (0, BANK, 25)]
    assert state.scores == [-25, 130]


@clause("SMJ-25", "SMJ-24")
def test_the_discarder_of_a_double_mah_jongg_loses_25() -> None:
    state = siamese({0: f"{JUNK_13} 8B {OTHER_14}", 1: f"{HONOR_1} {EVEN_3_LESS_8B}"})
    act(state, 0, "discard 8B")
    legal = texts(state, 1)
    # honor-1 alone was complete before: the tile is needed only for both at once
    assert "claim double" in legal and "claim mahjong" not in legal
    act(state, 1, "claim double")
    act(state, 1, "declare 1 honor-1")
    act(state, 1, "declare 2 even-3")
    assert state.results[0].winner == 1
    assert sorted(awards(state)) == [25 * 2 * 2 + 10, 30 * 2 * 2 + 10]
    assert [e for e in state.payments if e.payee == BANK][0].payer == 0
    assert state.scores[0] == -25


@clause("SMJ-02")
def test_any_hand_may_be_played_exposed_and_closed_earns_10() -> None:
    # odd-2 is a concealed (C) line; Siamese plays it exposed too, without the +10
    odd_2 = "1C 1C 3C 3C 3C 5C 5C 5C 5C 7C 7C 7C 9C 9C"
    state = siamese({0: f"{JUNK_13} 3C {JUNK_14}", 1: f"1C 1C 3C 3C 5C 5C 5C 5C 7C 7C 7C 9C 9C "
                                                       f"{JUNK_14}"})
    act(state, 0, "discard 3C")
    act(state, 1, "claim set 3C 3C")
    assert state._seats[1].exposures[0].rack == 0
    act(state, 1, "declare 1 odd-2")
    act(state, 1, "discard 9B")
    assert awards(state) == [30 * 2]  # jokerless doubled, not closed
    closed = siamese({0: f"{odd_2} {JUNK_14}"})
    act(closed, 0, "declare 2 odd-2")
    act(closed, 0, "discard 9B")
    assert awards(closed) == [30 * 2 + 10]
    assert game("siamese", 2).spec.open_hands


@clause("SMJ-09", "SMJ-13")
def test_jokers_come_out_of_either_players_exposures_never_a_mah_jongg() -> None:
    state = siamese({0: f"{JUNK_13} 8B N {first(OTHER_14, 10)}", 1: f"{JUNK_14} {JUNK_13}"},
                    exposures={0: ["2: 8B 8B J"], 1: ["7C 7C J"]})
    declared(state, 1, 2, HONOR_1_JOKER)
    legal = texts(state, 0)
    assert "exchange 8B 0:0" in legal  # SMJ-09: from one's own exposure
    assert "exchange 7C 1:0" in legal  # and from the opponent's
    assert "exchange N 1:1" not in legal  # SMJ-13: never out of a declared Mah Jongg
    assert not any(t.startswith("exchange N") for t in legal)
    act(state, 0, "exchange 7C 1:0")
    assert state._seats[0].counts[state._joker] == 1


@clause("SMJ-13", "SMJ-18")
def test_only_an_exposed_mah_jongg_scores_and_a_wall_game_gives_each_10() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}", 1: f"{JUNK_13} {OTHER_14}"})
    state._wall = state._wall[-3:]
    state._wall_owner = state._wall_owner[-3:]
    while state.round == 0:  # nobody declares: East's complete rack stays on the rack
        seat = state.current_players()[0]
        legal = texts(state, seat)
        act(state, seat, "pass" if "pass" in legal else
            next(t for t in legal if t.startswith("discard") and t != "discard N"))
    end = state.results[0]
    assert (end.winner, end.how, end.mahjongs) == (None, "wall", ())
    assert state.scores == [10, 10]


# -- dead hands --------------------------------------------------------------------


@clause("SMJ-19", "SMJ-11")
def test_a_wrong_mah_jongg_kills_that_rack_and_the_other_plays_on() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}", 1: f"{JUNK_13} {OTHER_14}"}, mode=Mode.STRICT)
    act(state, 0, "declare 1 honor-1")  # SMJ-19 A: the legal one is honoured...
    assert "declare 2" in texts(state, 0)  # strict mode offers the mistake
    act(state, 0, "declare 2")  # ... and the other rack's hand is dead
    me = state._seats[0]
    assert me.rack_dead == [False, True] and me.dead  # nothing left to play for
    assert state.turn == 0 and set(texts(state, 0)) == {f"discard {t}" for t in JUNK_14.split()}
    act(state, 0, "discard 9B")  # with tiles left, a discard ends the turn
    act(state, 1, "pass")
    assert awards(state) == [25 * 2 + 10]
    assert state.round == 0 and state.turn == 1
    other = siamese({0: f"{HONOR_1} {JUNK_14}"}, mode=Mode.STRICT)
    other._seats[0].rack_dead[0] = True
    act(other, 0, "declare 2 honor-1")  # a dead rack and a good one: play goes on
    assert other.turn == 0 and not other._seats[0].live_racks()


@clause("SMJ-19")
def test_guarded_mode_refuses_a_wrong_mah_jongg() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}"})
    assert not any(t in texts(state, 0) for t in ("declare 2", "declare 1"))
    with pytest.raises(IllegalAction):
        act(state, 0, "declare 2")
    assert state._seats[0].rack_dead == [False, False]


@clause("SMJ-11", "SMJ-21")
def test_an_exposure_no_line_can_use_kills_its_rack_in_strict_mode() -> None:
    hands = {0: f"{JUNK_14} {OTHER_14}", 1: f"9C 9C {JUNK_13} {first(JUNK_13, 9)}"}
    guarded = siamese(hands, exposures={1: ["2: N N N"]})
    act(guarded, 0, "discard 9C")
    assert not any(t.endswith("on 2") for t in texts(guarded, 1))  # never offered guarded
    state = siamese(hands, exposures={1: ["2: N N N"]}, mode=Mode.STRICT)
    act(state, 0, "discard 9C")
    assert "claim set 9C 9C on 2" in texts(state, 1)
    act(state, 1, "claim set 9C 9C on 2")
    west = state._seats[1]
    assert west.rack_dead == [False, True] and not west.dead
    killer = west.exposures[-1]
    assert killer.killed and killer.rack == 1 and state.spec.deck.code(killer.claimed) == "9C"
    assert state.turn == 1 and any(t.startswith("discard") for t in texts(state, 1))
    # SMJ-21: the killing exposure's tiles never return to the pool
    assert west.counts[state.spec.deck.kind("9C").index] == 0


@clause("SMJ-21")
def test_a_dead_racks_jokers_come_out_only_of_exposures_that_did_not_kill_it() -> None:
    state = siamese({0: f"{JUNK_13} 8B {first(OTHER_14, 11)}", 1: f"{JUNK_14} {first(JUNK_13, 7)}"},
                    exposures={1: ["2: 8B 8B J", "2: 7C 7C J"]})
    west = state._seats[1]
    west.rack_dead[1] = True
    west.exposures[1] = Exposure(west.exposures[1].tiles, west.exposures[1].claimed, 1,
                                 killed=True)
    legal = texts(state, 0)
    assert "exchange 8B 1:0" in legal and "exchange 7C 1:1" not in legal


@clause("SMJ-20")
def test_both_hands_dead_ends_the_game_at_four_times_the_opponents_mah_jongg() -> None:
    state = siamese({0: f"{JUNK_14} {OTHER_14}", 1: f"{EVEN_3} {JUNK_13}"}, "N E",
                    mode=Mode.STRICT)
    act(state, 0, "discard 9B")
    act(state, 1, "pass")  # strict mode asks every seat, as people are asked
    act(state, 1, "declare 1 even-3")  # West's exposed Mah Jongg, worth 30
    act(state, 1, "discard N")
    act(state, 0, "pass")
    act(state, 0, "declare 1")
    act(state, 0, "declare 2")
    end = state.results[0]
    assert (end.winner, end.how) == (None, "dead") and state.round == 1
    assert [(e.payer, e.payee, e.amount) for e in state.payments] == [
        (BANK, 1, 30 * 2 + 10), (0, BANK, 4 * 30)]
    # with no Mah Jongg exposed: four times the card's lowest value (25)
    plain = siamese({0: f"{JUNK_14} {OTHER_14}"}, mode=Mode.STRICT)
    act(plain, 0, "declare 1")
    act(plain, 0, "declare 2")
    assert plain.scores == [-100, 0] and plain.results[0].how == "dead"


@clause("SMJ-16")
def test_a_mah_jongg_claimed_in_error_is_refused_and_exposes_nothing() -> None:
    state = siamese({0: f"{JUNK_13} 8B {OTHER_14}", 1: f"{JUNK_14} {JUNK_13}"},
                    mode=Mode.STRICT)
    act(state, 0, "discard 8B")
    act(state, 1, "claim mahjong")
    west = state._seats[1]
    assert west.exposures == [] and west.rack_dead == [False, False] and west.skips == 0
    assert state.turn == 1 and state._seats[0].discards == [state.spec.deck.kind("8B").index]


@clause("SMJ-33")
def test_royale_a_player_with_two_dead_hands_is_out_and_the_others_play_on() -> None:
    state = royale({0: f"{JUNK_14} {OTHER_14}"}, mode=Mode.STRICT, players=3)
    act(state, 0, "declare 1")
    act(state, 0, "declare 2")
    assert state._seats[0].dead and state.round == 0 and state.payments == []
    act(state, 0, "discard 9B")  # with tiles left, a discard ends the turn (SMJ-19)
    while state.step is Step.CLAIMS:
        act(state, state.current_players()[0], "pass")
    assert state.turn == 1 and state.step is Step.TURN
    while state._turns < 6:  # the others play on; East never draws again
        seat = state.current_players()[0]
        assert seat != 0
        legal = texts(state, seat)
        act(state, seat, "pass" if "pass" in legal else
            next(t for t in legal if t.startswith("discard")))
    assert sum(state._seats[0].counts) == 27
