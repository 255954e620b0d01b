"""Not Your Ma's Jong, from a steal on (NYMJ-15 to NYMJ-24): the runtime proves the
rulebook's clauses, as tests/test_nymj_rules.py does for the deal and the steal."""

from __future__ import annotations

import pytest

from jongg.runtime.agents.play import play_match
from jongg.runtime.game.state import IllegalAction, Mode, State, Step
from jongg.runtime.tiles import parse_tiles
from tests.rig import act, game, rigged, texts

from .nymj_table import (
    ALSO_WINS_ON_R3,
    BASE,
    FILLER,
    ROUNDS,
    SET_WAIT,
    START,
    WAIT,
    WINS_ON_R3,
    answer,
    base,
    clause,
    discard_drawn,
    exposed,
    held,
    pass_all,
    play_walls,
    scores_by_round,
    win_round,
)

# -- NYMJ-15: after a steal ----------------------------------------------------------


@clause("NYMJ-15")
def test_after_a_steal_the_stealer_discards_and_play_skips_ahead() -> None:
    """Seat 2 steals Ma's card: it draws nothing, discards back to 10, and
    play goes on to its right (seat 3): seat 1 is skipped."""
    state = base()
    act(state, 0, "discard R3")
    answer(state, {2: "claim set R2 R4"})
    assert state.step is Step.TURN and state.turn == 2
    assert len(state._wall) == 34 and held(state, 2) == 11
    assert "drawn" not in state.observation(2)
    assert all(t.startswith("discard ") for t in texts(state, 2))
    act(state, 2, "discard E4")
    assert held(state, 2) == 10
    assert state.step is Step.TURN and state.turn == 3
    assert len(state._wall) == 33 and held(state, 1) == 10


# -- NYMJ-16: competing steals -------------------------------------------------------


@clause("NYMJ-16")
def test_the_steal_that_wins_beats_a_nearer_set_steal() -> None:
    """Seat 1 steals R3 for a set, seat 3 to win: seat 3 gets the card and
    the round ends with its win."""
    state = base({3: WINS_ON_R3})
    act(state, 0, "discard R3")
    answer(state, {1: "claim set R3 R3", 3: "claim mahjong"})
    end = state.results[0]
    assert (end.winner, end.discarder, end.self_drawn) == (3, 0, False)


@clause("NYMJ-16")
@pytest.mark.parametrize("order", [[1, 2, 3], [3, 2, 1]])
def test_equal_steals_go_to_the_nearest_after_the_discarder(order: list[int]) -> None:
    """Three set steals: the first after the discarder gets the card, however
    the answers came in (Open: 'first to call' is the nearest in turn)."""
    state = base()
    act(state, 0, "discard R3")
    calls = {1: "claim set R3 R3", 2: "claim set R2 R4", 3: "claim set R4 R5"}
    answer(state, calls, order)
    assert state.turn == 1 and exposed(state, 0, 1) == [["R3", "R3", "R3"]]
    assert state._seats[2].exposures == [] and state._seats[3].exposures == []


@clause("NYMJ-16")
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize(("callers", "expect"), [((2, 3), 2), ((1, 3), 1), ((2,), 2)])
def test_nearest_is_counted_round_the_table(dealer: int, callers: tuple[int, ...],
                                            expect: int) -> None:
    """The BASE deal turned so that any seat is Ma: 'nearest after the
    discarder' wraps round the table (callers and winner are offsets from Ma)."""
    hands = {(s + dealer) % 4: h for s, h in BASE.items()}
    state = rigged(game("nymj"), hands, dealer=dealer)
    act(state, dealer, "discard R3")
    own = {1: "claim set R3 R3", 2: "claim set R2 R4", 3: "claim set R4 R5"}
    answer(state, {(c + dealer) % 4: own[c] for c in callers})
    assert state.turn == (expect + dealer) % 4
    assert len(state._seats[state.turn].exposures) == 1


