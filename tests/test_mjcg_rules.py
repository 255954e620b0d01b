"""The Mah Jongg Card Game: the runtime proves the rulebook's clauses of play.

One or more tests per clause of docs/clauses.md that concerns play
(MJCG-02, 03, 09, 10, 13 to 21, 23 to 26, 36 to 38), each marked with the
clause it proves, and the variants mjcg-card and mjcg-advanced at every player
count. The Charleston (MJCG-04..08) is tested in tests/test_passes.py with four
players; here it is only driven at three, five and six.

Rounds are rigged with tests.rig: the named seats hold the named cards and
`draws` come off the pile first, in order. Unless a test says otherwise the
Charleston is skipped (`start`): the rigged hands are the hands in play, and
East (the dealer, seat 0 unless a test says otherwise) is to open. Play goes
to the right, i.e. to the next seat number.
"""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.runtime.game.invariants import violations
from jongg.runtime.game.state import IllegalAction, Mode, State, Step

from .mjcg_table import (
    DECK,
    JUNK_C,
    JUNK_D,
    START,
    WAIT_5B,
    WAIT_5B_JOKER,
    clause,
    discard_drawn,
    exposed,
    hand_of,
    held,
    let_go,
    padded,
    start,
    table,
)
from .rig import act, game, texts

# -- MJCG-02, MJCG-03: the deal and the points ----------------------------------------


@clause("MJCG-02", "MJCG-38")
@pytest.mark.parametrize(("players", "each"), [(3, 13), (4, 13), (5, 13), (6, 10)])
def test_east_deals_13_to_each_14_to_herself_the_rest_is_the_pile(players: int,
                                                                  each: int) -> None:
    """East (the dealer, the first seat) deals 13 cards to each player and 14
    to herself (10 and 11 with six players); the rest of the 152 is the draw
    pile: 152 - 53 = 99 with four players."""
    for seed in range(3):
        state = game("mjcg", players).new_match(seed)
        assert state.dealer == 0 and state.spec.seats[0] == "East"
        assert [held(state, s) for s in range(players)] == [each + 1] + [each] * (players - 1)
        assert len(state._wall) == DECK - each * players - 1
        cards = Counter(state._wall)
        for seat in state._seats:
            cards.update(seat.concealed())
        assert sum(cards.values()) == DECK
        assert all(cards[k.index] == k.copies for k in state.spec.deck.kinds)
    if players == 4:
        assert len(game("mjcg", 4).new_match(0)._wall) == 99


@clause("MJCG-03")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_player_starts_with_650_points(players: int) -> None:
    """Each player starts with 650 points, and the score is kept per player:
    every seat sees every score."""
    state = game("mjcg", players).new_match(0)
    assert state.scores == [START] * players
    assert all(state.observation(s)["scores"] == [START] * players for s in range(players))


# -- MJCG-09: East opens, play goes right ----------------------------------------


@clause("MJCG-09")
def test_east_opens_by_discarding_without_drawing() -> None:
    """East starts play by discarding one of her 14 cards: she draws nothing
    first, and only discards are offered."""
    state = start(table())
    assert state.step is Step.TURN and state.turn == 0 == state.dealer
    assert held(state, 0) == 14 and len(state._wall) == 99
    assert "drawn" not in state.observation(0)
    assert texts(state, 0) and all(t.startswith("discard ") for t in texts(state, 0))
    act(state, 0, "discard 9B")
    assert held(state, 0) == 13 and state._seats[0].discards == [state.spec.deck.kind("9B").index]


@clause("MJCG-09", "MJCG-36", "MJCG-37", "MJCG-38")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("dealer", [0, 2])
def test_turns_go_to_the_right_each_drawing_the_top_card(players: int, dealer: int) -> None:
    """After East's opening discard, the player to the right draws the top
    card of the pile and discards; then the next, wrapping round to East."""
    g = game("mjcg", players)
    state = start({}, players=players, dealer=dealer)  # hands dealt at random
    turns = [state.turn]
    for _ in range(2 * players):
        top, pile = state._wall[-1], len(state._wall)
        discard_drawn(state)  # the seat to play discards; the next one draws
        assert state.step is Step.TURN and state._drawn == top and len(state._wall) == pile - 1
        assert held(state, state.turn) == g.spec.deal + 1
        turns.append(state.turn)
    assert turns == [(dealer + i) % players for i in range(2 * players + 1)]


# -- MJCG-10, MJCG-13, MJCG-14: calling the latest discard -----------------------------


