"""The front door for Python: load a card, a variant or a game by name or
path, read hands from text, match them, and play.

    import jongg
    card = jongg.load_card("sample")
    hand = card.hand("F F 2B WD 2B 6B 2C 2C 2C 2C 2D 2D J", exposed=["6D 6D J"])
    card.nearest(hand, 3)          # [<even-2: 3 away, missing F 2B 2B>, ...]
    game = jongg.load_game("nymj", players=4)
    state = game.new_match(seed=7)
    state.apply(0, "discard R3")

docs/api.md has the tour. Everything here is a thin layer over
jongg.compiler (loading, checking, compiling into the cache) and
jongg.runtime (matching, the game).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

# The compiler's services. The command line, the web table and the card lab
# reach the compiler only through this module (tests/test_layers.py holds
# them to it), so what a tool does with a ruleset a Python user can do too.
from jongg.compiler import pattern, registry
from jongg.compiler.card import check_card, load_ruleset
from jongg.compiler.card import load_card as read_card  # the card's model, not compiled
from jongg.compiler.deck import load_deck
from jongg.compiler.errors import (
    Diagnostic,
    JonggError,
    LoadError,
    UsageError,
    did_you_mean,
    suggested,
    suggestion,
)
from jongg.compiler.notation import parse as parse_pattern
from jongg.compiler.registry import shipped
from jongg.compiler.schema import schema  # a kind's JSON Schema
from jongg.compiler.source import Document, PathKey, load_file, load_text
from jongg.compiler.variant import (
    Resolved,
    check_variant,
    compile_variant,
    load_variant,
    notes,
    player_counts,
    resolve,
)
from jongg.compiler.yaku import load_hand_scoring, scoring_only, shipped_played
from jongg.present.filling import exposed_jokers, filling_text
from jongg.runtime.card import Line
from jongg.runtime.errors import counted
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import Deck, TileError, check_supply, parse_tiles

if TYPE_CHECKING:
    from jongg.compiler import cache
    from jongg.compiler.cache import cache_dir
    from jongg.compiler.game import load_game
    from jongg.runtime.matching.matcher import Match, Matcher

# Loaded when first asked for: they bring NumPy and the game, which checking a
# card or printing the help must not pay for (tests/test_cli_start.py).
_LATER = {"cache": ("jongg.compiler.cache", None),
          "cache_dir": ("jongg.compiler.cache", "cache_dir"),
          "load_game": ("jongg.compiler.game", "load_game"),
          "Match": ("jongg.runtime.matching.matcher", "Match"),
          "Matcher": ("jongg.runtime.matching.matcher", "Matcher")}


def __getattr__(name: str) -> Any:
    if name not in _LATER:
        raise AttributeError(f"module 'jongg.api' has no attribute {name!r}")
    module, attribute = _LATER[name]
    found = importlib.import_module(module)
    value = found if attribute is None else getattr(found, attribute)
    globals()[name] = value
    return value

HandLike = Hand | str


def parse_hand(deck: Deck, text: str, exposed: Iterable[str] = ()) -> Hand:
    """A hand from tile codes: concealed tiles, and exposed groups each as a
    string ("6D 6D J"); TileError names a code the deck does not have."""
    hand = Hand(tuple(sorted(parse_tiles(deck, text, what="hand"))),
                tuple(tuple(parse_tiles(deck, group, what="exposed")) for group in exposed))
    check_supply(deck, [*hand.concealed, *(t for e in hand.exposures for t in e)],
                 what="hand")
    return hand


class Card:
    """A compiled hand card: its lines, its deck, and matching."""

    def __init__(self, matcher: Matcher):
        self.matcher = matcher
        self.card = matcher.card
        self.deck = matcher.deck

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.card.lines

    def line(self, line_id: str) -> Line:
        return self.card.line(line_id)

    def hand(self, text: str, exposed: Iterable[str] = ()) -> Hand:
        """A hand of this card's deck, from tile codes."""
        return parse_hand(self.deck, text, exposed)

    def _hand(self, hand: HandLike) -> Hand:
        return self.hand(hand) if isinstance(hand, str) else hand

    def show(self, hand: HandLike) -> str:
        """A hand in tile codes: "1B 1B 2C J | 6D 6D J" (exposures after the bar)."""
        h = self._hand(hand)
        parts = [" ".join(self.deck.codes(h.concealed))]
        parts += [" ".join(self.deck.codes(e)) for e in h.exposures]
        return " | ".join(parts)

    def match(self, hand: HandLike) -> list[Match]:
        """The lines the hand completes, highest value first."""
        return list(self.matcher.completions(self._hand(hand)))

    def is_complete(self, hand: HandLike) -> Match | None:
        """The best line the hand completes (highest value), or None."""
        return self.matcher.is_complete(self._hand(hand))

    def tiles_away(self, hand: HandLike) -> list[Match]:
        """Every line the hand may still make, nearest first (ties: card order)."""
        return list(self.matcher.tiles_away(self._hand(hand)))

    def nearest(self, hand: HandLike, k: int = 5) -> list[Match]:
        """The k nearest lines."""
        return list(self.matcher.nearest(self._hand(hand), k))

    def explain(self, hand: HandLike, line_id: str) -> str:
        """How the hand fills the nearest variation of one line: J=x where a
        joker stands for x, x^ exposed, (x) missing, (x?) missing where a
        joker may go."""
        h = self._hand(hand)
        found = next((m for m in self.matcher.tiles_away(h) if m.line.id == line_id), None)
        if found is None:
            raise KeyError(f"the hand cannot make line {line_id!r} (its exposures rule it out)")
        return filling_text(exposed_jokers(found.filling(), h.exposures, self.deck))

    def __repr__(self) -> str:
        variations = sum(len(line.variations) for line in self.lines)
        return (f"<Card {self.name!r}: {len(self.lines)} lines, {variations} variations, "
                f"deck {self.deck.name}>")


