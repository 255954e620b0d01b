"""Random and mutated logs fed to `jongg replay` and `jongg play --resume`:
every one ends in a result or in a message naming the log, never a
traceback or an internal error. A few hundred examples by default, many
more under -m slow."""

from __future__ import annotations

import io
import json
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from jongg import terminal
from jongg.cli import main
from jongg.commands import game as game_commands
from jongg.compiler.game import load_game
from jongg.runtime.game.game import Game
from jongg.runtime.game.state import Mode

from .rig import game


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@cache
def saved_game() -> tuple[str, ...]:
    """The lines of a short game a person played at the terminal: the header
    names a human seat, so it resumes."""
    typed = iter(["1"] * 6)

    def read(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            raise EOFError
        return answer

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "base.jsonl"
        table = terminal.start(game("nymj", 4), seat=0, agents=["greedy"], seed=11,
                               mode=Mode.GUARDED, log=path, console=Console(file=io.StringIO()),
                               fast=True, read=read)
        with pytest.raises(terminal.Quit):
            table.play()
        table.writer.close()
        return tuple(path.read_text().splitlines())


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)
KEYS = st.sampled_from(["log", "version", "variant", "players", "seed", "mode", "digest",
                        "agents", "seat", "action", "event", "round", "winner", "scores"])
VALUES = JSON | st.sampled_from(["nymj", "mjcg", "human", "greedy", "discard R1", "pass",
                                 "round", "end", ["human", "greedy", "greedy", "greedy"], 3, 4,
                                 -1, 10 ** 30])


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """The saved game, changed a few times: lines dropped, repeated, swapped,
    replaced; a key given any JSON value or taken away; bytes cut or added."""
    lines = list(saved_game())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "swap", "text", "set", "unset", "cut",
                                    "bytes"]))
        if how == "drop" and len(lines) > 1:
            del lines[at]
        elif how == "repeat":
            lines.insert(at, lines[at])
        elif how == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif how == "text":
            lines[at] = draw(st.text(max_size=40))
        elif how in ("set", "unset"):
            try:
                record: Any = json.loads(lines[at])
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            key = draw(KEYS)
            if how == "set":
                record[key] = draw(VALUES)
            else:
                record.pop(key, None)
            lines[at] = json.dumps(record)
    data = ("\n".join(lines) + "\n").encode()
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]
    if draw(st.integers(0, 9)) == 0:
        data += draw(st.binary(max_size=20))
    return data


def _run(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> None:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, err
    assert status in (0, 1), (status, err)
    if status == 1:
        assert str(path) in err, err  # the message names the log


@cache
def _compiled(variant: str, players: int | None) -> Game:
    return load_game(variant, players)


def _game(variant: str, players: int | None, progress: object = None) -> Game:
    return _compiled(variant, players)


def _fuzz(data: bytes, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> None:
    # the game a header names is compiled once (what is fuzzed is the log)
    monkeypatch.setattr(game_commands, "load_game", _game)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_bytes(data)
        _run(capsys, path, "replay", str(path))
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
        _run(capsys, path, "play", "--resume", str(path), "--fast")
        _run(capsys, path, "replay", str(path))  # what resume wrote replays too


@fuzz(90)
@given(data=mutated())
def test_mutated_logs_end_in_a_result_or_a_located_message(
        data: bytes, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz(data, capsys, monkeypatch)


@fuzz(60)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_random_bytes_as_a_log_end_in_a_located_message(
        data: bytes, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz(data, capsys, monkeypatch)


@pytest.mark.slow
@fuzz(5000)
@given(data=mutated())
def test_many_mutated_logs(data: bytes, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz(data, capsys, monkeypatch)