@clause("MJCG-10")
def test_only_the_latest_discard_can_be_called() -> None:
    """South could call East's 5B for a kong while it is the latest discard;
    once it is let go and another card discarded, the 5B cannot be called any
    more: it stays in East's discards and South is not even asked."""
    state = start(table({1: padded("5B 5B J")}, opens="5B"), draws="9C")
    act(state, 0, "discard 5B")
    assert state.current_players() == [1] and "claim kong 5B 5B J" in texts(state, 1)
    assert state.observation(2)["discard"] == [0, "5B"]
    let_go(state)
    assert state.turn == 1
    act(state, 1, "discard 9C")  # nobody can use it: West draws at once
    assert state.step is Step.TURN and state.turn == 2
    act(state, 2, f"discard {state.observation(2)['drawn']}")
    assert 1 not in state.current_players()
    with pytest.raises(IllegalAction):
        act(state, 1, "claim kong 5B 5B J")
    assert state.observation(1)["seats"][0]["discards"] == ["5B"]
    assert state._seats[1].exposures == []


@clause("MJCG-13")
@pytest.mark.parametrize("mine", ["5B 5B 5B", "5B 5B J", "5B J J"])
def test_a_discard_that_completes_a_kong_is_called_and_exposed(mine: str) -> None:
    """A discard that completes a set of four (with jokers from the hand if
    need be) may be called: the caller takes it and lays the whole set face
    up, for everyone to see; she draws nothing."""
    state = start(table({2: padded(mine)}, opens="5B"))
    act(state, 0, "discard 5B")
    assert state.current_players() == [2]
    call = f"claim kong {mine}"
    assert texts(state, 2)[0] == "pass" and call in texts(state, 2)
    let_go(state, {2: call})
    kong = sorted(["5B", *mine.split()])
    assert all(exposed(state, 2, viewer) == [kong] for viewer in range(4))
    assert sum(state._seats[2].counts) == 10 and held(state, 2) == 14
    assert hand_of(state, 2)["5B"] == 0 and hand_of(state, 2)["J"] == 0
    assert state.step is Step.TURN and state.turn == 2 and len(state._wall) == 99
    assert state._seats[0].discards == []  # the called card left the discard pile


@clause("MJCG-13")
@pytest.mark.parametrize("mode", [Mode.GUARDED, Mode.STRICT])
def test_no_call_for_three_of_a_kind_in_the_beginner_game(mode: Mode) -> None:
    """The beginner's sets are of four: two 5B and no joker cannot call a 5B
    (no pung is offered: in strict mode only the mistakes, with no cards)."""
    state = start(table({1: padded("5B 5B")}, opens="5B"), mode=mode)
    act(state, 0, "discard 5B")
    if mode is Mode.GUARDED:
        assert state.step is Step.TURN and state.turn == 1  # nobody was asked
    else:
        assert texts(state, 1) == ["pass", "claim mahjong", "claim kong"]
    with pytest.raises(IllegalAction):
        act(state, 1, "claim kong 5B 5B")


@clause("MJCG-14")
@pytest.mark.parametrize("mode", [Mode.GUARDED, Mode.STRICT])
def test_no_call_for_a_pair(mode: Mode) -> None:
    """A single 5B in hand: the discarded 5B would make a pair, which may not
    be called when it does not complete Mah Jongg; nobody is asked (strict
    mode asks everyone, but offers only the mistakes, with no cards)."""
    state = start(table({1: padded("5B")}, opens="5B"), mode=mode)
    act(state, 0, "discard 5B")
    if mode is Mode.STRICT:
        assert texts(state, 1) == ["pass", "claim mahjong", "claim kong"]
        with pytest.raises(IllegalAction):
            act(state, 1, "claim kong 5B")
        let_go(state)
    assert state.step is Step.TURN and state.turn == 1 and len(state._wall) == 98
    assert state.observation(1)["seats"][0]["discards"] == ["5B"]
    assert hand_of(state, 1)["5B"] == 1 and state._seats[1].exposures == []


@clause("MJCG-14", "MJCG-21")
def test_a_pair_may_be_called_to_go_mah_jongg() -> None:
    """Three kongs and a lone 5B: the discarded 5B completes the pair and
    Mah Jongg, so it may be called (for Mah Jongg only), and it wins."""
    state = start(table({1: WAIT_5B}, opens="5B"))
    act(state, 0, "discard 5B")
    assert state.current_players() == [1] and texts(state, 1) == ["pass", "claim mahjong"]
    act(state, 1, "claim mahjong")
    end = state.results[0]
    assert (end.winner, end.discarder, end.self_drawn) == (1, 0, False)


# -- MJCG-15: several calls -------------------------------------------------------------


@clause("MJCG-15")
def test_a_call_for_mah_jongg_beats_a_call_for_a_kong() -> None:
    """South (next in turn) calls East's 5B for a kong, North for Mah Jongg:
    North gets it and wins."""
    state = start(table({1: padded("5B 5B J"), 3: WAIT_5B_JOKER}, opens="5B"))
    act(state, 0, "discard 5B")
    assert state.current_players() == [1, 3]
    let_go(state, {1: "claim kong 5B 5B J", 3: "claim mahjong"})
    end = state.results[0]
    assert (end.winner, end.discarder) == (3, 0)


