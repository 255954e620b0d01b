"""`jongg score`: hands scored by a variant's hand_scoring, from the command
line and from JSON lines; the variant language's hand-scoring constructs
checked with file:line:column; a scoring-only variant refused for play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jongg.compiler.errors import JonggError
from jongg.compiler.game import load_game
from jongg.compiler.registry import shipped
from jongg.compiler.variant import check_variant, compile_variant
from jongg.compiler.yaku import load_hand_scoring, played, shipped_played

from .conftest import run_cli, where

ROOT = Path(__file__).resolve().parents[1]


def score(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status, out, err = run_cli(capsys, "score", "riichi", *args, "--json")
    assert status == 0 and err == "", err
    result: dict[str, object] = json.loads(out)
    return result


# -- worked hands, each reckoned by hand from the payment table -----------------------------
def test_dealer_tsumo_riichi_pinfu_iipeikou(capsys: pytest.CaptureFixture[str]) -> None:
    # 4 han 20 fu: basic 20 * 2^6 = 1,280; each pays 2 x 1,280 rounded up: 2,600
    a = score(capsys, "--hand", "123C 123C 456D 99B 789B", "--win", "9B", "--tsumo",
              "--context", "riichi")
    assert [y["name"] for y in a["yaku"]] == ["riichi", "menzen-tsumo", "pinfu", "iipeikou"]
    assert (a["han"], a["fu"], a["limit"], a["total"]) == (4, 20, None, 7800)
    assert a["payments"] == [{"payer": p, "amount": 2600} for p in ("S", "W", "N")]


def test_non_dealer_ron_with_honba_and_sticks(capsys: pytest.CaptureFixture[str]) -> None:
    a = score(capsys, "--hand", "123C 456D 99B", "--call", "7B 8B 9B", "--call", "WD WD WD",
              "--win", "9B", "--seat", "S", "--honba", "2", "--sticks", "1")
    # 20 + 2 (single wait) + 4 (an open pung of honours) = 26 -> 30 fu; 1 han:
    # basic 240, a non-dealer's ron 4 x 240 -> 1,000, honba 2 x 300, a stick 1,000
    assert (a["han"], a["fu"], a["wait"]) == (1, 30, "pair")
    assert a["payments"] == [{"payer": "discarder", "amount": 1600},
                             {"payer": "table", "amount": 1000}]
    assert a["total"] == 2600


def test_red_fives_and_dora_indicators_cycle(capsys: pytest.CaptureFixture[str]) -> None:
    # 0D is the red 5D; indicator N makes E a dora (winds cycle), 9C makes 1C one
    a = score(capsys, "--hand", "123C 406D 789B EE 234B", "--win", "4B", "--seat", "W",
              "--dora", "N 9C", "--context", "riichi")
    assert a["dora"] == {"dora": 3, "red": 1, "ura": 0}
    off = score(capsys, "--hand", "123C 406D 789B EE 234B", "--win", "4B", "--seat", "W",
                "--dora", "N 9C", "--context", "riichi", "--option", "red_fives=false")
    assert off["dora"] == {"dora": 3, "red": 0, "ura": 0}


def test_kiriage_is_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    # riichi pinfu tanyao iipeikou, 4 han 30 fu: basic 30 * 2^6 = 1,920, a non-dealer's
    # ron 4 x 1,920 -> 7,700; with kiriage, a mangan (8,000)
    hand = ["--hand", "234C 234C 567D 55B 678B", "--win", "8B", "--seat", "S",
            "--context", "riichi"]
    plain = score(capsys, *hand)
    assert (plain["han"], plain["fu"], plain["limit"], plain["total"]) == (4, 30, None, 7700)
    a = score(capsys, *hand, "--option", "kiriage=true")
    assert (a["han"], a["fu"], a["limit"], a["total"]) == (4, 30, "kiriage mangan", 8000)


def test_a_yakuman_scores_alone(capsys: pytest.CaptureFixture[str]) -> None:
    a = score(capsys, "--hand", "WD WD WD GD GD GD RD RD RD 234C 99D", "--win", "9D",
              "--tsumo", "--context", "riichi", "--dora", "8D")
    assert [y["name"] for y in a["yaku"]] == ["daisangen"]
    assert (a["yakuman"], a["limit"], a["total"]) == (1, "yakuman", 48000)


def test_no_yaku_and_no_win_are_answers(capsys: pytest.CaptureFixture[str]) -> None:
    a = score(capsys, "--hand", "123C 456D 99B", "--call", "7B 8B 9B", "--call", "3D 4D 5D",
              "--win", "9B")
    assert a == {"wins": False, "reason": "no yaku"}
    b = score(capsys, "--hand", "123C 456D 99B 789B 135D", "--win", "9B")
    assert b == {"wins": False, "reason": "the tiles do not make a winning hand"}


# -- bad input: a message naming the argument, exit 1, no traceback ---------------------------
@pytest.mark.parametrize(("args", "message"), [
    (["--hand", "123C 123C 456D 99B 789B", "--win", "9B", "--seat", "X"],
     "error: --seat: 'X' is not a tile"),
    (["--hand", "123C 123C 456D 99B 789B 1C", "--win", "9B"],
     "error: --hand: the hand holds 15 concealed tiles"),
    (["--hand", "123C 123C 456D 99B 789B", "--win", "7C"],
     "error: --win: the winning tile 7C is not in the hand"),
    (["--hand", "123C 123C 456D 99B 789B", "--win", "9B", "--context", "riichii"],
     "error: --context: 'riichii' is not one of riichi"),
    (["--hand", "123C 123C 456D 99B 789B", "--win", "9B", "--option", "kiriag=true"],
     "error: --option 'kiriag=true': no option 'kiriag'"),
    (["--hand", "11111C 23C 456D 99B 78B", "--win", "9B"],
     "error: --hand: 5 of 1C: the deck holds 4"),
    (["--hand", "123C 456D 99B", "--call", "7B 8B 1B", "--call", "EEE", "--win", "9B"],
     "error: --call: call '7B 8B 1B' is not a run, pung or kong"),
])
def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str], args: list[str],
                                 message: str) -> None:
    status, out, err = run_cli(capsys, "score", "riichi", *args)
    assert status == 1 and out == ""
    assert err.startswith(message), err
    assert "Traceback" not in err


def test_a_variant_without_hand_scoring_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "score", "classic", "--hand", "1C", "--win", "1C")
    assert status == 1 and "'classic' has no hand_scoring" in err


# -- the batch: JSON lines in and out ---------------------------------------------------
def test_batch_answers_every_line_and_names_the_bad_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.jsonl"
    lines = [
        {"hand": "123C 123C 456D 99B 789B", "win": "9B", "self_drawn": True,
         "context": ["riichi"]},
        {"hand": "123C 123C 456D 99B 789B", "win": "9B", "seat": "Q"},
        "not json",
        {"hand": "123C 456D 99B", "win": "9B", "calls": ["7B 8B 9B", "WD WD WD"], "seat": "S",
         "honba": 2, "sticks": 1},
        {"hand": "123C 123C 456D 99B 789B", "win": "9B", "tsumo": True},
        {"hand": "234C 234C 567D 55B 678B", "win": "8B", "seat": "S", "context": ["riichi"],
         "dora": "1D", "options": {"kiriage": True}},
    ]
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
                    encoding="utf-8")
    status, out, err = run_cli(capsys, "score", "riichi", "--batch", str(path))
    assert status == 1
    answers = [json.loads(x) for x in out.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3, 4, 5, 6]
    assert answers[0]["total"] == 7800 and answers[3]["total"] == 2600
    assert answers[1]["error"].startswith("seat: 'Q' is not a tile")
    assert answers[2]["error"].startswith("not JSON")
    assert answers[4]["error"].startswith("unknown key 'tsumo'")
    assert (answers[5]["limit"], answers[5]["total"]) == ("kiriage mangan", 8000)
    assert err.splitlines() == [f"{path}:2: error: {answers[1]['error']}",
                                f"{path}:3: error: {answers[2]['error']}",
                                f"{path}:5: error: {answers[4]['error']}"]


def test_batch_of_good_lines_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps({"hand": "234C 234C 567D 55B 678B", "win": "8B", "seat": "S",
                                "context": ["riichi"], "dora": "1D"}) + "\n\n", encoding="utf-8")
    status, out, err = run_cli(capsys, "score", "riichi", "--batch", str(path), "--option",
                               "kiriage=true")
    assert status == 0 and err == ""
    assert json.loads(out)["total"] == 8000


# -- the constructs, checked where they are written ---------------------------------------
BROKEN = """\
variant: mine
extends: riichi
options:
  loud: {default: true, doc: "a choice"}
