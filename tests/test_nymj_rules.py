"""Not Your Ma's Jong: the runtime proves the rulebook's clauses.

One or more tests per clause of docs/clauses.md (NYMJ-02 to NYMJ-24,
and the Open choices the nymj ruleset makes), each marked with the clause it
proves. Rounds are rigged with tests.rig: the named seats hold the named
cards and `draws` come off the pile first, in order. Seat 0 is Ma unless a
test says otherwise; play goes to the right, i.e. to the next seat number.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from jongg.compiler.errors import SemanticError
from jongg.compiler.game import load_game
from jongg.runtime.game.state import IllegalAction, Step
from jongg.runtime.tiles import parse_tiles
from tests.rig import act, game, rigged, texts

from .nymj_table import (
    BASE,
    DECK,
    FILLER,
    START,
    WAIT,
    answer,
    base,
    clause,
    discard_drawn,
    exposed,
    held,
    hidden_kept,
    hidden_resample,
    pass_all,
    win_round,
)

# -- NYMJ-02: players and tokens -------------------------------------------------


@clause("NYMJ-02")
@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_start_with_ten_tokens(players: int) -> None:
    """3 or 4 players may play, and each starts with 10 tokens."""
    g = game("nymj", players)
    state = g.new_match(0)
    assert g.spec.players == players == len(state._seats)
    assert state.scores == [START] * players


@clause("NYMJ-02")
def test_four_players_is_the_default() -> None:
    """Without a player count the game is set for four."""
    assert game("nymj").spec.players == 4


@clause("NYMJ-02")
@pytest.mark.parametrize("players", [2, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    """Two or five players cannot play: the game refuses the count, naming the range."""
    with pytest.raises(SemanticError, match="3 to 4 players"):
        load_game("nymj", players)


# -- NYMJ-03: the first Ma ---------------------------------------------------------


@clause("NYMJ-03")
@pytest.mark.parametrize("players", [3, 4])
def test_first_ma_is_the_first_seat(players: int) -> None:
    """By default the first seat holds the Ma card, whatever the seed, and acts first."""
    for seed in range(8):
        state = game("nymj", players).new_match(seed)
        assert state.dealer == 0
        assert state.current_players() == [0]
        assert held(state, 0) == 11


@clause("NYMJ-03")
def test_first_ma_may_be_drawn_at_random(tmp_path) -> None:
    """The option match.first_dealer: random picks the first Ma from the seed:
    every seat can get it, the same seed always gives the same Ma, and that
    Ma is dealt 11 and acts first."""
    path = tmp_path / "nymj-random.yaml"
    path.write_text("variant: nymj-random\nextends: nymj\nmatch: {first_dealer: random}\n")
    g = load_game(str(path))
    dealers = []
    for seed in range(40):
        state = g.new_match(seed)
        assert state.dealer == g.new_match(seed).dealer
        assert state.current_players() == [state.dealer]
        assert held(state, state.dealer) == 11
        dealers.append(state.dealer)
    assert set(dealers) == {0, 1, 2, 3}


# -- NYMJ-04: the deal ------------------------------------------------------------


@clause("NYMJ-04")
@pytest.mark.parametrize(("players", "pile"), [(4, 75 - 41), (3, 75 - 31)])
def test_ma_gets_eleven_others_ten_rest_is_the_pile(players: int, pile: int) -> None:
    """Ma is dealt 11 cards, every other player 10; the rest is the draw pile."""
    for seed in range(5):
        state = game("nymj", players).new_match(seed)
        assert [held(state, s) for s in range(players)] == [11] + [10] * (players - 1)
        assert len(state._wall) == pile
        cards = Counter(state._wall)
        for seat in state._seats:
            cards.update(seat.concealed())
        assert sum(cards.values()) == DECK and set(cards.values()) == {3}


@clause("NYMJ-04")
def test_later_rounds_deal_eleven_to_the_new_ma() -> None:
    """Every round is dealt afresh: the Ma of that round gets the 11 cards."""
    state = win_round(4, ma_wins=False, how="steal")
    assert state.round == 1 and state.dealer == 1
    assert [held(state, s) for s in range(4)] == [10, 11, 10, 10]
    assert len(state._wall) == 75 - 41


# -- NYMJ-05: hidden hands ---------------------------------------------------------


@clause("NYMJ-05")
def test_observation_does_not_depend_on_hidden_cards() -> None:
    """A player sees only their own hand: dealing the other hands and the
    pile anew (same sizes) leaves every observation unchanged, at every
    decision of random play (steals and draws included)."""
    state = base()
    rng = random.Random(5)
    changed, exposures = 0, 0
    for _ in range(80):
        exposures = max(exposures, sum(len(s.exposures) for s in state._seats))
        for seat in range(4):
            view = state.observation(seat)
            with hidden_kept(state):
                for _ in range(2):
                    changed += hidden_resample(state, seat, rng)
                    assert state.observation(seat) == view
        mover = state.current_players()[0]
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert changed > 100  # the resampling did move hidden cards
    assert exposures  # steals happened on the way


@clause("NYMJ-05")
def test_observation_shows_own_hand_and_only_counts_of_others() -> None:
    """A seat's own cards are in its observation, and any change to them
    shows; of the others it sees only how many cards they hold."""
    state = base()
    view = state.observation(1)
    assert sorted(view["hand"]) == sorted(BASE[1].split())
    assert [s["concealed"] for s in view["seats"]] == [11, 10, 10, 10]
    assert all("hand" not in s for s in view["seats"])
    r3, g2 = parse_tiles(state.spec.deck, "R3 G2")
    state._seats[1].counts[r3] -= 1  # a change to seat 1's own hand is seen
    state._seats[1].counts[g2] += 1
    assert state.observation(1) != view


# -- NYMJ-06: Ma opens by discarding -------------------------------------------------


@clause("NYMJ-06")
def test_ma_opens_by_discarding_without_drawing() -> None:
    """Ma starts the round by discarding one of the 11 cards: no card is
    drawn first, and only discards are offered."""
    state = base()
    assert state.step is Step.TURN and state.turn == 0
    assert len(state._wall) == 34 and held(state, 0) == 11
    assert "drawn" not in state.observation(0)
    assert texts(state, 0) and all(t.startswith("discard ") for t in texts(state, 0))
    act(state, 0, "discard R3")
    assert held(state, 0) == 10 and len(state._wall) == 34


@clause("NYMJ-06")
def test_every_discard_is_public_and_named() -> None:
    """The discarded card is named in every player's observation: as the
    latest discard while it may be stolen, and in the discarder's pile."""
    state = base()
    act(state, 0, "discard R3")
    for seat in range(4):
        view = state.observation(seat)
        assert view["discard"] == [0, "R3"]
        assert view["seats"][0]["discards"] == ["R3"]
    pass_all(state)
    discard_drawn(state)  # seat 1 draws B5 and discards it
    for seat in range(4):
        assert state.observation(seat)["seats"][1]["discards"] == ["B5"]


