"""The constructs of a scored game (win.scored, dead_wall, declarations,
claims.furiten, match.honba and dealer_passes) are checked where they are
written: each mistake a message at its file:line:column, with a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import run_cli, where

ROOT = Path(__file__).resolve().parents[1]
RIICHI = ROOT / "rulesets/variants/riichi.yaml"


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[Path, str]:
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    status, out, err = run_cli(capsys, "variant", "check", str(path))
    assert status == 1 and "Traceback" not in out + err
    return path, out


@pytest.mark.parametrize(("written", "needle", "message"), [
    ("win: {card: classic, scored: {last_tile: haitei}}\n", "haitei",
     "'haitei' is not a context of hand_scoring"),
    ("declarations: [{name: riichi, context: richi}]\n", "richi",
     "'richi' is not a context of hand_scoring"),
    ("declarations: [{name: discard, context: riichi}]\n", "discard",
     "declaration 'discard' is already an action or another declaration's name"),
    ("dead_wall: {tiles: 12}\n", "12", "a dead wall of 12 tiles cannot hold 1 indicator(s)"),
    ("abortive: {first_discards: [winds]}\n", "winds", "the deck has no category 'winds'"),
    ("liability: [{yaku: daisangan, category: dragon, sets: 3}]\n", "daisangan",
     "hand_scoring has no yaku 'daisangan'"),
    ("liability: [{yaku: daisangen, category: dragons, sets: 3}]\n", "dragons",
     "the deck has no category 'dragons'"),
    ("claims: {several_honba: each}\n", "each",
     "several_honba is read only when several seats win on one discard"),
    ("claims: {kuikae: [caled]}\n", "caled", "claims.kuikae[0]: 'caled' is not one of"),
])
def test_a_mistake_in_a_scored_game_is_located(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               written: str, needle: str, message: str) -> None:
    text = f"variant: mine\nextends: {RIICHI}\n{written}"
    path, out = check(tmp_path, capsys, text)
    line, column = where(text, needle)
    assert f"{path}:{line}:{column}: error: {message}" in out, out


@pytest.mark.parametrize(("written", "needle", "message"), [
    ("dead_wall: {tiles: 14}\n", "tiles", "dead_wall is read only by a scored game"),
    ("claims: {furiten: {passed: round}}\n", "passed", "furiten is read only by a scored game"),
    ("match: {honba: true}\n", "honba", "honba is read only by a scored game"),
    ("abortive: {orphans: 9}\n", "orphans", "abortive is read only by a scored game"),
    ("liability: []\n", "liability", "liability is read only by a scored game"),
    ("claims: {several_wins: all}\n", "several_wins", "several_wins is read only by a scored game"),
    ("claims: {kuikae: []}\n", "kuikae", "kuikae is read only by a scored game"),
    ("match: {dealer_passes: unless-dealer-wins-or-waits}\n", "unless-dealer-wins-or-waits",
     "only a scored game knows who waits"),
])
def test_a_scored_games_construct_needs_win_scored(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   written: str, needle: str,
                                                   message: str) -> None:
    text = f"variant: mine\nextends: {ROOT}/rulesets/variants/classic.yaml\n{written}"
    path, out = check(tmp_path, capsys, text)
    line, _ = where(text, needle)
    assert f"{path}:{line}:" in out and message in out, out


def test_win_scored_needs_a_hand_scoring(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = (f"variant: mine\nextends: {ROOT}/rulesets/variants/classic.yaml\n"
            "win: {card: classic, scored: {}}\n")
    path, out = check(tmp_path, capsys, text)
    line, _ = where(text, "scored")
    assert f"{path}:{line}:" in out and "win.scored needs the variant's hand_scoring" in out
