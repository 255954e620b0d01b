"""What a seat is asked, built from its legal actions: the question, what
happens, and each option with what it does. Menus are numbered from 1 and
a number means what it says: a count is typed as itself (0 included).

Claims are compact: one option per kind of claim and size (a set filled
with naturals first, then jokers, as a player fills it), then the rack when
several racks could take it; the full form ('claim kong 8B 8B J J on 2')
is still understood by the front ends, since every action's text is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from jongg.present import words as w
from jongg.present.narrate import partner, pledge_cost, pledge_question, vote_plays, vote_rule
from jongg.present.seen import Seen
from jongg.present.text import Role, Text, line, tiles, words
from jongg.runtime.game.actions import Action
from jongg.runtime.game.events import EventKind, Offered
from jongg.runtime.game.spec import Courtesy, Pass, Pledge, Vote


@dataclass(frozen=True)
class Option:
    key: str  # what to type
    says: Text  # what it does
    action: Action | None = None  # what it makes (None: `then` asks more)
    then: Prompt | None = None


@dataclass(frozen=True)
class Prompt:
    kind: str  # turn, claim, pass, vote, offer, blind, rack, wait
    question: str  # what is asked, short
    about: tuple[Text, ...] = ()  # what happens, and how to answer
    options: tuple[Option, ...] = ()
    choose: int = 0  # tiles still to choose (a pass, tiles set aside)
    legal: tuple[Action, ...] = field(default=(), repr=False)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key.lower()), None)

    @property
    def keys(self) -> str:
        """The options in one short line: '1: Mah Jongg  2: kong  p: pass'."""
        return "  ".join(f"{o.key}: {''.join(s.text for s in o.says)}" for o in self.options)


def prompt(seen: Seen, chosen: Sequence[int] = ()) -> Prompt:
    """What the seat is asked now (`chosen`: the tiles it has picked for a
    pass and may still take back)."""
    if not seen.legal:
        if seen.step == "over":
            return Prompt("wait", "the match is over")
        turn = seen.obs.turn
        return Prompt("wait", f"waiting for {seen.spec.seats[turn]} to play" if turn is not None
                      else "waiting for the others")
    step = seen.step
    if step == "claims":
        return claim_prompt(seen)
    if step == "passing":
        return pass_prompt(seen, chosen)
    if step == "voting":
        return vote_prompt(seen)
    if step == "offering":
        return count_prompt(seen)
    return turn_prompt(seen)


# -- a turn ---------------------------------------------------------------------------
def turn_prompt(seen: Seen) -> Prompt:
    legal = seen.legal
    spec = seen.spec
    mahjong = w.mahjong(spec)
    options: list[Option] = []
    declares = [a for a in legal if a.verb == "declare"]
    hand = len(seen.data["hand"])
    about: list[Text] = []
    if declares and spec.racks > 1:
        racks = sorted({a.number + 1 for a in declares})
        says = f"{mahjong} on rack {racks[0]}" if len(racks) == 1 else \
            f"{mahjong} on racks {', '.join(map(str, racks))}"
        options.append(Option("m" if len(racks) == 1 else "m RACK", words(says)))
        if not any(a.verb == "discard" for a in legal):  # a claimed Mah Jongg, to declare
            return Prompt("turn", f"your turn: declare the {mahjong} you claimed "
                          f"({options[0].key}: {says})", tuple(about), tuple(options),
                          legal=legal)
    elif declares:
        options.append(Option("m", words(mahjong), declares[0]))
    exchanges = [a for a in legal if a.verb == "exchange"]
    if exchanges:
        options.append(Option("x", words("exchange a joker"), exchanges[0]
                              if len(exchanges) == 1 else None,
                              None if len(exchanges) == 1 else exchange_prompt(seen, exchanges)))
    if any(a.verb == "off" for a in legal):
        options.append(Option("off", words("go off the pledge"),
                              next(a for a in legal if a.verb == "off")))
    about.append(words(f"discard: a tile's code or its position (1-{hand}); also hint, card, "
                       "help", Role.DIM))
    extra = ", ".join(f"{o.key}: {''.join(s.text for s in o.says)}" for o in options)
    return Prompt("turn", "your turn: discard a tile" + (f" ({extra})" if extra else ""),
                  tuple(about), tuple(options), legal=legal)


def exchange_prompt(seen: Seen, exchanges: list[Action]) -> Prompt:
    spec = seen.spec
    options = []
    for i, a in enumerate(exchanges, 1):
        owner, index = a.target
        exposure = seen.obs.seats[owner].exposures[index]
        options.append(Option(str(i), line(f"give {seen.deck.code(a.tile)} for the joker in "
                                           f"{w.whose(spec, seen.seat, owner)} [",
                                           tiles(seen.codes(list(exposure.tiles))), "]"), a))
    return Prompt("exchange", "exchange which joker?", (), tuple(options), legal=seen.legal)


# -- a claim window -----------------------------------------------------------------------
def claim_prompt(seen: Seen) -> Prompt:
    spec = seen.spec
    discard = seen.data["discard"]
    seat, code = discard
    options = claim_options(seen)
    n = len(options)
    options.append(Option("p", words("pass"), next(a for a in seen.legal if a.verb == "pass")))
    numbers = "1" if n == 1 else f"1-{n}"
    question = f"{spec.word('claim')} {code}? {numbers} or p: pass" if n else \
        f"{spec.word('claim')} {code}? p: pass"
    about = (line(f"{w.does(spec, seen.seat, seat, 'discard')} ", tiles([code]),
                  ": claim it, or let it go"),
             *(line(words(f"  {o.key}: ", Role.KEY), o.says) for o in options))
    return Prompt("claim", question, about, tuple(options), legal=seen.legal)


def claim_options(seen: Seen) -> list[Option]:
    """The claims, compacted: Mah Jongg; each kind and size of set once,
    filled with naturals first; a run once per run; then the rack."""
    spec, deck = seen.spec, seen.deck
    joker = deck.joker_index
    mahjong = w.mahjong(spec)
    options: list[Option] = []
    sets: dict[tuple[str, int, tuple[int, ...]], list[Action]] = {}
    for a in seen.legal:
        if a.verb != "claim":
            continue
        kind = spec.claims.kind(a.claim)
        if not a.tiles:
            if kind.mahjong:
                says = f"{kind.mahjongs} {mahjong}s at once" if kind.mahjongs > 1 else mahjong
            else:  # strict mode: a claim the hand cannot make
                says = f"{a.claim} (your hand cannot: a mistake)"
            options.append(Option(str(len(options) + 1), words(says), a))
            continue
        identical = all(t in (a.tiles[0], joker) for t in a.tiles)
        sets.setdefault((a.claim, len(a.tiles), () if identical else a.tiles), []).append(a)
    for (claim, _, _), actions in sets.items():
        first = actions[0]  # the most naturals: options come naturals first
        tile = seen.data["discard"][1]
        shown = tiles([tile, *deck.codes(first.tiles)])
        size = SIZES.get(len(first.tiles) + 1)
        if size and size != claim:  # a claim named for no size ('set') says it
            claim = f"{claim} ({size})"
        racks = sorted({a.number for a in actions})
        number = str(len(options) + 1)
        if spec.racks == 1 or len(racks) == 1:
            on = f" on rack {racks[0] + 1}" if spec.racks > 1 else ""
            options.append(Option(number, line(f"{claim} [", shown, f"]{on}"), first))
            continue
        chosen = {r: next(a for a in actions if a.number == r) for r in racks}
        then = Prompt("rack", f"{claim} [{' '.join([tile, *deck.codes(first.tiles)])}] on "
                      "which rack?", (),
                      tuple(Option(str(r + 1), words(f"rack {r + 1}"), a)
                            for r, a in chosen.items()), legal=seen.legal)
        options.append(Option(number, line(f"{claim} [", shown, "] on rack "
                                        f"{' or '.join(str(r + 1) for r in racks)}"),
                              None, then))
    return options


SIZES = {2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


# -- the phases before play ------------------------------------------------------------
def to_choose(seen: Seen) -> int:
    """How many tiles the seat chooses in this pass: what the offers agreed,
    else the phase's count."""
    for e in reversed(seen.round_events):
        if e.kind is EventKind.PHASE:
            break
        if e.kind is EventKind.OFFERED and e.seat == seen.seat:
            return e.of(Offered).passes
    phase = seen.obs.phase
    return phase.count if isinstance(phase, Pass | Pledge) else 0


