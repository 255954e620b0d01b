"""Fuzzing card files and hand notation: every input ends in a result or a
located error, never a traceback, an "internal error" or a hang.

The default suite tries a few hundred inputs of each kind; the slow suite
(`pytest -m slow`) tens of thousands.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jongg.cli import main
from jongg.compiler.card import check_card
from jongg.compiler.deck import load_deck
from jongg.compiler.errors import JonggError, Location, NotationError
from jongg.compiler.expand import ExpansionError, Rules, expand
from jongg.compiler.notation import parse
from jongg.compiler.source import load_text

# Pieces of the notation, and of mistakes authors make, glued at random.
PIECES = [
    "1", "2", "5", "9", "0", "11", "222", "3333", "FF", "F", "N", "E", "W", "S", "D", "R", "G",
    "NEWS", "{year}", "a", "b", "c", "d", "e", "n", "m", "k", "h", "x", "l", "o", "+", "=", "*",
    "!", "(", ")", "|", ";", "[", "]", "pung", "kong", "pair", "run", "set", "single", "quint",
    "shift", "suits", "distinct", "in", "..", ",", "odd", "even", "dragon", "dragons", "wind",
    "!=", "-", "9999", "99999", "999999999", "1..9", "1..10", "n+1", "n-2", " ", "  ", "\t",
    "\n", "é", "\x00", "3[", "[kong]", "2[pair]", "jokers", "false", "may", "be", "not",
    "bams", "dots", "{n*m}", "{", "}", "13-n", "n*m", "(4444a 9999b|5555a 8888b)", "shift s",
    "s+1..s+5", "c may be b", "a, b in bams, craks", "a != b",
]
NOTATION = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=24).map("".join),
    st.lists(st.sampled_from(PIECES), max_size=16).map(" ".join),
    st.text(max_size=40),
)
ORIGIN = Location("t.yaml", 4, 10)
RULES = Rules(load_deck("american-152"), 2026)

FAST = settings(max_examples=180, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=20000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _check_notation(text: str) -> None:
    try:
        pattern = parse(text, origin=ORIGIN)
    except NotationError as error:
        assert error.diagnostics and all(d.location is not None for d in error.diagnostics)
        assert error.diagnostics[0].location.file == "t.yaml"  # type: ignore[union-attr]
        assert "internal error" not in str(error)
        return
    assert parse(str(pattern)) == pattern  # what parses prints back to itself
    try:
        expand(pattern, RULES)
    except ExpansionError as error:
        assert error.problems
        for problem in error.problems:
            line, column = problem.at
            assert 1 <= line <= text.count("\n") + 1
            assert 1 <= column <= len(text) + 1


@FAST
@given(NOTATION)
def test_hand_notation_ends_in_a_pattern_or_a_located_error(text: str) -> None:
    _check_notation(text)


@pytest.mark.slow
@SLOW
@given(NOTATION)
def test_hand_notation_many(text: str) -> None:
    _check_notation(text)


# Card files: the keys a card has (and some it has not), values of any shape.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=12), st.sampled_from(["american-152", "nymj-75", "sample", "2026", "C"]),
    NOTATION,
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)
LINE_KEYS = ["section", "concealed", "jokers", "note", "flags", "clause",
             "colour"]
LINE = st.fixed_dictionaries(
    {"id": st.one_of(st.sampled_from(["a", "b", "13579_1", "2468"]), SCALARS),
     "hand": st.one_of(NOTATION, st.sampled_from(["FF 2026a 2222b 2222c", "3[kong] [pair]"])),
     "value": st.one_of(st.just(25), SCALARS)},
    optional={key: VALUES for key in LINE_KEYS})
CARD = st.fixed_dictionaries(
    {"card": st.one_of(st.just("t"), SCALARS),
     "deck": st.one_of(st.sampled_from(["american-152", "nymj-75", "american-152*2"]), SCALARS),
     "lines": st.one_of(st.lists(LINE, min_size=1, max_size=4), VALUES)},
    optional={"year": st.one_of(st.just(2026), SCALARS), "hand_size": SCALARS,
              "budget": SCALARS, "joker_min_group": SCALARS, "decks": VALUES,
              "title": VALUES, "flavour": VALUES})


def _card_text(draw: st.DrawFn) -> str:
    text = yaml.safe_dump(draw(CARD), allow_unicode=True, sort_keys=False)
    if draw(st.booleans()):  # damage the text itself too
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=8)) + text[at + draw(st.integers(0, 8)):]
    return text


CARD_TEXT = st.composite(_card_text)()


def _check_card_text(text: str) -> None:
    try:
        report = check_card(load_text(text, "t.yaml"))
        diagnostics = report.diagnostics
    except JonggError as error:
        diagnostics = error.diagnostics
    for d in diagnostics:
        assert d.location is not None, str(d)
        assert "internal error" not in str(d)
        assert len(str(d)) < 2000  # an excerpt, never the whole input


@FAST
@given(CARD_TEXT)
def test_card_files_end_in_a_card_or_located_errors(text: str) -> None:
    _check_card_text(text)


@pytest.mark.slow
@SLOW
@given(CARD_TEXT)
def test_card_files_many(text: str) -> None:
    _check_card_text(text)


def _check_command(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.yaml"
        path.write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["card", "check", str(path)])
    printed = out.getvalue() + err.getvalue()
    assert status in (0, 1), printed
    assert "internal error" not in printed and "Traceback" not in printed
    assert printed.strip()


@settings(FAST, max_examples=60)
@given(CARD_TEXT)
def test_card_check_command_ends_in_ok_or_located_errors(text: str) -> None:
    _check_command(text)


@pytest.mark.slow
@settings(SLOW, max_examples=5000)
@given(CARD_TEXT)
def test_card_check_command_many(text: str) -> None:
    _check_command(text)
