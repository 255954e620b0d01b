"""Where jongg keeps what it builds: `platformdirs.user_cache_dir("jongg")`,
or JONGG_CACHE_DIR when set (never inside site-packages, which may be
read-only). A light module, so that a command which only reads a card can
find the cache without loading the matcher."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_dir() -> Path:
    """Compiled matchers."""
    override = os.environ.get("JONGG_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir("jongg")) / "matchers"


def tables_dir() -> Path:
    """Per-suit tables of structural lines (shared by cards)."""
    return cache_dir() / "tables"


def grammar_file(name: str) -> Path:
    """The hand notation's parser, analysed once (a parser's analysis of the
    grammar is most of a card check's start); keyed by the parsing library's
    version and Python's, and checked against the grammar's digest when read."""
    import sys

    import lark

    folder = cache_dir() / "grammar"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}"
