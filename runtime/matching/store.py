"""Files in the cache: whole and sound, or treated as absent.

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
import io
import logging
import os
import secrets
import stat
from pathlib import Path
from typing import Any, cast

import numpy as np

MAGIC = b"jongg-checked 1\n"  # then the payload's SHA-256 in hex, a newline, the payload
_DIGEST = 64
notes = logging.getLogger("jongg")  # what was found damaged, said to whoever runs jongg


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


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` whole or not at all, and durably."""
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
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


def save_array(path: Path | str, array: np.ndarray) -> None:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    write_checked(path, buffer.getvalue())


def load_array(path: Path | str) -> np.ndarray:
    """An array saved by save_array, verified; Damaged otherwise."""
    payload = read_checked(path)
    try:
        array: np.ndarray = np.load(io.BytesIO(payload), allow_pickle=False)
    except (ValueError, EOFError, OSError) as error:  # a sound digest over a foreign payload
        raise Damaged(f"{path}: not an array ({error})") from None
    return array


def save_arrays(path: Path | str, **arrays: np.ndarray) -> None:
    buffer = io.BytesIO()
    np.savez(buffer, **cast(dict[str, Any], arrays))  # names, not savez's options
    write_checked(path, buffer.getvalue())


def load_arrays(path: Path | str, *names: str) -> list[np.ndarray]:
    """The named arrays saved together by save_arrays, verified; Damaged otherwise."""
    payload = read_checked(path)
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as data:
            return [data[name] for name in names]
    except (ValueError, EOFError, OSError, KeyError, AttributeError) as error:
        raise Damaged(f"{path}: not the arrays wanted ({error})") from None


def kept_array(path: Path, rows: int, *, rebuild: bool) -> np.ndarray | None:
    """The array kept at `path` when it is there, sound and has `rows` rows;
    else None, and a damaged one is noted (to be built again, or, without
    `rebuild`, left unused)."""
    try:
        array = load_array(path)
        if array.ndim == 2 and array.shape[0] == rows:
            return array
        reason = f"{path}: shaped {array.shape}, not {rows} rows"
    except FileNotFoundError:
        return None
    except (OSError, Damaged) as error:
        reason = str(error)
    notes.warning("%s; %s", reason, "building it again" if rebuild else
                  "not used (run 'jongg compile' to build it again)")
    return None


def keep_array(path: Path, array: np.ndarray) -> None:
    """Keep an array for later runs when the cache can be written; when it
    cannot, the array serves this run alone and is built again next time."""
    try:
        save_array(path, array)
    except OSError as error:
        notes.debug("not kept: %s: %s", path, error.strerror or error)
