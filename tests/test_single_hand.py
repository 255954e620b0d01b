"""One hand at a time: the quick ways answer exactly as the long ways do."""

from __future__ import annotations

import random

import numpy as np
import pytest

from jongg.compiler import cache
from jongg.compiler.matcher import compile_matcher
from jongg.runtime.hand import Hand
from jongg.runtime.matching import accelerated, folding, lookup, matcher
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.reference import match_card
from jongg.runtime.matching.samples import sample_hands

from .conftest import card, in_c_or_python


def _plain_hands(name: str, count: int, seed: str) -> list[Hand]:
    """Hands without exposures: near the card's lines (jokers among them),
    and drawn from the wall at every size from none to one past the hand."""
    c = card(name)
    rng = random.Random(seed)
    hands = [h for h in sample_hands(c, rng, count) if not h.exposures]
    wall = c.deck.wall()
    hands += [Hand(tuple(rng.sample(wall, rng.randrange(c.hand_size + 2))))
              for _ in range(count // 4)]
    return hands


def _long_way(name: str) -> Matcher:
    """A matcher of the card that never takes the keyed table's way."""
    m = compile_matcher(card(name))
    vars(m)["_table_alone"] = False
    return m


def _answers(m: Matcher, h: Hand) -> list[tuple[str, int, int]]:
    return [(x.line.id, x.tiles_away, x.variation) for x in m.tiles_away(h)]


@pytest.mark.parametrize("in_c", in_c_or_python(accelerated.line_keys))
def test_one_hand_through_the_keyed_table_answers_as_the_long_way(
        in_c: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample card is all table: a hand without exposures is scored by
    its rows of the keyed table and sorted by key, in as few NumPy calls as
    can be (one call of C where the accelerator is built), its Match
    objects made in one call; every line, tiles away,
    variation and tie (card order) is the long way's, and the reference's."""
    if not in_c:
        monkeypatch.setattr(matcher, "extend_each", accelerated.extend_each_python)
        monkeypatch.setattr(accelerated, "line_keys", None)
        monkeypatch.setattr(accelerated, "line_best", None)
    quick, slow = compile_matcher(card("sample")), _long_way("sample")
    assert quick._table_alone
    hands = _plain_hands("sample", 600, "keyed")
    assert any(quick.joker in h.concealed for h in hands)
    assert any(quick.joker not in h.concealed for h in hands)
    for h in hands:
        assert _answers(quick, h) == _answers(slow, h), h
        assert quick.scores(h) == slow.scores(h), h
    for h in hands[:25]:
        assert _answers(quick, h) == [(r.line.id, r.tiles_away, r.variation)
                                      for r in match_card(quick.card, h)], h


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced"])
def test_each_lines_best_by_keys_is_the_tables(name: str) -> None:
    """Columns.line_best (the hand's keyed rows summed as 64-bit words of
    lanes) is best(scores()) for hands with and without jokers: four 16-bit
    lanes a word on the sample card's 1,255 columns, two 32-bit lanes on
    the advanced table's 10,617 (its keys pass 16 bits); the same keys
    summed lane by lane in C, where the accelerator is built; and the same
    lines' best from line_scores() (each line's first best column, in C)."""
    m = compile_matcher(card(name))
    columns = m.columns
    lanes = np.dtype(columns._keyed.lane).itemsize
    assert lanes == (2 if name == "sample" else 4)
    for h in _plain_hands(name, 300, "lanes"):
        counts, jokers = m._held(h)
        best, variations = columns.line_best(counts, jokers)
        want, want_variations = columns.best(columns.scores(counts, jokers))
        assert best.tolist() == want.tolist(), h
        assert variations.tolist() == want_variations.tolist(), h
        assert columns.line_key_list(counts, jokers) == columns.line_keys(counts, jokers).tolist()
        assert columns.line_scores(counts, jokers) == list(zip(
            columns.line_of_start, want.tolist(), want_variations.tolist(), strict=True))


def test_a_hand_the_deck_cannot_hold_is_refused_on_the_keyed_way() -> None:
    m = compile_matcher(card("sample"))
    five = Hand((0,) * 5)
    with pytest.raises(ValueError, match="holds 5"):
        m.tiles_away(five)
    with pytest.raises(ValueError, match="has not"):
        m.scores(Hand((999,)))


SUMMINGS = [pytest.param(accelerated.compiled_fold, id="in C",
                         marks=pytest.mark.skipif(accelerated.compiled_fold is None,
                                                  reason="the C accelerator is not built here")),
            pytest.param(None, id="in Python")]


def _classic_pair(summing: accelerated.Fold | None = accelerated.compiled_fold
                  ) -> tuple[Matcher, Matcher]:
    """The classic card's matcher answering by its lookups (their keys
    summed by `summing`: C, or Python with None), and one that never builds
    them (the long way)."""
    quick, slow = compile_matcher(card("classic")), compile_matcher(card("classic"))
    quick.prepare(cache.tables_dir())
    slow.prepare(cache.tables_dir())
    quick.use_lookups(folding.build(quick.card, quick.columns, quick.programme, summing=summing))
    slow._no_lookup = True
    assert quick._lookup is not None
    assert "is_complete" in vars(quick) and "is_complete" not in vars(slow)
    return quick, slow


@pytest.mark.parametrize("summing", SUMMINGS)
def test_the_lookups_answer_one_hand_as_the_long_way(summing: accelerated.Fold | None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The classic card's lookups (the hand's keys summed in C or by one
    itemgetter, fold tables holding their states times the next width, each
    line's answer a shared tuple, the matcher's queries written out to take
    the Hand) give every line, tiles away, variation, tie and the best line
    completed as the long way does: hands near its lines, of every size
    from none to one past the hand (a hand of one tile, which one
    itemgetter cannot sum, goes the long way), and hands the deck cannot
    hold, refused alike."""
    if summing is None:
        monkeypatch.setattr(lookup, "extend_each", accelerated.extend_each_python)
    quick, slow = _classic_pair(summing)
    hands = _plain_hands("classic", 600, "lookups")
    assert {len(h.concealed) for h in hands} >= set(range(16))
    for h in hands:
        assert _answers(quick, h) == _answers(slow, h), h
        assert quick.scores(h) == slow.scores(h), h
        mine, long_way = quick.is_complete(h), slow.is_complete(h)
        assert (mine and (mine.line.id, mine.variation, mine.tiles_away)) == \
            (long_way and (long_way.line.id, long_way.variation, long_way.tiles_away)), h
        said = quick._lookup.completed(h.concealed, tuple, "more")  # before the Match
        assert said == (long_way and (long_way.line, 0, long_way.variation, "more")), h
    assert any(quick.is_complete(h) for h in hands)
    done = next(h for h in hands if quick.is_complete(h))
    for answer in [quick.is_complete(done), *quick.tiles_away(done)]:
        assert answer is not None and answer[3] is quick and answer[4] is done
        assert answer.filling() == slow.explain(done, answer.line, answer.variation)
    exposed = [h for h in sample_hands(quick.card, random.Random("exposed"), 200)
               if h.exposures]
    assert exposed
    for h in exposed:  # the long way, from the queries the lookups wrote
        assert _answers(quick, h) == _answers(slow, h), h
        assert quick.scores(h) == slow.scores(h), h
    for bad, says in [((0,) * 5 + tuple(range(9, 18)), "holds 5"), ((999,) * 14, "has not")]:
        for query in (quick.is_complete, quick.tiles_away, quick.scores):
            with pytest.raises(ValueError, match=says):
                query(Hand(bad))
    quick.prepare(None)  # new tables: the written-out queries, made from the old, are dropped
    assert not {"scores", "tiles_away", "is_complete"} & set(vars(quick))
    assert quick.tiles_away(done)[0].tiles_away == 0


@pytest.mark.skipif(accelerated.compiled_fold is None, reason="the C accelerator is not built here")
def test_the_keys_summed_in_c_are_the_keys_summed_in_python() -> None:
    """_fold.fold gives each component's key as the Python sum of the
    tiles' weights does, and None for what the Python way cannot read
    either: a kind out of range, a kind no component holds, not an int."""
    fold = accelerated.compiled_fold
    assert fold is not None
    rng = random.Random("fold")
    weights = [rng.randrange(1 << 31) for _ in range(12)]
    parts = [rng.randrange(3) for _ in range(11)] + [255]  # the last: no component's
    packed, part_of = np.asarray(weights, dtype=np.uint64).tobytes(), bytes(parts)
    for _ in range(500):
        tiles = [rng.randrange(11) for _ in range(rng.randrange(20))]
        want = tuple(sum(weights[t] for t in tiles if parts[t] == c) for c in range(3))
        assert fold(tiles, packed, part_of, 3) == want
        assert fold(tuple(tiles), packed, part_of, 3) == want
    for bad in [(11,), (12,), (-1,), (1 << 70,), (1.0,), ("1",)]:
        assert fold((0, *bad), packed, part_of, 3) is None, bad
    assert fold(iter([0]), packed, part_of, 3) is None
    with pytest.raises(ValueError):
        fold((0,), packed[:-8], part_of, 3)


@pytest.mark.skipif(accelerated.compiled_fold is None,
                    reason="the C accelerator is not built here")
def test_the_matches_made_in_c_are_the_matches_made_in_python() -> None:
    """_fold.extend_each makes what its Python stand-in makes: each key's
    head with the last item added, as the class asked for; a key past the
    heads or a class it cannot make is refused, not read out of bounds."""
    heads = [(1, "a"), (2, "b", None), ()]
    keys = [1, 0, 2, 1]
    made = accelerated.extend_each(matcher.Match, heads, keys, "hand")
    assert made == accelerated.extend_each_python(matcher.Match, heads, keys, "hand")
    assert made == [(2, "b", None, "hand"), (1, "a", "hand"), ("hand",), (2, "b", None, "hand")]
    assert all(type(m) is matcher.Match for m in made)
    with pytest.raises(IndexError):
        accelerated.extend_each(matcher.Match, heads, [3], "hand")
    with pytest.raises(TypeError):
        accelerated.extend_each(int, heads, keys, "hand")
    with pytest.raises(TypeError):
        accelerated.extend_each(matcher.Match, [1], [0], "hand")


@pytest.mark.skipif(accelerated.discard_nearness is None,
                    reason="the C accelerator is not built here")
def test_the_discards_weighed_in_c_refuse_what_they_cannot_read() -> None:
    """_fold.discard_nearness (its answers: tests/test_matcher.py, beside
    the Python way's) refuses a count past the table, arrays of the wrong
    type and arguments of the wrong kind, instead of reading out of bounds."""
    weigh = accelerated.discard_nearness
    assert weigh is not None
    m = compile_matcher(card("sample"))
    columns = m.columns
    table = columns._weighing
    args = [table.dense, columns._row_of_int32, {}, 0, -1, [], table.base, table.needed,
            table.line_of, table.lines, 0, 64]
    for h in _plain_hands("sample", 40, "refused"):  # one the few columns near it weigh
        args[2], args[3] = m._held(h)
        args[5] = sorted(set(h.concealed))
        if weigh(*args) is not None:
            break
    else:
        raise AssertionError("no hand weighed")

    def weighed(at: int, value: object) -> object:
        return weigh(*args[:at], value, *args[at + 1:])

    with pytest.raises(IndexError):
        weighed(2, {0: len(table.dense)})  # more of a kind than the table has rows for
    with pytest.raises(IndexError):
        weighed(2, {len(columns.card.deck.kinds): 1})  # no such kind
    with pytest.raises(IndexError):
        weighed(0, table.dense[:2])  # a table of two rows
    with pytest.raises(TypeError):
        weighed(6, table.base.astype(np.int32))
    with pytest.raises(TypeError):
        weighed(6, table.base[:-1])  # fewer columns than the table's
    with pytest.raises(TypeError):
        weighed(0, table.dense[:, :-1].copy())  # an odd number of lanes
    with pytest.raises(TypeError):
        weighed(2, [(0, 1)])
    with pytest.raises(TypeError):
        weigh(*args[:-1])


@pytest.mark.skipif(accelerated.line_best is None, reason="the C accelerator is not built here")
def test_each_lines_best_in_c_refuses_what_it_cannot_read() -> None:
    """_fold.line_best (its answers: the tests of line_scores() and of the
    seated columns, beside the Python ways) keeps the lines scoring its
    least or more, and refuses starts that do not rise within the columns,
    a count past the table, arrays of the wrong type and lists of lines or
    variations that do not match the table, instead of reading out of
    bounds."""
    best = accelerated.line_best
    assert best is not None
    m = compile_matcher(card("sample"))
    table = m.columns._weighing
    args = [table.dense, m.columns._row_of_int32, {0: 1}, 1, table.base, 0, table.starts,
            table.line_ids, table.variations, -(1 << 31)]
    found = best(*args)
    assert [li for li, _, _ in found] == table.line_ids
    assert [li for li, _, _ in best(*args[:-1], 1)] == [li for li, s, _ in found if s >= 1]

    def scored(at: int, value: object) -> object:
        return best(*args[:at], value, *args[at + 1:])

    for starts in ([1, 0], [0, table.count], [-1]):
        with pytest.raises(ValueError):
            best(*args[:6], starts, list(range(len(starts))), *args[8:])
    with pytest.raises(IndexError):
        scored(2, {0: len(table.dense)})
    with pytest.raises(TypeError):
        scored(4, table.base.astype(np.int64))
    with pytest.raises(TypeError):
        scored(0, table.dense.astype(np.int16))
    with pytest.raises(TypeError):
        scored(6, tuple(table.starts))
    with pytest.raises(TypeError):
        scored(7, table.line_ids[:-1])  # a line short of the starts
    with pytest.raises(TypeError):
        scored(8, table.variations[:-1])  # a column without its variation
    with pytest.raises(TypeError):
        best(*args[:-1])


def test_a_share_of_a_lines_groups_is_folded_alike_in_c_and_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A free-groups card's tables answer a jokerless hand's best over a
    share of a line's groups (what exposures leave) by a max-plus fold:
    in C where the accelerator is built, in lists where not. Every share of
    every shape, over hands near the card's lines and drawn from the wall,
    gives the same best both ways."""
    if accelerated.max_plus is None:
        pytest.skip("the C accelerator is not built here")
    from jongg.runtime.matching.building import demands

    m = compile_matcher(card("nymj"))
    m.prepare(cache.tables_dir())  # built once a session, then read
    tables = m.programme.shape_tables
    assert tables, "nymj's card has free groups answered by shape tables"
    hands = _plain_hands("nymj", 300, "shares")
    asked = 0
    for shape, table in tables.items():
        if len(table.tables) < 2:
            continue
        shares = demands(shape)
        for h in hands:
            counts, _ = m._held(Hand(tuple(t for t in h.concealed if t != m.joker)))
            keys = m.programme.keys_one(counts)
            for share in shares:
                in_c = table._best_within(keys, share)
                with monkeypatch.context() as python:
                    python.setattr(accelerated, "max_plus", None)
                    assert table._best_within(keys, share) == in_c, (h, share)
                asked += 1
    assert asked > 1000


@pytest.mark.skipif(accelerated.max_plus is None, reason="the C accelerator is not built here")
def test_the_fold_in_c_of_one_and_two_rows_is_the_most_of_their_sums() -> None:
    """nymj's shape has four components; a shape of one or two has no fold
    step, only the last: with one row the best of its shares asked, with two
    the best sum of the pairs asked. Rows drawn at random, impossible
    entries among them, answered as Python's max() answers."""
    assert accelerated.max_plus is not None
    rng = random.Random("max-plus")

    def packed(values: list[int]) -> bytes:
        return np.array(values, dtype=np.int32).tobytes()

    for _ in range(300):
        a = [rng.choice([-1000, *range(12)]) for _ in range(rng.randrange(1, 9))]
        b = [rng.choice([-1000, *range(12)]) for _ in range(rng.randrange(1, 9))]
        inside = rng.sample(range(len(a)), rng.randrange(1, len(a) + 1))
        assert accelerated.max_plus([a], b"", packed(inside)) == max(a[i] for i in inside)
        pairs = [(rng.randrange(len(a)), rng.randrange(len(b))) for _ in range(rng.randrange(1, 6))]
        flat = [x for pair in pairs for x in pair]
        assert accelerated.max_plus([a, b], b"", packed(flat)) == max(a[i] + b[j] for i, j in pairs)
    with pytest.raises(ValueError):
        accelerated.max_plus([[1, 2]], b"", b"")  # no share asked: as max() of nothing
    with pytest.raises(IndexError):
        accelerated.max_plus([[1, 2]], b"", packed([2]))  # a share past the row
