"""The State's own promises: chance is asked for by name and can be chosen,
every change is told as an event (and hidden where a seat may not see it),
a position round-trips through its text, a clone is independent, and an
action may be given as text."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from jongg.runtime.agents.play import agents_for
from jongg.runtime.game import racks
from jongg.runtime.game.chance import ArrangedChance, SeededChance, arranged_wall
from jongg.runtime.game.events import Drew, EventKind, Paid, PassBegun
from jongg.runtime.game.position import PositionError
from jongg.runtime.game.state import IllegalAction, State, Step
from jongg.runtime.tiles import parse_tiles

from .rig import game


def play(state: State, decisions: int, agents: str = "random") -> None:
    """Let random agents play `decisions` decisions (or to the end)."""
    bots = agents_for([agents], state.seed, state.spec.players)
    for _ in range(decisions):
        if state.is_terminal():
            return
        seat = state.current_players()[0]
        state.apply(seat, bots[seat].act(state.observe(seat), state.legal_actions(seat)))


# -- chance -------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), [("nymj", 4), ("siamese", 2), ("mjcg", 4)])
def test_an_arranged_shuffle_deals_the_chosen_hands(variant: str, players: int) -> None:
    """The shuffle is a chance outcome a test can choose: arranged_wall runs
    the variant's own deal (walls, die and all) to place chosen tiles."""
    g = game(variant, players)
    deck = g.spec.deck
    natural = g.new_match(5)
    seat = (natural.dealer + 1) % players
    size = sum(natural._seats[seat].counts)
    wanted = {seat: sorted(deck.wall()[-size:])}  # the deck's last tiles, in order
    draws = parse_tiles(deck, deck.code(deck.kinds[0].index))
    order = arranged_wall(g.spec, wanted, draws, natural.dealer, natural._die, deck.wall())
    state = g.new_match(5, chance=ArrangedChance(5, walls={0: order},
                                                  dice={0: natural._die} if natural._die else {}))
    assert sorted(state._seats[seat].concealed()) == wanted[seat]
    assert Counter(state._wall) + sum((Counter(s.concealed()) for s in state._seats),
                                     Counter()) == Counter(deck.wall())
    if g.spec.turn.opening != "draw":
        assert state._wall[-1] == draws[0]  # drawn first


def test_an_arranged_wall_must_be_the_rounds_tiles() -> None:
    g = game("nymj", 4)
    with pytest.raises(ValueError, match="not the round's tiles"):
        g.new_match(0, chance=ArrangedChance(0, walls={0: [0, 1, 2]}))


def test_seeded_chance_is_the_default_and_names_its_outcomes() -> None:
    g = game("nymj", 4)
    one, two = g.new_match(9), g.new_match(9, chance=SeededChance(9))
    assert one.digest() == two.digest()
    assert SeededChance(9).shuffle(0, list(range(20))) != SeededChance(9).shuffle(1,
                                                                                  list(range(20)))


# -- events -------------------------------------------------------------------------

def test_every_discard_and_payment_is_told_in_order() -> None:
    state = game("nymj", 4).new_match(3)
    play(state, 100_000, "greedy")
    kinds = [e.kind for e in state.events]
    assert kinds[0] is EventKind.DEALT and kinds[-1] is EventKind.MATCH_ENDED
    assert [e.number for e in state.events] == list(range(len(state.events)))
    discards = sum(1 for _, a in state.history if a.verb == "discard")
    assert kinds.count(EventKind.DISCARDED) == discards
    paid = [e for e in state.events if e.kind is EventKind.PAID]
    assert [(e.of(Paid).payer, e.of(Paid).payee, e.of(Paid).amount) for e in paid] == \
        [(p.payer, p.payee, p.amount) for p in state.payments]
    assert kinds.count(EventKind.ROUND_ENDED) == len(state.results) == state.round


def test_a_draw_is_told_whole_to_the_drawer_only() -> None:
    state = game("siamese", 2).new_match(1)  # East draws to open (SMJ-08)
    while not any(e.kind is EventKind.DREW for e in state.events):
        play(state, 1)
    drew = next(e for e in state.events if e.kind is EventKind.DREW)
    drawer = drew.seat
    assert drew.tiles and drew.seen_by == frozenset({drawer})
    other = 1 - drawer
    told = next(e for e in state.events_for(other) if e.kind is EventKind.DREW)
    assert told.tiles == () and told.of(Drew).count == 1
    assert next(e for e in state.events_for(drawer) if e.kind is EventKind.DREW).tiles


