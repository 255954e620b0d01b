"""The table as one seat sees it, laid out as a frame a front end draws:
a header (the game, the round, the dealer, the wall, whose turn), the
scores, every other seat (in turn order from yours) with its exposures and
discards, your own seat, the last discard, and your hand grouped by suit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jongg.present import scoredtell
from jongg.present import words as w
from jongg.present.hand import Group, grouped
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, join, line, tiles, words
from jongg.runtime.game.events import EventKind, Pledged
from jongg.runtime.game.spec import Pledge


@dataclass(frozen=True, slots=True)
class SeatPanel:
    seat: int
    head: Text  # "South (right): 13 in hand  DEAD"
    racks: tuple[Text, ...]  # one rack: its exposures (empty when none); several: a line each
    discards: Text


@dataclass(frozen=True, slots=True)
class Frame:
    header: tuple[str, ...]  # its parts: the title first (a narrow screen shortens it)
    scores: Text
    seats: tuple[SeatPanel, ...]  # the others in turn order from you, then you
    last: Text  # the discard open to claims (empty when none)
    hand_label: str
    hand: tuple[Group, ...]
    notes: tuple[Text, ...]  # the tile you drew; the tiles you are passing or set aside
    chosen: frozenset[int] = frozenset()  # positions in the hand picked for a pass


def frame(seen: Seen, chosen: Sequence[int] = ()) -> Frame:
    """The table now (`chosen`: tiles picked for a pass, shown apart from the hand)."""
    spec, data = seen.spec, seen.data
    me = seen.seat
    wall = f"wall {data['wall']}"
    if "die" in data:  # walls built on the table
        wall += f" (die {data['die']}, drawn from {spec.seats[data['wall_of']]}'s)"
    header = (spec.title, f"round {data['round'] + 1}",
              f"{spec.word('dealer')}: {spec.seats[data['dealer']]}", wall,
              *([f"to play: {spec.seats[data['turn']]}"] if data["turn"] is not None else []),
              *scoredtell.header(data))
    order = [(me + i * spec.turn.direction) % spec.players for i in range(1, spec.players)]
    panels = tuple(_panel(seen, s) for s in [*order, me])
    last: Text = ()
    if data["discard"] is not None:
        seat, code = data["discard"]
        last = line("last discard: ", tiles([code]), f" by {w.name(spec, me, seat)}")
    racks = spec.racks
    hand = data["hand"]
    label = f"your pool ({len(hand)} tiles, for your {racks} racks)" if racks > 1 \
        else "your hand"
    notes: list[Text] = scoredtell.notes(data)
    if "drawn" in data:
        notes.append(line("you drew ", tiles([data["drawn"]])))
    passing = [*data["passing"], *seen.codes(list(chosen))]
    if passing:
        going = "setting aside" if isinstance(seen.obs.phase, Pledge) else "passing"
        marked = f" ({CHOSEN} in your hand)" if chosen else ""
        notes.append(line(f"{going}: ", tiles(passing), marked))
    concealed = seen.obs.me.concealed()
    return Frame(header, scores(seen), panels, last, label, grouped(seen.deck, concealed),
                 tuple(notes), frozenset(chosen_positions(concealed, chosen)))


CHOSEN = "*"  # shown under a tile picked for a pass, in place of its position


def chosen_positions(concealed: Sequence[int], chosen: Sequence[int]) -> set[int]:
    """The positions (from 1) of the tiles picked for a pass: each tile's
    first copies. Positions are those of the whole hand, so they hold still
    while a pass is chosen tile by tile."""
    left = list(chosen)
    out: set[int] = set()
    for position, t in enumerate(concealed, 1):
        if t in left:
            left.remove(t)
            out.add(position)
    return out


def scores(seen: Seen) -> Text:
    """Every seat's score, in the variant's word: 'tokens: Seat 1 10  Seat 2 8'."""
    spec = seen.spec
    listed = "  ".join(f"{spec.seats[s]} {v}" for s, v in enumerate(seen.data["scores"]))
    return words(f"{spec.word('points')}: {listed}")


def _panel(seen: Seen, seat: int) -> SeatPanel:
    spec = seen.spec
    public: dict[str, Any] = seen.data["seats"][seat]
    me = seen.seat
    side = w.where(spec, me, seat)
    name = spec.seats[seat] + (" (you)" if seat == me else f" ({side})" if side else "")
    if seat == seen.data["dealer"]:
        name += f", {spec.word('dealer')}"
    head: list[Text] = [words(f"{name}: {public['concealed']} in hand",
                              Role.YOU if seat == me else Role.PLAIN)]
    head.extend(scoredtell.seat_marks(seen.data, seat))
    if public["dead"]:
        head.append(words("OUT (no live rack)" if spec.racks > 1 else "DEAD", Role.BAD))
    if public["skips"]:
        head.append(words(f"skips {public['skips']}", Role.WARN))
    if spec.racks > 1:
        racks = tuple(_rack(seen, seat, n, rack) for n, rack in enumerate(public["racks"]))
    else:
        racks = (join((line("[", tiles(e), "]") for e in public["exposures"]), " "),)
    discards = line("discards: ", tiles(public["discards"])) if public["discards"] else ()
    return SeatPanel(seat, join(head, "  "), racks, discards)


def _rack(seen: Seen, seat: int, number: int, rack: dict[str, Any]) -> Text:
    """One rack: 'rack 2: [R2 R2 R2]  Mah Jongg even-3: 2B 2B ...  DEAD'."""
    parts: list[Text] = [line("[", tiles(e), "]") for e in rack["exposures"]]
    if rack["mahjong"]:
        made = seen.declared_line(seat, number)
        parts.append(line(words(w.mahjong(seen.spec) + (f" {made}" if made else "") + ": ",
                                Role.GOOD), tiles(rack["mahjong"])))
    if rack.get("pledged"):
        flag = next((e.of(Pledged).flag for e in reversed(seen.round_events)
                     if e.kind is EventKind.PLEDGED and e.seat == seat), "")
        pledged = words(f"pledged to the {flag} line", Role.GOOD)
        aside = seen.data.get("aside") if seat == seen.seat else None
        if aside:  # the tiles set aside are seen by their owner only
            pledged = line(pledged, ", set aside: ", tiles(aside))
        parts.append(pledged)
    if not parts:
        parts.append(words("nothing exposed", Role.DIM))
    out = line(f"rack {number + 1}: ", join(parts, "  "))
    return line(out, "  ", words("DEAD", Role.BAD)) if rack["dead"] else out
