"""The `jongg` command on bad input: a located message, a non-zero exit, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_cli, where

HEADER = "card: demo\ndeck: american-152\nhand_size: 14\nlines:\n"
GOOD_LINE = '  - id: kongs\n    hand: "3[kong] [pair]"\n    value: 50\n'
DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): ")


def _card(tmp_path: Path, body: str, name: str = "card.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


# -- card files that do not load ------------------------------------------------------
def test_malformed_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HEADER + '  - id: kongs\n    hand: "3[kong] [pair]"\n    value: @50\n'
    path = _card(tmp_path, text)
    status, out, err = run_cli(capsys, "card", "show", str(path))
    line, col = where(text, "@")
    assert status == 1
    assert err.startswith(f"{path}:{line}:{col}: error: malformed YAML")
    assert "'@'" in err
    assert out == ""


def test_wrong_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HEADER + '  - id: kongs\n    hand: "3[kong] [pair]"\n    value: "abc"\n'
    path = _card(tmp_path, text)
    status, _, err = run_cli(capsys, "card", "show", str(path))
    line, col = where(text, '"abc"')
    assert status == 1
    assert f"{path}:{line}:{col}: error: " in err
    assert "'abc' is not of type 'integer'" in err


def test_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HEADER + GOOD_LINE + "    flavour: sweet\n"
    path = _card(tmp_path, text)
    status, _, err = run_cli(capsys, "match", "--card", str(path), "--hand", "1B")
    line, col = where(text, "flavour")
    assert status == 1
    assert f"{path}:{line}:{col}: error: " in err
    assert "unknown key 'flavour'" in err and "allowed keys:" in err


@pytest.mark.parametrize(("hand", "bad"), [
    ('"FF 2222a 2222b X"', "X"),
    ("'NEWS 1111a 22b ; n < 3'", "<"),
    ("FF 2222a 2222b 2222c ~", "~"),
    ('"11a 22a 33a | 44a 55a 66a b"', "b"),
])
def test_unparsable_pattern_points_into_the_yaml_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hand: str, bad: str) -> None:
    text = HEADER + f"  - id: bad\n    hand: {hand}\n    value: 25\n"
    path = _card(tmp_path, text)
    status, _, err = run_cli(capsys, "card", "show", str(path))
    hand_line, _ = where(text, "hand:")
    line, col = hand_line, text.splitlines()[hand_line - 1].rindex(bad[0]) + 1
    assert status == 1
    assert err.startswith(f"{path}:{line}:{col}: error: ")
    inner = hand.strip("'\"")
    quoted, caret = err.splitlines()[1:3]
    assert quoted.strip() == inner
    assert caret.strip() == "^"
    assert quoted[caret.index("^")] == bad[0]


def test_card_check_reports_load_errors_too(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = HEADER + '  - id: bad\n    hand: "FF 2222a 2222b X"\n    value: 25\n'
    path = _card(tmp_path, text)
    status, out, _ = run_cli(capsys, "card", "check", str(path))
    line, col = where(text, "X")
    assert status == 1
    assert out.startswith(f"{path}:{line}:{col}: error: unknown tile")
    assert f"{path}: 1 error, 0 warnings" in out


# -- command-line arguments ---------------------------------------------------------
@pytest.mark.parametrize(("hand", "needles"), [
    ("1B 2B ZZ", ["--hand", "unknown tile 'ZZ'", "1B", "RD"]),
    ("1B 1B 1B 1B 1B", ["--hand", "5 copies of 1B", "holds only 4"]),  # MJCG-01: 4 of each
    ("J " * 9, ["--hand", "9 copies of J", "holds only 8"]),  # MJCG-01: 8 jokers
    (" ".join(["1B", "2B", "3B", "4B", "5B"] * 3), ["--hand", "15 tiles", "hand size 14"]),
    ("", ["--hand", "no tiles"]),
])
def test_bad_hand(capsys: pytest.CaptureFixture[str], hand: str, needles: list[str]) -> None:
    status, out, err = run_cli(capsys, "match", "--card", "mjcg-beginner", "--hand", hand)
    assert status == 1
    assert out == ""
    assert err.startswith("error: --hand: ")
    for needle in needles:
        assert needle in err


def test_exposures_count_toward_the_supply(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "match", "--card", "mjcg-beginner", "--hand", "1B 1B",
                          "--exposed", "1B 1B 1B")
    assert status == 1
    assert "5 copies of 1B" in err


def test_unknown_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "card", "show", "no-such-card")
    assert status == 1
    assert "unknown card 'no-such-card'" in err and "mjcg-beginner" in err
    status, _, err = run_cli(capsys, "match", "--card", "no-such-card", "--hand", "1B")
    assert status == 1
    assert "unknown card 'no-such-card'" in err


def test_missing_card_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "gone.yaml"
    status, _, err = run_cli(capsys, "card", "show", str(missing))
    assert status == 1
    assert str(missing) in err


def test_unknown_variant_for_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "tiles", "no-such-game")
    assert status == 1
    assert out == ""
    assert "'no-such-game'" in err
    assert "mjcg" in err and "american-152" in err


def test_tiles_of_a_good_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "tiles", "mjcg")
    assert status == 0
    assert "1B" in out and "RD" in out


def test_unknown_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "card", "show", "mjcg-beginner", "--line", "no-such-line")
    assert status == 1
    assert "--line" in err and "'no-such-line'" in err


def test_tiles_of_a_malformed_deck_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = _card(tmp_path, "deck: tiny\nsuits: [\n", "deck.yaml")
    status, _, err = run_cli(capsys, "tiles", str(path))
    assert status == 1
    assert err.startswith(f"{path}:3:1: error: malformed YAML")


# -- the console entry ----------------------------------------------------------------
def _subprocess(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jongg", *argv], capture_output=True,
                          text=True, timeout=120, check=False)


def test_console_entry_on_bad_input(tmp_path: Path) -> None:
    done = _subprocess("match", "--card", "mjcg-beginner", "--hand", "1B 1B 1B 1B 1B")
    assert done.returncode == 1
    assert "--hand: 5 copies of 1B" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    text = HEADER + '  - id: bad\n    hand: "FF 2222a 2222b X"\n    value: 25\n'
    path = _card(tmp_path, text)
    done = _subprocess("card", "show", str(path))
    line, col = where(text, "X")
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path}:{line}:{col}: error: ")
    assert "Traceback" not in done.stdout + done.stderr


def test_console_entry_works() -> None:
    done = _subprocess("tiles", "american-152")
    assert done.returncode == 0, done.stderr
    assert "RD" in done.stdout and done.stderr == ""
    done = _subprocess("tiles")
    assert done.returncode == 2  # argparse usage error
    assert "usage: jongg" in done.stderr and "Traceback" not in done.stderr


# -- card check: every semantic problem, and warnings -------------------------------
SEMANTIC = HEADER + """\
  - id: short
    hand: "1111a 2222a 3333a"
    value: 25
  - id: novalue
    hand: "FF 1111a 2222b 3333c"
  - id: first
    hand: "3[kong] [pair]"
    value: 25
  - id: again
    hand: "3[kong] [pair]"
    value: 25
  - id: natural
    hand: "11111a! FF 2222b 333c"
    value: 25
  - id: letters
    hand: "11a 22b 33c 44d 5555a 66b"
    value: 25