def example_tiles(seen: Seen, count: int) -> list[str]:
    """Codes to show as examples: tiles of the seat's own hand (not jokers),
    so an example is one it can type."""
    deck = seen.deck
    held = [deck.code(k) for k, n in enumerate(seen.obs.me.counts)
            if n and k != deck.joker_index]
    return held[:count]


def pass_prompt(seen: Seen, chosen: Sequence[int] = ()) -> Prompt:
    phase = seen.obs.phase
    count = to_choose(seen)
    already = len(seen.obs.me.outgoing) + len(chosen)
    left = count - already
    picked = seen.codes([*seen.obs.me.outgoing, *chosen])
    progress = f"{' '.join(picked)} chosen, {left} more" if picked else \
        f"choose {left}: codes ({' '.join(example_tiles(seen, 3))}) or positions"
    if isinstance(phase, Pledge):
        question = f"set aside on rack {phase.rack + 1} ({progress})"
        aside = (words(f"set aside {count} tiles on rack {phase.rack + 1} for the {phase.flag} "
                       "line; they stay there until its last tile comes", Role.DIM),)
        return Prompt("pass", question, aside, (), left, seen.legal)
    assert isinstance(phase, Pass | Courtesy)
    to = partner(seen.rules, seen.seat, str(phase.to))
    question = f"pass {count} tiles {phase.to}, to {seen.spec.seats[to]} ({progress})"
    rules = [] if phase.jokers else ["jokers may not be passed"]
    if chosen:
        rules.append("undo: take back the last")
    about: tuple[Text, ...] = (words("; ".join(rules), Role.DIM),) if rules else ()
    return Prompt("pass", question, about, (), left, seen.legal)