@clause("NYMJ-16")
def test_of_two_winning_steals_the_nearest_wins() -> None:
    """Seats 1 and 3 both win with R3: seat 1, nearest after Ma, takes it."""
    state = base({1: ALSO_WINS_ON_R3, 3: WINS_ON_R3})
    act(state, 0, "discard R3")
    answer(state, {1: "claim mahjong", 3: "claim mahjong"}, order=[3, 2, 1])
    assert state.results[0].winner == 1


SET_WIN_MA = "R5 S1 S1 S2 S2 S3 S3 E3 E3 E4 E4"  # Ma opens with R5
SET_WINS_ON_R5 = "G1 G1 G1 G2 G2 G2 E1 E1 R5 R5"  # R5 R5 + R5 completes the hand
SET_ONLY_ON_R5 = "R5 R5 G1 G2 G4 E1 E2 E5 S4 S5"  # R5 R5 + R5 is a set, no win
WINS_ON_R5 = "R3 R4 B1 B1 B1 B2 B2 B2 G3 G3"  # R3 R4 + R5 completes the hand


@clause("NYMJ-16", "NYMJ-19")
@pytest.mark.parametrize(("hands", "calls", "winner"), [
    ({1: SET_WINS_ON_R5, 3: WINS_ON_R5}, {1: "claim set R5 R5", 3: "claim mahjong"}, 1),
    ({1: SET_ONLY_ON_R5, 3: WINS_ON_R5}, {1: "claim set R5 R5", 3: "claim set R3 R4"}, 3),
])
def test_priority_goes_to_the_steal_that_wins(hands: dict[int, str], calls: dict[int, str],
                                              winner: int) -> None:
    """Priority goes to whoever needs the card to win, however the steal is
    worded: a set steal that completes the hand is a winning steal. (1) Seats
    1 and 3 both win with Ma's R5, seat 1 by a set: seat 1, nearest, wins.
    (2) Seat 1 steals for a mere set, seat 3 for a set that wins: seat 3 wins."""
    state = rigged(game("nymj"), {0: SET_WIN_MA, **hands})
    act(state, 0, "discard R5")
    answer(state, calls)
    assert state.results and state.results[0].winner == winner


# -- NYMJ-17: mistaken steals --------------------------------------------------------


@clause("NYMJ-17")
def test_strict_mistaken_steal_gets_nothing_and_skips_next_turn() -> None:
    """Strict mode: seat 2 says 'steal' for Ma's G1, which completes nothing.
    It gets no card, G1 stays in Ma's discards, and its next turn is skipped
    (1, 3, 0, 1, then 2 again): only one turn is lost."""
    state = base(mode=Mode.STRICT)
    act(state, 0, "discard G1")
    assert sorted(state.current_players()) == [1, 2, 3]  # strict: all may call
    hand = list(state._seats[2].counts)
    answer(state, {2: "claim set"})
    assert state._seats[2].counts == hand and state._seats[2].exposures == []
    assert state._seats[0].discards == parse_tiles(state.spec.deck, "G1")
    turns = []
    for _ in range(5):
        turns.append(state.turn)
        discard_drawn(state)
    assert turns == [1, 3, 0, 1, 2]
    assert state._seats[2].skips == 0


@clause("NYMJ-17")
def test_strict_mistaken_win_claim_skips_the_very_next_turn() -> None:
    """Strict mode: seat 1 claims Ma's G1 to win without a winning hand: no
    card, and since seat 1 was next, seat 2 draws instead."""
    state = base(mode=Mode.STRICT)
    act(state, 0, "discard G1")
    answer(state, {1: "claim mahjong"})
    assert state.results == [] and held(state, 1) == 10
    assert state.turn == 2 and held(state, 2) == 11 and len(state._wall) == 33


