"""The bots of a server's many tables take turns with people's messages
(jongg/web/turnstile.py): once their slice of the loop is spent, no bot
moves until the loop has read its sockets and handled what came in."""

from __future__ import annotations

import asyncio
import socket

from jongg.web.turnstile import Turnstile

BOTS = 20  # tables whose bots are busy at once


def moves_before_a_message_is_read(turnstile: Turnstile | None) -> int:
    """Bots play in a task each; one of them writes to a socket at its tenth
    move (a person's message arriving). The bots' moves made between the
    write and the loop handling the message."""
    async def main() -> int:
        loop = asyncio.get_running_loop()
        reader, writer = socket.socketpair()
        reader.setblocking(False)
        moves = 0
        sent: list[int] = []
        read: list[int] = []

        def handle() -> None:
            reader.recv(16)
            read.append(moves)
            loop.remove_reader(reader)

        loop.add_reader(reader, handle)

        async def bot(n: int) -> None:
            nonlocal moves
            while not read:
                if turnstile is None:
                    await asyncio.sleep(0)
                else:
                    await turnstile.wait()
                moves += 1
                if n == 0 and moves >= 10 and not sent:
                    writer.send(b"a move")
                    sent.append(moves)

        await asyncio.wait_for(asyncio.gather(*(bot(n) for n in range(BOTS))), 10)
        reader.close()
        writer.close()
        return read[0] - sent[0]

    return asyncio.run(main())


def test_with_the_slice_spent_a_persons_message_is_read_before_more_bots_move() -> None:
    assert moves_before_a_message_is_read(Turnstile(0.0)) <= 1
    # without it every busy table's bot moves first, and a move waits on them all
    assert moves_before_a_message_is_read(None) >= BOTS - 1


def test_a_turnstile_serves_a_new_event_loop() -> None:
    """A server started again in the same process (a new loop) is not left
    waiting for a slice the old loop never ended."""
    turnstile = Turnstile(0.0)
    assert moves_before_a_message_is_read(turnstile) <= 1
    assert moves_before_a_message_is_read(turnstile) <= 1
