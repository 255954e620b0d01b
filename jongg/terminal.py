"""`jongg play`: a person at the terminal against bots.

The screen is drawn with rich (plain text when NO_COLOR is set or the output
is not a terminal). At every decision of the person's seat it shows the
hand by suit, every exposure and discard, the last discard, the wall, the
scores and whose turn it is, then reads a short command. Bots play the other
seats at a readable pace (`--fast` skips the pauses). The game is written to
its log as it goes; `--resume LOG` continues it exactly where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from jongg.runtime.actions import Action, parse_action
from jongg.runtime.agents import AGENTS, Agent
from jongg.runtime.game import Game
from jongg.runtime.log import Header, LogWriter, read_header, read_lines
from jongg.runtime.state import IllegalAction, Mode, State, Step
from jongg.runtime.tiles import TileError

HUMAN = "human"
PAUSE = 0.6  # seconds between bot moves, unless --fast
SUIT_STYLES = ["red", "blue", "green", "magenta", "cyan", "yellow"]
CATEGORY_STYLES = {"dragon": "bold red", "wind": "bold white", "flower": "bold magenta",
                   "joker": "bold yellow"}

HELP = """commands:
  TILE, N, d TILE, d N      discard (or pass) a tile, by code or by its position
  p, pass                   let the discard go (in a claim window)
  c, claim                  claim the discard: the choices are listed
  m, mahjong, declare       declare Mah Jongg
  x, exchange               take an exposed joker for the tile it stands for
  NUMBER                    the numbered choice shown on the screen
  hint                      the nearest winning lines, with the tiles missing
  help                      this text and what is legal now
  quit                      stop; the log keeps the game (resume with --resume LOG)
