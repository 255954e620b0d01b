"""Riichi's rules of the table beyond a single win, each on a scripted
deal (rulesets/variants/riichi.yaml): the riichi stick put down only once
the declaring discard is let go, ippatsu ended by any call, the kan dora
of an open kan turned after its discard (`dead_wall.kong_indicators`),
and the abortive draws (`abortive`), each switched off by a variant that
extends riichi to show it is the rule that acts.

Seat 0 deals (East), seat 1 is South."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.game import load_game
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.game import Game
from jongg.runtime.game.scoring import BANK, match_facts
from jongg.runtime.game.state import State

from .rig import edited, game
from .scored_rig import deal, drive, legal, of_kind, to_turn, until_round_ends
from .test_riichi_play import CLEAN, EAST, RIICHI, paid, scored, table, winner

G = game("riichi")
ROOT = Path(__file__).resolve().parents[1]


def extended(tmp_path: Path, written: str) -> Game:
    """riichi with `written` changed (a variant that extends it)."""
    path = tmp_path / "mine.yaml"
    path.write_text(f"variant: mine\nextends: {ROOT}/rulesets/variants/riichi.yaml\n{written}",
                    encoding="utf-8")
    return load_game(str(path))


def aborted(events: list) -> list[str]:
    return [e.detail["reason"] for e in of_kind(events, EventKind.ABORTED)]


# -- the riichi stick and ippatsu ------------------------------------------------

WAITS_N = "1B 2B 3B 4C 5C 6C 7D 8D 9D WD WD WD N"  # West: a haku hand waiting on N alone


def test_a_ron_on_the_declaring_discard_fails_the_declaration_and_puts_down_no_stick() -> None:
    """South declares riichi with N and West wins on that very N: the
    declaration fails, so South's stick never goes on the table; South pays
    the ron alone. Let go, the same declaration puts the stick down."""
    state = deal(G, {0: EAST, 1: RIICHI, 2: WAITS_N}, draws="N", dead=CLEAN)
    events = drive(state, [(1, "announce riichi N"), (2, "claim ron")])
    assert winner(events) == 2
    assert all(payer != 1 or payee != BANK for payer, payee, _ in paid(events))
    assert paid(events)[0][0] == 1 and state.scores[1] == 25000 - paid(events)[0][2]
    assert table(state)["sticks"] == 0
    state = deal(G, {0: EAST, 1: RIICHI, 2: WAITS_N}, draws="N", dead=CLEAN)
    events = drive(state, [(1, "announce riichi N"), (2, "pass")])
    assert (1, BANK, 1000) in paid(events) and table(state)["sticks"] == 1


def test_a_call_by_any_seat_ends_ippatsu() -> None:
    """South's riichi is followed by North's pon of West's red dragon, then
    North's 8D: South wins on it before its own next discard, but the call
    came between, so there is no ippatsu (RIICHI's wait is 5D/8D)."""
    west = "2B 5B 8B 2C 5C 8C 3D 6D 9D E S RD W"
    north = "RD RD 3B 6B 9B 3C 6C 9C 1D 4D 7D 8D WD"
    state = deal(G, {0: EAST, 1: RIICHI, 2: west, 3: north}, draws="N GD", dead=CLEAN)
    events = drive(state, [(1, "announce riichi N"), (2, "discard RD"),
                           (3, "claim pon RD RD"), (3, "discard 8D"), (1, "claim ron")])
    assert winner(events) == 1
    assert scored(events)["yaku"] == [["double-riichi", 2]]


# -- kan dora ----------------------------------------------------------------------

OPEN_KAN_EAST = "7C 1B 4B 7B 1C 4C 2D 6D 9D E S N RD WD"
OPEN_KAN_SOUTH = "7C 7C 7C 2B 3B 4B 3D 4D 5D 9B 9B 6D 7D"


def test_an_open_kans_indicator_turns_after_its_discard(tmp_path: Path) -> None:
    """South's open kan of East's 7C draws its replacement with one
    indicator face up; the second turns when South discards. With
    kong_indicators: at-once it is face up as the replacement is drawn."""
    state = deal(G, {0: OPEN_KAN_EAST, 1: OPEN_KAN_SOUTH}, dead={**CLEAN, 0: "WD"})
    drive(state, [(0, "discard 7C"), (1, "claim kan 7C 7C 7C")])
    assert state.turn == 1 and table(state)["indicators"] == ["GD"]
    drive(state, [(1, "discard WD")])
    assert len(table(state)["indicators"]) == 2
    at_once = extended(tmp_path, "dead_wall: {tiles: 14, ura: true, kong_indicators: at-once}\n")
    state = deal(at_once, {0: OPEN_KAN_EAST, 1: OPEN_KAN_SOUTH}, dead={**CLEAN, 0: "WD"})
    drive(state, [(0, "discard 7C"), (1, "claim kan 7C 7C 7C")])
    assert state.turn == 1 and len(table(state)["indicators"]) == 2


# -- abortive draws --------------------------------------------------------------

NINE_ORPHANS = "1B 9B 1C 9C 1D 9D E S W N RD 5B 5C 6C"  # ten kinds of terminals and honours


def test_nine_kinds_of_orphans_on_the_first_turn_may_abort_the_round(tmp_path: Path) -> None:
    """The dealer holds ten kinds of terminals and honours on its first
    turn: it may end the round drawn (kyuushu kyuuhai); no payment, the
    dealer deals again with a honba. Not on a later turn; never with
    abortive.orphans: 0."""
    state = deal(G, {0: NINE_ORPHANS}, dead=CLEAN)
    assert "abort" in legal(state, 0)
    events = drive(state, [(0, "abort")])
    assert aborted(events) == ["orphans"] and paid(events) == []
    assert of_kind(events, EventKind.ROUND_ENDED)[0].detail["winner"] is None
    assert state.dealer == 0 and table(state)["honba"] == 1 and state.scores == [25000] * 4
    state = deal(G, {0: NINE_ORPHANS}, dead=CLEAN)
    drive(state, [(0, "discard 6C")])
    to_turn(state, 0)
    assert "abort" not in legal(state, 0)
    off = extended(tmp_path, "abortive: {orphans: 0}\n")
    assert "abort" not in legal(deal(off, {0: NINE_ORPHANS}, dead=CLEAN), 0)


FOUR_WINDS = {0: "E 1B 4B 7B 1C 4C 7C 2D 6D 9D S N RD WD",
              1: "E 2B 5B 8B 2C 5C 8C 3D 6D 9D S N GD", 2: "E 3B 6B 9B 3C 6C 9C 1D 4D 7D S N WD",
              3: "E 1B 4B 7B 1C 4C 7C 2D 5D 8D W N RD"}


def test_the_same_wind_as_every_first_discard_aborts_the_round(tmp_path: Path) -> None:
    """East, South, West and North each let go of E first, no call: the
    round ends drawn once North's E is let go; with first_discards: [] it
    plays on."""
    script = [(0, "discard E"), (1, "discard E"), (2, "discard E"), (3, "discard E")]
    state = deal(G, FOUR_WINDS, dead=CLEAN)
    events = drive(state, script)
    assert aborted(events) == ["first_discards"] and state.dealer == 0
    off = extended(tmp_path, "abortive: {first_discards: []}\n")
    state = deal(off, FOUR_WINDS, dead=CLEAN)
    events = drive(state, script)
    assert aborted(events) == [] and len(state.results) == 0


FOUR_RIICHI = {0: "1C 1C 1C 2B 3B 4B 6D 7D 8D 9B 9B 3D 4D N",
               1: "2C 2C 2C 5B 6B 7B 6C 7C 8C 1B 1B 4C 5C",
               2: "3C 3C 3C 7B 8B 9B 1D 2D 3D 9C 9C 5D 6D",
               3: "4B 4B 4B 2D 3D 4D 7C 8C 9C 1D 1D 5B 6B"}


def test_four_riichi_abort_the_round_with_their_sticks_on_the_table() -> None:
    """Every seat declares riichi in turn: once North's declaring discard
    is let go the round ends drawn, the four sticks staying on the table."""
    state = deal(G, FOUR_RIICHI, draws="W S E", dead=CLEAN)
    events = drive(state, [(0, "announce riichi N"), (1, "announce riichi W"),
                           (2, "announce riichi S"), (3, "announce riichi E")])
    assert aborted(events) == ["all_declared"]
    assert table(state)["sticks"] == 4 and state.scores == [24000] * 4


FOUR_KANS = {1: "1C 1C 1C 1C 2C 2C 2C 2C 3C 3C 3C 3C 5B",
             2: "4C 4C 4C 4C 1B 4B 7B 2D 5D 8D E S W"}


def test_four_kans_by_two_seats_abort_the_round(tmp_path: Path) -> None:
    """South declares three concealed kans, West the fourth: once West's
    discard after it is let go the round ends drawn; with kongs_apart:
    false it plays on."""
    script = [(1, "kong 1C"), (1, "kong 2C"), (1, "kong 3C"), (2, "kong 4C")]
    state = deal(G, FOUR_KANS, dead=CLEAN)
    drive(state, script)
    assert aborted(until_round_ends(state)) == ["kongs_apart"]
    assert state.results[-1].turns == 3  # East, South and West discarded, then it ended
    off = extended(tmp_path, "abortive: {kongs_apart: false}\n")
    state = deal(off, FOUR_KANS, dead=CLEAN)
    drive(state, script)
    assert aborted(until_round_ends(state)) == []


# three hands of tanyao and pinfu, each waiting on 2D/5D
RONS = ("2B 3B 4B 5C 6C 7C 6B 7B 8B 8C 8C 3D 4D", "2C 3C 4C 5B 6B 7B 6C 7C 8C 6D 6D 3D 4D",
        "3B 4B 5B 3C 4C 5C 6D 7D 8D 8D 8D 3D 4D")
RON_EAST = "1B 4B 7B 1C 4C 7C 2D 5D 9D E S N RD WD"


@pytest.mark.parametrize("rons", [2, 3])
def test_three_rons_on_one_discard_abort_the_round_and_two_go_to_the_nearest(
        rons: int) -> None:
    """East's 5D completes three hands (South, West, North): three rons end
    the round drawn; two (North lets it go) go to the nearest seat in turn,
    South (atamahane)."""
    state = deal(G, {0: RON_EAST, 1: RONS[0], 2: RONS[1], 3: RONS[2]}, dead=CLEAN)
    script = [(0, "discard 5D"), (1, "claim ron"), (2, "claim ron"),
              (3, "claim ron" if rons == 3 else "pass")]
    events = drive(state, script)
    if rons == 3:
        assert aborted(events) == ["wins_at_once"] and paid(events) == []
    else:
        assert aborted(events) == [] and winner(events) == 1


# -- nagashi mangan -----------------------------------------------------------------

def nagashi_deal(g: Game) -> State:
    """South holds simples only and draws a terminal or honour every turn,
    every other seat simples: South lets go of orphans alone all round."""
    deck = g.spec.deck
    assert g.spec.scored is not None
    orphans = sorted(deck.code(k) for k in g.spec.scored.hand.orphans)
    south = "2B 3B 4B 5B 6B 7B 2C 3C 4C 5C 6C 7C 8C"
    left = {k.code: 4 for k in deck.kinds}
    for code in (*south.split(), *EAST.split(), "GD", "GD"):
        left[code] -= 1
    simples = [c for c in left if c not in orphans for _ in range(left[c])]
    odd = [c for c in orphans for _ in range(left[c])]
    live = len(deck.wall()) - 53 - 14  # the deal's 53 tiles and the dead wall apart
    draws = [odd.pop() if i % 4 == 0 else simples.pop() for i in range(live)]
    return deal(g, {0: EAST, 1: south}, draws=" ".join(draws), dead=CLEAN)


def test_a_seat_that_lets_go_of_orphans_alone_is_paid_nagashi_mangan(tmp_path: Path) -> None:
    """South lets go of a terminal or honour every turn and none is
    claimed: at the wall game it is paid a mangan as if self-drawn (4,000
    from the dealer, 2,000 from each other seat), and no tenpai payment is
    made; with only the tenpai payments written, nothing is paid to it."""
    state = nagashi_deal(G)
    events = until_round_ends(state)
    assert of_kind(events, EventKind.ROUND_ENDED)[0].detail["winner"] is None
    assert sorted(paid(events)) == [(0, 1, 4000), (2, 1, 2000), (3, 1, 2000)]
    tenpai_only = extended(tmp_path, "scoring:\n  wall_game:\n    - payer: each-opponent\n"
                           "      to: each\n      amount: \"if waiting and not payer_waiting "
                           "then 1000 else 0\"\n")
    events = until_round_ends(nagashi_deal(tenpai_only))
    assert not any(amount in (2000, 4000) for _, _, amount in paid(events))


# -- the match's end -----------------------------------------------------------------

WEST_ROUND = ('match: {end: "lowest < 0 or passes >= 3 * players or '
              'passes >= 2 * players and highest >= 30000"}\n')


@pytest.mark.parametrize(("passes", "scores", "riichi_over", "west_over"), [
    (8, [29000, 27000, 24000, 20000], True, False),  # South's last deal, nobody at 30,000
    (8, [31000, 27000, 22000, 20000], True, True),   # someone reached it
    (9, [30000, 27000, 23000, 20000], True, True),   # sudden death: the first to reach it
    (12, [29000, 27000, 24000, 20000], True, True),  # the West round played out
    (3, [40000, 27000, 34000, -1000], True, True),   # tobi: a seat below zero
])
def test_the_west_round_plays_on_until_a_seat_reaches_the_target(
        tmp_path: Path, passes: int, scores: list[int], riichi_over: bool,
        west_over: bool) -> None:
    """riichi ends after South (8 deal passes) or when a seat goes below
    zero (tobi); a variant whose match.end says so plays the West round
    as sudden death: on until a seat reaches 30,000, at most West's four deals."""
    west = extended(tmp_path, WEST_ROUND)
    for g, over in ((G, riichi_over), (west, west_over)):
        assert g.spec.match is not None
        assert bool(g.spec.match.end(match_facts(g.spec, passes + 1, scores, passes))) is over


# -- liability (pao) -----------------------------------------------------------------

PAO_SOUTH = "WD WD GD GD RD RD 2B 3B 4B 5C 6C 7C 9D"
PAO_WEST = "GD RD 2B 5B 8B 2C 3C 8C 3D 6D 9D E S"
PAO_NORTH = "5C 3B 6B 9B 3C 6C 9C 1D 4D 7D N W W"
PAO_SCRIPT = [(0, "discard WD"), (1, "claim pon WD WD"), (1, "discard 9D"),
              (2, "discard GD"), (1, "claim pon GD GD"), (1, "discard 7C"),
              (2, "discard RD"), (1, "claim pon RD RD"), (1, "discard 6C")]
PLAIN = {13: "8B", 12: "8B"}


@pytest.mark.parametrize("self_drawn", [True, False])
def test_the_seat_that_gave_the_third_dragon_pung_is_liable_for_daisangen(
        tmp_path: Path, self_drawn: bool) -> None:
    """South pons East's white dragon, then West's green and red: West
    gave the third. South's daisangen self-drawn is paid whole by West
    (32,000); won on North's discard, North and West pay half each. With
    `liability: []` the payments are the plain ones."""
    hands = {0: EAST, 1: PAO_SOUTH, 2: PAO_WEST, 3: PAO_NORTH}
    win = [(1, "declare")] if self_drawn else [(3, "discard 5C"), (1, "claim ron")]
    draws = "1D 2D 3D 9C 8C 5C"
    for g, liable in ((G, True), (extended(tmp_path, "liability: []\n"), False)):
        state = deal(g, hands, draws=draws, dead=PLAIN)
        events = drive(state, [*PAO_SCRIPT, *win])
        assert winner(events) == 1 and ["daisangen", 1] in scored(events)["yaku"]
        if self_drawn:
            assert sorted(paid(events)) == ([(2, 1, 32000)] if liable else
                                            [(0, 1, 16000), (2, 1, 8000), (3, 1, 8000)])
        else:
            assert sorted(paid(events)) == ([(2, 1, 16000), (3, 1, 16000)] if liable else
                                            [(3, 1, 32000)])


def test_with_several_wins_each_claimer_wins_and_the_nearest_takes_sticks_and_honba(
        tmp_path: Path) -> None:
    """South and West both claim a win on East's 5D. riichi gives it to
    South alone (head bump); with claims.several_wins: all both win, East
    paying each, and the stick on the table and the honba go to South, the
    nearest in turn. The dealer did not win: the deal passes."""
    def counters(doc: dict) -> None:  # type: ignore[type-arg]
        doc["scored"].update(honba=1, sticks=1, deposits=1000)

    both = extended(tmp_path, "claims:\n  several_wins: all\n")
    for g, winners in ((G, [1]), (both, [1, 2])):
        state = edited(deal(g, {0: RON_EAST, 1: RONS[0], 2: RONS[1]}, dead=CLEAN), counters)
        events = drive(state, [(0, "discard 5D"), (1, "claim ron"), (2, "claim ron")])
        assert [e.seat for e in of_kind(events, EventKind.SCORED)] == winners
        expected = [(0, 1, 2300), (BANK, 1, 1000)] + ([(0, 2, 2000)] if len(winners) > 1 else [])
        assert paid(events) == expected
        assert state.dealer == 1 and table(state)["honba"] == 0 and table(state)["sticks"] == 0
