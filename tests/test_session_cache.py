"""The test session keeps its compiled matchers in a folder of its own, never
in the user's cache, and the processes tests start use the same folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from jongg.compiler import cache


def test_the_session_cache_is_not_the_users() -> None:
    mine = cache.cache_dir()
    assert mine != Path(platformdirs.user_cache_dir("jongg")) / "matchers"
    assert mine == Path(os.environ["JONGG_CACHE_DIR"])


def test_a_process_a_test_starts_shares_the_session_cache() -> None:
    seen = subprocess.run(
        [sys.executable, "-c", "from jongg.compiler import cache; print(cache.cache_dir())"],
        capture_output=True, text=True, check=True).stdout.strip()
    assert Path(seen) == cache.cache_dir()
