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

import json
from collections import Counter

import pytest

from jongg.compiler.variant import resolve
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.invariants import violations
from jongg.runtime.game.payout import settle_match
from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.spec import Payout, Pledge
from jongg.runtime.game.state import Exposure, IllegalAction, Mode, State, Step
from jongg.runtime.game.walls import lay_out, wall_sizes
from jongg.runtime.tiles import parse_tiles

from .conftest import run_cli
from .rig import act, game, rigged, texts

clause = pytest.mark.clause

# Lines of the sample card, as tiles
HONOR_1 = "N N N N E E E E W W S S S S"  # honor-1, 25: NNNN EEEE WW SSSS
HONOR_1_JOKER = "N N N J E E E E W W S S S S"
EVEN_3 = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B 8B RD RD"  # even-3, 30: 2222a 44a 66a 8888a DDb
EVEN_3_LESS_8B = "2B 2B 2B 2B 4B 4B 6B 6B 8B 8B 8B RD RD"  # even-3 waiting on an 8B
SP_3 = "1C 1C 3C 3C 5C 5C 7C 7C 9C 9C N N S S"  # sp-3, 50, concealed, singles and pairs
# Tiles that complete nothing and claim nothing: no pairs, no jokers
JUNK_13 = "1D 2D 3D 5D 6D 7D 9D GD WD F 3B 5B 7B"
JUNK_14 = JUNK_13 + " 9B"
OTHER_14 = "1C 2C 3C 4C 5C 6C 7C 8C 9C RD 4D 8D 1B W"  # no kind of JUNK_14 either


def first(tiles: str, n: int) -> str:
    return " ".join(tiles.split()[:n])


def table(variant: str, players: int, hands: dict[int, str], draws: str = "",
          mode: Mode = Mode.GUARDED, pledges: dict[int, str] | None = None,
          **kw: object) -> State:
    """A rigged deal, played past the Atomic Cat question: the seats in
    `pledges` set those 13 tiles aside on rack 1, the others decline; East
    then draws the last of its 28 tiles (SMJ-08)."""
    pledges = pledges or {}
    east = hands[0].split()
    state = rigged(game(variant, players), hands | {0: " ".join(east[:-1])},
                   f"{east[-1]} {draws}", mode=mode, **kw)  # type: ignore[arg-type]
    open_play(state, pledges)
    return state


def open_play(state: State, pledges: dict[int, str] | None = None) -> None:
    """Answer the Atomic Cat question for every seat (SMJ-27), and set aside."""
    pledges = pledges or {}
    for seat in range(state.spec.players):
        act(state, seat, "vote yes" if seat in pledges else "vote no")
    for seat, tiles in pledges.items():
        for tile in tiles.split():
            act(state, seat, f"pass {tile}")


def royale(hands: dict[int, str], draws: str = "", mode: Mode = Mode.GUARDED,
           players: int = 4) -> State:
    return table("royale-siamese", players, hands, draws, mode)


def siamese(hands: dict[int, str], draws: str = "", mode: Mode = Mode.GUARDED,
            **kw: object) -> State:
    return table("siamese", 2, hands, draws, mode, **kw)  # type: ignore[arg-type]


def declared(state: State, seat: int, rack: int, tiles: str) -> None:
    """Put a declared Mah Jongg on a seat's rack (1-based), as if made earlier:
    its tiles come out of the wall, so tiles stay conserved."""
    found = parse_tiles(state.spec.deck, tiles)
    for t in found:  # from the bottom of the wall: the rigged draws stay on top
        state.wall.remove(t)
        if state.wall_owner:
            state.wall_owner.pop()
    state.seats[seat].exposures.append(Exposure(tuple(sorted(found)), -1, rack - 1, mahjong=True))


