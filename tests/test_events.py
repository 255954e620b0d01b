"""Typed event payloads (runtime/game/events.py): each kind of event says
what it says in a frozen dataclass of its own, which front ends and tests
read field by field; the JSON form the web table is sent is as before."""

from __future__ import annotations

import hashlib
import json

import pytest

from jongg.runtime.agents.play import play_match
from jongg.runtime.game import events as ev
from jongg.runtime.game.events import PAYLOADS, Event, EventKind, Payload

from .rig import game

# The events of these seeded matches as JSON (everything, and as seat 1 is told
# it), written by the events of before the payloads were typed: the same bytes.
SENT = {"mjcg-4": "4074efc262bce9e4", "siamese-2": "8b5dcb8367093cfd",
        "royale-siamese-4": "9e47ed69ce1c3293", "nymj-3": "b72b16129725ea9e",
        "mjcg-card-5": "56bd7197113a4124"}


@pytest.mark.parametrize("name", sorted(SENT))
def test_the_events_json_is_byte_for_byte_as_before(name: str) -> None:
    variant, _, players = name.rpartition("-")
    _, state = play_match(game(variant, int(players)), 3, ("greedy",))
    text = "\n".join(json.dumps(e.to_json()) for e in state.events)
    seat = "\n".join(json.dumps(e.for_seat(1).to_json()) for e in state.events)
    assert hashlib.sha256((text + seat).encode()).hexdigest()[:16] == SENT[name]


def test_every_kind_has_its_payload_and_every_event_carries_its_kinds() -> None:
    assert set(PAYLOADS) == set(EventKind)
    _, state = play_match(game("siamese", 2), 3, ("greedy",))
    kinds = {e.kind for e in state.events}
    assert {EventKind.PHASE, EventKind.DREW, EventKind.DECLARED, EventKind.ROUND_ENDED} <= kinds
    for e in state.events:
        assert isinstance(e.payload, Payload) and e.payload.kind is e.kind
        assert e.detail == {k: v for k, v in e.to_json().items()
                            if k not in ("n", "kind", "seat", "tiles")}


def test_a_payload_reads_as_its_kind_and_refuses_another() -> None:
    drew = Event(0, ("5B",), ev.Drew(wall=40), frozenset({0}))
    assert drew.of(ev.Drew).wall == 40
    assert drew.for_seat(1).of(ev.Drew).count == 1 and drew.for_seat(1).tiles == ()
    with pytest.raises(TypeError, match="a drew event, not discarded"):
        drew.of(ev.Discarded)
    with pytest.raises(TypeError):
        ev.Drew(walls=40)  # type: ignore[call-arg]  # a field no drew event has
