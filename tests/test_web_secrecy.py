"""Secrecy at the web table: every seat's socket is told only what that seat
may see.

Every seat of a table is joined through its own WebSocket and played by the
test, with random choices, through the Charleston (passes, blind passes, the
vote, the courtesy pass), claim windows, Siamese pledges and declarations.
After every action, each message each seat received is checked against a
twin of the table in which everything hidden from that seat was dealt anew
(the other seats' concealed tiles, the tiles they chose to pass or set
aside, the wall) and every secret choice of the others was changed (their
votes, their offers, their claim answers and whether they were asked at
all): the message built from the twin must be the very message the seat
received. So no other seat's concealed tile or secret choice ever reaches
it, in any message. A forged or out-of-turn action from every seat is
refused with the same words in both worlds, and changes nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from jongg.runtime.game.actions import parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import State, Step
from jongg.runtime.game.view import rendered
from jongg.web import protocol
from jongg.web.tables import HELD, refusal

from .rig import game
from .test_conformance import resample_hidden
from .webrig import open_table, seats, served


def twin(state: State, seat: int, rng: random.Random) -> State:
    """The table as it might be for all `seat` can tell: what it cannot see
    dealt anew, the others' secret answers changed; the events as they were."""
    doc = json.loads(state.position())
    resample_hidden(doc, seat, rng)
    others = [s for s in range(state.spec.players) if s != seat]
    doc["votes"] = {k: (v if int(k) == seat else rng.randrange(2))
                    for k, v in doc["votes"].items()}
    doc["offers"] = {k: (v if int(k) == seat else rng.randrange(4))
                     for k, v in doc["offers"].items()}
    if state.step is Step.CLAIMS:  # the others' answers unsaid, and every live seat asked
        doc["answers"] = {k: v for k, v in doc["answers"].items() if int(k) == seat}
        discarder = state._open_discard[0] if state._open_discard else 0
        n = state.spec.players
        order = [(discarder + i * state.spec.turn.direction) % n for i in range(1, n)]
        doc["asked"] = [s for s in order if (s == seat and seat in state._asked) or
                        (s in others and s != discarder and not state._seats[s].dead)]
    again = Game(state.spec, state._matcher).load_position(json.dumps(doc))
    again.events = list(state.events)
    return again


def forged(state: State, seat: int, rng: random.Random) -> str:
    """An action the seat may not take now: another seat's kind of move."""
    deck = state.spec.deck
    held = state._seats[seat].concealed()
    tile = deck.code(rng.choice(held)) if held else deck.kinds[0].code
    choices = [f"discard {tile}", "pass", f"pass {tile}", "vote yes", "offer 1", "declare",
               "claim mahjong", f"claim pung {tile} {tile}"]
    legal = {a.text(deck) for a in state.legal_actions(seat)}
    return rng.choice([c for c in choices if c not in legal])


def play_every_seat(tmp_path: Path, variant: str, players: int, seed: int, decisions: int,
                    strict: bool = False) -> dict[str, int]:
    rng = random.Random(f"web-secrecy/{variant}/{seed}")
    seen: dict[str, int] = {}
    with served(tmp_path) as (client, hall):
        made = open_table(client, variant, ["human"] * players, seed=seed, players=players,
                          strict=strict)
        table = hall.tables[made["id"]]
        state = table.state
        with seats(client, made) as sockets:
            told = {s: protocol.round_start(state) for s in sockets}
            latest: dict[int, dict[str, Any]] = {}
            for s, ws in sockets.items():  # the first update of each seat
                check(ws.receive_json(), state, s, told, rng, latest)
            while not state.is_terminal() and state.decisions < decisions:
                seen[str(state.step)] = seen.get(str(state.step), 0) + 1
                if rng.random() < 0.2:  # a forged action from some seat: refused, nothing moves
                    s = rng.randrange(players)
                    text = forged(state, s, rng)
                    before = state.digest(), state.decisions, len(state.events)
                    sockets[s].send_text(json.dumps({"type": "act", "action": text}))
                    answer = sockets[s].receive_json()
                    assert answer["type"] == "refused", answer
                    action = parse_action(state.spec.deck, text)
                    other = twin(state, s, rng)
                    assert answer["message"] == refusal(other, s, action,
                                                        other.legal_actions(s))
                    assert (state.digest(), state.decisions, len(state.events)) == before
                    seen["refused"] = seen.get("refused", 0) + 1
                deciding = [s for s, m in latest.items() if m["legal"]]
                assert sorted(deciding) == sorted(state.current_players())
                s = rng.choice(deciding)
                action = rng.choice(latest[s]["legal"])
                sockets[s].send_text(json.dumps({"type": "act", "action": action}))
                for t, ws in sockets.items():
                    check(ws.receive_json(), state, t, told, rng, latest, table.ending.held)
                if table.ending.held:
                    next_round(state, sockets, told, rng, latest)
                    seen["round_over"] = seen.get("round_over", 0) + 1
    return seen


