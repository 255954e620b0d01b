"""The web table's boundary in figures: `jongg serve` started as a subprocess
on a free 127.0.0.1 port, then

  memory    its resident memory before and after 100 hostile requests (one
            uploaded variant replayed under 100 spellings of its path)
  loop      the longest the event loop is held by one hostile request: a
            listing is asked every 10 ms while each request runs, and the
            slowest answer is kept (a deep upload, a fresh compile, a long
            log replayed, long names)
  files     tables opened and played under ulimit -n 100, and the lines logged

    python bench/bench_serve_boundary.py [--tree DIR] [--only memory,loop,files]

`--tree` runs another checkout's jongg (its root on PYTHONPATH), to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HEADER = {"log": "jongg", "version": 1, "players": 4, "seed": 1, "mode": "guarded",
          "digest": "", "agents": ["random"] * 4}


class Serve:
    def __init__(self, tree: str | None, data: Path, *flags: str, files: int | None = None):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if tree:
            env["PYTHONPATH"] = tree

        def limit() -> None:
            if files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [sys.executable, "-m", "jongg", "serve", "--port", "0", "--data", str(data),
             "--pace", "0", *flags], cwd=tree or None, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, preexec_fn=limit)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self.url = line.split()[2].rstrip("/")
        self.said: list[str] = []
        threading.Thread(target=self.said.extend, args=(self.process.stdout,),
                         daemon=True).start()

    def ask(self, path: str, body: Any = None) -> tuple[int, str]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def resident(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)


def memory(tree: str | None, data: Path) -> None:
    serve = Serve(tree, data)
    try:
        serve.ask("/api/rulesets", {"name": "flood.yaml",
                                    "text": "variant: flood\ntitle: Flood\nextends: mjcg\n"})
        folder = (data / "rulesets").resolve()
        before, codes = serve.resident(), {}
        for n in range(100):
            text = json.dumps({**HEADER, "variant": f"{folder}/{'./' * n}flood.yaml"}) + "\n"
            status, _ = serve.ask("/api/replays", {"name": "f.jsonl", "text": text})
            codes[status] = codes.get(status, 0) + 1
        after = serve.resident()
        print(f"memory: {before / 2**20:.0f} MiB before, {after / 2**20:.0f} MiB after 100 "
              f"spellings of one variant (answers {codes})")
    finally:
        serve.stop()


def loop(tree: str | None, data: Path) -> None:
    serve = Serve(tree, data)
    try:
        serve.ask("/api/tables")
        golden = Path(__file__).resolve().parents[1] / "tests" / "golden" / "nymj-4p.jsonl"
        long_log = golden.read_text()
        hostile = {
            "deep upload (2,000 brackets)":
                ("/api/rulesets", {"name": "deep.yaml", "text": "[" * 2000 + "]" * 2000}),
            "deep variant (2,000 brackets)":
                ("/api/rulesets", {"name": "deep2.yaml",
                                   "text": "variant: d\nx: " + "[" * 2000 + "]" * 2000}),
            "a fresh compile (a variant of mjcg)":
                ("/api/rulesets", {"name": "fresh.yaml",
                                   "text": "variant: fresh\nextends: mjcg\ntitle: Fresh\n"}),
            "a log replayed (nymj, a whole match)":
                ("/api/replays", {"name": "g.jsonl", "text": long_log}),
            "a 300-character variant name":
                ("/api/tables", {"variant": "v" * 300, "seats": ["human"]}),
        }
        for what, (path, body) in hostile.items():
            worst, done = 0.0, threading.Event()

            def ping(done: threading.Event = done) -> None:
                nonlocal worst
                while not done.is_set():
                    start = time.perf_counter()
                    serve.ask("/api/tables")
                    worst = max(worst, time.perf_counter() - start)
                    time.sleep(0.01)

            pinger = threading.Thread(target=ping)
            pinger.start()
            time.sleep(0.05)
            start = time.perf_counter()
            status, _ = serve.ask(path, body)
            took = time.perf_counter() - start
            done.set()
            pinger.join()
            print(f"loop: {what}: HTTP {status} in {took:.2f} s; the slowest listing "
                  f"meanwhile {worst * 1000:.0f} ms")
    finally:
        serve.stop()


def files(tree: str | None, data: Path) -> None:
    flags = ("--most-tables", "1000", "--most-per-address", "1000") if not tree else ()
    serve = Serve(tree, data, *flags, files=100)
    codes: dict[int, int] = {}
    try:
        body = {"variant": "nymj", "players": 3, "seats": ["human", "greedy"]}
        for _ in range(150):
            status, _ = serve.ask("/api/tables", body)
            codes[status] = codes.get(status, 0) + 1
        listed = serve.ask("/api/tables")
        fds = len(os.listdir(f"/proc/{serve.process.pid}/fd"))
        time.sleep(2)
    finally:
        serve.stop()
    time.sleep(0.5)
    print(f"files: ulimit -n 100, 150 tables asked for: answers {codes}; listing "
          f"HTTP {listed[0]}; {fds} descriptors open; {len(serve.said)} lines logged")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", help="another checkout's root, to compare")
    parser.add_argument("--only", default="memory,loop,files")
    args = parser.parse_args()
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory() as folder:
            {"memory": memory, "loop": loop, "files": files}[name](args.tree, Path(folder))


if __name__ == "__main__":
    main()