"""


def test_card_check_reports_every_problem(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = _card(tmp_path, SEMANTIC)
    status, out, _ = run_cli(capsys, "card", "check", str(path))
    assert status == 1
    found = [line for line in out.splitlines() if DIAGNOSTIC.match(line)]
    assert len(found) == 5, out
    for line in found:
        assert line.startswith(f"{path}:")
        assert DIAGNOSTIC.match(line).group("sev") == "error"  # type: ignore[union-attr]

    def at(needle: str, occurrence: int = 0) -> str:
        line, col = where(SEMANTIC, needle, occurrence)
        return f"{path}:{line}:{col}: error: "

    # where the problem is: the pattern's first character, or the line's mapping ("id:")
    expected = [
        at("1111a 2222a 3333a") + "line 'short' has 12 tiles, not the hand size 14",
        at("id: novalue") + "line 'novalue' has no value",
        at("id: again") + "line 'again' duplicates line 'first'",
        at("11111a!") + "line 'natural' cannot be built from american-152: "  # MJCG-27
                        "needs 5 1B where no joker may go",
        at("11a 22b 33c 44d") + "line 'letters': 4 suit letters (a, b, c, d)",
    ]
    for start in expected:
        assert any(f.startswith(start) for f in found), (start, found)
    assert f"{path}: 5 errors, 0 warnings" in out


WARNING_ONLY = HEADER + """\
  - id: big
    hand: "FF nnnna nnnnb nnnnc ; n in 1..9"
    value: 25
  - id: small
    hand: "FF 1111a 1111b 1111c"
    value: 25
