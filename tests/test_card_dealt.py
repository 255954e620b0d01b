"""The card report's dealt-complete rate against its exact value: on a
card of four-tile hands and a 20-tile deck (tests/cards/small*.yaml), how
often the dealer's dealt hand completes each line is a sum over every hand
the deck can deal, each weighted by its multivariate hypergeometric odds;
the report's figure, counted from the rounds it played, holds that value
in its 95% interval."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from jongg.cardlab.tally import CardSource, ReportSetup, table_game
from jongg.runtime.hand import Hand

from .conftest import TEST_CARDS, run_cli

SMALL = TEST_CARDS / "small.yaml"
VARIANT = TEST_CARDS / "small-variant.yaml"
ROUNDS = 600


def exact_dealt() -> tuple[dict[str, float], float]:
    """Each line's chance that the dealer's dealt hand completes it, and the
    chance it completes some line: every hand of the deck enumerated, its
    weight the product of C(copies, held) over C(tiles, hand size)."""
    game = table_game(ReportSetup(str(VARIANT), CardSource(str(SMALL), SMALL.read_text()), 3,
                                  ("expert",)))
    deck, card = game.spec.deck, game.matcher.card
    copies = [kind.copies for kind in deck.kinds]
    size = game.spec.deal + game.spec.dealer_extra  # the dealer's tiles
    assert size == card.hand_size == 4
    total = math.comb(sum(copies), size)
    per_line = {line.id: 0.0 for line in card.lines}
    some = 0.0
    for hand in itertools.combinations_with_replacement(range(len(copies)), size):
        held = [hand.count(k) for k in range(len(copies))]
        if any(h > c for h, c in zip(held, copies, strict=True)):
            continue
        odds = math.prod(math.comb(c, h) for c, h in zip(copies, held, strict=True)) / total
        done = {card.lines[i].id for i, score, _ in game.matcher.scores(Hand(hand, ()))
                if score == card.lines[i].size}
        for line in done:
            per_line[line] += odds
        some += odds if done else 0.0
    return per_line, some


def test_the_dealt_complete_rate_matches_its_exact_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    per_line, some = exact_dealt()
    # the card is built so the deal completes a line often enough to measure
    assert 0.15 < some < 0.25 and min(per_line.values()) > 0.01
    status, _, err = run_cli(capsys, "card", "report", str(SMALL), "--variant", str(VARIANT),
                             "--agents", "greedy", "--committed", "0", "--rounds",
                             str(ROUNDS), "--quiet", "-o", str(tmp_path / "r"))
    assert status == 0, err
    table = json.loads((tmp_path / "r" / "report.json").read_text())["tables"][0]
    assert table["rounds"] == ROUNDS
    low, high = table["dealt_rate_ci95"]
    assert low <= some <= high, (some, table["dealt_rate_ci95"])
    assert high - low < 0.08  # narrow enough that a miscount would fall outside
    for line in table["lines"]:
        low, high = line["dealt_rate_ci95"]
        assert low <= per_line[line["line"]] <= high, (line["line"], per_line, low, high)
        assert line["dealt_complete"] > 0
    # the page and lines.csv show it, labelled
    page = (tmp_path / "r" / "report.html").read_text()
    assert "dealt complete (95%)" in page and "as dealt (before any pass or draw)" in page
    head = (tmp_path / "r" / "lines.csv").read_text().splitlines()[0].split(",")
    assert {"dealt_complete", "dealt_rate", "dealt_rate_low", "dealt_rate_high"} <= set(head)
