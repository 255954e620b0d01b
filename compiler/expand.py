"""Expanding a parsed pattern into its concrete variations.

A variation binds every suit letter to a suit, every variable to a number (or
an honour), every `shift` to an offset and every choice to one option.

Every line is bounded before the work: its tiles are counted against the hand
size, a variable bound with `in` takes only numbers the deck has, the search
for bindings stops after SEARCH_STEPS tries, and the variations of all of a
line's alternatives together are counted against the card's budget before
any of them is built. A hostile line is refused at once, never hung on.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import cast

from jongg.runtime.card import FreeGroup, Slots, Variation
from jongg.runtime.tiles import Deck

from . import pattern as p
from .alternative import (
    SEARCH_STEPS,
    Binding,
    Expansion,
    ExpansionError,
    Problem,
    Rules,
    _Alternative,
    _digits_value,
    _eval,
    _group_vars,
    _Work,
)

__all__ = ["SEARCH_STEPS", "Expansion", "ExpansionError", "Problem", "Rules", "expand"]


def _resolve(group: p.Group, suit: str | None, binding: Binding, offset: int,
             rules: Rules, honour_vars: set[str]) -> tuple[int, ...] | None:
    """The tiles of one group under a binding, or None if a tile does not exist."""
    deck = rules.deck
    tiles: list[int] = []
    atoms: list[str] = []
    for atom in group.atoms:
        value = _digits_value(atom)
        if atom == p.YEAR:
            atoms += list(str(rules.year))
        elif value is not None:  # the digits of a value, unshifted: {n*m}
            number = _eval(value, binding)
            if number < 0:
                return None
            atoms += [f"#{digit}" for digit in str(number)]
        else:
            atoms.append(atom)
    for atom in atoms:
        kind = None
        if atom in honour_vars:
            tiles.append(binding[atom])
            continue
        if atom.startswith("#"):
            digit = atom[1]
            kind = deck.by_letter("0") if digit == "0" else \
                deck.suited(suit, int(digit)) if suit else None
        elif p.is_variable(atom):
            kind = deck.suited(suit, binding[atom]) if suit else None
        elif atom == "0" or (atom in p.HONOURS and atom != "D"):
            kind = deck.by_letter(atom)
        elif atom == "D":
            kind = deck.matching_dragon(suit) if suit else None
        elif suit is not None:
            kind = deck.suited(suit, int(atom) + offset)
        if kind is None:
            return None
        tiles.append(kind.index)
    return tuple(tiles)


def _check_atoms(alt: p.Alternative, rules: Rules) -> list[Problem]:
    problems = []
    deck = rules.deck
    reported: set[str] = set()
    for group in alt.groups():
        for atom in dict.fromkeys(group.atoms):
            if atom in reported:
                continue
            reported.add(atom)
            if atom == p.YEAR and rules.year is None:
                problems.append(Problem("'{year}' but the card has no 'year:'", group.at,
                                        hint="add 'year: 2026' to the card"))
            elif (atom == "0" or atom in p.HONOURS and atom != "D") and not deck.by_letter(atom):
                problems.append(Problem(f"'{atom}' in '{group}': {deck.name} has no such tile",
                                        group.at))
            elif atom == "D" and not any(k.matches for k in deck.kinds):
                problems.append(Problem(f"'D' in '{group}': {deck.name} has no matching dragons",
                                        group.at))
    return problems


def _tile_count(alt: p.Alternative, rules: Rules) -> int:
    """The most tiles an alternative can hold, counted before anything is built
    (the digits of a value, `{n*m}`, count as one)."""
    year = len(str(rules.year)) if rules.year is not None else 1

    def size(groups: tuple[p.Group, ...]) -> int:
        return sum(year if a == p.YEAR else 1 for g in groups for a in g.atoms)

    total = 0
    for item in alt.items:
        if isinstance(item, p.Group):
            total += size((item,))
        elif isinstance(item, p.Choice):
            total += max(size(option) for option in item.options)
        elif isinstance(item, p.Free):
            total += item.count * item.size
    return total


def _plan(alt: p.Alternative, rules: Rules, shared: tuple[p.Condition, ...]) -> _Alternative:
    problems = _check_atoms(alt, rules)
    tiles = _tile_count(alt, rules)
    if tiles > rules.hand_size:
        problems.append(Problem(f"has {tiles} tiles, more than the hand size {rules.hand_size}",
                                alt.at))
        raise ExpansionError(problems)
    plan = _Alternative(alt, rules, shared)
    problems += plan.problems
    if problems:
        raise ExpansionError(problems)
    return plan


Picked = tuple[p.Group | p.Free, ...]  # the groups of one option of each item


@dataclass
class _Prepared:
    """An alternative ready to build: its bindings and suits found, its
    variations counted."""

    plan: _Alternative
    bindings: list[Binding]
    suit_maps: list[dict[str, str]]
    choices: list[tuple[Picked, ...]]
    count: int


def _prepare(alt: p.Alternative, rules: Rules, work: _Work,
             shared: tuple[p.Condition, ...] = ()) -> _Prepared:
    plan = _plan(alt, rules, shared)
    bindings = plan.bindings(work)
    suit_maps = plan.suit_maps(work)
    if not suit_maps and plan.letters.letters:
        raise ExpansionError([Problem(
            f"its suit letters ({', '.join(plan.letters.letters)}) cannot take suits of "
            f"{rules.deck.name} under its conditions", alt.at)])
    choices: list[tuple[Picked, ...]] = [
        item.options if isinstance(item, p.Choice) else ((item,),) for item in alt.items
        if isinstance(item, p.Group | p.Choice | p.Free)]
    count = len(bindings) * max(1, len(suit_maps))
    for options in choices:
        count *= len(options)
    work.variations += count
    return _Prepared(plan, bindings, suit_maps or [{}], choices, count)


def _build(ready: _Prepared, rules: Rules,
           out: dict[tuple[object, ...], Variation]) -> list[Problem]:
    """Add an alternative's variations to `out` by their order-free key (the
    first of equal ones kept); its warnings."""
    plan = ready.plan
    free = tuple(FreeGroup(item.kind, item.jokers and rules.jokers)
                 for item in plan.alt.items if isinstance(item, p.Free)
                 for _ in range(item.count))
    free_key = tuple(sorted((f.kind, f.jokers) for f in free))  # as Variation.key()
    groups, picks = _picks(ready.choices)
    names = [tuple(sorted(_group_vars(group))) for group in groups]
    fixed = [i for i, named in enumerate(names) if not named]  # the same under every binding
    varied = [i for i, named in enumerate(names) if named]
    resolved: _Resolved = {}
    by_offset: dict[int, list[Binding]] = {}  # shifts outermost: the order cards were built in
    for binding in ready.bindings:
        by_offset.setdefault(binding.get(plan.shift_var, 0) if plan.shift_var else 0,
                             []).append(binding)
    for offset, bindings in by_offset.items():
        for suits in ready.suit_maps:
            suit_of = [suits.get(group.suit or "") for group in groups]
            base: list[_Made] = [None] * len(groups)
            for i in fixed:
                base[i] = _slots(groups[i], (i, suit_of[i], offset), _UNBOUND, offset,
                                 suit_of[i], rules, plan, resolved)
            for binding in bindings:
                made = base.copy()
                for i in varied:
                    made[i] = _slots(groups[i], (i, suit_of[i], offset,
                                                 *[binding.get(v) for v in names[i]]),
                                     binding, offset, suit_of[i], rules, plan, resolved)
                _add(made, picks, free, free_key, out)
    return plan.warnings


_Made = tuple[Slots, tuple[tuple[int, ...], bool]] | None  # a group's slots and sort key


def _add(made: list[_Made], picks: list[tuple[int, ...]], free: tuple[FreeGroup, ...],
         free_key: tuple[tuple[str, bool], ...], out: dict[tuple[object, ...], Variation]) -> None:
    """The variation of each pick under one binding, unless it is there already."""
    missing = any(m is None for m in made)
    found = cast(list[tuple[Slots, tuple[tuple[int, ...], bool]]], made)
    for pick in picks:
        if missing and any(made[i] is None for i in pick):
            continue  # a tile of the pick does not exist
        # Variation.key() in plain tuples (hashed and compared without a call to Python):
        # the groups by their tiles, then their jokers
        key = (tuple(sorted([found[i][1] for i in pick])), free_key)
        if key not in out:
            out[key] = Variation(tuple(found[i][0] for i in pick), free)


_UNBOUND: Binding = {}  # what a group that names no variable is resolved under


def _picks(choices: list[tuple[Picked, ...]]) -> tuple[list[p.Group], list[tuple[int, ...]]]:
    """The distinct groups of an alternative's options, and each pick of one
    option per item as the places of its groups among them, in order."""
    places: dict[int, int] = {}  # by identity: hashing a group's whole tree costs
    groups: list[p.Group] = []
    picks: list[tuple[int, ...]] = []
    for picked in itertools.product(*choices):
        pick = []
        for item in (group for option in picked for group in option):
            if isinstance(item, p.Group):
                if id(item) not in places:
                    places[id(item)] = len(groups)
                    groups.append(item)
                pick.append(places[id(item)])
        picks.append(tuple(pick))
    return groups, picks


_Resolved = dict[tuple[object, ...], _Made]


def _slots(group: p.Group, key: tuple[object, ...], binding: Binding, offset: int,
           suit: str | None, rules: Rules, plan: _Alternative, resolved: _Resolved) -> _Made:
    """A group's tiles under a binding (and their sort key), or None if a tile
    does not exist; most groups recur across bindings, so each is resolved
    once per `key`: its place, suit, offset and the values of its variables."""
    if key not in resolved:
        tiles = _resolve(group, suit, binding, offset, rules, plan.honour_vars)
        jokers = tiles is not None and len(set(tiles)) == 1 and \
            len(tiles) >= rules.joker_min_group and group.jokers and rules.jokers
        resolved[key] = None if tiles is None else (Slots(tiles, jokers), (tiles, jokers))
    return resolved[key]


def _unused_shared(pattern: p.Pattern, plans: list[_Alternative]) -> list[Problem]:
    """A variable bound after the last alternative that no alternative uses."""
    if not plans or len(plans) < len(pattern.alternatives):
        return []
    used = set().union(*(plan.relevant for plan in plans))
    out = []
    for cond in pattern.shared:
        if isinstance(cond, p.VarIn | p.VarIs) and cond.var not in used:
            out.append(Problem(f"variable {cond.var!r} is bound but no alternative uses it",
                               cond.at, warning=True))
    return out


# A variant is compiled at every player count it allows, each count with its
# own deck. Expansion reads of a deck only its suits and, of each kind, its
# place, category, suit, number, matching suit, zero and pattern letter: never
# its copies, code, name or tags. Decks alike in those (the 152-tile set with
# one, two or three sets, or with its flowers read as six players' extra
# winds) expand a line alike, so a line's expansion is kept by that shape.
_KEPT: dict[tuple[object, ...], Expansion] = {}
_KEEP = 4096


def _shape(deck: Deck) -> tuple[object, ...]:
    """What of `deck` a line's expansion reads."""
    return (deck.suits, tuple((k.index, k.category, k.suit, k.number, k.matches, k.zero, k.letter)
                              for k in deck.kinds))


