"""The variant's own words, and seats as one seat sees them: "you", a name,
where a seat sits from you (right, left, across)."""

from __future__ import annotations

from jongg.runtime.game.spec import GameSpec


def mahjong(spec: GameSpec) -> str:
    """The variant's name for a winning hand ('Mah Jongg' unless it says otherwise)."""
    word = spec.word("mahjong")
    return "Mah Jongg" if word == "mahjong" else word


def where(spec: GameSpec, me: int, seat: int) -> str:
    """Where `seat` sits from `me`, in the direction of play: right (next to
    play), left, across; '' for seats further round the table."""
    n = spec.players
    steps = ((seat - me) * spec.turn.direction) % n
    if steps == 1:
        return "right"
    if steps == n - 1:
        return "left"
    if n % 2 == 0 and steps == n // 2:
        return "across"
    return ""


def name(spec: GameSpec, me: int, seat: int, *, capital: bool = False) -> str:
    """A seat as the subject of a sentence: 'you' for the reader."""
    if seat == me:
        return "You" if capital else "you"
    return spec.seats[seat]


def whose(spec: GameSpec, me: int, seat: int) -> str:
    return "your" if seat == me else f"{spec.seats[seat]}'s"


def placed(spec: GameSpec, me: int, seat: int) -> str:
    """A seat with where it sits: 'South (right)'."""
    side = where(spec, me, seat)
    return f"{spec.seats[seat]} ({side})" if side else spec.seats[seat]


def does(spec: GameSpec, me: int, seat: int, verb: str) -> str:
    """'You discard', 'South discards'."""
    if seat == me:
        return f"You {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s"
    return f"{spec.seats[seat]} {verb}{ending}"


def value(value: int | None) -> str:
    """A card line's value as players read it: lines with none are paid by
    the variant's scoring alone (NYMJ's)."""
    return "no card value" if not value else f"value {value}"
