"""Lines of real yearly cards, written as printed: each construct of the
notation proved on a line in the spirit of a real card, its variations checked
against an enumeration written here by hand, without the notation."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from jongg.runtime.card import Card

from .conftest import card_from_lines, run_cli

SUITS = "BCD"
MATCHING = {"B": "GD", "C": "RD", "D": "WD"}  # MJCG-32
Group = tuple[str, ...]
Key = tuple[Group, ...]


def _key(groups: Iterable[Iterable[str]]) -> Key:
    """A variation as its groups of tile codes, in no order."""
    return tuple(sorted(tuple(g) for g in groups))


def _variations(hand: str, extra: str = "") -> set[Key]:
    c: Card = card_from_lines(f'{{id: a, value: 25, hand: "{hand}"}}', extra=extra)
    deck = c.deck
    (line,) = c.lines
    found = {_key(deck.codes(g.tiles) for g in v.groups) for v in line.variations}
    assert len(found) == len(line.variations)
    return found


def kong(n: int | str, suit: str, size: int = 4) -> Group:
    return (f"{n}{suit}",) * size


def test_letters_related_one_by_one() -> None:
    """"333 6666 666 9999, any 2 or 3 suits": the first two groups in one suit,
    the third in another, the fourth in the third's suit or a third one."""
    want = {_key([kong(3, a, 3), kong(6, a), kong(6, b, 3), kong(9, c)])
            for a, b, c in itertools.product(SUITS, repeat=3) if b != a and c != a}
    found = _variations("333a 6666a 666b 9999c ; c may be b")
    assert found == want
    assert len(found) == 12


@pytest.mark.parametrize("hand", ["FF 2017a DDa 2017b DDb ; a, b in bams, craks",
                                  "FF 2017a DDa 2017b DDb ; a not in dots ; b not in dots"])
def test_suits_fixed_or_excluded(hand: str) -> None:
    """"FF 2017 DD 2017 DD, bams and craks only" (MJCG-32, MJCG-33: matching
    dragons, White as zero)."""
    want = {_key([("F", "F"), (f"2{a}", "WD", f"1{a}", f"7{a}"), (MATCHING[a],) * 2,
                  (f"2{b}", "WD", f"1{b}", f"7{b}"), (MATCHING[b],) * 2])
            for a, b in itertools.permutations("BC", 2)}
    assert _variations(hand) == want
    assert len(want) == 1


def _sums_to_13() -> set[Key]:
    return {_key([("F",) * 4, kong(x, a), kong(13 - x, b), (f"1{c}", f"3{c}")])
            for x in range(4, 10) for a, b, c in itertools.permutations(SUITS)}


@pytest.mark.parametrize("hand", [
    "FFFF nnnna mmmmb 13c ; m = 13-n",
    "FFFF nnnna mmmmb 13c ; n+m = 13",
    "FFFF (4444a 9999b|5555a 8888b|6666a 7777b|7777a 6666b|8888a 5555b|9999a 4444b) 13c",
    "FFFF (4444a 9999b|5555a 8888b|6666a 7777b) 13c",
])
def test_two_kongs_adding_to_13(hand: str) -> None:
    """"FFFF 4444 9999 13": arithmetic between variables, or a choice of
    several groups."""
    want = _sums_to_13()
    assert _variations(hand) == want
    assert len(want) == 18


def test_a_product_written_as_digits() -> None:
    """"FFFF 4444 x 4444 = 16": kongs whose numbers multiply to 16."""
    want = {_key([("F",) * 4, kong(x, a), kong(y, b), (f"1{c}", f"6{c}")])
            for x in range(1, 10) for y in range(1, 10) if x * y == 16
            for a, b, c in itertools.permutations(SUITS)}
    assert _variations("FFFF nnnna x mmmmb = 16c ; n*m = 16") == want
    assert len(want) == 9


def test_the_digits_of_a_product_as_tiles() -> None:
    """Like kongs and their product printed as digits: 4444 x 4444 = 16 ...
    9999 x 9999 = 81."""
    want = {_key([("F",) * 4, kong(n, a), kong(n, b),
                   tuple(f"{d}{c}" for d in str(n * n))])
            for n in range(4, 10) for a, b, c in itertools.permutations(SUITS)}
    assert _variations("FFFF nnnna x nnnnb = {n*n}c ; n in 4..9") == want
    assert len(want) == 18


def test_the_offset_of_a_shift_as_a_variable() -> None:
    """"112345 1111 1111, any 5 consecutive numbers, pair any number in the
    run, kongs match the pair"."""
    want = {_key([tuple(f"{n}{a}" for n in range(s + 1, s + 6)), (f"{k}{a}",), kong(k, b),
                  kong(k, c)])
            for s in range(0, 5) for k in range(s + 1, s + 6)
            for a, b, c in itertools.permutations(SUITS)}
    assert _variations("12345a ka kkkkb kkkkc ; shift s ; k in s+1..s+5") == want
    assert len(want) == 75