def vote_prompt(seen: Seen) -> Prompt:
    phase = seen.obs.phase
    yes = next(a for a in seen.legal if a.number == 1)
    no = next(a for a in seen.legal if a.number == 0)
    options = (Option("y", words("yes"), yes), Option("n", words("no"), no))
    if isinstance(phase, Pledge):
        question = pledge_question({"question": phase.question, "flag": phase.flag,
                                    "rack": phase.rack})
        return Prompt("vote", f"{question}? y: yes  n: no",
                      (words(pledge_cost(seen.rules, phase), Role.DIM),
                       words("hint: whether to pledge, and why", Role.DIM)),
                      options, legal=seen.legal)
    assert isinstance(phase, Vote)
    return Prompt("vote", f"vote: {phase.question}? y: yes  n: no",
                  (words(f"if it carries: {vote_plays(phase.phases)}", Role.DIM),
                   words(f"the vote is secret; {vote_rule(phase.rule, phase.clauses)}",
                         Role.DIM)),
                  options, legal=seen.legal)


def count_prompt(seen: Seen) -> Prompt:
    phase = seen.obs.phase
    spec = seen.spec
    options = tuple(Option(str(a.number), words(str(a.number)), a) for a in seen.legal)
    most = max(a.number for a in seen.legal)
    if isinstance(phase, Courtesy):
        to = spec.seats[partner(seen.rules, seen.seat, str(phase.to))]
        return Prompt("offer", f"courtesy pass with {to} ({phase.to}): offer how many, "
                      f"0-{most}?", (words("the smaller of the two offers changes hands; "
                                           "0 offers none", Role.DIM),), options,
                      legal=seen.legal)
    assert isinstance(phase, Pass)
    to = spec.seats[partner(seen.rules, seen.seat, str(phase.to))]
    return Prompt("blind", f"blind pass: how many of the tiles coming to you go on to {to} "
                  f"unseen, 0-{most}?",
                  (words(f"a blind tile goes on without your seeing it; the rest of the "
                         f"{phase.count} you choose from your hand", Role.DIM),),
                  options, legal=seen.legal)
