"""The Mah Jongg Card Game from Mah Jongg on (MJCG-21 to MJCG-26, MJCG-36..38 and card
play): the runtime proves the rulebook's clauses, as tests/test_mjcg_rules.py does for
the deal and the calls."""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.runtime.agents.bots import RandomAgent
from jongg.runtime.agents.play import play_match
from jongg.runtime.game.invariants import violations
from jongg.runtime.game.spec import Courtesy, Pass, Vote
from jongg.runtime.game.state import IllegalAction, Mode, State, Step

from .mjcg_table import (
    DECK,
    START,
    WAIT_5B,
    WAIT_5B_JOKER,
    clause,
    discard_drawn,
    exposed,
    gains,
    hand_of,
    held,
    let_go,
    padded,
    paid,
    start,
    table,
    wins_by,
)
from .rig import act, game, texts

# -- MJCG-21, MJCG-23: Mah Jongg and its payment ------------------------------------------


@clause("MJCG-21")
@pytest.mark.parametrize("how", ["called", "drawn"])
def test_mah_jongg_ends_the_round_without_a_discard_14_cards_shown(how: str) -> None:
    """South goes Mah Jongg on East's 5B or on the 5B she draws: she
    discards nothing on the winning turn; the round ends at once with her 14
    cards laid down (13 and the last card), and the next round is dealt."""
    state = start(table({1: WAIT_5B}, opens="5B" if how == "called" else "9B"),
                  draws="5B")
    if how == "drawn":
        act(state, 0, "discard 9B")
        assert state.turn == 1 and state.observation(1)["drawn"] == "5B"
        assert texts(state, 1)[0] == "declare"
        act(state, 1, "declare")
    else:
        act(state, 0, "discard 5B")
        let_go(state, {1: "claim mahjong"})
    end = state.results[0]
    assert (end.winner, end.self_drawn, end.line) == (1, how == "drawn", "three-kongs-and-a-pair")
    assert end.discarder == (0 if how == "called" else None)
    shown = Counter(tile for group in end.shown for tile in group)
    assert sum(shown.values()) == 14 and shown == Counter([*WAIT_5B.split(), "5B"])
    assert [seat for seat, _ in state.history].count(1) == 1  # the win, and no discard
    assert state.round == 1 and end.turns == 1  # East's opening discard only


@clause("MJCG-23")
@pytest.mark.parametrize(("how", "hand", "each"), [
    ("called", WAIT_5B_JOKER, 50),
    ("drawn", WAIT_5B_JOKER, 100),  # self-drawn: double
    ("called", WAIT_5B, 100),  # jokerless: double
    ("drawn", WAIT_5B, 200),  # both: 200
])
def test_beginner_scoring_50_doubled_self_drawn_doubled_jokerless(
        how: str, hand: str, each: int) -> None:
    """Each opponent pays the winner 50 (the discarder no more than the
    others); twice that when the winner drew her last card; twice again
    when no joker is in her hand: 200 from each when both."""
    opens = "5B" if how == "called" else "9B"
    state = start(table({1: hand}, opens=opens), draws="5B")
    wins_by(state, 1, how, opens)
    assert gains(state) == paid(each, 1)
    assert sorted((e.payer, e.payee, e.amount) for e in state.payments) == \
        [(s, 1, each) for s in (0, 2, 3)]
    assert all("MJCG-23" in e.clauses for e in state.payments)


@clause("MJCG-23", "MJCG-18")
def test_mah_jongg_by_a_joker_exchange_after_a_call_is_not_self_drawn() -> None:
    """South calls East's 5B for a kong, then gives her 8B for the joker of
    West's 8B kong, which completes her hand: she drew no card this turn,
    her last card came from a call, so the win is not self-drawn and pays
    50 from each (jokers in hand), not 100."""
    state = start(table({1: "5B 5B J 1B 1B 1B 1B 2B 2B 2B 3C 3C 8B", 2: padded("", 9)},
                        opens="5B"), exposures={2: ["8B 8B 8B J"]})
    act(state, 0, "discard 5B")
    let_go(state, {1: "claim kong 5B 5B J"})
    assert state.turn == 1 and state._drawn is None and "declare" not in texts(state, 1)
    act(state, 1, "exchange 8B 2:0")
    act(state, 1, "declare")
    assert state.results[0].winner == 1
    assert not state.results[0].self_drawn
    assert gains(state) == paid(50, 1)


# -- MJCG-24: dead hands --------------------------------------------------------------


