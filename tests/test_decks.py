"""Decks as data: the shipped sets, combined sets, and deck-file errors."""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.compiler.deck import compile_deck, load_deck
from jongg.compiler.errors import JonggError
from jongg.compiler.source import load_text
from jongg.runtime.tiles import Category


def test_american_set_has_152_tiles():
    """MJCG-01: three suits 1-9 x4, dragons x4, winds x4, 8 flowers, 8 jokers."""
    deck = load_deck("american-152")
    assert deck.size == 152
    by_category = Counter()
    for kind in deck.kinds:
        by_category[kind.category] += kind.copies
    assert by_category == {Category.SUITED: 108, Category.DRAGON: 12, Category.WIND: 16,
                           Category.FLOWER: 8, Category.JOKER: 8}
    assert [s.code for s in deck.suits] == ["B", "C", "D"]
    assert deck.jokers == 8


def test_matching_dragons_and_white_as_zero():
    """MJCG-32, MJCG-33: Craks-Red, Bams-Green, Dots-White; White is the zero."""
    deck = load_deck("american-152")
    assert deck.matching_dragon("C").code == "RD"
    assert deck.matching_dragon("B").code == "GD"
    assert deck.matching_dragon("D").code == "WD"
    assert deck.by_letter("0").code == "WD"


def test_nymj_deck_has_75_cards_in_five_suits():
    """NYMJ-01: five suits of five cards, three copies of each."""
    deck = load_deck("nymj-75")
    assert deck.size == 75
    assert [s.code for s in deck.suits] == ["R", "B", "G", "S", "E"]
    assert all(k.copies == 3 for k in deck.kinds)
    assert Counter(k.suit for k in deck.kinds) == {s: 5 for s in "RBGSE"}
    assert deck.joker is None
    codes = [k.code for k in deck.kinds]
    assert codes[:5] == ["R1", "R2", "R3", "R4", "R5"] and "S2" in codes and "E1" in codes
    assert deck.kind("S2").name == "Summer" and deck.kind("E1").name == "Love"


def test_several_sets_shuffle_together():
    """Royale plays two 152-tile sets (SMJ-28 needs it): copies double, codes stay."""
    deck = load_deck("american-152*2")
    assert deck.size == 304 and deck.sets == 2
    assert deck.kind("5D").copies == 8 and deck.jokers == 16


def test_deck_file_errors_are_located():
    text = ("deck: odd\nsuits:\n  - {code: B, name: Bams, numbers: [1, 3], copies: 4}\n"
            "tiles:\n  - {code: RD, name: Red, category: dragon, copies: 4, matches: Q}\n"
            "  - {code: RD, name: Red again, category: dragon, copies: 4}\n")
    with pytest.raises(JonggError) as caught:
        compile_deck(load_text(text, "odd.yaml"))
    messages = [str(d) for d in caught.value.diagnostics]
    assert any("odd.yaml:5:" in m and "'Q'" in m for m in messages), messages
    assert any("used twice" in m for m in messages), messages


def test_unknown_deck_names_the_known_ones():
    with pytest.raises(JonggError, match="american-152"):
        load_deck("no-such-deck")


@pytest.mark.clause("MJCG-37")
@pytest.mark.clause("MJCG-38")
def test_the_new_wind_cards_do_not_collide_with_the_notation() -> None:
    """With five players `NE` is one tile code, yet a card's `NEWS` is still
    North, East, West, South; with six the extra winds (XW) answer a card's F."""
    from jongg.runtime.tiles import parse_tiles

    from .conftest import card_from_lines

    five = load_deck("american-152-5p")
    assert [five.code(t) for t in parse_tiles(five, "NE N E")] == ["NE", "N", "E"]
    news = card_from_lines('{id: w, hand: "NEWS 1111a 2222a 33a", value: 25}',
                           deck="american-152-5p")
    tiles = news.lines[0].variations[0].groups[0].tiles
    assert [five.code(t) for t in tiles] == ["N", "E", "W", "S"]
    six = load_deck("american-152-6p")
    flowers = card_from_lines('{id: f, hand: "FFFF 1111a 2222a 33a", value: 25}',
                              deck="american-152-6p")
    assert {six.code(t) for t in flowers.lines[0].variations[0].groups[0].tiles} == {"XW"}
    assert six.kind("XW").tags == ("extra-wind",) and six.kind("XW").copies == 8
    assert "F" not in six.by_code and five.kind("F").copies == 4
