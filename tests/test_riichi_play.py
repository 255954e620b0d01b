"""Riichi played (rulesets/variants/riichi.yaml): each construct of a scored
game proved on a scripted deal. A win needs a yaku and is paid what the hand
scoring says (win.scored); the dead wall's indicators make dora; riichi is a
declaration made with a discard (deposit, locked hand, double riichi,
ippatsu); furiten bars a ron; kongs draw their replacement from the dead
wall and an added kong may be robbed; a wall game pays the seats in tenpai
and the dealer in tenpai keeps the deal, honba counting up.

Seat 0 deals (East), seat 1 is South. Tile codes: B bamboo, C characters,
D dots."""

from __future__ import annotations

import random
from typing import Any

from jongg.runtime.game import scored as sc
from jongg.runtime.game.events import Event, EventKind
from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.state import State
from jongg.runtime.scoring.readings import completes

from .rig import game
from .scored_rig import deal, drive, legal, of_kind, to_turn, until_round_ends

G = game("riichi")
EAST = "1B 4B 7B 1C 4C 7C 2D 6D 9D E S N RD WD"  # 14 tiles, far from tenpai; S goes first
# waits 4B/7B; no yaku on a ron (a pung of terminals, a 9D pair, no tanyao)
NO_YAKU = "1C 1C 1C 2D 3D 4D 7B 8B 9B 9D 9D 5B 6B"
# waits 5D/8D; riichi is its only yaku on a ron
RIICHI = "1C 1C 1C 2B 3B 4B 3D 4D 5D 9B 9B 6D 7D"
# waits 5D/8D; pinfu without a declaration
PINFU = "2B 3B 4B 5C 6C 7C 3D 4D 5D 9B 9B 6D 7D"
WEST = "2B 5B 8B 2C 5C 8C 3D 6D 9D E S W N"  # far from tenpai
NORTH = "3B 6B 9B 3C 6C 9C 1D 4D 7D GD WD RD N"
CLEAN = {13: "GD", 12: "GD"}  # the indicator and the one under it make RD a dora


def scored(events: list[Event]) -> dict[str, Any]:
    found = of_kind(events, EventKind.SCORED)
    assert len(found) == 1
    return found[0].detail


def paid(events: list[Event]) -> list[tuple[int, int, int]]:
    return [(e.detail["payer"], e.detail["payee"], e.detail["amount"])
            for e in of_kind(events, EventKind.PAID)]


def table(state: State, seat: int = 1) -> dict[str, Any]:
    """The scored game's table as the seat sees it."""
    seen: dict[str, Any] = state.observation(seat)["table"]
    return seen


def winner(events: list[Event]) -> int | None:
    winners: list[int | None] = [e.detail["winner"]
                                 for e in of_kind(events, EventKind.ROUND_ENDED)]
    assert len(winners) == 1
    return winners[0]


def test_a_complete_hand_without_a_yaku_is_no_win_and_a_self_draw_is_scored() -> None:
    """The discard 4B completes South's hand, but with no yaku there is no
    ron to claim; the same hand self-drawn has menzen tsumo, and is paid as
    the hand scoring says: 1 han and 1 dora (the indicator 8B makes 9B a
    dora), 40 fu (7B read as closing 7B 8B 9B is an edge wait), the dealer
    paying double."""
    state = deal(G, {0: EAST, 1: NO_YAKU}, draws="N 1D 1D 1D 7B", dead={13: "8B", 12: "GD"})
    drive(state, [(0, "discard 4B")])
    assert state.current_players() == [1]
    assert legal(state, 1) == ["pass", "claim chi 5B 6B"]  # no ron: no yaku
    events = drive(state, [(1, "pass"), (1, "discard N"), (1, "declare")])
    win = scored(events)
    assert win["yaku"] == [["menzen-tsumo", 1]] and win["indicators"] == ["8B"]
    assert (win["han"], win["fu"]) == (2, 40)  # the yaku's han and the dora
    assert paid(events) == [(0, 1, 1300), (2, 1, 700), (3, 1, 700)]
    assert state.scores == [23700, 27700, 24300, 24300]


def test_double_riichi_and_ippatsu_win_with_the_deposit_back() -> None:
    """Riichi on South's first discard, no call before it, is a double
    riichi: its 1,000 stick goes on the table and a ron before South's next
    discard is ippatsu; the winner takes the stick back."""
    state = deal(G, {0: EAST, 1: RIICHI}, draws="N 8D", dead=CLEAN)
    to_turn(state, 1)
    assert "announce riichi N" in legal(state, 1)
    events = drive(state, [(1, "announce riichi N")])
    assert [e.detail for e in of_kind(events, EventKind.ANNOUNCED)] == [
        {"name": "riichi", "deposit": 1000, "first_turn": True}]
    assert state.scores[1] == 24000 and table(state)["sticks"] == 1
    events = drive(state, [(1, "claim ron")])
    win = scored(events)
    assert win["yaku"] == [["double-riichi", 2], ["ippatsu", 1]]
    assert (win["han"], win["fu"]) == (3, 40)
    assert paid(events) == [(2, 1, 5200), (BANK, 1, 1000)]
    assert state.scores == [25000, 30200, 19800, 25000] and table(state)["sticks"] == 0


