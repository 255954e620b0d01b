"""A server short of file descriptors says so once, not once a connection.

When every descriptor is taken, asyncio's accept loop (Python 3.11) goes on
trying the rest of its backlog after the first failure: each try logs a
traceback and sets a retry of its own, so the retries multiply (a hundred
thousand tracebacks in two minutes). `Loop` stops at the first failure (one
retry a second, as asyncio means to), and `Short` says it in one line, then
at most once a minute; the server keeps serving what it holds meanwhile.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from typing import Any

SHORT = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
EVERY = 60.0  # seconds between two lines about it


class Short(logging.Filter):
    def __init__(self) -> None:
        super().__init__()
        self.said = float("-inf")
        self.quiet = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, OSError) or error.errno not in SHORT:
            return True
        now = time.monotonic()
        if now - self.said < EVERY:
            self.quiet += 1
            return False
        more = f" ({self.quiet} more since)" if self.quiet else ""
        record.msg, record.args, record.exc_info, record.exc_text = (
            f"short of file descriptors ({error.strerror}): connections wait until some "
            f"close{more}", (), None, None)
        self.said, self.quiet = now, 0
        return True


def quiet_when_short_of_files() -> None:
    short = Short()
    for name in ("asyncio", "uvicorn.error", "uvicorn"):
        logging.getLogger(name).addFilter(short)


class _Once:
    """A listening socket whose accept, after one failure for want of
    resources, says there is nothing more to accept (this time round)."""

    def __init__(self, sock: Any):
        self.sock, self.failed = sock, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)

    def accept(self) -> Any:
        if self.failed:
            raise BlockingIOError
        try:
            return self.sock.accept()
        except OSError as error:
            self.failed = error.errno in SHORT
            raise


class Loop(asyncio.SelectorEventLoop):
    """The event loop `jongg serve` runs on (uvicorn's loop="jongg.web.short:Loop")."""

    def _accept_connection(self, protocol_factory: Any, sock: Any,
                           *args: Any, **kwargs: Any) -> None:
        sock = _Once(sock.sock if isinstance(sock, _Once) else sock)
        super()._accept_connection(protocol_factory, sock, *args, **kwargs)  # type: ignore[misc]
