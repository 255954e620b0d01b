"""JSON Schema validation of cards, decks and variants: every error, at its position."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources

import jsonschema
import pytest

from jongg.compiler.card import check_card, compile_card_document
from jongg.compiler.deck import compile_deck
from jongg.compiler.errors import Diagnostic, Location, SchemaError
from jongg.compiler.registry import shipped
from jongg.compiler.schema import PATTERN_WORDS, key_path, schema, validate
from jongg.compiler.source import load_text

SCHEMAS = ["card", "deck", "variant"]


def _diagnostics(text: str, name: str, file: str = "c.yaml") -> list[Diagnostic]:
    with pytest.raises(SchemaError) as info:
        validate(load_text(text, file), name)
    return info.value.diagnostics


def _at(text: str, line: int, needle: str) -> int:
    """The 1-based column of `needle` on 1-based `line` of `text`."""
    return text.splitlines()[line - 1].index(needle) + 1


@pytest.mark.parametrize("name", SCHEMAS)
def test_shipped_schemas_are_valid_json_schemas(name: str) -> None:
    raw = resources.files("jongg.compiler.schemas").joinpath(f"{name}.schema.json").read_text()
    loaded = json.loads(raw)
    jsonschema.Draft202012Validator.check_schema(loaded)
    assert schema(name) == loaded
    assert loaded["additionalProperties"] is False


@pytest.mark.parametrize(("kind", "name"),
                         [(kind, n) for kind in SCHEMAS for n in shipped(kind)])
def test_shipped_rulesets_satisfy_their_schema(kind: str, name: str) -> None:
    folder = {"card": "cards", "deck": "decks", "variant": "variants"}[kind]
    entry = resources.files("jongg.rulesets").joinpath(folder, f"{name}.yaml")
    validate(load_text(entry.read_text(encoding="utf-8"), entry.name), kind)


CARD_UNKNOWN_TOP = """\
card: demo
deck: american-152
colour: red
lines:
  - {id: one, hand: "3[kong] [pair]", value: 50}
"""


def test_card_unknown_key_at_the_key() -> None:
    (d,) = _diagnostics(CARD_UNKNOWN_TOP, "card")
    assert d.location == Location("c.yaml", 3, 1)
    assert "unknown key 'colour'" in d.message
    assert d.hint is not None and d.hint.startswith("allowed keys: ")
    for key in ("card", "clause", "deck", "hand_size", "lines", "title", "year"):
        assert key in d.hint
    assert str(d).startswith("c.yaml:3:1: error: ")


CARD_UNKNOWN_IN_LINE = """\
card: demo
deck: american-152
lines:
  - id: one
    hand: "3[kong] [pair]"
    value: 50
    flavour: sweet
"""


def test_card_unknown_key_inside_a_line() -> None:
    (d,) = _diagnostics(CARD_UNKNOWN_IN_LINE, "card")
    assert d.location == Location("c.yaml", 7, 5)
    assert "lines[0]" in d.message and "unknown key 'flavour'" in d.message
    assert d.hint is not None
    for key in ("clause", "concealed", "hand", "id", "jokers", "note", "section", "value"):
        assert key in d.hint


def test_wrong_type_at_the_value() -> None:
    text = CARD_UNKNOWN_IN_LINE.replace("value: 50", 'value: "abc"').replace(
        "    flavour: sweet\n", "")
    (d,) = _diagnostics(text, "card")
    assert d.location == Location("c.yaml", 6, _at(text, 6, '"abc"'))
    assert "lines[0].value" in d.message
    assert "'abc' is not of type 'integer'" in d.message


def test_wrong_type_in_a_flow_mapping() -> None:
    text = "card: demo\ndeck: american-152\nlines:\n  - {id: one, hand: 7, value: 5}\n"
    (d,) = _diagnostics(text, "card")
    assert d.location == Location("c.yaml", 4, _at(text, 4, "7"))
    assert "lines[0].hand" in d.message


CARD_THREE_MISTAKES = """\
card: demo
deck: american-152
hand_size: fourteen
lines:
  - id: one
    hand: "3[kong] [pair]"
    value: 50
    jokerz: false
  - id: two
    hand: "FF 1111a 2222b 3333c"
    value: "abc"
