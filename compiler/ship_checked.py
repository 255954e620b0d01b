"""Writes compiler/shipped_cards/: the checks of jongg's own cards, at their
own decks and at every deck a shipped variant plays them with, as the cache
keeps them (compiler/checked.py), so the first check after installing reads
them instead of expanding. Run it after a change to a shipped card or deck, or
to the code a card's check runs (the compiler, the runtime's card model, the
grammar); tests/test_checked_cards.py fails until it is run:

    python -m jongg.compiler.ship_checked
"""

from __future__ import annotations

import gzip
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

from jongg.runtime.files import read_checked

from . import checked, variant
from .card import load_card
from .registry import shipped


def folder() -> Path:
    """The shipped checks' folder in this checkout."""
    return Path(str(resources.files(__package__).joinpath(checked.SHIPPED)))


def write(into: Path) -> list[str]:
    """Check every shipped card and variant afresh, in a cache of their own with
    nothing shipped read, and write each check into `into` (its old files
    gone); the problems found, which a shipped ruleset must not have."""
    problems: list[str] = []
    into.mkdir(parents=True, exist_ok=True)  # before the checks: a folder that cannot be
    saved = os.environ.get("JONGG_CACHE_DIR")  # written is said at once
    with tempfile.TemporaryDirectory(prefix="jongg-ship-") as cache:
        os.environ["JONGG_CACHE_DIR"] = cache
        checked.read_shipped = False
        variant._CARDS.clear()  # a card compiled earlier in this process is checked again
        try:
            for name in shipped("variant"):
                problems += [str(d) for d in variant.check_variant(name) if d.is_error]
            for name in shipped("card"):
                load_card(name)
            for old in into.glob("*.json.gz"):
                old.unlink()
            for path in sorted((Path(cache) / "cards").glob("*.json")):
                payload = read_checked(path)
                (into / f"{path.name}.gz").write_bytes(gzip.compress(payload, mtime=0))
        finally:
            checked.read_shipped = True
            if saved is None:
                os.environ.pop("JONGG_CACHE_DIR", None)
            else:
                os.environ["JONGG_CACHE_DIR"] = saved
    return problems


def main() -> int:
    into = folder()
    try:
        problems = write(into)
    except OSError as error:  # an installed, read-only jongg: write them in a checkout
        print(f"error: cannot write the shipped checks into {into}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(list(into.glob('*.json.gz')))} checked cards written to {into}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
