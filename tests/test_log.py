"""Event logs, replay and simulate, through the CLI as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from jongg.runtime.agents.play import play_match
from jongg.runtime.game.log import LogError, replay

from .conftest import run_cli
from .rig import game


@pytest.fixture(scope="module")
def nymj_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "nymj.jsonl"
    play_match(game("nymj", 4), 5, ["random"], log=path)
    return path


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_a_log_holds_the_seed_and_the_actions_and_is_written_as_it_goes(nymj_log: Path) -> None:
    records = _lines(nymj_log)
    header = records[0]
    assert header["log"] == "jongg" and header["version"] == 1
    assert (header["variant"], header["players"], header["seed"]) == ("nymj", 4, 5)
    actions = [r for r in records if "action" in r]
    rounds = [r for r in records if r.get("event") == "round"]
    assert records[-1]["event"] == "end"
    assert len(rounds) == records[-1]["rounds"] and len(actions) == records[-1]["decisions"]
    # each round line follows the action that ended the round
    index = records.index(rounds[0])
    assert "action" in records[index - 1]


def test_replay_confirms_the_final_state_and_scores(
        nymj_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "replay", str(nymj_log))
    assert status == 0
    end = _lines(nymj_log)[-1]
    assert "same final state and scores" in out
    assert f"scores: {' '.join(map(str, end['scores']))}" in out  # type: ignore[call-overload]
    status, out, _ = run_cli(capsys, "replay", str(nymj_log), "--json")
    result = json.loads(out)
    assert result["same"] and result["complete"] and result["state"] == end["state"]


def test_a_tampered_log_is_caught(nymj_log: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    lines = nymj_log.read_text().splitlines()
    end = json.loads(lines[-1])
    end["scores"] = [s + 1 for s in end["scores"]]
    bad = tmp_path / "scores.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    status, out, err = run_cli(capsys, "replay", str(bad))
    assert status == 1 and "DIFFERS" in out and f"{bad}:{len(lines)}: the end differs" in err


def test_an_illegal_action_in_a_log_names_its_line(nymj_log: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    lines = nymj_log.read_text().splitlines()
    lines[1] = json.dumps({"seat": 2, "action": "discard R1"})  # not seat 3's turn
    bad = tmp_path / "illegal.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    status, _, err = run_cli(capsys, "replay", str(bad))
    assert status == 1 and err.startswith(f"error: {bad}:2: ") and "cannot act now" in err


@pytest.mark.parametrize("text,message", [
    ('{"log": "jongg", "version": 1, "variant": "nymj", "players": 4, "seed": 1}\n{oops\n',
     ":2:2: not JSON"),
    ('{"log": "jongg", "version": 9, "variant": "nymj", "players": 4, "seed": 1}\n',
     ":1:1: log version 9; this jongg reads version 1"),
    ('{"hello": 1}\n', ":1:1: not a jongg log"),
    ("", ": empty log"),
    ('{"log": "jongg", "version": 1, "variant": "nymj", "players": 4, "seed": 1}\n'
     '{"seat": 0, "action": "discard Q9"}\n', ":2: discard: unknown tile 'Q9'"),
])
def test_a_bad_log_gets_a_located_message_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    status, out, err = run_cli(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"error: {path}{message}"), err
    assert "Traceback" not in err


def test_a_missing_log_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "replay", "no/such/log.jsonl")
    assert status == 1 and "no/such/log.jsonl" in err


def test_an_interrupted_log_replays_to_where_it_stopped(nymj_log: Path, tmp_path: Path) -> None:
    lines = nymj_log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:60]) + "\n")
    result = replay(cut, game("nymj", 4))
    assert not result.complete and result.problems == []
    assert result.state.decisions == sum(1 for x in lines[1:60] if '"action"' in x)
    assert not result.state.is_terminal()


def test_a_changed_variant_is_reported_on_replay(nymj_log: Path, tmp_path: Path) -> None:
    header, *rest = nymj_log.read_text().splitlines()
    record = json.loads(header)
    record["digest"] = "0" * 16
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join([json.dumps(record), *rest]) + "\n")
    result = replay(changed, game("nymj", 4))
    assert any("has changed since the log was written" in p for p in result.problems)


def test_replay_refuses_a_log_of_another_game(nymj_log: Path) -> None:
    with pytest.raises(LogError):
        replay(nymj_log, game("mjcg", 4))


# -- simulate ----------------------------------------------------------------------------
def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status, out, _ = run_cli(capsys, "simulate", "nymj", "--json", "--quiet", *args)
    assert status == 0
    result: dict[str, object] = json.loads(out)
    return result


def _stable(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in ("seconds", "rounds_per_second")}


def test_simulate_summarises_matches_without_violations(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = _simulate(capsys, "--games", "6", "--seed", "3", "--players", "3")
    assert result["games"] == 6 and result["violations"] == 0 and result["players"] == 3
    seats = result["seats"]
    assert isinstance(seats, list) and len(seats) == 3
    assert sum(s["match_wins"] for s in seats) == pytest.approx(6)
    rounds = result["rounds"]
    assert isinstance(rounds, int) and 6 * 1 <= rounds <= 6 * 9
    assert result["self_drawn"] + result["by_claim"] + result["wall_games"] == rounds  # type: ignore[operator]
    for seat in seats:
        low, high = seat["ci95"]
        assert 0 <= low <= seat["match_wins"] / 6 <= high <= 1


def test_simulate_is_the_same_with_several_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    one = _simulate(capsys, "--games", "8", "--seed", "40")
    two = _simulate(capsys, "--games", "8", "--seed", "40", "--jobs", "2")
    assert _stable(one) == _stable(two)


def test_agents_randomness_derives_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    a = _simulate(capsys, "--games", "3", "--seed", "9")
    b = _simulate(capsys, "--games", "3", "--seed", "9")
    c = _simulate(capsys, "--games", "3", "--seed", "10")
    assert _stable(a) == _stable(b)
    assert a["decisions"] != c["decisions"] or a["seats"] != c["seats"]


def test_simulate_writes_logs_that_replay(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    _simulate(capsys, "--games", "2", "--seed", "70", "--log-dir", str(tmp_path))
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in logs] == ["nymj-4p-70.jsonl", "nymj-4p-71.jsonl"]
    for path in logs:
        status, out, _ = run_cli(capsys, "replay", str(path))
        assert status == 0 and "same final state" in out


def test_simulate_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "simulate", "nymj", "--games", "2", "--quiet")
    assert status == 0
    for words in ("nymj: 2 matches", "match wins", "95% interval", "mean tokens",
                  "wall games", "invariant violations: 0"):
        assert words in out


@pytest.mark.parametrize("args,message", [
    (["--agents", "genius"], "--agents: unknown agent 'genius'"),
    (["--games", "0"], "--games: give at least 1"),
    (["--players", "7"], "nymj is played by 3 to 4 players, not 7"),
])
def test_simulate_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str],
                                        message: str) -> None:
    status, _, err = run_cli(capsys, "simulate", "nymj", *args)
    assert status == 1 and message in err and "Traceback" not in err


# -- tampered logs: a message naming the line, never an internal error ---------------------
def _tampered(nymj_log: Path, tmp_path: Path, edit: str) -> Path:
    lines = nymj_log.read_text().splitlines()
    records = [json.loads(x) for x in lines]
    first_round = next(i for i, r in enumerate(records) if r.get("event") == "round")
    if edit.startswith("seat="):
        records[1]["seat"] = json.loads(edit.removeprefix("seat="))
    elif edit == "round index":
        records[first_round]["round"] = "one"
    elif edit.startswith("players="):
        records[0]["players"] = int(edit.removeprefix("players="))
    texts = [json.dumps(r) for r in records]
    if edit == "nested":
        texts[2] = "[" * 100_000 + "]" * 100_000
    elif edit == "digits":
        texts[2] = '{"seat": ' + "9" * 5000 + ', "action": "pass"}'
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(texts) + "\n")
    return path


@pytest.mark.parametrize("edit,message", [
    ("seat=null", ":2: \"seat\" must be a seat number from 0 to 3, not null"),
    ("seat=99", ":2: \"seat\" must be a seat number from 0 to 3, not 99"),
    ("seat=[1]", ":2: \"seat\" must be a seat number from 0 to 3, not [1]"),
    ("seat=\"1\"", ":2: \"seat\" must be a seat number from 0 to 3, not \"1\""),
    ("players=99", ":1: the log's game, \"nymj\" for 99 players, cannot be loaded"),
    ("players=3", ":"),  # the first action a three-player game refuses
    ("nested", ":3: not a log record (nested too deeply)"),
    ("digits", ":3: not a log record (Exceeds the limit"),
])
def test_a_tampered_log_gets_a_located_error(
        nymj_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str,
        message: str) -> None:
    path = _tampered(nymj_log, tmp_path, edit)
    status, out, err = run_cli(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"error: {path}{message}"), err
    assert re.match(rf"error: {re.escape(str(path))}:\d+: ", err)


def test_a_round_line_that_is_not_the_next_round_differs(
        nymj_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _tampered(nymj_log, tmp_path, "round index")
    status, out, err = run_cli(capsys, "replay", str(path))
    assert status == 1 and "DIFFERS" in out
    assert "round 1 differs: \"round\": the log says \"one\", the replay 0" in err


def test_a_log_without_its_round_and_end_lines_differs(
        nymj_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The actions alone replay, but the log's own records are part of it:
    a log whose round and end lines were removed is not the same game."""
    lines = nymj_log.read_text().splitlines()
    ended = [i + 1 for i in range(len(lines) - 1) if '"event":"round"' in lines[i + 1]]
    bare = tmp_path / "bare.jsonl"
    bare.write_text("\n".join(x for x in lines if '"event"' not in x) + "\n")
    status, out, err = run_cli(capsys, "replay", str(bare))
    assert status == 1 and "DIFFERS" in out and "same final state" not in out
    # each round's missing line is named where the action that ended it stands
    assert f"{bare}:{ended[0]}: this action ended round 1, but no round line follows it" in err
    assert "the log stops before the lines of" in err and "the match's end" in err


def test_a_log_that_stops_mid_match_says_where(
        nymj_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = nymj_log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:40]) + "\n")
    status, out, _ = run_cli(capsys, "replay", str(cut))
    assert status == 0 and "same final state" not in out
    assert "to where the log stops, line 40 (round " in out and "no end recorded" in out
