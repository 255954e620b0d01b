"""A variant built on another: what it writes beats everything it inherits, at
every player count; `variant show --resolved` says where each value came from;
the base's prose (title, note, open) is not inherited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from jongg.compiler.variant import compile_variant, resolve
from jongg.runtime.game.spec import Pass, Vote

from .conftest import run_cli, where

# One Charleston instead of the Card Game's two, and triple self-drawn payments,
# on top of mjcg-card: its bases (mjcg, mjcg-advanced) set a second Charleston at
# 3 and 5 players and double payments at 6 under by_players.
HOUSE = """\
variant: house
extends: mjcg-card
before_play:
  - {phase: pass, to: right, count: 3}
  - {phase: pass, to: left, count: 3}
scoring:
  win:
    - payer: each-opponent
      amount: "value * (if self_drawn then 3 else 1)"
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_what_a_variant_writes_beats_its_bases_counts(tmp_path: Path, players: int) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE)
    spec = compile_variant(str(path), players)
    assert [type(p) for p in spec.phases] == [Pass, Pass]  # no vote for a second Charleston
    assert not any(isinstance(p, Vote) for p in spec.phases)
    (win,) = spec.scoring.win
    assert win.amount.text == "value * (if self_drawn then 3 else 1)"


def test_the_bases_counts_hold_where_the_variant_is_silent(tmp_path: Path) -> None:
    """MJCG-38: six players play the six-player deck and seats, as mjcg says,
    and the advanced deal of 13/14 (mjcg-advanced's by_players), which house
    does not write."""
    path = _write(tmp_path, "house.yaml", HOUSE)
    six = compile_variant(str(path), 6)
    assert six.deck_source == "american-152-6p"
    assert six.seats == ("East", "South", "South-West", "West", "North", "North-East")
    assert (six.deal, six.dealer_extra) == (13, 1)
    three = compile_variant(str(path), 3)
    assert three.seats == ("East", "South", "North")  # MJCG-36


def test_a_card_the_variant_names_is_played_at_every_count(tmp_path: Path) -> None:
    """The six-player card of the base (mjcg-beginner-6) never replaces the card
    the variant names."""
    beginner = (Path(__file__).resolve().parents[1] / "rulesets/cards/mjcg-beginner.yaml")
    _write(tmp_path, "mine.yaml", beginner.read_text(encoding="utf-8")
           .replace("card: mjcg-beginner", "card: mine"))
    path = _write(tmp_path, "house.yaml", "variant: house\nextends: mjcg\n"
                  "win: {card: mine.yaml}\n")
    for players in (3, 4, 5, 6):
        spec = compile_variant(str(path), players)
        assert spec.card == str(tmp_path / "mine.yaml"), players


def test_a_variants_own_count_beats_its_own_top_level(tmp_path: Path) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE + 'by_players:\n  "3":\n'
                  "    before_play: [{phase: pass, to: right, count: 2}]\n")
    three, four = compile_variant(str(path), 3), compile_variant(str(path), 4)
    assert three.phases == (Pass(three.phases[0].to, 2),)  # type: ignore[union-attr]
    assert len(four.phases) == 2


def test_a_mistake_in_what_the_variant_writes_is_found_at_every_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Across with 3 or 5 players: the base's odd-count Charleston no longer
    hides the variant's own, so the check finds it where it is written."""
    text = HOUSE.replace("to: left", "to: across")
    path = _write(tmp_path, "house.yaml", text)
    status, out, _ = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    line, column = where(text, "across")
    for players in (3, 5):
        assert f"{path}:{line}:{column}: error: 'across' has no partner with {players} " \
            f"players (with {players} players)" in out


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, object]]:
    status, out, _ = run_cli(capsys, "variant", "show", *argv, "--resolved")
    assert status == 0
    status, text, _ = run_cli(capsys, "variant", "show", *argv, "--resolved", "--json")
    assert status == 0
    return out, json.loads(text)


def test_show_resolved_says_where_each_value_comes_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE)
    out, data = _show(capsys, str(path), "--players", "6")
    rows = {line.split("  # ")[0].rstrip(): line.split("  # ")[1]
            for line in out.splitlines() if "  # " in line}
    assert rows["before_play:"] == "from house.yaml"
    assert rows["deck: american-152-6p"] == "from mjcg.yaml by_players 6"
    assert rows["  each: 13"] == "from mjcg-advanced.yaml by_players 6"
    assert rows["  card: sample"] == "from mjcg-card.yaml"
    assert rows["  start: 650"] == "from mjcg.yaml"
    assert rows["  racks: 1"] == "default"
    assert yaml.safe_load(out) == data  # the comments leave the YAML as it was


