"""What the web table's page is told in words (jongg/web/said.py), each a
defect the page's own narration and hints once had: every sentence now
comes from the presentation model, for the position now."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jongg.present.hints import hints
from jongg.present.seen import Seen
from jongg.present.text import as_data
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.state import State, Step
from jongg.web import protocol

from .rig import act, game, rigged


def spoken(said: list[list[dict[str, str]]]) -> list[str]:
    return ["".join(span["text"] for span in spans) for spans in said]


def play(state: State, choose: Callable[[State, int, list[Action]], Action],
         until: Callable[[State], bool]) -> None:
    while not until(state):
        seat = state.current_players()[0]
        state.apply(seat, choose(state, seat, state.legal_actions(seat)))


def test_a_courtesy_pass_the_partner_offers_nothing_to_is_told_without_undefined_tiles(
        ) -> None:
    """mjcg: the vote stops a second Charleston, West offers 0 in the
    courtesy pass: East is told the outcome, never 'You pass undefined
    tiles to West'."""
    state = game("mjcg").new_match(3)

    def choose(s: State, seat: int, legal: list[Action]) -> Action:
        if s.step is Step.VOTING:
            return next(a for a in legal if a.number == 0)
        if s.step is Step.OFFERING:  # East offers 3, West none: nothing changes hands
            return max(legal, key=lambda a: a.number) if seat == 0 else \
                min(legal, key=lambda a: a.number)
        return legal[0]

    play(state, choose, lambda s: any(e.kind is EventKind.PLAY for e in s.events))
    told = spoken(protocol.update(state, 0, 0)["story"])
    assert "Courtesy pass: you offer 3, West offers 0: no tiles change hands" in told
    assert not any("undefined" in t or t.startswith("You pass  ") for t in told)
    assert "Charleston: pass 3 tiles across, to West" in told  # not "3 to the across"


def test_a_claim_outranked_is_told_with_the_claim_that_won() -> None:
    """classic: South and West both want East's 5D; West's Mah Jongg outranks
    South's pung, and South is told which claim won (not 'loses to your.')."""
    state = rigged(game("classic"), {0: "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5D",
                                     1: "5D 5D 1D 2D 3D 7C 8C 9C",
                                     2: "5D 1C 1C 1C 2D 3D 4D 7D 8D 9D 2B 3B 4B"},
                   skip_phases=True)
    act(state, 0, "discard 5D")
    assert [a.text(state.spec.deck) for a in state.legal_actions(1)][-1] == "claim pung 5D 5D"
    since = len(state.events)
    act(state, 1, "claim pung 5D 5D")
    act(state, 2, "claim mahjong")
    told = spoken(protocol.update(state, 1, since)["story"])
    assert "Your pung claim loses to West's mahjong claim (it ranks higher, or sits nearer " \
        "in turn)" in told


def test_the_tile_drawn_is_one_copy_of_the_hand() -> None:
    """South holds 5D and draws another: the page is told which copy is the
    one drawn (`drawn_at`), so it marks that one and not both."""
    state = rigged(game("classic"), {0: "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 9D",
                                     1: "5D 1D 2D 7C 8C"}, draws="5D", skip_phases=True)
    act(state, 0, "discard 9D")
    play(state, lambda s, seat, legal: next(a for a in legal if a.verb == "pass"),
         lambda s: s.step is Step.TURN)
    view = protocol.update(state, 1, 0)["view"]
    assert view["drawn"] == "5D" and view["hand"].count("5D") == 2
    assert view["hand"][view["drawn_at"]] == "5D"


def hints_of(variant: str, seed: int, players: int | None = None) -> tuple[State, Any]:
    """The first update of a seat deciding on its turn, with its hints."""
    state = game(variant, players).new_match(seed) if players else game(variant).new_match(seed)
    play(state, lambda s, seat, legal: legal[0],
         lambda s: s.step is Step.TURN and "drawn" in s.observation(s.turn))
    return state, protocol.update(state, state.turn, 0)


def test_siamese_hints_list_each_line_once_for_the_racks_sharing_one_pool() -> None:
    state, m = hints_of("siamese", 2)
    said = spoken(m["hints"])
    assert any("shares your one pool" in t for t in said)
    racks = [t for t in said if t.startswith("rack ")]
    assert len(racks) == state.spec.racks and len(set(racks)) == len(racks)


def test_nymj_hints_say_its_lines_have_no_card_value() -> None:
    _, m = hints_of("nymj", 1)
    said = spoken(m["hints"])
    assert said and not any("value 0" in t for t in said)
    assert any("no card value" in t for t in said)


def test_hints_come_with_the_update_for_the_position_now() -> None:
    """Each update of a seat deciding carries its hints for that very
    position (a page asking after an update was a move behind)."""
    state, m = hints_of("mjcg-card", 3)
    seat = state.turn
    assert m["hints"] == [as_data(t) for t in hints(Seen.of(state, seat))] != []
    assert any(t.startswith("suggested discard: ") for t in spoken(m["hints"]))
    act(state, seat, m["legal"][0])
    assert protocol.update(state, seat, 0)["hints"] == []  # waiting: nothing to hint
