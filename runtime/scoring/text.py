"""Tiles as written for the scorer: the deck's codes (`1C 2C 3C RD`), or
digits run together before a suit's code (`123C 406D`), where 0 is the red
copy of the suit's tile that has red copies (`0D`: a red 5D)."""

from __future__ import annotations

from .rules import HandScoring
from .score import ScoreInputError


def parse(rules: HandScoring, text: str, what: str) -> tuple[list[int], int]:
    """The kinds written, and how many of them are red copies."""
    deck = rules.deck
    codes = sorted((k.code for k in deck.kinds), key=len, reverse=True)
    suits = {s.code for s in deck.suits}
    red_of = {deck.kinds[k].suit: k for k in rules.dora.red}
    kinds: list[int] = []
    red = 0
    for word in text.replace(",", " ").split():
        i = 0
        while i < len(word):
            digits = i
            while digits < len(word) and word[digits].isdigit():
                digits += 1
            if digits > i and digits < len(word) and word[digits] in suits:
                suit = word[digits]
                for d in word[i:digits]:
                    if d == "0":
                        if suit not in red_of:
                            raise ScoreInputError(f"{what}: 0{suit} names a red tile, but no "
                                                  f"tile of suit {suit} has red copies here")
                        kinds.append(red_of[suit])
                        red += 1
                        continue
                    found = deck.suited(suit, int(d))
                    if found is None:
                        raise ScoreInputError(f"{what}: no tile {d}{suit} in the deck")
                    kinds.append(found.index)
                i = digits + 1
                continue
            code = next((c for c in codes if word.startswith(c, i)), None)
            if code is None:
                raise ScoreInputError(f"{what}: {word[i:]!r} is not a tile (write the deck's "
                                      f"codes, e.g. {' '.join(k.code for k in deck.kinds[:3])} "
                                      f"or 123{deck.suits[0].code})" if deck.suits else "")
            kinds.append(deck.by_code[code].index)
            i += len(code)
    return kinds, red
