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


# The most values one line's search for bindings may try, over all its
# alternatives, whatever the budget (a few tenths of a second).
SEARCH_STEPS = 250_000


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
    hand_size: int = 14


@dataclass
class _Work:
    """What one line has spent, over all of its alternatives."""

    steps: int = 0  # values tried in the search for bindings
    variations: int = 0  # variations to build (before duplicates are dropped)


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
                self._check_literals(cond)
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
            if cond.left == cond.right:
                self.problems.append(Problem(f"'{cond}' can never hold: a variable always "
                                             "equals itself", cond.at))
            self.differ.append((cond.left, cond.right))
        elif isinstance(cond, p.Distinct):
            twice = sorted({v for v in cond.vars if cond.vars.count(v) > 1})
            if twice:
                self.problems.append(Problem(f"'{cond}' names {', '.join(map(repr, twice))} "
                                             "twice, so it can never hold", cond.at))
            self.differ.append(cond.vars)

    def _check_literals(self, cond: p.VarIn) -> None:
        """A number written in a set must be one of the deck's numbers."""
        deck, numbers = self.rules.deck, self.numbers
        for part in cond.domain:
            ends = [part.low, part.high] if isinstance(part, p.Span) else \
                [part.value] if isinstance(part, p.One) else []
            for end in ends:
                if end.var is None and end.offset not in numbers:
                    self.problems.append(Problem(
                        f"'{cond}': {end.offset} is not a number of {deck.name} (its numbers "
                        f"are {numbers[0]}..{numbers[-1]})" if numbers else
                        f"'{cond}': {deck.name} has no numbers", cond.at))

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
    def suit_map_count(self) -> int:
        """How many ways the letters take suits, counted without listing them."""
        suits, letters = len(self.rules.deck.suits), len(self.letters)
        if self.suit_counts is None:
            return _falling(suits, letters)
        return sum(_falling(suits, k) * _stirling2(letters, k) for k in set(self.suit_counts))

    def suit_maps(self) -> Iterator[dict[str, str]]:
        suits = [s.code for s in self.rules.deck.suits]
        if self.suit_counts is None:
            for image in itertools.permutations(suits, len(self.letters)):
                yield dict(zip(self.letters, image, strict=True))
            return
        for k in sorted(set(self.suit_counts)):  # letters split into k blocks, one suit each
            for blocks in _partitions(len(self.letters), k):
                for image in itertools.permutations(suits, k):
                    yield {letter: image[b] for letter, b in zip(self.letters, blocks,
                                                                  strict=True)}

    def domain(self, var: str, binding: Binding) -> list[int]:
        """The values `var` may take, given the variables bound before it.

        A variable bound with `in` takes only numbers the deck has (or its
        honours), so no span, however written, is ever listed.
        """
        if var in self.definitions:
            return [_eval(self.definitions[var].expr, binding)]
        cond = self.domains.get(var)
        if cond is None:
            return list(self.numbers)
        values: list[int] = []
        for part in cond.domain:
            if isinstance(part, p.Span):
                low, high = _eval(part.low, binding), _eval(part.high, binding)
                values += [n for n in self.numbers if low <= n <= high]
            elif isinstance(part, p.One):
                value = _eval(part.value, binding)
                values += [value] if value in self.numbers else []
            elif part.name in ("odd", "even"):
                values += [n for n in self.numbers if n % 2 == (part.name == "odd")]
            else:
                values += _honours(self.rules.deck, part.name)
        return list(dict.fromkeys(values))

    def bindings(self, work: _Work) -> list[Binding]:
        """Every binding the conditions allow; a difference is checked as soon as
        its variables are bound, and every value tried counts against the line."""
        order = self.order
        at = {v: i for i, v in enumerate(order)}
        checks: list[list[tuple[str, ...]]] = [[] for _ in order]
        for names in self.differ:
            checks[max(at[n] for n in names)].append(names)
        out: list[Binding] = []

        def extend(i: int, binding: Binding) -> None:
            if i == len(order):
                out.append(dict(binding))
                return
            var = order[i]
            for value in self.domain(var, binding):
                work.steps += 1
                if work.steps > SEARCH_STEPS:
                    raise ExpansionError([Problem(
                        f"its variables take more than {SEARCH_STEPS} values to search",
                        self.alt.at, hint="narrow them with 'in', or tie them with '='")])
                binding[var] = value
                if all(len({binding[n] for n in names}) == len(names) for names in checks[i]):
                    extend(i + 1, binding)
            binding.pop(var, None)

        extend(0, {})
        return out


def _stirling2(n: int, k: int) -> int:
    """Ways to split n labelled letters into k non-empty blocks."""
    row = [1] + [0] * k
    for _ in range(n):
        row = [0] + [j * row[j] + row[j - 1] for j in range(1, k + 1)]
    return row[k]