@clause("MJCG-15")
@pytest.mark.parametrize(("dealer", "gets"), [(0, 1), (2, 3)])
def test_between_kong_calls_the_caller_next_in_turn_gets_it(dealer: int, gets: int) -> None:
    """South and North both call the 5B for a kong: the one whose turn comes
    next after the discarder takes it (South after East, North after West)."""
    calls = {1: "5B J J", 3: "5B 5B J"}
    state = start(table({s: padded(t) for s, t in calls.items()}, dealer=dealer, opens="5B"),
                  dealer=dealer)
    act(state, dealer, "discard 5B")
    assert state.current_players() == [(dealer + 1) % 4, (dealer + 3) % 4]
    let_go(state, {s: f"claim kong {t}" for s, t in calls.items()})
    assert state.turn == gets and state.step is Step.TURN
    assert exposed(state, gets) == [sorted(["5B", *calls[gets].split()])]
    other = 4 - gets
    assert state._seats[other].exposures == [] and hand_of(state, other)["5B"] >= 1


@clause("MJCG-15")
@pytest.mark.parametrize(("dealer", "gets"), [(0, 1), (2, 3)])
def test_between_mah_jongg_calls_the_caller_next_in_turn_wins(dealer: int, gets: int) -> None:
    """Two players call the same discard for Mah Jongg: the one next in turn
    after the discarder wins (the ruleset's documented default)."""
    waits = {1: WAIT_5B, 3: "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 5B"}
    hands = table(waits, dealer=dealer, opens="5B")
    hands[dealer] = f"{JUNK_C} 5B"
    state = start(hands, dealer=dealer)
    act(state, dealer, "discard 5B")
    let_go(state, {1: "claim mahjong", 3: "claim mahjong"})
    assert state.results[0].winner == gets and state.results[0].discarder == dealer


@clause("MJCG-15")
def test_a_kong_call_that_completes_the_hand_beats_an_earlier_kong_call() -> None:
    """North calls the 3B for a kong that completes her hand; South, next in
    turn, calls it for a kong only: the caller going Mah Jongg has priority."""
    state = start(table({1: padded("3B J J"), 3: "1B 1B 1B 1B 2B 2B 2B 2B 3B J J 5B 5B"},
                        opens="3B"))
    act(state, 0, "discard 3B")
    assert state.current_players() == [1, 3]
    let_go(state, {1: "claim kong 3B J J", 3: "claim kong 3B J J"})
    end = state.results[0]
    assert (end.winner, end.discarder, end.self_drawn) == (3, 0, False)


# -- MJCG-16, MJCG-17: what a call may not do, and what follows it ---------------------


@clause("MJCG-16")
@pytest.mark.parametrize(("variant", "players", "meld"), [
    ("mjcg", 4, "5B 5B 5B J"),  # a kong: a fifth card would be a quint
    ("mjcg", 6, "5B 5B 5B"),  # six players call pungs: the fourth would make a kong
    ("mjcg-advanced", 4, "5B 5B 5B"),  # advanced calls any set size
])
@pytest.mark.parametrize("mode", [Mode.GUARDED, Mode.STRICT])
def test_a_discard_cannot_be_called_to_add_to_an_earlier_exposure(
        variant: str, players: int, meld: str, mode: Mode) -> None:
    """South has an exposed set of 5B; East discards the last 5B: South may
    not call it to add to her exposure (guarded: she is not asked; strict:
    only the mistakes are offered, with no cards); her set stays as it was."""
    size = game(variant, players).spec.deal
    hands = {0: " ".join([*JUNK_D.split()[:size], "5B"]),
             1: padded("", size - len(meld.split()))}
    state = start(hands, variant=variant, players=players, mode=mode, exposures={1: [meld]})
    act(state, 0, "discard 5B")
    if mode is Mode.GUARDED:  # South is not asked (others may be)
        assert state.step is not Step.CLAIMS or 1 not in state.current_players()
    else:
        assert 1 in state.current_players() and "pass" in texts(state, 1)
        assert all(len(t.split()) == 2 for t in texts(state, 1) if t.startswith("claim"))
    let_go(state)
    assert exposed(state, 1) == [sorted(meld.split())]
    assert state.turn == 1 and state.step is Step.TURN and held(state, 1) == size + 1


