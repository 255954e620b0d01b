"""The referee: one driver of a match for every front end (runtime/agents/referee.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.runtime.agents.bots import RandomAgent
from jongg.runtime.agents.play import play_match
from jongg.runtime.agents.referee import AgentFailed, Referee
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import Event
from jongg.runtime.game.log import Header, LogWriter, read_log, replay
from jongg.runtime.game.logfile import LogFileError
from jongg.runtime.game.state import IllegalAction, Mode
from jongg.runtime.game.view import Observation, ObservationExpired

from .rig import game


def writer_for(path: Path, seed: int, names: tuple[str, ...]) -> LogWriter:
    spec = game("nymj").spec
    return LogWriter(path, Header(spec.variant, spec.players, seed, Mode.GUARDED, spec.digest,
                                  names))


def test_the_referee_plays_the_match_an_apply_loop_plays(tmp_path: Path) -> None:
    """Agents asked in the order the State names the seats deciding, each
    action applied once: the same match, action for action, as applying
    the agents' choices by hand."""
    nymj = game("nymj")
    record, played = play_match(nymj, 5, ["random"], log=tmp_path / "m.jsonl")
    state = nymj.new_match(5)
    agents = [RandomAgent(5, s) for s in range(nymj.spec.players)]
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, agents[seat].act(state.observe(seat), state.legal_actions(seat)))
    assert state.history == played.history and state.digest() == played.digest()
    assert record.decisions == len(state.history)
    assert replay(tmp_path / "m.jsonl", nymj).complete


def test_a_listener_is_told_each_action_only_once_its_log_line_is_written(
        tmp_path: Path) -> None:
    nymj = game("nymj")
    state = nymj.new_match(3)
    path = tmp_path / "m.jsonl"
    person = (state.current_players()[0] + 2) % 4  # not the first to play
    names = tuple("human" if s == person else "random" for s in range(4))
    referee = Referee(state, {s: RandomAgent(3, s) for s in range(4) if s != person},
                      writer=writer_for(path, 3, names))
    told: list[list[Event]] = []

    def hear(events: list[Event]) -> None:
        told.append(events)
        lines = len(read_log(path).records)
        assert lines == state.decisions  # one action line per decision, nothing more
    referee.listen(person, hear)
    referee.run()
    assert referee.waiting() == [person]  # a person decides: the referee waits
    assert state.decisions > 0 and len(told) == state.decisions + 1
    seen = [e for batch in told for e in batch]
    assert seen == state.events_for(person)  # every event once, in order, as the seat sees it
    assert all(e.tiles == () for e in seen if e.seen_by is not None and person not in e.seen_by)


def test_a_person_submits_and_an_illegal_action_changes_nothing() -> None:
    nymj = game("nymj")
    state = nymj.new_match(3)
    referee = Referee(state, {})
    seat = referee.waiting()[0]
    before = state.digest()
    with pytest.raises(IllegalAction):
        referee.submit(seat, Action("declare", 0))  # no such action is ever offered
    assert state.digest() == before and state.decisions == 0
    referee.submit(seat, state.legal_actions(seat)[-1].text(nymj.spec.deck))
    assert state.decisions == 1


class Failing:
    name = "failing"

    def __init__(self, choose: Action | None):
        self.choose = choose

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        if self.choose is None:
            raise RuntimeError("no idea")
        return self.choose


@pytest.mark.parametrize("choose", [None, Action("declare", 0)])
def test_a_failing_agent_names_its_seat_and_nothing_is_applied(choose: Action | None) -> None:
    nymj = game("nymj")
    state = nymj.new_match(3)
    seat = state.current_players()[0]
    referee = Referee(state, {seat: Failing(choose)})
    with pytest.raises(AgentFailed) as failed:
        referee.run()
    assert failed.value.seat == seat and state.decisions == 0
    assert "legal:" not in str(failed.value)  # the seat's legal actions are its secret


def test_a_log_that_cannot_be_written_stops_the_match_untold(tmp_path: Path) -> None:
    nymj = game("nymj")
    state = nymj.new_match(3)
    writer = writer_for(tmp_path / "m.jsonl", 3, ("random",) * 4)
    referee = Referee(state, {s: RandomAgent(3, s) for s in range(4)}, writer=writer)
    told: list[list[Event]] = []
    referee.listen(None, told.append)
    referee.run(until=lambda s: s.decisions >= 2)
    writer.close()  # the file gone from under the writer
    with pytest.raises(LogFileError):
        referee.run()
    assert referee.stopped is not None and not referee.going()
    assert state.decisions == 3 and len(told) == 3  # the unwritten third action is not told
    with pytest.raises(LogFileError):
        referee.submit(state.current_players()[0], state.legal_actions(
            state.current_players()[0])[0])


def test_an_agent_is_handed_a_lazy_observation_read_during_its_decision() -> None:
    """The referee's observation reads its seats off the State when first
    asked: the same observation as a settled one, while the decision lasts."""
    nymj = game("nymj")
    state = nymj.new_match(4)
    seat = state.current_players()[0]
    lazy, settled = state.observe(seat, lazy=True), state.observe(seat)
    assert lazy == settled and lazy.me == settled.me and lazy.seats == settled.seats
    unread = state.observe(seat, lazy=True)
    kept = state.observe(seat, lazy=True).settled()
    state.apply(seat, state.legal_actions(seat)[-1])
    with pytest.raises(ObservationExpired):
        unread.seats  # noqa: B018 (read for its error)
    assert kept.seats == settled.seats and kept.me == settled.me


def test_matches_of_a_game_share_its_rules_and_their_memos() -> None:
    nymj = game("nymj")
    first, second = nymj.new_match(1), nymj.new_match(2)
    assert first.rules is second.rules
    assert first.rules.memo("greedy.nearness", 10) is second.rules.memo("greedy.nearness", 10)
    assert nymj.new_match(1, Mode.STRICT).rules is not first.rules
