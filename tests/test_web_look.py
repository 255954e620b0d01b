"""How the web table shows a Mah Jongg (declared, and at a round's end): the
hand in the groups of its line, each joker with the tile it stands for
(exposures as they were made, their jokers standing for the exposure's tile)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jongg.compiler.game import load_game
from jongg.runtime.game.events import Dealt, Declared, Event, RoundEnded
from jongg.runtime.game.rules import Rules
from jongg.web.look import told, winning


@cache
def rules(variant: str, players: int) -> Rules:
    return load_game(variant, players).new_match(1).rules


def shown(groups: list[Any] | None) -> list[str]:
    """Groups as 'F F F J=F'."""
    assert groups is not None
    return [" ".join(t["tile"] + (f"={t['as']}" if "as" in t else "") for t in g)
            for g in groups]


def test_an_american_hand_is_grouped_with_its_jokers_resolved() -> None:
    hand = [["F", "F", "F", "J"], ["N", "N", "N", "N"], ["4D", "J", "4D", "4D", "WD", "WD"]]
    assert shown(winning(rules("mjcg", 4), hand, "three-kongs-and-a-pair")) == [
        "F F F J=F", "N N N N", "4D 4D 4D J=4D", "WD WD"]


def test_a_siamese_rack_is_grouped_with_its_jokers_resolved() -> None:
    rack = ["3C", "3C", "7D", "7D", "7D", "9D", "9D", "9D", "F", "F", "J", "J", "J", "J"]
    assert sorted(shown(winning(rules("siamese", 2), [rack], "odd-3"))) == [
        "3C 3C J=3C J=3C", "7D 7D 7D J=7D", "9D 9D 9D J=9D", "F F"]


def test_a_hand_without_jokers_is_grouped_by_its_sets() -> None:
    hand = [["B5", "B5", "B5"], ["B1", "B2", "B3"], ["R2", "R2", "G1", "R2", "G1"]]
    assert shown(winning(rules("nymj", 4), hand, "three-sets-and-a-pair")) == [
        "B5 B5 B5", "B1 B2 B3", "R2 R2 R2", "G1 G1"]


def test_a_hand_the_line_does_not_complete_is_left_as_shown() -> None:
    hand = [["B5", "B5", "B5"], ["B1", "B2", "B4"], ["R2", "R2", "G1", "R2", "G1"]]
    assert winning(rules("nymj", 4), hand, "three-sets-and-a-pair") is None
    assert winning(rules("nymj", 4), [["B5", "??"]], "three-sets-and-a-pair") is None


def test_a_rounds_end_is_sent_with_each_mahjong_filled_and_the_event_unchanged() -> None:
    rack = ["3C", "3C", "7D", "7D", "7D", "9D", "9D", "9D", "F", "F", "J", "J", "J", "J"]
    mahjongs = [{"seat": 1, "rack": 0, "line": "odd-3", "tiles": rack}]
    end = Event(1, (), RoundEnded(0, 1, None, True, "odd-3", 0, 9, [rack], "won", mahjongs),
                number=9)
    sent = told(rules("siamese", 2), end)
    assert "J=7D" in " ".join(shown(sent["mahjongs"][0]["filled"]))
    assert "filled" not in sent  # several racks: each Mah Jongg its own
    assert "filled" not in end.detail["mahjongs"][0]  # the match's events never change
    one = Event(0, (), RoundEnded(0, 0, None, True, "three-kongs-and-a-pair", 0, 9, [
        ["4D", "J", "4D", "4D", "F", "F", "F", "F", "N", "N", "N", "N", "WD", "WD"]], "won"))
    assert sorted(shown(told(rules("mjcg", 4), one)["filled"])) == [
        "4D 4D 4D J=4D", "F F F F", "N N N N", "WD WD"]
    assert "filled" not in told(rules("mjcg", 4), Event(0, (), Dealt(0, 0, 100)))


def test_a_mahjong_declared_on_a_rack_is_told_in_its_lines_groups() -> None:
    rack = ("3C", "3C", "7D", "7D", "7D", "9D", "9D", "9D", "F", "F", "J", "J", "J", "J")
    declared = Event(0, rack, Declared(1, "odd-3", 25))
    sent = told(rules("siamese", 2), declared)
    assert sorted(shown(sent["filled"])) == [
        "3C 3C J=3C J=3C", "7D 7D 7D J=7D", "9D 9D 9D J=9D", "F F"]
    assert sent["tiles"] == list(rack)  # the tiles as declared, kept
