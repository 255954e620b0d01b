"""What the web table's page is told in words (jongg/web/said.py), each a
defect the page's own narration and hints once had: every sentence now
comes from the presentation model, for the position now."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jongg.present.cardview import printed_hand
from jongg.present.hints import hints
from jongg.present.printed import card_year
from jongg.present.seen import Seen
from jongg.present.text import as_data, plain
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.state import State, Step
from jongg.web import protocol

from .rig import act, game, rigged
from .webrig import open_table, served


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


def test_a_claim_says_the_line_it_serves_or_that_it_serves_none() -> None:
    """mjcg-card: South may take East's 9D into a pung or a kong, with
    jokers or without. The kong brings odd-3 nearer and says so; a pung of
    the discard and two jokers brings no line nearer and is warned about."""
    state = rigged(game("mjcg-card"), {0: "1B 2B 3B 4C 8C 1D 8D 8D 9D WD WD S W J",
                                       1: "9D 9D J J 1B 2B 3C 4C 5C 6D 7D N E"},
                   skip_phases=True)
    act(state, 0, "discard 9D")
    m = protocol.update(state, 1, 0)
    by = {a["action"]: a for a in m["actions"]}
    served = spoken([by["claim set 9D 9D J"]["for"]])[0]
    assert served.startswith("kong of 9D for ") and "away, now " in served
    away, now = (int(x.split()[0]) for x in served.split(": ")[1].split(", now "))
    assert away < now
    assert "for" not in by["claim set J J"]
    assert "brings no line nearer" in spoken([by["claim set J J"]["warn"]])[0]
    assert spoken([by["pass"]["says"]]) == ["let it go (pass)"]
    # the nearest lines and what they miss, for the card on the page
    assert m["near"] and all(n["away"] == len(n["missing"]) for n in m["near"])


def test_the_card_is_sent_as_printed_with_its_notation_for_a_tooltip(tmp_path: Path) -> None:
    """The welcome's card: each line by section with its value and C or X,
    its hand in the suits' letters (drawn in the card's three colours), and
    the notation as written kept apart."""
    with served(tmp_path) as (client, hall):
        made = open_table(client, "mjcg-card", ["human", "greedy", "greedy", "greedy"])
        welcome = hall.tables[made["id"]].welcome(0)
    card = game("mjcg-card").matcher.card
    lines = welcome["card"]
    assert [x["id"] for x in lines] == [x.id for x in card.lines]
    assert [x["notation"] for x in lines] == [x.pattern for x in card.lines]
    assert {x["mark"] for x in lines} == {"C", "X"} and len({x["section"] for x in lines}) > 3
    suits = {s["suit"] for x in lines for s in x["hand"] if "suit" in s}
    assert suits == {"a", "b", "c"} and set(welcome["card_colours"]) >= suits
    # as `jongg card render` prints it: the card's year in place of {year}
    year = card_year(game("mjcg-card").spec.card)
    assert year is not None and all(
        "".join(s["text"] for s in x["hand"]) == plain(printed_hand(c, year)[0])
        for x, c in zip(lines, card.lines, strict=True))
    assert str(year) in "".join(s["text"] for s in lines[0]["hand"])


def test_hints_for_a_hand_holding_every_copy_of_a_tile_list_its_waits() -> None:
    """nymj has three of each tile: a hand holding all three G5 waits on
    other tiles, and its hints (sent with every update now) say so rather
    than asking the matcher about a fourth G5 (which stopped the update)."""
    state = rigged(game("nymj"), {1: "R5 R5 G5 G5 G5 S5 S5 E1"}, exposures={1: ["E4 E4 E4"]},
                   skip_phases=True, dealer=1)
    said = spoken(protocol.update(state, 1, 0)["hints"])
    assert said[-1] == "after E1 you wait on R5 (1 live), S5 (1 live)"


def test_a_seat_waiting_is_told_whose_turn_it_is_by_the_prompter() -> None:
    state = rigged(game("classic"), {}, skip_phases=True, dealer=0)
    asked = protocol.update(state, 1, 0)["prompt"]
    assert asked == {"kind": "wait", "question": "waiting for East to play", "about": [],
                     "choose": 0}
    assert protocol.update(state, 0, 0)["prompt"]["question"].startswith("your turn: discard")
