"""What a typed line means at the table: an action, tiles chosen for a
pass, a further question, or a message saying what is wrong. Whatever is
typed gets an answer, never a crash."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from jongg.present import words as w
from jongg.present.prompts import Option, Prompt
from jongg.present.seen import Seen
from jongg.present.table import chosen_positions
from jongg.present.text import words
from jongg.runtime.game.actions import Action, parse_action
from jongg.runtime.game.spec import Pledge
from jongg.runtime.tiles import TileError, parse_tiles

Meaning = Action | list[int] | Prompt | str

# what the table's short commands do: typed where they do not apply, they
# are refused as not legal now, never as unreadable
COMMANDS = {"m": "declare Mah Jongg", "mahjong": "declare Mah Jongg",
            "declare": "declare Mah Jongg", "x": "exchange a joker",
            "exchange": "exchange a joker", "c": "claim the discard",
            "claim": "claim the discard", "p": "let a discard go", "off": "go off the pledge"}
VERBS = {"discard", "pass", "declare", "claim", "exchange", "vote", "off", "offer", "blind"}


def unknown_tile(seen: Seen, word: str) -> str:
    """What the CLI says of a tile the deck does not have: the deck's tiles
    (a word longer than any tile's code is no tile: a command mistyped)."""
    if len(word) > max(len(k.code) for k in seen.deck.kinds):
        return f"cannot read {word!r} (type help for the commands)"
    try:
        parse_tiles(seen.deck, word)
    except TileError as error:
        return str(error).split(": ", 1)[-1]
    return f"{word!r} is not legal now (type help)"


def typed_number(word: str) -> int | None:
    """A number a person typed (a position, a choice, a rack), or None: ASCII
    digits only ('²' and '①' are digits to str.isdigit, not to int), and a few
    of them (never thousands)."""
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 6 else None


def understand(text: str, seen: Seen, asked: Prompt, chosen: Sequence[int] = ()) -> Meaning:
    """What `text` asks for at this prompt."""
    deck = seen.deck
    typed = text.split()
    word = typed[0].lower()
    if len(typed) == 1:
        option = asked.option(word)
        if option is not None and option.action is not None:
            return option.action
        if option is not None and option.then is not None:
            return option.then
    n = typed_number(word)
    numbered = [o for o in asked.options if typed_number(o.key) is not None]
    if n is not None and len(typed) == 1 and numbered:
        keys = [o.key for o in numbered]
        return f"choose {keys[0]} to {keys[-1]}" + (", or p to pass" if asked.option("p")
                                                     else "")
    if asked.kind == "vote" and word in ("yes", "no"):
        return understand(word[0], seen, asked)
    if asked.kind == "pass":
        return pass_tiles(typed, seen, asked, chosen)
    hand = seen.obs.me.concealed()
    if n is not None and len(typed) == 1:  # a position in the hand
        typed = ["discard", word]
    if word in ("p", "pass") and len(typed) == 1:
        return Action("pass")
    if word in ("m", "mahjong", "declare") and seen.spec.racks > 1 and len(typed) <= 3:
        return declaration(typed[1:], seen)
    if word in ("m", "mahjong", "declare") and len(typed) == 1:
        return Action("declare")
    if word in ("c", "claim") and len(typed) == 1:
        claims = [o for o in asked.options if o.key != "p"] if asked.kind == "claim" else []
        if len(claims) == 1:
            return _chosen(claims[0])
        if not claims:
            return "nothing to claim now"
        return f"several claims: type the number of one (1-{len(claims)}), or p to let it go"
    if word == "claim" and len(typed) > 3 and typed[-3].lower() == "on" and \
            typed[-2].lower() == "rack":  # 'on rack 2', as the claims are listed
        del typed[-2]
    if word in ("x", "exchange") and len(typed) == 1:
        return "no joker to exchange now"
    if word == "d" and len(typed) == 2:
        typed = ["discard", typed[1]]
    position = typed_number(typed[1]) if len(typed) == 2 else None
    if typed[0].lower() == "discard" and position is not None:
        if not 1 <= position <= len(hand):
            whole = "pool" if seen.spec.racks > 1 else "hand"
            return f"your {whole} has {len(hand)} tiles: give a position from 1 to {len(hand)}"
        typed[1] = deck.code(hand[position - 1])
    if len(typed) == 1 and (word.upper() in deck.by_code or word in deck.by_code):
        typed = ["discard", typed[0]]
    elif len(typed) == 1 and word not in VERBS:  # a tile the deck does not have ('9Z')
        return unknown_tile(seen, typed[0])
    try:
        action = parse_action(deck, " ".join(typed))
    except TileError as error:
        return str(error).split(": ", 1)[-1]
    except ValueError as error:
        return str(error).split(";")[0] + " (type help)"
    if action.verb == "discard" and action.tile not in hand:
        return f"you hold no {deck.code(action.tile)}"
    return action


def _chosen(option: Option) -> Meaning:
    if option.action is not None:
        return option.action
    assert option.then is not None
    return option.then


def pass_tiles(typed: list[str], seen: Seen, asked: Prompt, chosen: Sequence[int]
               ) -> list[int] | Action | str:
    """Tiles for a pass, by code or position, one or several at once
    ('1D 3D GD', '1 4 9', 'pass 1B 2B')."""
    deck = seen.deck
    if typed[0].lower() in ("pass", "d") and len(typed) > 1:
        typed = typed[1:]
    if len(typed) > asked.choose and all(typed_number(x) is not None or x.upper() in deck.by_code
                                         or x in deck.by_code for x in typed):
        more = " more" if chosen or seen.obs.me.outgoing else ""
        return f"that is {len(typed)} tiles; choose {asked.choose}{more}"
    hand = seen.obs.me.concealed()  # positions stay as shown until the pass is made
    marked = chosen_positions(hand, chosen)
    allowed = {a.tile for a in seen.legal if a.verb == "pass" and a.tile >= 0}
    picked: list[int] = []
    for word in typed:
        n = typed_number(word)
        if n is not None:
            if not 1 <= n <= len(hand):
                return f"your hand has {len(hand)} tiles: give positions from 1 to {len(hand)}"
            if n in marked:
                return f"{n} ({deck.code(hand[n - 1])}) is chosen already (undo takes back " \
                    "the last)"
            marked.add(n)
            picked.append(hand[n - 1])
            continue
        try:
            picked.append(deck.kind(word.upper() if word.upper() in deck.by_code else word)
                          .index)
        except KeyError:
            return not_a_tile(typed, word, seen, asked)
    left = Counter(hand)
    for t in [*chosen, *picked]:
        left[t] -= 1
    for t in picked:
        code = deck.code(t)
        if t not in allowed and t in hand:
            return f"{'jokers' if deck.kinds[t].is_joker else code} may not be passed here"
        if left[t] < 0:
            return f"you hold no more {code} to pass" if t in hand else \
                f"you hold no {code}"
    return picked


def not_a_tile(typed: list[str], word: str, seen: Seen, asked: Prompt) -> str:
    """Why a word typed at a pass is not a tile: a command that does not
    apply now, a whole action, or a tile the deck does not have."""
    verb = typed[0].lower()
    doing = f"choose {asked.choose} tiles to " + \
        ("set aside" if isinstance(seen.obs.phase, Pledge) else "pass")
    if verb in COMMANDS and len(typed) <= 3:
        return f"{typed[0]} ({COMMANDS[verb]}) is not legal now: {doing} first"
    if verb not in VERBS:
        return unknown_tile(seen, word)
    try:  # a whole action typed ('vote yes' at a pass): say what is wrong with it
        parse_action(seen.deck, " ".join(typed))
    except TileError as error:
        return str(error).split(": ", 1)[-1]
    except ValueError as error:
        return str(error).split(";")[0] + " (type help)"
    return f"{' '.join(typed)!r} is not legal now: {doing} (type help)"


def declaration(typed: list[str], seen: Seen) -> Meaning:
    """`m`, `m RACK`, `m RACK LINE` with several racks: the declaration meant,
    a message, or a question when `m` alone is not enough to say which."""
    spec = seen.spec
    racks = spec.racks
    mahjong = w.mahjong(spec)
    declares = [a for a in seen.legal if a.verb == "declare"]
    if not typed:
        if len(declares) == 1:
            return declares[0]
        if declares:
            return Prompt("declare", "declare which?", (), tuple(
                Option(str(i), words(declare_text(seen, a)), a)
                for i, a in enumerate(declares, 1)), legal=seen.legal)
        if seen.step != "turn":
            claims = [a for a in seen.legal if a.verb == "claim" and not a.tiles]
            return f"claim the discard first ({', '.join(a.text(seen.deck) for a in claims)})" \
                if claims else f"no {mahjong} to declare now: it is not your turn"
        return f"no {mahjong} to declare now: no rack's tiles complete a line"
    number = typed_number(typed[0])
    if number is None:
        return f"say the rack: m RACK [LINE], RACK from 1 to {racks}"
    if not 1 <= number <= racks:
        return f"there is no rack {number}: racks are 1 to {racks}"
    mine = [a for a in declares if a.number == number - 1]
    me = seen.obs.me
    if not mine:
        why = f"its {mahjong} is declared" if me.won(number - 1) else \
            "its hand is dead" if me.rack_dead[number - 1] else \
            "its tiles complete no line" if seen.step == "turn" else "it is not your turn"
        return f"rack {number} has no {mahjong} to declare now: {why}"
    if len(typed) == 1:  # the rack's highest line comes first
        return mine[0]
    named = next((a for a in mine if a.claim.lower() == typed[1].lower()), None)
    if named is None:
        lines = ", ".join(a.claim for a in mine if a.claim) or "no line"
        return f"rack {number} does not complete {typed[1]}; it completes: {lines}"
    return named


def declare_text(seen: Seen, action: Action) -> str:
    """A rack's declaration as offered: 'rack 2 even-3 (value 30)'."""
    if not action.claim:  # strict mode: a declaration naming no line (a mistake)
        return f"rack {action.number + 1}, no line"
    value = next((x.value for x in seen.rules.lines if x.id == action.claim), None)
    return f"rack {action.number + 1} {action.claim} ({w.value(value)})"
