"""Matching semantics on small cards, clause by clause (reference matcher)."""

from __future__ import annotations

from jongg.runtime.matching.reference import completed, match_card

from .conftest import card_from_lines, hand


def ids(c, concealed, exposed=()):
    return [m.line.id for m in completed(c, hand(c, concealed, exposed))]


def away(c, concealed, exposed=()):
    found = match_card(c, hand(c, concealed, exposed))
    return {m.line.id: m.tiles_away for m in found}


def test_group_shapes():
    """MJCG-28: single, pair, pung, kong, quint, sextet, runs of singles."""
    c = card_from_lines('{id: s, hand: "1a 22a 333a 4444a NEWS", value: 1}',
                        '{id: q, hand: "11111a 222222a 333a", value: 1}')
    assert ids(c, "1B 2B 2B 3B 3B 3B 4B 4B 4B 4B N E W S") == ["s"]
    assert ids(c, "1C 1C 1C 1C J 2C 2C 2C 2C J J 3C 3C 3C") == ["q"]


def test_jokers_only_in_sets_of_three_or_more():
    """MJCG-11, MJCG-12: jokers in pungs and kongs, never in a pair or single
    or a run of different tiles."""
    c = card_from_lines('{id: a, hand: "1a 22a 333a 4444a NEWS", value: 1}')
    assert ids(c, "1B 2B 2B 3B J J 4B J J J N E W S") == ["a"]
    assert ids(c, "1B 2B J 3B 3B 3B 4B 4B 4B 4B N E W S") == []
    assert ids(c, "J 2B 2B 3B 3B 3B 4B 4B 4B 4B N E W S") == []
    assert ids(c, "1B 2B 2B 3B 3B 3B 4B 4B 4B 4B N E W J") == []
    assert away(c, "1B 2B 2B 3B 3B 3B 4B 4B 4B 4B N E W J") == {"a": 1}


def test_quint_needs_a_joker_except_flowers():
    """MJCG-27: four copies of a number, so a quint takes a joker; eight
    flowers make a natural quint; a quint marked '!' cannot be built."""
    c = card_from_lines('{id: q, hand: "FFFFF 11111a 2222b", value: 1}')
    assert ids(c, "F F F F F 1B 1B 1B 1B J 2C 2C 2C 2C") == ["q"]
    assert ids(c, "F F F F J 1B 1B 1B J J 2C 2C 2C 2C") == ["q"]
    import pytest

    from jongg.compiler.errors import SemanticError
    with pytest.raises(SemanticError, match="no joker may go"):
        card_from_lines('{id: q, hand: "FFFF 11111a! 22222b", value: 1}')


def test_card_colours_mean_suits():
    """MJCG-30: one colour one suit; two colours two different suits."""
    c = card_from_lines('{id: two, hand: "444a 555a 6666b 777b", value: 1}',
                        size=13)
    assert ids(c, "4D 4D 4D 5D 5D 5D 6B 6B 6B 6B 7B 7B 7B") == ["two"]
    assert ids(c, "4D 4D 4D 5D 5D 5D 6D 6D 6D 6D 7D 7D 7D") == []


def test_card_notes_widen_a_hand():
    """MJCG-31: 'any 4 consecutive numbers' is a shift; 'any like numbers' a variable;
    'any 2 suits' the suits condition."""
    c = card_from_lines('{id: run, hand: "444a 555a 6666b 7777b ; shift", value: 1}',
                        '{id: like, hand: "FF nnnna nnnnb nnnnc ; n in 1..9", value: 1}',
                        '{id: two, hand: "111a 222b 333a 44b 555a ; suits 2", value: 1}')
    assert ids(c, "6C 6C 6C 7C 7C 7C 8B 8B 8B 8B 9B 9B 9B 9B") == ["run"]
    assert ids(c, "F F 7B 7B 7B 7B 7C 7C 7C 7C 7D 7D 7D 7D") == ["like"]
    assert ids(c, "1C 1C 1C 2D 2D 2D 3C 3C 3C 4D 4D 5C 5C 5C") == ["two"]
    assert ids(c, "1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 5C 5C 5C") == []  # one suit is not two
    assert away(c, "1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 5C 5C 5C")["two"] == 5


