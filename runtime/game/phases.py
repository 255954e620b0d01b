"""The phases before play: Charleston passes (blind ones too), votes, the
courtesy pass, and pledges (Atomic Cat). Functions that say what each
phase's answers decide; the State applies it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import CourtesyBegun, PassBegun, PhaseBegun, PledgeBegun, VoteBegun
from jongg.runtime.game.rules import Rules, SeatView
from jongg.runtime.game.spec import Courtesy, Direction, Pass, Phase, Pledge, Vote


def partner(rules: Rules, seat: int, to: Direction) -> int:
    """The seat a pass in direction `to` goes to."""
    n = rules.spec.players
    step = {Direction.RIGHT: 1, Direction.LEFT: -1, Direction.ACROSS: n // 2}[to]
    return (seat + step * rules.spec.turn.direction) % n


def pass_actions(rules: Rules, phase: Phase, seat: SeatView) -> list[Action]:
    """The tiles a seat may choose now, one at a time (a joker only where
    the pass allows it; any tile for a pledge's rack)."""
    counts = seat.counts
    if isinstance(phase, Pledge):
        return rules.each_held("pass", counts)
    assert isinstance(phase, Pass | Courtesy)
    held = rules.each_held("pass", counts)  # each kind's action made once, not per offer
    joker = rules.joker
    if phase.jokers or joker is None or not counts[joker]:
        return held
    return [a for a in held if a.tile != joker]


def count_actions(rules: Rules, phase: Phase) -> list[Action]:
    """How many tiles: a courtesy offer, or how many of a pass go on blind."""
    if isinstance(phase, Courtesy):
        return [rules.action("offer", number=n) for n in range(phase.most + 1)]
    assert isinstance(phase, Pass)
    return [rules.action("blind", number=n) for n in range(phase.blind + 1)]


def carried(phase: Vote, votes: Mapping[int, int]) -> bool:
    """Whether a vote carries: any yes, or every seat's."""
    yes = sum(votes.values())
    return yes > 0 if phase.rule == "any-yes" else yes == len(votes)


def agreed_counts(rules: Rules, phase: Phase, offers: Mapping[int, int]
                  ) -> tuple[list[int], list[int]]:
    """(tiles each seat chooses from hand, tiles each forwards unseen).
    Courtesy: the smaller of two partners' offers. Blind pass: a seat
    forwards unseen only tiles its neighbour passed from hand, so its blind
    count is capped by what that neighbour chose from hand."""
    n = rules.spec.players
    if isinstance(phase, Courtesy):
        chosen = [min(offers[s], offers[partner(rules, s, phase.to)]) for s in range(n)]
        return chosen, [0] * n
    assert isinstance(phase, Pass)
    source = {partner(rules, s, phase.to): s for s in range(n)}
    blind = [min(offers[s], phase.count - offers[source[s]]) for s in range(n)]
    return [phase.count - blind[s] for s in range(n)], blind


def hand_over(rules: Rules, phase: Pass | Courtesy, chosen: Sequence[Sequence[int]],
              blind: Sequence[int]) -> list[tuple[int, int, list[int]]]:
    """Who receives what: (from seat, to seat, tiles). A blind passer
    forwards, unseen, the first tiles its neighbour chose; the rest of what a
    seat chose goes on with them."""
    n = rules.spec.players
    source = {partner(rules, s, phase.to): s for s in range(n)}
    forwarded = [list(chosen[source[s]][:blind[s]]) for s in range(n)]
    moves = []
    for seat in range(n):
        to = partner(rules, seat, phase.to)
        kept = list(chosen[seat][blind[to]:])  # the partner forwards the rest
        moves.append((seat, to, kept + forwarded[seat]))
    return moves


def describe(phase: Phase) -> PhaseBegun:
    """A phase as its event tells it."""
    if isinstance(phase, Pass):
        return PassBegun("pass", str(phase.to), phase.count, phase.blind, phase.jokers)
    if isinstance(phase, Courtesy):
        return CourtesyBegun("courtesy", str(phase.to), phase.most)
    if isinstance(phase, Vote):
        return VoteBegun("vote", phase.rule, phase.question)
    return PledgeBegun("pledge", phase.flag, phase.rack, phase.count, phase.question)
