"""The compiled matcher agrees with the reference on every query.

Hands come from jongg.runtime.matching.samples: built near the card's lines, so a
good share are complete or one or two away, many joker-heavy, some with
exposures. A disagreement names the hand, the line and both answers.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from jongg.compiler.cache import tables_dir
from jongg.compiler.matcher import compile_matcher
from jongg.runtime.card import Card
from jongg.runtime.hand import Hand
from jongg.runtime.matching import accelerated
from jongg.runtime.matching import columns as columns_module
from jongg.runtime.matching.answers import nearness
from jongg.runtime.matching.columns import FEW, Columns, Seat
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.reference import LineMatch, completed, match_card
from jongg.runtime.matching.samples import sample_hands

from .conftest import card, card_from_lines, hand, in_c_or_python

# hands per card in the default suite: the reference is brute force, so the
# slower cards get fewer (the slow suite runs 100,000 per card)
HANDS = {"sample": 120, "nymj": 150, "mjcg-beginner": 100, "mjcg-advanced": 45,
         "classic": 60, "constructs": 200}


@cache
def matcher(name: str) -> Matcher:
    return compile_matcher(card(name))


def _show(c: Card, h: Hand) -> str:
    text = " ".join(c.deck.codes(h.concealed))
    for e in h.exposures:
        text += f" | exposed {' '.join(c.deck.codes(e))}"
    return text


def _answer(m: LineMatch | object) -> tuple[int, int]:
    return (m.tiles_away, m.variation)  # type: ignore[attr-defined]


def agree(c: Card, m: Matcher, h: Hand, *, open_hands: bool = False) -> None:
    """Every query answered alike, or an assertion naming hand, line and answers."""
    ref = match_card(c, h, open_hands=open_hands)
    got = m.tiles_away(h, open_hands=open_hands)
    by_line = {r.line.id: r for r in ref}
    assert [g.line.id for g in got] == [r.line.id for r in ref], \
        f"hand {_show(c, h)}: lines {[r.line.id for r in ref]} (reference) vs " \
        f"{[g.line.id for g in got]} (compiled)"
    for rank, g in enumerate(got):
        r = by_line[g.line.id]
        assert _answer(g) == _answer(r), (
            f"hand {_show(c, h)}, line {g.line.id} ({g.line.pattern}): reference "
            f"{r.tiles_away} away by variation {r.variation}, compiled {g.tiles_away} "
            f"away by variation {g.variation}")
        if not g.line.structural:  # one filling per variation: the same missing tiles
            assert sorted(g.missing) == sorted(r.missing), (
                f"hand {_show(c, h)}, line {g.line.id}: missing {r.missing} vs {g.missing}")
            assert sorted(g.joker_slots) == sorted(r.joker_slots)
        elif rank == 0:  # a filling of the nearest structural line reaches the score
            assert len(g.missing) == g.tiles_away, f"hand {_show(c, h)}, line {g.line.id}"
    # the reference's completed(), from the answers already in hand
    done = sorted((r for r in ref if r.complete), key=lambda r: -(r.line.value or 0)) \
        if h.size == c.hand_size else []
    mine = m.completions(h, open_hands=open_hands)
    assert [_answer(x) + (x.line.id,) for x in mine] == \
        [_answer(x) + (x.line.id,) for x in done], f"hand {_show(c, h)}: completions"
    best = m.is_complete(h, open_hands=open_hands)
    if done:
        assert best is not None and (best.line.id, best.variation) == \
            (done[0].line.id, done[0].variation), f"hand {_show(c, h)}: is_complete"
    else:
        assert best is None, f"hand {_show(c, h)}: is_complete says {best.line.id}"


def _agree_all(name: str, count: int, seed: str, **kw: object) -> list[Hand]:
    c, m = card(name), matcher(name)
    hands = sample_hands(c, random.Random(seed), count, **kw)  # type: ignore[arg-type]
    for h in hands:
        agree(c, m, h)
    return hands


# sample, nymj and constructs in the default suite; every card in the slow suite
SLOW_CARDS = {"mjcg-advanced", "mjcg-beginner", "classic"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW_CARDS
                                               else []) for n in sorted(HANDS)])
def test_compiled_matcher_agrees_with_the_reference(name: str) -> None:
    hands = _agree_all(name, HANDS[name], f"agree:{name}")
    _check_batches(matcher(name), hands[:300])


@pytest.mark.clause("NYMJ-14")
def test_tables_score_exposed_jokerless_hands_as_the_reference_does() -> None:
    """With its per-suit tables, the matcher scores a hand whose exposures
    took some of a line's free groups by the share of the groups left; the
    game asks this at every claim window, so it must agree with the
    reference (whole hands and hands a card short, many exposed)."""
    c = card("nymj")
    m = compile_matcher(c)
    m.prepare(tables_dir())  # built once a session, then read
    rng = random.Random("tables-exposed")
    hands = sample_hands(c, rng, 600) + sample_hands(c, rng, 200, size=c.hand_size - 1)
    exposed = [h for h in hands if h.exposures]
    assert len(exposed) >= 120
    for h in exposed:
        agree(c, m, h)


@pytest.mark.parametrize("all_jokers", ["true", pytest.param("false", marks=pytest.mark.slow)])
@pytest.mark.parametrize("count", [12, pytest.param(400, marks=pytest.mark.slow)])
def test_lines_of_identical_groups_alone_agree_with_jokers(all_jokers: str, count: int) -> None:
    """Lines made only of free identical groups are scored by the orders of
    the most-held kinds; against the reference, with jokers, exposures and
    every group size, with and without jokers-only groups. (The reference
    tries every binding of five free groups: a third of a second a hand.)"""
    c = card_from_lines('{id: a, hand: "3[kong] [pair]", value: 25}',
                        '{id: b, hand: "[kong] [pung] [pung] [pair] [pair]", value: 30}',
                        '{id: c, hand: "[sextet] [kong] [pung] [single]", value: 35}',
                        extra=f"all_joker_groups: {all_jokers}\n")
    m = compile_matcher(c)
    hands = sample_hands(c, random.Random(f"identical:{all_jokers}"), count)
    assert sum(1 for h in hands if h.exposures) >= count // 10
    assert sum(1 for h in hands if c.deck.joker_index in h.concealed) >= count // 4
    for h in hands:
        agree(c, m, h)


@pytest.mark.parametrize("all_jokers", ["true", "false"])
def test_free_identical_groups_beside_concrete_ones_are_table_columns(all_jokers: str) -> None:
    """A free pair or two free kongs beside concrete groups become one
    column per binding (scored with the rest of the table, not searched
    hand by hand); exposures that take a concrete group of a kind the free
    group may also be bound to are seated by the table too. Every answer as
    the reference's."""
    c = card_from_lines('{id: a, hand: "FFFF 2222a 3333b [pair]", value: 25}',
                        '{id: b, hand: "FF 2026a 2[kong]", value: 30}',
                        '{id: c, hand: "NN SSS 5555a [pung] [pair]", value: 35}',
                        extra=f"all_joker_groups: {all_jokers}\n")
    m = compile_matcher(c)
    assert not m.programme.structural  # every variation is a column
    rng = random.Random(f"bound:{all_jokers}")
    hands = sample_hands(c, rng, 200) + [
        hand(c, "F F 2B 2B 2B 2B 3C 3C 3C 3C", ["F F F F"]),  # a pair of flowers beside
        hand(c, "F J 2B 2B 2B 2B 3C 3C 3C 3C", ["F F F J"]),  # the exposed kong of them
        hand(c, "F F 2B WD 2B 6B 7C 7C 7C 7C", ["F F F F"]),
        hand(c, "N N S S S 5B 5B 5B 5B E E", ["N N J"]),
        hand(c, "N N 5B 5B 5B 5B E E", ["N N J", "S S S"])]
    assert sum(1 for h in hands if h.exposures) >= 30
    for h in hands:
        agree(c, m, h)