def test_riichi_locks_the_hand_and_ippatsu_ends_with_the_next_discard() -> None:
    state = deal(G, {0: EAST, 1: RIICHI}, draws="N 1D 1D 1D E 9D 9D 9D W 8D", dead=CLEAN)
    drive(state, [(1, "discard N")])
    to_turn(state, 1)
    assert "announce riichi E" in legal(state, 1)
    drive(state, [(1, "announce riichi E")])
    to_turn(state, 1)
    assert legal(state, 1) == ["discard W"]  # locked: only the tile drawn
    events = drive(state, [(1, "discard W"), (1, "claim ron")])
    assert scored(events)["yaku"] == [["riichi", 1]]  # no ippatsu: South discarded since
    assert winner(events) == 1


def test_furiten_a_wait_discarded_bars_a_ron() -> None:
    """South discards 8D, one of its waits: it may not ron 5D after."""
    state = deal(G, {0: EAST, 1: PINFU}, draws="8D 5D", dead=CLEAN)
    to_turn(state, 1)
    assert "declare" in legal(state, 1)  # pinfu and menzen tsumo
    drive(state, [(1, "discard 8D")])
    assert state.observation(1)["table"]["furiten"] is True
    drive(state, [(2, "discard 5D")])
    assert 1 not in state.current_players()  # nothing to claim: no ron
    assert state.scores == [25000] * 4 and not state.results  # the round goes on


def test_passing_a_ron_bars_one_until_the_seats_next_discard() -> None:
    state = deal(G, {0: EAST, 1: PINFU}, draws="N 5D 8D 1D 2C 8D", dead=CLEAN)
    drive(state, [(1, "discard N")])
    drive(state, [(1, "pass")])  # West's 5D: South lets it go
    to_turn(state, 1)  # North's 8D went by: South could not ron it
    assert table(state)["furiten"]
    assert state.scores == [25000] * 4
    drive(state, [(1, "discard 2C")])  # South's own discard ends it
    assert not table(state)["furiten"]
    drive(state, [(1, "claim ron")])
    assert winner(state.events[-12:]) == 1


def test_a_wall_game_pays_tenpai_and_the_deal_passes_with_a_honba() -> None:
    """The live wall ends with the dead wall's 14 tiles left; South alone
    is in tenpai: each other seat pays it 1,000; the dealer was not, so the
    deal passes; honba counts 1."""
    state = deal(G, {0: EAST, 1: PINFU, 2: WEST, 3: NORTH}, dead=CLEAN)
    assert state.observation(0)["wall"] == 136 - 14 - 53
    events = until_round_ends(state)
    ended = of_kind(events, EventKind.ROUND_ENDED)[0].detail
    assert ended["winner"] is None and ended["how"] == "wall"
    assert sorted(paid(events)) == [(0, 1, 1000), (2, 1, 1000), (3, 1, 1000)]
    assert state.dealer == 1 and table(state)["honba"] == 1 and table(state)["round_wind"] == "E"


def test_the_dealer_in_tenpai_keeps_the_deal() -> None:
    east = "2B 3B 4B 5C 6C 7C 3D 4D 5D 9C 9C 6B 7B S"  # tenpai on 5B/8B once S goes
    state = deal(G, {0: east, 1: PINFU, 2: WEST, 3: NORTH}, dead=CLEAN)
    events = until_round_ends(state)
    assert sorted(paid(events)) == [(2, 0, 750), (2, 1, 750), (3, 0, 750), (3, 1, 750)]
    assert state.dealer == 0 and table(state)["honba"] == 1


def test_a_concealed_kong_draws_its_replacement_and_turns_a_new_indicator() -> None:
    """South's four 1C are a kong; its replacement (the dead wall's first
    tile) completes the hand: rinshan, on a closed hand menzen tsumo, the
    concealed kong of terminals 32 fu; the second indicator is shown."""
    south = "1C 1C 1C 1C 2B 3B 4B 3D 4D 5D 9B 6D 7D"
    east = EAST.replace("1C", "5C")
    state = deal(G, {0: east, 1: south}, draws="9B", dead={**CLEAN, 11: "GD", 0: "8D"})
    to_turn(state, 1)
    assert "kong 1C" in legal(state, 1)
    events = drive(state, [(1, "kong 1C"), (1, "declare")])
    assert [e.detail for e in of_kind(events, EventKind.KONGED)] == [{"added": False}]
    win = scored(events)
    assert sorted(win["yaku"]) == [["menzen-tsumo", 1], ["rinshan", 1]]
    assert (win["han"], win["fu"]) == (2, 60) and win["indicators"] == ["GD", "GD"]


