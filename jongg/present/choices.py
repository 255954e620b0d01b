"""Each legal action in words, as a button says it: the front end lists
them (a page draws one button per action; the terminal's menus compact the
claims, prompts.py). Read from the seat's view and the variant's words."""

from __future__ import annotations

from jongg.present import words as w
from jongg.present.filling import nearest
from jongg.present.prompts import SIZES
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.game.actions import RED, Action


def says(seen: Seen, a: Action) -> Text:
    """What taking this action does, in a few words."""
    spec, deck = seen.spec, seen.deck
    mahjong = w.mahjong(spec)
    verb = a.verb
    if verb == "discard" and a.claim == RED:
        return line("discard ", tiles([deck.code(a.tile)]), " (the red one)")
    if verb in ("discard", "pass") and a.tile >= 0:
        return line(f"{verb} ", tiles([deck.code(a.tile)]))
    if verb == "pass":
        return words("let it go (pass)")
    if verb == "claim":
        return claim_says(seen, a)
    if verb == "declare":
        if spec.racks > 1:
            return words(f"declare {mahjong} on rack {a.number + 1}"
                         + (f": {a.claim}" if a.claim else ""))
        return words(f"declare {mahjong}")
    if verb == "exchange":
        owner, index = a.target
        exposure = seen.obs.seats[owner].exposures[index]
        return line("give ", tiles([deck.code(a.tile)]), " for the joker in "
                    f"{w.whose(spec, seen.seat, owner)} [", tiles(deck.codes(exposure.tiles)),
                    "]")
    if verb == "vote":
        return words("yes" if a.number else "no")
    if verb == "offer":
        return words(f"offer {a.number}")
    if verb == "blind":
        return words(f"{a.number} blind")
    if verb == "off":
        return words("go off the pledge")
    return words(a.text(deck))


def claim_says(seen: Seen, a: Action) -> Text:
    """A claim: its kind ('Mah Jongg', 'pung'), the set it makes with the
    discard, the rack it goes on, its priority."""
    spec, deck = seen.spec, seen.deck
    kind = spec.claims.kind(a.claim)
    rank = spec.claims.priority.index(a.claim) + 1 if a.claim in spec.claims.priority else 0
    ranked = f" (priority {rank})" if rank else ""
    claim = spec.word("claim")
    if not a.tiles:
        what = w.mahjong(spec)
        if kind.mahjong and kind.mahjongs > 1:
            what = f"{kind.mahjongs} {what}s at once"
        elif not kind.mahjong:
            what = f"{a.claim} (your hand cannot: a mistake)"
        return words(f"{claim} for {what}{ranked}")
    discard = seen.data["discard"][1] if seen.data["discard"] else None
    name = a.claim
    size = SIZES.get(len(a.tiles) + 1)
    if size and size != name:
        name = f"{name} ({size})"
    shown = tiles([*([discard] if discard else []), *deck.codes(a.tiles)])
    on = f" on rack {a.number + 1}" if spec.racks > 1 else ""
    return line(f"{claim} {name} [", shown, f"]{on}{ranked}")


def purpose(seen: Seen, a: Action) -> tuple[Text, Text]:
    """What a claim of a set is for: the line it brings nearest ('pung of
    9D for run-6: 2 away, now 3'), or a warning that it brings no line
    nearer (a pung of two jokers and the discard for a hand that needs
    neither). Empty for anything else."""
    if a.verb != "claim" or not a.tiles or seen.data["discard"] is None:
        return (), ()
    rules, deck = seen.rules, seen.deck
    code = seen.data["discard"][1]
    tile = deck.kind(code).index
    hand = seen.obs.hand(a.number if seen.spec.racks > 1 else 0)
    now = nearest(rules, hand, 1)
    after = nearest(rules, hand.exposing(tile, a.tiles), 1)
    size = SIZES.get(len(a.tiles) + 1, a.claim)
    if after and (not now or after[0].away < now[0].away):
        was = f", now {now[0].away}" if now else ""
        return line(f"{size} of ", tiles([code]), f" for {after[0].line.id}: "
                    f"{after[0].away} away{was}"), ()
    if not after:
        return (), words(f"no line of the card can be made with this {size} exposed", Role.WARN)
    return (), words(f"this {size} brings no line nearer ({now[0].line.id} stays "
                     f"{now[0].away} away)", Role.WARN)
