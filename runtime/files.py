"""Files written whole or not at all, and checked files: the cache's
(matchers, tables, checked cards). No NumPy here, so a card check can keep
what it found without loading it.

A write goes to a temporary name of the writing process's own in the target's
folder, is flushed and fsynced, renamed over the target and the folder is
fsynced: a reader (another process, or this one after a power loss) finds
the old file or the new one whole, never a mixture or a torn one, and two
processes writing the same entry at once each rename a whole file of their own.

A checked file carries a SHA-256 of its payload, verified before a byte of it
is used: a file damaged on disk, emptied by a crash or cut short reads as
`Damaged` with the reason, and its owner builds it again.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from pathlib import Path

MAGIC = b"jongg-checked 1\n"  # then the payload's SHA-256 in hex, a newline, the payload
_DIGEST = 64


class Damaged(ValueError):
    """A cached file that cannot be trusted; the message says why."""


def regular_file(path: Path | str) -> Path:
    """`path`, when it names a regular file: a FIFO or a device would block a
    read or never end it. FileNotFoundError when absent, Damaged when not a file."""
    path = Path(path)
    mode = path.stat().st_mode
    if not stat.S_ISREG(mode):
        raise Damaged(f"{path}: not a regular file")
    return path


def write_all(fd: int, data: bytes) -> None:
    """Every byte of `data` to the new file `fd` (short writes continued),
    made durable, and the file closed, whatever happens."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` whole or not at all, and durably."""
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        write_all(fd, data)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` survive a power loss (where folders can be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is atomic
    finally:
        os.close(fd)


def write_checked(path: Path | str, payload: bytes) -> None:
    digest = hashlib.sha256(payload).hexdigest().encode()
    write_atomic(path, MAGIC + digest + b"\n" + payload)


def read_checked(path: Path | str) -> bytes:
    """The payload of a checked file; Damaged when it is not one, or its digest
    does not match (FileNotFoundError when there is no file)."""
    data = regular_file(path).read_bytes()
    if not data:
        raise Damaged(f"{path}: an empty file")
    head = len(MAGIC) + _DIGEST + 1
    if not data.startswith(MAGIC) or len(data) < head or data[head - 1:head] != b"\n":
        raise Damaged(f"{path}: not a checked jongg file")
    payload = memoryview(data)[head:]
    if hashlib.sha256(payload).hexdigest().encode() != data[len(MAGIC):head - 1]:
        raise Damaged(f"{path}: damaged (checksum mismatch)")
    return bytes(payload)