@clause("MJCG-24")
def test_a_false_declaration_kills_the_hand_which_is_skipped_and_still_pays() -> None:
    """Strict mode. South declares Mah Jongg in error: her hand is dead. She
    is out of the round: not asked for West's 5B she could call, skipped
    when her turn comes; West then draws her Mah Jongg and South pays her
    like everyone else (self-drawn, with a joker: 100)."""
    state = start(table({1: padded("5B 5B J"), 2: WAIT_5B_JOKER.replace("5B", "6B")}),
                  draws="7B 5B 9C 9D 6B", mode=Mode.STRICT)
    discard_drawn(state)
    assert state.turn == 1 and texts(state, 1)[0] == "declare"
    act(state, 1, "declare")
    assert state._seats[1].dead and state.observation(0)["seats"][1]["dead"]
    assert state.turn == 2 and state.observation(2)["drawn"] == "5B"
    assert held(state, 1) == 14  # out of the round with what she held
    act(state, 2, "discard 5B")
    assert state.current_players() == [3, 0]  # not South
    with pytest.raises(IllegalAction):
        act(state, 1, "claim kong 5B 5B J")
    let_go(state)
    turns = []
    while state.observation(state.turn).get("drawn") != "6B":
        turns.append(state.turn)
        discard_drawn(state)
    assert turns == [3, 0] and state.turn == 2  # South's turn is skipped
    assert violations(state) == []
    act(state, 2, "declare")
    assert state.results[0].winner == 2 and gains(state) == paid(100, 2)


@clause("MJCG-24")
@pytest.mark.parametrize("call", ["claim mahjong", "claim kong"])
def test_a_false_call_kills_the_hand(call: str) -> None:
    """Strict mode. South calls East's 9B for Mah Jongg, or for a kong, when
    her hand cannot use it: the call fails, her hand is dead, and the next
    live seat, West, draws; South is asked about nothing more."""
    state = start(table(), mode=Mode.STRICT)
    act(state, 0, "discard 9B")
    assert state.current_players() == [1, 2, 3]
    let_go(state, {1: call})
    assert state._seats[1].dead and state._seats[1].exposures == []
    assert state.step is Step.TURN and state.turn == 2 and len(state._wall) == 98
    assert state.observation(2)["discard"] is None
    assert state.observation(0)["seats"][0]["discards"] == ["9B"]  # nobody took it
    act(state, 2, f"discard {state.observation(2)['drawn']}")
    assert state.current_players() == [3, 0]
    assert violations(state) == []


@clause("MJCG-24")
def test_guarded_mode_refuses_false_declarations_and_calls() -> None:
    """Guarded mode refuses the mistakes that kill a hand: a Mah Jongg call
    or a call without cards South cannot make, and a declaration without
    Mah Jongg: IllegalAction, and the state is unchanged."""
    state = start(table({1: padded("5B 5B J")}, opens="5B"))
    act(state, 0, "discard 5B")
    assert texts(state, 1) == ["pass", "claim kong 5B 5B J"]
    for mistake in ("claim mahjong", "claim kong"):
        digest = state.digest()
        with pytest.raises(IllegalAction, match="not legal"):
            act(state, 1, mistake)
        assert state.digest() == digest and not state._seats[1].dead
    let_go(state)
    assert state.turn == 1 and "declare" not in texts(state, 1)
    digest = state.digest()
    with pytest.raises(IllegalAction, match="not legal"):
        act(state, 1, "declare")
    assert state.digest() == digest and not state._seats[1].dead


@clause("MJCG-24")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tile_counts_never_go_wrong_in_random_strict_matches(players: int) -> None:
    """Wrong tile counts cannot happen when the engine moves every card: in
    random strict matches, where false declarations and calls kill hands,
    every live hand holds 13 (10 with six players), one more on its turn,
    and the invariants hold at every step."""
    g = game("mjcg", players)
    dead = 0
    for seed in range(6):
        state = g.new_match(seed, Mode.STRICT)
        agents = [RandomAgent(seed, seat) for seat in range(players)]
        assert violations(state) == []
        while not state.is_terminal():
            seat = state.current_players()[0]
            state.apply(seat, agents[seat].act(state.observe(seat), state.legal_actions(seat)))
            assert violations(state) == []
            dead = max(dead, sum(s.dead for s in state._seats))
        record, _ = play_match(g, seed, ["random"], mode=Mode.STRICT, check=True)
        assert record.violations == []
    assert dead >= 2  # hands did die on the way


