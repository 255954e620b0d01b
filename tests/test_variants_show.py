"""Variants: by_players overrides, `jongg variant show` and `jongg variant check`, the
shipped variants at every player count (tests/test_variants.py: mistakes and extends)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from jongg.compiler.errors import (
    SchemaError,
)
from jongg.compiler.registry import shipped
from jongg.compiler.schema import schema
from jongg.compiler.variant import check_variant, compile_variant, player_counts, resolve
from jongg.compiler.yaku import shipped_played
from jongg.runtime.game.spec import GameSpec

from .conftest import run_cli, where
from .variant_files import (
    BEFORE_CLAIMS,
    PRIORITY,
    ROOT,
    SCHEMA_EXPECTED,
    SCHEMA_MISTAKES,
    SEMANTIC_EXPECTED,
    SEMANTIC_MISTAKES,
    SHIPPED,
    STANDALONE,
    _at,
    _edit,
    _failure,
    _one,
    _resolved_yaml,
    _write,
)

# -- 3. by_players: overrides for one player count -------------------------------------------
BY_PLAYERS = """\
variant: bp
extends: nymj
by_players:
  "3":
    deal: {each: 9, dealer: 10}
    seats: {names: [East, South, West]}
"""


def test_by_players_applies_only_at_its_count(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "bp.yaml", BY_PLAYERS)
    three, four = compile_variant("bp.yaml", 3), compile_variant("bp.yaml", 4)
    assert (three.deal, three.dealer_extra, three.seats) == (9, 1, ("East", "South", "West"))
    assert (four.deal, four.dealer_extra) == (10, 1)
    assert four.seats == ("Seat 1", "Seat 2", "Seat 3", "Seat 4")
    nymj3, nymj4 = compile_variant("nymj", 3), compile_variant("nymj", 4)
    assert three == dataclasses.replace(nymj3, variant="bp", title="bp", deal=9,
                                        seats=three.seats, digest=three.digest)
    assert four == dataclasses.replace(nymj4, variant="bp", title="bp", digest=four.digest)
    assert "by_players" not in resolve("bp.yaml", 3).data
    # merged key by key like extends: the clause of nymj's deal stays
    assert resolve("bp.yaml", 3).data["deal"] == {"each": 9, "dealer": 10, "clause": "NYMJ-04"}
    assert resolve("bp.yaml", 4).data["deal"]["each"] == 10


def test_by_players_shows_in_the_resolved_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "bp.yaml", BY_PLAYERS)
    status, out, _ = run_cli(capsys, "variant", "show", "bp.yaml", "--resolved", "--players", "3",
                          "--json")
    assert status == 0
    data = json.loads(out)
    assert data["deal"] == {"each": 9, "dealer": 10, "clause": "NYMJ-04"}
    assert "by_players" not in data
    status, out, _ = run_cli(capsys, "variant", "show", "bp.yaml", "--resolved", "--json")
    assert status == 0
    assert json.loads(out)["deal"] == {"each": 10, "dealer": 11, "clause": "NYMJ-04"}


def test_an_error_in_by_players_points_into_it(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = BY_PLAYERS.replace("[East, South, West]", "[East, South]") + \
        '    match: {end: "roundz >= 9"}\n'
    _write(tmp_path, "bp.yaml", text)
    assert compile_variant("bp.yaml", 4).players == 4
    problems = check_variant("bp.yaml")
    assert len(problems) == 2, [str(d) for d in problems]
    seats = _one(problems, "2 seat names for 3 players (with 3 players)")
    assert seats.location == _at("bp.yaml", text, "[East")
    fact = _one(problems, "unknown fact 'roundz'")
    assert fact.message.endswith("(with 3 players)")
    assert fact.location == _at("bp.yaml", text, "roundz")


def test_by_players_with_an_unquoted_count(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "bp.yaml", BY_PLAYERS.replace('"3":', "3:"))
    assert compile_variant("bp.yaml", 3).deal == 9


@pytest.mark.parametrize(("override", "needle", "message"), [
    ("    dael: {each: 9}\n", "dael", "unknown key 'dael'"),
    ('    deal: {each: "x"}\n', '"x"', "'x' is not of type 'integer'"),
], ids=["unknown-key", "wrong-type"])
def test_by_players_overrides_are_schema_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        override: str, needle: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    text = 'variant: bp\nextends: nymj\nby_players:\n  "3":\n' + override
    _write(tmp_path, "bp.yaml", text)
    status, out, _ = run_cli(capsys, "variant", "check", "bp.yaml")
    assert status == 1
    line, col = where(text, needle)
    assert out.startswith(f"bp.yaml:{line}:{col}: error: ")
    assert message in out


# -- 4. variant show -------------------------------------------------------------------
def _defaults(node: dict[str, Any], value: Any, path: str, out: list[tuple[str, Any]]) -> None:
    """(path, default) of every schema default that applies to `value`."""
    defs = schema("variant")["$defs"]
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    if isinstance(value, dict):
        for key, sub in node.get("properties", {}).items():
            if "default" in sub:
                out.append((f"{path}.{key}", sub["default"]))
            if key in value:
                _defaults(sub, value[key], f"{path}.{key}", out)
    elif isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            _defaults(node["items"], item, f"{path}[{i}]", out)


def _get(data: Any, path: str) -> Any:
    for part in re.findall(r"\.([a-z_]+)|\[(\d+)\]", path):
        data = data[part[0]] if part[0] else data[int(part[1])]
    return data


NYMJ_TEXT = (ROOT / "rulesets/variants/nymj.yaml").read_text(encoding="utf-8")


def _named_clauses(node: Any) -> set[str]:
    """The clause IDs written under `clause:` keys anywhere in `node`."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "clause":
                found.update([value] if isinstance(value, str) else value)
            else:
                found |= _named_clauses(value)
    elif isinstance(node, list):
        for item in node:
            found |= _named_clauses(item)
    return found


