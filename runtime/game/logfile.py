"""The file under a game log: created without replacing another, locked while
a game writes it, and written a whole line at a time.

A new log is created exclusively (an existing file is refused unless the
caller asked to overwrite it); a game that writes a log holds an exclusive
lock on it (`flock`, where the system has it), so a second jongg cannot
append to the same game. A write that fails (a full disk) is undone back to
the last whole line where the file can be cut, so the log still ends on a
whole record.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

try:
    import fcntl
except ImportError:  # no flock here: logs are not locked
    fcntl = None  # type: ignore[assignment]


class LogFileError(OSError):
    """A log file that cannot be opened, locked or written; the message says why."""


class LogExists(LogFileError):
    """A new log would replace a file that is there."""


class LogLocked(LogFileError):
    """Another process is writing this game."""


def _opened(path: Path, flags: int) -> int:
    try:
        return os.open(path, flags, 0o666)
    except FileExistsError:
        raise LogExists(f"{path}: a file is there already") from None
    except FileNotFoundError:
        where = f"no folder {str(path.parent)!r}" if not path.parent.is_dir() else "no such file"
        raise LogFileError(f"{path}: {where}") from None
    except IsADirectoryError:
        raise LogFileError(f"{path}: a folder, not a file") from None
    except OSError as error:
        raise LogFileError(f"{path}: {error.strerror or error}") from None


def held_alone(fd: int) -> bool:
    """Lock the open file `fd` for this process alone; False (and `fd`
    closed) when another holds it. Where there are no locks (no flock, or a
    file system without them) it goes on unlocked."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except OSError:
            pass
    return True


def _locked(fd: int, path: Path) -> int:
    if not held_alone(fd):
        raise LogLocked(f"{path}: this game is open in another jongg")
    return fd


def create(path: Path, *, overwrite: bool = False) -> int:
    """A new, empty log file, locked; LogExists when a file is there and
    `overwrite` is not given."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    fd = _locked(_opened(path, flags if overwrite else flags | os.O_EXCL), path)
    if overwrite and stat.S_ISREG(os.fstat(fd).st_mode):
        os.ftruncate(fd, 0)  # only once the lock is ours: never under another game
    return fd


def reopen(path: Path) -> int:
    """An existing log, locked, to read and then append to."""
    fd = _opened(path, os.O_RDWR | os.O_APPEND)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LogFileError(f"{path}: not a regular file")
    return _locked(fd, path)


def read_all(fd: int) -> bytes:
    chunks = []
    offset = 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def cut(fd: int, size: int) -> None:
    """Keep the first `size` bytes (a torn last line goes)."""
    os.ftruncate(fd, size)


def append(fd: int, path: Path, data: bytes) -> None:
    """Append `data` whole; when the write fails, cut what part of it was
    written (where the file can be cut) and raise LogFileError."""
    start = os.fstat(fd).st_size
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError as error:
        with contextlib.suppress(OSError):  # else left torn: readers stop at the last whole line
            os.ftruncate(fd, start)
        raise LogFileError(f"{path}: the log cannot be written: "
                           f"{error.strerror or error}") from None


def close(fd: int) -> None:
    """Close, making what was written durable first."""
    try:
        os.fsync(fd)
    except OSError:
        pass  # a device or a pipe: nothing to make durable
    finally:
        os.close(fd)