def test_an_added_kong_may_be_robbed() -> None:
    """South pons East's 3B and later adds the fourth: West, waiting on 3B,
    robs it (chankan is its yaku)."""
    east = "3B 1B 4B 7B 1C 4C 7C 2D 6D 9D E N RD WD"
    south = "3B 3B 1C 1C 1C 2D 3D 4D 9D 9D 5B 6B N"
    west = "1B 2B 5C 6C 7C 3D 4D 5D 6D 7D 8D 9C 9C"
    state = deal(G, {0: east, 1: south, 2: west}, draws="S W W 3B", dead=CLEAN)
    drive(state, [(0, "discard 3B"), (1, "claim pon 3B 3B"), (1, "discard N")])
    to_turn(state, 1)
    assert "kong 3B" in legal(state, 1)
    drive(state, [(1, "kong 3B")])
    assert state.current_players() == [2] and legal(state, 2) == ["pass", "claim ron"]
    events = drive(state, [(2, "claim ron")])
    assert ["chankan", 1] in scored(events)["yaku"]
    assert winner(events) == 2


def test_an_open_kong_is_claimed_and_replaced_from_the_dead_wall() -> None:
    east = "7C 1B 4B 7B 1C 4C 2D 6D 9D E S N RD WD"
    south = "7C 7C 7C 2B 3B 4B 3D 4D 5D 9B 9B 6D 7D"
    state = deal(G, {0: east, 1: south}, dead={**CLEAN, 0: "WD"})
    drive(state, [(0, "discard 7C")])
    assert "claim kan 7C 7C 7C" in legal(state, 1)
    drive(state, [(1, "claim kan 7C 7C 7C")])
    seen = state.observation(1)
    assert state.turn == 1 and seen["drawn"] == "WD"
    assert seen["seats"][1]["exposures"][-1] == ["7C"] * 4


def test_chi_is_from_the_left_only_and_a_ron_outranks_a_pon() -> None:
    west = "5B 6B 5D 5D 1C 4C 7C 9D E S W N GD"
    east = "4B 1C 4C 7C 1D 2D 6D 9D E S N RD WD GD"
    state = deal(G, {0: east, 1: PINFU, 2: west}, dead=CLEAN)
    drive(state, [(0, "discard 4B")])
    assert state.current_players() == [1] and "claim chi 2B 3B" in legal(state, 1)  # West: 5B 6B
    state = deal(G, {0: east.replace("4B", "5D"), 1: PINFU, 2: west}, dead=CLEAN)
    events = drive(state, [(0, "discard 5D"), (2, "claim pon 5D 5D"), (1, "claim ron")])
    assert winner(events) == 1
    assert [e.seat for e in of_kind(events, EventKind.OUTRANKED)] == [2]


def test_a_position_keeps_the_scored_table() -> None:
    """A riichi declared, its deposit and the dead wall survive a position
    and its short form: the same observation and digest on the way back."""
    state = deal(G, {0: EAST, 1: RIICHI}, draws="N 1D", dead=CLEAN)
    drive(state, [(1, "announce riichi N")])
    for text in (state.position(), state.short_position()):
        again = G.load_position(text)
        assert again.digest() == state.digest()
        assert again.observation(1) == state.observation(1)
        assert again.observation(1)["table"]["declared"] == ["", "riichi", "", ""]


def test_a_hands_waits_are_every_tile_that_completes_it() -> None:
    """The waits (furiten, tenpai, riichi read them) looked for among the
    tiles near the hand's are every tile that completes it, as trying all
    34 finds: on 3,000 hands one tile short of a win of each form."""
    wins = G.spec.scored
    assert wins is not None
    rules = wins.hand
    rng = random.Random(7)
    orphans = sorted(rules.orphans)
    runs = [k for k in range(34) if rules.runs[k] >= 0 and rules.runs[rules.runs[k]] >= 0]
    for _ in range(3000):
        counts = [0] * 34
        form = rng.random()
        if form < 0.1:
            for k in (*orphans, rng.choice(orphans)):
                counts[k] += 1
        elif form < 0.25:
            for k in rng.sample(range(34), 7):
                counts[k] += 2
        else:
            while sum(counts) < 12:
                k = rng.choice(runs)
                group = [k, rules.runs[k], rules.runs[rules.runs[k]]] \
                    if rng.random() < 0.6 else [rng.randrange(34)] * 3
                if all(counts[t] + group.count(t) <= 4 for t in group):
                    for t in group:
                        counts[t] += 1
            pair = rng.choice([k for k in range(34) if counts[k] <= 2])
            counts[pair] += 2
        counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
        every = []
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                every += [k] if completes(counts, 0, rules.runs, rules.orphans) else []
                counts[k] -= 1
        assert every and sc.waits(wins, counts, ()) == every, counts
