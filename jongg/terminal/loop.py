"""The game at the terminal: bots play their seats, the person is asked at
each of their decisions, and everything that happens is told from the
state's events. Each round's result stays on the screen until the person
says to go on."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from rich.console import Console

from jongg.api import JonggError
from jongg.present.cardview import card_view, line_view
from jongg.present.guide import COMMANDS, EXAMPLES, PLEDGE_COMMANDS, RACK_COMMANDS, fitted
from jongg.present.hints import MOST_LINES, danger, hints
from jongg.present.narrate import Narrator
from jongg.present.printed import card_year
from jongg.present.prompts import Prompt, example_tiles, prompt
from jongg.present.results import match_result, round_result
from jongg.present.seen import Seen
from jongg.present.table import frame
from jongg.present.text import Role, Text, words
from jongg.runtime.agents.bots import Agent
from jongg.runtime.agents.referee import AgentFailed, Referee
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import Event, EventKind, RoundEnded
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import LogWriter
from jongg.runtime.game.spec import Pledge
from jongg.runtime.game.state import State
from jongg.runtime.game.view import Observation

from .commands import typed_number, understand
from .screen import Screen
from .typeahead import drained, dropped

PAUSE = 0.6  # seconds between bot moves, unless --fast
LONGEST = 200  # characters in a command


class Quit(Exception):
    """The person stopped the game (quit, end of input, Ctrl-C)."""


@dataclass
class TerminalGame:
    """One game at the terminal: the state, who sits where, the log, the screen."""

    game: Game
    state: State
    human: int
    agents: dict[int, Agent]
    writer: LogWriter
    console: Console
    fast: bool = False
    read: Callable[[str], str] = input
    glyphs: bool = False
    live: bool | None = None  # None: live on a terminal that takes colours
    told: int = 0  # the events already told
    year: tuple[int | None] | None = None  # the card's year, once read
    # type-ahead taken away at a new question (a terminal's; None: stdin's when read is input)
    typed_ahead: Callable[[], str] | None = None
    moved: bool = False  # whether others played since the person was last asked
    paused: bool = False  # a bot's move people watch: pause once it is told
    screen: Screen = field(init=False)
    narrator: Narrator = field(init=False)

    def __post_init__(self) -> None:
        self.screen = Screen(self.console, self.game.spec.deck, glyphs=self.glyphs,
                             live=self.live)
        self.narrator = Narrator(self.seen().rules, self.human)
        if self.typed_ahead is None:
            self.typed_ahead = drained if self.read is input else _nothing

    def seen(self) -> Seen:
        return Seen.of(self.state, self.human)

    def caught_up(self) -> None:
        """Start from the events told before (a resumed game): the narrator
        learns the phase under way without telling it again."""
        events = self.state.events_for(self.human)
        self.narrator.tell(events)
        self.told = len(events)

    # -- the match, through its referee -------------------------------------------------
    def play(self) -> None:
        """The referee plays the match: the bots through their agents, the
        person through Person (which asks), each action written to the log
        and then told here."""
        seats: dict[int, Agent] = {s: Paced(self, a) for s, a in self.agents.items()}
        seats[self.human] = Person(self)
        referee = Referee(self.state, seats, writer=self.writer)
        referee.listen(self.human, self.hear, self.told)
        try:
            referee.run()
        except AgentFailed as failed:
            if failed.seat == self.human:  # Quit, or a fault of the terminal's own
                raise failed.error from None
            raise

    def hear(self, events: list[Event]) -> None:
        """The referee tells the person's events: narrated, and after a bot's
        move people watch, the table drawn again and a pause."""
        self.told += len(events)
        self.tell(events)
        if self.paused:
            self.paused = False
            if self.screen.live and not self.state.is_terminal():
                self.draw(self.seen())
            time.sleep(PAUSE)

    def tell(self, new: list[Event]) -> None:
        """Tell these events; a round's end is shown whole, and waits for
        the person before the next round is dealt."""
        batch: list[Event] = []
        for event in new:
            batch.append(event)
            if event.kind is EventKind.ROUND_ENDED:
                self.screen.told(self.narrator.tell(batch))
                batch = []
                over = any(e.kind is EventKind.MATCH_ENDED for e in new)
                self.round_over(event, pause=not over)
            elif event.kind is EventKind.MATCH_ENDED:
                self.match_over(event)
        self.screen.told(self.narrator.tell(batch))

    def round_over(self, end: Event, pause: bool) -> None:
        result = round_result(self.seen(), end)
        self.show_result(result.title, result.lines)
        if pause:
            for said in self.not_read(True):
                self.screen.say(said)
            self.wait(f"{result.title}: press Enter for round {end.of(RoundEnded).round + 2}")

    def not_read(self, asked: bool) -> list[Text]:
        """At a new question after others played (`asked`: at any new
        question), what was typed meanwhile is taken away, not read as its
        answer: a line saying so."""
        if not (asked or self.moved):
            return []
        self.moved = False
        assert self.typed_ahead is not None
        text = self.typed_ahead()
        return [words(dropped(text), Role.WARN)] if text.strip() else []

    def match_over(self, end: Event) -> None:
        result = match_result(self.seen(), end)
        self.show_result(result.title, result.lines)

    def show_result(self, title: str, rows: Sequence[Text]) -> None:
        if self.screen.live:
            self.console.clear()
        self.console.rule(title)
        for row in rows:
            self.screen.say(row)

    def wait(self, question: str) -> str:
        """Read a line; end of input, Ctrl-C and quit stop the game."""
        try:
            text = self.read(question + " > ").strip()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if text.lower() in ("quit", "q", "exit"):
            raise Quit
        return text

    # -- asking the person -------------------------------------------------------------
    def draw(self, seen: Seen, asked: Prompt | None = None,
             message: Sequence[Text] = (), chosen: Sequence[int] = ()) -> None:
        self.screen.draw(frame(seen, chosen), asked.about if asked is not None else (),
                         message)

    def ask(self) -> list[Action]:
        """Read commands until they make legal actions: one, or the tiles of
        a whole pass (chosen together, or one by one with undo)."""
        chosen: list[int] = []
        message: list[Text] = self.not_read(False)
        pending: Action | None = None  # a discard that was warned about
        drawn = False
        while True:
            seen = self.seen()
            asked = prompt(seen, chosen)
            if self.screen.live or not drawn:
                self.draw(seen, asked, message, chosen)
                drawn = True
            elif message:
                for row in message:
                    self.screen.say(row)
            message = []
            text = self.wait(asked.question)
            if not text:
                if pending is not None:
                    return [pending]
                continue
            if len(text) > LONGEST:
                message = [words("that is too long for a command (type help)", Role.WARN)]
                continue
            typed = text.split()
            word = typed[0].lower()
            if word in ("help", "h", "?"):
                self.page(self.help(seen))
                continue
            if word == "hint":
                count = typed_number(typed[1]) if len(typed) == 2 else None
                if len(typed) > 2 or (len(typed) == 2 and count is None):
                    message = [words("hint N: N a number of lines, 1 to "
                                     f"{MOST_LINES}", Role.WARN)]
                    continue
                message = self.hint() if count is None else self.hint(count)
                if not self.screen.fits(frame(seen, chosen), message):  # a page of its own
                    self.page(message)
                    message = []
                continue
            if word in ("card", "show"):  # 'show LINE', as `jongg card show` says it
                message = self.card(seen, typed[1] if len(typed) > 1 else None)
                continue
            if word == "undo" and asked.kind == "pass":
                if chosen:
                    chosen.pop()
                else:
                    message = [words("nothing to take back: no tile is chosen yet", Role.WARN)]
                continue
            meaning = understand(text, seen, asked, chosen)
            if isinstance(meaning, Prompt):
                found = self.choose(meaning)
                if found is None:
                    continue
                meaning = found
            if isinstance(meaning, str):
                message = [words(meaning, Role.WARN)]
                continue
            if isinstance(meaning, list):
                chosen += meaning
                if len(meaning) >= asked.choose:  # asked.choose: what was still to choose
                    rules = seen.rules
                    return [rules.action("pass", t) for t in chosen]
                continue
            action = replace(meaning, deck=seen.deck)
            if action not in seen.legal:
                message = [words(f"{action.text(seen.deck)!r} is not legal now (type help)",
                                 Role.WARN)]
                continue
            if action.verb == "discard" and action != pending:
                warning = danger(seen, seen.deck.code(action.tile))
                if warning is not None:
                    pending = action
                    message = [warning, words("Enter, or the same discard again: discard it; "
                                              "anything else: choose again", Role.DIM)]
                    continue
            return [action]

    def choose(self, asked: Prompt) -> Action | None:
        """A further question (which rack, which joker, which declaration): a
        key among its options, or anything else to go back."""
        listed = asked.keys
        text = self.wait(f"{asked.question} {listed}  (Enter: back)")
        option = asked.option(text) if text else None
        return option.action if option is not None else None

    # -- what the person may ask for -----------------------------------------------------
    def help(self, seen: Seen) -> list[Text]:
        spec = seen.spec
        rows = [*COMMANDS.format(**_examples(seen)).splitlines()]
        if spec.racks > 1:
            rows += RACK_COMMANDS.format(racks=spec.racks, wins=spec.wins_needed,
                                         s="s" if spec.wins_needed > 1 else "").splitlines()
        if any(isinstance(p, Pledge) for p in spec.phases):
            rows.append(PLEDGE_COMMANDS)
        out = [words(r) for r in fitted(rows, self.screen.width)]
        out.append(words("legal now: " + ", ".join(a.text(seen.deck) for a in seen.legal)))
        return out

    def hint(self, count: int = 3) -> list[Text]:
        return list(hints(self.seen(), count))

    def card(self, seen: Seen, line_id: str | None) -> list[Text]:
        card = seen.rules.judge.card
        year = self.card_year()
        if line_id is None or line_id.lower() == "notation":
            self.page(card_view(card, year, notation=line_id is not None))
            return []
        found = next((x for x in card.lines if x.id.lower() == line_id.lower()), None)
        if found is None:
            return [words(f"card {card.name} has no line {line_id!r}; type card for "
                          "the ids", Role.WARN)]
        self.page(line_view(seen, found, year=year))
        return []

    def card_year(self) -> int | None:
        """What the card's `{year}` prints as (its `year:`), read once."""
        if self.year is None:
            try:
                self.year = (card_year(self.game.spec.card),)
            except JonggError:  # a card given by a path no longer there: 'year' it is
                self.year = (None,)
        return self.year[0]

    def page(self, rows: Sequence[Text]) -> None:
        """Long text: printed as it is when plain; live, a page at a time,
        then back to the table."""
        if not self.screen.live:
            for row in rows:
                self.screen.say(row)
            return
        head = self.screen.header(frame(self.seen()).header)  # the header stays on top
        pages = self.screen.pages(rows, max(5, self.console.height - 2 - len(head)))
        for number, shown in enumerate(pages, 1):
            self.console.clear()
            for top in head:
                self.console.print(top)
            for row in shown:
                self.screen.say(row)
            more = number < len(pages)
            text = self.wait("Enter: more, b: back to the table" if more else
                             "Enter: back to the table")
            if text.lower() == "b":
                return