@clause("NYMJ-17")
def test_strict_mistake_beside_a_good_steal_is_still_penalised() -> None:
    """Strict mode: seat 2 steals R3 rightly while seat 3 calls in error; seat 2
    gets the card, and seat 3, next after seat 2, loses that turn to Ma."""
    state = base(mode=Mode.STRICT)
    act(state, 0, "discard R3")
    answer(state, {2: "claim set R2 R4", 3: "claim mahjong"})
    assert state.turn == 2 and len(state._seats[2].exposures) == 1
    assert state._seats[3].skips == 1
    act(state, 2, "discard E4")
    pass_all(state)
    assert state.turn == 0 and state._seats[3].skips == 0


@clause("NYMJ-17")
@pytest.mark.parametrize("mistake", ["claim mahjong", "claim set", "claim set R2 R4"])
def test_guarded_mistaken_steal_is_refused_with_the_legal_actions(mistake: str) -> None:
    """Guarded mode: a steal seat 1 cannot make is refused with IllegalAction,
    whose message lists what is legal, and the state is unchanged."""
    state = base()
    act(state, 0, "discard R3")
    digest, deciding = state.digest(), list(state.current_players())
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, mistake)
    message = str(refused.value)
    assert "legal: pass, claim set R3 R3" in message
    assert state.digest() == digest
    assert state.current_players() == deciding and state._seats[1].skips == 0
    answer(state, {})  # the window goes on as if nothing had happened
    assert state.turn == 1


@clause("NYMJ-17")
def test_guarded_steal_by_a_seat_not_asked_is_refused() -> None:
    """Guarded mode: nobody can use G1, so a steal after it is refused
    (the next player is already to play) and nothing changes."""
    state = base()
    act(state, 0, "discard G1")
    digest = state.digest()
    with pytest.raises(IllegalAction):
        act(state, 2, "claim set")
    assert state.digest() == digest and state.turn == 1


# -- NYMJ-18: ending the round after a draw -----------------------------------------


def drawn_win() -> State:
    """Seat 1 holds WAIT and draws the winning R5 (Ma opened with E5)."""
    state = rigged(game("nymj"), {0: f"E5 {FILLER}", 1: WAIT}, draws="R5")
    act(state, 0, "discard E5")
    pass_all(state)
    assert state.turn == 1
    return state


@clause("NYMJ-18")
def test_a_complete_hand_after_drawing_may_end_the_round() -> None:
    """Seat 1 draws its eleventh card, three sets and a pair: it is offered to
    end the round, and doing so makes it the self-drawn winner."""
    state = drawn_win()
    assert "declare" in texts(state, 1) and "discard R5" in texts(state, 1)
    hand = sorted(state.observation(1)["hand"])
    act(state, 1, "declare")
    end = state.results[0]
    assert (end.winner, end.self_drawn, end.discarder) == (1, True, None)
    # the whole hand is shown to everyone: in every seat's view of the result
    for viewer in range(4):
        assert [sorted(g) for g in state.observation(viewer)["results"][0]["shown"]] == [hand]


@clause("NYMJ-18")
def test_ending_the_round_is_optional() -> None:
    """The same player may discard instead: the round goes on."""
    state = drawn_win()
    act(state, 1, "discard G1")
    pass_all(state)
    assert state.results == [] and state.round == 0
    assert state.turn == 2 and held(state, 1) == 10


@clause("NYMJ-18")
def test_no_ending_offered_without_a_complete_hand() -> None:
    """A draw that does not complete the hand offers no ending (guarded mode)."""
    state = rigged(game("nymj"), {0: f"E5 {FILLER}", 1: WAIT}, draws="R4")
    act(state, 0, "discard E5")
    pass_all(state)
    assert state.turn == 1 and "declare" not in texts(state, 1)
    with pytest.raises(IllegalAction):
        act(state, 1, "declare")


# -- NYMJ-19: a steal that completes the hand ---------------------------------------


@clause("NYMJ-19")
def test_a_winning_steal_ends_the_round_at_once() -> None:
    """Seat 1 steals Ma's R5 to win: the round ends there, seat 1 won by a
    steal of Ma's card (not self-drawn) and discards nothing."""
    state = rigged(game("nymj"), {0: f"R5 {FILLER}", 1: WAIT})
    act(state, 0, "discard R5")
    answer(state, {1: "claim mahjong"})
    end = state.results[0]
    assert (end.winner, end.discarder, end.self_drawn) == (1, 0, False)
    assert state.round == 1 and state._seats[1].discards == []


