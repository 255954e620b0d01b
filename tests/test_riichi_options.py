"""Riichi's rule-set differences that are options of the table, each on a
scripted deal and each switched by a variant that extends riichi: the round
of a double ron naming every winner, honba to each winner of one, kuikae
(no discard of the tile a call swapped), renhou.

Seat 0 deals (East), seat 1 is South."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jongg.present.results import round_result
from jongg.present.seen import Seen
from jongg.present.text import plain
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.actions import parse_action
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.log import replay, round_record
from jongg.runtime.game.rules import Mode
from jongg.runtime.game.scoring import BANK
from jongg.runtime.game.state import IllegalAction, State

from .rig import edited, game
from .scored_rig import deal, drive, legal, of_kind
from .test_riichi_play import CLEAN, EAST, paid, scored
from .test_riichi_rules import RON_EAST, RONS, extended

G = game("riichi")


def counters(doc: dict[str, Any]) -> None:
    doc["scored"].update(honba=1, sticks=1, deposits=1000)


# -- several wins on one discard -----------------------------------------------------

def test_a_double_ron_round_names_every_winner_with_its_payments(tmp_path: Path) -> None:
    """South and West both win on East's 5D (claims.several_wins: all): the
    round's end (its record, the round_ended event, the log's round line,
    the position and the words a seat is told) names both, nearest first,
    each with what East paid it; a round with one winner names none."""
    both = extended(tmp_path, "claims:\n  several_wins: all\n")
    state = edited(deal(both, {0: RON_EAST, 1: RONS[0], 2: RONS[1]}, dead=CLEAN), counters)
    events = drive(state, [(0, "discard 5D"), (1, "claim ron"), (2, "claim ron")])
    end = of_kind(events, EventKind.ROUND_ENDED)[0].detail
    assert end["winner"] == 1
    named = [(w["seat"], [(p["payer"], p["payee"], p["amount"]) for p in w["paid"]])
             for w in end["winners"]]
    assert named == [(1, [(0, 1, 2300), (BANK, 1, 1000)]), (2, [(0, 2, 2000)])]
    assert [w["line"] for w in end["winners"]] == ["four-sets-and-a-pair"] * 2
    assert all(sum(len(g) for g in w["shown"]) == 14 for w in end["winners"])
    assert state.results[0].public()["winners"] == end["winners"]
    assert round_record(state, 0)["winners"] == end["winners"]
    again = edited(state, lambda doc: None)
    assert again.results[0].public()["winners"] == end["winners"]
    told = [plain(t) for t in round_result(Seen.of(state, 3), of_kind(
        state.events, EventKind.ROUND_ENDED)[0]).lines]
    wins = [t for t in told if " wins with " in t]
    assert [t.split()[0] for t in wins] == ["South", "West"]
    assert told.index(wins[1]) < told.index("  East pays West 2000")
    assert told.index(wins[0]) < told.index("  East pays South 2300") < told.index(wins[1])
    single = edited(deal(G, {0: RON_EAST, 1: RONS[0], 2: RONS[1]}, dead=CLEAN), counters)
    events = drive(single, [(0, "discard 5D"), (1, "claim ron"), (2, "claim ron")])
    assert "winners" not in of_kind(events, EventKind.ROUND_ENDED)[0].detail
    assert "winners" not in single.results[0].public()
    assert paid(events) == [(0, 1, 2300), (BANK, 1, 1000)]


def test_a_double_ron_is_logged_with_every_winner_and_replays(tmp_path: Path) -> None:
    """Seed 7's greedy match has a double ron (claims.several_wins: all) in
    its fourth round: the log's round line names both winners, and the log
    replays (`jongg replay`'s check) to the same state."""
    both = extended(tmp_path, "claims:\n  several_wins: all\n")
    log = tmp_path / "double.jsonl"
    _, state = play_match(both, 7, ("greedy",), log=log, check=True)
    lines = [json.loads(t) for t in log.read_text(encoding="utf-8").splitlines()]
    rounds = [d for d in lines if d.get("event") == "round"]
    doubled = [d for d in rounds if "winners" in d]
    assert [d["round"] for d in doubled] == [3] and len(doubled[0]["winners"]) == 2
    assert doubled[0]["winners"][0]["seat"] == doubled[0]["winner"]
    result = replay(log, both)
    assert result.complete and result.problems == []
    assert result.state.digest() == state.digest()


# -- kuikae: no discard of the tile a call swapped -------------------------------------

SOUTH_RUNS = "1B 2B 3B 4B 5B 6B 7B 9C 9C 9C 2D 2D W"


def discards(state: State, seat: int) -> set[str]:
    return {t.split()[1] for t in legal(state, seat) if t.startswith("discard ")}


def test_after_a_chi_the_called_tile_and_the_runs_other_end_are_not_offered(
        tmp_path: Path) -> None:
    """South chis East's 4B with 5B 6B: it may not discard 4B (the tile
    called) nor 7B (4B-5B-6B's other end, the same run with 5B 6B); with
    2B 3B the other end is 1B; called in the middle only 4B is barred.
    claims.kuikae: [called] bars the called tile alone, [] none; a barred
    discard is refused in strict mode too."""
    expected = {"5B 6B": {"4B", "7B"}, "2B 3B": {"4B", "1B"}, "3B 5B": {"4B"}}
    held = set(SOUTH_RUNS.split())
    for used, barred in expected.items():
        state = deal(G, {0: EAST, 1: SOUTH_RUNS}, dead=CLEAN)
        drive(state, [(0, "discard 4B"), (1, f"claim chi {used}")])
        assert state.turn == 1 and discards(state, 1) == (held - set(used.split())) - barred
    for written, barred in (("[called]", {"4B"}), ("[]", set())):
        g = extended(tmp_path, f"claims:\n  kuikae: {written}\n")
        state = deal(g, {0: EAST, 1: SOUTH_RUNS}, dead=CLEAN)
        drive(state, [(0, "discard 4B"), (1, "claim chi 5B 6B")])
        assert discards(state, 1) == (held - {"5B", "6B"}) - barred
    strict = deal(G, {0: EAST, 1: SOUTH_RUNS}, dead=CLEAN, mode=Mode.STRICT)
    drive(strict, [(0, "discard 4B"), (1, "claim chi 5B 6B")])
    with pytest.raises(IllegalAction):
        strict.apply(1, parse_action(G.spec.deck, "discard 7B"))


def test_after_a_pon_the_called_tile_is_not_offered() -> None:
    """South pons East's 9D holding a third: it may not discard that 9D."""
    south = "9D 9D 9D 1B 2B 3B 5C 6C 7C 2D 3D 4D W"
    state = deal(G, {0: EAST, 1: south}, dead=CLEAN)
    drive(state, [(0, "discard 9D"), (1, "claim pon 9D 9D")])
    assert state.turn == 1 and "9D" not in discards(state, 1)
    assert discards(state, 1) == {"1B", "2B", "3B", "5C", "6C", "7C", "2D", "3D", "4D", "W"}


# -- renhou ------------------------------------------------------------------------------

def test_renhou_is_a_win_on_a_discard_before_the_seats_first_draw(tmp_path: Path) -> None:
    """South (pinfu, tanyao: 2 han, 2,000) wins on East's first discard, 5D,
    before its own first draw. riichi leaves renhou off: 2,000. With the
    option renhou it is 5 han more (7: haneman, 12,000), with renhou_yakuman
    a yakuman (32,000: tanyao and pinfu drop). Won on East's second discard,
    after South's first draw, it is no renhou."""
    on = extended(tmp_path, "options:\n  renhou: {default: true, doc: played}\n")
    (tmp_path / "mine.yaml").rename(tmp_path / "on.yaml")
    yakuman = extended(tmp_path, "options:\n  renhou: {default: true, doc: played}\n"
                       "  renhou_yakuman: {default: true, doc: played}\n")
    for g, yaku, amount in ((G, [["pinfu", 1], ["tanyao", 1]], 2000),
                            (on, [["pinfu", 1], ["renhou", 5], ["tanyao", 1]], 12000),
                            (yakuman, [["renhou-yakuman", 1]], 32000)):
        state = deal(g, {0: RON_EAST, 1: RONS[0]}, dead=CLEAN)
        events = drive(state, [(0, "discard 5D"), (1, "claim ron")])
        assert sorted(scored(events)["yaku"]) == yaku and paid(events) == [(0, 1, amount)]
    east = RON_EAST.replace("5D", "WD")
    state = deal(on, {0: east, 1: RONS[0]}, draws="N S W 5D", dead=CLEAN)
    events = drive(state, [(0, "discard WD"), (1, "discard N"), (0, "discard 5D"),
                           (1, "claim ron")])
    assert sorted(scored(events)["yaku"]) == [["pinfu", 1], ["tanyao", 1]]


# -- honba to each winner of a double ron ---------------------------------------------------

def test_with_several_honba_each_every_winner_of_a_double_ron_is_paid_the_honba(
        tmp_path: Path) -> None:
    """South and West both win on East's 5D with one honba on the table:
    by default South (the nearest) alone takes its 300, with
    claims.several_honba: each West is paid 300 on top of its 2,000 too;
    the stick stays the nearest's."""
    nearest = extended(tmp_path, "claims:\n  several_wins: all\n")
    (tmp_path / "mine.yaml").rename(tmp_path / "nearest.yaml")
    each = extended(tmp_path, "claims:\n  several_wins: all\n  several_honba: each\n")
    for g, west in ((nearest, 2000), (each, 2300)):
        state = edited(deal(g, {0: RON_EAST, 1: RONS[0], 2: RONS[1]}, dead=CLEAN), counters)
        events = drive(state, [(0, "discard 5D"), (1, "claim ron"), (2, "claim ron")])
        assert paid(events) == [(0, 1, 2300), (BANK, 1, 1000), (0, 2, west)]
        assert state.dealer == 1 and state.observation(1)["table"]["honba"] == 0