class Person:
    """The person's seat as the referee sees it: asked at each decision;
    the tiles of a whole pass chosen at once are handed over one by one."""

    name = "human"

    def __init__(self, table: TerminalGame):
        self.table = table
        self.chosen: list[Action] = []

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        if not self.chosen:
            self.chosen = self.table.ask()
        return self.chosen.pop(0)


class Paced:
    """A bot at the terminal: after a move people watch (unless --fast),
    the table is drawn again and pauses once the move is told."""

    def __init__(self, table: TerminalGame, agent: Agent):
        self.table, self.agent = table, agent
        self.name = agent.name

    def act(self, seen: Observation, legal: list[Action]) -> Action:
        action = self.agent.act(seen, legal)
        self.table.moved = True  # what the person types meanwhile is not for the next question
        if not self.table.fast and action.verb in ("discard", "claim", "declare", "exchange"):
            self.table.paused = True
        return action


def _examples(seen: Seen) -> dict[str, str]:
    """The help's example tiles, taken from the person's own hand."""
    held = example_tiles(seen, 3)
    if len(held) < 3:
        return EXAMPLES
    return {"tile": held[0], "three": f"{' '.join(held[:3])}, 1 4 9"}


def _nothing() -> str:
    """No type-ahead: commands that come from a script are meant in order."""
    return ""
