"""`jongg play`: a person at the terminal against bots.

The presentation model (jongg/present) says what the person's seat sees
and may do and tells what happens; this package draws it with rich and
reads what is typed: screen.py (the table, live or plain), commands.py
(what a typed line means), loop.py (the game: bots, questions, each
round's result). The game is written to its log as it goes; `--resume
LOG` continues it exactly where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from jongg.runtime.agents.play import HUMAN, Resumed
from jongg.runtime.agents.registry import agent_maker
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogWriter
from jongg.runtime.game.state import Mode

from .commands import typed_number
from .loop import Quit, TerminalGame

__all__ = ["HUMAN", "Quit", "TerminalGame", "resume", "start", "typed_number"]


def start(game: Game, *, seat: int, agents: Sequence[str], seed: int, mode: Mode,
          log: Path, console: Console, fast: bool, overwrite: bool = False,
          fresh: bool = False, read: Callable[[str], str] = input,
          glyphs: bool = False) -> TerminalGame:
    """A new game: the person at `seat`, bots in the other seats. The log is
    a new file (LogExists when one is there), unless `overwrite`; with
    `fresh`, the first free name after `log`'s."""
    spec = game.spec
    names = list(agents) or ["greedy"]
    others = [s for s in range(spec.players) if s != seat]
    chosen = {s: names[min(i, len(names) - 1)] for i, s in enumerate(others)}
    seats = tuple(HUMAN if s == seat else chosen[s] for s in range(spec.players))
    state = game.new_match(seed, mode)
    header = Header(spec.variant, spec.players, seed, mode, spec.digest, seats)
    writer = LogWriter.fresh(log, header) if fresh else \
        LogWriter(log, header, overwrite=overwrite)
    return TerminalGame(game, state, seat, {s: agent_maker(n)(seed, s) for s, n in chosen.items()},
                 writer, console, fast, read, glyphs)


def resume(game: Game, resumed: Resumed, writer: LogWriter, *, console: Console, fast: bool,
           read: Callable[[str], str] = input, glyphs: bool = False) -> TerminalGame:
    """A game continued where its log stopped (runtime/agents/play.py's
    resume_match replayed it, the bots choosing again); `writer` goes on
    writing the log."""
    table = TerminalGame(game, resumed.replayed.state, resumed.human, resumed.agents, writer,
                  console, fast, read, glyphs)
    table.caught_up()
    return table
