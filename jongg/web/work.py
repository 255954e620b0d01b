"""Long work off the event loop: compiling a variant, checking an upload,
replaying a log. It runs on one thread of its own, one job at a time (the
compiler's caches are not shared between threads), while the loop goes on
serving every table; a request waits for its answer a bounded time, and
only a bounded number of requests may wait at once (Busy: the request is
refused, nothing is queued beyond that)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """Work refused or given up on; the message says why."""


class Worker:
    def __init__(self, *, waiting: int = 8, seconds: float = 30.0):
        self.most = waiting  # jobs queued or running at once
        self.seconds = seconds  # how long a request waits for its answer
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="jongg-work")
        self.jobs = 0

    async def run(self, job: Callable[[], T]) -> T:
        if self.jobs >= self.most:
            raise Busy(f"the server is busy with {self.jobs} compiles; try again shortly")
        self.jobs += 1
        future = asyncio.get_running_loop().run_in_executor(self.pool, job)
        future.add_done_callback(self._done)  # counted until it ends, not until given up
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.seconds)
        except TimeoutError:
            raise Busy(f"this took longer than {self.seconds:g} s; try a smaller file") from None

    def _done(self, future: asyncio.Future[Any]) -> None:
        self.jobs -= 1
        if not future.cancelled():
            future.exception()  # a job given up on: its failure is not news

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
