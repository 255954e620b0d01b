"""`jongg match --explain` (and the API's Card.explain): how the tiles fill a
line, in the legend's own marks, exposures' jokers included."""

from __future__ import annotations

import json

import pytest

from jongg.present.filling import LEGEND

from .conftest import run_cli

LINE = "three-kongs-and-a-pair"
HAND = ["--card", "mjcg-beginner", "--hand", "1B 1B 5D 5D J", "--exposed", "4D 4D 4D J",
        "--exposed", "2C J J 2C", "--explain", "--top", "1"]
FILLED = "4D^ 4D^ 4D^ J=4D^ | 2C^ 2C^ J=2C^ J=2C^ | 1B 1B J=1B (1B?) | 5D 5D"


@pytest.mark.parametrize("engine", [[], ["--reference"]])
def test_explain_shows_an_exposures_jokers_as_the_legend_promises(
        capsys: pytest.CaptureFixture[str], engine: list[str]) -> None:
    status, out, _ = run_cli(capsys, "match", *HAND, *engine)
    assert status == 0
    assert f"explain ({LEGEND}):" in out and "J=x: a joker stands for x; x^: exposed" in LEGEND
    assert f"  {LINE}: {FILLED}" in out.splitlines()


def test_explain_as_json_names_the_joker_in_an_exposed_slot(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "match", *HAND, "--json")
    assert status == 0
    (near,) = json.loads(out)["nearest"]
    exposed = [[(s["tile"], s["exposed"]) for s in group] for group in near["fill"][:2]]
    assert exposed == [[("4D", True)] * 3 + [("J", True)],
                       [("2C", True)] * 2 + [("J", True)] * 2]


def test_the_api_explains_an_exposure_as_the_command_does() -> None:
    import jongg

    card = jongg.load_card("mjcg-beginner")
    hand = card.hand("1B 1B 5D 5D J", exposed=["4D 4D 4D J", "2C J J 2C"])
    assert card.explain(hand, LINE) == FILLED
