"""Errors of the hand notation: labelled, located, quoted, and free of lark internals."""

from __future__ import annotations

import pytest

from jongg.compiler.errors import Location, NotationError
from jongg.compiler.notation import NOTATION_ERRORS, STRAY_SUIT, parse

SAMPLES = [(label, sample) for label, samples in NOTATION_ERRORS.items() for sample in samples]
LEAKS = ("__ANON", "VisitError", "Token(", "UnexpectedCharacters")
ORIGIN = Location("x.yaml", 4, 11)


def _error(text: str, origin: Location | None = ORIGIN) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse(text, origin=origin)
    return info.value


def test_the_table_is_not_empty() -> None:
    assert len(NOTATION_ERRORS) >= 10
    assert all(samples for samples in NOTATION_ERRORS.values())


@pytest.mark.parametrize(("label", "sample"), SAMPLES,
                         ids=[f"{label[:30]}|{sample!r}" for label, sample in SAMPLES])
def test_every_sample_yields_its_own_label(label: str, sample: str) -> None:
    error = _error(sample)
    assert error.label == label
    # the label is what the user reads, first
    assert error.diagnostics[0].message.startswith(label)
    assert len(error.diagnostics) == 1


# A sample and the offset of the character the caret must point at.
BAD_CHARACTERS = [
    ("FF X", 3),
    ("1111A", 4),
    ("22Q 33a", 2),
    ("11a 2l", 5),
    ("11a ~", 4),
    ("11a b", 4),
    ("2222 a 33b", 5),
    ("()", 1),
    ("[chow]", 1),
    ("[pung]]", 6),
    ("11a || 22b", 5),
    ("11a ; 5", 6),
    ("11a ; a in 1..9", 11),
    ("nna ; n < 3", 8),
    ("mma ; m = 1-+", 12),
    ("11a ; shift 2 3", 14),
    ("11a ; shift x", 12),
    ("11a ; suits 1,3 x", 16),
    ("FF 2222a 2222b 2222c X", 21),
]


@pytest.mark.parametrize(("text", "offset"), BAD_CHARACTERS)
def test_message_names_file_line_and_column_of_the_bad_character(text: str, offset: int) -> None:
    error = _error(text)
    column = ORIGIN.column + offset
    diagnostic = error.diagnostics[0]
    assert diagnostic.location == Location("x.yaml", 4, column)
    message = str(error)
    assert message.startswith(f"x.yaml:4:{column}: error: ")
    lines = message.splitlines()
    # the text is quoted, and the caret sits under the bad character
    quoted = next(i for i, line in enumerate(lines) if line.strip() == text)
    indent = len(lines[quoted]) - len(lines[quoted].lstrip())
    caret = lines[quoted + 1]
    assert caret.strip() == "^"
    assert caret.index("^") - indent == offset
    assert lines[quoted][indent + offset] == text[offset]


def test_stray_suit_points_at_the_letter() -> None:
    error = _error("FF 2222a 2222b c")
    assert error.label == STRAY_SUIT
    assert error.diagnostics[0].location == Location("x.yaml", 4, 11 + 15)


@pytest.mark.parametrize("text", ["11a |", "nna ; n in", "(222a|555a", "11a ;", "[pung"])
def test_errors_at_the_end_point_inside_the_text(text: str) -> None:
    location = _error(text).diagnostics[0].location
    assert location is not None and location.line == 4
    assert ORIGIN.column <= location.column <= ORIGIN.column + len(text)


def test_origin_on_a_later_line_keeps_the_line() -> None:
    error = _error("FF X", origin=Location("cards/y.yaml", 120, 7))
    assert str(error).startswith("cards/y.yaml:120:10: error: ")


def test_without_origin_the_message_still_names_column_and_text() -> None:
    error = _error("FF X", origin=None)
    assert error.diagnostics[0].location is None
    assert "column 4" in str(error)
    assert "'FF X'" in str(error)


@pytest.mark.parametrize(("label", "sample"), SAMPLES)
def test_table_messages_leak_no_lark_internals(label: str, sample: str) -> None:
    message = str(_error(sample))
    for leak in LEAKS:
        assert leak not in message


# Inputs that no label covers, so the message is built from the parser's expectations.
UNLABELLED = [
    "11a | 22a ; n",
    "nna ; m = 1 ; n",
    "nna ; n in 1 5",
    "nna ; n in 1..5 6",
    "nna ; n = m 3",
]


@pytest.mark.parametrize("text", UNLABELLED)
def test_unlabelled_errors_are_still_notation_errors(text: str) -> None:
    error = _error(text)
    assert error.label  # some human message, never None
    assert str(error).startswith("x.yaml:4:")


@pytest.mark.parametrize("text", UNLABELLED)
def test_unlabelled_errors_leak_no_lark_internals(text: str) -> None:
    message = str(_error(text))
    for leak in LEAKS:
        assert leak not in message


@pytest.mark.parametrize("text", ["11a\n22a X", "11a\x00", "ＦＦ 11a", "11a ; n in 1..9\n"])
def test_odd_characters_are_notation_errors(text: str) -> None:
    error = _error(text)
    for leak in LEAKS:
        assert leak not in str(error)


def test_a_text_read_again_is_not_parsed_again_and_its_errors_keep_their_place() -> None:
    # a variant checks its card at every player count: each line's text is read once
    text = "{year}a DDDDa 2222b 66b ; a not in dots"
    assert parse(text, origin=ORIGIN) is parse(text, origin=Location("z.yaml", 9, 3))
    first = _error("FF X", origin=Location("a.yaml", 3, 5))
    again = _error("FF X", origin=Location("b.yaml", 8, 2))
    assert [str(d.location) for d in first.diagnostics] != \
        [str(d.location) for d in again.diagnostics]
    assert again.diagnostics[0].location == Location("b.yaml", 8, 5)
