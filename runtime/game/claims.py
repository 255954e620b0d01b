"""The claim window: who may claim the latest discard and for what, and
which claim the priority table grants.

Every seat asked answers (claim or pass); `resolve` then ranks the valid
claims and names the mistakes to penalise. Functions over the table's
read-only view; the State applies the decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from jongg.runtime.game.actions import Action
from jongg.runtime.game.racks import rack_hand
from jongg.runtime.game.rules import SeatView, TableView
from jongg.runtime.game.spec import ClaimKind, Penalty
from jongg.runtime.hand import Hand


def claim_actions(view: TableView, seat: int) -> list[Action]:
    """Pass, a Mah Jongg claim when true (any in strict mode), and every
    exposure the seat could make with the discard."""
    assert view._open_discard is not None
    rules = view._rules
    tile = view._open_discard[1]
    actions = [rules.action("pass")]
    for kind in rules.spec.claims.kinds:
        if kind.mahjong and (rules.strict or wins_with(view, seat, tile, kind.mahjongs)):
            actions.append(rules.action("claim", claim=kind.name))
    sets = set_claims(view, seat, tile)
    actions.extend(sets)
    if rules.strict:  # a claim the hand cannot make
        made = {a.claim for a in sets}
        actions.extend(rules.action("claim", claim=k.name) for k in rules.spec.claims.kinds
                       if not k.mahjong and k.name not in made)
    return actions


def set_claims(view: TableView, seat: int, tile: int) -> list[Action]:
    """Every exposure the seat could make with the discard, as claims. The
    answer is kept by what it reads (Rules.claims_kept): how many of the
    tile and of the jokers the seat holds, up to the most a set needs,
    which run partners it holds, whether it is next in turn, and each live
    rack's exposures; a seat asks again with the same of these discard
    after discard."""
    made = sets_made(view, seat, tile)
    if not made:
        return []
    rules = view._rules
    spec = rules.spec
    me = view._seats[seat]
    racks = tuple(rack_exposures(me).items())
    must_fit = spec.claims.exposure_must_fit and not misfit_offered(view)
    return rules.claims_kept.get((tile, made, racks, must_fit), lambda: [
        rules.action("claim", claim=name, tiles=tiles, number=rack)
        for name, tiles in made for rack, exposures in racks
        if not must_fit or rules.fits(exposures, tile, tiles)])


def sets_made(view: TableView, seat: int, tile: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(claim kind, tiles from the hand) of every set the seat's tiles
    could make with the discard, whatever its racks (Rules.claim_options)."""
    rules = view._rules
    spec = rules.spec
    counts = view._seats[seat].counts
    joker = rules.joker
    need = rules.claim_need
    jokers = min(counts[joker], need) if joker is not None else 0
    held = min(counts[tile], need)
    partners = tuple(pair for pair in run_partners(view, tile)
                     if all(counts[t] >= pair.count(t) for t in pair)) if rules.claim_runs else ()
    assert view._open_discard is not None
    after = (view._open_discard[0] + spec.turn.direction) % spec.players == seat
    return rules.claim_options(tile, held, jokers, after, partners)


def may_claim(view: TableView, seat: int, tile: int) -> bool:
    """Whether the seat could have more than a pass to answer the discard
    with (guarded mode): a Mah Jongg claim needs the hand within a tile of
    a line, a set the tiles to make it. False: claim_actions() would offer
    only the pass, so the window need not ask it; True: ask claim_actions()."""
    if view._rules.spec.scored is not None:  # the seat's waits, kept as its tiles change
        return tile in view._waits(seat) or bool(sets_made(view, seat, tile))
    return bool(view._resting_near(seat) or sets_made(view, seat, tile))


