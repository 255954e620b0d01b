"""Lines with free groups (`3[set] [pair]`, `3[kong] [pair]`), as the
expert agent weighs them: the matcher says how far a hand is, and the odds
come from how many unseen tiles would bring it nearer (its acceptance).

A hand `away` tiles from a line, which `accepting` of the `unseen` tiles
would bring one nearer, is taken to need `away` such draws, each drawn at
that rate: P(Poisson(draws x accepting / unseen) >= away). The last tile
may also come from another seat's discard, claimed for Mah Jongg (a
natural, or a joker where the rules let one be claimed): the share of wins
self-drawn is the draws' share of the rate that tile comes at, each share
weighed at what the variant pays for it. The odds stay those of the draws:
a round seldom lasts to the wall's end, so a claim is taken to win sooner
rather than more often (counting the claims in the odds as well weighs
waits on a discard more, and measured no better on mjcg).
"""

from __future__ import annotations

import numpy as np

from jongg.runtime.agents.odds import CLAIM_SHARE, poisson_at_least
from jongg.runtime.agents.outlook import CardTable
from jongg.runtime.agents.payoff import Pays
from jongg.runtime.game.rules import Rules
from jongg.runtime.hand import Hand
from jongg.runtime.memo import Memo

RUN_REACH = 2  # a run's tiles are at most this far apart in number


class Shapes:
    """One seat's questions about the card's structural lines (memoised:
    a round asks the same hands many times)."""

    def __init__(self, table: CardTable, pays: dict[int, Pays],
                 bare: dict[int, Pays] | None = None):
        self.pays = pays  # what winning with each structural line pays
        self.bare = bare or pays  # what it pays won jokerless
        # a jokerless win pays more on some structural line
        self.premium = any(self.bare[li].drawn > self.pays[li].drawn or
                           self.bare[li].claimed > self.pays[li].claimed for li in pays)
        self.lines = frozenset(table.structural)
        self.order = sorted(self.lines)
        self.runs = table.runs
        self._aways: Memo[Hand, dict[int, int]] = Memo(50_000)

    def aways(self, rules: Rules, hand: Hand) -> dict[int, int]:
        """Tiles away from each structural line the hand may still make."""
        def measure() -> dict[int, int]:
            lines = rules.lines
            return {li: lines[li].size - s for li, s, _ in rules.scores(hand)
                    if li in self.lines}

        return self._aways.get(hand, measure)

    def related(self, rules: Rules, hand: Hand) -> set[int]:
        """The kinds a draw could use: those held (and the joker), and with
        runs on the card, the numbers near a held one in its suit."""
        deck = rules.deck
        kinds = set(hand.concealed)
        if rules.joker is not None:
            kinds.add(rules.joker)
        if self.runs:
            ordered = {s.code for s in deck.suits if s.ordered}
            for t in set(hand.concealed):
                kind = deck.kinds[t]
                if kind.suit in ordered and kind.number is not None:
                    for n in range(kind.number - RUN_REACH, kind.number + RUN_REACH + 1):
                        near = deck.suited(kind.suit, n)
                        if near is not None:
                            kinds.add(near.index)
        return kinds

    def chances(self, rules: Rules, hand: Hand, unseen: tuple[int, ...], draws: float,
                naturals: bool = False) -> dict[int, float]:
        """Each structural line's odds of completion, from its tiles away and
        the hand's acceptance (`naturals`: no joker drawn is kept)."""
        return {li: chance for li, (chance, _) in
                self.outlooks(rules, hand, unseen, draws, naturals).items()}

    def outlooks(self, rules: Rules, hand: Hand, unseen: tuple[int, ...], draws: float,
                 naturals: bool = False) -> dict[int, tuple[float, float]]:
        """Each structural line's odds of completion (from draws) and the
        share of its wins self-drawn (the rest on a claimed discard)."""
        now = self.aways(rules, hand)
        if not now:
            return {}
        joker = rules.joker
        claims_jokers = rules.spec.claims.jokers
        accepting = dict.fromkeys(now, 0)
        claimable = dict.fromkeys(now, 0)
        for k in self.related(rules, hand):
            if not unseen[k] or (naturals and k == joker):
                continue
            after = self.aways(rules, hand.plus(k))
            for li, away in now.items():
                if after.get(li, away) < away:
                    accepting[li] += unseen[k]
                    if k != joker or claims_jokers:
                        claimable[li] += unseen[k]
        total = sum(unseen) or 1
        order = list(now)
        drawn = np.array([draws * accepting[li] / total for li in order])
        others = CLAIM_SHARE * max(rules.spec.players - 1, 0)
        claimed = np.array([draws * others * claimable[li] / total for li in order])
        needed = np.array([now[li] for li in order])
        chance = poisson_at_least(drawn, needed)
        share = np.where(drawn + claimed > 0, drawn / np.maximum(drawn + claimed, 1e-12), 1.0)
        return dict(zip(order, zip(chance.tolist(), share.tolist(), strict=True), strict=True))

    def values(self, rules: Rules, hand: Hand, unseen: tuple[int, ...], draws: float
               ) -> dict[int, float]:
        """Each structural line's expected value: its odds times what it
        pays, self-drawn and claimed in their shares; for a hand holding no
        joker, where a jokerless win pays more, the better of that and its
        odds from naturals alone times what the jokerless win pays."""
        found = {li: p * self.pays[li].mixed(drawn) for li, (p, drawn) in
                 self.outlooks(rules, hand, unseen, draws).items()}
        joker = rules.joker
        if self.premium and joker is not None and joker not in hand.concealed and \
                all(joker not in e for e in hand.exposures):
            for li, (p, drawn) in self.outlooks(rules, hand, unseen, draws,
                                                naturals=True).items():
                found[li] = max(found[li], p * self.bare[li].mixed(drawn))
        return found