ALLOWS = {"sample": 120, "mjcg-advanced": 35}  # hands drawn (the reference's pace)


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced"])
def test_allows_is_whether_some_line_takes_the_exposures(name: str) -> None:
    """allows() answers from the exposures alone what scores() lists a line
    for, whatever the concealed tiles (a claim window asks it of every set
    it could make)."""
    c, m = card(name), matcher(name)
    hands = [h for h in sample_hands(c, random.Random(f"allows:{name}"), ALLOWS[name])
             if h.exposures]
    joker = c.deck.joker_index
    odd = [Hand(h.concealed, h.exposures + ((joker, joker, joker),)) for h in hands[:20]] + \
        [Hand(h.concealed, ((1, 2, 3),)) for h in hands[:5]]
    for h in hands + odd:
        assert m.allows(h.exposures) == bool(m.scores(h)), _show(c, h)
        assert m.allows(h.exposures) == bool(match_card(c, h)), _show(c, h)
    assert any(not m.allows(h.exposures) for h in odd)


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced"])
def test_one_exposure_more_is_allowed_beside_the_held_as_with_them(name: str) -> None:
    """allows_beside(held, more), what a claim window asks of each rack and
    set, answers what allows() answers of the held exposures and one more:
    refused by the masks kept for the held ones, or asked whole."""
    c, m = card(name), matcher(name)
    joker = c.deck.joker_index
    rng = random.Random(f"beside:{name}")
    hands = [h for h in sample_hands(c, rng, 120) if h.exposures]
    naturals = [k for k in range(len(c.deck.kinds)) if k != joker]
    asked = allowed = 0
    for h in hands[:40]:
        held = tuple(h.exposures[:-1])
        sets = [tuple(h.exposures[-1])]  # one a line takes, and sets of any kind
        for _ in range(6):
            kind, size = rng.choice(naturals), rng.randint(2, 5)
            jokers = rng.randint(0, size - 2) if size > 2 else 0
            sets.append(tuple(sorted((kind,) * (size - jokers) + (joker,) * jokers)))
        for more in sets:
            whole = m.allows(tuple(sorted((*held, more))))
            assert m.allows_beside(held, more) == whole, (_show(c, h), more)
            asked, allowed = asked + 1, allowed + whole
    assert asked > 100 and 0 < allowed < asked


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced"])
def test_exposure_masks_rule_out_only_what_cannot_take_the_exposures(name: str) -> None:
    """allows() and the plans a hand with exposures is scored on start from
    a mask per exposure: a plan is in programme.able() exactly when every
    exposure has a group of it to be, and every column seat() seats the
    exposures on is in columns.able()."""
    c, m = card(name), matcher(name)
    programme, joker = m.programme, c.deck.joker_index
    hands = [h for h in sample_hands(c, random.Random(f"able:{name}"), 300) if h.exposures]
    assert len(hands) >= 20
    for h in hands[:40]:
        able = programme.able(h.exposures)
        for i, plan in enumerate(programme.flat):
            placed = all(programme._places(plan, tuple(e)) for e in h.exposures)
            assert bool(able >> i & 1) == placed, (_show(c, h), plan.line, plan.variation)
        seat = m.columns.seat(h.exposures, joker, True)
        columns = m.columns.able(h.exposures, joker)
        assert (seat is None) <= (columns == 0), _show(c, h)
        if seat is not None and seat.seated is not None:
            assert all(columns >> col & 1 for col in seat.seated.cols.tolist()), _show(c, h)


