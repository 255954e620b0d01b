"""What a person at the terminal sees while they wait: a bar for many
matches or rounds, and one for building a card's per-suit tables, shown only
once the build has taken a second (most builds finish before that, and a
bar that flashes past is noise). Both go to stderr, only at a terminal, and
never under --quiet."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

AFTER = 1.0  # seconds of building before the tables' bar is shown


def plain_console(*, stderr: bool = False) -> Console:
    """A console that never reads text as markup (names, titles and what a
    person types may hold brackets) and sends no escape codes at all under
    NO_COLOR (rich alone would still send bold) or when not a terminal."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(highlight=False, markup=False, stderr=stderr,
                   color_system=None if plain else "auto")


def progress_bar(quiet: bool) -> Progress:
    """A progress bar on stderr, shown only at a terminal and unless --quiet."""
    console = plain_console(stderr=True)
    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                    disable=quiet or not console.is_terminal)


@contextmanager
def table_building(quiet: bool = False, *, console: Console | None = None,
                   clock: Callable[[], float] = time.monotonic
                   ) -> Iterator[Callable[[int, int], None]]:
    """A `progress` for Matcher.prepare: it hears (done, total) as tables are
    built, and shows a bar once the first second of building has passed; the
    bar is taken away when the build ends."""
    console = console or plain_console(stderr=True)
    shown: list[Progress] = []
    began: list[float] = []

    def hear(done: int, total: int) -> None:
        if quiet or not console.is_terminal:
            return
        if not began:
            began.append(clock())
        if not shown:
            if clock() - began[0] < AFTER:
                return
            bar = Progress("building the card's per-suit tables", BarColumn(),
                           MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                           transient=True)
            bar.add_task("tables", total=total)
            bar.start()
            shown.append(bar)
        shown[0].update(shown[0].task_ids[0], completed=done, total=total)

    try:
        yield hear
    finally:
        for bar in shown:
            bar.stop()
