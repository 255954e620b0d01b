"""Rulesets name rulesets: a path is relative to the file that writes it, and
only YAML files (or shipped names) are rulesets, so no reference can read, or
print, another kind of file."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.card import load_card
from jongg.compiler.errors import JonggError, Location
from jongg.compiler.game import load_game
from jongg.compiler.variant import check_variant, compile_variant

from .conftest import run_cli, where

ROOT = Path(__file__).resolve().parents[1]
SECRET = "password=hunter2-the-whole-file\n" * 40


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """house/variant.yaml extends house/base.yaml and plays house/cards/mine.yaml,
    a card whose deck is house/decks/tiles.yaml: every path relative to its file."""
    deck = (ROOT / "rulesets/decks/american-152.yaml").read_text(encoding="utf-8")
    _write(tmp_path / "house/decks/tiles.yaml", deck.replace("deck: american-152", "deck: tiles"))
    card = (ROOT / "rulesets/cards/mjcg-beginner.yaml").read_text(encoding="utf-8")
    _write(tmp_path / "house/cards/mine.yaml",
           card.replace("card: mjcg-beginner", "card: mine")
           .replace("deck: american-152", "deck: ../decks/tiles.yaml"))
    _write(tmp_path / "house/base.yaml", "variant: base\nextends: mjcg\n"
           "deck: decks/tiles.yaml\nplayers: {min: 4, max: 4}\n")
    return _write(tmp_path / "house/variant.yaml", "variant: house\nextends: base.yaml\n"
                  "win: {card: cards/mine.yaml}\n")


def test_paths_are_relative_to_the_file_that_names_them(
        house: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    name = "../house/variant.yaml"
    assert check_variant(name) == []
    spec = compile_variant(name)
    assert spec.card == "../house/cards/mine.yaml"
    assert spec.deck_source == "../house/decks/tiles.yaml"
    assert load_game(name).matcher.card.name == "mine"
    status, out, _ = run_cli(capsys, "match", "--variant", name, "--hand", "1B 1B 1B")
    assert status == 0 and "card mine" in out
    status, out, _ = run_cli(capsys, "card", "check", "../house/cards/mine.yaml")
    assert status == 0 and "deck tiles" in out


def test_a_missing_reference_is_located_where_it_is_written(
        house: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = "variant: house\nextends: base.yaml\nwin: {card: cards/nope.yaml}\n"
    _write(house, text)
    (d,) = check_variant("house/variant.yaml")
    assert d.location == Location("house/variant.yaml", *where(text, "cards/nope.yaml"))
    assert "house/cards/nope.yaml: no such card file" in d.message
    assert "relative to house/variant.yaml" in d.message
    _write(house, "variant: house\nextends: bass.yaml\n")
    (d,) = check_variant("house/variant.yaml")
    assert d.location == Location("house/variant.yaml", 2, 10)
    assert "house/bass.yaml: no such variant file" in d.message


@pytest.mark.parametrize(("key", "text"), [
    ("deck", "variant: v\nextends: nymj\ndeck: {target}\n"),
    ("extends", "variant: v\nextends: {target}\n"),
    ("card", "variant: v\nextends: nymj\nwin: {{card: {target}}}\n"),
])
@pytest.mark.parametrize("target", ["../secret.env", "/etc/passwd", "secret"])
def test_a_reference_to_a_file_that_is_no_ruleset_is_refused_unread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        key: str, text: str, target: str) -> None:
    _write(tmp_path / "secret.env", SECRET)
    _write(tmp_path / "secret", SECRET)
    monkeypatch.chdir(tmp_path)
    body = text.format(target=target)
    _write(tmp_path / "house/v.yaml", body)
    status, out, err = run_cli(capsys, "variant", "check", "house/v.yaml")
    assert status == 1
    assert "hunter2" not in out + err
    line, column = where(body, target)
    kind = {"extends": "variant"}.get(key, key)
    refusal = f"unknown {kind} 'secret'" if target == "secret" else \
        f"'{target}' is not a {kind}: give a shipped name or a path to a .yaml or .yml file"
    assert f"house/v.yaml:{line}:{column}: error: {refusal}" in out


def test_a_yaml_file_that_is_no_ruleset_is_quoted_in_short(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A long value in the wrong place is quoted in a few dozen characters."""
    _write(tmp_path / "secret.yaml", SECRET.replace("\n", " "))
    for kind, text in [("deck", "variant: v\nextends: nymj\ndeck: secret.yaml\n"),
                       ("card", "variant: v\nextends: nymj\nwin: {card: secret.yaml}\n"),
                       ("variant", "variant: v\nextends: secret.yaml\n")]:
        path = _write(tmp_path / f"{kind}.yaml", text)
        status, out, err = run_cli(capsys, "variant", "check", str(path))
        assert status == 1, kind
        assert "is not of type 'object'" in out, kind
        assert out.count("hunter2") <= 1 and all(len(x) < 300 for x in out.splitlines()), out


@pytest.mark.parametrize("argv", [
    ["card", "show", "{path}"], ["match", "--card", "{path}", "--hand", "1B"],
    ["compile", "{path}"], ["variant", "check", "{path}"], ["tiles", "{path}"],
    ["variant", "show", "{path}"], ["card", "check", "{path}"]])
def test_a_command_line_file_that_is_no_ruleset_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    path = _write(tmp_path / "secret.env", SECRET)
    status, out, err = run_cli(capsys, *[a.format(path=path) for a in argv])
    assert status == 1
    assert "hunter2" not in out + err
    assert "give a shipped name or a path to a .yaml or .yml file" in out + err or \
        f"error: no variant or {'card' if argv[0] == 'compile' else 'deck'} named" in err


def test_a_card_names_its_deck_relative_to_itself(house: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path / "house")
    assert load_card("cards/mine.yaml").deck.name == "tiles"
    card = (tmp_path / "house/cards/mine.yaml").read_text(encoding="utf-8")
    _write(tmp_path / "house/cards/bad.yaml", card.replace("../decks/tiles.yaml", "tiles.yaml"))
    with pytest.raises(JonggError) as info:
        load_card("cards/bad.yaml")
    (d,) = info.value.diagnostics
    text = (tmp_path / "house/cards/bad.yaml").read_text(encoding="utf-8")
    assert d.location == Location("cards/bad.yaml", *where(text, "tiles.yaml"))
    assert "cards/tiles.yaml: no such deck file (relative to cards/bad.yaml)" in d.message


def test_a_long_value_is_quoted_in_short_by_every_check(tmp_path: Path) -> None:
    """A value pasted where a name goes (5000 characters; 1000 in a key, the most
    YAML reads there) is never printed whole."""
    long = "x" * 5000
    path = _write(tmp_path / "v.yaml", f"variant: v\nextends: nymj\nclaims:\n  priority: "
                  f"[mahjong, set, {long}]\ndeck_without: {{{long[:1000]}: 1}}\n")
    problems = check_variant(str(path))
    assert {d.message.split(" '")[0] for d in problems} >= {"priority names no claim",
                                                             "the deck"}
    assert all(len(d.message) < 200 for d in problems), [d.message[:100] for d in problems]


def test_a_path_too_long_for_the_file_system_is_a_missing_file(tmp_path: Path) -> None:
    text = f"variant: v\nextends: nymj\ndeck: {'d' * 5000}.yaml\n"
    path = _write(tmp_path / "v.yaml", text)
    (d,) = check_variant(str(path))
    assert d.location == Location(str(path), 3, 7)
    assert "no such deck file" in d.message and len(d.message) < 300