@clause("MJCG-17")
def test_after_calling_the_caller_discards_and_play_passes_to_her_right() -> None:
    """North calls East's 5B: she holds 14 and must discard (she draws
    nothing); then play passes to her right, East, who draws: South and West
    miss their turns."""
    state = start(table({3: padded("5B 5B J")}, opens="5B"))
    act(state, 0, "discard 5B")
    let_go(state, {3: "claim kong 5B 5B J"})
    assert state.turn == 3 and held(state, 3) == 14 and len(state._wall) == 99
    assert "drawn" not in state.observation(3)
    options = texts(state, 3)
    assert options and all(t.startswith("discard ") for t in options)
    act(state, 3, "discard 9C")
    let_go(state)
    assert held(state, 3) == 13 and sum(state._seats[3].counts) == 9
    assert state.step is Step.TURN and state.turn == 0 and len(state._wall) == 98
    assert held(state, 0) == 14 and "drawn" in state.observation(0)
    for missed in (1, 2):
        assert held(state, missed) == 13 and state._seats[missed].discards == []


# -- MJCG-18, MJCG-19, MJCG-20: jokers ----------------------------------------------------


def exchanges(state: State, seat: int) -> list[str]:
    return [t for t in texts(state, seat) if t.startswith("exchange ")]


@clause("MJCG-18")
def test_an_exposed_joker_is_exchanged_for_the_card_it_stands_for() -> None:
    """On her turn South may give a natural card for an exposed joker that
    stands for it, in anyone's exposure (West's, and her own): the joker
    comes to her hand, the exposure shows the natural. A card the joker does
    not stand for buys nothing, and nobody may exchange out of turn."""
    state = start(table({1: padded("5B 7B", 9), 2: padded("", 5)}), draws="9D",
                  exposures={1: ["7B 7B 7B J"], 2: ["6B 6B 6B J", "5B 5B 5B J"]})
    digest = state.digest()
    with pytest.raises(IllegalAction):  # East's turn, not South's
        act(state, 1, "exchange 5B 2:1")
    assert state.digest() == digest
    discard_drawn(state)  # East opens; South draws 9D
    assert state.turn == 1
    assert exchanges(state, 1) == ["exchange 7B 1:0", "exchange 5B 2:1"]
    with pytest.raises(IllegalAction):  # the joker of 2:0 stands for 6B
        act(state, 1, "exchange 5B 2:0")
    act(state, 1, "exchange 5B 2:1")
    assert hand_of(state, 1)["J"] == 1 and hand_of(state, 1)["5B"] == 0
    assert all(exposed(state, 2, viewer)[1] == ["5B"] * 4 for viewer in (0, 1, 3))
    assert exposed(state, 2)[0] == ["6B", "6B", "6B", "J"]
    assert (held(state, 1), held(state, 2)) == (14, 13)
    assert exchanges(state, 1) == ["exchange 7B 1:0"]
    act(state, 1, "exchange 7B 1:0")
    assert hand_of(state, 1)["J"] == 2 and exposed(state, 1) == [["7B"] * 4]
    assert state.step is Step.TURN and state.turn == 1 and exchanges(state, 1) == []
    assert violations(state) == []


@clause("MJCG-19", "MJCG-20")
def test_a_card_just_drawn_is_exchanged_at_once_and_the_turn_goes_on() -> None:
    """South draws the 5B that West's exposed joker stands for: she exchanges
    it at once and goes on with her turn, discarding (here the joker, which
    nobody may call); then West draws."""
    state = start(table({1: JUNK_C, 2: padded("", 9)}), draws="5B 9D",
                  exposures={2: ["5B 5B J J"]})
    discard_drawn(state)
    assert state.turn == 1 and state.observation(1)["drawn"] == "5B"
    assert exchanges(state, 1) == ["exchange 5B 2:0"]
    act(state, 1, "exchange 5B 2:0")
    assert state.step is Step.TURN and state.turn == 1 and held(state, 1) == 14
    assert exposed(state, 2) == [["5B", "5B", "5B", "J"]] and hand_of(state, 1)["J"] == 1
    assert "discard J" in texts(state, 1)
    act(state, 1, "discard J")
    assert state.step is Step.TURN and state.turn == 2
    assert state.observation(2)["drawn"] == "9D" and held(state, 1) == 13


@clause("MJCG-20")
@pytest.mark.parametrize("mode", [Mode.GUARDED, Mode.STRICT])
def test_a_discarded_joker_cannot_be_called(mode: Mode) -> None:
    """East may discard a joker, but nobody may call it, not even South,
    whose 5B 5B 5B it would make a kong, nor North, whose hand it would
    complete: nobody is asked (in strict mode either) and South draws."""
    state = start(table({1: padded("5B 5B 5B"),
                         3: "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 5C 5C"}, opens="J"), mode=mode)
    assert "discard J" in texts(state, 0)
    act(state, 0, "discard J")
    assert state.step is Step.TURN and state.turn == 1 and len(state._wall) == 98
    assert state.observation(1)["seats"][0]["discards"] == ["J"]
    for seat, call in {1: "claim kong 5B 5B 5B", 3: "claim mahjong"}.items():
        with pytest.raises(IllegalAction):
            act(state, seat, call)