def test_conditions_after_the_last_alternative_bind_every_alternative() -> None:
    """`A | B ; suits 1,3`: the suits condition binds A too (18, not 15)."""
    def one_or_three(numbers: tuple[int, int, int, int]) -> set[Key]:
        out = set()
        for a, b, c in itertools.product(SUITS, repeat=3):
            if len({a, b, c}) in (1, 3):
                out.add(_key([("F", "F"), kong(numbers[0], a, 3), kong(numbers[1], b, 3),
                              kong(numbers[2], c, 3), kong(numbers[3], a, 3)]))
        return out

    want = one_or_three((1, 2, 3, 4)) | one_or_three((4, 5, 6, 7))
    found = _variations("FF 111a 222b 333c 444a | FF 444a 555b 666c 777a ; suits 1,3")
    assert found == want
    assert len(found) == 18


def test_an_alternatives_own_conditions_stay_its_own() -> None:
    """Once an earlier alternative has conditions of its own, each
    alternative keeps only its own."""
    want = {_key([("F", "F"), kong(n, a), kong(low, b), kong(low + 1, c)])
            for low, numbers in ((1, (1, 2)), (3, (8, 9))) for n in numbers
            for a, b, c in itertools.permutations(SUITS)}
    found = _variations("FF nnnna 1111b 2222c ; n in 1..2 | FF mmmma 3333b 4444c ; m in 8..9")
    assert found == want


def test_shared_conditions_bind_each_alternative_in_what_it_has() -> None:
    """A shared `shift` leaves an alternative with no printed number as it is;
    a shared `suits 1,3` gives an alternative of one letter its one suit."""
    winds = {_key([("N",) * 4, ("E",) * 4, ("W",) * 4, ("S", "S")])}
    runs = {_key([kong(1 + s, a, 3), kong(2 + s, a, 3), kong(3 + s, a, 4), kong(4 + s, a, 4)])
            for s in range(6) for a in SUITS}
    assert _variations("NNNN EEEE WWWW SS | 111a 222a 3333a 4444a ; shift") == winds | runs
    ones = {_key([("N",) * 4, ("E",) * 4, kong(1, a), (f"2{a}",) * 2]) for a in SUITS}
    threes = {_key([kong(1, a, 3), kong(2, b, 3), kong(3, c, 4), kong(4, a, 4)])
              for a, b, c in itertools.product(SUITS, repeat=3) if len({a, b, c}) in (1, 3)}
    assert _variations("NNNN EEEE 1111a 22a | 111a 222b 3333c 4444a ; suits 1,3") == \
        ones | threes


def test_signs_inside_a_choice_carry_no_tiles() -> None:
    """"FFFF 3333 + 9999 = 12 or FFFF 4444 + 8888 = 12, any 3 suits": the
    printed signs of an addition line, inside a choice, as outside one."""
    want = {_key([("F",) * 4, kong(x, a), kong(y, b), (f"1{c}", f"2{c}")])
            for x, y in ((3, 9), (4, 8)) for a, b, c in itertools.permutations(SUITS)}
    found = _variations("FFFF (3333a + 9999b|4444a + 8888b) = 12c")
    assert found == want == _variations("FFFF (3333a 9999b|4444a 8888b) 12c")
    assert len(want) == 12


def test_a_shift_with_a_choice_is_read_per_option() -> None:
    """`shift` over a choice shifts the printed numbers of each option with
    the rest of the line, as if the option were written alone: the line is
    the union of its options' lines. Read over every option at once, the
    shift was pinned at 0 (48 variations, not 216)."""
    options = "|".join(f"{m}" * 5 + "a" for m in range(2, 10))
    found = _variations(f"11111a ({options}) DDDDb ; shift")
    alone = set().union(*(_variations(f"11111a {str(m) * 5}a DDDDb ; shift")
                          for m in range(2, 10)))
    assert found == alone and len(found) == 216
    two = _variations("(1111a|9999a) 2222b (333c|777c) FFF ; shift")
    assert two == set().union(*(_variations(f"{a} 2222b {c} FFF ; shift")
                                for a in ("1111a", "9999a") for c in ("333c", "777c")))


def test_a_shift_pinned_to_the_printed_numbers_is_a_warning_at_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("card: c\ndeck: american-152\nhand_size: 14\nlines:\n"
                    '  - {id: a, value: 25, hand: "1111a 999a 1111b 999b ; shift"}\n'
                    '  - {id: b, value: 25, hand: "1111a 222a 1111b 333b ; shift"}\n')
    status, out, err = run_cli(capsys, "card", "check", str(path))
    assert status == 0
    assert re.search(rf"{re.escape(str(path))}:5:\d+: warning: line 'a': this 'shift' "
                     "can only be 0",
                     out + err)
    assert f"{path}:6:" not in out + err  # a line that does shift says nothing
