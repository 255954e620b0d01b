"""A socket's frames past the largest a seat may send: refused with a close
frame that says so (1009, "frame with N bytes exceeds limit of ..."), and the
rest of the frame read and dropped before the connection ends. Closing at
once, with the frame's bytes still arriving, resets the connection (the
system answers unread data with a reset), and the browser, told nothing,
would show a lost connection instead of the reason."""

from __future__ import annotations

from typing import Any

LINGER = 5.0  # seconds a refused socket is read (and dropped) before it is closed

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _Base,
    )
except ImportError:  # an older uvicorn: its own protocol, as it closes
    _Base = None  # type: ignore[assignment,misc]


def protocol() -> Any:
    """uvicorn's sans-I/O WebSocket protocol, closing a refused socket
    gently (None where this uvicorn has no such protocol)."""
    if _Base is None:
        return None

    class Gentle(_Base):
        refused = False

        def data_received(self, data: bytes) -> None:
            if self.refused:
                return  # the rest of a frame already refused: dropped
            super().data_received(data)

        def handle_parser_exception(self) -> None:
            close = self.conn.close_sent
            self.queue.put_nowait({"type": "websocket.disconnect",
                                   "code": close.code if close else 1002,
                                   "reason": close.reason if close else ""})
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = self.refused = True
            if self.transport.can_write_eof():
                self.transport.write_eof()  # the close said; the peer ends the connection
            self.close_timer = self.loop.call_later(LINGER, self.transport.close)

        def eof_received(self) -> None:
            self.transport.close()

    return Gentle