"""


def test_every_error_is_reported_at_once() -> None:
    diagnostics = _diagnostics(CARD_THREE_MISTAKES, "card")
    assert len(diagnostics) == 3
    located = {(d.location.line, d.location.column) for d in diagnostics if d.location}
    assert located == {(3, 12), (8, 5), (11, 12)}
    text = "\n".join(d.message for d in diagnostics)
    assert "hand_size" in text and "unknown key 'jokerz'" in text and "lines[1].value" in text
    assert all(d.is_error for d in diagnostics)


def test_every_unknown_key_of_a_mapping_is_reported() -> None:
    text = "card: demo\ndeck: american-152\ncolour: red\nflavour: sweet\nlines:\n" \
           "  - {id: one, hand: \"3[kong] [pair]\", value: 50}\n"
    diagnostics = _diagnostics(text, "card")
    assert {d.location.line for d in diagnostics if d.location} == {3, 4}


@pytest.mark.parametrize(("text", "path", "needle"), [
    ("deck: demo\n", "", "'card' is a required property"),
    ("card: Demo Card\ndeck: x\nlines: [{id: a, hand: x}]\n", "card",
     "'Demo Card' must be lowercase letters, digits and hyphens"),
    ("card: d\ndeck: x\nlines: []\n", "lines", "should be non-empty"),
    ("card: d\ndeck: x\nlines: [{id: a, hand: ''}]\n", "lines[0].hand", "non-empty"),
    ("card: d\ndeck: x\nlines: [{id: a}]\n", "lines[0]", "'hand' is a required property"),
    ("card: d\ndeck: x\nyear: 20\nlines: [{id: a, hand: x}]\n", "year", "minimum"),
    ("card: d\ndeck: x\nclause: XYZ-1\nlines: [{id: a, hand: x}]\n", "clause", "XYZ-1"),
    ("- 1\n", "", "[1] is not of type 'object'"),
    ("", "", "None is not of type 'object'"),
])
def test_card_schema_violations(text: str, path: str, needle: str) -> None:
    """Keys are named as the author writes them; a problem of the whole file has no key."""
    diagnostics = _diagnostics(text, "card")
    prefix = f"{path}: " if path else ""
    assert any(d.message.startswith(prefix + needle) or (path and d.message.startswith(prefix)
                                                         and needle in d.message)
               for d in diagnostics), diagnostics


def test_a_name_that_breaks_its_pattern_is_told_in_words_with_the_name_meant() -> None:
    (d,) = _diagnostics("card: Two Sets\ndeck: y\nlines: [{id: a, hand: x}]\n", "card")
    assert "^" not in d.message and "lowercase letters" in d.message
    assert d.hint == "did you mean 'two-sets'?"
    (d,) = _diagnostics("card: d\ndeck: y\nlines: [{id: First Line, hand: x}]\n", "card")
    assert d.hint == "did you mean 'first-line'?"
    (d,) = _diagnostics("card: d\ndeck: y\nclause: mjcg 15\nlines: [{id: a, hand: x}]\n",
                        "card")
    assert "a rule clause ID, such as MJCG-15" in d.message
    assert d.hint == "did you mean 'MJCG-15'?"


@pytest.mark.parametrize("name", ["card", "deck", "variant"])
def test_every_pattern_of_the_schemas_is_told_in_words(name: str) -> None:
    """A new pattern in a schema must get its words, or users read a regex."""
    def patterns(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    yield value
                else:
                    yield from patterns(value)
        elif isinstance(node, list):
            for value in node:
                yield from patterns(value)

    found = set(patterns(schema(name)))
    assert found and found <= set(PATTERN_WORDS), found - set(PATTERN_WORDS)


def test_required_key_hint() -> None:
    (d,) = _diagnostics("card: x\ndeck: y\n", "card")
    assert "'lines' is a required property" in d.message
    assert d.hint == "add it"
    assert d.location == Location("c.yaml", 1, 1)


DECK = """\
deck: tiny
suits:
  - {code: B, name: Bams, numbers: [1, 9], copies: 4, colour: green}
tiles:
  - {code: RD, name: Red, category: dragonn, copies: 4}
  - {code: J, name: Joker, category: joker, copies: many}
"""


def test_deck_schema_errors() -> None:
    diagnostics = _diagnostics(DECK, "deck", "d.yaml")
    assert len(diagnostics) == 3
    by_line = {d.location.line: d for d in diagnostics if d.location}
    assert by_line[3].location == Location("d.yaml", 3, _at(DECK, 3, "colour"))
    assert "unknown key 'colour'" in by_line[3].message
    assert by_line[3].hint is not None and "numbers" in by_line[3].hint
    assert by_line[5].location == Location("d.yaml", 5, _at(DECK, 5, "dragonn"))
    assert "tiles[0].category" in by_line[5].message
    assert by_line[6].location == Location("d.yaml", 6, _at(DECK, 6, "many"))


VARIANT = """\
variant: demo
deck: 152
win:
  card: mjcg-beginner
  open_hand: true
