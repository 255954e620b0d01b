"""Scoring formulas: a small safe language over a round's facts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jongg.compiler.errors import Location, NotationError
from jongg.compiler.formula import compile_formula
from jongg.runtime.game.formula import FormulaError

FACTS = ["self_drawn", "jokerless", "dealer", "value", "winner_is_dealer"]
ROUND = {"self_drawn": True, "jokerless": False, "dealer": False, "value": 25,
         "winner_is_dealer": True}


@pytest.mark.parametrize(("text", "expected"), [
    ("if self_drawn then 4 else 2", 4),
    ("value * (if jokerless then 2 else 1)", 25),
    ("-2 * 3 + 1", -5),
    ("1 - 2 - 3", -4),  # left to right
    ("2 * 3 - 4 * 5", -14),  # * before +
    ("max(1, 2, value) - min(3, 4)", 22),
    ("not jokerless and dealer or self_drawn", 1),
    ("not (jokerless or dealer)", 1),
    ("value >= 30", 0),
    ("value == 25 and self_drawn", 1),
    ("abs(-5)", 5),
    ("true + true + false", 2),
    ("if value > 20 then if jokerless then 3 else 2 else 1", 2),
])
def test_formulas_evaluate_over_facts(text: str, expected: int) -> None:
    assert compile_formula(text, FACTS)(ROUND) == expected


@pytest.mark.clause("NYMJ-21")
def test_the_not_your_mas_jong_payment_reads_as_a_formula() -> None:
    """A non-Ma winner gets 1 from each loser on a steal, 2 on a draw; Ma pays
    or receives double (Ma winning by steal: 2 from each; by draw: 4)."""
    pay = compile_formula("(if self_drawn then 2 else 1) * (if dealer or winner_is_dealer "
                          "then 2 else 1)", FACTS)
    assert pay.facts == {"self_drawn", "dealer", "winner_is_dealer"}
    base = dict.fromkeys(FACTS, False) | {"value": 0}
    assert pay(base) == 1
    assert pay(base | {"self_drawn": True}) == 2
    assert pay(base | {"dealer": True}) == 2
    assert pay(base | {"dealer": True, "self_drawn": True}) == 4
    assert pay(base | {"winner_is_dealer": True}) == 2
    assert pay(base | {"self_drawn": True, "winner_is_dealer": True}) == 4


def _errors(text: str) -> list[str]:
    with pytest.raises(NotationError) as caught:
        compile_formula(text, FACTS, origin=Location("v.yaml", 3, 10))
    return [str(d) for d in caught.value.diagnostics]


def test_every_unknown_name_is_reported_at_its_column_with_a_suggestion() -> None:
    errors = _errors("jokerles + selfdrawn")
    assert errors[0].startswith("v.yaml:3:10: error: unknown fact 'jokerles'")
    assert "did you mean 'jokerless'?" in errors[0]
    assert errors[1].startswith("v.yaml:3:21: error: unknown fact 'selfdrawn'")
    assert "did you mean 'self_drawn'?" in errors[1]


def test_functions_are_checked_by_name_and_count() -> None:
    assert "unknown function 'foo'; functions: abs, max, min" in _errors("foo(1)")[0]
    assert "abs() takes 1 value(s), not 2" in _errors("abs(1, 2)")[0]
    assert "min() takes at least 2 value(s), not 1" in _errors("min(1)")[0]


@pytest.mark.parametrize(("text", "column"), [
    ("__import__('os')", 21),  # no Python: the quote is no formula
    ("value.real", 15),
    ("2 +", 13),  # missing at the end
    ("if dealer then 1", 26),
    ("value ** 2", 17),
])
def test_what_is_no_formula_is_refused_where_it_goes_wrong(text: str, column: int) -> None:
    error = _errors(text)[0]
    assert error.startswith(f"v.yaml:3:{column}: error: a formula is numbers and facts")
    assert text in error


def test_a_fact_the_round_lacks_is_named() -> None:
    pay = compile_formula("value * 2", FACTS)
    with pytest.raises(FormulaError, match="reads 'value'"):
        pay({"dealer": True})


# -- random formulas: the grammar's precedence against a direct evaluation -------

NUMBERS = {"value": 25, "seats": 4}
BOOLS = {"self_drawn": True, "jokerless": False, "dealer": False}
ALL = {**NUMBERS, **BOOLS}


def _numbers(depth: int) -> st.SearchStrategy[tuple[str, int]]:
    leaf = st.one_of(st.integers(0, 9).map(lambda n: (str(n), n)),
                     st.sampled_from(sorted(NUMBERS)).map(lambda f: (f, NUMBERS[f])))
    if depth == 0:
        return leaf
    sub, test = _numbers(depth - 1), _tests(depth - 1)
    binary = st.tuples(sub, st.sampled_from(["+", "-", "*"]), sub).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})",
                   {"+": t[0][1] + t[2][1], "-": t[0][1] - t[2][1],
                    "*": t[0][1] * t[2][1]}[t[1]]))
    cond = st.tuples(test, sub, sub).map(
        lambda t: (f"(if {t[0][0]} then {t[1][0]} else {t[2][0]})",
                   t[1][1] if t[0][1] else t[2][1]))
    calls = st.tuples(st.sampled_from(["min", "max"]), sub, sub).map(
        lambda t: (f"{t[0]}({t[1][0]}, {t[2][0]})", min(t[1][1], t[2][1])
                   if t[0] == "min" else max(t[1][1], t[2][1])))
    return st.one_of(leaf, binary, cond, calls, sub.map(lambda t: (f"(-{t[0]})", -t[1])))


def _tests(depth: int) -> st.SearchStrategy[tuple[str, bool]]:
    leaf = st.sampled_from(sorted(BOOLS)).map(lambda f: (f, BOOLS[f]))
    if depth == 0:
        return leaf
    sub, num = _tests(depth - 1), _numbers(depth - 1)
    logic = st.tuples(sub, st.sampled_from(["and", "or"]), sub).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})",
                   (t[0][1] and t[2][1]) if t[1] == "and" else (t[0][1] or t[2][1])))
    compare = st.tuples(num, st.sampled_from(["<", "<=", "==", "!=", ">=", ">"]), num).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})",
                   {"<": t[0][1] < t[2][1], "<=": t[0][1] <= t[2][1],
                    "==": t[0][1] == t[2][1], "!=": t[0][1] != t[2][1],
                    ">=": t[0][1] >= t[2][1], ">": t[0][1] > t[2][1]}[t[1]]))
    return st.one_of(leaf, logic, compare, sub.map(lambda t: (f"(not {t[0]})", not t[1])))


@settings(deadline=None, max_examples=300)
@given(_numbers(3))
def test_random_formulas_evaluate_as_written(case: tuple[str, int]) -> None:
    text, expected = case
    assert compile_formula(text, sorted(ALL))(ALL) == expected


@settings(deadline=None, max_examples=200)
@given(_numbers(2), _numbers(2), _numbers(2))
def test_times_binds_tighter_than_plus_and_minus_is_left_to_right(
        a: tuple[str, int], b: tuple[str, int], c: tuple[str, int]) -> None:
    facts = sorted(ALL)
    assert compile_formula(f"{a[0]} + {b[0]} * {c[0]}", facts)(ALL) == a[1] + b[1] * c[1]
    assert compile_formula(f"{a[0]} - {b[0]} - {c[0]}", facts)(ALL) == a[1] - b[1] - c[1]


def test_the_facts_the_runtime_gives_are_the_facts_formulas_may_read() -> None:
    """One list of fact names serves the compiler's checks and the runtime's
    answers: a fact added to one and not the other fails here."""
    from jongg.runtime.game.scoring import (
        DEAD_FACTS,
        MATCH_FACTS,
        WIN_FACTS,
        Facts,
        RoundEnd,
        dead_facts,
        match_facts,
        win_facts,
    )

    from .rig import game

    spec = game("royale-siamese", 4).spec  # flags and racks: every kind of fact
    facts = Facts(True, False, 25, True, 1, held=(("held_flower", 2),), flags=("star",))
    given = win_facts(spec, RoundEnd(0, 1, None, True, "x", 0, 9), facts)
    payer = {"payer_is_dealer", "payer_is_discarder"}
    dynamic = {k for k in given if k.startswith(("held_", "flagged_"))}
    assert set(given) - dynamic | payer == set(WIN_FACTS)
    assert {f"flagged_{f}" for f in spec.flags} <= dynamic
    assert set(dead_facts(spec, 0, 50, 25)) == set(DEAD_FACTS)
    assert set(match_facts(spec, 3, [1, 2, 3, 4])) == set(MATCH_FACTS)


# -- bounds: a formula nests and counts no further than a game could need ----------------
@pytest.mark.parametrize(("text", "column", "message"), [
    ("-" * 600 + "1", 65, "nests more than 64 operations"),  # at the 65th level
    ("not " * 600 + "value", 4 * 64 + 1, "nests more than 64 operations"),
    ("if value > 1 then " * 300 + "1" + " else 2" * 300, None, "nests more than 64 operations"),
    ("1" + " + value" * 600, None, "nests more than 64 operations"),  # a sum nests
    ("2 * " + "9" * 5000, 5, "has more than 9 digits"),
    ("value * 1234567890", 9, "has more than 9 digits"),
])
def test_a_formula_past_its_bounds_is_refused_where_it_goes(text: str, column: int | None,
                                                            message: str) -> None:
    with pytest.raises(NotationError) as info:
        compile_formula(text, FACTS, origin=Location("v.yaml", 3, 10))
    (d,) = info.value.diagnostics
    assert message in d.message
    assert d.location is not None and (d.location.file, d.location.line) == ("v.yaml", 3)
    if column is not None:
        assert d.location.column == 9 + column
    assert 10 <= d.location.column < 10 + len(text)
    assert len(str(d)) < 300  # a long formula is never printed whole


def test_formulas_within_the_bounds_evaluate() -> None:
    assert compile_formula("-" * 60 + "1", FACTS)(ROUND) == 1
    assert compile_formula("1" + " + 1" * 60, FACTS)(ROUND) == 61
    assert compile_formula("value * 999999999", FACTS)(ROUND) == 25 * 999999999
    assert compile_formula("0000000000007", FACTS)(ROUND) == 7  # zeros in front count nothing


def test_a_syntax_error_in_a_long_formula_is_quoted_around_the_mistake() -> None:
    text = "value + " * 100 + "* 2"
    with pytest.raises(NotationError) as info:
        compile_formula(text, FACTS)
    (d,) = info.value.diagnostics
    quoted, caret = d.message.splitlines()[1:3]
    assert len(quoted) < 80
    assert quoted[caret.index("^")] == "*"