def holding(state: State, seat: int, tiles: str) -> None:
    """Give a seat these concealed tiles instead of its own, which go back to the wall."""
    me = state.seats[seat]
    state.wall.extend(me.concealed())
    me.counts = [0] * len(me.counts)
    for t in parse_tiles(state.spec.deck, tiles):
        state.wall.remove(t)
        me.counts[t] += 1
    if state.wall_owner:
        state.wall_owner = [state.dealer] * len(state.wall)


def awards(state: State) -> list[int]:
    """Every award from the bank, in order."""
    return [e.amount for e in state.payments if e.payer == BANK]


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
               for s in state.seats)


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
    rolls = {game("siamese", 2).new_match(seed).die for seed in range(40)}
    assert rolls == set(range(1, 7))


@clause("SMJ-05", "SMJ-08")
def test_27_each_four_at_a_time_from_easts_walls_then_east_picks_the_28th() -> None:
    state = game("siamese", 2).new_match(5)
    assert [sum(s.counts) for s in state.seats] == [27, 27]
    open_play(state)
    assert [sum(s.counts) for s in state.seats] == [28, 27]
    # 55 tiles left East's walls (54 dealt, the 28th drawn); West's are untouched
    assert Counter(state.wall_owner) == {0: 76 - 55, 1: 76}
    assert state.step is Step.TURN and state.turn == 0 and state.drawn is not None
    walls = game("siamese", 2).spec.walls
    assert walls is not None and walls.take == 4


@clause("SMJ-29", "SMJ-30")
def test_royale_uses_each_players_two_walls_before_the_next_players() -> None:
    state = game("royale-siamese", 4).new_match(2)
    open_play(state)
    assert [sum(s.counts) for s in state.seats] == [28, 27, 27, 27]
    # 109 tiles taken: East's 76, then 33 of South's (the player to East's right)
    assert Counter(state.wall_owner) == {1: 76 - 33, 2: 76, 3: 76}
    act(state, 0, texts(state, 0)[-1])  # East discards
    while state.step is Step.CLAIMS:
        seat = state.current_players()[0]
        act(state, seat, "pass")
    assert state.turn == 1 and sum(state.seats[1].counts) == 28  # SMJ-30: East's right


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
    assert state.step is Step.TURN and state.turn == 1 and state.drawn is not None
    assert state.spec.deck.code(state.drawn) == "N" and sum(state.seats[1].counts) == 28


# -- one pool, several racks -----------------------------------------------------


@clause("SMJ-06", "SMJ-24")
def test_the_pool_serves_either_rack_and_two_mah_jonggs_at_once_score_double() -> None:
    state = siamese({0: f"{HONOR_1} {EVEN_3}"})
    legal = texts(state, 0)
    for rack in (1, 2):  # the tiles are one pool: either line may go on either rack
        assert f"declare {rack} honor-1" in legal and f"declare {rack} even-3" in legal
    act(state, 0, "declare 2 honor-1")
    assert state.seats[0].won(1) and not state.seats[0].won(0)
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
    me = state.seats[0]
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
    assert state.seats[1].exposures[0].rack == 0
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
    assert state.seats[0].counts[state.joker] == 1


@clause("SMJ-13", "SMJ-18")
def test_only_an_exposed_mah_jongg_scores_and_a_wall_game_gives_each_10() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}", 1: f"{JUNK_13} {OTHER_14}"})
    state.wall = state.wall[-3:]
    state.wall_owner = state.wall_owner[-3:]
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
    me = state.seats[0]
    assert me.rack_dead == [False, True] and me.dead  # nothing left to play for
    assert state.turn == 0 and set(texts(state, 0)) == {f"discard {t}" for t in JUNK_14.split()}
    act(state, 0, "discard 9B")  # with tiles left, a discard ends the turn
    act(state, 1, "pass")
    assert awards(state) == [25 * 2 + 10]
    assert state.round == 0 and state.turn == 1
    other = siamese({0: f"{HONOR_1} {JUNK_14}"}, mode=Mode.STRICT)
    other.seats[0].rack_dead[0] = True
    act(other, 0, "declare 2 honor-1")  # a dead rack and a good one: play goes on
    assert other.turn == 0 and not other.seats[0].live_racks()