def rack_exposures(me: SeatView) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The live racks that may take an exposure (a pledged rack takes none),
    each with its exposures."""
    return {rack: me.rack_exposures(rack) for rack in me.live_racks() if rack != me.pledge}


def misfit_offered(view: TableView) -> bool:
    """Strict mode with a penalty for it offers exposures no line can use."""
    rules = view._rules
    return rules.strict and rules.spec.penalties.misfit_exposure is not Penalty.NONE


def run_partners(view: TableView, tile: int) -> list[tuple[int, int]]:
    """The pairs of tiles that make a run with `tile` (a chow)."""
    deck = view._rules.deck
    kind = deck.kinds[tile]
    suit = next((s for s in deck.suits if s.code == kind.suit), None)
    if suit is None or not suit.ordered or kind.number is None:
        return []
    n = kind.number
    out = []
    for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
        ka, kb = deck.suited(suit.code, a), deck.suited(suit.code, b)
        if ka is not None and kb is not None:
            out.append((ka.index, kb.index))
    return out


def exposed_hand(view: TableView, seat: int, tile: int, tiles: tuple[int, ...],
                 rack: int = 0) -> Hand:
    """The seat's hand on `rack` once `tile` is claimed and exposed there with `tiles`."""
    me = view._seats[seat]
    return rack_hand(me, rack, me.concealed(), view._last_tile(seat)).exposing(tile, tiles)


def wins_with(view: TableView, seat: int, tile: int, mahjongs: int = 1) -> bool:
    """Whether the discard completes the hand (with several racks: the racks
    it completes, `mahjongs` of them at once; a scored game: a win its
    scoring allows, the seat not furiten)."""
    if view._rules.spec.scored is not None:
        return view._wins_discard(seat, tile)
    if not view._resting_near(seat):
        return False
    rules = view._rules
    if rules.spec.racks == 1:
        return rules.completes(view._seats[seat].hand().plus(tile))
    return bool(view._claimable_racks(seat, tile, mahjongs))


def kind_wins(view: TableView, seat: int, tile: int, kind: ClaimKind) -> bool:
    """Whether a Mah Jongg claim of this kind on the discard would be true."""
    return kind.mahjong and wins_with(view, seat, tile, kind.mahjongs)


def exposure_wins(view: TableView, seat: int, tile: int, tiles: tuple[int, ...],
                  rack: int = 0) -> bool:
    """Whether claiming `tile` for this set completes the seat's hand (rack);
    never in a scored game, whose wins are claimed as such."""
    if view._rules.spec.scored is not None or not view._resting_near(seat):
        return False
    rules = view._rules
    hand = exposed_hand(view, seat, tile, tiles, rack)
    if rules.spec.racks == 1:
        return rules.completes(hand)
    lines = rules.lines
    return any(s == lines[li].size for li, s, _ in rules.scores(hand))


@dataclass(frozen=True, slots=True)
class Ruling:
    """What a claim window decides: the claims tied at the top (distance
    from the discarder, action), the losers, and the false claims to penalise
    (seat, action)."""

    top: list[tuple[int, int, Action]]  # (distance, seat, action), nearest first
    outranked: list[tuple[int, Action]]
    false: list[tuple[int, Action]]


def resolve(view: TableView, asked: list[int], answers: dict[int, Action]) -> Ruling:
    """Rank the claims made: a Mah Jongg claim must be true and an exposure
    must name its tiles (strict mode lets the mistakes be made); whoever needs
    the tile to win comes first however the claim is worded; then the
    priority table; then the distance from the discarder."""
    assert view._open_discard is not None
    discarder, tile = view._open_discard
    rules = view._rules
    claims = rules.spec.claims
    n, direction = rules.spec.players, rules.spec.turn.direction
    valid: list[tuple[int, int, int, Action]] = []
    false: list[tuple[int, Action]] = []
    for seat in asked:
        action = answers[seat]
        if action.verb != "claim":
            continue
        kind = claims.kind(action.claim)
        ok = wins_with(view, seat, tile, kind.mahjongs) if kind.mahjong else bool(action.tiles)
        if not ok:
            false.append((seat, action))
            continue
        rank = claims.rank(kind.name)
        if not kind.mahjong and exposure_wins(view, seat, tile, action.tiles, action.number):
            rank = min([rank] + [claims.rank(k.name) for k in claims.kinds if k.mahjong])
        valid.append((rank, (seat - discarder) * direction % n, seat, action))
    if not valid:
        return Ruling([], [], false)
    best = min(r for r, _, _, _ in valid)
    top = sorted((d, s, a) for r, d, s, a in valid if r == best)
    outranked = [(s, a) for r, _, s, a in valid if r != best]
    return Ruling(top, outranked, false)