def expand(pattern: p.Pattern, rules: Rules) -> Expansion:
    """All variations of a pattern (see _expand), each line's once per deck shape."""
    key = (pattern, _shape(rules.deck), rules.year, rules.joker_min_group, rules.jokers,
           rules.budget, rules.hand_size)
    kept = _KEPT.get(key)
    if kept is None:
        if len(_KEPT) >= _KEEP:
            _KEPT.clear()
        kept = _KEPT[key] = _expand(pattern, rules)  # a refused line raises, and is not kept
    return Expansion(list(kept.variations), list(kept.warnings))


def _expand(pattern: p.Pattern, rules: Rules) -> Expansion:
    """All variations of a pattern, alternatives in order, without repeats.

    Every alternative is checked and counted before any is built: the budget
    and the search limit cover the whole line, all its alternatives together.
    """
    problems: list[Problem] = []
    work = _Work()
    prepared: list[_Prepared] = []
    for alt in pattern.alternatives:
        try:
            prepared.append(_prepare(alt, rules, work, pattern.shared))
        except ExpansionError as error:
            problems += error.problems
            if work.steps > SEARCH_STEPS:
                break  # the line is refused; the rest would only spend more
    if work.variations > rules.budget:
        counts = [str(ready.count) for ready in prepared]
        split = f" ({' + '.join(counts)} over its alternatives)" if len(counts) > 1 else ""
        problems.append(Problem(
            f"expands to {work.variations} variations{split}, more than the budget of "
            f"{rules.budget}", pattern.alternatives[0].at,
            hint="narrow its variables or suits, or raise the card's 'budget:'"))
    if problems:
        raise ExpansionError(problems)
    seen: dict[tuple[object, ...], Variation] = {}
    warnings: list[Problem] = _unused_shared(pattern, [ready.plan for ready in prepared])
    for ready in prepared:
        warnings += _build(ready, rules, seen)
    return Expansion(list(seen.values()), warnings)