@clause("SMJ-19")
def test_guarded_mode_refuses_a_wrong_mah_jongg() -> None:
    state = siamese({0: f"{HONOR_1} {JUNK_14}"})
    assert not any(t in texts(state, 0) for t in ("declare 2", "declare 1"))
    with pytest.raises(IllegalAction):
        act(state, 0, "declare 2")
    assert state.seats[0].rack_dead == [False, False]


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
    west = state.seats[1]
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
    west = state.seats[1]
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
    west = state.seats[1]
    assert west.exposures == [] and west.rack_dead == [False, False] and west.skips == 0
    assert state.turn == 1 and state.seats[0].discards == [state.spec.deck.kind("8B").index]


@clause("SMJ-33")
def test_royale_a_player_with_two_dead_hands_is_out_and_the_others_play_on() -> None:
    state = royale({0: f"{JUNK_14} {OTHER_14}"}, mode=Mode.STRICT, players=3)
    act(state, 0, "declare 1")
    act(state, 0, "declare 2")
    assert state.seats[0].dead and state.round == 0 and state.payments == []
    act(state, 0, "discard 9B")  # with tiles left, a discard ends the turn (SMJ-19)
    while state.step is Step.CLAIMS:
        act(state, state.current_players()[0], "pass")
    assert state.turn == 1 and state.step is Step.TURN
    while state.turns < 6:  # the others play on; East never draws again
        seat = state.current_players()[0]
        assert seat != 0
        legal = texts(state, seat)
        act(state, seat, "pass" if "pass" in legal else
            next(t for t in legal if t.startswith("discard")))
    assert sum(state.seats[0].counts) == 27


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
    for seat in state.seats:
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
            assert live.seats[seat].discards[-1] == action.tile


# -- Atomic Cat ----------------------------------------------------------------------

ATOMIC_ASIDE = "1C 2C 3C 4D 5D 6D 7B 8B 9B N E W S"  # atomic-cat with a = Craks: the 14th is RD
EVEN_2_EIGHTS = "F F F F 8C 8C 8C 8C 8D 8D 8D 8D 8B 8B"  # even-2 with n = 8


@clause("SMJ-27")
def test_atomic_cat_is_declared_right_after_the_deal_with_13_tiles_on_rack_one() -> None:
    state = game("siamese", 2).new_match(4)
    assert state.step is Step.VOTING and isinstance(state.phase, Pledge)
    assert "Atomic Cat" in state.phase.question and state.phase.rack == 0
    east = siamese({0: f"{ATOMIC_ASIDE} {first(OTHER_14, 13)} RD"}, pledges={0: ATOMIC_ASIDE})
    me = east.seats[0]
    assert me.pledge == 0 and sorted(east.spec.deck.codes(me.aside)) == \
        sorted(ATOMIC_ASIDE.split())
    assert east.spec.deck.code(east.drawn or 0) == "RD"  # the 28th, drawn: the 14th on rack 1
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
    me = state.seats[0]
    assert state.turn == 0 and state.spec.deck.code(state.drawn or 0) == "F"
    assert me.pledge == -1 and me.aside == [] and sum(me.counts) == 14
    assert violations(state) == []


@clause("SMJ-27")
def test_going_off_atomic_cat_returns_the_13_to_the_pool() -> None:
    state = siamese({0: f"{ATOMIC_ASIDE} {OTHER_14}"}, pledges={0: ATOMIC_ASIDE})
    assert "off" in texts(state, 0) and "discard N" not in texts(state, 0)
    act(state, 0, "off")
    assert state.seats[0].pledge == -1 and "discard N" in texts(state, 0)
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
        assert sorted(state.spec.deck.codes(state.seats[0].aside)) == \
            (sorted(ATOMIC_ASIDE.split()) if pledges else [])