@clause("NYMJ-19")
def test_a_set_steal_that_completes_the_hand_also_ends_the_round() -> None:
    """Stealing R5 for a set that leaves three sets and a pair must end the
    round at once: the stealer has won without a discard."""
    state = rigged(game("nymj"), {0: f"R5 {FILLER}", 2: SET_WAIT})
    act(state, 0, "discard R5")
    assert set(texts(state, 2)) >= {"claim mahjong", "claim set R5 R5"}
    answer(state, {2: "claim set R5 R5"})
    end = state.results[0]
    assert (end.winner, end.discarder, end.self_drawn) == (2, 0, False)
    assert state.round == 1


# -- NYMJ-20 / NYMJ-21: payments -----------------------------------------------------

PAYMENTS = [  # (Ma wins, how, what Ma pays, what each other loser pays)
    (False, "steal", 2, 1),
    (False, "draw", 4, 2),
    (True, "steal", None, 2),
    (True, "draw", None, 4),
]


@clause("NYMJ-20")
@pytest.mark.parametrize(("ma_wins", "how"), [(False, "steal"), (True, "draw")])
def test_the_winner_is_paid_by_every_other_player(ma_wins: bool, how: str) -> None:
    """Whoever ends the round wins it: every other player pays the winner,
    and nobody else is paid; tokens are only moved."""
    state = win_round(4, ma_wins, how)
    winner = state.results[0].winner
    assert state.scores[winner] > START
    assert all(state.scores[s] < START for s in range(4) if s != winner)
    assert sorted(e.payer for e in state.payments) == [s for s in range(4) if s != winner]
    assert {e.payee for e in state.payments} == {winner}
    assert sum(state.scores) == 4 * START


@clause("NYMJ-21")
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize(("ma_wins", "how", "ma_pays", "other_pays"), PAYMENTS)
def test_payments(players: int, ma_wins: bool, how: str, ma_pays: int | None,
                  other_pays: int) -> None:
    """By steal each loser pays 1, by draw 2; Ma pays double to another winner,
    and as winner receives double from everyone."""
    state = win_round(players, ma_wins, how)
    winner = 0 if ma_wins else 1
    paid = {s: (ma_pays if s == 0 else other_pays) for s in range(players) if s != winner}
    expected = [START - paid.get(s, 0) for s in range(players)]
    expected[winner] = START + sum(paid.values())
    assert state.scores == expected
    assert {e.payer: e.amount for e in state.payments} == paid
    assert all("NYMJ-21" in e.clauses for e in state.payments)


# -- NYMJ-22: the Ma card passes to the right ---------------------------------------


@clause("NYMJ-22")
@pytest.mark.parametrize(("ma_wins", "how"), [(False, "steal"), (True, "draw")])
def test_ma_passes_right_after_a_win(ma_wins: bool, how: str) -> None:
    """After the payments the Ma card passes to the right, also when Ma won;
    the new Ma opens the next round."""
    state = win_round(4, ma_wins, how)
    assert state.results[0].dealer == 0
    assert state.dealer == 1 and state.turn == 1 and state.step is Step.TURN


@clause("NYMJ-22", "NYMJ-23")
@pytest.mark.parametrize("players", [3, 4])
def test_wall_games_pay_nothing_and_ma_still_passes(players: int) -> None:
    """Open: when the pile runs out the round ends with no winner and no
    payment, and the Ma card passes on as after any round; such a match
    lasts exactly 8 rounds with 4 players, 9 with 3, and all share the win."""
    state = game("nymj", players).new_match(11)
    dealers = play_walls(state)
    rounds = ROUNDS[players]
    assert state.is_terminal() and state.round == rounds == len(state.results)
    assert dealers == [r % players for r in range(rounds)]
    assert [r.dealer for r in state.results] == dealers
    assert all(r.winner is None for r in state.results)
    assert state.payments == [] and state.scores == [START] * players
    assert state.winners() == list(range(players))


