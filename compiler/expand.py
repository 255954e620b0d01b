"""Expanding a parsed pattern into its concrete variations.

A variation binds every suit letter to a suit, every variable to a number (or
an honour), every `shift` to an offset and every choice to one option. The
count is estimated before enumerating, and enumeration stops at the budget,
so an enormous line is reported, never hung on.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from jongg.runtime.card import FreeGroup, Slots, Variation
from jongg.runtime.tiles import Category, Deck

from . import pattern as p


@dataclass(frozen=True, slots=True)
class Problem:
    """A semantic problem inside one pattern, at a position in its text."""

    message: str
    at: p.Where = (1, 1)
    warning: bool = False
    hint: str | None = None


class ExpansionError(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(pr.message for pr in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Rules:
    """What the card and the deck decide about a line's expansion."""

    deck: Deck
    year: int | None = None
    joker_min_group: int = 3
    jokers: bool = True  # the line allows jokers at all
    budget: int = 20000


@dataclass
class Expansion:
    variations: list[Variation]
    warnings: list[Problem] = field(default_factory=list)


Binding = dict[str, int]  # variable -> number, or honour tile index


def _numbers(deck: Deck) -> list[int]:
    return sorted({k.number for k in deck.kinds if k.number is not None})


def _honours(deck: Deck, name: str) -> list[int]:
    category = Category.DRAGON if name == "dragon" else Category.WIND
    return [k.index for k in deck.of_category(category)]


_DIGITS = frozenset("123456789")


def _eval(expr: p.Expr, binding: Binding) -> int:
    return expr.offset if expr.var is None else binding[expr.var] + expr.offset


