"""Games at the terminal keep their logs: a new game never replaces a saved
one, a full disk or a torn last line loses nothing but that line, two jongg
never append to one game, and a damaged log gets a message naming its line.
Played in-process, typed lines coming from a replaced stdin."""

from __future__ import annotations

import io
import json
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from jongg.cli import main
from jongg.runtime.game.log import LogWriter

from .conftest import run_cli
from .rig import game


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
         typed: str = "quit\n") -> tuple[int, str, str]:
    """`jongg play ...` with `typed` as what the person types."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return run_cli(capsys, "play", *argv)


def resume_hint(out: str) -> list[str]:
    """The resume command printed, as the shell would split it."""
    found = re.search(r"resume with: (jongg play --resume .*)$", out, re.MULTILINE)
    assert found, out[-500:]
    return shlex.split(found.group(1))


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def saved(here: Path, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game a person played a few turns of, and quit."""
    status, _, _ = play(capsys, monkeypatch, "nymj", "--fast", "--seed", "8", "--log",
                        "saved.jsonl", typed="1\n1\n1\nquit\n")
    assert status == 0
    return here / "saved.jsonl"


# -- a new game never replaces a saved one ----------------------------------------------
def test_a_new_game_gets_a_fresh_seed_and_a_fresh_log(
        here: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, "nymj", "--fast", typed="1\n1\nquit\n")
    assert status == 0
    first = next(here.glob("jongg-nymj-*.jsonl"))
    kept = first.read_bytes()
    seed = int(re.search(r"; seed (\d+)\b", out).group(1))  # type: ignore[union-attr]
    assert json.loads(kept.splitlines()[0])["seed"] == seed
    status, out, _ = play(capsys, monkeypatch, "nymj", "--fast")
    assert status == 0
    logs = sorted(here.glob("jongg-nymj-*.jsonl"))
    assert len(logs) == 2 and first.read_bytes() == kept  # the saved game is untouched


def test_a_fresh_name_is_found_beside_a_log_of_the_same_seed(
        here: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "jongg-nymj-4.jsonl").write_text("a saved game\n")
    status, out, _ = play(capsys, monkeypatch, "nymj", "--fast", "--seed", "4")
    assert status == 0 and "written to jongg-nymj-4-2.jsonl" in out
    assert (here / "jongg-nymj-4.jsonl").read_text() == "a saved game\n"


def test_log_on_a_file_that_is_there_is_refused_unless_overwrite(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept = saved.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "nymj", "--fast", "--log", "saved.jsonl"]) == 1
    err = capsys.readouterr().err
    assert "--log: saved.jsonl is there already" in err
    assert f"jongg play --resume {saved}" in err and "--overwrite" in err
    assert saved.read_bytes() == kept
    status, out, _ = play(capsys, monkeypatch, "nymj", "--fast", "--seed", "3", "--log",
                          "saved.jsonl", "--overwrite")
    assert status == 0 and json.loads(saved.read_text().splitlines()[0])["seed"] == 3


def test_the_resume_hint_works_from_any_folder_and_any_name(
        here: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A name with brackets (rich markup) and a space (the shell)."""
    status, out, _ = play(capsys, monkeypatch, "nymj", "--fast", "--seed", "2", "--log",
                          "game[red] one.jsonl")
    assert status == 0
    assert resume_hint(out) == ["jongg", "play", "--resume", str(here / "game[red] one.jsonl")]
    assert "written to game[red] one.jsonl" in out


def test_log_into_a_missing_folder_is_named(here: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, _, err = run_cli(capsys, "play", "nymj", "--fast", "--log", "no/such/g.jsonl")
    assert status == 1 and err.startswith("error: --log: no/such/g.jsonl: no folder 'no/such'")


# -- a torn last line, a full disk, two jongg on one game -----------------------------------
def test_a_torn_last_line_replays_up_to_it_and_resume_cuts_it_first(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    whole = saved.read_bytes()
    lines = whole.count(b"\n")
    saved.write_bytes(whole + b'{"seat":0,"acti')
    status, out, err = run_cli(capsys, "replay", str(saved))
    assert status == 0 and "every recorded round agrees" in out
    assert f"{saved}:{lines + 1}: the last line is cut short" in err
    status, out, err = play(capsys, monkeypatch, "--resume", str(saved), "--fast",
                            typed="1\nquit\n")
    assert status == 0 and "resuming nymj" in out
    assert err.index("cut short") < err.index(f"{saved}:{lines + 1}: cutting the torn line off")
    grown = saved.read_bytes()
    assert grown.startswith(whole) and grown.endswith(b"\n")
    for line in grown.splitlines():
        json.loads(line)  # every line whole
    assert run_cli(capsys, "replay", str(saved))[0] == 0


def test_a_last_line_without_its_newline_is_whole_and_resume_ends_it(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    whole = saved.read_bytes()
    saved.write_bytes(whole[:-1])
    status, out, err = run_cli(capsys, "replay", str(saved))
    assert status == 0 and "has no newline; read as whole" in err
    status, _, _ = play(capsys, monkeypatch, "--resume", str(saved), "--fast",
                        typed="1\nquit\n")
    assert status == 0
    grown = saved.read_bytes()
    assert grown.startswith(whole) and len(grown) > len(whole)
    for line in grown.splitlines():
        json.loads(line)


def _file_limit(limit: int) -> None:
    """In the child: files may not grow past `limit` bytes (as a full disk
    would refuse), and writing past it is an error, not a signal."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs RLIMIT_FSIZE")
