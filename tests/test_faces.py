"""Tile faces as drawing data (jongg/present/faces.py): every tile of every
shipped deck reads by a symbol and a numeral, not by its colour alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jongg.compiler.deck import load_deck
from jongg.present.faces import NAMED_SUITS, faces
from jongg.runtime.tiles import Category
from jongg.web import look

DECKS = sorted(p.stem for p in (Path(__file__).parents[1] / "rulesets" / "decks").glob("*.yaml"))


def _picture(shapes: list[dict]) -> str:
    """A face without its numeral: what tells its suit (or honour) apart."""
    return json.dumps([s for s in shapes if s["el"] != "text"], sort_keys=True)


@pytest.mark.parametrize("name", DECKS)
def test_every_tile_has_a_face_and_no_two_suits_share_a_symbol(name: str) -> None:
    deck = load_deck(name)
    drawn = faces(deck)
    assert set(drawn) == {k.code for k in deck.kinds}
    for kind in deck.kinds:
        shapes = drawn[kind.code]
        assert shapes and all(s["el"] in {"circle", "rect", "path", "polygon", "text"}
                              for s in shapes), kind.code
        if kind.category is Category.SUITED:
            numerals = [s["text"] for s in shapes if s["el"] == "text"]
            assert numerals == [str(kind.number)], kind.code
    # the first tile of each suit: its symbol apart from the numeral, one per suit
    firsts = {next(k for k in deck.kinds if k.suit == s.code).code for s in deck.suits}
    symbols = {_picture(drawn[c]) for c in firsts}
    assert len(symbols) == len(deck.suits), f"{name}: two suits drawn alike"


def test_the_american_honours_are_drawn_each_its_own_way() -> None:
    """The three dragons three pictures (zhong, fa, the White's frame), each
    wind an arrow to its own point, the joker a J: none told by colour alone."""
    drawn = faces(load_deck("american-152"))
    dragons = {_picture(drawn[c]) for c in ("RD", "GD", "WD")}
    winds = {_picture(drawn[c]) for c in ("N", "E", "S", "W")}
    assert len(dragons) == 3 and len(winds) == 4
    assert [s["text"] for s in drawn["J"] if s["el"] == "text"] == ["J"]
    assert any(s["el"] == "circle" for s in drawn["F"])


def test_the_nymj_cards_have_five_suit_symbols_and_known_suits_their_own() -> None:
    """Red, Blue and Green (named for colours) still differ by shape;
    Seasons a leaf, Emotions a heart; the classic deck's Dots a ring."""
    nymj = faces(load_deck("nymj-75"))
    assert len({_picture(nymj[f"{s}1"]) for s in "RBGSE"}) == 5
    assert NAMED_SUITS["seasons"] == "leaf" and NAMED_SUITS["emotions"] == "heart"
    classic = faces(load_deck("classic-136"))
    dots = next(k.code for k in load_deck("classic-136").kinds
                if k.suit is not None and k.name.lower().endswith("dots"))
    assert [s["el"] for s in classic[dots] if s["el"] != "text"] == ["circle", "circle"]


def test_the_page_is_sent_each_tiles_face() -> None:
    deck = load_deck("american-152")
    sent = look.tiles(deck)
    assert sent["3D"]["face"] == faces(deck)["3D"]
    assert sent["J"]["category"] == "joker"
    json.dumps(sent)  # plain data: it goes over the wire as it is
