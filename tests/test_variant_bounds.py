"""Variants that check but could not be played: a match that cannot end, a
player count the variant is not played at, payments that run the wrong way
or past what can be summed. Each is refused by `variant check`, located."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.bounds import ANY, bound
from jongg.compiler.formula import compile_formula
from jongg.compiler.variant import check_variant

from .conftest import run_cli, where


def _check(tmp_path: Path, text: str) -> list[tuple[str, str, tuple[int, int] | None]]:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return [(d.severity.value, d.message, (d.location.line, d.location.column)
             if d.location else None) for d in check_variant(str(path))]


@pytest.mark.parametrize("end", ["false", "0", "rounds < 0", "rounds > 5000",
                                 "rounds >= 2 and not (rounds >= 1)", "players > 8",
                                 "if true then false else rounds >= 1"])
def test_a_match_that_cannot_end_is_refused(tmp_path: Path, end: str) -> None:
    text = f'variant: v\nextends: nymj\nmatch: {{end: "{end}"}}\n'
    (problem,) = _check(tmp_path, text)
    assert problem[0] == "error"
    assert problem[1].startswith(f"match.end '{end}' never holds in the first 1,000 rounds, "
                                 "whatever the scores")
    assert problem[2] == where(text, end)


@pytest.mark.parametrize("end", ["rounds >= 999", "lowest <= 0", "highest >= 999999999",
                                 "rounds >= players or lowest < 0", "true"])
def test_a_match_that_can_end_is_accepted(tmp_path: Path, end: str) -> None:
    assert _check(tmp_path, f'variant: v\nextends: nymj\nmatch: {{end: "{end}"}}\n') == []


def test_a_match_that_cannot_end_is_not_played(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.yaml"
    path.write_text('variant: v\nextends: nymj\nmatch: {end: "false"}\n', encoding="utf-8")
    status, _, err = run_cli(capsys, "simulate", str(path), "--games", "1")
    assert status == 1 and "never holds" in err


@pytest.mark.parametrize("key", ["99", "2", "5", '"5"', "123456789"])
def test_a_player_count_the_variant_is_not_played_at_is_refused(tmp_path: Path,
                                                                key: str) -> None:
    text = f"variant: v\nextends: nymj\nby_players:\n  {key}:\n    deal: {{each: 9}}\n"
    count = key.strip('"')
    assert _check(tmp_path, text) == [
        ("error", f"by_players '{count}': the variant is played by 3 to 4 players",
         where(text, key))]


def test_a_count_of_a_base_outside_the_variants_range_is_no_mistake(tmp_path: Path) -> None:
    """mjcg writes counts 3, 5 and 6; a variant for four players only inherits them unused."""
    assert _check(tmp_path, "variant: v\nextends: mjcg\nplayers: {min: 4, max: 4}\n") == []


def _paying(amount: str, base: str = "mjcg-advanced") -> str:
    return (f"variant: v\nextends: {base}\nscoring:\n  win:\n"
            f'    - {{payer: each-opponent, amount: "{amount}"}}\n')


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[Path, str]:
    """`variant check` fails the variant: its path and what was printed."""
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    status, out, _ = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    return path, out


@pytest.mark.parametrize(("amount", "severity", "message"), [
    ("-5", "error", "is always negative"),
    ("0 - value - 1", "error", "is always negative"),
    ("value - 30", "warning", "can be negative"),  # the card's lines are worth 25 to 40
    ("value - 41", "error", "is always negative"),
    ("(if self_drawn then 2 else 1) - 3", "error", "is always negative"),
])
def test_a_payment_that_runs_the_wrong_way(tmp_path: Path, amount: str, severity: str,
                                           message: str) -> None:
    text = _paying(amount)
    problems = [p for p in _check(tmp_path, text) if message in p[1]]
    assert problems and {p[0] for p in problems} == {severity}
    assert problems[0][2] == where(text, amount)


@pytest.mark.parametrize("amount", ["max(0, value - 100)", "value", "25",
                                    "if value >= 100 then value else 0"])
def test_a_payment_that_cannot_be_negative_passes(tmp_path: Path, amount: str) -> None:
    assert _check(tmp_path, _paying(amount)) == []


@pytest.mark.parametrize("amount", ["999999999 * 999999999", "value * 999999999",
                                    "999999999 * (if round > 2 then 999999999 else 1)"])
def test_a_payment_too_large_to_sum_is_refused_at_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], amount: str) -> None:
    text = _paying(amount)
    path, out = _refused(tmp_path, capsys, text)
    line, column = where(text, amount)
    assert f"{path}:{line}:{column}: error: the payment " in out
    assert "a payment is at most 1,000,000,000 points" in out


def test_huge_numbers_are_refused_where_they_are_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = "9" * 800
    _, out = _refused(tmp_path, capsys, _paying(f"{big} * {big}"))
    assert "has more than 9 digits" in out
    assert all(len(line) < 400 for line in out.splitlines())


def test_a_negative_start_is_refused(tmp_path: Path) -> None:
    (problem,) = _check(tmp_path, "variant: v\nextends: nymj\nmatch: {start: -10}\n")
    assert problem[1] == "match.start: -10 is less than the minimum of 0"


def test_bounds_are_never_too_narrow() -> None:
    """Every value a formula takes over a grid of facts lies in its bounds."""
    facts = {"a": (0, 3), "b": (-2, 2), "c": (0, 1)}
    for text in ["a * b - c", "if c then a else b", "max(a, b) * min(a, -b)", "abs(b) + -a",
                 "a >= b and not c", "(a - b) * (b - a)", "a == b or b != 0"]:
        formula = compile_formula(text, list(facts))
        low, high = bound(formula.tree, facts)
        for a in range(0, 4):
            for b in range(-2, 3):
                for c in (0, 1):
                    assert low <= formula({"a": a, "b": b, "c": c}) <= high, text
    assert bound(compile_formula("x * 0", ["x"]).tree, {"x": ANY}) == (0, 0)


@pytest.mark.parametrize("amount", ["-" * 600 + "1", "if true then " * 300 + "1" + " else 1" * 300,
                                    "1" + " + 1" * 3000, "9" * 5000])
def test_a_formula_past_its_bounds_fails_the_check_not_the_program(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], amount: str) -> None:
    path, out = _refused(tmp_path, capsys, _paying(amount, "nymj"))
    assert f"{path}:5:" in out
