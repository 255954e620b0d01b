"""Arrays in the cache: whole and sound, or treated as absent. The files
themselves are written whole and checked by jongg.runtime.files; a damaged
one reads as `Damaged`, and its owner builds it again.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any, cast

import numpy as np

from jongg.runtime.files import Damaged as Damaged
from jongg.runtime.files import read_checked as read_checked
from jongg.runtime.files import regular_file as regular_file
from jongg.runtime.files import write_atomic as write_atomic
from jongg.runtime.files import write_checked as write_checked

notes = logging.getLogger("jongg")  # what was found damaged, said to whoever runs jongg


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
