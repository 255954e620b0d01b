"""Money at a match's end, from the final scores (Siamese SMJ-26, Royale SMJ-34)."""

from __future__ import annotations

from jongg.runtime.game.spec import Payout


def settle_match(rules: Payout, scores: list[int]) -> list[float]:
    """Each seat's net money: what it receives less what it puts in.

    difference: the lower score pays the higher the difference (two players).
    pot: every seat stakes; a negative score pays its amount into the pot;
    positive scores are paid from the pot, highest first, as far as it goes;
    what remains is shared equally."""
    point = rules.per_point
    if rules.kind == "difference":
        low, high = sorted(range(len(scores)), key=lambda s: scores[s])[::len(scores) - 1]
        owed = (scores[high] - scores[low]) * point
        money = [0.0] * len(scores)
        money[low], money[high] = -owed, owed
        return money
    n = len(scores)
    money = [-float(rules.stake)] * n
    pot = float(rules.stake * n)
    for seat, score in enumerate(scores):
        if score < 0:
            money[seat] += score * point
            pot -= score * point
    for seat in sorted((s for s in range(n) if scores[s] > 0), key=lambda s: -scores[s]):
        paid = min(scores[seat] * point, pot)
        money[seat] += paid
        pot -= paid
    return [round(m + pot / n, 2) for m in money]
