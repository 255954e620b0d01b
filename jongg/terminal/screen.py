"""The screen: the presentation model drawn with rich.

Live (a terminal that takes colours): the table is redrawn in place at a
fixed layout (header, scores, the other seats, your seat, the last
discard, what just happened, your hand grouped by suit, the question), so
it holds still while the bots play. Plain (NO_COLOR, a dumb terminal, or
not a terminal at all): no escape codes; what happens is printed as it
happens, and the table at each question.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text as RichText

from jongg.present.hand import Group
from jongg.present.printed import SUIT_COLOURS
from jongg.present.styles import TileStyle, styles
from jongg.present.table import CHOSEN, Frame
from jongg.present.text import Role, Text
from jongg.runtime.tiles import Deck

COLOURS = {"green": "green", "red": "red", "blue": "bright_blue", "white": "bright_white",
           "cyan": "cyan", "magenta": "magenta", "yellow": "yellow", "purple": "purple",
           "orange": "dark_orange"}
ROLES = {Role.TITLE: "bold", Role.YOU: "bold", Role.KEY: "bold cyan", Role.GOOD: "bold green",
         Role.BAD: "bold red", Role.WARN: "yellow", Role.DIM: "dim", Role.MISSING: "dim",
         Role.VARIABLE: "italic"}
NEWS = 6  # sentences of what just happened kept for the live screen
LABEL_BESIDE = 12  # a longer hand label goes above the tiles
SPLIT_AT = 4  # a family is split across lines only where this many of its tiles fit


def is_live(console: Console) -> bool:
    """Redraw in place only on a real terminal that takes colours."""
    return console.is_terminal and not console.is_dumb_terminal and \
        not os.environ.get("NO_COLOR") and console.color_system is not None


class Screen:
    def __init__(self, console: Console, deck: Deck, *, glyphs: bool = False,
                 live: bool | None = None):
        self.console = console
        self.deck = deck
        self.styles: dict[str, TileStyle] = styles(deck)
        self.glyphs = glyphs
        self.live = is_live(console) if live is None else live
        self.news: deque[Text] = deque(maxlen=NEWS)

    # -- text -----------------------------------------------------------------------
    def tile_text(self, code: str) -> str:
        style = self.styles.get(code)
        if self.glyphs and style is not None and style.glyph:
            return style.glyph
        return code

    def tile_style(self, code: str) -> str:
        style = self.styles.get(code)
        if style is None:
            return ""
        colour = COLOURS.get(style.colour, "")
        return f"bold {colour}".strip() if style.bold else colour

    def rich(self, text: Text) -> RichText:
        out = RichText()
        for i, span in enumerate(text):
            if span.tile is not None:
                style = self.tile_style(span.tile)
                if span.role is Role.MISSING:
                    style = "dim " + style
                out.append(self.tile_text(span.tile) if span.text == span.tile else span.text,
                           style=style)
            elif span.suit is not None:  # a card's group: in its suit's colour, or lettered
                colour = COLOURS.get(SUIT_COLOURS.get(span.suit, ""), "")
                out.append(span.text, style=f"bold {colour} {ROLES.get(span.role, '')}".strip())
                # without colours a group's suit is its letter, as the notation writes it
                if not self.live and (i + 1 == len(text) or text[i + 1].suit != span.suit):
                    out.append(span.suit, style="dim")
            else:
                out.append(span.text, style=ROLES.get(span.role, ""))
        return out

    def say(self, text: Text | str, role: Role = Role.PLAIN) -> None:
        """One line, printed now (a str is never read as markup)."""
        self.console.print(self.rich(text) if isinstance(text, tuple)
                           else RichText(text, style=ROLES.get(role, "")))

    def told(self, sentences: Iterable[Text]) -> None:
        """What just happened: printed at once when plain, kept for the
        next redraw when live."""
        for sentence in sentences:
            self.news.append(sentence)
            if not self.live:
                self.say(sentence)

    # -- the table --------------------------------------------------------------------
    @property
    def width(self) -> int:
        return max(40, self.console.width)

    def header(self, parts: Sequence[str]) -> list[RichText]:
        """The title (the first part) on a row of its own, cut to the width if
        need be, the rest on the row under it: two rows on every screen of
        the game, whatever its round, wall and turn, so the table holds still."""
        style = "bold reverse" if self.live else ""
        title = parts[0]
        if cell_len(title) > self.width:
            title = title[:self.width - 1].rstrip() + "…"
        return [RichText(title, style=style), RichText(" · ".join(parts[1:]), style=style)]

    def hand(self, label: str, groups: Sequence[Group], chosen: frozenset[int] = frozenset()
             ) -> list[RichText]:
        """The hand as a rack: each family's name over its tiles, positions
        under them (a mark under those `chosen` for a pass), wrapped to the
        screen's width. A long label (a pool shared by racks) goes above,
        leaving the tiles the whole width."""
        beside = len(label) <= LABEL_BESIDE
        indent = len(label) + 2 if beside else 2

        def block(first: bool) -> list[RichText]:
            return [RichText(label.ljust(indent), style="bold") if first and beside else
                    RichText(" " * indent), RichText(" " * indent), RichText(" " * indent)]

        above = [] if beside else [RichText(label, style="bold")]
        rows = block(True)
        blocks = [rows]
        used = indent
        for group in groups:
            cells = [(pos, code, max(cell_len(self.tile_text(code)), len(str(pos))))
                     for pos, code in group.tiles]
            family = group.family
            while cells:
                # the family whole where it fits; a family wider than the room
                # left is split (a long suit of a shared pool), never a tile
                fit, span = 0, 0
                while fit < len(cells) and used + span + cells[fit][2] + 2 <= self.width:
                    span += cells[fit][2] + 1
                    fit += 1
                whole = fit == len(cells) and used + max(span, len(family) + 1) + 1 <= self.width
                if not whole and used > indent and (fit < SPLIT_AT or len(cells) <= SPLIT_AT):
                    rows = block(False)
                    blocks.append(rows)
                    used = indent
                    continue
                fit = max(fit, 1)
                chunk, cells = cells[:fit], cells[fit:]
                span = sum(cell + 1 for *_, cell in chunk)
                width = max(span, len(family) + 1) + 1
                names, shown, numbers = rows
                names.append(family.ljust(width), style="dim")
                for pos, code, cell in chunk:
                    text = self.tile_text(code)
                    picked = pos in chosen
                    shown.append(text, style=("dim " if picked else "") + self.tile_style(code))
                    shown.append(" " * (cell - cell_len(text) + 1))
                    numbers.append((CHOSEN if picked else str(pos)).rjust(cell) + " ",
                                   style="bold" if picked else "dim")
                shown.append(" " * (width - span))
                numbers.append(" " * (width - span))
                used += width
                family = ""
        return above + [_rstrip(row) for rows in blocks for row in rows]

    def frame_lines(self, frame: Frame) -> list[RichText]:
        lines = [*self.header(frame.header), self.rich(frame.scores)]
        for panel in frame.seats:
            head = self.rich(panel.head)
            if len(panel.racks) == 1:  # one rack: its exposures beside the name if they fit
                racks = [r for r in panel.racks if r]
                exposed = self.rich(racks[0]) if racks else RichText()
                if racks and head.cell_len + exposed.cell_len + 2 <= self.width:
                    head.append("  ")
                    head.append_text(exposed)
                    racks = []
                lines.append(head)
                lines += [RichText("   ") + self.rich(r) for r in racks]
            else:  # several racks: as many to a line as fit
                lines.append(head)
                lines += self.packed([self.rich(r) for r in panel.racks], "   ")
            if panel.discards:
                lines.append(RichText("   ") + self.rich(panel.discards))
        if frame.last:
            lines.append(self.rich(frame.last))
        return lines

    def packed(self, parts: Sequence[RichText], indent: str) -> list[RichText]:
        """Parts side by side, two spaces apart, as many to a line as fit."""
        out: list[RichText] = []
        for part in parts:
            if out and out[-1].cell_len + 2 + part.cell_len <= self.width:
                out[-1].append("  ")
                out[-1].append_text(part)
            else:
                out.append(RichText(indent) + part)
        return out

    def pages(self, rows: Sequence[Text], height: int) -> list[list[Text]]:
        """Rows in pages of `height` screen rows (a long row wraps onto more)."""
        out: list[list[Text]] = [[]]
        used = 0
        for row in rows:
            size = _rows([self.rich(row)], self.width)
            if out[-1] and used + size > height:
                out.append([])
                used = 0
            out[-1].append(row)
            used += size
        return out

    def fits(self, frame: Frame, message: Sequence[Text]) -> bool:
        """Whether `message` fits under the table without scrolling its top
        away (live; a plain screen scrolls as it prints)."""
        if not self.live:
            return True
        rows = [*self.frame_lines(frame), *self.hand(frame.hand_label, frame.hand),
                *(self.rich(m) for m in message)]
        return _rows(rows, self.width) <= self.console.height - 1

    def draw(self, frame: Frame, about: Sequence[Text] = (), message: Sequence[Text] = ()
             ) -> None:
        """The table, then what is asked. Live: the screen cleared and drawn
        whole, what just happened in the middle."""
        top = self.frame_lines(frame)
        hand = self.hand(frame.hand_label, frame.hand, frame.chosen)
        notes = [self.rich(n) for n in frame.notes]
        asides = [self.rich(a) for a in about]
        said = [self.rich(m) for m in message]
        if not self.live:
            for row in [*top, *hand, *notes, *asides, *said]:
                self.console.print(row)
            return
        # a big table on a small screen: the reminders go first, then the notes
        height = self.console.height - 1  # the question's line
        while asides and _rows([*top, *hand, *notes, *asides, *said], self.width) > height:
            asides.pop(0)
        while notes and _rows([*top, *hand, *notes, *said], self.width) > height:
            notes.pop(0)
        bottom = [*hand, *notes, *asides, *said]
        room = height - _rows(top, self.width) - _rows(bottom, self.width)
        shown: list[RichText] = []
        for sentence in reversed(self.news):
            rich = self.rich(sentence)
            if _rows([*shown, rich], self.width) > room:
                break
            shown.insert(0, rich)
        self.console.clear()
        for row in [*top, *shown, *bottom]:
            self.console.print(row, overflow="fold")


def _rstrip(text: RichText) -> RichText:
    text.rstrip()
    return text


def _rows(lines: Sequence[RichText], width: int) -> int:
    return sum(max(1, -(-line.cell_len // width)) for line in lines)