class _Alternative:
    """Everything the enumeration of one alternative needs, checked up front."""

    def __init__(self, alt: p.Alternative, rules: Rules):
        self.alt = alt
        self.rules = rules
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        deck = rules.deck
        self.numbers = _numbers(deck)
        self.domains: dict[str, p.VarIn] = {}
        self.definitions: dict[str, p.VarIs] = {}
        self.shift: p.Shift | None = None
        self.suit_counts: tuple[int, ...] | None = None
        self.differ: list[tuple[str, ...]] = []
        for cond in alt.conditions:
            self._condition(cond)
        self.honour_vars = {v for v, c in self.domains.items()
                            if any(isinstance(d, p.Named) and d.name in ("dragon", "wind")
                                   for d in c.domain)}
        self.used_vars = {a for g in alt.groups() for a in g.atoms if p.is_variable(a)}
        self.order = self._order()
        self.letters = self._letters()
        self.shifted = self._shift_offsets()

    # -- conditions -----------------------------------------------------
    def _condition(self, cond: p.Condition) -> None:
        if isinstance(cond, p.VarIn | p.VarIs):
            if cond.var in self.domains or cond.var in self.definitions:
                self.problems.append(Problem(f"variable {cond.var!r} is bound twice", cond.at,
                                             hint="give each variable one 'in' or one '='"))
            elif isinstance(cond, p.VarIn):
                self.domains[cond.var] = cond
                kinds = {isinstance(d, p.Named) and d.name in ("dragon", "wind")
                         for d in cond.domain}
                if len(kinds) > 1:
                    self.problems.append(Problem(
                        f"{cond.var!r} mixes numbers and honours in '{cond}'", cond.at))
            else:
                self.definitions[cond.var] = cond
        elif isinstance(cond, p.Shift):
            self.shift = cond
        elif isinstance(cond, p.Suits):
            self.suit_counts = cond.counts
        elif isinstance(cond, p.VarDiffers):
            self.differ.append((cond.left, cond.right))
        elif isinstance(cond, p.Distinct):
            self.differ.append(cond.vars)

    def _depends(self, var: str) -> set[str]:
        exprs: list[p.Expr] = []
        if var in self.definitions:
            exprs.append(self.definitions[var].expr)
        if var in self.domains:
            for d in self.domains[var].domain:
                if isinstance(d, p.Span):
                    exprs += [d.low, d.high]
                elif isinstance(d, p.One):
                    exprs.append(d.value)
        return {e.var for e in exprs if e.var is not None}

    def _order(self) -> list[str]:
        """Variables in an order where each comes after those it depends on."""
        mentioned = set(self.used_vars) | set(self.domains) | set(self.definitions)
        for cond in self.alt.conditions:
            if isinstance(cond, p.VarDiffers | p.Distinct):
                names = (cond.left, cond.right) if isinstance(cond, p.VarDiffers) else cond.vars
                for name in names:
                    if name not in mentioned:
                        self.problems.append(Problem(
                            f"variable {name!r} in '{cond}' is used nowhere else", cond.at))
        for var in sorted(mentioned):
            for dep in self._depends(var):
                if dep not in mentioned:
                    self.problems.append(Problem(f"variable {dep!r} is never bound", self._at(var),
                                                 hint=f"add '; {dep} in 1..9'"))
                elif dep in self.honour_vars:
                    self.problems.append(Problem(
                        f"{dep!r} is an honour and cannot be counted from", self._at(var)))
        for var in sorted(set(self.domains) | set(self.definitions)):
            if var not in self.used_vars and not any(var in self._depends(v) for v in mentioned):
                self.warnings.append(Problem(f"variable {var!r} is bound but not used",
                                             self._at(var), warning=True))
        order: list[str] = []
        pending = sorted(mentioned)
        while pending:
            ready = [v for v in pending if self._depends(v) <= set(order) | (self._depends(v) -
                                                                               mentioned)]
            if not ready:
                self.problems.append(Problem(
                    f"variables {', '.join(pending)} are defined from each other in a circle",
                    self._at(pending[0])))
                break
            order += ready
            pending = [v for v in pending if v not in ready]
        return order

    def _at(self, var: str) -> p.Where:
        cond = self.domains.get(var) or self.definitions.get(var)
        return cond.at if cond else self.alt.at

    def _letters(self) -> list[str]:
        letters: list[str] = []
        for group in self.alt.groups():
            if group.suit is None:
                if self._suited(group):
                    self.problems.append(Problem(
                        f"'{group}' has numbers or a matching dragon but no suit letter",
                        group.at, hint=f"write it with a suit letter, like '{group}a'"))
            elif not self._suited(group):
                self.warnings.append(Problem(
                    f"the suit letter of '{group}' has no effect: it holds no suited tile",
                    group.at, warning=True))
            elif group.suit not in letters:
                letters.append(group.suit)
        suits = len(self.rules.deck.suits)
        if self.suit_counts is None and len(letters) > suits:
            self.problems.append(Problem(
                f"{len(letters)} suit letters ({', '.join(letters)}) but {self.rules.deck.name} "
                f"has {suits} suits", self.alt.at,
                hint="use fewer letters, or 'suits N' to let letters share suits"))
        if self.suit_counts is not None:
            for count in self.suit_counts:
                if count > min(suits, len(letters)):
                    self.problems.append(Problem(
                        f"'suits {count}' needs {count} letters and {count} suits; this line has "
                        f"{len(letters)} letters and the deck {suits} suits", self.alt.at))
        return letters

    def _suited(self, group: p.Group) -> bool:
        """Whether a group holds a tile whose identity depends on its suit."""
        for atom in group.atoms:
            if atom == "D" or atom in _DIGITS:
                return True
            if p.is_variable(atom) and atom not in self.honour_vars:
                return True
            if atom == p.YEAR and set(self._year_digits()) - {"0"}:
                return True
        return False

    def _year_digits(self) -> str:
        return str(self.rules.year) if self.rules.year is not None else ""

    def _printed(self) -> list[int]:
        return [int(a) for g in self.alt.groups() for a in g.atoms if a in "123456789"]

    def _shift_offsets(self) -> list[int]:
        if self.shift is None:
            return [0]
        printed = self._printed()
        if not printed:
            self.problems.append(Problem("'shift' but no printed number to shift", self.shift.at))
            return [0]
        low, high = self.numbers[0], self.numbers[-1]
        step = self.shift.step
        return [k for k in range(low - max(printed), high - min(printed) + 1)
                if k % step == 0 and low <= min(printed) + k and max(printed) + k <= high]

    # -- enumeration ----------------------------------------------------
    def suit_maps(self) -> list[dict[str, str]]:
        suits = [s.code for s in self.rules.deck.suits]
        if self.suit_counts is None:
            images: Iterator[tuple[str, ...]] = itertools.permutations(suits, len(self.letters))
        else:
            counts = self.suit_counts
            images = (m for m in itertools.product(suits, repeat=len(self.letters))
                      if len(set(m)) in counts)
        return [dict(zip(self.letters, image, strict=True)) for image in images]

    def domain(self, var: str, binding: Binding) -> list[int]:
        if var in self.definitions:
            return [_eval(self.definitions[var].expr, binding)]
        cond = self.domains.get(var)
        if cond is None:
            return list(self.numbers)
        values: list[int] = []
        for part in cond.domain:
            if isinstance(part, p.Span):
                values += range(_eval(part.low, binding), _eval(part.high, binding) + 1)
            elif isinstance(part, p.One):
                values.append(_eval(part.value, binding))
            elif part.name in ("odd", "even"):
                values += [n for n in self.numbers if n % 2 == (part.name == "odd")]
            else:
                values += _honours(self.rules.deck, part.name)
        return list(dict.fromkeys(values))

    def bindings(self) -> Iterator[Binding]:
        def extend(i: int, binding: Binding) -> Iterator[Binding]:
            if i == len(self.order):
                if all(len({binding[v] for v in vs}) == len(vs) for vs in self.differ):
                    yield dict(binding)
                return
            var = self.order[i]
            for value in self.domain(var, binding):
                binding[var] = value
                yield from extend(i + 1, binding)
            binding.pop(var, None)

        yield from extend(0, {})

    def estimate(self) -> int:
        """An upper bound on the variations, computed without enumerating."""
        letters, suits = len(self.letters), len(self.rules.deck.suits)
        total = len(self.shifted) * (suits ** letters if self.suit_counts
                                     else _falling(suits, letters))
        for var in self.order:
            cond = self.domains.get(var)
            if var in self.definitions:
                continue
            total *= len(self.numbers) if cond is None else sum(
                len(self.numbers) if isinstance(d, p.Span) else 1 if isinstance(d, p.One)
                else len(self.domain(var, dict.fromkeys(self.order, 0))) for d in cond.domain)
        for item in self.alt.items:
            if isinstance(item, p.Choice):
                total *= len(item.options)
        return total


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _resolve(group: p.Group, suit: str | None, binding: Binding, offset: int,
             rules: Rules, honour_vars: set[str]) -> tuple[int, ...] | None:
    """The tiles of one group under a binding, or None if a tile does not exist."""
    deck = rules.deck
    tiles: list[int] = []
    atoms: list[str] = []
    for atom in group.atoms:
        atoms += list(str(rules.year)) if atom == p.YEAR else [atom]
    for atom in atoms:
        kind = None
        if atom in honour_vars:
            tiles.append(binding[atom])
            continue
        if p.is_variable(atom):
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