any action may also be typed whole: 'claim set R2 R4', 'pass R3', 'vote yes', 'offer 2'"""


class Quit(Exception):
    """The person stopped the game (quit, end of input, Ctrl-C)."""


@dataclass
class Table:
    """One game at the terminal: the state, who sits where, the log."""

    game: Game
    state: State
    human: int
    agents: dict[int, Agent]
    writer: LogWriter
    console: Console
    fast: bool = False
    read: Callable[[str], str] = input
    shown_rounds: int = 0
    last_seat: int = -1  # who acted last: a person choosing pass tiles sees only the hand

    # -- drawing ---------------------------------------------------------------
    def tile(self, index: int) -> Text:
        deck = self.game.spec.deck
        kind = deck.kinds[index]
        if kind.suit is not None:
            suits = [s.code for s in deck.suits]
            style = SUIT_STYLES[suits.index(kind.suit) % len(SUIT_STYLES)]
        else:
            style = CATEGORY_STYLES.get(kind.category.value, "")
        return Text(kind.code, style=style)

    def tiles(self, indices: Sequence[int], numbered: bool = False) -> Text:
        out = Text()
        for i, t in enumerate(indices):
            if i:
                out.append(" ")
            if numbered:
                out.append(f"{i + 1}:", style="dim")
            out.append_text(self.tile(t))
        return out

    def name(self, seat: int) -> str:
        spec = self.game.spec
        who = spec.seats[seat] + (" (you)" if seat == self.human else "")
        return who + (f", {spec.word('dealer')}" if seat == self.state.dealer else "")

    def scores(self) -> str:
        """Every seat's score, in the variant's word: 'tokens: Seat 1 10  Seat 2 8'."""
        spec = self.game.spec
        listed = "  ".join(f"{spec.seats[s]} {v}" for s, v in enumerate(self.state.scores))
        return f"{spec.word('points')}: {listed}"

    def screen(self) -> None:
        state, spec, console = self.state, self.game.spec, self.console
        playing = f" · to play: {spec.seats[state.turn]}" if state.step is Step.TURN else ""
        console.rule(f"{spec.title} · round {state.round + 1} · {spec.word('dealer')}: "
                     f"{spec.seats[state.dealer]} · wall {len(state.wall)}{playing}")
        console.print(self.scores())
        for seat, me in enumerate(state.seats):
            line = Text(f"{self.name(seat)}: {me.in_hand} in hand")
            if me.dead:
                line.append("  DEAD", style="bold red")
            if me.skips:
                line.append(f"  skips {me.skips}", style="yellow")
            for e in me.exposures:
                line.append("  [")
                line.append_text(self.tiles(e.tiles))
                line.append("]")
            console.print(line)
            if me.discards:
                console.print(Text("   discards: ").append_text(self.tiles(me.discards)))
        if state.discard is not None:
            seat, t = state.discard
            console.print(Text("last discard: ").append_text(self.tile(t))
                          .append(f" by {spec.seats[seat]}"))
        me = state.seats[self.human]
        console.print(Text("your hand: ", style="bold").append_text(
            self.tiles(me.concealed(), numbered=True)))
        if me.outgoing:
            console.print(Text("passing: ").append_text(self.tiles(me.outgoing)))
        if state.step is Step.TURN and state.turn == self.human and state.drawn is not None:
            console.print(Text("you drew: ").append_text(self.tile(state.drawn)))

    def prompt_text(self, legal: list[Action]) -> str:
        """What the person is asked now, with the numbered choices."""
        state, spec = self.state, self.game.spec
        deck = spec.deck
        step = state.step
        if step is Step.CLAIMS:
            assert state.discard is not None
            choices = [a for a in legal if a.verb == "claim"]
            listed = "  ".join(f"{i + 1}: {a.text(deck)}" for i, a in enumerate(choices))
            return (f"{spec.word('claim')} {deck.code(state.discard[1])}? {listed}  "
                    "p: pass")
        if step is Step.PASSING:
            return f"choose a tile to pass ({len(state.seats[self.human].outgoing) + 1} of " \
                   f"{state.pass_count[self.human]})"
        if step in (Step.VOTING, Step.OFFERING):
            listed = "  ".join(f"{i + 1}: {a.text(deck)}" for i, a in enumerate(legal))
            return listed
        extra = []
        if any(a.verb == "declare" for a in legal):
            extra.append(f"m: {self.mahjong()}")
        exchanges = [a for a in legal if a.verb == "exchange"]
        if exchanges:
            extra.append("x: exchange a joker")
        return "your turn: discard a tile" + (f" ({', '.join(extra)})" if extra else "")

    # -- reading the person's choice -------------------------------------------
    def numbered(self, legal: list[Action]) -> list[Action]:
        if self.state.step is Step.CLAIMS:
            return [a for a in legal if a.verb == "claim"]
        if self.state.step in (Step.VOTING, Step.OFFERING):
            return legal
        return []

    def understand(self, text: str, legal: list[Action]) -> Action | str:
        """The action a command names, or a message saying what is wrong."""
        deck = self.game.spec.deck
        words = text.split()
        word = words[0].lower()
        hand = self.state.seats[self.human].concealed()
        choices = self.numbered(legal)
        if word.isdigit() and len(words) == 1 and choices:
            n = int(word)
            return choices[n - 1] if 1 <= n <= len(choices) else \
                f"choose 1 to {len(choices)}"
        if word.isdigit() and len(words) == 1:  # a position in the hand
            words = ["d", word]
        if word in ("p", "pass") and len(words) == 1:
            return Action("pass")
        if word in ("m", "mahjong", "declare") and len(words) == 1:
            return Action("declare")
        if word in ("c", "claim") and len(words) == 1:
            claims = [a for a in legal if a.verb == "claim"]
            if len(claims) == 1:
                return claims[0]
            return "say which: " + "  ".join(f"{i + 1}: {a.text(deck)}"
                                             for i, a in enumerate(claims)) if claims else \
                "nothing to claim now"
        if word in ("x", "exchange") and len(words) == 1:
            exchanges = [a for a in legal if a.verb == "exchange"]
            if len(exchanges) == 1:
                return exchanges[0]
            return ("type one of: " + ", ".join(a.text(deck) for a in exchanges)) if \
                exchanges else "no joker to exchange now"
        if words[0].lower() == "d" and len(words) == 2:
            verb = "pass" if self.state.step is Step.PASSING else "discard"
            words = [verb, words[1]]
        if words[0].lower() in ("discard", "pass") and len(words) == 2 and words[1].isdigit():
            position = int(words[1])
            if not 1 <= position <= len(hand):
                return f"your hand has {len(hand)} tiles: give a position from 1 to {len(hand)}"
            words[1] = deck.code(hand[position - 1])
        if len(words) == 1 and (word.upper() in deck.by_code or word in deck.by_code):
            verb = "pass" if self.state.step is Step.PASSING else "discard"
            words = [verb, words[0]]
        try:
            return parse_action(deck, " ".join(words))
        except (TileError, ValueError) as error:
            return str(error).split(";")[0] + " (type help)"

    def hint(self) -> None:
        matcher = self.game.matcher
        nearest = getattr(matcher, "nearest", None)
        me = self.state.seats[self.human]
        if nearest is None:
            self.console.print("no hints from this matcher")
            return
        for m in nearest(me.hand(), 3):
            missing = " ".join(m.missing) if m.tiles_away else "complete"
            self.console.print(f"  {m.line.id}: {m.tiles_away} away (value "
                               f"{m.line.value or 0}); missing: {missing}")

    def ask(self, legal: list[Action]) -> Action:
        """Read commands until one names a legal action."""
        me = self.state.seats[self.human]
        if self.last_seat == self.human and self.state.step is Step.PASSING:
            self.console.print(Text("your hand: ", style="bold").append_text(
                self.tiles(me.concealed(), numbered=True)).append("  passing: ")
                .append_text(self.tiles(me.outgoing)))
        else:
            self.screen()
        while True:
            try:
                text = self.read(self.prompt_text(legal) + " > ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if not text:
                continue
            word = text.split()[0].lower()
            if word in ("quit", "q", "exit"):
                raise Quit
            if word in ("help", "h", "?"):
                self.console.print(HELP)
                self.console.print("legal now: " + ", ".join(a.text(self.game.spec.deck)
                                                            for a in legal))
                continue
            if word == "hint":
                self.hint()
                continue
            found = self.understand(text, legal)
            if isinstance(found, str):
                self.console.print(f"[yellow]{found}[/yellow]")
                continue
            if found not in legal:
                self.console.print(f"[yellow]{found.text(self.game.spec.deck)!r} is not "
                                   "legal now (type help)[/yellow]")
                continue
            return found

    # -- the game loop -------------------------------------------------------
    def announce(self, seat: int, action: Action, exposed: int) -> None:
        """Say what a seat did that everyone sees (passes and votes stay secret;
        a claim is told when it is granted)."""
        spec = self.game.spec
        who = spec.seats[seat]
        if action.verb == "discard":
            self.console.print(Text(f"{who} discards ").append_text(self.tile(action.tile)))
        elif action.verb == "exchange":
            self.console.print(Text(f"{who} gives ").append_text(self.tile(action.tile))
                               .append(" for an exposed joker"))
        elif action.verb == "declare" and len(self.state.results) > self.shown_rounds and \
                self.state.results[-1].winner == seat:
            self.console.print(f"{who} declares {self.mahjong()}")
        exposures = self.state.seats[seat].exposures
        if action.verb == "claim" and len(exposures) > exposed and exposures[-1].claimed >= 0:
            self.console.print(Text(f"{who} {spec.word('claim')}s and exposes [")
                               .append_text(self.tiles(exposures[-1].tiles)).append("]"))

    def mahjong(self) -> str:
        word = self.game.spec.word("mahjong")
        return "Mah Jongg" if word == "mahjong" else word

    def report_round(self) -> None:
        state, spec = self.state, self.game.spec
        while self.shown_rounds < len(state.results):
            end = state.results[self.shown_rounds]
            self.shown_rounds += 1
            self.console.rule(f"round {end.round + 1} over")
            if end.winner is None:
                self.console.print("the wall is empty: nobody wins this round")
            else:
                how = "self-drawn" if end.self_drawn else \
                    f"on {spec.seats[end.discarder]}'s discard" if end.discarder is not None \
                    else "by a claim"
                value = next((line.value for line in self.game.matcher.card.lines
                              if line.id == end.line), None)
                self.console.print(f"{spec.seats[end.winner]} wins with {end.line} "
                                   f"(value {value or 0}), {how}")
                shown = Text("hand: ")
                for group in end.shown:
                    shown.append("[" + " ".join(group) + "] ")
                self.console.print(shown)
            for event in state.events:
                if event.round == end.round:
                    payer = "the bank" if event.payer < 0 else spec.seats[event.payer]
                    self.console.print(f"  {payer} pays {spec.seats[event.payee]} "
                                       f"{event.amount}")
            self.console.print(self.scores())

    def penalties(self, seat: int, before: tuple[bool, int]) -> None:
        me = self.state.seats[seat]
        if me.dead and not before[0]:
            self.console.print(f"[bold red]{self.game.spec.seats[seat]}'s hand is dead for "
                               "this round (a mistake, strict mode)[/bold red]")
        elif me.skips > before[1]:
            self.console.print(f"[bold red]{self.game.spec.seats[seat]} will miss the next "
                               "turn (a mistaken claim, strict mode)[/bold red]")

    def play(self) -> None:
        state = self.state
        while not state.is_terminal():
            deciding = state.current_players()
            seat = self.human if self.human in deciding else deciding[0]
            legal = state.legal_actions(seat)
            if seat == self.human:
                action = self.ask(legal)
            else:
                action = self.agents[seat].act(state, seat, legal)
                if not self.fast and action.verb in ("discard", "claim", "declare",
                                                     "exchange"):
                    time.sleep(PAUSE)
            me = state.seats[seat]
            before = (me.dead, me.skips)
            exposed = len(me.exposures)
            try:
                state.apply(seat, action)
            except IllegalAction as error:  # cannot happen: ask() checked it
                self.console.print(f"[yellow]{error}[/yellow]")
                continue
            self.writer.action(state, seat, action)
            self.last_seat = seat
            self.announce(seat, action, exposed)
            self.penalties(seat, before)
            self.report_round()
        self.console.rule("the match is over")
        spec = self.game.spec
        self.console.print(f"final {self.scores()}")
        winners = ", ".join(spec.seats[s] for s in state.winners())
        self.console.print(f"winner: {winners}")


def start(game: Game, *, seat: int, agents: Sequence[str], seed: int, mode: Mode,
          log: Path, console: Console, fast: bool,
          read: Callable[[str], str] = input) -> Table:
    """A new game: the person at `seat`, bots in the other seats."""
    spec = game.spec
    names = list(agents) or ["greedy"]
    others = [s for s in range(spec.players) if s != seat]
    chosen = {s: names[min(i, len(names) - 1)] for i, s in enumerate(others)}
    seats = tuple(HUMAN if s == seat else chosen[s] for s in range(spec.players))
    state = game.new_match(seed, mode)
    writer = LogWriter(log, Header(spec.variant, spec.players, seed, mode, spec.digest, seats))
    return Table(game, state, seat, {s: AGENTS[n](seed, s) for s, n in chosen.items()},
                 writer, console, fast, read)


def resume(game: Game, log: Path, *, console: Console, fast: bool,
           read: Callable[[str], str] = input) -> Table:
    """A game continued from its log: every recorded action is applied again,
    bots choosing again (so their random sources stand where they stood),
    and the log goes on from its last line."""
    import json

    header = read_header(log)
    if HUMAN not in header.agents:
        raise ValueError(f"{log}: not a game played at the terminal (no human seat)")
    human = header.agents.index(HUMAN)
    state = game.new_match(header.seed, header.mode)
    agents = {s: AGENTS[n](header.seed, s) for s, n in enumerate(header.agents) if n != HUMAN}
    kept = [x for x in read_lines(log) if x.strip()]
    for number, text in enumerate(kept[1:], start=2):
        record = json.loads(text)
        if "action" not in record:
            continue
        seat = int(record["seat"])
        action = parse_action(game.spec.deck, record["action"])
        if seat != human:
            again = agents[seat].act(state, seat, state.legal_actions(seat))
            if again != action:
                raise ValueError(f"{log}:{number}: the bot in seat {seat + 1} would now play "
                                 f"{again.text(game.spec.deck)!r}, the log says "
                                 f"{record['action']!r}")
        state.apply(seat, action)
    rounds = sum(1 for x in kept if '"event":"round"' in x)
    writer = LogWriter.append(log, rounds)
    table = Table(game, state, human, agents, writer, console, fast, read)
    table.shown_rounds = len(state.results)
    return table
