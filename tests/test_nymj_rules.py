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
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from jongg.compiler.errors import SemanticError
from jongg.compiler.game import load_game
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.state import IllegalAction, Mode, State, Step
from jongg.runtime.tiles import parse_tiles
from tests.rig import act, game, rigged, texts

clause = pytest.mark.clause

START = 10  # NYMJ-02: tokens each player starts with
ROUNDS = {4: 8, 3: 9}  # NYMJ-23: the most rounds a match lasts, by player count
DECK = 75

# A deal that uses every Seasons and Emotions card. Ma (seat 0) opens with R3,
# which seat 1 can steal with a pair (R3 R3), seat 2 with a run (R2 R4) and
# seat 3 with a run (R4 R5). Nobody can steal G1. Seat 1's first draw is B5,
# which seat 2 (B5 B5) can steal.
BASE = {
    0: "R3 G1 G1 S1 S1 S2 S2 E1 E1 E2 E2",
    1: "R3 R3 G5 G5 S3 S3 E3 E3 S4 S4",
    2: "R2 R4 B5 B5 S5 S5 E4 E4 E5 E5",
    3: "R4 R5 S1 S2 S3 S4 S5 E1 E2 E3",
}
# Waiting hands of ten: three sets and a lone R5, which wins with a second R5.
WAIT = "B1 B1 B1 B2 B2 B2 G1 G2 G3 R5"
# Two sets, a pair and R5 R5: stealing R5 for a set completes the hand.
SET_WAIT = "B1 B1 B1 B2 B2 B2 G1 G1 R5 R5"
# Wins with R3 (R3 R4 R5 run); seat 3 of BASE could hold it instead.
WINS_ON_R3 = "R4 R5 B1 B1 B1 B2 B2 B2 G3 G3"
# Also wins with R3 (R3 R3 R3); seat 1 of BASE could hold it instead.
ALSO_WINS_ON_R3 = "R3 R3 B3 B3 B3 B4 B4 B4 G4 G4"
FILLER = "S1 S1 S2 S2 S3 S3 E1 E1 E2 E2"  # ten cards that wait on nothing useful


# -- helpers -------------------------------------------------------------------


def base(changes: dict[int, str] | None = None, mode: Mode = Mode.GUARDED) -> State:
    """The BASE deal, with the hands in `changes` (by seat) replaced."""
    return rigged(game("nymj"), {**BASE, **(changes or {})}, draws="B5", mode=mode)


def answer(state: State, calls: dict[int, str], order: list[int] | None = None) -> None:
    """Close a claim window: the seats in `calls` say their line, every other
    seat asked passes (in `order` when given)."""
    assert state.step is Step.CLAIMS
    asked = list(state.current_players())
    assert set(calls) <= set(asked), f"{sorted(calls)} not all asked: {asked}"
    for seat in order or asked:
        act(state, seat, calls.get(seat, "pass"))
    assert state.step is not Step.CLAIMS


def pass_all(state: State) -> None:
    """Every seat asked lets the latest discard go (nothing if none is asked)."""
    while state.step is Step.CLAIMS:
        for seat in list(state.current_players()):
            act(state, seat, "pass")


def discard_drawn(state: State) -> str:
    """The seat to play discards the card it just drew (at the opening, its
    first card) and everyone lets it go; returns the card discarded."""
    seat = state.turn
    view = state.observation(seat)
    tile = view.get("drawn") or view["hand"][0]
    act(state, seat, f"discard {tile}")
    pass_all(state)
    return tile


def discard_drawn_no_pass(state: State) -> str:
    """The seat to play discards the card it drew; the claim window stays open."""
    tile = state.observation(state.turn)["drawn"]
    act(state, state.turn, f"discard {tile}")
    return tile


def held(state: State, seat: int) -> int:
    """The cards a seat holds, concealed and exposed."""
    return state.seats[seat].held


def exposed(state: State, viewer: int, seat: int) -> list[list[str]]:
    """The exposures of `seat` as `viewer` sees them."""
    return state.observation(viewer)["seats"][seat]["exposures"]