def test_a_charleston_pass_is_told_with_its_direction_and_received_tiles() -> None:
    state = game("mjcg", 4).new_match(2)
    phase = next(e for e in state.events if e.kind is EventKind.PHASE)
    assert phase.payload == PassBegun("pass", "right", 3, 0, False)
    while state.step is Step.PASSING and state.phase is not None and \
            state.phase == state.spec.phases[0]:
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    received = [e for e in state.events if e.kind is EventKind.RECEIVED]
    assert len(received) == 4 and all(len(e.tiles) == 3 for e in received)
    seen = state.events_for(received[0].seat)
    mine = [e for e in seen if e.kind is EventKind.RECEIVED and e.seat == received[0].seat]
    others = [e for e in seen if e.kind is EventKind.RECEIVED and e.seat != received[0].seat]
    assert mine[0].tiles and all(not e.tiles for e in others)


def test_events_replay_the_same() -> None:
    g = game("mjcg", 4)
    one, two = g.new_match(4), g.new_match(4)
    play(one, 300)
    for seat, action in one.history:
        two.apply(seat, action)
    assert [e.to_json() for e in one.events] == [e.to_json() for e in two.events]


# -- positions and clones -----------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), [("nymj", 3), ("mjcg", 4), ("siamese", 2),
                                                   ("imperial-siamese", 2)])
def test_a_position_round_trips_and_plays_on_the_same(variant: str, players: int) -> None:
    g = game(variant, players)
    state = g.new_match(7)
    for _ in range(8):
        play(state, 37)
        text = state.position()
        loaded = g.load_position(text)
        assert loaded.position() == text and loaded.digest() == state.digest()
        ahead, follower = state.clone(), loaded
        play(ahead, 25)
        for seat, action in ahead.history[len(state.history):]:
            follower.apply(seat, action)
        assert follower.digest() == ahead.digest()


def test_a_clone_is_independent() -> None:
    state = game("nymj", 4).new_match(2)
    twin = state.clone()
    seat = twin.current_players()[0]
    twin.apply(seat, twin.legal_actions(seat)[-1])
    assert twin.decisions == 1 and state.decisions == 0 and twin.digest() != state.digest()
    assert twin.spec is state.spec and twin._matcher is state._matcher


def test_a_position_of_another_game_or_a_damaged_one_is_refused() -> None:
    text = game("nymj", 4).new_match(1).position()
    with pytest.raises(PositionError, match="nymj for 4 players, not nymj for 3"):
        game("nymj", 3).load_position(text)
    doc = json.loads(text)
    doc["seats"][0]["hand"] = "ZZ"
    with pytest.raises(PositionError, match="cannot hold"):
        game("nymj", 4).load_position(json.dumps(doc))
    with pytest.raises(PositionError, match="not JSON"):
        game("nymj", 4).load_position("{")


# -- actions as text, and the table in text -------------------------------------------

def test_an_action_may_be_given_as_text() -> None:
    state = game("nymj", 4).new_match(3)
    code = state.spec.deck.code(state._seats[0].concealed()[0])
    state.apply(0, f"discard {code}")
    assert state.history[-1][1].text(state.spec.deck) == f"discard {code}"
    with pytest.raises(IllegalAction, match="cannot read the action"):
        state.apply(1, "dance")


def test_print_shows_the_table() -> None:
    state = game("nymj", 4).new_match(3)
    text = str(state)
    assert "round 1" in text and "Seat 1" in text and "wall: " in text
    assert " ".join(state.spec.deck.codes(state._seats[0].concealed())) in text


def test_a_clone_shares_no_container_it_could_change() -> None:
    """Every list, dict and seat of a clone is its own (a container added to
    the State and forgotten by clone() fails here)."""
    state = game("siamese", 2).new_match(4)
    play(state, 120)
    twin = state.clone()
    for name, value in vars(state).items():
        if isinstance(value, list | dict | set):
            assert getattr(twin, name) is not value, name
    for mine, theirs in zip(state._seats, twin._seats, strict=True):
        for name, value in vars(mine).items():
            if isinstance(value, list):
                assert getattr(theirs, name) is not value, name


