"""The positioned YAML loader (compiler.source): data, positions, and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from jongg.compiler.errors import LoadError, Location
from jongg.compiler.source import load_file, load_text

NESTED = """\
card: demo
lines:
  - id: one
    hand: "FF 2222a"
    value: 25
  - {id: two, hand: 'NEWS'}
meta:
    deep:
        key: [1, {inner: x}]
"""


def _load_error(text: str, file: str = "f.yaml") -> LoadError:
    with pytest.raises(LoadError) as info:
        load_text(text, file)
    return info.value


def test_data_is_plain_python() -> None:
    doc = load_text(NESTED, "c.yaml")
    assert doc.data == {
        "card": "demo",
        "lines": [{"id": "one", "hand": "FF 2222a", "value": 25},
                  {"id": "two", "hand": "NEWS"}],
        "meta": {"deep": {"key": [1, {"inner": "x"}]}},
    }
    assert type(doc.data) is dict
    assert doc.file == "c.yaml"
    assert doc.text == NESTED


@pytest.mark.parametrize(("path", "line", "column"), [
    ((), 1, 1),
    (("card",), 1, 7),
    (("lines",), 3, 3),
    (("lines", 0), 3, 5),
    (("lines", 0, "id"), 3, 9),
    (("lines", 0, "hand"), 4, 11),
    (("lines", 0, "value"), 5, 12),
    (("lines", 1), 6, 5),
    (("lines", 1, "id"), 6, 10),
    (("lines", 1, "hand"), 6, 21),
    (("meta", "deep", "key"), 9, 14),
    (("meta", "deep", "key", 1), 9, 18),
    (("meta", "deep", "key", 1, "inner"), 9, 26),
])
def test_value_locations_are_one_based(path: tuple[str | int, ...], line: int,
                                       column: int) -> None:
    doc = load_text(NESTED, "c.yaml")
    assert doc.locate(path) == Location("c.yaml", line, column)
    # the location really is where the value is written
    row = NESTED.splitlines()[line - 1]
    value = doc.data
    for part in path:
        value = value[part]
    if isinstance(value, str | int):
        assert row[column - 1:].lstrip("\"'").startswith(str(value))


@pytest.mark.parametrize(("path", "line", "column"), [
    (("card",), 1, 1),
    (("lines",), 2, 1),
    (("lines", 0, "hand"), 4, 5),
    (("lines", 1, "hand"), 6, 15),
    (("meta", "deep"), 8, 5),
    (("meta", "deep", "key"), 9, 9),
    (("meta", "deep", "key", 1, "inner"), 9, 19),
])
def test_key_locations(path: tuple[str | int, ...], line: int, column: int) -> None:
    doc = load_text(NESTED, "c.yaml")
    assert doc.locate_key(path) == Location("c.yaml", line, column)
    row = NESTED.splitlines()[line - 1]
    assert row[column - 1:].startswith(str(path[-1]))


def test_locate_falls_back_to_the_deepest_existing_node() -> None:
    doc = load_text(NESTED, "c.yaml")
    assert doc.locate(("lines", 0, "missing")) == doc.locate(("lines", 0))
    assert doc.locate(("nothing", "here")) == Location("c.yaml", 1, 1)
    assert doc.locate_key(("lines", 0, "missing")) == doc.locate(("lines", 0))


def test_string_start_skips_the_opening_quote() -> None:
    doc = load_text(NESTED, "c.yaml")
    assert doc.string_start(("lines", 0, "hand")) == Location("c.yaml", 4, 12)  # "FF..."
    assert doc.string_start(("lines", 1, "hand")) == Location("c.yaml", 6, 22)  # 'NEWS'
    assert doc.string_start(("card",)) == Location("c.yaml", 1, 7)  # plain


def test_string_start_of_a_block_scalar() -> None:
    doc = load_text("hand: >-\n  FF 2222a\n", "b.yaml")
    assert doc.data == {"hand": "FF 2222a"}
    assert doc.string_start(("hand",)) == Location("b.yaml", 2, 3)


@pytest.mark.parametrize(("text", "line", "column"), [
    ("a: [1, 2\n", 2, 1),
    ("a: b: c\n", 1, 5),
    ("a:\n\t- 1\n", 2, 1),
    ("a: 1\n b: 2\n", 2, 3),
    ("a: 'open\n", 2, 1),
    ("--- 1\n--- 2\n", 2, 1),
    ("x: *missing\n", 1, 4),
])
def test_malformed_yaml_names_file_line_column(text: str, line: int, column: int) -> None:
    error = _load_error(text, "bad.yaml")
    (diagnostic,) = error.diagnostics
    assert diagnostic.location == Location("bad.yaml", line, column)
    assert str(error).startswith(f"bad.yaml:{line}:{column}: error: malformed YAML: ")


def test_duplicate_keys_are_refused_at_the_second_key() -> None:
    text = "card: demo\nlines:\n  - id: one\n    value: 1\n    id: two\n"
    error = _load_error(text, "dup.yaml")
    (diagnostic,) = error.diagnostics
    assert diagnostic.location == Location("dup.yaml", 5, 5)
    assert "duplicate key 'id'" in str(error)
    assert str(error).startswith("dup.yaml:5:5: error: ")


def test_duplicate_top_level_key() -> None:
    error = _load_error("card: a\ndeck: b\ncard: c\n", "dup.yaml")
    assert str(error).startswith("dup.yaml:3:1: error: duplicate key 'card'")


def test_non_string_key_is_refused() -> None:
    error = _load_error("? [1, 2]\n: x\n", "k.yaml")
    assert error.diagnostics[0].location == Location("k.yaml", 1, 3)
    assert "key must be a string" in str(error)


def test_merge_keys_are_resolved() -> None:
    doc = load_text("base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  z: 3\n", "m.yaml")
    assert doc.data["child"] == {"x": 1, "y": 2, "z": 3}


def test_merge_keys_can_be_overridden() -> None:
    doc = load_text("base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  x: 9\n", "m.yaml")
    assert doc.data["child"] == {"x": 9, "y": 2}


def test_a_key_overriding_a_merge_is_located_where_it_is_written() -> None:
    text = "base: &b {x: {deep: 1}, y: 2}\nchild:\n  <<: *b\n  x: 9\n"
    doc = load_text(text, "m.yaml")
    assert doc.data["child"] == {"x": 9, "y": 2}
    assert doc.locate(("child", "x")) == Location("m.yaml", 4, 6)
    assert doc.locate_key(("child", "x")) == Location("m.yaml", 4, 3)
    assert ("child", "x", "deep") not in doc.locations  # the merged value is replaced whole
    assert doc.locate(("child", "y")) == Location("m.yaml", 1, 28)  # merged: where base has it


def test_an_earlier_merged_mapping_beats_a_later_one_and_merges_nest() -> None:
    text = ("a: &a {x: a, y: a}\nb: &b {<<: *a, x: b, z: b}\n"
            "c: {<<: [*b, *a], w: c}\nd: *b\ne: {<<: []}\n'<<': {<<: *a, '<<': q}\n")
    doc = load_text(text, "m.yaml")
    assert doc.data["b"] == {"x": "b", "y": "a", "z": "b"}
    assert doc.data["c"] == {"x": "b", "y": "a", "z": "b", "w": "c"}
    assert doc.data["d"] == doc.data["b"]  # an alias of a mapping that overrides a merge
    assert doc.data["e"] == {}
    assert doc.data["<<"] == {"x": "a", "y": "a", "<<": "q"}  # a quoted '<<' is a plain key


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("base: &b {x: 1}\nchild:\n  <<: *b\n  x: 9\n  x: 8\n", 5, 3, "duplicate key 'x'"),
    ("child: {<<: {k: 1, k: 2}}\n", 1, 20, "duplicate key 'k'"),
    ("a: &a {x: 1}\nchild: {<<: *a, <<: *a}\n", 2, 17, "duplicate key '<<'"),
    ("child: {<<: 3}\n", 1, 13, "a merge (<<) takes a mapping or a list of mappings"),
    ("child: {<<: [{k: 1}, 3]}\n", 1, 22, "a merge (<<) takes a mapping or a list of mappings"),
])
def test_a_duplicate_beside_a_merge_is_still_refused(text: str, line: int, column: int,
                                                     message: str) -> None:
    (d,) = _load_error(text, "m.yaml").diagnostics
    assert d.location == Location("m.yaml", line, column)
    assert message in d.message


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(LoadError) as info:
        load_file(missing)
    assert str(missing) in str(info.value)
    assert "no such file" in str(info.value)


def test_load_file_names_the_path(tmp_path: Path) -> None:
    good = tmp_path / "card.yaml"
    good.write_text("card: x\nlist:\n  - 1\n", encoding="utf-8")
    doc = load_file(good)
    assert doc.data == {"card": "x", "list": [1]}
    assert doc.locate(("list", 0)) == Location(str(good), 3, 5)
    bad = tmp_path / "bad.yaml"
    bad.write_text("card: [\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_file(bad)
    assert str(info.value).startswith(f"{bad}:2:1: error: ")


def test_undecodable_file_is_a_load_error(tmp_path: Path) -> None:
    bad = tmp_path / "latin.yaml"
    bad.write_bytes(b"card: caf\xe9\n")
    with pytest.raises(LoadError) as info:
        load_file(bad)
    (d,) = info.value.diagnostics
    assert d.location == Location(str(bad), 1, 10)  # at the byte that is not UTF-8
    assert "not UTF-8" in d.message and "0xE9" in d.message
    assert d.hint == "save the file as UTF-8"


def test_a_directory_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError):
        load_file(tmp_path)


@pytest.mark.parametrize("text", [
    "x: !!python/name:os.system ''\n",
    "x: !!python/object/new:builtins.int '5'\n",
    "x: !custom 3\n",
])
def test_python_and_unknown_tags_on_scalars_are_refused(text: str) -> None:
    error = _load_error(text, "t.yaml")
    assert error.diagnostics[0].location == Location("t.yaml", 1, 4)
    assert "tag" in str(error)


@pytest.mark.parametrize("text", [
    "x: !!python/object/apply:os.system ['echo hi']\n",
    "x: !!python/object:collections.OrderedDict {}\n",
    "x: !!python/object/new:builtins.dict {a: 1}\n",
])
def test_python_tags_on_collections_are_refused(text: str) -> None:
    _load_error(text, "t.yaml")


def test_python_tags_never_build_objects() -> None:
    """Whatever happens to the tag, no Python object is ever constructed."""
    text = "x: !!python/object/apply:builtins.len [[1, 2, 3]]\n"
    try:
        doc = load_text(text, "t.yaml")
    except LoadError:
        return
    assert doc.data["x"] != 3
    assert doc.data["x"] == [[1, 2, 3]]


# -- what would take unbounded work, or cannot be read, is refused before any is done -------
@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("card: demo\nhand: \"FF\x00 2222a\"\n", 2, 10, "control character U+0000"),
    ("card: demo\x07\n", 1, 11, "control character U+0007"),
    # the root mapping is the first level, the 64th bracket the 65th
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", 1, 4 + 63, "nested more than 64 levels deep"),
    ("x: &a [1, *a]\n", 1, 11, "the alias *'a' is used inside the value it names"),
    # both YAML readers hand an escape's number to chr() unchecked: past U+10FFFF, or past
    # a C int, is the file's mistake, not a crash
    ("card: demo\nnote: \"ok \\U00D26270\"\n", 2, 11, "the escape \"\\U00D26270\" is past"),
    ("card: \"\\UFFFFFFFF\"\n", 1, 8, "past the last Unicode character"),
])
def test_what_yaml_cannot_read_or_would_never_finish_is_located(
        text: str, line: int, column: int, message: str) -> None:
    (d,) = _load_error(text, "t.yaml").diagnostics
    assert d.location == Location("t.yaml", line, column)
    assert message in d.message


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    """Nine anchors, each repeating the last nine times: 9**9 values from 500 bytes."""
    rows = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    rows += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    text = "\n".join(rows) + "\n"
    assert len(text) < 700
    (d,) = _load_error(text, "bomb.yaml").diagnostics
    assert "expands to more than 100,000 values" in d.message
    assert d.location is not None and d.location.file == "bomb.yaml" and d.location.line > 1


def test_aliases_used_as_rulesets_use_them_still_load() -> None:
    doc = load_text("a: &x [1, 2]\nb: *x\nc: {<<: {k: 1}, j: *x}\n", "t.yaml")
    assert doc.data == {"a": [1, 2], "b": [1, 2], "c": {"k": 1, "j": [1, 2]}}


def test_a_file_too_large_for_a_ruleset_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("x: " + "y" * (2 << 20) + "\n", encoding="utf-8")
    with pytest.raises(LoadError, match="too large for a ruleset"):
        load_file(big)


@pytest.mark.parametrize(("text", "column"), [("x: " + "9" * 5000 + "\n", 4),
                                              ("x: [1, 2001-13-45]\n", 8)])
def test_a_value_yaml_cannot_build_is_located(text: str, column: int) -> None:
    (d,) = _load_error(text, "t.yaml").diagnostics
    assert d.location == Location("t.yaml", 1, column)
    assert d.message.startswith("cannot read the value ")
    assert len(d.message) < 200
