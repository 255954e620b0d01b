"""Pre-play phases as data: passes chosen a tile at a time, blind passes, the
secret vote on a second Charleston, and the negotiated courtesy pass, on the
Card Game's Charleston (rulesets/variants/mjcg.yaml)."""

from __future__ import annotations

from collections import Counter

import pytest

from jongg.runtime.game.invariants import violations
from jongg.runtime.game.spec import Pass, Vote
from jongg.runtime.game.state import IllegalAction, State, Step

from .rig import act, game, rigged, texts

# Four hands of 13 (East, the dealer, 14); every seat has a joker to keep.
HANDS = {
    0: "1C 1C 2C 3C 4C 5C 6C 7C 8C 9C N N J RD",
    1: "1B 1B 2B 3B 4B 5B 6B 7B 8B 9B E E J",
    2: "1D 1D 2D 3D 4D 5D 6D 7D 8D 9D S S J",
    3: "GD GD GD WD WD WD W W W F F F J",
}


def start() -> State:
    return rigged(game("mjcg", 4), HANDS, dealer=0)


def held(state: State, seat: int) -> Counter[str]:
    return Counter(state.spec.deck.codes(state._seats[seat].concealed()))


def pass_all(state: State, picks: dict[int, str]) -> None:
    """Every seat passes its tiles, one at a time, seats in turn."""
    for seat, tiles in picks.items():
        for code in tiles.split():
            act(state, seat, f"pass {code}")
            assert violations(state) == []


FIRST = {0: "7C 8C 9C", 1: "7B 8B 9B", 2: "7D 8D 9D", 3: "F F F"}


@pytest.mark.clause("MJCG-04")
def test_the_charleston_passes_right_then_across_then_left() -> None:
    state = start()
    assert state.step is Step.PASSING and state.current_players() == [0, 1, 2, 3]
    pass_all(state, FIRST)  # to the right: seat s gives to seat s + 1
    assert held(state, 1)["9C"] == 1 and held(state, 0)["F"] == 3
    pass_all(state, {0: "1C 1C 2C", 1: "1B 1B 2B", 2: "1D 1D 2D", 3: "W W W"})  # across
    assert held(state, 2)["1C"] == 2 and held(state, 0)["1D"] == 2
    assert held(state, 3)["1B"] == 2 and held(state, 1)["W"] == 3
    assert state.step is Step.OFFERING  # the left pass may be blind: counts first
    phase = state.phase
    assert isinstance(phase, Pass) and phase.to == "left" and phase.blind == 3


@pytest.mark.clause("MJCG-08")
def test_jokers_are_never_passed() -> None:
    state = start()
    for seat in range(4):
        assert "pass J" not in texts(state, seat)
        assert all(a.startswith("pass ") for a in texts(state, seat))
    with pytest.raises(IllegalAction, match="'pass J' is not legal"):
        act(state, 0, "pass J")


def test_a_pass_tile_is_out_of_the_hand_until_everyone_has_chosen() -> None:
    state = start()
    act(state, 0, "pass RD")
    assert "pass RD" not in texts(state, 0)
    assert state.observation(0)["passing"] == ["RD"]
    assert state.observation(1)["passing"] == []  # what seat 1 cannot see
    assert state.observation(1)["seats"][0]["concealed"] == 14  # still its tiles in hand
    assert violations(state) == []


def _to_vote(state: State, blind: dict[int, int] | None = None) -> None:
    pass_all(state, FIRST)
    pass_all(state, {0: "1C 1C 2C", 1: "1B 1B 2B", 2: "1D 1D 2D", 3: "W W W"})
    for seat in range(4):
        act(state, seat, f"blind {(blind or {}).get(seat, 0)}")
    picks = {0: "3C 4C 5C", 1: "3B 4B 5B", 2: "3D 4D 5D", 3: "GD GD GD"}
    for seat, tiles in picks.items():
        for code in tiles.split()[:3 - state._blind[seat]]:
            act(state, seat, f"pass {code}")


@pytest.mark.clause("MJCG-07")
def test_a_blind_pass_forwards_tiles_unseen() -> None:
    state = start()
    pass_all(state, FIRST)
    pass_all(state, {0: "1C 1C 2C", 1: "1B 1B 2B", 2: "1D 1D 2D", 3: "W W W"})
    before = {s: held(state, s) for s in range(4)}
    for seat, n in {0: 0, 1: 0, 2: 2, 3: 0}.items():
        act(state, seat, f"blind {n}")
    assert state._pass_count == [3, 3, 1, 3]
    assert texts(state, 2)[0].startswith("pass ")
    picks = {0: "3C 4C 5C", 1: "3B 4B 5B", 2: "3D", 3: "GD GD GD"}
    pass_all(state, picks)
    # to the left, seat s gives to seat s - 1: seat 2 receives from seat 3 and
    # forwards the first two tiles seat 3 chose (GD GD) to seat 1, unseen
    assert held(state, 1) - before[1] == Counter({"GD": 2, "3D": 1})
    assert held(state, 2) - before[2] == Counter({"GD": 1})
    assert held(state, 2)["GD"] == before[2]["GD"] + 1
    assert sum(held(state, 2).values()) == 13
    assert violations(state) == []


@pytest.mark.clause("MJCG-07")
def test_blind_passes_cannot_loop() -> None:
    """Every seat passing all three blind: nobody chose from hand, so nothing
    could be forwarded; each seat's count is capped by its neighbour's
    tiles from hand (0 here) and all pass from hand (the documented default)."""
    state = start()
    pass_all(state, FIRST)
    pass_all(state, {0: "1C 1C 2C", 1: "1B 1B 2B", 2: "1D 1D 2D", 3: "W W W"})
    for seat in range(4):
        act(state, seat, "blind 3")
    assert state._blind == [0, 0, 0, 0] and state._pass_count == [3, 3, 3, 3]


@pytest.mark.clause("MJCG-05")
@pytest.mark.parametrize("votes,again", [((0, 0, 1, 0), True), ((0, 0, 0, 0), False)])
def test_one_yes_dances_again(votes: tuple[int, ...], again: bool) -> None:
    state = start()
    _to_vote(state)
    assert state.step is Step.VOTING and isinstance(state.phase, Vote)
    for seat, vote in enumerate(votes):
        act(state, seat, f"vote {'yes' if vote else 'no'}")
        if seat < 3:  # the votes are secret until all are in
            assert "vote" not in str(state.observation((seat + 1) % 4))
    if again:
        phase = state.phase
        assert state.step is Step.PASSING and isinstance(phase, Pass) and phase.to == "left"
    else:
        assert state.step is Step.OFFERING  # straight to the courtesy pass


@pytest.mark.clause("MJCG-06")
def test_the_courtesy_pass_exchanges_the_smaller_offer_with_the_seat_across() -> None:
    state = start()
    _to_vote(state)
    for seat in range(4):
        act(state, seat, "vote no")
    for seat, offer in {0: 3, 1: 0, 2: 1, 3: 2}.items():
        act(state, seat, f"offer {offer}")
    assert state._pass_count == [1, 0, 1, 0]  # 0 with 2: min(3, 1); 1 with 3: min(0, 2)
    assert state.current_players() == [0, 2]
    zero, two = held(state, 0), held(state, 2)
    act(state, 0, "pass N")
    act(state, 2, "pass S")
    assert held(state, 2)["N"] == two["N"] + 1 and held(state, 0)["S"] == zero["S"] + 1
    assert state.step is Step.TURN and state.turn == 0  # East opens
    assert sum(held(state, 0).values()) == 14
    assert violations(state) == []