hand_scoring:
  yaku:
    - {name: tanyao, han: {closed: 1}, when: {every: {of: tiles, where: {is: simpel}}}}
    - {name: loud, han: {closed: 1}, when: {option: lowd}}
    - {name: early, han: {closed: 1}, when: {yaku: late}}
    - {name: late, han: {closed: "1 +"}, when: {declared: riichy}}
    - {name: tiled, han: {closed: 1}, when: {count: {of: sets, where: {tile: 5X}}}}
  fu: {base: "twenty", add: [{name: x, when: {fu: 0}, fu: 2}]}
  limits: {basic: "fu * pow(2, han + 2)"}
  payments: [{payer: discarder, amount: "basic * 4 + honbaa"}]
"""
EXPECTED = [
    ("simpel", "no tile class 'simpel' (did you mean 'simple'?)"),
    ("lowd", "no option 'lowd' (did you mean 'loud'?)"),
    ("late}", "'late' is not a yaku listed before this one"),
    ('"1 +"', "a formula is numbers and facts"),
    ("riichy", "'riichy' is not in hand_scoring.context (did you mean 'riichi'?)"),
    ("{of: sets, where: {tile", "say how many: is, at_least or at_most"),
    ("5X", "the deck 'classic-136' has no tile '5X'"),
    ("twenty", "unknown fact 'twenty'"),
    ("honbaa", "unknown fact 'honbaa'"),
]


def test_every_problem_of_a_hand_scoring_is_reported_where_it_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(BROKEN.replace("extends: riichi", f"extends: {ROOT}/rulesets/variants/"
                                   "riichi.yaml"), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    status, out, _ = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    for needle, message in EXPECTED:
        line, column = where(text, needle)
        at = f"{path}:{line}:"
        assert any(x.startswith(at) and message in x for x in out.splitlines()), \
            (needle, message, out)
    # the fu condition outside fu.add, and a known fact misspelt, are told apart
    assert "did you mean 'honba'?" in out


def test_a_schema_break_in_a_condition_is_located(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    text = (f"variant: mine\nextends: {ROOT}/rulesets/variants/riichi.yaml\n"
            "hand_scoring:\n  yaku:\n    - {name: x, han: {closed: 1}, when: {sutis: 1}}\n"
            "  fu: {base: 20}\n  limits: {basic: \"fu\"}\n"
            "  payments: [{payer: discarder, amount: \"basic\"}]\n")
    path.write_text(text, encoding="utf-8")
    status, out, _ = run_cli(capsys, "variant", "check", str(path))
    assert status == 1
    line, _ = where(text, "sutis")
    assert f"{path}:{line}:" in out and "sutis" in out


# -- a scoring-only variant is scored, not played, and says so ---------------------------
def test_a_scoring_only_variant_is_refused_for_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "scored.yaml"
    text = (f"variant: scored\nextends: {ROOT}/rulesets/variants/riichi.yaml\n"
            "status: scoring-only\n")
    path.write_text(text, encoding="utf-8")
    assert check_variant(str(path)) == []
    assert not played(str(path)) and played("riichi")
    assert compile_variant(str(path)).variant == "scored"  # its deck and card: jongg tiles, match
    with pytest.raises(JonggError) as error:
        load_game(str(path))
    line, column = where(text, "scoring-only\n")
    assert f"scored.yaml:{line}:{column}: error: " in str(error.value)
    assert "is scored, not played, for now" in str(error.value)
    status, out, err = run_cli(capsys, "simulate", str(path))
    assert status == 1 and "is scored, not played" in err and "Traceback" not in err


def test_every_shipped_variant_is_played_and_riichi_is_scored() -> None:
    """No variant is left out silently: the conformance and golden tests
    take every shipped variant (none is scoring-only), and riichi is scored."""
    assert sorted(shipped("variant")) == sorted(shipped_played())
    assert load_hand_scoring("riichi").yaku and load_hand_scoring("riichi-east").yaku


def test_pow_and_roundup_in_formulas() -> None:
    from jongg.compiler.bounds import bound
    from jongg.compiler.formula import compile_formula

    f = compile_formula("roundup(fu * pow(2, han + 2) * 4, 100)", ("fu", "han"))
    assert f({"fu": 30, "han": 4}) == 7700 and f({"fu": 25, "han": 2}) == 1600
    assert bound(f.tree, {"fu": (20, 110), "han": (1, 4)}) == (700, 28200)


def test_a_double_wind_pair_is_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    # the dealer's East pair in an East round, on a single wait, riichi: 30 base + 2 + 2 + 2
    hand = ["--hand", "123C 456D 789B 234B EE", "--win", "E", "--context", "riichi"]
    assert [(i["name"], i["fu"]) for i in score(capsys, *hand)["fu_items"]] == \
        [("base", 30), ("seat wind pair", 2), ("round wind pair", 2), ("single wait", 2)]
    once = score(capsys, *hand, "--option", "double_wind_pair_fu=false")
    assert (once["fu"], [i["name"] for i in once["fu_items"]]) == \
        (40, ["base", "seat wind pair", "single wait"])
