"""A scored game as the terminal and the web table tell it (jongg/present/
scoredtell.py): the indicators, honba and sticks in the header, each seat's
wind and declaration, one's own furiten, a declaration and a win's yaku,
dora, fu item by item, limit and points."""

from __future__ import annotations

from jongg.present.narrate import Narrator
from jongg.present.seen import Seen
from jongg.present.table import frame
from jongg.present.text import plain

from .rig import game
from .scored_rig import deal, drive
from .test_riichi_play import CLEAN, EAST, PINFU, RIICHI

G = game("riichi")


def test_a_riichi_and_its_win_are_told_with_the_yaku_and_fu() -> None:
    state = deal(G, {0: EAST, 1: RIICHI}, draws="N 8D", dead=CLEAN)
    drive(state, [(1, "announce riichi N")])
    seen = frame(Seen.of(state, 0))
    assert "dora indicators GD" in seen.header and "honba 0" in seen.header \
        and "sticks 1" in seen.header and "E round" in seen.header
    south = next(p for p in seen.seats if p.seat == 1)
    assert "RIICHI" in plain(south.head) and " S " in f" {plain(south.head)} "
    start = len(state.events_for(2))
    drive(state, [(1, "claim ron")])
    told = [plain(t) for t in Narrator(state._rules, 2).tell(state.events_for(2)[start:])]
    assert "South declares riichi on the first turn (1,000 on the table)" in \
        [plain(t) for t in Narrator(state._rules, 2).tell(state.events_for(2))]
    assert "double-riichi 2, ippatsu 1: 3 han 40 fu (base 30 + pungs and kans 8), " \
        "6,200 points; indicators GD, ura GD" in told  # the stick back with the 5,200


def test_ones_own_furiten_is_noted() -> None:
    state = deal(G, {0: EAST, 1: PINFU}, draws="8D", dead=CLEAN)
    drive(state, [(1, "discard 8D")])
    assert "furiten: you may not win on a discard" in [plain(t) for t in
                                                      frame(Seen.of(state, 1)).notes]
    assert not any("furiten" in plain(t) for t in frame(Seen.of(state, 2)).notes)


def test_an_abortive_draw_is_told_with_its_reason() -> None:
    state = deal(G, {0: "1B 9B 1C 9C 1D 9D E S W N RD 5B 5C 6C"}, dead=CLEAN)
    drive(state, [(0, "abort")])
    told = [plain(t) for t in Narrator(state._rules, 2).tell(state.events_for(2))]
    assert "East ends the round: nine kinds of terminals and honours on a first turn " \
        "(an abortive draw)" in told