def test_show_resolved_marks_a_value_written_over_several_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A list's comment closes its key's line; a string that keeps line breaks
    spans lines, so its comment stands above it."""
    path = _write(tmp_path, "lines.yaml", "variant: lines\nextends: nymj\n"
                  "note: |\n  first line\n  second line\n")
    out, data = _show(capsys, str(path))
    rows = out.splitlines()
    listed = next(r for r in rows if r.startswith("clause:"))
    assert listed.endswith("# from nymj.yaml")
    at = rows.index(next(r for r in rows if r.startswith("note:")))
    assert rows[at - 1] == "# from lines.yaml"
    assert yaml.safe_load(out) == data
    assert data["note"] == "first line\nsecond line\n"


# -- the base's prose is the base's -------------------------------------------------------
def test_a_variant_without_a_title_is_not_titled_as_its_base(tmp_path: Path) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE)
    spec = compile_variant(str(path), 4)
    assert spec.title == "house"  # not "Mah Jongg Card Game (card play, the sample card)"
    data = resolve(str(path), 4).data
    assert "title" not in data and "open" not in data and "note" not in data
    titled = _write(tmp_path, "titled.yaml", "title: House rules\n" + HOUSE)
    assert compile_variant(str(titled), 4).title == "House rules"


def test_a_variant_keeps_its_own_open_notes_and_none_of_its_bases(tmp_path: Path) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE + "open:\n  - one Charleston only\n"
                  'by_players:\n  "3":\n    note: three of us\n')
    assert resolve(str(path), 4).data["open"] == ["one Charleston only"]
    three = resolve(str(path), 3).data
    assert three["note"] == "three of us" and three["open"] == ["one Charleston only"]
    # mjcg's own count 3 writes no prose, but a base's prose never reaches a child
    base = _write(tmp_path, "base.yaml", "variant: base\nextends: nymj\ntitle: Base\n"
                  'note: the base\nby_players:\n  "3":\n    open: [base at three]\n')
    child = _write(tmp_path, "child.yaml", "variant: child\nextends: base.yaml\n")
    for players in (3, 4):
        data = resolve(str(child), players).data
        assert not {"title", "note", "open"} & set(data), players
    assert resolve(str(base), 3).data["open"] == ["base at three"]


def test_show_resolved_says_the_bases_prose_is_not_inherited(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "house.yaml", HOUSE)
    out, _ = _show(capsys, str(path))
    assert "# title, note and open are this file's own; those of mjcg-card, mjcg-advanced, " \
        "mjcg describe those variants and are not inherited" in out.splitlines()


QUINT_LINE = """
  - id: my-quint
    section: Quints
    hand: "11111a 2222a 33333a ; shift"
    value: 40
    flags: [quint]
"""


@pytest.mark.parametrize("quint", [False, True])
def test_a_house_variant_naming_its_own_card_plays(tmp_path: Path, quint: bool,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A house variant on a shipped one with a card of its own: the base's
    win.flags (star, quint: the sample card's) go with the base's card, so
    of them the child keeps only those its card carries, says so as a warning
    placed in the child's file, and plays a match. It was refused with an
    error placed in the shipped file (mjcg-card.yaml: no line of the card
    'mine' is flagged 'quint')."""
    from jongg.compiler.game import load_game
    from jongg.runtime.agents.play import play_match
    beginner = (Path(__file__).resolve().parents[1] / "rulesets/cards/mjcg-beginner.yaml")
    _write(tmp_path, "mine.yaml", beginner.read_text(encoding="utf-8")
           .replace("card: mjcg-beginner", "card: mine") + (QUINT_LINE if quint else ""))
    path = _write(tmp_path, "house.yaml", "variant: house\nextends: mjcg-card\n"
                  "win: {card: mine.yaml}\n")
    spec = compile_variant(str(path), 4)
    assert spec.card == str(tmp_path / "mine.yaml")
    assert spec.card_flags == (("quint",) if quint else ())
    status, out, err = run_cli(capsys, "variant", "check", str(path))
    assert status == 0 and "mjcg-card.yaml:" not in out + err
    kept = "only quint" if quint else "none of them"
    assert f"{path}:3:13: warning: win.flags of mjcg-card.yaml (" in out + err
    assert f"the card 'mine' carries {kept}" in out + err
    record, final = play_match(load_game(str(path), 4), 5, ("greedy",))
    assert final.is_terminal() and record.rounds and not record.violations


def test_a_house_variants_own_flags_are_its_own_to_answer_for(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    """Flags the child writes itself are checked against its card, and the
    error is placed in the child's file."""
    beginner = (Path(__file__).resolve().parents[1] / "rulesets/cards/mjcg-beginner.yaml")
    _write(tmp_path, "mine.yaml", beginner.read_text(encoding="utf-8")
           .replace("card: mjcg-beginner", "card: mine"))
    path = _write(tmp_path, "house.yaml", "variant: house\nextends: mjcg-card\n"
                  "win: {card: mine.yaml, flags: [quint]}\n")
    status, out, err = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    assert f"{path}:3:" in out + err and "no line of the card 'mine' is flagged 'quint'" in \
        out + err and "mjcg-card.yaml:" not in out + err


def test_a_house_card_the_inherited_deal_does_not_fit_is_placed_in_the_house_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A house card of 13 tiles on mjcg-card's deal of 13 and a draw: the
    mismatch is the child's doing (it named the card), so it is placed in the
    child's file, not in the shipped mjcg.yaml that deals."""
    beginner = (Path(__file__).resolve().parents[1] / "rulesets/cards/mjcg-beginner.yaml")
    _write(tmp_path, "mine.yaml", beginner.read_text(encoding="utf-8")
           .replace("card: mjcg-beginner", "card: mine").replace("hand_size: 14", "hand_size: 13")
           .replace("3[kong] [pair]", "3[kong] 1a"))
    path = _write(tmp_path, "house.yaml", "variant: house\nextends: mjcg-card\n"
                  "win: {card: mine.yaml}\n")
    status, out, err = run_cli(capsys, "variant", "check", str(path))
    assert status == 1 and "rulesets/variants/" not in out + err
    assert f"{path}:3:13: error: every seat is dealt 13 tiles and draws one: more than a " \
        "complete hand of the card 'mine' (13)" in out + err