def _has(data: Any, path: str) -> bool:
    try:
        _get(data, path)
    except (KeyError, IndexError):
        return False
    return True


def test_show_resolved_prints_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "variant", "show", "nymj", "--resolved")
    assert status == 0 and err == ""
    lines = [line.split("  # ")[0].rstrip() for line in out.splitlines()]  # values alone
    assert lines[0] == "# nymj resolved for 4 players"
    for text in ["  exchange_jokers: none", "  racks: 1", "  wins_needed: 1",
                 "  ties: next-in-turn", "  debt: pay-what-you-have", "deck_sets: 1",
                 "  open_hands: false", "  add_to_exposure: false", "  hands: own",
                 "  - name: mahjong", "    from: any", "    to: winner"]:
        assert text in lines, text
    data = _resolved_yaml(out)
    assert "by_players" not in data
    assert data["seats"] == {"racks": 1, "wins_needed": 1}
    assert data["claims"]["kinds"][0] == {"name": "mahjong", "mahjong": True,
                                          "clause": ["NYMJ-13", "NYMJ-19"], "sizes": [],
                                          "runs": False, "jokers": True, "from": "any",
                                          "mahjongs": 1}
    assert data["claims"]["jokers"] is True
    assert data["scoring"]["win"][0]["to"] == "winner"
    assert data["players"] == {"min": 3, "max": 4, "default": 4, "clause": "NYMJ-02"}
    defaults: list[tuple[str, Any]] = []
    _defaults(schema("variant"), data, "", defaults)
    assert len(defaults) > 30
    written = yaml.safe_load(NYMJ_TEXT)
    for path, default in defaults:
        assert _has(data, path), path
        if not _has(written, path):  # not in the file: the default is what shows
            assert _get(data, path) == default, path


def test_show_resolved_ends_with_the_clauses_the_file_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "variant", "show", "nymj", "--resolved", "--players", "3")
    assert status == 0
    assert out.splitlines()[0] == "# nymj resolved for 3 players"
    last = out.rstrip("\n").splitlines()[-1]
    assert last.startswith("# clauses: NYMJ-01, NYMJ-02, NYMJ-03, ")
    shown = last.removeprefix("# clauses: ").split(", ")
    named = _named_clauses(yaml.safe_load(NYMJ_TEXT))
    assert len(shown) == len(set(shown))
    assert set(shown) == named
    assert shown == sorted(shown, key=lambda c: int(c.split("-")[1]))
    every = {f"NYMJ-{n:02d}" for n in range(1, 25)}
    assert named == every - {"NYMJ-11"}  # NYMJ-11 (a pair) is named by the card
    assert shown[-1] == "NYMJ-24"


def test_show_resolved_json_is_the_same_data(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "variant", "show", "nymj", "--resolved")
    status, text, _ = run_cli(capsys, "variant", "show", "nymj", "--resolved", "--json")
    assert status == 0
    data = json.loads(text)
    assert data == _resolved_yaml(out)
    assert data["turn"]["exchange_jokers"] == "none"
    assert data["match"]["start"] == 10


