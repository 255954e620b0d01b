"""A card's flagged lines are played only by the variants that name their flags
(win.flags): Siamese's Atomic Cat line (flag atomic, SMJ-27) is no ordinary
line of the Card Game's card play."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler import cache
from jongg.compiler.card import load_card
from jongg.compiler.variant import check_variant, compile_variant, load_variant, played

from .conftest import hand, run_cli, where
from .rig import game

# the sample card's atomic-cat line, 1a 2a 3a 4b 5b 6b 7c 8c 9c NEWS Da
ATOMIC_CAT = "1B 2B 3B 4C 5C 6C 7D 8D 9D N E W S GD"


def _ids(lines: tuple[object, ...]) -> set[str]:
    return {line.id for line in lines}  # type: ignore[attr-defined]


def test_unflagged_lines_always_and_flagged_lines_when_every_flag_is_named() -> None:
    sample = load_card("sample")
    flagged = {line.id: set(line.flags) for line in sample.lines if line.flags}
    assert flagged["atomic-cat"] == {"atomic"} and flagged["quint-5"] == {"quint", "star"}
    plain = _ids(played(sample, ()).lines)
    assert plain == {line.id for line in sample.lines if not line.flags}
    star = _ids(played(sample, ["star"]).lines)
    assert star - plain == {i for i, f in flagged.items() if f == {"star"}}  # not quint-5
    assert played(sample, ["atomic", "quint", "star"]) is sample


def test_the_card_game_does_not_play_the_atomic_cat_line() -> None:
    """MJCG-29: card play is the card's lines; the Atomic Cat is Siamese's
    (SMJ-27), and the matcher built for mjcg-card leaves it out."""
    spec = compile_variant("mjcg-card", 4)
    assert spec.card_flags == ("star", "quint")
    matcher = game("mjcg-card", 4).matcher
    assert "atomic-cat" not in _ids(matcher.card.lines)
    assert {"quint-5", "year-6"} <= _ids(matcher.card.lines)
    assert len(matcher.card.lines) == len(load_card("sample").lines) - 1
    atomic = hand(matcher.card, ATOMIC_CAT)
    assert [m.line for m in matcher.completions(atomic)] == []
    whole = cache.matcher("sample").matcher  # the card on its own: every line
    assert [m.line.id for m in whole.completions(atomic)] == ["atomic-cat"]


@pytest.mark.parametrize("name", ["siamese", "royale-siamese", "imperial-siamese"])
def test_siamese_plays_the_atomic_cat_on_a_pledged_rack(name: str) -> None:
    """SMJ-27: the Siamese variants name atomic, so their matcher holds the line."""
    assert "atomic" in compile_variant(name).card_flags
    assert "atomic-cat" in _ids(game(name).matcher.card.lines)


def test_the_selection_is_part_of_the_cache_key() -> None:
    keys = {cache.source_key("sample", "american-152", False, flags)
            for flags in (None, (), ("star", "quint"), ("atomic", "star", "quint"))}
    assert len(keys) == 4


def test_match_and_compile_use_the_variants_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert "atomic-cat" not in _ids(load_variant("mjcg-card").card.lines)
    status, out, _ = run_cli(capsys, "match", "--variant", "mjcg-card", "--hand", ATOMIC_CAT)
    assert status == 0 and "complete: none" in out
    status, out, _ = run_cli(capsys, "match", "--card", "sample", "--hand", ATOMIC_CAT)
    assert status == 0 and "complete:\n  atomic-cat (value 75)" in out
    status, out, _ = run_cli(capsys, "compile", "mjcg-card")
    assert status == 0 and "(card 'sample'): 61 lines" in out


def test_show_resolved_lists_the_lines_played(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "variant", "show", "mjcg-card", "--resolved")
    assert status == 0
    rows = out.splitlines()
    assert "  flags:" in [r.split("  #")[0].rstrip() for r in rows]
    assert any(r.startswith("# lines played: 61 of the 62 of the card 'sample': every "
                            "unflagged line, and the flagged lines year-6 (star), ") for r in rows)
    assert "# flagged lines left out (not named in win.flags): atomic-cat (atomic)" in rows


@pytest.mark.parametrize(("extra", "needle", "message"), [
    ("win: {card: sample, flags: [atomc]}", "atomc",
     "no line of the card 'sample' is flagged 'atomc'"),
    ("win: {card: sample, flags: [star]}\nbefore_play:\n"
     "  - {phase: pledge, flag: atomic, count: 13}", "atomic",
     "the pledge plays the lines flagged 'atomic', which win.flags does not name"),
])
def test_a_flag_named_wrongly_is_located(tmp_path: Path, extra: str, needle: str,
                                         message: str) -> None:
    text = f"variant: v\nextends: siamese\n{extra}\n"
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    (d,) = [d for d in check_variant(str(path)) if message in d.message]
    assert d.location is not None
    assert (d.location.line, d.location.column) == where(text, needle, text.count(needle) - 1)


def test_a_fact_of_a_flag_not_played_says_why_it_is_unknown(tmp_path: Path) -> None:
    """Royale's star bonus (SMJ-31) reads flagged_star: without star in
    win.flags the star lines are not played, and the message says so."""
    text = "variant: v\nextends: royale-siamese\nwin: {card: sample, flags: [atomic, quint]}\n"
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d for d in check_variant(str(path)) if "unknown fact 'flagged_star'" in d.message]
    assert found
    assert {d.hint for d in found} == {"the card's lines flagged 'star' are not played: name it "
                                       "in win.flags"}
