"""Writing and reading variant files, for tests/test_variants.py and
tests/test_variants_show.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from jongg.compiler.errors import (
    Diagnostic,
    JonggError,
    Location,
)
from jongg.compiler.variant import compile_variant

from .conftest import where

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["classic", "imperial-siamese", "mjcg", "mjcg-advanced", "mjcg-card", "nymj",
           "riichi", "riichi-east", "royale-siamese", "siamese"]

# A complete variant written out in full (no extends), valid at 3 and 4 players. Each
# bad variant below is this text with one or more pieces replaced.
STANDALONE = """\
variant: t
deck: nymj-75
players: {min: 3, max: 4, default: 4}
deal: {each: 10, dealer: 11}
claims:
  kinds:
    - {name: mahjong, mahjong: true}
    - {name: set, sizes: [3], runs: true}
  priority: [mahjong, set]
win: {card: nymj}
scoring:
  win:
    - {payer: each-opponent, amount: "1"}
  wall_game: []
match:
  end: "rounds >= 8"
"""


# -- helpers ------------------------------------------------------------------------------
def _edit(text: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert text.count(old) == 1, f"{old!r} must occur once"
        text = text.replace(old, new)
    return text


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _at(file: Path | str, text: str, needle: str, occurrence: int = 0) -> Location:
    return Location(str(file), *where(text, needle, occurrence))


def _failure(name: str | Path, players: int | None = None) -> JonggError:
    with pytest.raises(JonggError) as info:
        compile_variant(str(name), players)
    return info.value


def _one(diagnostics: list[Diagnostic], fragment: str) -> Diagnostic:
    """The only diagnostic whose message holds `fragment`."""
    found = [d for d in diagnostics if fragment in d.message]
    assert len(found) == 1, f"{fragment!r} in {[str(d) for d in diagnostics]}"
    return found[0]


def _resolved_yaml(out: str) -> dict[str, Any]:
    data = yaml.safe_load("\n".join(x for x in out.splitlines() if not x.startswith("#")))
    assert isinstance(data, dict)
    return data



DEAL = "deal: {each: 10, dealer: 11}"
SET_KIND = "{name: set, sizes: [3], runs: true}"
BEFORE_CLAIMS = "claims:\n"
PRIORITY = "priority: [mahjong, set]"
SCHEMA_MISTAKES = _edit(
    STANDALONE,
    (BEFORE_CLAIMS, "before_play: [{phase: dance}]\n" + BEFORE_CLAIMS),
    (DEAL, "deal: {each: 0, dealer: 11}"),
    (SET_KIND, SET_KIND[:-1] + ", steal: yes}"),
    (PRIORITY, PRIORITY + "\n  ties: sometimes"),
    ("win: {card: nymj}", "flavour: sweet\nwin: {card: nymj}"),
)
SCHEMA_EXPECTED = [  # needle, message
    ("dance", "before_play[0].phase: 'dance' is not one of"),
    ("0,", "deal.each: 0 is less than the minimum of 1"),
    ("steal", "claims.kinds[1]: unknown key 'steal'"),
    ("sometimes", "claims.ties: 'sometimes' is not one of"),
    ("flavour", "unknown key 'flavour'"),
]
SEMANTIC_MISTAKES = _edit(
    STANDALONE,
    (DEAL, "seats: {names: [East, South, West, North]}\ndeal: {each: 30}"),
    (BEFORE_CLAIMS, "before_play: [{phase: pass, to: across, count: 3}]\n" + BEFORE_CLAIMS),
    (PRIORITY, "priority: [mahjong, chow]"),
    ('amount: "1"', 'amount: "2 * selfdrawn"'),
    ("wall_game: []", 'wall_game:\n    - {payer: bank, to: each, amount: "1"}'),
    ('"rounds >= 8"', '"rounds >= * 8"'),
)
SEMANTIC_EXPECTED = [  # needle, message (check_variant: every player count)
    ("[East", "4 seat names for 3 players (with 3 players)"),
    ("{each: 30}", "the deal needs 91 tiles for 3 players but the deck 'nymj-75' holds 75 "
     "(with 3 players)"),
    ("{each: 30}", "the deal needs 121 tiles for 4 players but the deck 'nymj-75' holds 75 "
     "(with 4 players)"),
    ("{each: 30}", "the dealer is dealt 31 tiles, more than a complete hand"),
    ("{each: 30}", "every seat is dealt 30 tiles and draws one"),
    ("across", "'across' has no partner with 3 players (with 3 players)"),
    ("chow", "priority names no claim 'chow'"),
    ("[mahjong, chow]", "claim 'set' has no place in priority"),
    ("selfdrawn", "unknown fact 'selfdrawn'"),
    ("bank", "a zero-sum game cannot award points from the bank"),
    ("* 8", "a formula is numbers and facts"),
]
