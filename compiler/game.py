"""Loading a playable game: the variant compiled for a player count, and its
card's matcher from the cache."""

from __future__ import annotations

from jongg.runtime.game.game import Game
from jongg.runtime.matching.building import Progress

from . import cache
from .variant import compile_variant, resolve
from .yaku import refuse_unplayed


def load_game(name: str, players: int | None = None, card: str | None = None, *,
              progress: Progress | None = None) -> Game:
    """The game `name` (shipped name or path) at `players` (default: the
    variant's default count), with its own card or `card`. SemanticError
    lists every problem. `progress` hears (done, total) while the card's
    per-suit tables are built (once; the cache keeps them)."""
    spec = compile_variant(name, players, card)  # its deck may change with the player count
    refuse_unplayed(resolve(name))  # a scoring-only variant is scored, not played
    compiled = cache.matcher(spec.card, spec.deck_source, open_hands=spec.open_hands,
                             flags=spec.card_flags)
    compiled.matcher.prepare(cache.tables_dir(), progress=progress)
    return Game(spec, compiled.matcher)
