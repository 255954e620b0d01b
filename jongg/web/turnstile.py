"""Bots' moves take turns with people's messages.

One event loop serves every table of a server. Each table's bots play in a
task of their own, and a task that only yields (`sleep(0)`) between moves
goes round again before the loop reads its sockets: with a hundred tables'
bots busy, a person's move waited behind a hundred bots' moves. The
turnstile gives the bots a slice of the loop's time; once it is spent, every
bot waits until the loop has read its sockets and served the people, then
the next slice begins. A bot never waits longer than that, and the bots
together still have every moment the people leave them.
"""

from __future__ import annotations

import asyncio
import time

SLICE = 0.005  # seconds of bots' moves between two readings of the sockets


class Turnstile:
    def __init__(self, slice_seconds: float = SLICE):
        self.slice = slice_seconds
        self._began: float | None = None  # when the slice under way began (None: none yet)
        self._spent = False  # the slice is over: the next waits for the sockets' reading
        self._loop: asyncio.AbstractEventLoop | None = None  # whose slice it is

    async def wait(self) -> None:
        """Return when a bot may move: at once within the slice, else once
        the loop has served its sockets."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a new loop (a server started again): a new slice
            self._loop, self._began, self._spent = loop, None, False
        while True:
            if not self._spent:
                now = time.perf_counter()
                if self._began is None:
                    self._began = now
                    return
                if now - self._began < self.slice:
                    return
                self._spent = True
                # timers come due after the loop has polled its sockets and queued what
                # they brought, so this runs after the people's messages are handled
                loop.call_later(0, self._next_slice)
            await asyncio.sleep(0)

    def _next_slice(self) -> None:
        self._began, self._spent = None, False