def test_matching_and_opposite_dragons():
    """MJCG-32: Craks-Red, Bams-Green, Dots-White; a D under another letter is
    an opposite dragon."""
    c = card_from_lines('{id: match, hand: "1111a 2222a DDDDa 33b", value: 1}',
                        '{id: opp, hand: "1111a 2222a DDDDb 33c", value: 1}')
    assert ids(c, "1C 1C 1C 1C 2C 2C 2C 2C RD RD RD RD 3B 3B") == ["match"]
    assert ids(c, "1B 1B 1B 1B 2B 2B 2B 2B GD GD GD GD 3D 3D") == ["match"]
    assert ids(c, "1D 1D 1D 1D 2D 2D 2D 2D WD WD WD WD 3B 3B") == ["match"]
    assert ids(c, "1D 1D 1D 1D 2D 2D 2D 2D RD RD RD RD 3B 3B") == ["opp"]


def test_white_dragon_is_zero():
    """MJCG-33: the White dragon (Soap) is the zero of a year."""
    c = card_from_lines('{id: y, hand: "FF {year}a 2222b 2222c", value: 1}')
    assert ids(c, "F F 2B WD 2B 6B 2C 2C 2C 2C 2D 2D J 2D") == ["y"]


def test_flowers_belong_to_no_suit():
    """MJCG-34: an F group takes flowers whatever the suits."""
    c = card_from_lines('{id: f, hand: "FFFF 1111a 1111b 11c", value: 1}')
    assert ids(c, "F F F F 1B 1B 1B 1B 1C 1C 1C 1C 1D 1D") == ["f"]
    assert ids(c, "F F F F 1D 1D 1D 1D 1C 1C 1C 1C 1B 1B") == ["f"]


def test_multiplication_hand():
    """MJCG-35: 4 x 4 = 16: the pair is a 1 and a 6 of another suit."""
    c = card_from_lines('{id: m, hand: "FFFF 4444a x 4444b = 16c", value: 1}')
    assert ids(c, "F F F F 4B 4B 4B 4B 4C 4C J 4C 1D 6D") == ["m"]
    assert ids(c, "F F F F 4B 4B 4B 4B 4C 4C J 4C 1B 6B") == []


def test_exposures_must_be_whole_groups():
    c = card_from_lines('{id: a, hand: "111a 2222a 333b 4444b", value: 1}', size=14)
    # the exposed kong of 2s is a whole group of the variation
    assert ids(c, "1B 1B 1B 3C 3C 3C 4C 4C 4C 4C", ["2B 2B J 2B"]) == ["a"]
    # an exposure that is no group of any variation rules the line out
    assert away(c, "1B 1B 1B 3C 3C 3C 4C 4C 4C 4C", ["2B 2B 2B"]) == {}
    # jokers may not stand in for a different tile inside an exposure
    assert away(c, "1B 1B 1B 3C 3C 3C 4C 4C 4C 4C", ["2B 3B J 2B"]) == {}


def test_concealed_lines_refuse_exposures():
    c = card_from_lines('{id: c, hand: "111a 2222a 333b 4444b", value: 1, concealed: true}',
                        '{id: x, hand: "111a 2222a 333b 4444b ; suits 1,2", value: 1}')
    assert ids(c, "1B 1B 1B 3C 3C 3C 4C 4C 4C 4C", ["2B 2B J 2B"]) == ["x"]
    assert ids(c, "1B 1B 1B 2B 2B J 2B 3C 3C 3C 4C 4C 4C 4C") == ["c", "x"]


def test_tiles_away_counts_what_is_missing():
    c = card_from_lines('{id: a, hand: "11a 222a 3333a 444a 55a ; shift", value: 1}')
    m = match_card(c, hand(c, "2D 2D 3D 3D 3D 4D 4D 4D J 5D 5D 5D 6D"))[0]
    assert m.tiles_away == 1
    assert m.missing == ["6D"] and m.joker_slots == []
    m = match_card(c, hand(c, "2D 2D 3D 3D 4D 4D 4D J 5D 5D 5D 6D 6D"))[0]
    # one slot of the pung of 3s or the kong of 4s is open, and a joker could fill it
    assert m.tiles_away == 1 and m.missing in (["3D"], ["4D"]) and m.joker_slots == m.missing


def test_highest_value_first_when_several_lines_complete():
    c = card_from_lines('{id: low, hand: "3[kong] [pair]", value: 25}',
                        '{id: high, hand: "1111a 2222a 3333a 44a", value: 40}')
    assert ids(c, "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 4B 4B") == ["high", "low"]
