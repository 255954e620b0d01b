"""Variants: a deck and its winning hands, with `extends:` for overrides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jongg.runtime.card import Card
from jongg.runtime.tiles import Deck

from .card import load_card, load_ruleset
from .deck import load_deck
from .errors import Diagnostic, SemanticError
from .schema import validate


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    title: str
    deck: Deck
    card: Card
    open_hands: bool = False


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def resolve(name: str, _chain: tuple[str, ...] = ()) -> dict[str, Any]:
    """The variant's data with its `extends:` chain applied."""
    doc = load_ruleset("variant", name)
    validate(doc, "variant")
    data: dict[str, Any] = doc.data
    base = data.get("extends")
    if base is None:
        return data
    if base in _chain or base == name:
        raise SemanticError([Diagnostic(doc.locate(("extends",)),
                                        f"variant {name!r} extends itself through {base!r}")])
    return _merge(resolve(base, (*_chain, name)), {k: v for k, v in data.items()
                                                   if k != "extends"})


def load_variant(name: str) -> Variant:
    data = resolve(name)
    missing = [k for k in ("deck", "win") if k not in data]
    if missing:
        raise SemanticError([Diagnostic(None, f"variant {name!r} has no {' or '.join(missing)}",
                                        hint="add it, or extend a variant that has it")])
    deck = load_deck(data["deck"])
    card = load_card(data["win"]["card"], deck=data["deck"])
    return Variant(data["variant"], data.get("title", data["variant"]), deck, card,
                   data["win"].get("open_hands", False))