def expand_alternative(alt: p.Alternative, rules: Rules) -> Expansion:
    problems = _check_atoms(alt, rules)
    plan = _Alternative(alt, rules)
    problems += plan.problems
    if problems:
        raise ExpansionError(problems)
    estimate = plan.estimate()
    if estimate > rules.budget * 100:  # too many bindings even to try
        raise ExpansionError([Problem(
            f"would expand to about {estimate} variations, far beyond the budget of "
            f"{rules.budget}; narrow its variables or raise the card's 'budget:'", alt.at)])
    choices = [item.options if isinstance(item, p.Choice) else (item,) for item in alt.items
               if not isinstance(item, p.Decoration)]
    free = tuple(FreeGroup(item.kind, item.jokers and rules.jokers)
                 for item in alt.items if isinstance(item, p.Free) for _ in range(item.count))
    out: dict[tuple[object, ...], Variation] = {}
    considered = 0
    for offset in plan.shifted:
        for suits in plan.suit_maps():
            for binding in plan.bindings():
                for picked in itertools.product(*choices):
                    considered += 1
                    if considered > rules.budget:
                        raise ExpansionError([Problem(
                            f"expands to more than {rules.budget} variations (estimate "
                            f"{estimate}); narrow its variables or raise the card's 'budget:'",
                            alt.at)])
                    variation = _variation(picked, suits, binding, offset, rules, plan, free)
                    if variation is not None:
                        out.setdefault(variation.key(), variation)
    return Expansion(list(out.values()), plan.warnings)


def _variation(picked: tuple[p.Item, ...], suits: dict[str, str], binding: Binding, offset: int,
               rules: Rules, plan: _Alternative, free: tuple[FreeGroup, ...]) -> Variation | None:
    groups: list[Slots] = []
    for item in picked:
        if not isinstance(item, p.Group):
            continue
        tiles = _resolve(item, suits.get(item.suit or ""), binding, offset, rules,
                         plan.honour_vars)
        if tiles is None:
            return None
        identical = len(set(tiles)) == 1
        jokers = (identical and len(tiles) >= rules.joker_min_group and item.jokers
                  and rules.jokers)
        groups.append(Slots(tiles, jokers))
    return Variation(tuple(groups), free)


def expand(pattern: p.Pattern, rules: Rules) -> Expansion:
    """All variations of a pattern, alternatives in order, without repeats."""
    seen: dict[tuple[object, ...], Variation] = {}
    warnings: list[Problem] = []
    problems: list[Problem] = []
    for alt in pattern.alternatives:
        try:
            part = expand_alternative(alt, rules)
        except ExpansionError as error:
            problems += error.problems
            continue
        warnings += part.warnings
        for variation in part.variations:
            seen.setdefault(variation.key(), variation)
            if len(seen) > rules.budget:
                problems.append(Problem(f"expands to more than {rules.budget} variations",
                                        alt.at))
                raise ExpansionError(problems)
    if problems:
        raise ExpansionError(problems)
    return Expansion(list(seen.values()), warnings)