def load_card(name: str, deck: str | None = None) -> Card:
    """A shipped card by name ("sample") or a card file by path, compiled
    (once: the matcher is kept in the user's cache). JonggError lists every
    problem of a card that does not compile."""
    from jongg.compiler import cache

    return Card(cache.matcher(name, deck).matcher)


# load_game(name, players=None, card=None, *, progress=None) -> Game: a shipped
# variant by name ("nymj") or a variant file by path, compiled for `players`
# (default: the variant's), with its card's matcher (jongg.compiler.game).


# load_variant(name) -> Variant: a variant's deck and card (for any player count);
# shipped(kind) -> the names of the shipped rulesets of a kind ("card", "deck",
# "variant"). Both are the compiler's own (jongg.compiler.variant, .registry).


__all__ = [
    # the front door
    "Card", "Deck", "Hand", "Match", "TileError", "load_card", "load_game", "load_variant",
    "parse_hand", "shipped",
    # for tools: checking, resolving and compiling rulesets, and the errors they raise
    "Diagnostic", "Document", "JonggError", "LoadError", "PathKey", "Resolved", "UsageError",
    "cache_dir", "check_card", "check_variant", "compile_variant", "counted", "did_you_mean",
    "load_deck", "load_file", "load_ruleset", "load_text", "notes", "parse_pattern",
    "player_counts", "schema",
    "read_card", "resolve",
    # scoring a winning hand by a variant's hand_scoring (yaku, han, fu, limits, payments)
    "load_hand_scoring", "scoring_only", "shipped_played",
    # a mistyped name's nearest match, worded once for every tool
    "suggested", "suggestion",
    # the compiler's modules a tool may use whole: compiled artifacts and their cache,
    # finding rulesets by name or path, the notation's tree, the JSON Schemas
    "cache", "pattern", "registry",
]