# -- MJCG-25: rounds and the match ---------------------------------------------------------


@clause("MJCG-25", "MJCG-02")
def test_the_deal_passes_right_even_when_east_wins() -> None:
    """East is dealt Mah Jongg and declares it at once (self-drawn,
    jokerless: 200 from each); the deal still passes to her right: South
    deals the next round, 14 to herself and 13 to each other."""
    state = start(table({0: "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 5B 5B"}))
    assert texts(state, 0)[0] == "declare"
    act(state, 0, "declare")
    assert state.results[0].winner == 0 == state.results[0].dealer
    assert gains(state) == paid(200, 0)
    assert state.round == 1 and state.dealer == 1
    assert [held(state, s) for s in range(4)] == [13, 14, 13, 13] and len(state._wall) == 99
    assert state.step is Step.PASSING  # the next round starts with its Charleston


@clause("MJCG-25")
def test_the_deal_passes_right_after_a_wall_game() -> None:
    """Nobody goes Mah Jongg before the pile runs out: nobody pays, and the
    deal passes to South all the same."""
    state = start(table())
    while state.round == 0:
        discard_drawn(state)
    assert state.results[0].winner is None and state.results[0].turns == 100
    assert state.scores == [START] * 4 and state.dealer == 1


@clause("MJCG-25", "MJCG-03")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_match_lasts_until_every_player_has_dealt_once(players: int) -> None:
    """Greedy players: the match has one round per player, each dealt by the
    next seat to the right; it ends there, and the highest score wins."""
    record, state = play_match(game("mjcg", players), 1, ["greedy"], check=True)
    assert record.violations == [] and state.is_terminal()
    assert [r["dealer"] for r in record.rounds] == list(range(players))
    assert any(r["winner"] is not None for r in record.rounds)
    assert sum(state.scores) == START * players and state.scores != [START] * players
    best = max(state.scores)
    assert record.winners == state.winners() == [s for s in range(players)
                                                 if state.scores[s] == best]


# -- MJCG-26 and card play: the line's value -----------------------------------------------


HONOURS_WAIT = "N N N N E E E S S S W W RD"  # waits on RD: Winds/Dragons, 35
NO_HONOURS = {0: "1C 2C 3C 4C 5C 6C 7C 8C 9C 1D 2D 3D 4D RD",
              2: "1C 2C 3C 4C 5C 6C 7C 8C 9C 5D 6D 7D 8D",
              3: "1D 2D 3D 4D 5D 6D 7D 8D 9D GD WD F 9C"}


@clause("MJCG-26")
def test_advanced_play_wins_with_a_table_hand_and_pays_its_value() -> None:
    """A kong, two pungs and two pairs of winds and dragons is a hand of the
    advanced table worth 35: called and jokerless, each opponent pays 70."""
    state = start({**NO_HONOURS, 1: HONOURS_WAIT}, variant="mjcg-advanced")
    wins_by(state, 1, "called", "RD")
    assert state.results[0].line == "honors-35"
    assert gains(state) == paid(35 * 2, 1)


@clause("MJCG-26", "MJCG-22")
def test_a_table_hand_is_no_win_in_the_beginner_game() -> None:
    """The same hand is not three kongs and a pair: in the beginner's game
    the RD cannot be called and drawing it gives no Mah Jongg."""
    state = start({**NO_HONOURS, 1: HONOURS_WAIT}, draws="RD")
    act(state, 0, "discard RD")
    assert state.step is Step.TURN and state.turn == 1  # nobody asked
    assert "declare" not in texts(state, 1)


# The line each variant is rigged to win, its value, and the hand of 13 that
# waits on `last` (jokered: one joker in a kong). The dealer holds JUNK and
# opens with `last` (called) or `other` (drawn: the winner draws `last`).
CARD_WINS = {
    "mjcg-card": dict(line="honor-1", value=25, last="W", other="9D",
                      wait="N N N N E E E E S S S S W", jokered="N N N J E E E E S S S S W",
                      junk="1C 2C 3C 4C 5C 6C 7C 8C 9C 1D 2D 3D 4D"),
    "mjcg-advanced": dict(line="like-30", value=30, last="9B", other="8D",
                          wait="RD RD RD RD 2C 2C 2C 2C 5D 5D 5D 5D 9B",
                          jokered="RD RD RD J 2C 2C 2C 2C 5D 5D 5D 5D 9B",
                          junk="1C 3C 4C 6C 7C 8C 9C 1D 2D 3D 4D 6D 7D"),
}