def test_show_unresolved_leaves_defaults_out(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "variant", "show", "nymj", "--json")
    assert status == 0
    data = json.loads(out)
    assert data == yaml.safe_load(NYMJ_TEXT)
    assert "seats" not in data and "deck_sets" not in data


@pytest.mark.parametrize("players", ["5", "2"])
def test_show_at_a_player_count_the_variant_refuses(
        capsys: pytest.CaptureFixture[str], players: str) -> None:
    status, out, err = run_cli(capsys, "variant", "show", "nymj", "--resolved",
                               "--players", players)
    assert status == 1
    assert out == ""
    assert err == f"error: nymj is played by 3 to 4 players, not {players}\n"


# -- 5. variant check ------------------------------------------------------------------
def test_check_passes_every_shipped_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert shipped("variant") == SHIPPED
    status, out, err = run_cli(capsys, "variant", "check", *SHIPPED)
    assert status == 0 and err == ""
    assert out.splitlines() == ["classic: ok: 4-4 players", "imperial-siamese: ok: 2-4 players",
                                "mjcg: ok: 3-6 players", "mjcg-advanced: ok: 3-6 players",
                                "mjcg-card: ok: 3-6 players", "nymj: ok: 3-4 players",
                                "riichi: ok: 4-4 players", "riichi-east: ok: 4-4 players",
                                "royale-siamese: ok: 3-4 players",
                                "siamese: ok: 2-2 players"]
    for name in SHIPPED:
        assert check_variant(name) == []


def test_check_fails_a_broken_file_and_prints_each_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "bad.yaml", SEMANTIC_MISTAKES)
    status, out, err = run_cli(capsys, "variant", "check", "nymj", str(path))
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[0] == "nymj: ok: 3-4 players"
    assert lines[-1] == f"{path}: 11 error(s)"
    located = [x for x in lines if x.startswith(f"{path}:") and ": error: " in x]
    assert len(located) == len(SEMANTIC_EXPECTED)
    for needle, message in SEMANTIC_EXPECTED:
        line, col = where(SEMANTIC_MISTAKES, needle)
        assert any(x.startswith(f"{path}:{line}:{col}: error: {message}") for x in located), \
            message
    assert f"{path}:{where(SEMANTIC_MISTAKES, 'selfdrawn')[0]}:" in out
    assert "(did you mean 'self_drawn'?)" in out
    assert "(claims here: mahjong, set)" in out


def test_check_reports_schema_errors_each_at_its_node(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "bad.yaml", SCHEMA_MISTAKES)
    status, out, _ = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    lines = out.splitlines()
    assert lines[-1] == f"{path}: {len(SCHEMA_EXPECTED)} error(s)"
    for needle, message in SCHEMA_EXPECTED:
        line, col = where(SCHEMA_MISTAKES, needle)
        assert any(x.startswith(f"{path}:{line}:{col}: error: {message}") for x in lines), \
            message


# -- 6. every shipped variant at every player count -----------------------------------------
# the variants the engine plays (a scoring-only one would be left out: tests/test_score.py)
COUNTS = [(name, n) for name in shipped_played() for n in player_counts(resolve(name))]


def test_the_player_counts_are_the_ones_the_files_say() -> None:
    card_game = [(name, players) for name in ("mjcg", "mjcg-advanced", "mjcg-card")
                 for players in (3, 4, 5, 6)]
    siamese = [("imperial-siamese", 2), ("imperial-siamese", 3), ("imperial-siamese", 4)]
    assert [("classic", 4), *siamese, *card_game, ("nymj", 3), ("nymj", 4), ("riichi", 4),
            ("riichi-east", 4), ("royale-siamese", 3), ("royale-siamese", 4),
            ("siamese", 2)] == COUNTS


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=[f"{n}-{p}" for n, p in COUNTS])
def test_shipped_variant_compiles_and_its_deal_fits(name: str, players: int) -> None:
    spec = compile_variant(name, players)
    assert isinstance(spec, GameSpec)
    assert spec.players == players and len(spec.seats) == players
    dealt = spec.deal * players + spec.dealer_extra
    assert dealt <= spec.deck.size
    assert spec.dealer_extra >= 0
    assert spec.deal + spec.dealer_extra <= spec.hand_size * spec.racks
    assert spec.match is not None
    assert set(spec.claims.priority) == {k.name for k in spec.claims.kinds}


def test_the_default_player_count_is_used_without_one() -> None:
    assert compile_variant("nymj").players == 4
    assert compile_variant("nymj") == compile_variant("nymj", 4)