def next_round(state: State, sockets: dict[int, Any], told: dict[int, int],
               rng: random.Random, latest: dict[int, dict[str, Any]]) -> None:
    """A round's end: each seat is shown the final table, frozen as it was
    (every hand is shown at a round's end) and holding nothing of the round
    dealt since; then each says next, and after the last one every seat is
    sent the next round's table, told only its own."""
    finals = [ws.receive_json() for ws in sockets.values()]
    assert all(f["type"] == "round_over" for f in finals)
    assert len({json.dumps(f["hands"]) for f in finals}) == 1  # the same table for all
    for t, hand in enumerate(finals[0]["hands"]):  # the old round's tiles, not the new one's
        assert hand["concealed"] != state.observation(t)["hand"]
    order = list(sockets)
    for i, s in enumerate(order):
        sockets[s].send_text(json.dumps({"type": "next"}))
        for t, ws in sockets.items():
            if i < len(order) - 1:
                shown = ws.receive_json()
                assert shown["type"] == "round_over" and shown["waiting"] == order[i + 1:]
            else:
                assert ws.receive_json()["type"] == "next_round"
                check(ws.receive_json(), state, t, told, rng, latest)


def check(message: dict[str, Any], state: State, seat: int, told: dict[int, int],
          rng: random.Random, latest: dict[int, dict[str, Any]], held: bool = False) -> None:
    """The message is the seat's update, and the same from any twin of the
    table (`held` at a round's end: with nothing to do until next)."""
    assert message["type"] == "update", message
    if held:  # the held update's own fields are the same for every seat and table
        assert all(message[k] == v for k, v in HELD.items())
        whole = protocol.update(state, seat, told[seat])
        message = {k: whole[k] if k in HELD else v for k, v in message.items() if k != "held"}
    # one extraction: the page's view is the seat's typed observation rendered
    assert message["view"] == rendered(state.observe(seat))
    for _ in range(2):
        other = twin(state, seat, rng)
        assert message == protocol.update(other, seat, told[seat]), \
            f"seat {seat + 1} is told something hidden from it at step {state.step}"
        assert other.observe(seat) == state.observe(seat)
    # and it is this table's (the twins' words are the same as its own)
    assert message["legal"] == [a.text(state.spec.deck) for a in state.legal_actions(seat)]
    told[seat] = message["next"]
    latest[seat] = message


@pytest.mark.clause("MJCG-07")
def test_mjcg_charleston_and_play_tell_each_seat_only_its_own(tmp_path: Path) -> None:
    """mjcg: the Charleston's passes (blind ones too), the vote, the
    courtesy pass, then discards and claim windows."""
    seen = play_every_seat(tmp_path, "mjcg", 4, 3, 160)
    for step in ("passing", "voting", "offering", "turn", "claims", "refused"):
        assert seen.get(step), f"no {step} decision was played: {seen}"


def test_nymj_claims_in_strict_mode_tell_each_seat_only_its_own(tmp_path: Path) -> None:
    """nymj in strict mode: every seat is asked in a claim window, mistakes allowed."""
    seen = play_every_seat(tmp_path, "nymj", 4, 5, 120, strict=True)
    assert seen.get("claims")
    assert seen.get("round_over"), "a round's end: the final table, then each says next"


def test_siamese_pledges_and_racks_tell_each_seat_only_its_own(tmp_path: Path) -> None:
    """siamese: the Atomic Cat pledge (a vote, then tiles set aside), racks."""
    seen = play_every_seat(tmp_path, "siamese", 2, 2, 90)
    assert seen.get("voting") and seen.get("turn")


def test_the_plain_view_is_the_observation_rendered_and_nothing_else() -> None:
    """One extraction of a seat's view: the plain data is built from the
    typed observation alone (it reads nothing of the State), so once the
    match moves on the observation still renders what the seat saw then."""
    state = game("mjcg").new_match(4)
    # through the Charleston to the first turn that began with a draw
    while state.step is not Step.TURN or "drawn" not in state.observation(state.turn):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.turn
    seen = state.observe(seat)
    then = state.observation(seat)
    assert then == rendered(seen) and then["deciding"] and then["drawn"] in then["hand"]
    state.apply(seat, state.legal_actions(seat)[-1])
    assert rendered(seen) == then != state.observation(seat)