@clause("MJCG-26", "MJCG-23", "MJCG-36", "MJCG-37", "MJCG-38")
@pytest.mark.parametrize("variant", sorted(CARD_WINS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(("how", "jokers"), [("called", True), ("drawn", True),
                                             ("called", False), ("drawn", False)])
def test_card_lines_pay_value_doubled_self_drawn_and_jokerless(
        variant: str, players: int, how: str, jokers: bool) -> None:
    """Card and advanced play compile for 3 to 6 players (hands of 14 even
    with six); a Mah Jongg on a line pays its value from each opponent,
    doubled when self-drawn, doubled again when jokerless."""
    win = CARD_WINS[variant]
    g = game(variant, players)
    assert g.spec.players == players and g.spec.deal == 13 and g.spec.hand_size == 14
    opens = win["last"] if how == "called" else win["other"]
    state = start({0: f"{win['junk']} {opens}", 1: win["jokered" if jokers else "wait"]},
                  draws=win["last"], variant=variant, players=players)
    wins_by(state, 1, how, opens)
    assert state.results[0].line == win["line"]
    each = win["value"] * (2 if how == "drawn" else 1) * (1 if jokers else 2)
    assert gains(state) == paid(each, 1, players)


# -- MJCG-36, MJCG-37, MJCG-38: three, five and six players ---------------------------------


@clause("MJCG-36")
def test_three_players_have_no_west_seat() -> None:
    """With three players the seats are East, South and North: no West;
    the deck, the deal and play are otherwise the same (East's right is
    South, South's is North)."""
    g = game("mjcg", 3)
    assert g.spec.seats == ("East", "South", "North")
    assert g.spec.deck.name == "american-152" and g.spec.deck.size == DECK
    assert (g.spec.deal, g.spec.dealer_extra, g.spec.hand_size) == (13, 1, 14)
    assert [k.name for k in g.spec.claims.kinds] == ["mahjong", "kong"]


@clause("MJCG-37")
def test_five_players_add_a_north_east_seat_and_wind() -> None:
    """With five players a North-East seat sits between North and East (it
    plays after North, before East); four of the flowers become North-East
    wind cards: NE x4, flowers x4, still 152 cards."""
    g = game("mjcg", 5)
    seats = g.spec.seats
    assert seats == ("East", "South", "West", "North", "North-East")
    assert seats[(seats.index("North") + 1) % 5] == "North-East"
    assert seats[(seats.index("North-East") + 1) % 5] == "East"
    deck = g.spec.deck
    assert deck.name == "american-152-5p" and deck.size == DECK
    assert (deck.kind("NE").copies, deck.kind("NE").category) == (4, "wind")
    assert deck.kind("F").copies == 4 and deck.kind("J").copies == 8
    assert (g.spec.deal, g.spec.dealer_extra) == (13, 1)


@clause("MJCG-38")
def test_six_players_add_a_south_west_seat_and_eight_extra_winds() -> None:
    """With six players a South-West seat sits between South and West; all
    eight flowers are extra-wind cards, one kind (XW x8, tagged
    extra-wind); the deal is 10 cards (11 to East) and the hand is three
    pungs and a pair (11 cards)."""
    g = game("mjcg", 6)
    seats = g.spec.seats
    assert seats == ("East", "South", "South-West", "West", "North", "North-East")
    deck = g.spec.deck
    assert deck.name == "american-152-6p" and deck.size == DECK
    assert deck.kind("XW").copies == 8 and deck.kind("XW").tags == ("extra-wind",)
    assert "F" not in deck.by_code and "NE" not in deck.by_code
    assert (g.spec.deal, g.spec.dealer_extra, g.spec.hand_size) == (10, 1, 11)
    assert g.spec.card == "mjcg-beginner-6"


SIX_DEALER = "1D 2D 3D 4D 6D 7D 8D 9D RD GD 5B"  # 11 cards, opens with 5B


@clause("MJCG-38", "MJCG-13")
def test_six_players_call_for_pungs_not_kongs() -> None:
    """Kongs cannot be formed with six players: holding three 5B, South may
    call East's 5B for a pung (two cards from her hand), never for a kong."""
    state = start({0: SIX_DEALER, 1: padded("5B 5B 5B", 10)}, players=6)
    act(state, 0, "discard 5B")
    calls = [t for t in texts(state, 1) if t.startswith("claim")]
    assert calls == ["claim pung 5B 5B"]
    let_go(state, {1: "claim pung 5B 5B"})
    assert exposed(state, 1) == [["5B"] * 3] and held(state, 1) == 11
    assert state.turn == 1 and hand_of(state, 1)["5B"] == 1


def six_player_win(seat: int, set_of: str) -> State:
    """`seat` holds three pungs (one of them `set_of` x3) and a lone 5B, and
    calls East's 5B for Mah Jongg: jokerless, called (50 x 2)."""
    hand = f"{set_of} {set_of} {set_of} 1B 1B 1B 2B 2B 2B 5B"
    state = start({0: SIX_DEALER, seat: hand}, players=6)
    wins_by(state, seat, "called", "5B")
    assert state.results[0].line == "three-pungs-and-a-pair"
    return state


@clause("MJCG-38", "MJCG-23")
@pytest.mark.parametrize("seat", [2, 5])  # South-West, North-East
@pytest.mark.parametrize(("set_of", "each"), [("XW", 200), ("3B", 100)])
def test_six_players_a_set_of_extra_winds_scores_double(seat: int, set_of: str,
                                                        each: int) -> None:
    """South-West or North-East goes Mah Jongg (called, jokerless: 100 from
    each); with a set of three extra winds in her hand she scores double."""
    state = six_player_win(seat, set_of)
    assert gains(state) == paid(each, seat, 6)


@clause("MJCG-38")
def test_six_players_extra_winds_double_only_for_north_east_and_south_west() -> None:
    """'If North-East and/or South-West collect a set of these, they score
    double': South's set of extra winds earns no double (100 from each)."""
    state = six_player_win(1, "XW")
    assert gains(state) == paid(100, 1, 6)


def drive_charleston(state: State) -> list[tuple[str, str]]:
    """Play the Charleston through: every seat passes its first cards (no
    blind passes, a vote against dancing again, no courtesy offers).
    Checks every pass reaches the right partner; returns the phases met."""
    n = state.spec.players
    seen: list[tuple[str, str]] = []
    partner = {"right": 1, "left": n - 1, "across": n // 2}
    while state.step is not Step.TURN:
        phase = state.phase
        seen.append((type(phase).__name__, str(getattr(phase, "to", ""))))
        if state.step is Step.VOTING:
            for seat in state.current_players():
                act(state, seat, "vote no")
        elif state.step is Step.OFFERING:
            for seat in state.current_players():
                act(state, seat, f"{'offer' if isinstance(phase, Courtesy) else 'blind'} 0")
        if state.step is not Step.PASSING:
            assert violations(state) == []
            continue
        assert isinstance(phase, Pass) and phase.to in partner
        before = [hand_of(state, s) for s in range(n)]
        given: list[Counter[str]] = [Counter() for _ in range(n)]
        for seat in range(n):
            for _ in range(3):
                tile = texts(state, seat)[0].split()[1]
                assert tile != "J"
                act(state, seat, f"pass {tile}")
                given[seat][tile] += 1
        for seat in range(n):
            source = (seat - partner[phase.to]) % n
            assert hand_of(state, seat) == before[seat] - given[seat] + given[source]
        assert violations(state) == []
    return seen


@clause("MJCG-04", "MJCG-05", "MJCG-06", "MJCG-07", "MJCG-36", "MJCG-37", "MJCG-38")
@pytest.mark.parametrize(("players", "phases"), [
    (3, [("Pass", "right"), ("Pass", "left"), ("Vote", "")]),
    (5, [("Pass", "right"), ("Pass", "left"), ("Vote", "")]),
    (6, [("Pass", "right"), ("Pass", "across"), ("Pass", "left"), ("Vote", ""),
         ("Courtesy", "across")]),
])
def test_the_charleston_at_three_five_and_six_players(players: int,
                                                      phases: list[tuple[str, str]]) -> None:
    """Nobody sits across with three or five players: the Charleston passes
    right then left (the left pass may be blind), a vote on dancing again,
    and no courtesy pass; with six it is as with four, across being three
    seats on. Then East opens, holding her 14 (11 with six)."""
    g = game("mjcg", players)
    for seed in range(2):
        state = g.new_match(seed)
        assert drive_charleston(state) == phases
        assert state.turn == 0 and state.current_players() == [0]
        assert held(state, 0) == g.spec.deal + 1
        assert all(held(state, s) == g.spec.deal for s in range(1, players))
        assert all(isinstance(p, Pass | Vote) for p in g.spec.phases) == (players != 6)
