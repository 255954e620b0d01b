"""Several racks (Siamese): one pool of concealed tiles that every rack of a
seat draws on, each rack with its own exposures and Mah Jongg.

Functions over a seat's read-only view; the pool is passed in, so asking
"and with this tile?" or "and without these?" builds another pool instead of
moving tiles. A pledged rack (Atomic Cat, SMJ-27) plays only its tiles set
aside and the last tile drawn or claimed (`last`).
"""

from __future__ import annotations

from collections import Counter

from jongg.runtime.game.rules import Rules, SeatView
from jongg.runtime.hand import Hand
from jongg.runtime.matching.answers import pool_tiles

Pool = tuple[int, ...]  # concealed tiles, sorted


def rack_hand(seat: SeatView, rack: int, pool: Pool, last: int | None) -> Hand:
    """What the rack plays with: the pool and its exposures; a pledged rack
    only its tiles set aside, and the tile just drawn or claimed."""
    if rack != seat.pledge:
        return Hand(pool, seat.rack_exposures(rack))
    return Hand(tuple(sorted((*seat.aside, *(() if last is None else (last,))))), ())


def rack_scores(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None
                ) -> list[tuple[int, int, int]]:
    """The matcher's scores for the rack, over the lines it may win."""
    found = rules.scores(rack_hand(seat, rack, pool, last))
    allowed = rules.allowed_lines(seat, rack)
    return found if allowed is None else [f for f in found if f[0] in allowed]


def rack_lines(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None
               ) -> list[tuple[int, int]]:
    """(line, variation) of every line the pool completes on this rack,
    highest value first, then card order."""
    done = rules.complete_lines(rack_hand(seat, rack, pool, last))
    allowed = rules.allowed_lines(seat, rack)
    return done if allowed is None or not done else [d for d in done if d[0] in allowed]


def rack_aways(rules: Rules, seat: SeatView, pool: Pool, last: int | None, far: int,
               floors: dict[int, int] | None = None) -> dict[int, int]:
    """Tiles away of each live rack (`far` when it can win nothing); a rack
    with a known floor over one (`floors`) keeps its floor, not worked out."""
    aways = {}
    for rack in seat.live_racks():
        floor = floors.get(rack, 0) if floors else 0
        aways[rack] = floor if floor > 1 else rack_away(rules, seat, rack, pool, last, far)
    return aways


def rack_away(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None,
              far: int) -> int:
    """Tiles away of one rack from the nearest line it may win (`far`: none)."""
    allowed = rules.allowed_lines(seat, rack)
    hand = rack_hand(seat, rack, pool, last)
    if allowed is None:  # every line: the judge's nearness, quicker than reading its scores
        near = rules.nearness(hand)
        return far if near is None else near[0]
    sizes = rules.sizes
    return min((sizes[li] - s for li, s, _ in rules.scores(hand) if li in allowed), default=far)


def filling(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None,
            li: int, variation: int) -> list[int]:
    """The concealed tiles a line takes on this rack: those the declared
    Mah Jongg exposes (a pledged rack's include its tiles set aside)."""
    groups = rules.judge.explain(rack_hand(seat, rack, pool, last), rules.lines[li], variation)
    return pool_tiles(rules.deck, groups)


def taken(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None,
          li: int, variation: int) -> list[int]:
    """The tiles a line on this rack takes from the pool: its filling; a
    pledged rack's other tiles are set aside, so only its last one."""
    if rack == seat.pledge:
        return [last] if last is not None else []
    return filling(rules, seat, rack, pool, last, li, variation)


def declaration_takes(rules: Rules, seat: SeatView, rack: int, pool: Pool, last: int | None,
                      line_id: str) -> list[int]:
    """The pool tiles declaring this rack with this line would take (none
    when the rack does not complete the line)."""
    lines = rules.lines
    return next((taken(rules, seat, rack, pool, last, li, v)
                 for li, v in rack_lines(rules, seat, rack, pool, last)
                 if lines[li].id == line_id), [])


def together(rules: Rules, seat: SeatView, racks: list[int], pool: Pool, last: int | None,
             mahjongs: int) -> bool:
    """Whether the pool completes `mahjongs` of these racks at once: each
    rack's lines are tried in turn, the rest of the pool going on to the next."""
    if mahjongs == 0:
        return True
    if mahjongs > len(racks):
        return False  # a rack wins once
    for rack in racks:
        done = rack_lines(rules, seat, rack, pool, last)
        if done and mahjongs == 1:
            return True  # nothing is planned on what the line leaves
        for li, variation in done:
            rest = Counter(pool)
            rest.subtract(taken(rules, seat, rack, pool, last, li, variation))
            others = [r for r in racks if r != rack]
            if together(rules, seat, others, tuple(sorted(rest.elements())), last,
                        mahjongs - 1):
                return True
    return False


def complete_now(rules: Rules, seat: SeatView, pool: Pool, mahjongs: int,
                 aways: dict[int, int] | None = None) -> bool:
    """Whether the pool as it is completes `mahjongs` of the live racks at
    once (with their tiles away known, only the racks at none can count)."""
    live = seat.live_racks()
    if aways is not None:
        live = [r for r in live if aways.get(r, 0) == 0]
    return together(rules, seat, live, pool, None, mahjongs)


def claimable_racks(rules: Rules, seat: SeatView, pool: Pool, tile: int, mahjongs: int,
                    aways: dict[int, int] | None = None, now: bool | None = None) -> list[int]:
    """The live racks complete once the discard joins the pool, when with it
    the pool completes `mahjongs` of them at once and without it does not (a
    Mah Jongg claim needs the tile); else none. A pledged rack may take the
    discard as its last tile. With the racks' tiles away known (`aways`),
    only a complete rack can count without the discard, and only one within
    a tile with it (a tile brings a rack at most one nearer). `now`, when
    known, is complete_now(): the same for every discard until the pool
    changes."""
    if complete_now(rules, seat, pool, mahjongs, aways) if now is None else now:
        return []
    live = seat.live_racks()
    if aways is not None:
        live = [r for r in live if aways.get(r, 0) <= 1]
    more = Hand(pool).plus(tile).concealed
    if not together(rules, seat, live, more, tile, mahjongs):
        return []
    return [r for r in live if rack_lines(rules, seat, r, more, tile)]