def test_an_exposures_placing_is_worked_out_once_and_seats_alike_in_any_order() -> None:
    """Where one exposure can be a whole group is worked out once per kind,
    size and joker (Columns._placing) and shared by every set of exposures
    it is seated beside: seating the same sets in opposite orders, on two
    fresh matchers, gives the same seats, cuts and joker room."""
    c = card("sample")
    joker = c.deck.joker_index
    hands = [h for h in sample_hands(c, random.Random("placing"), 400) if h.exposures]
    sets = list(dict.fromkeys(tuple(sorted(h.exposures)) for h in hands))
    assert len(sets) > 50
    forward, backward = compile_matcher(c).columns, compile_matcher(c).columns

    def seated(columns: Columns, exposures: tuple[tuple[int, ...], ...]) -> object:
        seat = columns.seat(exposures, joker, False)
        if seat is None or seat.seated is None:
            return seat
        cut = seat.seated
        return (seat.kinds, seat.slow, seat.size, cut.cols.tolist(), cut.base.tolist(),
                [(k, at.tolist(), f.tolist(), r.tolist()) for k, at, f, r in cut.partial])

    ahead = [seated(forward, e) for e in sets]
    behind = [seated(backward, e) for e in reversed(sets)][::-1]
    assert ahead == behind
    placed = {(next(t for t in e if t != joker), len(e), joker in e)
              for exposures in sets for e in exposures if len({t for t in e if t != joker}) == 1}
    assert set(forward._placings) <= placed and len(forward._placings) > 10


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced"])
def test_seated_columns_score_in_c_and_in_python_as_the_table_does(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand with exposures is scored on the columns they sit on: in one
    call of C where the accelerator is built (discards.each_line_best),
    else in plain Python for a few columns (Seated.few), else on the
    table's arrays: the same scores and variations every way."""
    c, m = card(name), matcher(name)
    columns, joker = m.columns, c.deck.joker_index
    hands = [h for h in sample_hands(c, random.Random(f"few:{name}"), 400)
             if h.exposures and h.concealed]
    seated: list[tuple[Hand, Seat]] = []
    for h in hands:
        seat = columns.seat(h.exposures, joker, False)
        if seat is not None and seat.seated is not None:
            seated.append((h, seat))
    assert sum(len(seat.seated.cols) <= FEW for _, seat in seated  # type: ignore[union-attr]
               ) >= 10
    found = [columns.exposed(*h.naturals(joker), seat) for h, seat in seated]
    for way in ("few", "arrays"):
        monkeypatch.setattr(accelerated, "line_best", None)
        if way == "arrays":
            monkeypatch.setattr(columns_module, "FEW", 0)
        for (h, seat), want in zip(seated, found, strict=True):
            assert columns.exposed(*h.naturals(joker), seat) == want, (way, _show(c, h))
    assert any(seat.seated.few is not None for _, seat in seated)  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced", "nymj"])
def test_many_hands_and_every_discard_score_as_one_hand_does(name: str) -> None:
    """scores_many() (the table once per set of exposures) and
    discard_scores() (the hand less each tile it holds) answer as scores()
    does hand by hand, exposures and jokers included; discard_nearness()
    reads the latter as tiles away and lines that near, and nearness() the
    hand's own scores()."""
    c, m = card(name), matcher(name)
    hands = sample_hands(c, random.Random(f"many:{name}"), 200)
    # 30 hands sharing one hand's exposures: enough for the table's passes
    # over the group, where a few sharing them are scored one at a time
    shown = next(h.exposures for h in hands if h.exposures)
    same = [Hand(h.concealed[:-len(shown[0])], shown) for h in hands[:30]]
    assert len(same) >= m._one_by_one
    assert m.scores_many(hands + same) == [m.scores(h) for h in hands + same]
    sizes = [line.size for line in c.lines]
    for h in hands[:40]:
        assert m.nearness(h) == nearness(m.scores(h), sizes), _show(c, h)
        found = m.discard_scores(h)
        assert sorted(found) == sorted(set(h.concealed))
        assert m.discard_nearness(h) == {t: nearness(s, sizes) for t, s in found.items()}, \
            _show(c, h)
        for tile, scores in found.items():
            rest = list(h.concealed)
            rest.remove(tile)
            assert scores == m.scores(Hand(tuple(rest), h.exposures)), _show(c, h)


@pytest.mark.parametrize("in_c", in_c_or_python(accelerated.line_best))
@pytest.mark.parametrize("name", ["mjcg-advanced", "nymj"])
def test_nearness_scores_only_the_plans_that_could_reach_the_nearest(
        name: str, in_c: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """nearness() and discard_nearness() of hands the table does not
    settle read their scores() worked out the long way, but score a plan
    only where its ceiling could bring its line as near as the nearest so
    far: the same answers from fewer plans scored."""
    if not in_c:
        monkeypatch.setattr(accelerated, "line_best", None)
    c, m = card(name), matcher(name)
    assert m.programme.structural
    sizes = [line.size for line in c.lines]
    scored = [0]
    score = m.programme.score

    def counted(*args: Any) -> int | None:
        scored[0] += 1
        return score(*args)

    monkeypatch.setattr(m.programme, "score", counted)
    pruned = full = 0
    for h in sample_hands(c, random.Random(f"near:{name}"), 200):
        scored[0] = 0
        want = nearness(m._scores_long(h, m.open_hands), sizes)
        full += scored[0]
        scored[0] = 0
        assert nearness(m._scores_long(h, m.open_hands, near=True), sizes) == want, \
            _show(c, h)
        pruned += scored[0]
        assert m.nearness(h) == want, _show(c, h)
        assert m.discard_nearness(h) == {t: nearness(found, sizes)
                                         for t, found in m.discard_scores(h).items()}, _show(c, h)
    # mjcg-advanced's hands leave plans out; nymj's sampled hands have one plan each to score
    assert pruned < full if name == "mjcg-advanced" else pruned <= full


@pytest.mark.parametrize("in_c", in_c_or_python(accelerated.discard_nearness))
def test_discards_weighed_from_the_columns_near_the_hand(
        in_c: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without structural lines, the discards are weighed from the columns
    at most one tile further than the hand's nearest (Columns.discard_nearness:
    in one call of C where the accelerator is built, else NumPy and a loop
    in Python), on the card's table or, with exposures, on the columns they
    sit on: the same tiles away and lines that near as scoring every hand
    less a tile, short hands, jokers and open hands included; and the hand's
    own from the same pass (Columns.nearness), as its scores() say."""
    if not in_c:
        monkeypatch.setattr(accelerated, "discard_nearness", None)
    c, m = card("sample"), matcher("sample")
    joker = c.deck.joker_index
    assert not m.programme.structural
    rng = random.Random("weigh")
    sizes = [line.size for line in c.lines]
    answered = [0]  # hands whose own nearness the columns near them told

    def weighed(h: Hand, open_hands: bool) -> bool:
        """Whether the columns near the hand weighed its discards (checked)."""
        slow = {t: nearness(s, sizes)
                for t, s in m.discard_scores(h, open_hands=open_hands).items()}
        assert m.discard_nearness(h, open_hands=open_hands) == slow, _show(c, h)
        own = nearness(m.scores(h, open_hands=open_hands), sizes)
        assert m.nearness(h, open_hands=open_hands) == own, _show(c, h)
        seat = m.columns.seat(h.exposures, joker, open_hands) if h.exposures else None
        if h.exposures and seat is None:
            return False
        quick = m.columns.nearness(*m._held(h), joker, seat)
        assert quick in (own, None), _show(c, h)
        answered[0] += quick is not None
        options = sorted(set(h.concealed))
        fast = m.columns.discard_nearness(*m._held(h), options, joker, seat)
        if fast is not None:
            assert dict(zip(options, zip(*fast, strict=True), strict=True)) == slow, _show(c, h)
        return fast is not None

    hands = [h for h in sample_hands(c, rng, 600) if not h.exposures]
    hands += [Hand(h.concealed[:rng.randrange(1, len(h.concealed) + 1)], ()) for h in hands[:200]]
    assert any(joker in h.concealed for h in hands)
    assert sum(weighed(h, False) for h in hands) >= len(hands) // 2
    for open_hands in (False, True):
        exposed = [h for h in sample_hands(c, rng, 600, open_hands=open_hands)
                   if h.exposures and h.concealed]
        assert any(joker in h.concealed for h in exposed)
        assert sum(weighed(h, open_hands) for h in exposed) >= len(exposed) // 2
    assert answered[0] >= len(hands)


def test_a_hand_with_exposures_a_tile_or_more_away_is_not_complete_without_scoring_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """is_complete() of a full hand with exposures asks the columns near it
    first (Columns.nearness): a tile or more from every line, it completes
    none, and no line is scored; the others are scored as before. The
    answers are the reference's."""
    c, m = card("sample"), matcher("sample")
    rng = random.Random("complete-exposed")
    hands = [h for open_hands in (False, True)
             for h in sample_hands(c, rng, 300, open_hands=open_hands)
             if h.exposures and h.size == c.hand_size]
    scored = [0]
    score = m.scores

    def counted(hand: Hand, *, open_hands: bool | None = None) -> list[tuple[int, int, int]]:
        scored[0] += 1
        return score(hand, open_hands=open_hands)

    monkeypatch.setattr(m, "scores", counted)
    far = near = 0
    for h in hands:
        scored[0] = 0
        found = m.is_complete(h)
        want = completed(c, h)
        assert (found is None) == (not want), _show(c, h)
        far += found is None and not scored[0]
        near += bool(scored[0])
    assert far >= len(hands) // 2 and near > 0


@pytest.mark.parametrize("name", ["sample", "nymj", "classic"])
def test_agreement_on_hands_one_tile_short(name: str) -> None:
    """13-tile (or 10-card) hands: at least one away from every line."""
    c = card(name)
    hands = _agree_all(name, 80, f"short:{name}", size=c.hand_size - 1)
    assert all(m.tiles_away >= 1 for h in hands for m in matcher(name).tiles_away(h))


def test_agreement_when_every_hand_may_be_open() -> None:
    """open_hands (Siamese, SMJ-02): concealed lines accept exposures."""
    c, m = card("sample"), matcher("sample")
    for h in sample_hands(c, random.Random("open"), 100, open_hands=True):
        agree(c, m, h, open_hands=True)


def _check_batches(m: Matcher, hands: Sequence[Hand]) -> None:
    away, which = m.tiles_away_many(hands)
    for i, h in enumerate(hands):
        one = {x.line.id: _answer(x) for x in m.tiles_away(h)}
        many = {line.id: (int(away[i, li]), int(which[i, li]))
                for li, line in enumerate(m.card.lines) if away[i, li] >= 0}
        assert one == many, f"hand {_show(m.card, h)}: batch differs"
    singles = [m.is_complete(h) for h in hands]
    batch = m.is_complete_many(hands)
    assert [(x.line.id, x.variation) if x else None for x in singles] == \
        [(x.line.id, x.variation) if x else None for x in batch]


def test_the_sample_mix_bites() -> None:
    """The agreement is tested where it matters: complete and near hands."""
    c, m = card("sample"), matcher("sample")
    hands = sample_hands(c, random.Random("agree:sample"), 500)
    nearest = [min(x.tiles_away for x in m.tiles_away(h)) for h in hands]
    assert sum(n == 0 for n in nearest) >= 0.2 * len(hands)
    assert sum(n in (1, 2) for n in nearest) >= 0.3 * len(hands)
    assert sum(bool(h.exposures) for h in hands) >= 0.1 * len(hands)
    assert sum(h.concealed.count(c.deck.joker_index) >= 3 for h in hands) >= 0.1 * len(hands)


def test_nearest_lines_and_their_filling() -> None:
    """The k nearest lines, nearest first; the filling names what is missing."""
    c, m = card("sample"), matcher("sample")
    line = c.lines[0]
    tiles = [t for g in line.variations[0].groups for t in g.tiles]
    h = Hand(tuple(tiles[:-1]))
    near = m.nearest(h, 3)
    assert len(near) == 3 and near[0].line.id == line.id and near[0].tiles_away == 1
    assert near[0].missing == [c.deck.code(tiles[-1])]
    assert [x.tiles_away for x in near] == sorted(x.tiles_away for x in near)


def test_slots_alike_are_made_once_per_deck() -> None:
    """A filling's slots are frozen and few in kind, so the matcher makes
    each once for its deck and every filling shares it (a rack plan fills
    lines by the thousand); the filling read is the reference's."""
    c, m = card("sample"), compile_matcher(card("sample"))
    line = c.lines[0]
    tiles = [t for g in line.variations[0].groups for t in g.tiles]
    first, second = Hand(tuple(tiles[:-1])), Hand(tuple(tiles[1:]))
    filled = [m.explain(h, line, 0) for h in (first, second)]
    shared = {id(s) for g in filled[0] for s in g} & {id(s) for g in filled[1] for s in g}
    assert shared  # the slots both hands fill alike are one object
    for h, slots in zip((first, second), filled, strict=True):
        ref = next(r for r in match_card(c, h) if r.line.id == line.id)
        assert sorted(s.want for g in slots for s in g if s.filled_by is None) == \
            sorted(ref.missing)


def test_exposures_fix_whole_groups() -> None:
    """An exposed pung seats only on a group of those tiles; a concealed line
    refuses exposures unless every hand may be open."""
    c, m = card("classic"), matcher("classic")
    h = hand(c, "2B 3B 4B 7D 8D 9D N N N RD RD", ["5C 5C 5C"])
    assert [x.line.id for x in m.completions(h)] == ["four-sets-and-a-pair"]
    assert {x.line.id for x in m.tiles_away(h, open_hands=True)} == {"four-sets-and-a-pair"}
    run = hand(c, "2B 3B 4B 7D 8D 9D N N N RD RD", ["5C 6C 7C"])
    assert m.is_complete(run) is not None
    orphans = hand(c, "1B 9B 1C 9C 1D 9D RD GD WD WD", ["N E W S"])
    assert m.is_complete(orphans) is None
    assert m.is_complete(orphans, open_hands=True).line.id == "thirteen-orphans"  # type: ignore[union-attr]


def _agree_chunk(job: tuple[str, int, int]) -> int:
    name, part, count = job
    return len(_agree_all(name, count, f"slow:{name}:{part}"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HANDS))
def test_agreement_on_a_hundred_thousand_hands(name: str) -> None:
    """100,000 hands per card, in parts spread over the machine's cores."""
    jobs = [(name, part, 2_000) for part in range(50)]
    with multiprocessing.get_context("spawn").Pool(os.cpu_count()) as pool:
        assert sum(pool.imap_unordered(_agree_chunk, jobs)) == 100_000


@pytest.mark.parametrize("name", ["nymj", "sample"])
def test_a_filling_leaves_open_as_many_slots_as_the_hand_is_tiles_away(name: str) -> None:
    """The filling a hint or a rack plan shows (explain) fills as many of its
    variation's slots as the matcher's tiles away say, on hands drawn near
    the lines (exposures and jokers among them): it binds each free group to
    a shape that keeps the best score, leaving out only shapes that cannot
    reach it, so a filling short of the score would be a shape wrongly left
    out."""
    c, m = card(name), matcher(name)
    checked = 0
    for h in sample_hands(c, random.Random(f"filling {name}"), 150):
        for near in m.nearest(h, 3):
            slots = [s for g in near.filling() for s in g]
            open_slots = sum(s.filled_by is None for s in slots)
            assert open_slots == near.tiles_away, (_show(c, h), near.line.id)
            checked += 1
    assert checked >= 150
