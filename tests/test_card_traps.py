"""Silent traps of card writing, now refused or warned, and the messages an
author reads, each pinned with the exact input that used to mislead."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.card import check_card
from jongg.compiler.source import load_text

from .conftest import run_cli, where


def _card(hand: str, extra: str = "") -> str:
    return f'card: t\ndeck: american-152\nlines:\n  - {{id: a, value: 25, hand: "{hand}"{extra}}}\n'


def _diagnostics(text: str) -> list[str]:
    return [str(d) for d in check_card(load_text(text, "t.yaml")).diagnostics]


def _at(text: str, needle: str) -> str:
    line, column = where(text, needle)
    return f"t.yaml:{line}:{column}"


def _variations(hand: str) -> int:
    report = check_card(load_text(_card(hand), "t.yaml"))
    assert report.card is not None, [str(d) for d in report.diagnostics]
    assert report.diagnostics == []
    return len(report.card.lines[0].variations)


# -- traps -------------------------------------------------------------------------
@pytest.mark.parametrize(("hand", "second", "message"), [
    ("FF 1111a 2222b 3333c ; suits 1,3 ; suits 2", "suits 2",
     "'suits' is given twice: 'suits 1,3' and 'suits 2'"),
    ("FF 1111a 2222a 3333a ; shift ; shift 2", "shift 2",
     "'shift' is given twice: 'shift' and 'shift 2'"),
    ("FF nnnna 2222a 3333a ; n in 1..4 ; n in 5..9", "n in 5",
     "variable 'n' is bound twice"),
])
def test_a_repeated_condition_is_refused(hand: str, second: str, message: str) -> None:
    text = _card(hand)
    found = _diagnostics(text)
    assert found[0].startswith(f"{_at(text, second)}: error: line 'a': {message}")


def test_a_span_past_nine_is_refused_not_cut() -> None:
    text = _card("FF nnnna 1111b 2222c ; n in 1..10")
    assert _diagnostics(text) == [
        f"{_at(text, 'n in')}: error: line 'a': 'n in 1..10': 10 is not a number of "
        "american-152 (its numbers are 1..9)"]


@pytest.mark.parametrize(("hand", "warning"), [
    ("NN RRRR hhhh 1111a ; h in dragon",
     "3 of its 9 variations can be made only with jokers (8 RD where american-152 holds 4), "
     "such as N N | RD RD RD RD | RD RD RD RD | 1B 1B 1B 1B"),
    ("FFF 666a 6666a 1111b",
     "every one of its 6 variations can be made only with jokers (7 6B where american-152 "
     "holds 4), such as F F F | 6B 6B 6B | 6B 6B 6B 6B | 1C 1C 1C 1C"),
])
def test_a_variation_only_jokers_can_make_is_warned(hand: str, warning: str) -> None:
    text = _card(hand)
    assert _diagnostics(text) == [
        f"{_at(text, hand)}: warning: line 'a': {warning} (check the suits or numbers the "
        "line allows)"]


@pytest.mark.parametrize("hand", ["FF 66666a 1111b 333c", "FFFF 111111a 2222b"])
def test_a_quint_or_sextet_needs_its_jokers_without_a_warning(hand: str) -> None:
    """MJCG-27: a quint of a number takes a joker by design."""
    assert _variations(hand) > 0


def test_a_line_id_read_as_a_number_says_to_quote_it() -> None:
    text = ('card: t\ndeck: american-152\nlines:\n'
            '  - {id: 13579_1, value: 25, hand: "11a 33a 555a 7777a 999a"}\n'
            '  - {id: b, value: 25, hand: "FF 1111a 2222a 3333a X"}\n')
    found = _diagnostics(text)
    assert found[0] == (f"{_at(text, '13579_1')}: error: line id 13579_1 is read by YAML as "
                        'the number 135791 (put it in quotes: id: "13579_1")')
    assert any("unknown tile" in d for d in found[1:])  # the rest of the card is checked too
    quoted = text.replace("13579_1", '"13579_1"').replace(" X", "")
    assert _diagnostics(quoted) == []


# -- messages, with the exact input ------------------------------------------------
def test_a_sum_between_variables_is_written_as_typed() -> None:
    """`; m = 13-n` was "unexpected '-'"."""
    assert _variations("FFFF nnnna mmmmb 13c ; m = 13-n") == 18


@pytest.mark.parametrize(("hand", "needle", "message"), [
    ("FF 1111a 2222a 3333a ; shift ; distinct", "distinct",
     "'distinct' takes two or more variables separated by commas"),
    ("FF 1111a 2222a 3333a ; jokers false", "jokers",
     "'jokers' is a key of the line, not a condition: write it beside 'hand:', like "
     "'jokers: false'"),
    ("xxa 1111a 2222a 3333a", "xxa",
     "'x' cannot name a tile or a variable: x is the times sign, and l and o look like 1 "
     "and 0; use another letter, f-z"),
    ("hhhh 1111a 2222a 33a ; h in dragns", "dragns",
     "unknown set 'dragns'; a variable ranges over numbers (1..9, 3, 6, 9), odd, even, "
     "dragon or wind (did you mean 'dragons'?)"),
    ("FF 1111a 2222a 3333a ; shfit", "shfit", "unknown condition 'shfit' (did you mean "
                                              "'shift'?)"),
])
def test_notation_messages_say_what_is_wrong_in_the_authors_words(
        hand: str, needle: str, message: str) -> None:
    text = _card(hand)
    (found,) = _diagnostics(text)
    assert found.startswith(f"{_at(text, needle)}: error: {message}\n")


def test_a_dragon_kong_without_a_letter_offers_both_readings() -> None:
    text = _card("NNNNN DDDD 11111a")
    assert _diagnostics(text) == [
        f"{_at(text, 'DDDD')}: error: line 'a': 'DDDD' has numbers or a matching dragon but no "
        "suit letter (D is the dragon matching a suit: write 'DDDDa'; for any dragon write "
        "'hhhh ; h in dragon')"]


@pytest.mark.parametrize(("hand", "count"), [
    ("FF 1111a 2222b 3333c ; suits 1, 3", 9),  # a space after the comma, as in 'n in 2, 5'
    ("hhhh 1111a 2222a 33a ; h in dragons", 9),  # the plural authors write
    ("FFFF nnnna nnnnb 11c ; n != 2", 24),  # a variable against a number
])
def test_what_authors_type_is_accepted(hand: str, count: int) -> None:
    assert _variations(hand) == count


def test_one_suit_letter_is_counted_in_the_singular() -> None:
    text = _card("FF 1111a 2222a 3333a ; suits 2")
    assert _diagnostics(text) == [
        f"{_at(text, 'FF 1111a')}: error: line 'a': 'suits 2' needs 2 letters and 2 suits; "
        "this line has 1 letter and the deck 3 suits"]


def test_an_empty_section_is_not_shown(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(_card("FF 1111a 2222a 3333a", extra=', section: ""'))
    status, out, _ = run_cli(capsys, "card", "show", str(path), "--line", "a")
    assert status == 0
    assert out.splitlines()[0] == "a: FF 1111a 2222a 3333a  (value 25, exposed, 3 variations)"


def test_one_line_is_counted_in_the_singular(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(_card("FF 1111a 2222a 3333a"))
    _, out, _ = run_cli(capsys, "card", "check", str(path))
    assert out.strip() == f"{path}: ok: card 't', 1 line, 3 variations, deck american-152"


@pytest.mark.parametrize("hand", ["FF 1111a nnnna 33b ; n in n..3",
                                  "FF 1111a nnnna 33b ; n in 1, n+1"])
def test_a_variable_counted_from_itself_is_refused_not_a_crash(hand: str) -> None:
    text = _card(hand)
    cond = hand.split("; ")[1]
    assert _diagnostics(text) == [
        f"{_at(text, cond)}: error: line 'a': '{cond}': 'n' is counted from itself "
        "(count it from a number or another variable)"]