# -- NYMJ-07: play to the right ------------------------------------------------------


@clause("NYMJ-07")
def test_after_an_unclaimed_discard_the_next_seat_draws_then_discards() -> None:
    """Nobody can steal Ma's G1: the player to the right draws one card (the
    pile shrinks by one) and must discard; then the next player draws."""
    state = base()
    act(state, 0, "discard G1")
    assert state.step is Step.TURN and state.turn == 1
    assert len(state._wall) == 33 and held(state, 1) == 11
    assert state.observation(1)["drawn"] == "B5"
    options = texts(state, 1)
    assert "pass" not in options and all(t.startswith("discard ") for t in options)
    act(state, 1, "discard S3")
    pass_all(state)
    assert held(state, 1) == 10
    assert state.turn == 2 and len(state._wall) == 32 and held(state, 2) == 11


@clause("NYMJ-07")
@pytest.mark.parametrize("players", [3, 4])
def test_turns_go_round_to_the_right(players: int) -> None:
    """Without steals the turns follow the seats in order and wrap round to Ma."""
    state = game("nymj", players).new_match(3)
    turns = []
    for _ in range(2 * players):
        turns.append(state.turn)
        discard_drawn(state)
    assert turns == [s % players for s in range(2 * players)]


# -- NYMJ-12: anyone may steal the latest discard -----------------------------------


@clause("NYMJ-12")
def test_several_players_are_asked_at_once() -> None:
    """When a card is discarded every player who could steal it is asked at
    once, before the next player draws."""
    state = base()
    act(state, 0, "discard R3")
    assert state.step is Step.CLAIMS
    assert sorted(state.current_players()) == [1, 2, 3]
    assert len(state._wall) == 34  # nobody has drawn yet
    assert texts(state, 1) == ["pass", "claim set R3 R3"]
    assert texts(state, 2) == ["pass", "claim set R2 R4"]
    assert texts(state, 3) == ["pass", "claim set R4 R5"]


