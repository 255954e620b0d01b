"""The cycle collector held back while a match is played (runtime/collector.py):
raised in the match, put back after, shared by nested and concurrent
matches, never turned off, and a caller's own setting kept."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator

import pytest

from jongg.compiler.game import load_game
from jongg.runtime import collector
from jongg.runtime.agents.bots import RandomAgent
from jongg.runtime.agents.play import play_first_round, play_match
from jongg.runtime.agents.referee import AgentFailed
from jongg.runtime.collector import YOUNG, fewer_collections
from jongg.runtime.game.actions import Action
from jongg.runtime.game.view import Observation


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    """Each test starts from Python's defaults and leaves them as it found them."""
    found = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*found)


class Watching:
    """A random agent that notes the collector's thresholds at each decision."""

    name = "watching"

    def __init__(self, seat: int) -> None:
        self.inner = RandomAgent(3, seat)
        self.seen: set[tuple[int, int, int]] = set()

    def act(self, observation: Observation, legal: list[Action]) -> Action:
        self.seen.add(gc.get_threshold())
        return self.inner.act(observation, legal)


def test_a_match_collects_the_young_rarely_and_puts_the_threshold_back() -> None:
    game = load_game("nymj")
    seats = [Watching(s) for s in range(4)]
    play_match(game, 3, seats)
    assert set().union(*(s.seen for s in seats)) == {(YOUNG, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)
    watcher = Watching(0)
    play_first_round(game, 3, [watcher])
    assert watcher.seen == {(YOUNG, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_failing_match_puts_the_threshold_back() -> None:
    class Failing:
        name = "failing"

        def act(self, observation: Observation, legal: list[Action]) -> Action:
            raise RuntimeError("an agent's bug")

    with pytest.raises(AgentFailed, match="an agent's bug"):
        play_match(load_game("nymj"), 1, [Failing()])
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_and_concurrent_matches_share_one_raise() -> None:
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold()[0] == YOUNG
        assert gc.get_threshold()[0] == YOUNG  # the outer block still runs
    assert gc.get_threshold() == (700, 10, 10)
    # two threads whose blocks overlap: the first ends while the second runs
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    during: list[int] = []

    def first() -> None:
        with fewer_collections():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with fewer_collections():
            second_in.set()
            first_out.wait(5)
            during.append(gc.get_threshold()[0])

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert during == [YOUNG]  # not put back under the second's feet
    assert gc.get_threshold() == (700, 10, 10)
    assert collector._open == 0


def test_a_callers_own_setting_is_kept() -> None:
    gc.set_threshold(0)  # the caller turned automatic collection off
    with fewer_collections():
        assert gc.get_threshold()[0] == 0
    gc.set_threshold(YOUNG * 2, 5, 5)  # rarer than ours already
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG * 2, 5, 5)
    assert gc.get_threshold() == (YOUNG * 2, 5, 5)


def test_cycles_made_in_a_match_are_still_collected() -> None:
    """The collector is held back, not off: garbage in a cycle goes once
    enough new objects are made, with no gc.collect() called."""
    class Node:
        other: object = None

    with fewer_collections():
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        assert gone() is not None  # reference counting cannot free a cycle
        made = [[] for _ in range(3 * YOUNG)]  # containers the collector tracks
        assert gone() is None
        del made