def test_a_clone_copies_a_field_no_list_names() -> None:
    """What a clone copies is read off the State: a field added later (here
    by a subclass and by hand) is copied with no list to keep, and one of a
    kind clone() cannot tell how to copy is refused, not shared."""
    class Kept(State):
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.noted: dict[int, list[int]] = {0: [1]}
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    g = game("nymj", 4)
    state = Kept(g.spec, g.matcher, 5)
    state.marks = {3}  # type: ignore[attr-defined]
    twin = state.clone()
    twin.noted[0].append(2)
    twin.marks.add(4)
    assert state.noted == {0: [1]} and state.marks == {3}  # type: ignore[attr-defined]
    assert twin.noted == {0: [1, 2]} and twin.marks == {3, 4}
    state.odd = bytearray(b"x")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="'odd'"):
        state.clone()


# -- kept answers ---------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), [("mjcg-advanced", 4), ("nymj", 4),
                                                   ("siamese", 2), ("imperial-siamese", 4)])
def test_a_floor_under_tiles_away_never_hides_a_rack_within_one(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rack's tiles away after a plain draw and discard are at least one
    less than before the draw, so a floor over one answers "is this rack
    within a tile?" without the matcher: each time it does, the rack is
    worked out afresh here and must indeed be two or more away."""
    floored: list[int] = []
    rack_aways = racks.rack_aways

    def checked(rules: Any, me: Any, pool: Any, last: Any, far: int,
                floors: dict[int, int] | None = None) -> dict[int, int]:
        found = rack_aways(rules, me, pool, last, far, floors)
        for rack, floor in (floors or {}).items():
            if floor > 1 and rack in found:
                assert racks.rack_away(rules, me, rack, pool, last, far) > 1
                floored.append(rack)
        return found

    monkeypatch.setattr(racks, "rack_aways", checked)
    for seed in range(2):
        play(game(variant, players).new_match(seed), 400,
             "greedy" if variant == "siamese" else "random")
    assert floored  # the floor did answer


@pytest.mark.parametrize(("variant", "players"), [("mjcg-advanced", 4), ("imperial-siamese", 4)])
def test_a_far_rack_is_not_worked_out_again_every_turn(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The matcher is asked for a rack's tiles away only when its floor no
    longer settles whether it is within a tile: far fewer times than there
    are discards times racks."""
    asked: list[int] = []
    rack_away = racks.rack_away

    def counted(*args: Any) -> int:
        asked.append(1)
        return rack_away(*args)

    monkeypatch.setattr(racks, "rack_away", counted)
    state = game(variant, players).new_match(3)
    play(state, 600)
    discards = sum(action.verb == "discard" for _, action in state.history)
    assert discards > 100 and len(asked) < discards * state.spec.racks / 2


def test_a_mah_jongg_claim_weighs_only_the_racks_within_a_tile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With several racks, whether a discard completes some of them is
    asked only of the racks within a tile of a line (a tile brings a rack at
    most one nearer), what the pool completes without it is kept until the
    pool changes, and the racks named are those the full search names."""
    pruned, full = [0], [0]
    claimable = racks.claimable_racks
    rack_lines = racks.rack_lines

    def checked(rules: Any, seat: Any, pool: Any, tile: int, mahjongs: int,
                aways: dict[int, int] | None = None, now: bool | None = None) -> list[int]:
        before = pruned[0]
        found = claimable(rules, seat, pool, tile, mahjongs, aways, now)
        if aways is not None:
            asked = pruned[0] - before
            assert found == claimable(rules, seat, pool, tile, mahjongs)
            full[0] += pruned[0] - before - asked
            pruned[0] = before + asked
        return found

    def counted(*args: Any) -> list[tuple[int, int]]:
        pruned[0] += 1
        return rack_lines(*args)

    monkeypatch.setattr(racks, "claimable_racks", checked)
    monkeypatch.setattr(racks, "rack_lines", counted)
    for seed in range(2):
        play(game("imperial-siamese", 4).new_match(seed), 500)
    assert 0 < pruned[0] < full[0] * 3 / 4


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("mjcg-advanced", 4),
                                                   ("imperial-siamese", 4)])
def test_a_claim_windows_kept_sets_are_those_worked_out_afresh(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sets a seat may claim are kept by what they read (how many of the
    tile and of the jokers it holds, up to the most a set takes, the run
    partners held, whether it is next in turn, its racks' exposures): at
    every window, the kept answer is the one worked out from the whole hand
    with nothing kept."""
    from jongg.runtime.game import claims
    set_claims = claims.set_claims
    windows: list[bool] = []

    def checked(view: Any, seat: int, tile: int) -> Any:
        found = set_claims(view, seat, tile)
        rules, me = view._rules, view._seats[seat]
        counts, joker = me.counts, rules.joker
        spec = rules.spec
        after = (view._open_discard[0] + spec.turn.direction) % spec.players == seat
        partners = tuple(p for p in claims.run_partners(view, tile) if all(counts[t] for t in p))
        must_fit = spec.claims.exposure_must_fit and not claims.misfit_offered(view)
        fresh = [rules.action("claim", claim=name, tiles=tiles, number=rack)
                 for name, tiles in rules._claim_options(
                     tile, counts[tile], counts[joker] if joker is not None else 0, after,
                     partners if rules.claim_runs else ())
                 for rack, exposures in claims.rack_exposures(me).items()
                 if not must_fit or rules.judge.allows(
                     tuple(sorted((*exposures, tuple(sorted((tile, *tiles)))))),
                     open_hands=spec.open_hands)]
        assert found == fresh
        windows.append(bool(found))
        return found

    monkeypatch.setattr(claims, "set_claims", checked)
    for seed in range(2):  # asked only where the seat is near or holds a set's tiles
        play(game(variant, players).new_match(seed), 900)
    assert len(windows) > 100 and any(windows)


def test_a_turns_discards_are_made_once_per_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every turn offers a discard of each kind held: the actions are made
    once per kind and handed out again, the same as action() makes them."""
    state = game("imperial-siamese", 4).new_match(1)
    rules, counts = state._rules, state._seats[0].counts
    first = rules.each_held("discard", counts)
    assert first == [rules.action("discard", k) for k, n in enumerate(counts) if n]
    made: list[str] = []
    monkeypatch.setattr(type(rules), "action", lambda *args, **fields: made.append("one"))
    assert rules.each_held("discard", counts) == first and made == []


def test_a_seat_with_no_set_to_make_reads_no_racks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim window reads a seat's racks (each with its exposures) only
    when the seat holds what a set of the discard needs."""
    from jongg.runtime.game import claims
    windows, read = [0], [0]
    sets_made, rack_exposures = claims.sets_made, claims.rack_exposures

    def counted_window(*args: Any) -> Any:  # every seat a window weighs asks it
        windows[0] += 1
        return sets_made(*args)

    def counted_read(*args: Any) -> Any:
        read[0] += 1
        return rack_exposures(*args)

    monkeypatch.setattr(claims, "sets_made", counted_window)
    monkeypatch.setattr(claims, "rack_exposures", counted_read)
    play(game("mjcg-advanced", 4).new_match(2), 400)
    assert windows[0] > 100 and 0 < read[0] < windows[0] / 2


def test_an_action_handed_back_is_found_without_comparing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent hands back one of the legal actions: apply() finds it as
    itself, comparing none field by field; an equal action made anew (from
    its text) is still legal."""
    from jongg.runtime.game.actions import Action
    state = game("nymj", 4).new_match(3)
    seat = state.current_players()[0]
    chosen = state.legal_actions(seat)[-1]
    compared: list[object] = []
    equal = Action.__eq__
    monkeypatch.setattr(Action, "__eq__", lambda a, b: compared.append(b) or equal(a, b))
    state.apply(seat, chosen)
    assert compared == [] and state.history[-1] == (seat, chosen)
    seat = state.current_players()[0]
    text = state.legal_actions(seat)[-1].text(state.spec.deck)
    state.apply(seat, text)
    assert compared and state.history[-1][1].text(state.spec.deck) == text
