"""Checked cards kept on disk (compiler/checked.py): a card checked once is
read back, warnings and all, while its text, its decks and this jongg are
the same; any change is checked anew; a damaged or unwritable cache never
changes an answer."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

from jongg.compiler import card as card_module
from jongg.compiler import checked, ship_checked
from jongg.compiler.card import check_card
from jongg.compiler.registry import load, shipped
from jongg.compiler.source import load_text
from jongg.runtime.card_json import card_from, card_json

from .conftest import card

# a card with a warning: some variations of `dragons` need jokers alone
WARNED = """card: kept
deck: american-152
year: 2026
lines:
  - {id: dragons, hand: "NN RRRR hhhh 1111a ; h in dragon", value: 25}
  - {id: other, hand: "NNNN EEEE WWWW SS", value: 30}
"""


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JONGG_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


class Unchecked(Exception):
    pass


def _no_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise Unchecked

    monkeypatch.setattr(card_module, "_check", refuse)


@pytest.mark.parametrize("name", shipped("card"))
def test_every_shipped_card_is_the_same_card_after_json(name: str) -> None:
    c = card(name)
    assert card_from(card_json(c)) == c


def test_a_card_checked_again_is_read_back_with_its_warnings(
        fresh_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = check_card(load_text(WARNED, "kept.yaml"))
    assert first.card is not None and first.warnings  # the card has something to say
    assert len(list((fresh_cache / "cards").glob("*.json"))) == 1
    _no_checking(monkeypatch)
    again = check_card(load_text(WARNED, "kept.yaml"))
    assert again.card == first.card
    assert [str(d) for d in again.diagnostics] == [str(d) for d in first.diagnostics]


@pytest.mark.parametrize("change", [
    lambda text: text.replace("value: 30", "value: 35"),  # the text
    lambda text: text + "# a comment moves nothing, but it is another text\n",
])
def test_a_changed_card_is_checked_anew(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                        change: object) -> None:
    check_card(load_text(WARNED, "kept.yaml"))
    _no_checking(monkeypatch)
    with pytest.raises(Unchecked):
        check_card(load_text(change(WARNED), "kept.yaml"))  # type: ignore[operator]
    with pytest.raises(Unchecked):  # the same text in another file: its messages name it
        check_card(load_text(WARNED, "other.yaml"))
    with pytest.raises(Unchecked):  # against another deck
        check_card(load_text(WARNED, "kept.yaml"), "american-152-6p")


def test_a_changed_deck_file_is_checked_anew(fresh_cache: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    deck = tmp_path / "mine.yaml"
    deck.write_text(Path("rulesets/decks/american-152.yaml").read_text())
    path = tmp_path / "kept.yaml"
    path.write_text(WARNED.replace("deck: american-152", "deck: mine.yaml"))
    first = check_card(load_text(path.read_text(), str(path), path))
    assert first.card is not None
    deck.write_text(deck.read_text().replace("title:", "title: changed", 1)
                    if "title:" in deck.read_text() else deck.read_text() + "\n# changed\n")
    _no_checking(monkeypatch)
    with pytest.raises(Unchecked):
        check_card(load_text(path.read_text(), str(path), path))


def test_a_damaged_kept_card_is_checked_again_and_kept_anew(
        fresh_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = check_card(load_text(WARNED, "kept.yaml"))
    (kept,) = (fresh_cache / "cards").glob("*.json")
    kept.write_text(kept.read_text().replace('"value":30', '"value":31'))  # checksum fails
    again = check_card(load_text(WARNED, "kept.yaml"))
    assert again.card == first.card and again.card.line("other").value == 30
    kept.write_bytes(b"\x00 not json")
    assert check_card(load_text(WARNED, "kept.yaml")).card == first.card
    _no_checking(monkeypatch)  # written anew, whole
    assert check_card(load_text(WARNED, "kept.yaml")).card == first.card


def test_a_cache_that_cannot_be_written_costs_time_not_the_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("JONGG_CACHE_DIR", str(blocked))
    report = check_card(load_text(WARNED, "kept.yaml"))
    assert report.card is not None and report.warnings
    assert checked.read(checked.key(load_text(WARNED, "kept.yaml"), None)) is None


def test_a_card_with_errors_is_not_kept(fresh_cache: Path) -> None:
    report = check_card(load_text(WARNED.replace("value: 30", "value: lots"), "kept.yaml"))
    assert report.card is None and report.errors
    assert not (fresh_cache / "cards").exists()


# -- the checks jongg ships (compiler/shipped_cards/) -------------------------------------
def test_the_shipped_checks_are_those_a_fresh_check_writes(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    assert ship_checked.write(fresh) == []
    made = {p.name: gzip.decompress(p.read_bytes()) for p in fresh.glob("*.json.gz")}
    kept = {p.name: gzip.decompress(p.read_bytes())
            for p in ship_checked.folder().glob("*.json.gz")}
    assert made, "a fresh check of the shipped cards and variants wrote nothing"
    assert sorted(kept) == sorted(made) and all(kept[n] == made[n] for n in made), \
        "the shipped checks are not those this jongg writes (a card, a deck or the " \
        "compiler changed): run python -m jongg.compiler.ship_checked"


def test_a_shipped_card_is_read_without_checking(fresh_cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("sample", "mjcg-advanced"):
        expected = card_module._check(load("card", name), None)
        _no_checking(monkeypatch)
        report = check_card(load("card", name))
        assert report.card == expected.card
        assert [str(d) for d in report.diagnostics] == [str(d) for d in expected.diagnostics]
        monkeypatch.undo()
        monkeypatch.setenv("JONGG_CACHE_DIR", str(fresh_cache))
    assert not (fresh_cache / "cards").exists()  # read, not checked and kept


@pytest.mark.parametrize("damage", [
    lambda good: b"not gzip at all",
    lambda good: good[:len(good) // 2],  # cut short
    lambda good: gzip.compress(b'{"key": "another", "report": {}}'),
    lambda good: gzip.compress(gzip.decompress(good).replace(b'"card"', b'"cord"', 1)),
])
def test_a_damaged_or_foreign_shipped_check_is_checked_anew(
        fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        damage: Callable[[bytes], bytes]) -> None:
    doc = load("card", "sample")
    good = checked._shipped_path(checked.key(doc, None)).read_bytes()
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(damage(good))
    monkeypatch.setattr(checked, "_shipped_path", lambda key: bad)
    _no_checking(monkeypatch)
    with pytest.raises(Unchecked):
        check_card(doc)


def test_writing_the_shipped_checks_where_they_cannot_go_is_an_error_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(ship_checked, "folder", lambda: blocked / "shipped_cards")
    assert ship_checked.main() == 1
    assert capsys.readouterr().err.startswith(
        f"error: cannot write the shipped checks into {blocked / 'shipped_cards'}: ")
