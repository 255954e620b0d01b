"""Runs on Ray (the cluster extra) give what runs on this machine give: a
cluster started as users start one (`ray start --head`, 2 CPUs), joined by
`--cluster ADDRESS`, and one started by jongg itself (`--cluster local`).
Starting Ray takes seconds to minutes, so those tests are in the slow suite;
the refusals (no Ray, nobody at the address) are quick and always run. Ray
comes with the test extras (jongg[cluster]): without it these fail, never
skip."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import run_cli

LIMIT = 600  # seconds for Ray to start, or a run to end


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A Ray head on this machine, as `ray start --head --block` starts it
    (with a token of its own, as Ray now asks), and the environment that
    joins it; stopped (its process group, nothing else) at the end."""
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    temp = Path("/tmp") / f"jongg-ray-{os.getpid()}"  # short: Ray's sockets live under it
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
         "--port", str(port), "--node-ip-address", "127.0.0.1", "--num-cpus", "2",
         "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", str(temp),
         "--object-store-memory", str(80 << 20)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + LIMIT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert head.poll() is None, "ray start --head ended"
                assert time.monotonic() < deadline, "Ray did not start"
                time.sleep(0.5)
        yield f"127.0.0.1:{port}", env
    finally:
        head.send_signal(signal.SIGTERM)  # Ray drains and stops what it started
        try:
            head.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)  # Ray's sessions and logs


def _jongg(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "jongg", *args], capture_output=True,
                          text=True, env=env, timeout=LIMIT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _tables(folder: Path) -> list[dict[str, Any]]:
    data = json.loads((folder / "report.json").read_text())
    return [{k: v for k, v in t.items() if k != "resumed_rounds"} for t in data["tables"]]


def _report(env: dict[str, str], out: Path, *where: str) -> list[dict[str, Any]]:
    _jongg(env, "card", "report", "sample", "--rounds", "8", "--quiet", "-o", str(out), *where)
    return _tables(out)


@pytest.mark.slow
def test_a_card_report_on_a_ray_cluster_equals_one_on_this_machine(
        cluster: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    address, env = cluster
    here = _report(env, tmp_path / "here")
    assert _report(env, tmp_path / "ray", "--cluster", address) == here
    assert _report(env, tmp_path / "pool", "--jobs", "2") == here


@pytest.mark.slow
def test_simulate_on_a_ray_cluster_equals_simulate_here(
        cluster: tuple[str, dict[str, str]]) -> None:
    address, env = cluster

    def summary(*where: str) -> dict[str, Any]:
        result = json.loads(_jongg(env, "simulate", "nymj", "--games", "6", "--json",
                                   "--quiet", *where))
        result.pop("seconds", None)
        result.pop("games_per_second", None)
        return {k: v for k, v in result.items() if "second" not in k}

    assert summary("--cluster", address) == summary()


@pytest.mark.slow
def test_cluster_local_starts_ray_here_and_gives_the_same_report(tmp_path: Path) -> None:
    env = dict(os.environ)
    here = _report(env, tmp_path / "here")
    assert _report(env, tmp_path / "local", "--cluster", "local", "--jobs", "2") == here


# A job whose Ray worker dies (os._exit, as the OOM killer ends a process) the
# first time it reaches seed 37, or every time: run as a script, so Ray ships
# the job's class to its workers by value.
DYING = """
import os, sys
from collections import Counter
from pathlib import Path
from jongg.runs.scale import LostChunk, gather

def digits(seeds):
    return Counter(s * s % 10 for s in seeds)

class DieOnce:
    def __init__(self, marker, always):
        self.marker, self.always = marker, always
    def __call__(self, seeds):
        if 37 in seeds and (self.always or not self.marker.exists()):
            self.marker.touch()
            os._exit(9)
        return digits(seeds)

address, marker, always = sys.argv[1], Path(sys.argv[2]), sys.argv[3] == "always"
try:
    outcome = gather(DieOnce(marker, always), range(0, 80), lambda a, b: a + b,
                     cluster=address, size=4)
    print("same" if outcome.result == digits(range(0, 80)) and not outcome.partial else "wrong")
except LostChunk as error:
    print(f"lost: {error}")
"""


@pytest.mark.slow
@pytest.mark.parametrize("always", [False, True])
def test_ray_runs_again_a_chunk_whose_worker_died(
        cluster: tuple[str, dict[str, str]], tmp_path: Path, always: bool) -> None:
    """A worker lost once: Ray runs its chunk again and the answer is whole.
    Lost every time: the run stops, naming the seeds, as the local pool does."""
    address, env = cluster
    script = tmp_path / "dying.py"
    script.write_text(DYING)
    marker = tmp_path / "died"
    done = subprocess.run([sys.executable, str(script), address, str(marker),
                           "always" if always else "once"],
                          capture_output=True, text=True, env=env, timeout=LIMIT)
    assert marker.exists(), done.stderr[-2000:]  # a worker did die
    if always:
        assert "lost: " in done.stdout and "seeds 36..39" in done.stdout, done.stdout
        assert "died 3 times" in done.stdout
    else:
        # (Ray's own lines about the retry come before the script's answer)
        assert done.stdout.strip().splitlines()[-1] == "same", (done.stdout, done.stderr[-2000:])


def test_an_address_where_nothing_answers_is_refused_at_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    port = _free_port()  # free: nothing listens there
    status, _, err = run_cli(capsys, "card", "report", "sample", "--rounds", "1", "--quiet",
                             "-o", str(tmp_path / "r"), "--cluster", f"127.0.0.1:{port}")
    assert status == 1
    assert f"--cluster 127.0.0.1:{port}: nothing answers there" in err
    assert "ray start --head" in err


def test_without_ray_cluster_says_how_to_install_it(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as without the extra
    status, _, err = run_cli(capsys, "card", "report", "sample", "--rounds", "1", "--quiet",
                             "-o", str(tmp_path / "r"), "--cluster", "local")
    assert status == 1 and "--cluster: Ray is not installed" in err
    assert "pip install 'jongg[cluster]'" in err
