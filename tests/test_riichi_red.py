"""Red fives in play (hand_scoring.dora.red, runtime/game/red.py): one copy
of each five is red, a five for every pattern and a dora to its holder; the
round's chance chooses which copies, the seat holding one sees it, and one
exposed or let go is seen by all. Scripted deals say where the red copies
are (scored_rig.deal's `red`); seat 0 deals, seat 1 is South."""

from __future__ import annotations

import json
from pathlib import Path

from jongg.present.seen import Seen
from jongg.present.table import frame
from jongg.present.text import plain

from .rig import game
from .scored_rig import deal, drive, legal, to_turn
from .test_riichi_play import CLEAN, EAST, RIICHI, scored, table
from .test_riichi_rules import extended

G = game("riichi")
FIVE_B = G.spec.deck.by_code["5B"].index
NO_YAKU = "1C 1C 1C 2D 3D 4D 7B 8B 9B 9D 9D 5B 6B"  # waits 4B/7B; menzen tsumo on a draw


def red(state_doc: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in state_doc["scored"].items() if k.startswith("red")}


def test_a_red_five_held_is_a_dora_more() -> None:
    """South's self-drawn 7B scores menzen tsumo and the 9B dora (2 han);
    with its 5B the red copy, 3 han."""
    for held, han in (([], 2), ([FIVE_B], 3)):
        state = deal(G, {0: EAST, 1: NO_YAKU}, draws="N 1D 1D 1D 7B",
                     dead={13: "8B", 12: "GD"}, red={"red_held": [[], held, [], []]})
        events = drive(state, [(0, "discard 4B"), (1, "pass"), (1, "discard N"),
                               (1, "declare")])
        assert scored(events)["han"] == han


def test_the_red_copy_drawn_is_the_drawers_and_only_it_sees_it() -> None:
    """The live wall's last tile (South's first draw) is the red 5B: South
    holds it and is told so; West is not."""
    state = deal(G, {0: EAST, 1: RIICHI}, draws="5B", dead=CLEAN,
                 red={"red_wall": [[68, FIVE_B]]})
    to_turn(state, 1)
    assert table(state, 1)["red"]["held"] == ["5B"]
    assert table(state, 2)["red"] == {"held": [], "shown": [[]] * 4, "discards": [[]] * 4}
    assert "red fives held (a dora each): 5B" in [plain(t) for t in
                                                  frame(Seen.of(state, 1)).notes]


def test_a_seat_lets_go_of_a_plain_five_before_its_red_one_and_all_see_the_red() -> None:
    """South holds two 5B, one red: its first 5B let go is the plain one,
    the second the red one, which every seat then sees among its discards."""
    south = "5B 5B 1C 1C 1C 2B 3B 4B 3D 4D 5D 9B 9B"
    state = deal(G, {0: EAST, 1: south}, draws="N 1D", dead=CLEAN,
                 red={"red_held": [[], [FIVE_B], [], []]})
    drive(state, [(1, "discard 5B")])
    assert table(state, 1)["red"]["held"] == ["5B"] and table(state, 2)["red"]["discards"][1] == []
    to_turn(state, 1)
    drive(state, [(1, "discard 5B")])
    assert table(state, 1)["red"]["held"] == []
    assert table(state, 2)["red"]["discards"][1] == [1]
    south_panel = next(p for p in frame(Seen.of(state, 2)).seats if p.seat == 1)
    assert "red 5B" in plain(south_panel.head)


def test_a_red_discard_claimed_is_shown_in_the_claimers_exposure() -> None:
    """West pons South's red 5B: the red copy is West's, in its exposure."""
    south = "5B 1C 1C 1C 2B 3B 4B 3D 4D 5D 9B 9B N"
    west = "5B 5B 2C 5C 8C 3D 6D 9D E S W N GD"
    state = deal(G, {0: EAST, 1: south, 2: west}, draws="S", dead=CLEAN,
                 red={"red_held": [[], [FIVE_B], [], []]})
    drive(state, [(1, "discard 5B"), (2, "claim pon 5B 5B")])
    assert table(state, 0)["red"]["shown"][2] == ["5B"]
    assert table(state, 0)["red"]["discards"][1] == []


def test_the_round_deals_one_red_copy_of_each_five_unless_the_option_is_off(
        tmp_path: Path) -> None:
    """riichi's red_fives option (default true) puts one red copy of 5B, 5C
    and 5D in each round, somewhere among the 136; a variant with it false
    has none."""
    off = extended(tmp_path, "options:\n  red_fives: {default: false, doc: none}\n")
    for g, copies in ((G, 3), (off, 0)):
        for seed in range(5):
            doc = json.loads(g.new_match(seed).position())["scored"]
            placed = sum(map(len, doc["red_held"])) + len(doc["red_wall"]) + len(doc["red_dead"])
            assert placed == copies


def test_a_win_on_a_red_discard_counts_the_red_copy() -> None:
    """East lets go of its 5D, South's pinfu wait: 1 han, and 2 when that
    5D is East's red copy (then South's)."""
    five_d = G.spec.deck.by_code["5D"].index
    east = "1B 4B 7B 1C 4C 7C 2D 5D 9D E S N RD WD"
    pinfu = "2B 3B 4B 5C 6C 7C 3D 4D 5D 9B 9B 6D 7D"
    for held, han in (([], 1), ([five_d], 2)):
        state = deal(G, {0: east, 1: pinfu}, dead=CLEAN, red={"red_held": [held, [], [], []]})
        events = drive(state, [(0, "discard 5D"), (1, "claim ron")])
        assert scored(events)["han"] == han


def test_holding_a_red_and_a_plain_five_the_seat_chooses_which_to_let_go() -> None:
    """East holds two 5B, one red (dora.red.chosen): `discard 5B` lets go of
    the plain one, its red copy still held; `discard 5B red` of the red one,
    which every seat then sees among East's discards. Holding only the red
    one, or only plain ones, there is nothing to choose."""
    east = "1B 4B 5B 5B 1C 4C 7C 2D 6D 9D E S N RD"
    for text, held, thrown in (("discard 5B", ["5B"], []), ("discard 5B red", [], [0])):
        state = deal(G, {0: east, 1: RIICHI}, dead=CLEAN, red={"red_held": [[FIVE_B], [], [], []]})
        assert {"discard 5B", "discard 5B red"} <= set(legal(state, 0))
        drive(state, [(0, text)])
        assert table(state, 0)["red"]["held"] == held
        assert table(state, 2)["red"]["discards"][0] == thrown
    alone = deal(G, {0: EAST.replace("4B", "5B"), 1: RIICHI}, dead=CLEAN,
                 red={"red_held": [[FIVE_B], [], [], []]})
    plain_only = deal(G, {0: east, 1: RIICHI}, dead=CLEAN)
    for state in (alone, plain_only):
        assert "discard 5B" in legal(state, 0) and "discard 5B red" not in legal(state, 0)
