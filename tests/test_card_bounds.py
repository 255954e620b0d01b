"""Hostile card files are refused before any work: counts, ranges and the
variations of a whole line are bounded, and each refusal is a located message."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler import expand
from jongg.compiler.card import check_card
from jongg.compiler.deck import MAX_COPIES, compile_deck, load_deck
from jongg.compiler.errors import JonggError, Location, NotationError
from jongg.compiler.notation import parse
from jongg.compiler.source import load_text

from .conftest import run_cli, where


def _card(hand: str, extra: str = "") -> str:
    return f'card: t\ndeck: american-152\n{extra}lines:\n  - {{id: a, value: 25, hand: "{hand}"}}\n'


def _errors(text: str) -> list[str]:
    report = check_card(load_text(text, "t.yaml"))
    assert report.card is None
    return [str(d) for d in report.errors]


@pytest.mark.parametrize(("hand", "message"), [
    ("999999999[pair]", "the count 999999999 is too large: at most 4 digits\n"
                        "    999999999[pair]\n    ^"),
    ("9999[pair]", "line 'a': has 19998 tiles, more than the hand size 14"),
])
def test_a_huge_repeat_count_is_refused_before_any_work(hand: str, message: str) -> None:
    text = _card(hand)
    line, column = where(text, hand)
    assert _errors(text) == [f"t.yaml:{line}:{column}: error: {message}"]


def test_a_count_of_thousands_of_digits_is_a_notation_error_quoting_an_excerpt() -> None:
    with pytest.raises(NotationError) as info:
        parse("9" * 5000 + "[pair]", origin=Location("t.yaml", 4, 30))
    message = str(info.value)
    assert message.startswith("t.yaml:4:30: error: the count 999999999999... is too large")
    assert len(message) < 300


@pytest.mark.parametrize("span", ["1..9999", "1..10", "0..9"])
def test_a_span_past_the_decks_numbers_is_refused(span: str) -> None:
    text = _card(f"FF nnnna 1111a 2222a ; n in {span}")
    errors = _errors(text)
    end = span.split("..")[1] if span != "0..9" else "0"
    assert len(errors) == 1
    assert f"'n in {span}': {end} is not a number of american-152 (its numbers are 1..9)" \
        in errors[0]
    assert errors[0].startswith(f"t.yaml:4:{where(text, 'n in')[1]}: error:")


@pytest.mark.parametrize("number", ["100000000", "999999999999"])
def test_a_number_too_long_to_hold_is_refused_before_it_is_read(number: str) -> None:
    errors = _errors(_card(f"FF nnnna 1111a 2222a ; n in 1..{number}"))
    assert len(errors) == 1
    assert f"the number {number} is too large: at most 4 digits" in errors[0]


def test_a_span_over_a_variable_takes_only_the_decks_numbers() -> None:
    """`k in n..n+4` near the top of the range lists no number past 9."""
    report = check_card(load_text(_card("FF 1111a kkkka nnnnb ; n in 6..9 ; k in n..n+4"),
                                  "t.yaml"))
    assert report.card is not None
    assert len(report.card.lines[0].variations) == 6 * (4 + 3 + 2 + 1)


def test_a_difference_that_never_holds_is_refused_in_every_alternative() -> None:
    alternative = "ffffa ggggb hhhhc 11a ; f != f"
    errors = _errors(_card(" | ".join([alternative] * 40)))
    assert len(errors) == 40
    assert all("'f != f' can never hold" in e for e in errors)


def test_distinct_naming_a_variable_twice_is_refused() -> None:
    errors = _errors(_card("ffffa ggggb hhhhc 11a ; distinct f, g, f"))
    assert errors and "'distinct f, g, f' names 'f' twice" in errors[0]


def test_the_budget_covers_all_alternatives_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten alternatives of 4374 variations each: each under the budget of
    20000, together over it; refused before a single variation is built."""
    alternatives = [f"nnnna mmmmb ppppc {i}{i}a ; n in 1..9 ; m in 1..9 ; p in 1..9"
                    for i in range(1, 10)] + ["nnnna mmmmb ppppc RR"]

    def refuse(*_: object) -> None:
        raise AssertionError("a variation was built")

    monkeypatch.setattr(expand, "_build", refuse)
    errors = _errors(_card(" | ".join(alternatives)))
    assert len(errors) == 1
    assert "expands to 43740 variations (4374 + 4374" in errors[0]
    assert "more than the budget of 20000" in errors[0]


def test_alternatives_each_far_over_the_budget_give_one_message() -> None:
    alternative = "fa ga ha ia ja ka ma na pa qa RR FF ; distinct f, g, h"
    errors = _errors(_card(" | ".join([alternative] * 10)))
    assert len(errors) == 1


def test_the_search_for_bindings_stops_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    spent: list[int] = []
    original = expand._Alternative.bindings

    def counting(self: expand._Alternative, work: expand._Work) -> list[dict[str, int]]:
        try:
            return original(self, work)
        finally:
            spent.append(work.steps)

    monkeypatch.setattr(expand._Alternative, "bindings", counting)
    hand = "fa ga ha ia ja ka ma na FFFFFF ; distinct f, g, h, i, j, k, m, n"
    errors = _errors(_card(hand))
    assert len(errors) == 1
    assert f"its variables and suits take more than {expand.SEARCH_STEPS} tries to search" \
        in errors[0]
    assert spent == [expand.SEARCH_STEPS + 1]


def test_the_budget_has_a_ceiling_in_the_schema() -> None:
    errors = _errors(_card("3[kong] [pair]", extra="budget: 1000000000\n"))
    assert any("budget" in e and "maximum" in e for e in errors)


# -- decks ---------------------------------------------------------------------------
DECK = ("deck: d\nsuits:\n  - {{code: B, name: Bams, numbers: [1, 9], copies: {copies}}}\n"
        "tiles:\n  - {{code: J, name: Joker, category: joker, copies: 8}}\n")


@pytest.mark.parametrize(("copies", "written"), [
    ("1000000", "1000000"), ("100000000000000000000000", "over a billion")])
def test_deck_copies_are_bounded_with_a_located_message(copies: str, written: str) -> None:
    text = DECK.format(copies=copies)
    with pytest.raises(JonggError) as info:
        compile_deck(load_text(text, "d.yaml"))
    line, column = where(text, copies)
    assert str(info.value).startswith(
        f"d.yaml:{line}:{column}: error: copies: {written} is more than the {MAX_COPIES} copies")


def test_a_card_on_a_deck_with_too_many_copies_names_the_decks_line(tmp_path: Path) -> None:
    deck = tmp_path / "big.yaml"
    deck.write_text(DECK.format(copies=1000000))
    text = _card("3[kong] [pair]").replace("american-152", str(deck))
    errors = _errors(text)
    assert errors == [e for e in errors if f"{deck}:3:" in e and "copies: 1000000" in e]
    assert len(errors) == 1


def test_playing_too_many_sets_together_is_refused() -> None:
    with pytest.raises(JonggError, match="after '\\*' give a number of sets, 1 to 4"):
        load_deck("american-152*1000000")


# -- the command line ---------------------------------------------------------------
@pytest.mark.parametrize("exposed", ["", "   "])
def test_an_empty_exposure_is_refused(capsys: pytest.CaptureFixture[str], exposed: str) -> None:
    status, out, err = run_cli(capsys, "match", "--card", "sample", "--hand", "1B 1B",
                               "--exposed", exposed)
    assert status == 1
    assert out == ""
    assert err.strip() == (f"error: --exposed {exposed!r}: an exposure needs its tiles, like "
                           '--exposed "2C 2C 2C"')