def play_walls(state: State) -> list[int]:
    """Play the match out without a single claim or declaration, so that
    every round is a wall game; returns the dealer of each round dealt."""
    dealers = [state.dealer]
    while not state.is_terminal():
        before = state.round
        if state.step is Step.CLAIMS:
            pass_all(state)
        else:
            discard_drawn(state)
        if state.round != before and not state.is_terminal():
            dealers.append(state.dealer)
            assert held(state, state.dealer) == 11 and state.turn == state.dealer
    return dealers


def win_round(players: int, ma_wins: bool, how: str,
              scores: list[int] | None = None) -> State:
    """A round Ma (seat 0) or seat 1 wins with the second R5 of WAIT, by
    stealing it or by drawing it; `scores` set the tokens before the round."""
    g = game("nymj", players)
    if ma_wins:
        others = "E4 " * (players - 1) if how == "draw" else ""
        state = rigged(g, {0: f"{WAIT} E5"}, draws=f"{others}R5")
    elif how == "draw":
        state = rigged(g, {0: f"E5 {FILLER}", 1: WAIT}, draws="R5")
    else:
        state = rigged(g, {0: f"R5 {FILLER}", 1: WAIT})
    if scores is not None:
        state.scores = list(scores)
    winner = 0 if ma_wins else 1
    opener = "R5" if how == "steal" and not ma_wins else "E5"  # R5: seat 1 steals it
    act(state, 0, f"discard {opener}")
    if how == "steal":
        if ma_wins:
            pass_all(state)
            assert state.turn == 1 and discard_drawn_no_pass(state) == "R5"
        answer(state, {winner: "claim mahjong"})
    else:
        pass_all(state)
        while state.turn != winner:
            discard_drawn(state)
        assert state.observation(winner)["drawn"] == "R5"
        act(state, winner, "declare")
    assert state.results and state.results[0].winner == winner
    return state


@contextmanager
def hidden_kept(state: State) -> Iterator[None]:
    """Put the pile and every hand back as they were when the block ends."""
    wall, counts = list(state.wall), [list(s.counts) for s in state.seats]
    try:
        yield
    finally:
        state.wall = wall
        for seat, kept in zip(state.seats, counts, strict=True):
            seat.counts = kept


def hidden_resample(state: State, seat: int, rng: random.Random) -> bool:
    """Deal the cards `seat` cannot see (other hands, the pile) anew, keeping
    how many each holds; True if the arrangement changed."""
    others = [s for s in range(state.spec.players) if s != seat]
    before = [list(state.wall)] + [list(state.seats[s].counts) for s in others]
    pool = list(state.wall) + [t for s in others for t in state.seats[s].concealed()]
    rng.shuffle(pool)
    kinds = len(state.spec.deck.kinds)
    state.wall = pool[:len(state.wall)]
    rest = pool[len(state.wall):]
    for s in others:
        size = sum(state.seats[s].counts)
        counts = [0] * kinds
        for t in rest[:size]:
            counts[t] += 1
        rest = rest[size:]
        state.seats[s].counts = counts
    after = [list(state.wall)] + [list(state.seats[s].counts) for s in others]
    return after != before


def scores_by_round(state: State) -> list[list[int]]:
    """The tokens after each round, rebuilt from the score events."""
    scores = [state.spec.match.start] * state.spec.players
    out = []
    for r in range(len(state.results)):
        for e in state.payments:
            if e.round == r:
                scores[e.payer] -= e.amount
                scores[e.payee] += e.amount
        out.append(list(scores))
    return out


# -- NYMJ-02: players and tokens -------------------------------------------------


@clause("NYMJ-02")
@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_start_with_ten_tokens(players: int) -> None:
    """3 or 4 players may play, and each starts with 10 tokens."""
    g = game("nymj", players)
    state = g.new_match(0)
    assert g.spec.players == players == len(state.seats)
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
        assert len(state.wall) == pile
        cards = Counter(state.wall)
        for seat in state.seats:
            cards.update(seat.concealed())
        assert sum(cards.values()) == DECK and set(cards.values()) == {3}


@clause("NYMJ-04")
def test_later_rounds_deal_eleven_to_the_new_ma() -> None:
    """Every round is dealt afresh: the Ma of that round gets the 11 cards."""
    state = win_round(4, ma_wins=False, how="steal")
    assert state.round == 1 and state.dealer == 1
    assert [held(state, s) for s in range(4)] == [10, 11, 10, 10]
    assert len(state.wall) == 75 - 41


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
        exposures = max(exposures, sum(len(s.exposures) for s in state.seats))
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
    state.seats[1].counts[r3] -= 1  # a change to seat 1's own hand is seen
    state.seats[1].counts[g2] += 1
    assert state.observation(1) != view