def _partitions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Each split of n letters into k blocks, as the block of every letter
    (restricted growth strings: a new block opens only after the last one)."""
    def grow(prefix: tuple[int, ...], blocks: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == n:
            if blocks == k:
                yield prefix
            return
        if n - len(prefix) < k - blocks:
            return
        for b in range(min(blocks + 1, k)):
            yield from grow((*prefix, b), max(blocks, b + 1))

    yield from grow((), 0)


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


def _tile_count(alt: p.Alternative, rules: Rules) -> int:
    """The most tiles an alternative can hold, counted before anything is built."""
    year = len(str(rules.year)) if rules.year is not None else 1

    def size(group: p.Group) -> int:
        return sum(year if a == p.YEAR else 1 for a in group.atoms)

    total = 0
    for item in alt.items:
        if isinstance(item, p.Group):
            total += size(item)
        elif isinstance(item, p.Choice):
            total += max(size(g) for g in item.options)
        elif isinstance(item, p.Free):
            total += item.count * item.size
    return total


def _plan(alt: p.Alternative, rules: Rules) -> _Alternative:
    problems = _check_atoms(alt, rules)
    tiles = _tile_count(alt, rules)
    if tiles > rules.hand_size:
        problems.append(Problem(f"has {tiles} tiles, more than the hand size {rules.hand_size}",
                                alt.at))
        raise ExpansionError(problems)
    plan = _Alternative(alt, rules)
    problems += plan.problems
    if problems:
        raise ExpansionError(problems)
    return plan


@dataclass
class _Prepared:
    """An alternative ready to build: its bindings found and its variations counted."""

    plan: _Alternative
    bindings: list[Binding]
    choices: list[tuple[p.Item, ...]]
    count: int


def _prepare(alt: p.Alternative, rules: Rules, work: _Work) -> _Prepared:
    plan = _plan(alt, rules)
    bindings = plan.bindings(work)
    choices: list[tuple[p.Item, ...]] = [
        item.options if isinstance(item, p.Choice) else (item,) for item in alt.items
        if not isinstance(item, p.Decoration)]
    count = len(plan.shifted) * plan.suit_map_count() * len(bindings)
    for options in choices:
        count *= len(options)
    work.variations += count
    return _Prepared(plan, bindings, choices, count)


def _build(ready: _Prepared, rules: Rules) -> Expansion:
    plan = ready.plan
    free = tuple(FreeGroup(item.kind, item.jokers and rules.jokers)
                 for item in plan.alt.items if isinstance(item, p.Free)
                 for _ in range(item.count))
    out: dict[tuple[object, ...], Variation] = {}
    resolved: _Resolved = {}
    for offset in plan.shifted:
        for suits in plan.suit_maps():
            for binding in ready.bindings:
                for picked in itertools.product(*ready.choices):
                    variation = _variation(picked, suits, binding, offset, rules, plan, free,
                                           resolved)
                    if variation is not None:
                        out.setdefault(variation.key(), variation)
    return Expansion(list(out.values()), plan.warnings)


_Resolved = dict[tuple[object, ...], Slots | None]


def _variation(picked: tuple[p.Item, ...], suits: dict[str, str], binding: Binding, offset: int,
               rules: Rules, plan: _Alternative, free: tuple[FreeGroup, ...],
               resolved: _Resolved) -> Variation | None:
    groups: list[Slots] = []
    for item in picked:
        if not isinstance(item, p.Group):
            continue
        suit = suits.get(item.suit or "")
        key = (item, suit, offset, *(binding[a] for a in item.atoms if a in binding))
        if key not in resolved:  # most groups recur across bindings: resolve each once
            tiles = _resolve(item, suit, binding, offset, rules, plan.honour_vars)
            resolved[key] = None if tiles is None else Slots(
                tiles, len(set(tiles)) == 1 and len(tiles) >= rules.joker_min_group
                and item.jokers and rules.jokers)
        slots = resolved[key]
        if slots is None:
            return None
        groups.append(slots)
    return Variation(tuple(groups), free)


def expand(pattern: p.Pattern, rules: Rules) -> Expansion:
    """All variations of a pattern, alternatives in order, without repeats.

    Every alternative is checked and counted before any is built: the budget
    and the search limit cover the whole line, all its alternatives together.
    """
    problems: list[Problem] = []
    work = _Work()
    prepared: list[_Prepared] = []
    for alt in pattern.alternatives:
        try:
            prepared.append(_prepare(alt, rules, work))
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
    warnings: list[Problem] = []
    for ready in prepared:
        part = _build(ready, rules)
        warnings += part.warnings
        for variation in part.variations:
            seen.setdefault(variation.key(), variation)
    return Expansion(list(seen.values()), warnings)
