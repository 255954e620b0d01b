"""Hints: what a player at the table would want to know. The nearest lines
drawn as on the card, with what is held and what is missing and how many of
those tiles are still live (unseen by this seat); the suggested discard, or
the tiles to pass, and why (the lines they keep alive); every tile that
would win when the hand is waiting; and a warning when a discard is a tile
an opponent's exposures show they may need. With several racks, the plan
that shares the pool between them (rackhints.py).

Everything is read from the seat's observation and the card (through the
rules' matcher), never from the State."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from jongg.present import words as w
from jongg.present.filling import Near, groups_spans, nearest
from jongg.present.prompts import to_choose
from jongg.present.rackhints import rack_hints
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, join, line, tiles, words
from jongg.runtime.hand import Hand

MOST_LINES = 10  # `hint N` shows at most this many lines
DANGER_LINES = 3  # exposures pointing at more lines than this tell nothing


@dataclass(frozen=True, slots=True)
class Choice:
    """A suggested discard or pass: the tiles, and what is left after."""

    tiles: tuple[str, ...]
    away: int  # tiles away once they are gone
    alive: tuple[str, ...]  # the nearest lines they keep, at that distance
    live: int  # copies unseen of the tiles the nearest line still misses


def hand_of(seen: Seen) -> Hand:
    """The seat's one hand: its concealed tiles and its exposures."""
    return seen.obs.hand()


def live(seen: Seen, near: Near) -> int:
    """Copies not yet seen by this seat of the tiles the line misses."""
    unseen = seen.obs.unseen
    deck = seen.deck
    wanted = {s.want for g in near.groups for s in g if s.filled_by is None}
    return sum(unseen[deck.kind(c).index] for c in wanted if c in deck.by_code)


def jokers_live(seen: Seen) -> int:
    joker = seen.deck.joker_index
    return seen.obs.unseen[joker] if joker is not None else 0


def line_hint(seen: Seen, near: Near) -> tuple[Text, ...]:
    """One line as on the card: its id, value and distance, then the groups
    with what is held and what is missing."""
    card_line = near.line
    c_x = "concealed" if card_line.concealed else "exposed"
    head = f"{card_line.id} ({w.value(card_line.value)}, {c_x}): "
    if near.away == 0:
        return (line(words(head + "complete", Role.GOOD)),)
    missing = near.missing
    jokers = f"; jokers may fill {near.joker_slots} of them" if near.joker_slots else ""
    say = line(head, f"{near.away} away; missing ", tiles(missing, Role.MISSING),
               f" ({live(seen, near)} live{jokers})")
    return (say, line("    ", groups_spans(near.groups, _joker(seen))))


def _joker(seen: Seen) -> str:
    deck = seen.deck
    return deck.code(deck.joker_index) if deck.joker_index is not None else "J"


def hints(seen: Seen, k: int = 3) -> tuple[Text, ...]:
    """Everything `hint` says now (`k` nearest lines, at most MOST_LINES)."""
    k = max(1, min(k, MOST_LINES))
    if seen.spec.racks > 1:
        return rack_hints(seen)
    out: list[Text] = []
    hand = hand_of(seen)
    near = nearest(seen.rules, hand, k)
    if not near:
        return (words("no line of the card can be made with your exposures", Role.WARN),)
    for n in near:
        out.extend(line_hint(seen, n))
    verbs = {a.verb for a in seen.legal}
    if seen.step == "passing" and "pass" in verbs:
        chosen = best_pass(seen, _to_pass(seen))
        if chosen is not None:
            out.append(suggestion(seen, "pass", chosen))
    elif "discard" in verbs:
        chosen = best_discard(seen)
        if chosen is not None:
            out.append(suggestion(seen, "discard", chosen))
            out.extend(waits_after(seen, chosen.tiles[0]))
    elif seen.step == "claims":
        out.extend(claim_hint(seen))
    else:
        out.extend(waits(seen, hand))
    return tuple(out)


def _to_pass(seen: Seen) -> int:
    return to_choose(seen) - len(seen.obs.me.outgoing)


def suggestion(seen: Seen, verb: str, choice: Choice) -> Text:
    alive = ", ".join(choice.alive) if choice.alive else "no line"
    keeps = f"keeps {alive} {choice.away} away" if choice.alive else "keeps no line in reach"
    return line(words(f"suggested {verb}: ", Role.KEY), tiles(choice.tiles),
                f": {keeps} ({choice.live} of the tiles missing still live)")