def test_a_full_disk_stops_the_game_cleanly_and_it_resumes(
        here: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game("nymj")  # compiled into the cache first: only the log grows in the child
    done = subprocess.run([sys.executable, "-m", "jongg", "play", "nymj", "--fast", "--seed",
                           "6", "--log", "full.jsonl"], input="1\n" * 400, text=True,
                          capture_output=True, cwd=here, timeout=600,
                          # no bytecode either: one written past the limit is cut short,
                          # and the next Python to read it fails
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
                          preexec_fn=lambda: _file_limit(1500))
    assert done.returncode == 1, done.stderr
    assert "full.jsonl: the log cannot be written: File too large" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    hint = re.search(r"resume with: (jongg play --resume \S+)\)", done.stderr)
    assert hint and shlex.split(hint.group(1))[-1] == str(here / "full.jsonl")
    log = (here / "full.jsonl").read_bytes()
    assert log.endswith(b"\n") and len(log) <= 1500  # the partial line was cut
    status, out, _ = run_cli(capsys, "replay", "full.jsonl")
    assert status == 0
    status, out, _ = play(capsys, monkeypatch, "--resume", "full.jsonl", "--fast",
                          typed="1\nquit\n")
    assert status == 0 and "resuming nymj" in out


def test_a_game_open_in_another_jongg_is_refused(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept = saved.read_bytes()
    other = LogWriter.reopen(saved)  # as the other jongg holds it
    try:
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        status, _, err = run_cli(capsys, "play", "--resume", str(saved), "--fast")
    finally:
        other.close()
    assert status == 1 and "this game is open in another jongg" in err
    assert saved.read_bytes() == kept
    assert play(capsys, monkeypatch, "--resume", str(saved), "--fast")[0] == 0


def test_a_crash_in_play_still_says_how_to_resume(
        here: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from jongg import terminal

    def broken(self: terminal.TerminalGame) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(terminal.TerminalGame, "hint", broken)
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\n"))
    assert main(["play", "nymj", "--fast", "--seed", "1", "--log", "c.jsonl"]) == 3
    err = capsys.readouterr().err
    assert f"resume with: jongg play --resume {here / 'c.jsonl'}" in err
    assert "internal error: RuntimeError: a bug" in err


# -- a damaged log named by its line ------------------------------------------------------
def _edited(saved: Path, line: int, change: dict[str, object] | None = None,
            drop: tuple[str, ...] = ()) -> None:
    records = [json.loads(x) for x in saved.read_text().splitlines()]
    for key in drop:
        del records[line - 1][key]
    records[line - 1].update(change or {})
    saved.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.parametrize("line,change,drop,message", [
    (1, {"agents": ["human", "genius", "greedy", "greedy"]}, (),
     ":1: the header names the agent 'genius', which this jongg does not have"),
    (1, {"agents": ["human", "greedy"]}, (), ":1: the header names 2 agent(s) for 4 players"),
    (1, {"agents": ["human", "human", "greedy", "greedy"]}, (),
     ":1: the header seats a person at seats 1, 2"),
    (1, {"seed": 9}, (), ":2: "),
    (1, {"players": 99}, (), ":1: the log's game, \"nymj\" for 99 players, cannot be loaded"),
    (1, {"agents": "human"}, (), ":1:1: a header without a valid \"agents\""),
    # a mode that cannot even be looked up (a list is unhashable) is still the header's fault
    (1, {"mode": ["strict"]}, (), ":1:1: a header without a valid \"mode\""),
    (1, {"mode": {"x": 1}}, (), ":1:1: a header without a valid \"mode\""),
    (2, {}, ("seat",), ":2: \"seat\" must be a seat number from 0 to 3, not nothing"),
    (2, {"seat": None}, (), ":2: \"seat\" must be a seat number from 0 to 3, not null"),
    (2, {"seat": 99}, (), ":2: \"seat\" must be a seat number from 0 to 3, not 99"),
    (2, {"seat": [1]}, (), ":2: \"seat\" must be a seat number from 0 to 3, not [1]"),
    (2, {"action": 5}, (), ":2: \"action\" must be an action's text, not 5"),
])
def test_resume_names_the_line_of_a_damaged_log(
        saved: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        line: int, change: dict[str, object], drop: tuple[str, ...], message: str) -> None:
    _edited(saved, line, change, drop)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, out, err = run_cli(capsys, "play", "--resume", str(saved), "--fast")
    assert status == 1 and f"{saved}{message}" in err, err


def test_a_missing_seat_number_is_a_located_error_in_replay_too(
        saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edited(saved, 3, drop=("seat",))
    status, _, err = run_cli(capsys, "replay", str(saved))
    assert status == 1 and err.startswith(f"error: {saved}:3: \"seat\" must be a seat number")


def test_only_resume_log_is_given_with_resume(saved: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, _, err = run_cli(capsys, "play", "--resume", str(saved), "--seed", "3")
    assert status == 1 and "--resume: the log holds the game (--seed cannot change it)" in err


def test_the_play_help_names_the_new_options() -> None:
    done = subprocess.run([sys.executable, "-m", "jongg", "play", "--help"],
                          capture_output=True, text=True, env=dict(os.environ, COLUMNS="100"))
    assert "--overwrite" in done.stdout, done.stderr
    assert "a fresh random one, printed" in done.stdout
