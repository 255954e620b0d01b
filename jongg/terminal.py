"""`jongg play`: a person at the terminal against bots.

The screen is drawn with rich (plain text when NO_COLOR is set or the output
is not a terminal). At every decision of the person's seat it shows the
hand by suit, every exposure and discard, the last discard, the wall, the
scores and whose turn it is, then reads a short command. In a variant where
every player plays several racks at once (Siamese), each rack is shown apart
(its exposures, its declared Mah Jongg, whether it is dead) and the one pool
of concealed tiles the racks share is shown once. Bots play the other seats
at a readable pace (`--fast` skips the pauses). The game is written to
its log as it goes; `--resume LOG` continues it exactly where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from jongg.runtime.agents.bots import Agent
from jongg.runtime.agents.planner import RackPlanner
from jongg.runtime.agents.play import HUMAN, Resumed
from jongg.runtime.agents.registry import agent_maker
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.game import Game
from jongg.runtime.game.log import Header, LogWriter
from jongg.runtime.game.scoring import BANK, ScoreEvent
from jongg.runtime.game.seat import Seat
from jongg.runtime.game.spec import Pledge
from jongg.runtime.game.state import IllegalAction, Mode, State, Step
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import TileError

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

# Added to HELP when every player plays several racks from one pool of tiles.
RACK_HELP = """with racks ({racks} each here; {wins} Mah Jongg{s} win the round):
  m                         declare the one Mah Jongg possible, or choose among those listed
  m RACK, m RACK LINE       declare that rack's Mah Jongg: its highest line, or LINE
  claims name their rack:   'claim set R2 R2 J on 2' exposes the set on rack 2
  hint                      a plan sharing your pool between your racks, rack by rack
  your tiles are one pool every rack draws on; positions count in the pool"""

# Added to RACK_HELP when a rack may be pledged to a line right after the deal.
PLEDGE_HELP = "  off" + " " * 23 + "go off your pledge: the tiles set aside rejoin the pool"


@dataclass(frozen=True)
class Before:
    """What one seat had before an action, to tell what the action changed
    (kept because a round's end deals new seats at once)."""

    dead: bool
    skips: int
    exposures: int
    rack_dead: tuple[bool, ...]
    won: tuple[bool, ...]
    pledge: int  # the pledged rack, or -1

    @classmethod
    def of(cls, seat: Seat) -> Before:
        racks = range(len(seat.rack_dead))
        return cls(seat.dead, seat.skips, len(seat.exposures), tuple(seat.rack_dead),
                   tuple(seat.won(r) for r in racks), seat.pledge)


def typed_number(word: str) -> int | None:
    """A number a person typed (a position, a choice, a rack), or None: ASCII
    digits only ('²' and '①' are digits to str.isdigit, not to int), and a few
    of them (never thousands)."""
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 6 else None


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
    def say(self, text: str | Text, style: str = "") -> None:
        """Print a line. A str is never read as rich markup: titles, seat names,
        line ids and what a person typed may hold brackets."""
        self.console.print(text if isinstance(text, Text) else Text(text, style=style))

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

    def codes(self, codes: Sequence[str]) -> Text:
        """Tiles given by code, as the observation gives them."""
        deck = self.game.spec.deck
        return self.tiles([deck.kind(c).index for c in codes])

    @property
    def racks(self) -> int:
        return self.game.spec.racks

    @property
    def pledging(self) -> Pledge | None:
        """The pledge being made now (its vote, or the tiles set aside), if any."""
        state = self.state
        phase = getattr(state, "phase", None)
        return phase if isinstance(phase, Pledge) and state.step in (
            Step.VOTING, Step.PASSING) else None

    def value(self, line_id: str | None) -> int:
        """A card line's value (0 when it has none)."""
        line = next((x for x in self.game.matcher.card.lines if x.id == line_id), None)
        return (line.value or 0) if line is not None else 0

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
        if self.racks > 1:
            self.rack_screen()
            return
        state, spec, console = self.state, self.game.spec, self.console
        playing = f" · to play: {spec.seats[state.turn]}" if state.step is Step.TURN else ""
        console.rule(Text(f"{spec.title} · round {state.round + 1} · {spec.word('dealer')}: "
                          f"{spec.seats[state.dealer]} · wall {len(state.wall)}{playing}"))
        self.say(self.scores())
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
            self.say(line)
            if me.discards:
                self.say(Text("   discards: ").append_text(self.tiles(me.discards)))
        if state.discard is not None:
            seat, t = state.discard
            self.say(Text("last discard: ").append_text(self.tile(t))
                     .append(f" by {spec.seats[seat]}"))
        me = state.seats[self.human]
        self.say(Text("your hand: ", style="bold").append_text(
            self.tiles(me.concealed(), numbered=True)))
        if me.outgoing:
            self.say(Text("passing: ").append_text(self.tiles(me.outgoing)))
        if state.step is Step.TURN and state.turn == self.human and state.drawn is not None:
            self.say(Text("you drew: ").append_text(self.tile(state.drawn)))

    def rack_screen(self) -> None:
        """The screen when every player plays several racks: drawn from what
        the person's seat may see (its observation), rack by rack."""
        state, spec, console = self.state, self.game.spec, self.console
        view = state.observation(self.human)
        wall = f"wall {view['wall']}"
        if "die" in view:  # walls built on the table
            wall += f" (die {view['die']}, drawing from {spec.seats[view['wall_of']]}'s wall)"
        playing = f" · to play: {spec.seats[view['turn']]}" if view["turn"] is not None else ""
        console.rule(Text(f"{spec.title} · round {view['round'] + 1} · {spec.word('dealer')}: "
                          f"{spec.seats[view['dealer']]} · {wall}{playing}"))
        self.say(self.scores() + f"  ({self.mahjong()}s to win the round: "
                 f"{spec.wins_needed})")
        for seat, seen in enumerate(view["seats"]):
            line = Text(f"{self.name(seat)}: {seen['concealed']} in hand")
            if seen["dead"]:
                line.append("  OUT (no live rack)", style="bold red")
            if seen["skips"]:
                line.append(f"  skips {seen['skips']}", style="yellow")
            self.say(line)
            for number, rack in enumerate(seen["racks"]):
                self.say(self.rack_line(seat, number, rack))
            if seen["discards"]:
                self.say(Text("   discards: ").append_text(self.codes(seen["discards"])))
        if view["discard"] is not None:
            seat, code = view["discard"]
            self.say(Text("last discard: ").append_text(self.codes([code]))
                     .append(f" by {spec.seats[seat]}"))
        pool = view["hand"]
        self.say(Text(f"your pool ({len(pool)} tiles, for your {self.racks} racks): ",
                 style="bold").append_text(self.tiles(
                     state.seats[self.human].concealed(), numbered=True)))
        if view["passing"]:
            self.say(Text("setting aside: " if self.pledging else "passing: ")
                     .append_text(self.codes(view["passing"])))
        if "drawn" in view:
            self.say(Text("you drew: ").append_text(self.codes([view["drawn"]])))

    def rack_line(self, seat: int, number: int, rack: dict[str, Any]) -> Text:
        """One rack: '   rack 2: [R2 R2 R2]  Mah Jongg even-3: 2B 2B ...  DEAD'."""
        parts: list[Text] = []
        for exposure in rack["exposures"]:
            parts.append(Text("[").append_text(self.codes(exposure)).append("]"))
        if rack["mahjong"]:
            made = next((m.line for m in [*self.state.mahjongs, *self.state.declared]
                         if m.seat == seat and m.rack == number), None)
            parts.append(Text(f"{self.mahjong()}" + (f" {made}" if made else "") + ": ",
                              style="bold green").append_text(self.codes(rack["mahjong"])))
        if rack.get("pledged"):  # the tiles set aside are seen by their owner only
            me = self.state.seats[seat]
            flag = me.pledged.flag if me.pledged is not None else ""
            pledged = Text(f"pledged to the {flag} line", style="bold magenta")
            if seat == self.human and me.aside:
                pledged.append(", set aside: ").append_text(self.tiles(sorted(me.aside)))
            parts.append(pledged)
        if not parts:
            parts.append(Text("nothing exposed", style="dim"))
        line = Text(f"   rack {number + 1}: ").append_text(Text("  ").join(parts))
        if rack["dead"]:
            line.append("  DEAD", style="bold red")
        return line

    def prompt_text(self, legal: list[Action]) -> str:
        """What the person is asked now, with the numbered choices."""
        state, spec = self.state, self.game.spec
        deck = spec.deck
        step = state.step
        if step is Step.CLAIMS:
            assert state.discard is not None
            choices = [a for a in legal if a.verb == "claim"]
            listed = "  ".join(f"{i + 1}: {self.claim_text(a)}" for i, a in enumerate(choices))
            return (f"{spec.word('claim')} {deck.code(state.discard[1])}? {listed}  "
                    "p: pass")
        pledge = self.pledging
        if step is Step.PASSING and pledge is not None:
            return f"choose a tile to set aside on rack {pledge.rack + 1} " \
                   f"({len(state.seats[self.human].outgoing) + 1} of " \
                   f"{state.pass_count[self.human]})"
        if step is Step.PASSING:
            return f"choose a tile to pass ({len(state.seats[self.human].outgoing) + 1} of " \
                   f"{state.pass_count[self.human]})"
        if step in (Step.VOTING, Step.OFFERING):
            listed = "  ".join(f"{i + 1}: {a.text(deck)}" for i, a in enumerate(legal))
            return f"{pledge.question}? {listed}" if pledge is not None else listed
        extra = []
        declares = [a for a in legal if a.verb == "declare"]
        if declares and self.racks > 1:
            racks = sorted({a.number + 1 for a in declares})
            extra.append(f"m: {self.mahjong()} on rack {racks[0]}" if len(racks) == 1 else
                         f"m RACK: {self.mahjong()} on racks {', '.join(map(str, racks))}")
            if not any(a.verb == "discard" for a in legal):  # a claimed Mah Jongg, to declare
                return f"your turn: declare the {self.mahjong()} you claimed ({extra[0]})"
        elif declares:
            extra.append(f"m: {self.mahjong()}")
        exchanges = [a for a in legal if a.verb == "exchange"]
        if exchanges:
            extra.append("x: exchange a joker")
        if Action("off") in legal:
            extra.append("off: go off the pledge")
        return "your turn: discard a tile" + (f" ({', '.join(extra)})" if extra else "")

    def claim_text(self, action: Action) -> str:
        """A claim as listed: with racks, a set's claim says the rack it goes on
        (the text form leaves rack 1 unnamed), and a claim of several Mah
        Jonggs at once says so."""
        deck = self.game.spec.deck
        if self.racks == 1 or action.verb != "claim":
            return action.text(deck)
        words = ["claim", action.claim, *deck.codes(action.tiles)]
        if action.tiles:
            words.append(f"on rack {action.number + 1}")
        elif self.game.spec.claims.kind(action.claim).mahjongs > 1:
            words.append(f"({self.game.spec.claims.kind(action.claim).mahjongs} "
                         f"{self.mahjong()}s at once)")
        return " ".join(words)

    def declare_text(self, action: Action) -> str:
        """A rack's declaration as offered: 'rack 2 even-3 (value 30)'."""
        if not action.claim:  # strict mode: a declaration naming no line (a mistake)
            return f"rack {action.number + 1}, no line"
        return f"rack {action.number + 1} {action.claim} (value {self.value(action.claim)})"

    # -- reading the person's choice -------------------------------------------
    def numbered(self, legal: list[Action]) -> list[Action]:
        if self.state.step is Step.CLAIMS:
            return [a for a in legal if a.verb == "claim"]
        if self.state.step in (Step.VOTING, Step.OFFERING):
            return legal
        return []

    def understand(self, text: str, legal: list[Action]) -> Action | str | list[Action]:
        """The action a command names, a message saying what is wrong, or (for
        `m` with several racks) the declarations to choose among."""
        deck = self.game.spec.deck
        words = text.split()
        word = words[0].lower()
        hand = self.state.seats[self.human].concealed()
        choices = self.numbered(legal)
        n = typed_number(word)
        if n is not None and len(words) == 1 and choices:
            return choices[n - 1] if 1 <= n <= len(choices) else \
                f"choose 1 to {len(choices)}"
        if n is not None and len(words) == 1:  # a position in the hand
            words = ["d", word]
        if word in ("p", "pass") and len(words) == 1:
            return Action("pass")
        if word in ("m", "mahjong", "declare") and self.racks > 1 and len(words) <= 3:
            return self.declaration(words[1:], legal)
        if word in ("m", "mahjong", "declare") and len(words) == 1:
            return Action("declare")
        if word in ("c", "claim") and len(words) == 1:
            claims = [a for a in legal if a.verb == "claim"]
            if len(claims) == 1:
                return claims[0]
            return "say which: " + "  ".join(f"{i + 1}: {self.claim_text(a)}"
                                             for i, a in enumerate(claims)) if claims else \
                "nothing to claim now"
        if word == "claim" and len(words) > 3 and words[-3].lower() == "on" and \
                words[-2].lower() == "rack":  # 'on rack 2', as the claims are listed
            del words[-2]
        if word in ("x", "exchange") and len(words) == 1:
            exchanges = [a for a in legal if a.verb == "exchange"]
            if len(exchanges) == 1:
                return exchanges[0]
            return ("type one of: " + ", ".join(a.text(deck) for a in exchanges)) if \
                exchanges else "no joker to exchange now"
        if words[0].lower() == "d" and len(words) == 2:
            verb = "pass" if self.state.step is Step.PASSING else "discard"
            words = [verb, words[1]]
        position = typed_number(words[1]) if len(words) == 2 else None
        if words[0].lower() in ("discard", "pass") and position is not None:
            if not 1 <= position <= len(hand):
                whole = "pool" if self.racks > 1 else "hand"
                return f"your {whole} has {len(hand)} tiles: give a position from 1 to " \
                       f"{len(hand)}"
            words[1] = deck.code(hand[position - 1])
        if len(words) == 1 and (word.upper() in deck.by_code or word in deck.by_code):
            verb = "pass" if self.state.step is Step.PASSING else "discard"
            words = [verb, words[0]]
        try:
            return parse_action(deck, " ".join(words))
        except (TileError, ValueError) as error:
            return str(error).split(";")[0] + " (type help)"

    def declaration(self, words: list[str], legal: list[Action]) -> Action | str | list[Action]:
        """`m`, `m RACK`, `m RACK LINE` with several racks: the declaration meant,
        a message, or the declarations to choose from when `m` alone is not
        enough to say which."""
        declares = [a for a in legal if a.verb == "declare"]
        if not words:
            if declares:
                return declares[0] if len(declares) == 1 else declares
            if self.state.step is not Step.TURN:
                claims = [a for a in legal if a.verb == "claim" and not a.tiles]
                return f"claim the discard first ({', '.join(map(self.claim_text, claims))})" \
                    if claims else f"no {self.mahjong()} to declare now: it is not your turn"
            return f"no {self.mahjong()} to declare now: no rack's tiles complete a line"
        number = typed_number(words[0])
        if number is None:
            return f"say the rack: m RACK [LINE], RACK from 1 to {self.racks}"
        if not 1 <= number <= self.racks:
            return f"there is no rack {number}: racks are 1 to {self.racks}"
        mine = [a for a in declares if a.number == number - 1]
        me = self.state.seats[self.human]
        if not mine:
            why = f"its {self.mahjong()} is declared" if me.won(number - 1) else \
                "its hand is dead" if me.rack_dead[number - 1] else \
                "its tiles complete no line" if self.state.step is Step.TURN else \
                "it is not your turn"
            return f"rack {number} has no {self.mahjong()} to declare now: {why}"
        if len(words) == 1:  # the rack's highest line comes first
            return mine[0]
        named = next((a for a in mine if a.claim.lower() == words[1].lower()), None)
        if named is None:
            lines = ", ".join(a.claim for a in mine if a.claim) or "no line"
            return f"rack {number} does not complete {words[1]}; it completes: {lines}"
        return named

    def choose(self, declares: list[Action]) -> Action | None:
        """Which of several declarations: a number, or anything else to go back."""
        listed = "  ".join(f"{i + 1}: {self.declare_text(a)}" for i, a in enumerate(declares))
        try:
            text = self.read(f"declare which? {listed}  (Enter: back) > ").strip()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        n = typed_number(text)
        if n is not None and 1 <= n <= len(declares):
            return declares[n - 1]
        return None

    def hint(self) -> None:
        if self.racks > 1:
            self.rack_hint()
            return
        matcher = self.game.matcher
        nearest = getattr(matcher, "nearest", None)
        me = self.state.seats[self.human]
        if nearest is None:
            self.say("no hints from this matcher")
            return
        for m in nearest(me.hand(), 3):
            missing = " ".join(m.missing) if m.tiles_away else "complete"
            self.say(f"  {m.line.id}: {m.tiles_away} away (value "
                     f"{m.line.value or 0}); missing: {missing}")

    def rack_hint(self) -> None:
        """With several racks: the plan a greedy player would follow, one line
        per rack and the tiles each still wants from the shared pool."""
        state = self.state
        me = state.seats[self.human]
        lines = state.matcher.card.lines
        plan = RackPlanner().plan(state.observe(self.human), me.concealed())
        planned = dict(plan.lines)
        for rack in range(self.racks):
            head = f"  rack {rack + 1}: "
            if me.won(rack):
                made = next((m.line for m in [*state.mahjongs, *state.declared]
                             if m.seat == self.human and m.rack == rack), "")
                self.say(f"{head}{self.mahjong()} declared {made}".rstrip())
            elif me.rack_dead[rack]:
                self.say(f"{head}dead")
            elif rack == me.pledge and me.aside:
                self.say(head + self.pledge_hint(rack))
            elif rack in planned:
                line = lines[planned[rack]]
                missing = plan.missing.get(rack, ())
                wanted = f"missing: {' '.join(missing)}" if missing else \
                    f"complete: declare it (m {rack + 1} {line.id})"
                self.say(f"{head}{line.id}: {len(missing)} away (value {line.value or 0});"
                         f" {wanted}")
            else:
                self.say(f"{head}no line planned (enough racks are planned to win)")
        if not planned:
            self.say("  no line is within reach of your racks")
            return
        # the planner plays a pledged rack from its tiles set aside, the others from the pool
        self.say(f"  the plan shares your one pool between your racks: {plan.away} "
                 "tiles away in all")
        nearest = getattr(state.matcher, "nearest", None)
        live = me.live_racks()
        if nearest is not None and live:
            chosen = {lines[li].id for _, li in plan.lines}
            others = [m for m in nearest(me.hand(live[0]), 3 + len(chosen))
                      if m.line.id not in chosen][:3]
            if others:
                self.say("  also near: " + ", ".join(f"{m.line.id} ({m.tiles_away} away)"
                                                     for m in others))

    def pledge_hint(self, rack: int) -> str:
        """A pledged rack plays only its tiles set aside, for its flag's lines:
        how near those are, with the one tile drawn or claimed still to come."""
        state = self.state
        me = state.seats[self.human]
        lines = state.matcher.card.lines
        allowed = state.allowed_lines(self.human, rack)
        hand = Hand(tuple(sorted(me.aside)), ())
        found = sorted((lines[li].size - s, li) for li, s, _ in
                       state.matcher.scores(hand, open_hands=state.spec.open_hands)
                       if allowed is None or li in allowed)
        if not found:
            return "pledged; its tiles set aside make no line it may win (off: go off the pledge)"
        away, li = found[0]
        line = f"{lines[li].id} (value {lines[li].value or 0})"
        if away <= 1:
            return f"pledged to {line}: waiting for its last tile, drawn or claimed"
        return f"pledged to {line}: {away} away, and only one more tile may join it " \
               "(off: go off the pledge)"

    def ask(self, legal: list[Action]) -> Action:
        """Read commands until one names a legal action."""
        me = self.state.seats[self.human]
        if self.last_seat == self.human and self.state.step is Step.PASSING:
            whole, going = ("your pool: ", "  setting aside: ") if self.pledging else \
                ("your hand: ", "  passing: ")
            self.say(Text(whole, style="bold").append_text(
                self.tiles(me.concealed(), numbered=True)).append(going)
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
            if len(text) > 200:
                self.say("that is too long for a command (type help)", "yellow")
                continue
            word = text.split()[0].lower()
            if word in ("quit", "q", "exit"):
                raise Quit
            if word in ("help", "h", "?"):
                self.say(HELP)
                spec = self.game.spec
                if self.racks > 1:
                    self.say(RACK_HELP.format(
                        racks=self.racks, wins=spec.wins_needed,
                        s="s" if spec.wins_needed > 1 else ""))
                if any(isinstance(p, Pledge) for p in spec.phases):
                    self.say(PLEDGE_HELP)
                self.say("legal now: " + ", ".join(a.text(spec.deck) for a in legal))
                continue
            if word == "hint":
                self.hint()
                continue
            found = self.understand(text, legal)
            if isinstance(found, list):  # several declarations: say which
                chosen = self.choose(found)
                if chosen is None:
                    continue
                found = chosen
            if isinstance(found, str):
                self.say(found, "yellow")
                continue
            if found not in legal:
                self.say(f"{found.text(self.game.spec.deck)!r} is not legal now (type help)",
                         "yellow")
                continue
            return found

    # -- the game loop -------------------------------------------------------
    def announce(self, seat: int, action: Action, seats: list[Seat], before: list[Before],
                 discard: tuple[int, int] | None) -> None:
        """Say what happened that everyone sees (passes and votes stay secret;
        a claim is told when it is granted, whoever answered last). `seats`
        are the seats the action was made on, which a round's end replaces."""
        spec = self.game.spec
        who = spec.seats[seat]
        if action.verb == "discard":
            self.say(Text(f"{who} discards ").append_text(self.tile(action.tile)))
        elif action.verb == "exchange":
            self.say(Text(f"{who} gives ").append_text(self.tile(action.tile))
                     .append(" for an exposed joker"))
        elif action.verb == "declare" and self.racks > 1:
            rack = action.number
            if seats[seat].won(rack) and not before[seat].won[rack]:
                made = Text(f"{who} declares {self.mahjong()} on rack {rack + 1}: "
                            f"{action.claim} (value {self.value(action.claim)}) ")
                for e in seats[seat].exposures:
                    if e.rack == rack and e.mahjong:
                        made.append("[").append_text(self.tiles(e.tiles)).append("]")
                self.say(made)
        elif action.verb == "declare" and len(self.state.results) > self.shown_rounds and \
                self.state.results[-1].winner == seat:
            self.say(f"{who} declares {self.mahjong()}")
        for s, me in enumerate(seats):
            was = before[s].pledge
            if me.pledge >= 0 and was < 0 and me.pledged is not None:
                self.say(f"{spec.seats[s]} pledges rack {me.pledge + 1} to the "
                         f"{me.pledged.flag} line")
            elif was >= 0 and me.pledge < 0 and not me.won(was):
                self.say(f"{spec.seats[s]} goes off the pledge on rack {was + 1}")
            for e in me.exposures[before[s].exposures:]:
                if e.claimed >= 0 and not e.mahjong:
                    on = f" on rack {e.rack + 1}" if self.racks > 1 else ""
                    self.say(Text(f"{spec.seats[s]} {spec.word('claim')}s and "
                                  "exposes [").append_text(self.tiles(e.tiles))
                             .append(f"]{on}"))
        state = self.state
        if discard is not None and state.promised and state.step is Step.TURN and \
                state.claimed_turn and state.discard is None:
            # with racks a Mah Jongg claim is granted first, and declared next
            taken = state.answers.get(state.turn, action)
            double = spec.claims.kind(taken.claim).mahjongs if taken.claim else 1
            what = f"{double} {self.mahjong()}s at once" if double > 1 else self.mahjong()
            self.say(Text(f"{spec.seats[state.turn]} {spec.word('claim')}s "
                          f"{spec.seats[discard[0]]}'s ")
                     .append_text(self.tile(discard[1])).append(f" for {what}"))

    def mahjong(self) -> str:
        word = self.game.spec.word("mahjong")
        return "Mah Jongg" if word == "mahjong" else word

    def payment(self, event: ScoreEvent) -> str:
        """One score change: an award nobody pays, a penalty nobody receives,
        or one seat paying another."""
        seats = self.game.spec.seats
        if event.payer == BANK:
            return f"{event.amount:+d} to {seats[event.payee]}"
        if event.payee == BANK:
            return f"{seats[event.payer]} loses {event.amount}"
        return f"{seats[event.payer]} pays {seats[event.payee]} {event.amount}"

    def report_round(self) -> None:
        state, spec = self.state, self.game.spec
        while self.shown_rounds < len(state.results):
            end = state.results[self.shown_rounds]
            self.shown_rounds += 1
            self.console.rule(Text(f"round {end.round + 1} over"))
            how = "self-drawn" if end.self_drawn else \
                f"on {spec.seats[end.discarder]}'s discard" if end.discarder is not None \
                else "by a claim"
            if self.racks > 1:
                self.report_racks(end.winner, end.how, how, end.mahjongs)
            elif end.winner is None:
                self.say("the wall is empty: nobody wins this round")
            else:
                self.say(f"{spec.seats[end.winner]} wins with {end.line} "
                         f"(value {self.value(end.line)}), {how}")
                shown = Text("hand: ")
                for group in end.shown:
                    shown.append("[" + " ".join(group) + "] ")
                self.say(shown)
            for event in state.payments:
                if event.round == end.round:
                    self.say(f"  {self.payment(event)}")
            self.say(self.scores())

    def report_racks(self, winner: int | None, ended: str, how: str,
                     mahjongs: Sequence[dict[str, Any]]) -> None:
        """How a round of several racks ended, and every Mah Jongg declared in
        it (a round may end on the wall with Mah Jonggs declared)."""
        seats = self.game.spec.seats
        if winner is not None:
            mine = sum(1 for m in mahjongs if m["seat"] == winner)
            self.say(f"{seats[winner]} wins the round with {mine} {self.mahjong()}s, "
                     f"the last {how}")
        elif ended == "dead":
            self.say("the round ends on dead hands: nobody wins it")
        else:
            self.say("the wall is empty: nobody wins this round")
        if not mahjongs:
            self.say(f"no {self.mahjong()} was declared")
            return
        self.say(f"{self.mahjong()}s declared:")
        for m in mahjongs:
            self.say(Text(f"  {seats[m['seat']]}, rack {m['rack'] + 1}: {m['line']} "
                     f"(value {self.value(m['line'])}): ")
                     .append_text(self.codes(m["tiles"])))

    def penalties(self, seats: list[Seat], before: list[Before]) -> None:
        """Mistakes punished by the action just made, on any seat (a claim
        window settles everyone's claims at once)."""
        names = self.game.spec.seats
        for seat, me in enumerate(seats):
            was = before[seat]
            if self.racks > 1:
                for rack, dead in enumerate(me.rack_dead):
                    if dead and not was.rack_dead[rack]:
                        self.say(f"{names[seat]}'s rack {rack + 1} is dead "
                                 "for this round (a mistake, strict mode)", "bold red")
                if me.dead and not was.dead:
                    why = "every hand is dead" if all(me.rack_dead) else "no rack left to play"
                    self.say(f"{names[seat]} is out of the round: "
                             f"{why}", "bold red")
            elif me.dead and not was.dead:
                self.say(f"{names[seat]}'s hand is dead for "
                         "this round (a mistake, strict mode)", "bold red")
            if me.skips > was.skips:
                self.say(f"{names[seat]} will miss the next "
                         "turn (a mistaken claim, strict mode)", "bold red")

    def play(self) -> None:
        state = self.state
        while not state.is_terminal():
            deciding = state.current_players()
            seat = self.human if self.human in deciding else deciding[0]
            legal = state.legal_actions(seat)
            if seat == self.human:
                action = self.ask(legal)
            else:
                action = self.agents[seat].act(state.observe(seat), legal)
                if not self.fast and action.verb in ("discard", "claim", "declare",
                                                     "exchange"):
                    time.sleep(PAUSE)
            seats = state.seats  # a round's end deals new seats: keep these
            before = [Before.of(s) for s in seats]
            discard = state.discard
            try:
                state.apply(seat, action)
            except IllegalAction as error:  # cannot happen: ask() checked it
                self.say(str(error), "yellow")
                continue
            self.writer.action(state, seat, action)
            self.last_seat = seat
            self.announce(seat, action, seats, before, discard)
            self.penalties(seats, before)
            self.report_round()
        self.console.rule(Text("the match is over"))
        spec = self.game.spec
        self.say(f"final {self.scores()}")
        money = state.payouts()
        if money is not None:
            self.say("payouts: " + "  ".join(f"{spec.seats[s]} {v:+g}"
                                             for s, v in enumerate(money)))
        winners = ", ".join(spec.seats[s] for s in state.winners())
        self.say(f"winner: {winners}")


def start(game: Game, *, seat: int, agents: Sequence[str], seed: int, mode: Mode,
          log: Path, console: Console, fast: bool, overwrite: bool = False,
          fresh: bool = False, read: Callable[[str], str] = input) -> Table:
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
    return Table(game, state, seat, {s: agent_maker(n)(seed, s) for s, n in chosen.items()},
                 writer, console, fast, read)


def resume(game: Game, resumed: Resumed, writer: LogWriter, *, console: Console, fast: bool,
           read: Callable[[str], str] = input) -> Table:
    """A game continued where its log stopped (runtime/agents/play.py's
    resume_match replayed it, the bots choosing again); `writer` goes on
    writing the log."""
    state = resumed.replayed.state
    table = Table(game, state, resumed.human, resumed.agents, writer, console, fast, read)
    table.shown_rounds = len(state.results)
    return table