"""


def test_a_warning_passes_unless_strict(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = _card(tmp_path, WARNING_ONLY)
    status, out, _ = run_cli(capsys, "card", "check", str(path))
    line, col = where(WARNING_ONLY, "id: small")
    assert status == 0
    assert f"{path}:{line}:{col}: warning: every variation of line 'small' is also one of " \
           "line 'big'" in out
    assert "ok: card 'demo', 2 lines" in out and "1 warning" in out
    status, out, _ = run_cli(capsys, "card", "check", "--strict", str(path))
    assert status == 1
    assert "warning: every variation of line 'small'" in out


@pytest.mark.parametrize("hand", ["FF 1111a 2222b 3333c ; n in 1..9", "FFa 1111a 2222b 3333c"])
def test_expansion_warnings_are_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         hand: str) -> None:
    path = _card(tmp_path, HEADER + f'  - id: one\n    hand: "{hand}"\n    value: 25\n')
    status, out, _ = run_cli(capsys, "card", "check", str(path))
    assert ": warning: line 'one'" in out
    assert status == 0


def test_a_missing_tile_is_reported_once(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _card(tmp_path, HEADER + '  - id: one\n    hand: "FFFF 1111a 2222a 3333a"\n'
                                    "    value: 25\n")
    status, out, _ = run_cli(capsys, "card", "check", "--deck", "nymj-75", str(path))
    assert status == 1
    assert out.count("'F' in 'FFFF'") == 1, out


# -- files no YAML reader should choke on: located, exit 1, and the next file still checked --
def test_a_control_character_does_not_stop_the_next_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _card(tmp_path, HEADER + GOOD_LINE.replace("kongs", "kon\x00gs"), "bad.yaml")
    good = _card(tmp_path, HEADER + GOOD_LINE, "good.yaml")
    status, out, _ = run_cli(capsys, "card", "check", str(bad), str(good))
    assert status == 1
    line, col = where(HEADER + GOOD_LINE, "kongs")
    assert f"{bad}:{line}:{col + 3}: error: control character U+0000 is not allowed in YAML" \
        in out
    assert f"{good}: ok: card 'demo'" in out


@pytest.mark.parametrize("argv", [
    ["card", "show", "{card}"], ["match", "--card", "{card}", "--hand", "1B"],
    ["compile", "{card}"], ["card", "check", "{card}"], ["variant", "check", "{variant}"],
    ["variant", "show", "{variant}"], ["tiles", "{deck}"], ["simulate", "{variant}"],
    ["variant", "check", "{uses_deck}"]])
def test_a_file_that_is_not_utf8_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            argv: list[str]) -> None:
    files = {"card": HEADER + GOOD_LINE, "variant": "variant: v\nextends: nymj\n",
             "deck": "deck: d\n"}
    paths = {}
    for kind, text in files.items():
        path = tmp_path / f"{kind}.yaml"
        path.write_bytes(text.replace("\n", " # caf\xe9\n", 1).encode("latin-1"))
        paths[kind] = path
    paths["uses_deck"] = _card(tmp_path, f"variant: u\nextends: nymj\ndeck: {paths['deck']}\n",
                               "uses.yaml")
    status, out, err = run_cli(capsys, *[a.format(**paths) for a in argv])
    assert status == 1
    named = paths["deck"] if argv[-1] in ("{deck}", "{uses_deck}") else \
        paths["variant" if "variant" in argv[-1] or argv[0] == "simulate" else "card"]
    first = files[named.stem]
    line, col = 1, len(first.split("\n")[0]) + len(" # caf") + 1
    assert f"{named}:{line}:{col}: error: not UTF-8 text: the byte 0xE9 cannot be read" \
        in out + err


# -- a mistyped option or name: the command's own usage, and the nearest word ------------
@pytest.mark.parametrize(("argv", "usage", "meant"), [
    (["simulate", "nymj", "--gmaes", "2"], "usage: jongg simulate ", "--games"),
    (["simulate", "nymj", "--gmaes=2"], "usage: jongg simulate ", "--games"),
    (["card", "check", "--stirct", "x.yaml"], "usage: jongg card check ", "--strict"),
    (["arena", "nymj", "--sed", "1"], "usage: jongg arena ", "--seed"),
])
def test_a_mistyped_option_shows_its_commands_usage_and_the_nearest_option(
        capsys: pytest.CaptureFixture[str], argv: list[str], usage: str, meant: str) -> None:
    from jongg.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith(usage), err
    assert f"unrecognized arguments: {argv[2]}" in err
    assert f"(did you mean '{meant}'?)" in err


def test_an_extra_word_is_refused_by_its_command_without_a_guess(
        capsys: pytest.CaptureFixture[str]) -> None:
    from jongg.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "nymj", "5"])
    err = capsys.readouterr().err
    assert err.startswith("usage: jongg simulate ")
    assert err.rstrip().endswith("error: unrecognized arguments: 5")


@pytest.mark.parametrize(("argv", "meant"), [
    (["play", "nymjj"], "nymj"), (["play", "Nymj"], "nymj"),
    (["simulate", "nymjj", "--games", "1"], "nymj"), (["arena", "mjcg-crad"], "mjcg-card"),
    (["variant", "show", "siamse"], "siamese"), (["variant", "check", "nymjj"], "nymj"),
    (["card", "show", "sampel"], "sample"), (["card", "render", "sampel", "-o", "x.html"],
                                             "sample"),
    (["card", "report", "sampel"], "sample"),
    (["card", "report", "sample", "--variant", "mjcg-crad"], "mjcg-card"),
    (["card", "check", "--deck", "nymj-7", "{card}"], "nymj-75"),
    (["match", "--card", "mjcg-beginer", "--hand", "1B"], "mjcg-beginner"),
    (["match", "--variant", "nymjj", "--hand", "1B"], "nymj"),
    (["compile", "sampel"], "sample"), (["tiles", "nymj-57"], "nymj-75"),
    (["card", "show", "sample", "--line", "yaer-1"], "year-1"),
    (["variant", "check", "{names_a_card}"], "sample"),
])
def test_a_mistyped_name_is_answered_with_the_nearest_shipped_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], meant: str) -> None:
    monkeypatch.chdir(tmp_path)  # a report or a page is never begun
    paths = {"card": _card(tmp_path, HEADER + GOOD_LINE),
             "names_a_card": _card(tmp_path, "variant: v\nextends: mjcg-card\n"
                                   "win: {card: sampel}\n", "v.yaml")}
    status, out, err = run_cli(capsys, *[a.format(**paths) for a in argv])
    assert status == 1
    assert f"did you mean '{meant}'?" in out + err
    assert list(tmp_path.iterdir()) == sorted(paths.values())


def test_a_web_table_naming_a_mistyped_variant_hears_the_nearest(tmp_path: Path) -> None:
    from jongg.web.hall import Hall, Refused
    from jongg.web.store import Store

    with pytest.raises(Refused, match=r"no variant 'siamse'.*did you mean 'siamese'\?"):
        Hall(Store(tmp_path)).prepare("siamse", None)


@pytest.mark.parametrize("shown", [[], ["--resolved"], ["--json"], ["--resolved", "--json"]])
def test_variant_show_refuses_a_player_count_the_variant_is_not_played_by(
        capsys: pytest.CaptureFixture[str], shown: list[str]) -> None:
    status, out, err = run_cli(capsys, "variant", "show", "mjcg", "--players", "9", *shown)
    assert status == 1
    assert out == ""
    assert err == "error: mjcg is played by 3 to 6 players, not 9\n"


def test_variant_show_as_written_says_where_a_player_count_applies(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "variant", "show", "mjcg", "--players", "4")
    assert status == 0
    assert out.startswith("# mjcg as written, for every player count")
    assert "--resolved shows it for 4 players" in out.splitlines()[0]


# -- blocks shared with YAML anchors: a line's own key beats the merged one ----------
SHARED = HEADER + ('  - &kongs {id: kongs, hand: "3[kong] [pair]", value: 50}\n'
                   '  - {<<: *kongs, id: pungs, hand: "4[pung] [pair]", value: 75}\n')


def test_a_card_line_that_overrides_a_shared_block_is_read_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "card", "check", str(_card(tmp_path, SHARED)))
    assert (status, err) == (0, "")
    assert "ok: card 'demo'" in out and "2 lines" in out
    bad = SHARED.replace("value: 75", 'value: "lots"')
    path = _card(tmp_path, bad, "bad.yaml")
    status, out, _ = run_cli(capsys, "card", "check", str(path))
    line, col = where(bad, '"lots"')
    assert status == 1
    assert f"{path}:{line}:{col}: error: lines[1].value: 'lots' is not of type 'integer'" in out


@pytest.mark.parametrize(("agents", "said"), [
    ("greddy", "unknown agent 'greddy' (did you mean 'greedy'?)"),
    ("expret,greedy", "unknown agent 'expret' (did you mean 'expert'?)"),
    ("serch:rollouts=4", "cannot import 'serch' (No module named 'serch'); did you mean 'search'?"),
])
def test_a_mistyped_agent_is_answered_with_the_nearest_shipped_one(
        capsys: pytest.CaptureFixture[str], agents: str, said: str) -> None:
    status, _, err = run_cli(capsys, "simulate", "nymj", "--games", "1", "--agents", agents)
    assert status != 0 and said in err


def test_an_agent_name_near_no_shipped_one_gets_no_guess(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "simulate", "nymj", "--games", "1", "--agents", "wizard")
    assert status != 0 and "unknown agent 'wizard'; agents:" in err