# -- 7. the NYMJ clauses the runtime proves are named by the rulesets -------------------------
NYMJ_FILES = ["rulesets/variants/nymj.yaml", "rulesets/decks/nymj-75.yaml",
              "rulesets/cards/nymj.yaml"]
PROVED = [f"NYMJ-{n:02d}" for n in [*range(2, 8), *range(12, 25)]]


@pytest.mark.parametrize("clause", PROVED)
def test_the_nymj_rulesets_name_the_clause(clause: str) -> None:
    text = "\n".join((ROOT / f).read_text(encoding="utf-8") for f in NYMJ_FILES)
    assert re.search(rf"\b{clause}(?!\d)", text)
    assert clause in _named_clauses(yaml.safe_load(NYMJ_TEXT))  # in a clause: key, not a comment


def test_racks_sets_and_walls_are_checked_where_they_are_written(tmp_path: Path) -> None:
    """Several racks and several sets of tiles (Siamese): a seat cannot need
    more Mah Jonggs than it has racks; a claim completing two at once needs
    mahjong and two racks; tiles taken out must exist and be there; a pot is
    not a difference; the seat whose hands died pays only scoring.dead."""
    text = ("variant: r\nextends: siamese\n"
            "deck_without: {ZZ: 1, J: 9}\n"
            "claims:\n  kinds:\n    - {name: two, mahjongs: 2, sizes: [3]}\n"
            "    - {name: mahjong, mahjong: true}\n  priority: [two, mahjong]\n"
            "players: {min: 2, max: 3}\nseats: {names: [A, B], racks: 2, wins_needed: 3}\n"
            "scoring:\n  zero_sum: false\n  win:\n    - {payer: dead, amount: '1'}\n")
    path = _write(tmp_path, "r.yaml", text)
    messages = sorted({d.message.split(" (with")[0] for d in check_variant(str(path))})
    assert messages == sorted([
        "a player cannot need more Mah Jonggs than it has racks",
        "the deck 'american-152' has no tile 'ZZ'",
        "cannot take 9 J out of 'american-152', which holds 8",
        "claim 'two' completes 2 Mah Jonggs at once: it needs mahjong: true and as many "
        "racks (seats.racks is 2)",
        "scoring.dead is paid by the seat whose hands died (payer: dead), and only it",
        "a difference payout needs two players, not 3",
        "2 seat names for 3 players"])
    located = {d.message: d.location for d in check_variant(str(path))}
    assert any(loc == _at(path, text, "9}") for loc in located.values())


def test_a_zero_sum_game_pays_no_penalty_to_the_bank(tmp_path: Path) -> None:
    text = ("variant: z\nextends: mjcg\nscoring:\n  win:\n"
            "    - {payer: discarder, to: bank, amount: '25'}\n")
    path = _write(tmp_path, "z.yaml", text)
    assert {d.message.split(" (with")[0] for d in check_variant(str(path))} == {
        "a zero-sum game cannot award points from the bank or pay them to it"}


def test_schema_and_semantic_problems_are_reported_together(tmp_path: Path) -> None:
    """A value that breaks the schema is set aside and the rest is checked: the
    priority naming no claim is found beside the misspelt tie rule, and the
    value set aside brings no second message of its own."""
    text = _edit(STANDALONE, (PRIORITY, "priority: [mahjong, set, chow]\n  ties: next-in-trun"),
                 (BEFORE_CLAIMS, "before_play: [{phase: pass, to: acros, count: 3}]\n"
                  + BEFORE_CLAIMS))
    path = _write(tmp_path, "bad.yaml", text)
    problems = check_variant(str(path))
    assert sorted(d.message.split(":")[0] for d in problems) == sorted(
        ["before_play[0].to", "claims.ties", "priority names no claim 'chow'"])
    assert _one(problems, "claims.ties").hint == "did you mean 'next-in-turn'?"
    assert _one(problems, "before_play[0].to").hint == "did you mean 'across'?"
    error = _failure(path, 4)
    assert type(error) is SchemaError and len(error.diagnostics) == 3


def test_a_cycle_through_a_path_that_names_the_same_file_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`sub/../a.yaml` is a.yaml: the cycle is found, not followed for ever."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    _write(tmp_path, "a.yaml", "variant: a\nextends: sub/../a.yaml\n")
    (d,) = _failure("a.yaml").diagnostics
    assert d.message == "extends makes a cycle: a.yaml -> sub/../a.yaml"
