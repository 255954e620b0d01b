"""The command line answers at once: its help and its argument errors need
no game, no matcher, no schema; checking a card needs no game or matcher.
(What these cost in time is measured by bench/bench_cli.py.)"""

from __future__ import annotations

import subprocess
import sys

import pytest

from jongg.cli import MODES, build_parser
from jongg.runtime.game.rules import Mode

HEAVY = ("numpy", "jsonschema", "lark", "rich", "yaml", "jongg.runtime.game.state",
         "jongg.runtime.matching.matcher")


def _imported(code: str) -> set[str]:
    """The heavy modules a fresh interpreter holds after running `code`."""
    probe = (f"{code}\nimport sys\n"
             f"print('held:', *(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    held = done.stdout.splitlines()[-1].split()
    assert held[0] == "held:"
    return set(held[1:])


def test_help_and_argument_errors_load_nothing_heavy() -> None:
    code = ("from jongg.cli import main\n"
            "for words in (['--help'], ['simulate', '--help'], ['arena', '--help'],\n"
            "              ['play', '--seat', 'x']):\n"
            "    try:\n        main(words)\n    except SystemExit:\n        pass")
    assert _imported(code) == set()


def test_card_check_loads_no_game_and_no_matcher(tmp_path) -> None:
    code = "from jongg.cli import main\nmain(['card', 'check', 'sample'])"
    assert _imported(code) & {"numpy", "jongg.runtime.game.state",
                              "jongg.runtime.matching.matcher"} == set()


def test_the_parser_offers_every_game_mode() -> None:
    assert tuple(m.value for m in Mode) == MODES


@pytest.mark.parametrize("words", [["card", "check", "x.yaml"], ["variant", "check", "nymj"],
                                   ["simulate", "nymj"], ["play"], ["replay", "x.jsonl"],
                                   ["match", "--card", "sample", "--hand", "J"],
                                   ["compile", "sample"], ["tiles", "nymj"], ["arena", "nymj"],
                                   ["card", "report", "sample", "-o", "out"]])
def test_every_command_names_a_function_that_exists(words: list[str]) -> None:
    from jongg.cli import _command

    assert callable(_command(build_parser().parse_args(words).run))
