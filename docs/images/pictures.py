"""Take the README's pictures again: `python docs/images/pictures.py` from the
checkout's root, with the test extras installed and Debian's chromium and
chromium-driver on the machine. It writes, in this folder:

- web-table.png: `jongg serve`, a round of mjcg in headless Chromium, one
  seat played by clicking, at the seat's turn;
- terminal.png: a screen of docs/play-transcript.cast (the round of
  `python -m tests.transcript`) with its colours, the hint shown;
- card-report.png: the top of report.html of `jongg card report sample`.

Nothing here is a test; the browser helpers are the browser tests' own.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from tests.browser import browser, open_table, play_by_clicking, seat_url, server  # noqa: E402

CLEAR = "\x1b[2J\x1b[H"
# an 80x24 terminal: rich's page, in a monospace font of a fixed size
SCREEN = """<!DOCTYPE html>
<html><head><meta charset="UTF-8"><style>
body {{ margin: 0; background: {background}; }}
pre {{ display: inline-block; margin: 0; padding: 10px 14px; color: {foreground};
       background: {background}; font: 15px/1.25 "DejaVu Sans Mono", monospace; }}
</style></head>
<body><pre><code>{code}</code></pre></body></html>
"""


def web_table(work: Path) -> None:
    with server(work / "data") as running, browser(work / "profile") as driver:
        made = open_table(running, "mjcg", ["human", "greedy"], seed=21)
        driver.get(seat_url(running, made))
        play_by_clicking(driver, random.Random(3), rounds=1, shot=(24, HERE / "web-table.png"))


def terminal_screen(cast: Path, marker: str = "suggested discard") -> str:
    """The screen (text with its colour codes) as it stands when the first
    hint with `marker` has been printed: the last redraw before it and what
    followed, its last 24 lines, up to the next question."""
    lines = cast.read_text(encoding="utf-8").splitlines()
    out = "".join(json.loads(line)[2] for line in lines[1:])
    at = out.index(marker)
    start = out.rindex(CLEAR, 0, at) + len(CLEAR)
    end = out.find("\r\n", out.find(" > ", at))
    shown = out[start:end].replace("\r\n", "\n").split("\n")
    return "\n".join(shown[-24:])


def terminal(work: Path) -> None:
    from rich.console import Console
    from rich.terminal_theme import MONOKAI
    from rich.text import Text

    console = Console(record=True, width=80, force_terminal=True, color_system="truecolor",
                      file=open(work / "screen.txt", "w", encoding="utf-8"))  # noqa: SIM115
    console.print(Text.from_ansi(terminal_screen(ROOT / "docs" / "play-transcript.cast")))
    page = work / "terminal.html"
    html = console.export_html(theme=MONOKAI, inline_styles=True, code_format=SCREEN)
    page.write_text(html, encoding="utf-8")
    shoot(work, page, HERE / "terminal.png", (1000, 800), element="pre")


def card_report(work: Path) -> None:
    out = work / "report"
    subprocess.run([sys.executable, "-m", "jongg", "card", "report", "sample", "--rounds",
                    "400", "--jobs", "2", "--quiet", "-o", str(out)], check=True)
    shoot(work, out / "report.html", HERE / "card-report.png", (1200, 900))


def shoot(work: Path, page: Path, png: Path, size: tuple[int, int],
          element: str | None = None) -> None:
    """A picture of the page at this window size, or of one element of it."""
    from selenium.webdriver.common.by import By

    with browser(work / f"profile-{png.stem}") as driver:
        driver.set_window_size(*size)
        driver.get(page.as_uri())
        if element is None:
            driver.save_screenshot(str(png))
        else:
            driver.find_element(By.CSS_SELECTOR, element).screenshot(str(png))


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        chosen = sys.argv[1:] or ["terminal", "card_report", "web_table"]
        for take in (globals()[name] for name in chosen):
            place = Path(work) / take.__name__
            place.mkdir()
            take(place)
            print(f"{take.__name__}: done")


if __name__ == "__main__":
    main()