@clause("NYMJ-12")
def test_only_the_latest_discard_may_be_stolen() -> None:
    """Once R3 is let go and another card discarded, R3 cannot be stolen any
    more: only the new card is offered, and seats that wanted R3 are not asked."""
    state = base()
    act(state, 0, "discard R3")
    pass_all(state)
    act(state, 1, "discard B5")
    assert state.current_players() == [2]
    assert texts(state, 2) == ["pass", "claim set B5 B5"]
    with pytest.raises(IllegalAction):
        act(state, 2, "claim set R2 R4")
    with pytest.raises(IllegalAction):
        act(state, 3, "claim set R4 R5")


# -- NYMJ-13: what a steal must do ---------------------------------------------------


@clause("NYMJ-13")
def test_a_seat_holding_nothing_useful_is_not_asked() -> None:
    """G1 completes no set for anyone: in guarded mode nobody is asked and
    the next player draws at once."""
    state = base()
    act(state, 0, "discard G1")
    assert state.step is Step.TURN and state.turn == 1
    assert state.current_players() == [1]


@clause("NYMJ-13")
def test_seasons_make_no_runs_and_a_single_card_makes_no_set() -> None:
    """Seat 3 holds S1 S2 S3 S4 S5: Ma's S1 would give it a pair, or a run
    in the unnumbered Seasons, neither of which is a set: nobody is asked."""
    state = base()
    act(state, 0, "discard S1")
    assert state.step is Step.TURN and state.turn == 1


@clause("NYMJ-13")
def test_a_steal_completes_an_identical_or_a_sequential_set() -> None:
    """A pair steals the third card; two cards of a suit steal the one that
    makes a run; cards that would not make a run with it are not offered."""
    state = base({2: "R1 R5 B5 B5 S5 S5 E4 E4 E5 E5"})
    act(state, 0, "discard R3")
    assert sorted(state.current_players()) == [1, 3]  # seat 2's R1 R5 is no run
    assert texts(state, 1) == ["pass", "claim set R3 R3"]
    assert texts(state, 3) == ["pass", "claim set R4 R5"]
    with pytest.raises(IllegalAction):
        act(state, 1, "claim set R3 R3 R3")


@clause("NYMJ-13")
def test_a_steal_may_be_the_last_card_to_win() -> None:
    """A lone card may not steal its pair, unless that pair wins the hand:
    then the steal for Mah Jongg is offered (and no set steal)."""
    wins = rigged(game("nymj"), {0: f"R5 {FILLER}", 1: WAIT})
    act(wins, 0, "discard R5")
    assert wins.current_players() == [1]
    assert texts(wins, 1) == ["pass", "claim mahjong"]
    alone = rigged(game("nymj"), {0: f"R5 {FILLER}", 1: "R5 B1 B3 B5 G1 G3 G5 E3 E4 E5"})
    act(alone, 0, "discard R5")
    assert not any(t.startswith("claim") for t in texts(alone, 1))


# -- NYMJ-14: the stolen set is exposed and locked --------------------------------


@clause("NYMJ-14")
def test_a_stolen_set_is_face_up_and_locked() -> None:
    """Seat 2 steals R3 with R2 R4: the run is laid face up (every player sees
    it), leaves the hand and Ma's discards, and never changes for the rest of
    the round; its cards cannot be discarded."""
    state = base()
    act(state, 0, "discard R3")
    answer(state, {2: "claim set R2 R4"})
    assert state._seats[0].discards == []
    for viewer in range(4):
        assert exposed(state, viewer, 2) == [["R2", "R3", "R4"]]
    kept = Counter(BASE[2].split()) - Counter(["R2", "R4"])
    assert Counter(state.observation(2)["hand"]) == kept
    for card in ("R2", "R3", "R4"):
        assert f"discard {card}" not in texts(state, 2)
        with pytest.raises(IllegalAction):
            act(state, 2, f"discard {card}")
    act(state, 2, "discard E4")
    pass_all(state)
    while state.round == 0:
        for viewer in range(4):
            assert exposed(state, viewer, 2) == [["R2", "R3", "R4"]]
        discard_drawn(state)
    assert state.results[0].winner is None  # the round ran to its end
