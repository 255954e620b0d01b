"""Actions: what a seat may do at a decision, and their text form.

Every action has one short text form, which is what logs hold and what a
person types:

    discard R3          discard a tile
    discard 5B red      discard the red copy of a kind held plain too (`dora.red.chosen`)
    declare             declare Mah Jongg
    declare 2 year-1    with several racks: declare rack 2's Mah Jongg, line year-1
    claim mahjong       claim the latest discard for Mah Jongg
    claim set R2 R4     claim it for a set, exposed with these tiles from hand
    claim set R2 R4 on 2  ... exposed on rack 2 (several racks)
    claim set           a claim the hand cannot make (strict mode: a mistake)
    pass                let the discard go
    exchange R3 2:1     give R3 for the joker in seat 2's exposure 1 (from 0)
    pass R3             pass a tile in a Charleston or courtesy pass
    vote yes|no         a secret vote
    offer 2             the tiles offered in a courtesy pass
    blind 2             pass on 2 of the tiles coming in, unseen (0: none)
    off                 go off a pledge (Atomic Cat): the tiles set aside rejoin the pool
    announce riichi 5C  discard 5C with a declaration (a scored game's `declarations`)
    kong 5C             declare a kong of 5C on one's own turn (a game with a dead wall)
    abort               end the round drawn on one's first turn (a scored game's `abortive`)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from jongg.runtime.tiles import Deck, TileError, parse_tiles

RED = "red"  # a discard's word for the red copy of its kind


@dataclass(frozen=True, slots=True, repr=False)
class Action:
    verb: str
    tile: int = -1
    tiles: tuple[int, ...] = ()
    claim: str = ""
    target: tuple[int, int] = (-1, -1)  # (seat, exposure) of an exchange
    number: int = 0  # a rack, a vote (1 yes, 0 no), an offer
    # the deck its tiles are of, when known: only to show it (not compared)
    deck: Deck | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        if self.deck is not None:
            return f"Action({self.text(self.deck)!r})"
        return (f"Action(verb={self.verb!r}, tile={self.tile}, tiles={self.tiles}, "
                f"claim={self.claim!r}, target={self.target}, number={self.number})")

    def __str__(self) -> str:
        return self.text()

    def text(self, deck: Deck | None = None) -> str:
        """The action's text form, in the tile codes of its own game's deck
        (`deck` for an action built without one)."""
        if deck is None:
            deck = self.deck
            if deck is None:
                raise ValueError("this action was built without its deck: give it, "
                                 "action.text(game.spec.deck)")
        verb = self.verb
        if verb == "discard" and self.claim == RED:
            return f"discard {deck.code(self.tile)} {RED}"
        if verb == "discard" or verb == "kong" or (verb == "pass" and self.tile >= 0):
            return f"{verb} {deck.code(self.tile)}"
        if verb == "announce":
            return f"announce {self.claim} {deck.code(self.tile)}"
        if verb == "claim":
            rack = [f"on {self.number + 1}"] if self.number else []
            return " ".join(["claim", self.claim, *deck.codes(self.tiles), *rack])
        if verb == "exchange":
            return f"exchange {deck.code(self.tile)} {self.target[0]}:{self.target[1]}"
        if verb == "declare":
            rack = [str(self.number + 1)] if self.number or self.claim else []
            return " ".join(["declare", *rack, *([self.claim] if self.claim else [])])
        if verb == "vote":
            return f"vote {'yes' if self.number else 'no'}"
        if verb in ("offer", "blind"):
            return f"{verb} {self.number}"
        return verb


def parse_action(deck: Deck, text: str) -> Action:
    """The action a text form names; ValueError says what is wrong with it."""
    words = text.split()
    if not words:
        raise ValueError("an empty action")
    verb, rest = words[0].lower(), words[1:]
    found = _parse(deck, text, verb, rest)
    return replace(found, deck=deck)


def _parse(deck: Deck, text: str, verb: str, rest: list[str]) -> Action:
    def tile(word: str) -> int:
        return parse_tiles(deck, word, what=verb)[0]

    try:
        if verb == "discard" and len(rest) == 1:
            return Action("discard", tile(rest[0]))
        if verb == "discard" and len(rest) == 2 and rest[1].lower() == RED:
            return Action("discard", tile(rest[0]), claim=RED)
        if verb == "pass" and len(rest) <= 1:
            return Action("pass", tile(rest[0])) if rest else Action("pass")
        if verb == "declare" and len(rest) <= 2:
            return Action("declare", number=int(rest[0]) - 1 if rest else 0,
                          claim=rest[1] if len(rest) == 2 else "")
        if verb == "claim" and rest:
            rack = 0
            if len(rest) >= 3 and rest[-2].lower() == "on":
                rack, rest = int(rest[-1]) - 1, rest[:-2]
            return Action("claim", claim=rest[0].lower(), number=rack,
                          tiles=tuple(parse_tiles(deck, " ".join(rest[1:]), what="claim")))
        if verb == "exchange" and len(rest) == 2:
            seat, exposure = rest[1].split(":")
            return Action("exchange", tile(rest[0]), target=(int(seat), int(exposure)))
        if verb == "vote" and len(rest) == 1 and rest[0].lower() in ("yes", "no"):
            return Action("vote", number=int(rest[0].lower() == "yes"))
        if verb in ("off", "abort") and not rest:
            return Action(verb)
        if verb == "kong" and len(rest) == 1:
            return Action("kong", tile(rest[0]))
        if verb == "announce" and len(rest) == 2:
            return Action("announce", tile(rest[1]), claim=rest[0].lower())
        if verb in ("offer", "blind") and len(rest) == 1:
            return Action(verb, number=int(rest[0]))
    except TileError:
        raise
    except ValueError:
        pass
    raise ValueError(f"cannot read the action {text!r}; actions are: discard TILE, "
                     "declare [RACK [LINE]], claim KIND [TILES] [on RACK], pass, "
                     "exchange TILE SEAT:EXPOSURE, pass TILE, "
                     "vote yes|no, offer N, blind N, off, announce NAME TILE, kong TILE, "
                     "abort")
