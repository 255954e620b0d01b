"""A scored game told (win.scored: Riichi): a declaration made with a
discard, a kong declared on one's turn, and a win's yaku with their han,
the dora, the fu item by item, the limit and the points; and the scored
table's own marks for the table frame (the indicators, honba, sticks, each
seat's declaration, one's own furiten)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.game import events as ev
from jongg.runtime.game.events import Event, EventKind

if TYPE_CHECKING:
    from jongg.present.narrate import Narrator, Teller


def _announced(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    d = e.of(ev.Announced)
    first = " on the first turn" if d.first_turn else ""
    put = f" ({d.deposit:,} on the table)" if d.deposit else ""
    return words(f"{n.who(e.seat, 'declare')} {d.name}{first}{put}", Role.WARN)


def _konged(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    assert e.seat is not None
    what = "adds to a pung: a kong" if e.of(ev.Konged).added else "declares a concealed kong"
    if e.seat == n.seat:
        what = what.replace("adds", "add").replace("declares", "declare")
    return line(f"{n.name(e.seat)} {what} [", tiles(e.tiles), "]")


def _scored(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    d = e.of(ev.Scored)
    counted = ", ".join(f"{name} {value}" for name, value in d.yaku)
    yaku_han = sum(value for _, value in d.yaku)
    dora = d.han - yaku_han if d.han > yaku_han else 0
    parts: list[Text | str] = [words(f"{counted}", Role.GOOD)]
    if dora:
        parts.append(f"; dora {dora}")
    fu = " + ".join(f"{name} {value}" for name, value in d.fu_items)
    limit = f", {d.limit}" if d.limit else ""
    parts.append(f": {d.han} han {d.fu} fu ({fu}){limit}, {d.total:,} points; indicators ")
    parts.append(tiles(d.indicators))
    if d.ura:
        parts.extend([", ura ", tiles(d.ura)])
    return line(*parts)


# why a round ended drawn before the wall ran out, by the `abortive` rule
ABORTED = {"orphans": "nine kinds of terminals and honours on a first turn",
           "first_discards": "the same wind as every seat's first discard",
           "all_declared": "every seat has declared", "kongs_apart": "four kongs, not by one seat",
           "wins_at_once": "three wins claimed on one discard"}


def _aborted(n: Narrator, e: Event, _: Sequence[Event]) -> Text:
    reason = e.of(ev.Aborted).reason
    who = f"{n.who(e.seat, 'end')} the round: " if e.seat is not None else "The round ends: "
    return words(f"{who}{ABORTED.get(reason, reason)} (an abortive draw)", Role.WARN)


TELLERS: dict[EventKind, Teller] = {EventKind.ANNOUNCED: _announced,
                                    EventKind.KONGED: _konged, EventKind.SCORED: _scored,
                                    EventKind.ABORTED: _aborted}


def header(data: dict[str, Any]) -> tuple[str, ...]:
    """The scored table's part of the frame's header."""
    table = data.get("table")
    if table is None:
        return ()
    return (f"dora indicators {' '.join(table['indicators'])}",
            f"{table['round_wind']} round", f"honba {table['honba']}",
            f"sticks {table['sticks']}")


def seat_marks(data: dict[str, Any], seat: int) -> list[Text]:
    """A seat's wind and its declaration, for its panel's head."""
    table = data.get("table")
    if table is None:
        return []
    marks = [words(table["seat_winds"][seat], Role.DIM)]
    if table["declared"][seat]:
        marks.append(words(table["declared"][seat].upper(), Role.WARN))
    red = table.get("red")
    shown = [] if red is None else [*red["shown"][seat], *(
        data["seats"][seat]["discards"][i] for i in red["discards"][seat])]
    if shown:  # red copies exposed or let go
        marks.append(words("red " + " ".join(shown), Role.BAD))
    return marks


def notes(data: dict[str, Any]) -> list[Text]:
    """One's own furiten and red fives held, for the frame's notes."""
    table = data.get("table")
    if table is None:
        return []
    found = []
    if table["furiten"]:
        found.append(words("furiten: you may not win on a discard", Role.BAD))
    held = table.get("red", {}).get("held", [])
    if held:
        found.append(words(f"red fives held (a dora each): {' '.join(held)}", Role.GOOD))
    return found