# -- NYMJ-23: the end of the match ----------------------------------------------------


@clause("NYMJ-23")
@pytest.mark.parametrize("players", [3, 4])
def test_random_matches_end_after_the_last_round_or_when_tokens_run_out(players: int) -> None:
    """Over seeded random matches: no match lasts more than 8 rounds (4
    players) or 9 (3); one that ends sooner ends on the round where a player
    ran out of tokens, and no earlier; Ma passes on every round."""
    g = game("nymj", players)
    for seed in range(12):
        record, state = play_match(g, seed, ["random"], check=True)
        assert record.violations == []
        assert state.is_terminal()
        rounds = len(state.results)
        after = scores_by_round(state)
        assert after[-1] == state.scores
        assert rounds == ROUNDS[players] or min(state.scores) <= 0
        assert rounds <= ROUNDS[players]
        assert all(min(s) > 0 for s in after[:-1])
        assert [r.dealer for r in state.results] == [r % players for r in range(rounds)]


@clause("NYMJ-23")
def test_running_out_of_tokens_ends_the_match() -> None:
    """Ma has 1 token and pays for seat 1's steal: Ma is out, the match ends."""
    state = win_round(4, False, "steal", scores=[1, 10, 10, 19])
    assert state.is_terminal() and state.step is Step.OVER
    assert state.current_players() == [] and state.round == 1
    assert state.scores[0] == 0


@clause("NYMJ-23")
def test_the_match_goes_on_while_everyone_has_tokens() -> None:
    """Ma pays 2 of 3 tokens: Ma still has one, and the next round is dealt."""
    state = win_round(4, False, "steal", scores=[3, 10, 10, 17])
    assert not state.is_terminal() and state.round == 1
    assert state.scores == [1, 14, 9, 16]


@clause("NYMJ-23", "NYMJ-21")
@pytest.mark.parametrize(("how", "scores", "after"), [
    ("steal", [1, 10, 10, 19], [0, 13, 9, 18]),
    ("draw", [10, 10, 1, 19], [6, 17, 0, 17]),
])
def test_a_player_short_of_tokens_pays_what_they_have(how: str, scores: list[int],
                                                      after: list[int]) -> None:
    """Open: a player who cannot pay in full pays the tokens they have
    (and nobody goes below zero); the match then ends."""
    state = win_round(4, False, how, scores=scores)
    assert state.scores == after
    assert min(e.amount for e in state.payments) == 1
    assert state.is_terminal()


# -- NYMJ-24: the winner of the match ---------------------------------------------------


@clause("NYMJ-24")
def test_the_most_tokens_wins_the_match() -> None:
    """At the end the player with the most tokens wins."""
    state = win_round(4, False, "steal", scores=[1, 10, 10, 19])
    assert state.is_terminal() and state.winners() == [3]


@clause("NYMJ-24")
@pytest.mark.parametrize(("scores", "winners"), [
    ([12, 12, 8, 8], [0, 1]),
    ([5, 20, 10, 5], [1]),
    ([10, 10, 10], [0, 1, 2]),
])
def test_equal_most_tokens_share_the_win(scores: list[int], winners: list[int]) -> None:
    """Open: players tied on the most tokens share the win."""
    state = game("nymj", len(scores)).new_match(0)
    state.scores = scores
    assert state.leaders() == winners and state.winners() is None  # not over yet
    state.step = Step.OVER
    assert state.winners() == winners


@clause("NYMJ-24")
def test_random_matches_are_won_by_the_most_tokens() -> None:
    """In played matches the winners are exactly the players with most tokens."""
    g = game("nymj")
    for seed in range(6):
        record, state = play_match(g, seed, ["random"])
        top = max(state.scores)
        assert record.winners == state.winners() == [
            s for s, v in enumerate(state.scores) if v == top]
