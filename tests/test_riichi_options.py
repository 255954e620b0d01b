"""Riichi's rule-set differences that are options of the table, each on a
scripted deal and each switched by a variant that extends riichi: the round
of a double ron naming every winner, honba to each winner of one, kuikae
(no discard of the tile a call swapped), renhou.

Seat 0 deals (East), seat 1 is South."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jongg.present.results import round_result
from jongg.present.seen import Seen
from jongg.present.text import plain
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.log import round_record
from jongg.runtime.game.scoring import BANK

from .rig import edited, game
from .scored_rig import deal, drive, of_kind
from .test_riichi_play import CLEAN, paid
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