def _best(seen: Seen, hand: Hand, verb: str) -> tuple[int, Choice] | None:
    """The tile the seat would best let go (of those it may), with how near
    the hand is without it."""
    rules, deck = seen.rules, seen.deck
    joker = deck.joker_index
    candidates = sorted({a.tile for a in seen.legal if a.verb == verb and a.tile >= 0})
    now = nearest(rules, hand, 1)
    used = {slot.filled_by for group in (now[0].groups if now else ()) for slot in group
            if slot.filled_by is not None}
    weighed = []
    for t in candidates:
        if t not in hand.concealed:
            continue
        after = hand.minus(t)
        found = rules.nearest(after)[:3]  # the three nearest lines
        if not found:
            continue
        best = found[0][0]
        alive = tuple(rules.lines[li].id for away, li, _ in found if away == best)
        # a tile the nearest line uses goes last, a joker after everything
        weighed.append(((best, int(t == joker), int(deck.code(t) in used), -len(alive)),
                        t, after, alive))
    if not weighed:
        return None
    # the live count (its nearest line filled, which is dear) decides only
    # between tiles tied on everything before it, so only theirs are read
    front = min(key for key, *_ in weighed)
    out = []
    for key, t, after, alive in weighed:
        if key == front:
            count = live(seen, nearest(rules, after, 1)[0])
            out.append(((-count, hand.concealed.count(t), t),
                        Choice((deck.code(t),), key[0], alive, count)))
    (_, _, t), choice = min(out)
    return t, choice


def best_discard(seen: Seen) -> Choice | None:
    found = _best(seen, hand_of(seen), "discard")
    return found[1] if found else None


def best_pass(seen: Seen, count: int) -> Choice | None:
    """The tiles to pass, one after another, each the one the hand misses least."""
    hand = hand_of(seen)
    chosen: list[str] = []
    last: Choice | None = None
    for _ in range(max(0, count)):
        found = _best(seen, hand, "pass")
        if found is None:
            break
        t, last = found
        chosen.append(seen.deck.code(t))
        hand = hand.minus(t)
    if last is None:
        return None
    return Choice(tuple(chosen), last.away, last.alive, last.live)


def winning_tiles(seen: Seen, hand: Hand) -> list[tuple[str, int]]:
    """Every tile that would complete the hand, with its copies unseen."""
    rules, deck = seen.rules, seen.deck
    unseen = seen.obs.unseen
    held = Counter([*hand.concealed, *(t for e in hand.exposures for t in e)])
    # a tile the hand holds every copy of cannot come to it (nor be asked of the matcher)
    return [(k.code, unseen[k.index]) for k in deck.kinds
            if held[k.index] < k.copies and rules.completes(hand.plus(k.index))]


def waits(seen: Seen, hand: Hand) -> list[Text]:
    found = nearest(seen.rules, hand, 1)
    if not found or found[0].away != 1:
        return []
    return _wait_text(seen, winning_tiles(seen, hand), "you wait on")


def waits_after(seen: Seen, code: str) -> list[Text]:
    """The tiles that win once `code` is discarded, when that leaves the hand waiting."""
    hand = hand_of(seen).minus(seen.deck.kind(code).index)
    found = nearest(seen.rules, hand, 1)
    if not found or found[0].away != 1:
        return []
    return _wait_text(seen, winning_tiles(seen, hand), f"after {code} you wait on")


def _wait_text(seen: Seen, found: Sequence[tuple[str, int]], head: str) -> list[Text]:
    if not found:
        return []
    listed = join((line(tiles([c]), f" ({n} live)") for c, n in found), ", ")
    return [line(words(head + " ", Role.GOOD), listed)]


def claim_hint(seen: Seen) -> list[Text]:
    """Whether claiming the discard helps: it wins, or brings a line nearer."""
    discard = seen.data["discard"]
    code = discard[1]
    tile = seen.deck.kind(code).index
    hand = hand_of(seen)
    now = nearest(seen.rules, hand, 1)
    if any(a.verb == "claim" and not a.tiles for a in seen.legal) and \
            seen.rules.completes(hand.plus(tile)):
        return [words(f"{code} completes your hand: claim it for {w.mahjong(seen.spec)}",
                      Role.GOOD)]
    best: tuple[int, str] | None = None
    for a in seen.legal:
        if a.verb != "claim" or not a.tiles:
            continue
        after = nearest(seen.rules, hand.exposing(tile, a.tiles), 1)
        if after and (best is None or after[0].away < best[0]):
            best = (after[0].away, a.claim)
    if best is None or not now:
        return []
    if best[0] < now[0].away:
        return [words(f"a {best[1]} of {code} brings {now[0].line.id} to {best[0]} away "
                      f"(now {now[0].away})", Role.GOOD)]
    return [words(f"claiming {code} brings no line nearer: let it go (p)")]


def danger(seen: Seen, code: str) -> Text | None:
    """A warning when an opponent's exposures fit only a few lines of the
    card, and those lines want this tile."""
    rules, spec = seen.rules, seen.spec
    if code not in seen.deck.by_code:
        return None
    for seat, public in enumerate(seen.obs.seats):
        if seat == seen.seat or not public.exposures or public.dead:
            continue
        exposed = tuple(e.tiles for e in public.exposures if not e.mahjong)
        if not exposed:
            continue
        found = nearest(rules, Hand((), exposed))
        if not found:
            continue
        top = found[0].away
        closest = [n for n in found if n.away == top]
        if len(closest) > DANGER_LINES:
            continue
        wanting = [n.line.id for n in closest if code in n.missing]
        if wanting:
            return words(f"careful: {spec.seats[seat]}'s exposures fit "
                         f"{', '.join(wanting)}, which wants {code}", Role.WARN)
    return None
