"""`jongg simulate` as a process among others: it never replaces a log,
never starts more workers than cores, never lists its seeds whole, leaves no
worker behind when killed, and on Ctrl-C says what it finished."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from jongg.runs.simulate import cores

from .conftest import interruptible, run_cli
from .rig import game

LINUX = sys.platform.startswith("linux")


def _simulate(*args: str, **popen: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "jongg", "simulate", "nymj", "--quiet",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)  # type: ignore[call-overload]


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition: Callable[[], bool], what: str, limit: float = 300) -> None:
    """Poll until `condition` holds; fail, saying `what`, if it never does."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.2)


def _memory_limit() -> None:
    """In the child: 3 GiB of address space, so a run that lists a billion
    seeds fails at once instead of filling the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    interruptible()


# -- logs are never replaced --------------------------------------------------------------
def test_a_second_run_into_the_same_folder_is_refused_naming_the_clash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "simulate", "nymj", "--games", "2", "--seed", "70", "--quiet",
                   "--log-dir", str(tmp_path))[0] == 0
    kept = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    status, _, err = run_cli(capsys, "simulate", "nymj", "--games", "3", "--seed", "69",
                             "--quiet", "--log-dir", str(tmp_path))
    assert status == 1
    assert f"--log-dir: {tmp_path} holds logs this run would write: nymj-4p-70.jsonl, " \
           "nymj-4p-71.jsonl" in err and "a log is never replaced" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == kept
    # other seeds beside them are fine
    assert run_cli(capsys, "simulate", "nymj", "--games", "1", "--seed", "72", "--quiet",
                   "--log-dir", str(tmp_path))[0] == 0


def test_runs_at_once_into_one_folder_never_share_a_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each log is created exclusively: of two runs writing the same logs at
    once, one is refused, and every log is one match's, whole."""
    game("nymj")  # compiled once, before the runs race
    runs = [_simulate("--games", "12", "--log-dir", str(tmp_path)) for _ in range(2)]
    results = [(run.wait(timeout=600), run.communicate()) for run in runs]
    statuses = sorted(status for status, _ in results)
    assert statuses == [0, 1], results
    refused = next(err for status, (_, err) in results if status == 1)
    assert "--log-dir" in refused and "nymj-4p-" in refused and "Traceback" not in refused
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 12
    for path in logs:
        status, out, _ = run_cli(capsys, "replay", str(path))
        assert status == 0 and "same final state and scores" in out


# -- processes ----------------------------------------------------------------------------
def test_jobs_is_capped_at_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    """One more than the cores: were the cap gone, this test would start
    only that many processes (a pool started them all at once: 100000 asked
    for forked thousands)."""
    more = cores() + 1
    status, out, err = run_cli(capsys, "simulate", "nymj", "--games", "3", "--seed", "5",
                               "--json", "--quiet", "--jobs", str(more))
    assert status == 0
    assert f"--jobs {more}: this machine has {cores()} core(s) for it; using {cores()}" in err
    one = run_cli(capsys, "simulate", "nymj", "--games", "3", "--seed", "5", "--json",
                  "--quiet")[1]
    drop = ("seconds", "rounds_per_second")
    assert {k: v for k, v in json.loads(out).items() if k not in drop} == \
        {k: v for k, v in json.loads(one).items() if k not in drop}


@pytest.mark.parametrize("jobs", [1, 2])
def test_seeds_are_handed_out_as_they_are_played_not_listed(jobs: int) -> None:
    """A billion matches asked for: the first come at once, in little memory."""
    script = ("from itertools import islice\n"
              "from jongg.runs.simulate import Job, run\n"
              "from jongg.runtime.game.state import Mode\n"
              "job = Job('nymj', 4, ('random',), Mode.GUARDED, None, False)\n"
              f"print([r.seed for r in islice(run(job, 10**9, 7, {jobs}), 3)])\n")
    game("nymj")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, preexec_fn=_memory_limit)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[7, 8, 9]"


@pytest.mark.skipif(not LINUX or cores() < 2, reason="needs /proc and two cores")
def test_workers_die_with_their_parent_even_by_kill_9(tmp_path: Path) -> None:
    game("nymj")
    run = _simulate("--games", "100000", "--jobs", "2", "--log-dir", str(tmp_path))
    workers: list[int] = []
    try:
        wait_for(lambda: len(children(run.pid)) >= 2, "two workers started")
        workers = children(run.pid)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
        wait_for(lambda: not any(alive(w) for w in workers), "the workers ended", 120)
    finally:
        for w in workers:  # orphans, when the test fails: never left running
            with contextlib.suppress(ProcessLookupError):
                os.kill(w, signal.SIGKILL)
        run.kill()
        run.communicate()


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_prints_the_summary_of_the_matches_finished(tmp_path: Path, jobs: int) -> None:
    if jobs > cores():
        pytest.skip("needs two cores")
    game("nymj")
    run = _simulate("--games", "1000000000", "--jobs", str(jobs), "--json", "--log-dir",
                    str(tmp_path), preexec_fn=_memory_limit)
    try:
        wait_for(lambda: len(list(tmp_path.iterdir())) >= 3 or run.poll() is not None,
                 "three matches started")
        workers = children(run.pid) if LINUX else []
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=300)
    finally:
        run.kill()
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w, signal.SIGKILL)
    assert run.returncode == 130, err[-2000:]
    result = json.loads(out)
    assert result["partial"] is True and result["asked"] == 1_000_000_000
    if jobs == 1:
        assert result["games"] >= 2  # a match is finished when the next one starts
    assert result["games"] <= len(list(tmp_path.iterdir()))
    assert f"interrupted: {result['games']} of 1000000000 matches finished" in err
    assert "partial" in err and "Traceback" not in err
    assert not any(alive(w) for w in workers)  # stopped before the run ended