"""


def test_variant_schema_errors() -> None:
    diagnostics = _diagnostics(VARIANT, "variant", "v.yaml")
    assert len(diagnostics) == 2
    by_line = {d.location.line: d for d in diagnostics if d.location}
    assert by_line[2].location == Location("v.yaml", 2, 7)
    assert "152 is not of type 'string'" in by_line[2].message
    assert by_line[5].location == Location("v.yaml", 5, 3)
    assert "unknown key 'open_hand'" in by_line[5].message
    assert by_line[5].hint == "did you mean 'open_hands'? allowed keys: card, clause, flags, " \
        "open_hands, scored"


def test_valid_documents_pass() -> None:
    validate(load_text("variant: v\ndeck: american-152\nwin: {card: x}\n", "v.yaml"), "variant")
    validate(load_text("deck: d\n", "d.yaml"), "deck")
    validate(load_text(CARD_UNKNOWN_TOP.replace("colour: red\n", ""), "c.yaml"), "card")


def test_key_path_names_keys_as_the_author_writes_them() -> None:
    assert key_path(()) == ""
    assert key_path(("lines", 3, "hand")) == "lines[3].hand"
    assert key_path(("before_play", 0, "to")) == "before_play[0].to"
    assert key_path(("by_players", "3", "deal")) == "by_players.3.deal"


# -- every problem at once, in the author's words ---------------------------------------
@pytest.mark.parametrize(("text", "needle", "message", "hint"), [
    ("before_play: [{phase: pass, to: acros, count: 3}]", "acros",
     "before_play[0].to: 'acros' is not one of ['right', 'left', 'across']",
     "did you mean 'across'?"),
    ("before_play: [{phase: pas, to: left, count: 3}]", "pas",
     "before_play[0].phase: 'pas' is not one of ['pass', 'vote', 'courtesy', 'pledge']",
     "did you mean 'pass'?"),
    ("scoring: {win: [{payer: each-oponent, amount: '1'}]}", "each-oponent",
     "scoring.win[0].payer: 'each-oponent' is not one of", "did you mean 'each-opponent'?"),
    ("by_players: {'3': {dael: {each: 9}}}", "dael", "by_players.3: unknown key 'dael'",
     "did you mean 'deal'?"),
])
def test_a_misspelt_choice_or_key_gets_a_suggestion(text: str, needle: str, message: str,
                                                    hint: str) -> None:
    body = f"variant: v\n{text}\n"
    (d,) = _diagnostics(body, "variant", "v.yaml")
    assert d.message.startswith(message)
    assert d.hint is not None and d.hint.startswith(hint)
    assert d.location == Location("v.yaml", 2, _at(body, 2, needle))


def test_a_long_value_is_quoted_in_short() -> None:
    long = "x" * 5000
    (d,) = _diagnostics(f"variant: v\ndeck: [{long}]\n", "variant", "v.yaml")
    assert d.message.startswith("deck: ['xxxx")
    assert "is not of type 'string'" in d.message
    assert len(d.message) < 200


CARD_BOTH = """\
card: demo
deck: american-152
hand_size: fourteen
lines:
  - {id: one, hand: "3[kong] [pair]", value: 50, jokerz: false}
  - {id: two, hand: "FF 2222a 2222b X", value: 25}
  - {id: three, hand: "FF 1111a 2222b 3333c", value: 25}
"""


def test_a_card_gets_its_schema_and_semantic_problems_together() -> None:
    """A line that breaks the schema is set aside; the others are checked all the same."""
    report = check_card(load_text(CARD_BOTH, "c.yaml"))
    messages = [d.message for d in report.errors]
    assert any(m.startswith("hand_size: 'fourteen' is not of type 'integer'") for m in messages)
    assert any(m.startswith("lines[0]: unknown key 'jokerz'") for m in messages)
    assert any("unknown tile or suit letter" in m for m in messages)  # line two, still checked
    assert report.schema_errors == 2
    assert len(messages) == 3, messages
    with pytest.raises(SchemaError) as info:
        compile_card_document(load_text(CARD_BOTH, "c.yaml"))
    assert len(info.value.diagnostics) == 3


def test_a_deck_gets_its_schema_and_semantic_problems_together() -> None:
    text = DECK.replace("{code: J, name: Joker, category: joker, copies: many}",
                        "{code: J, name: Joker, category: joker, copies: 8}\n"
                        "  - {code: J, name: Again, category: joker, copies: 8}")
    with pytest.raises(SchemaError) as info:
        compile_deck(load_text(text, "d.yaml"))
    messages = [d.message for d in info.value.diagnostics]
    assert any("unknown key 'colour'" in m for m in messages)
    assert any("'dragonn' is not one of" in m for m in messages)
    assert "tile code 'J' is used twice" in messages
    (typo,) = [d for d in info.value.diagnostics if "dragonn" in d.message]
    assert typo.hint == "did you mean 'dragon'?"
