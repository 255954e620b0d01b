"""The presentation model (jongg/present) on shipped variants: what a seat
is shown and asked, read as plain data, the way the terminal and a web table
both read it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from jongg.present.hand import grouped
from jongg.present.hints import MOST_LINES, danger, hints
from jongg.present.narrate import Narrator
from jongg.present.prompts import prompt
from jongg.present.seen import Seen
from jongg.present.styles import styles
from jongg.present.table import frame
from jongg.present.text import Text, plain
from jongg.runtime.game.events import EventKind
from jongg.runtime.game.state import Mode, State
from jongg.runtime.tiles import parse_tiles

from .rig import act, game, rigged


def said(texts: Iterable[Text]) -> list[str]:
    return [plain(t) for t in texts]


def test_tiles_wear_the_colours_players_know() -> None:
    style = styles(game("mjcg").spec.deck)
    assert {c: style[c].colour for c in ("1B", "1C", "1D")} == \
        {"1B": "green", "1C": "red", "1D": "blue"}
    # each dragon its own colour: the Green dragon is not a red Bam, Soap is white
    assert {c: style[c].colour for c in ("RD", "GD", "WD")} == \
        {"RD": "red", "GD": "green", "WD": "white"}
    assert len({style["N"].colour, style["F"].colour, style["J"].colour,
                style["1B"].colour, style["1C"].colour, style["1D"].colour}) == 6
    assert style["5B"].glyph == "\U0001F014" and style["J"].glyph == "\U0001F02A"
    assert style["RD"].family == "Dragons" and style["5C"].family == "Craks"


def test_a_deck_with_suits_of_no_known_colour_still_tells_them_apart() -> None:
    style = styles(game("nymj").spec.deck)  # NYMJ's suits: no Bams, Craks or Dots
    suits = {s.family: s.colour for s in style.values() if not s.bold}
    assert len(set(suits.values())) == len(suits)


def test_the_hand_is_grouped_by_suit_with_positions_through_the_whole_hand() -> None:
    deck = game("mjcg").spec.deck
    groups = grouped(deck, sorted(parse_tiles(deck, "1B 5B 2C 2D 9D RD N F J")))
    assert [g.family for g in groups] == ["Bams", "Craks", "Dots", "Dragons", "Winds",
                                          "Flowers", "Jokers"]
    assert [p for g in groups for p, _ in g.tiles] == list(range(1, 10))


def advance(state: State, until: Callable[[State], bool]) -> None:
    """Every seat takes its first legal action until `until` holds."""
    while not until(state):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def test_the_charleston_is_told_with_its_direction_and_the_tiles_received() -> None:
    state = game("mjcg").new_match(6, Mode.GUARDED)
    told = said(Narrator(state._rules, 0).tell(state.events_for(0)))
    assert "Charleston: pass 3 tiles right, to South" in told
    asked = prompt(Seen.of(state, 0))
    assert asked.kind == "pass" and asked.choose == 3
    assert asked.question.startswith("pass 3 tiles right, to South (choose 3")
    advance(state, lambda s: any(e.kind is EventKind.RECEIVED for e in s.events_for(0)))
    events = state.events_for(0)
    given = next(e for e in events if e.kind is EventKind.PASSED and e.seat == 0).tiles
    got = next(e for e in events if e.kind is EventKind.RECEIVED and e.seat == 0).tiles
    told = said(Narrator(state._rules, 0).tell(events))
    assert f"You pass {' '.join(given)} to South (right)" in told
    assert f"You receive {' '.join(got)} from North (left)" in told
    assert told[-1] == "Charleston: pass 3 tiles across, to West"


def test_counts_are_typed_as_themselves_and_say_what_they_do() -> None:
    state = game("mjcg").new_match(6, Mode.GUARDED)
    advance(state, lambda s: 0 in s.current_players() and s.step == "offering")
    asked = prompt(Seen.of(state, 0))
    assert asked.kind == "blind"  # the third pass of the first Charleston
    assert [o.key for o in asked.options] == ["0", "1", "2", "3"]
    none = asked.option("0")
    assert none is not None and none.action is not None and none.action.number == 0
    assert asked.question == "blind pass: how many of the tiles coming to you go on to " \
        "North unseen, 0-3?"


def test_siamese_claims_ask_the_size_once_naturals_first_then_the_rack() -> None:
    hands = {0: "1D 2D 3D 5D 6D 7D 9D GD WD F 3B 5B 7B 1C 2C 3C 4C 5C 6C 7C 8C 9C RD 4D 8D "
                "1B W",
             1: "8B 8B J J J J 2C 2C 2C N N N E E E E W W S S S S 4B 4B 6B 6B 1D 3D"}
    state = rigged(game("siamese", 2), hands, "8B")
    for seat in range(2):
        act(state, seat, "vote no")
    act(state, 0, "discard 8B")
    seen = Seen.of(state, 1)
    assert sum(a.verb == "claim" for a in seen.legal) > 12  # every joker mix, every rack
    asked = prompt(seen)
    assert [plain(o.says) for o in asked.options] == [
        "set (pung) [8B 8B 8B] on rack 1 or 2", "set (kong) [8B 8B 8B J] on rack 1 or 2",
        "set (quint) [8B 8B 8B J J] on rack 1 or 2",
        "set (sextet) [8B 8B 8B J J J] on rack 1 or 2", "pass"]
    then = asked.options[1].then
    assert then is not None and [o.key for o in then.options] == ["1", "2"]
    assert [a.number for a in (o.action for o in then.options) if a] == [0, 1]


def test_hints_suggest_a_discard_and_list_every_winning_tile() -> None:
    state = rigged(game("classic"), {0: "2B 3B 4B 5B 6B 7B 8B 1C 1C 1C 5D 5D 5D 9D"},
                   skip_phases=True)
    told = said(hints(Seen.of(state, 0)))
    assert told[0] == "four-sets-and-a-pair (no card value, exposed): 1 away; missing 8B " \
        "(3 live)"
    assert "suggested discard: 9D: keeps four-sets-and-a-pair 1 away" in "\n".join(told)
    assert told[-1] == "after 9D you wait on 2B (3 live), 5B (3 live), 8B (3 live)"


def test_hint_n_shows_n_lines_up_to_the_most() -> None:
    state = game("mjcg-card").new_match(3, Mode.GUARDED)
    while 0 not in state.current_players() or state.step == "passing":
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seen = Seen.of(state, 0)
    heads = [t for t in said(hints(seen, 10)) if "away" in t or "complete" in t]
    assert len([t for t in heads if not t.startswith(("suggested", "after"))]) == 10
    many = [t for t in said(hints(seen, 50)) if t.startswith(tuple(
        x.id + " " for x in seen.rules.lines))]
    assert len(many) == MOST_LINES


def test_a_discard_an_opponents_exposures_point_at_is_warned_about() -> None:
    state = rigged(game("mjcg-card"), {0: "1B 2B 3B 4C 8C 1D 8D 8D 9D WD WD S W J"},
                   exposures={1: ["N N N N", "E E E E"]}, skip_phases=True)
    seen = Seen.of(state, 0)
    warned = danger(seen, "S")
    assert warned is not None
    assert plain(warned) == "careful: South's exposures fit honor-1, which wants S"
    assert danger(seen, "1B") is None


def test_the_table_shows_the_last_discard_and_each_seat_from_where_you_sit() -> None:
    state = rigged(game("classic"), {0: "2B 3B 4B 5B 6B 7B 8B 1C 1C 1C 5D 5D 5D 9D",
                                     1: "9D 9D"}, skip_phases=True)
    act(state, 0, "discard 9D")  # South may claim it
    table = frame(Seen.of(state, 1))
    assert plain(table.last) == "last discard: 9D by East"
    heads = [plain(p.head) for p in table.seats]
    assert heads[0].startswith("West (right)") and heads[-1].startswith("South (you)")
