"""The hand notation prints back to itself: parse(str(x)) == x (docs/notation.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jongg.compiler import pattern as p
from jongg.compiler.errors import NotationError
from jongg.compiler.notation import parse

PATTERNS = [
    # year hands, White as zero (MJCG-33), flowers (MJCG-34)
    "FF {year}a 2222b 2222c",
    "FFF {year}a 666b 6666c",
    "{year}a DDDDa 2222b 66b",
    "NNN {year}a {year}b SSS",
    "FF 2222a 20b 26b 6666c",
    "{year}a NEWS hhhh FF ; h in dragon",
    "FFFF 2000a 2222b 2222c",
    # 2468, like numbers, colours (MJCG-30)
    "222a 4444a 666a 8888a",
    "22a 444b 66a 888b 2222c",
    "FFFF nnnna nnnnb nnnnc ; n in 1..9",
    "FF nnnna mmmma nnnnb mmmmb ; n in 1..8 ; m = n+1",
    "FFFF nnnna nnnnb nnnnc ; n in 2, 4, 6, 8",
    # consecutive runs, shift (MJCG-31)
    "11a 222a 3333a 444a 55a ; shift",
    "1111a 2222a 3333a 44a ; shift",
    "11a 333a 5555a 777a 99a ; shift 2",
    "na pa qa ra ta kkb kkkkc ; n in 1..5 ; p = n+1 ; q = n+2 ; r = n+3 ; t = n+4 ; k in n..n+4",
    "nnna mmmma pppa 11b ; n in 1..7 ; m = n+1 ; p = n+2",
    "kkk mmm NEWS ; k in n-2..n ; m = 5 ; n in 3..9",
    # odds, evens, 369
    "11a 33a 555a 7777a 99a",
    "nnna nnnnb nnnnc 9a ; n in odd",
    "qqqqa qqqqb 22c 44c ; q in even",
    "333a 6666a 999a 33b 66b ; suits 1,2",
    "3333a 6666b 9999c FF ; n in 3, 6, 9",
    # winds and dragons, matching dragons (MJCG-32)
    "NNNN EEE WWW SSSS",
    "NN EEE WWW SSSS DDDa",
    "hhh kkk NEWS ; h in dragon ; k in dragon ; h != k",
    "RRR GGG 000 NEWS 11a",
    "RG0 NNNN SSSS FFF",
    "DDDa DDDb DDDc FFFFF",
    "wwww FFF 1111a 2222a ; w in wind",
    # quints and sextets (MJCG-27, MJCG-28)
    "11111a 22222b 3333c",
    "FFFFF 11111a! 2222b",
    "111111a 222222b FF",
    # choices
    "(222a|555a) 1111b 9999c FF",
    "(11a!|22a) 3333b (RRR|GGG)",
    "(NNNN|SSSS) EEE WWW FFFF",
    # multiplication and addition, decorations carry no tiles (MJCG-35)
    "FFFF 4444a x 4444b = 16c",
    "FF 1111a + 6666b = 7777c",
    "FF 2222a * 3333b = 6666c",
    "FF 11a + 22a = 33a 4444b",
    # singles and pairs, no jokers (MJCG-29)
    "NN EE WW SS 11a 22a 33a 4a!",
    "FF 11a! 22b! 33c! 44a! 55b!",
    # structural groups (MJCG-22)
    "3[kong] [pair]",
    "4[set] [pair]",
    "[pung] [pung] [run] [pair]",
    "2[kong!] [quint] [single] [sextet]",
    "12[single] [pair]",
    # conditions
    "nna mma ppa ; distinct n, m, p",
    "nnna mmma ; n != m ; n in 1..9 ; m in 1..9",
    "nnnna mmmmb ; n in 1..4, 6..9 ; m in n+1..9",
    "111a 222b 333c ; suits 1,3",
    "nn mm ; n in wind ; m in dragon",
    "nnna ; n in 1, odd, m..m+2 ; m = 3",
    # whole-line alternatives
    "11a 22a 33a | 55a 66a 77a",
    "11a 22a 33a | 11a 22b 33c | 3[kong] [pair]",
    "nnna mmmmb ; n in 1..5 ; m = n+4 | FF 1111a 2222b ; shift",
    "RRR GGG 000 | NNN EEE WWW SSS ; suits 1",
    # conditions after the last alternative bind every alternative
    "111a 222b 333c | 111a 222a 333a ; suits 1,3",
    # arithmetic, tests, digits of a value
    "FFFF nnnna mmmmb 13c ; m = 13-n",
    "FFFF nnnna x mmmmb = 16c ; n*m = 16",
    "FF nnnna x mmmmb = {n*m}c ; n in 2..9 ; m in 2..9",
    "FF nnnna mmmmb {n+m}c ; n+m != 10 ; n != 2",
    "nna ; m = (n+1)*2-3 ; m*(n+1) = n-(m-2)",
    # choices of several groups
    "FFFF (4444a 9999b|5555a 8888b|6666a 7777b) 13c",
    # the offset of a shift as a variable
    "12345a kka kkkkb kkkkc ; shift s ; k in s+1..s+5",
    "135a 7777b 9999c ; shift 2 s",
    # suits per letter
    "333a 6666a 666b 9999c ; c may be b",
    "FF 2017a DDa 2017b DDb ; a, b in bams, craks",
    "FF 2017a DDa 2017c DDc ; a not in dots ; c not in dots",
    "111a 222b 333c 444d ; suits 2 ; a != b ; c may be a, b",
]


def test_the_list_is_long_and_covers_every_construct() -> None:
    assert len(PATTERNS) >= 40
    values = [parse(text) for text in PATTERNS]
    alts = [a for v in values for a in v.alternatives]
    items = [i for a in alts for i in a.items]
    groups = [g for a in alts for g in a.groups()]
    conditions = [c for a in alts for c in a.conditions]
    atoms = {atom for g in groups for atom in g.atoms}
    assert {p.YEAR, "0", "D", "R", "G", "N", "E", "W", "S", "F"} <= atoms
    assert {g.suit for g in groups} >= {None, "a", "b", "c"}
    assert any(not g.jokers for g in groups)
    assert any(isinstance(i, p.Choice) for i in items)
    assert {i.kind for i in items if isinstance(i, p.Free)} == set(p.FREE_SIZES)
    assert any(isinstance(i, p.Free) and i.count > 1 for i in items)
    assert any(isinstance(i, p.Free) and not i.jokers for i in items)
    assert {i.text for i in items if isinstance(i, p.Decoration)} == {"+", "=", "x", "*"}
    kinds = {type(c) for c in conditions} | {type(c) for v in values for c in v.shared}
    assert kinds == {p.VarIn, p.VarIs, p.VarDiffers, p.Distinct, p.Relation, p.Shift, p.Suits,
                     p.LetterIn, p.LetterMay, p.LetterDiffers}
    assert {c.step for c in conditions if isinstance(c, p.Shift)} == {1, 2}
    assert any(len(v.alternatives) > 2 for v in values)


@pytest.mark.parametrize("text", PATTERNS)
def test_round_trip(text: str) -> None:
    value = parse(text)
    assert isinstance(value, p.Pattern)
    assert parse(str(value)) == value
    assert str(parse(str(value))) == str(value)


@pytest.mark.parametrize("text", PATTERNS)
def test_printing_is_canonical(text: str) -> None:
    """Every list entry is written the way the printer writes it."""
    assert str(parse(text)) == text


def test_spacing_is_free_but_prints_canonically() -> None:
    text = "  11a   22b ;shift 2;n in 1 .. 5,odd ; m in 3,6,9  "
    assert str(parse(text)) == "11a 22b ; shift 2 ; n in 1..5, odd ; m in 3, 6, 9"


def test_parsed_structure() -> None:
    value = parse("FF {year}a 11111a! (2b|5b) 3[kong!] x ; n in 1..9 ; m = n-2")
    (alt,) = value.alternatives
    ff, year, quint, choice, free, times = alt.items
    assert ff == p.Group(("F", "F"))
    assert year == p.Group((p.YEAR,), "a")
    assert quint == p.Group(("1",) * 5, "a", jokers=False)
    assert choice == p.Choice(((p.Group(("2",), "b"),), (p.Group(("5",), "b"),)))
    assert free == p.Free("kong", 3, jokers=False)
    assert times == p.Decoration("x")
    assert alt.conditions == (p.VarIn("n", (p.Span(p.Expr(None, 1), p.Expr(None, 9)),)),
                              p.VarIs("m", p.Expr("n", -2)))


def test_signs_inside_a_choice_are_kept_where_they_are_printed() -> None:
    text = "FFFF (3333a + 9999b|4444a + 8888b) = 12c"
    value = parse(text)
    assert str(value) == text
    (alt,) = value.alternatives
    _, choice, equals, pair = alt.items
    assert isinstance(choice, p.Choice) and equals == p.Decoration("=")
    assert choice.options == ((p.Group(("3",) * 4, "a"), p.Group(("9",) * 4, "b")),
                              (p.Group(("4",) * 4, "a"), p.Group(("8",) * 4, "b")))
    assert choice.signs == (("", "+", ""), ("", "+", ""))
    assert [g for g in alt.groups()] == [p.Group(("F",) * 4), *choice.options[0],
                                         *choice.options[1], pair]
    assert parse("(2b|5b)").alternatives[0].items[0] == p.Choice(((p.Group(("2",), "b"),),
                                                                  (p.Group(("5",), "b"),)))
    assert str(parse("(  + 1a x = 2b *|3c)")) == "(+ 1a x = 2b *|3c)"


# -- generated values -------------------------------------------------------------
VARIABLES = "fghijkmnpqrstuvwyz"
ATOMS = st.sampled_from([*"0123456789", *"FNEWSDRG", *VARIABLES, p.YEAR])
SUITS = st.sampled_from([None, *"abcde"])
variable = st.sampled_from(VARIABLES)

groups = st.builds(p.Group, st.lists(ATOMS, min_size=1, max_size=6).map(tuple), SUITS,
                   st.booleans())
options = st.lists(groups, min_size=1, max_size=3).map(tuple)
GAPS = st.sampled_from(["", "", "", "+", "=", "x", "*", "+ ="])  # the signs in a gap


def _choice(written: list[tuple[p.Option, p.Signs]]) -> p.Choice:
    """A choice as the parser builds it: signs kept only when an option has some."""
    signs = tuple(gaps for _, gaps in written)
    return p.Choice(tuple(option for option, _ in written),
                    signs=signs if any(any(gaps) for gaps in signs) else ())


signed_options = options.flatmap(lambda option: st.tuples(
    st.just(option), st.lists(GAPS, min_size=len(option) + 1,
                              max_size=len(option) + 1).map(tuple)))
choices = st.lists(signed_options, min_size=1, max_size=3).map(_choice)
frees = st.builds(p.Free, st.sampled_from(sorted(p.FREE_SIZES)), st.integers(1, 20),
                  st.booleans())
decorations = st.builds(p.Decoration, st.sampled_from("+=x*"))
items = st.one_of(groups, groups, choices, frees, decorations)

simple = st.one_of(st.builds(p.Expr, st.none(), st.integers(0, 99)),
                   st.builds(p.Expr, variable, st.integers(-9, 9)))
exprs = st.recursive(simple, lambda inner: st.builds(p.arith, st.sampled_from("+-*"), inner,
                                                     inner), max_leaves=4)
domain_parts = st.one_of(st.builds(p.Span, exprs, exprs), st.builds(p.One, exprs),
                         st.builds(p.Named, st.sampled_from(["odd", "even", "dragon", "wind"])))
conditions = st.one_of(
    st.builds(p.VarIn, variable, st.lists(domain_parts, min_size=1, max_size=3).map(tuple)),
    st.builds(p.VarIs, variable, exprs),
    st.builds(p.VarDiffers, variable, variable),
    st.builds(p.Distinct, st.lists(variable, min_size=2, max_size=4).map(tuple)),
    st.builds(p.relation, st.sampled_from(["=", "!="]), exprs, exprs),
    st.builds(p.Shift, st.integers(1, 9), st.one_of(st.none(), variable)),
    st.builds(p.Suits, st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple)),
    st.builds(p.LetterIn, st.lists(st.sampled_from("abcde"), min_size=1, max_size=2).map(tuple),
              st.lists(st.sampled_from(["bams", "craks", "dots"]), min_size=1,
                       max_size=2).map(tuple), st.booleans()),
    st.builds(p.LetterMay, st.sampled_from("abcde"),
              st.lists(st.sampled_from("abcde"), min_size=1, max_size=2).map(tuple)),
    st.builds(p.LetterDiffers, st.sampled_from("abcde"), st.sampled_from("abcde")),
)
alternatives = st.builds(p.Alternative, st.lists(items, min_size=1, max_size=6).map(tuple),
                         st.lists(conditions, max_size=4).map(tuple))


def _pattern(alts: list[p.Alternative], shared: list[p.Condition]) -> p.Pattern:
    """A pattern as the parser builds it: conditions after the last alternative
    are shared when no earlier alternative has its own."""
    *first, last = alts
    if first and not any(alt.conditions for alt in first):
        return p.Pattern((*first, p.Alternative(last.items)), tuple(shared) + last.conditions)
    return p.Pattern(tuple(alts))


patterns = st.builds(_pattern, st.lists(alternatives, min_size=1, max_size=3),
                     st.lists(conditions, max_size=2))


@settings(deadline=None, max_examples=150)
@given(patterns)
def test_generated_patterns_round_trip(value: p.Pattern) -> None:
    text = str(value)
    assert parse(text) == value
    assert str(parse(text)) == text


@settings(deadline=None, max_examples=120)
@given(groups)
def test_generated_groups_keep_their_atoms(group: p.Group) -> None:
    (alt,) = parse(str(group)).alternatives
    (parsed,) = alt.items
    assert isinstance(parsed, p.Group)
    assert parsed.atoms == group.atoms
    assert parsed.suit == group.suit
    assert parsed.jokers == group.jokers


# -- the parser never fails with anything but a NotationError ----------------------
ALPHABET = "0123456789FNEWSDRGabcdefghnmxyz{}[]()|;=+*!,. "
KEYWORDS = st.sampled_from([" in ", " shift", " suits ", " distinct ", "..", "!=", "{year}",
                            "[pung]", "[kong!]", " ; ", " odd", " dragon", " wind", "year"])


def _parses_or_notation_error(text: str) -> None:
    try:
        result = parse(text)
    except NotationError as error:
        assert error.diagnostics
        assert str(error)
    else:
        assert isinstance(result, p.Pattern)
        assert parse(str(result)) == result


@settings(deadline=None, max_examples=180)
@given(st.text())
def test_arbitrary_text(text: str) -> None:
    _parses_or_notation_error(text)


@settings(deadline=None, max_examples=300)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_text_from_the_notations_alphabet(text: str) -> None:
    _parses_or_notation_error(text)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.one_of(st.text(alphabet=ALPHABET, max_size=4), KEYWORDS), max_size=12)
       .map("".join))
def test_text_from_the_notations_words(text: str) -> None:
    _parses_or_notation_error(text)