# -- NYMJ-06: Ma opens by discarding -------------------------------------------------


@clause("NYMJ-06")
def test_ma_opens_by_discarding_without_drawing() -> None:
    """Ma starts the round by discarding one of the 11 cards: no card is
    drawn first, and only discards are offered."""
    state = base()
    assert state.step is Step.TURN and state.turn == 0
    assert len(state.wall) == 34 and held(state, 0) == 11
    assert "drawn" not in state.observation(0)
    assert texts(state, 0) and all(t.startswith("discard ") for t in texts(state, 0))
    act(state, 0, "discard R3")
    assert held(state, 0) == 10 and len(state.wall) == 34


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
    assert len(state.wall) == 33 and held(state, 1) == 11
    assert state.observation(1)["drawn"] == "B5"
    options = texts(state, 1)
    assert "pass" not in options and all(t.startswith("discard ") for t in options)
    act(state, 1, "discard S3")
    pass_all(state)
    assert held(state, 1) == 10
    assert state.turn == 2 and len(state.wall) == 32 and held(state, 2) == 11


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
    assert len(state.wall) == 34  # nobody has drawn yet
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
    assert state.seats[0].discards == []
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


# -- NYMJ-15: after a steal ----------------------------------------------------------


@clause("NYMJ-15")
def test_after_a_steal_the_stealer_discards_and_play_skips_ahead() -> None:
    """Seat 2 steals Ma's card: it draws nothing, discards back to 10, and
    play goes on to its right (seat 3): seat 1 is skipped."""
    state = base()
    act(state, 0, "discard R3")
    answer(state, {2: "claim set R2 R4"})
    assert state.step is Step.TURN and state.turn == 2
    assert len(state.wall) == 34 and held(state, 2) == 11
    assert "drawn" not in state.observation(2)
    assert all(t.startswith("discard ") for t in texts(state, 2))
    act(state, 2, "discard E4")
    assert held(state, 2) == 10
    assert state.step is Step.TURN and state.turn == 3
    assert len(state.wall) == 33 and held(state, 1) == 10


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
    assert state.seats[2].exposures == [] and state.seats[3].exposures == []


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
    assert len(state.seats[state.turn].exposures) == 1


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
    hand = list(state.seats[2].counts)
    answer(state, {2: "claim set"})
    assert state.seats[2].counts == hand and state.seats[2].exposures == []
    assert state.seats[0].discards == parse_tiles(state.spec.deck, "G1")
    turns = []
    for _ in range(5):
        turns.append(state.turn)
        discard_drawn(state)
    assert turns == [1, 3, 0, 1, 2]
    assert state.seats[2].skips == 0


@clause("NYMJ-17")
def test_strict_mistaken_win_claim_skips_the_very_next_turn() -> None:
    """Strict mode: seat 1 claims Ma's G1 to win without a winning hand: no
    card, and since seat 1 was next, seat 2 draws instead."""
    state = base(mode=Mode.STRICT)
    act(state, 0, "discard G1")
    answer(state, {1: "claim mahjong"})
    assert state.results == [] and held(state, 1) == 10
    assert state.turn == 2 and held(state, 2) == 11 and len(state.wall) == 33


@clause("NYMJ-17")
def test_strict_mistake_beside_a_good_steal_is_still_penalised() -> None:
    """Strict mode: seat 2 steals R3 rightly while seat 3 calls in error; seat 2
    gets the card, and seat 3, next after seat 2, loses that turn to Ma."""
    state = base(mode=Mode.STRICT)
    act(state, 0, "discard R3")
    answer(state, {2: "claim set R2 R4", 3: "claim mahjong"})
    assert state.turn == 2 and len(state.seats[2].exposures) == 1
    assert state.seats[3].skips == 1
    act(state, 2, "discard E4")
    pass_all(state)
    assert state.turn == 0 and state.seats[3].skips == 0


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
    assert state.current_players() == deciding and state.seats[1].skips == 0
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
    assert state.round == 1 and state.seats[1].discards == []


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
