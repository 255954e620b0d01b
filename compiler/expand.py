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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import cast

from jongg.runtime.card import FreeGroup, Slots, Variation
from jongg.runtime.tiles import Category, Deck

from . import pattern as p
from .letters import Letters


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

    steps: int = 0  # values tried in the search for bindings and suits
    variations: int = 0  # variations to build (before duplicates are dropped)

    def spend(self, at: p.Where, values: int = 1) -> None:
        """Count `values` tries (a whole domain at once: the line is refused
        alike whether its tries are counted one by one or together)."""
        self.steps += values
        if self.steps > SEARCH_STEPS:
            self.steps = SEARCH_STEPS + 1  # the first try over the limit; none is made after it
            raise ExpansionError([Problem(
                f"its variables and suits take more than {SEARCH_STEPS} tries to search", at,
                hint="narrow them with 'in', or tie them with '='")])


@dataclass
class Expansion:
    variations: list[Variation]
    warnings: list[Problem] = field(default_factory=list)


Binding = dict[str, int]  # variable -> number, or honour tile index

MAX_PICKS = 4096  # the picks of a line's choices a shift's offsets are read from
SHIFT = "$shift"  # the offset of an unnamed `shift`, bound like a variable


def _numbers(deck: Deck) -> list[int]:
    return sorted({k.number for k in deck.kinds if k.number is not None})


def _honours(deck: Deck, name: str) -> list[int]:
    category = Category.DRAGON if name == "dragon" else Category.WIND
    return [k.index for k in deck.of_category(category)]


_DIGITS = frozenset("123456789")


def _eval(value: p.Value, binding: Binding) -> int:
    if isinstance(value, p.Expr):
        return value.offset if value.var is None else binding[value.var] + value.offset
    left, right = _eval(value.left, binding), _eval(value.right, binding)
    return left + right if value.op == "+" else left - right if value.op == "-" else left * right


@cache
def _digits_value(atom: str) -> p.Value | None:
    """The value behind a `{n*m}` atom (not `{year}`)."""
    if not atom.startswith("{") or atom == p.YEAR:
        return None
    from .notation import parse_value  # the notation parses; this module only expands

    return parse_value(atom[1:-1])


def _atom_vars(atom: str) -> set[str]:
    if p.is_variable(atom):
        return {atom}
    value = _digits_value(atom)
    return value.variables() if value is not None else set()


def _group_vars(group: p.Group) -> set[str]:
    return {v for atom in group.atoms for v in _atom_vars(atom)}


def _domain_vars(cond: p.VarIn) -> set[str]:
    """The variables a variable's values are counted from (`n in m..m+2`: m)."""
    found: set[str] = set()
    for part in cond.domain:
        if isinstance(part, p.Span):
            found |= part.low.variables() | part.high.variables()
        elif isinstance(part, p.One):
            found |= part.value.variables()
    return found


def _condition_vars(cond: p.Condition) -> set[str]:
    if isinstance(cond, p.VarIn):
        return {cond.var} | _domain_vars(cond)
    if isinstance(cond, p.VarIs):
        return {cond.var} | cond.expr.variables()
    if isinstance(cond, p.VarDiffers):
        return {cond.left, cond.right}
    if isinstance(cond, p.Distinct):
        return set(cond.vars)
    if isinstance(cond, p.Relation):
        return cond.variables()
    if isinstance(cond, p.Shift):
        return {cond.var} if cond.var else set()
    return set()


_LETTER_CONDITIONS = (p.Suits, p.LetterIn, p.LetterMay, p.LetterDiffers)


class _Alternative:
    """Everything the enumeration of one alternative needs, checked up front.

    `shared` are the conditions written after the last alternative of a line:
    they bind every alternative, each only in the variables and letters it has.
    """

    def __init__(self, alt: p.Alternative, rules: Rules, shared: tuple[p.Condition, ...] = ()):
        self.alt = alt
        self.rules = rules
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.numbers = _numbers(rules.deck)
        self.domains: dict[str, p.VarIn] = {}
        self.definitions: dict[str, p.VarIs] = {}
        self.shift: p.Shift | None = None
        self.tests: list[tuple[set[str], p.Condition]] = []  # differences and relations
        self.shared_ids = {id(c) for c in shared}
        conditions = alt.conditions + shared
        self._repeats(conditions)
        for cond in conditions:
            self._condition(cond)
        self.honour_vars = {v for v, c in self.domains.items()
                            if any(isinstance(d, p.Named) and d.name in ("dragon", "wind")
                                   for d in c.domain)}
        self.used_vars = {v for g in alt.groups() for v in _group_vars(g)}
        self.shift_var = (self.shift.var or SHIFT) if self.shift else None
        self.relevant = self._relevant()
        self.order = self._order()
        self.offsets = self._shift_offsets()
        self.letters = self._letters(conditions)

    # -- conditions -----------------------------------------------------
    def _shared(self, cond: p.Condition) -> bool:
        return id(cond) in self.shared_ids

    def _repeats(self, conditions: tuple[p.Condition, ...]) -> None:
        """A condition written twice would silently override or repeat itself."""
        seen: dict[object, p.Condition] = {}
        for cond in conditions:
            key: object = type(cond) if isinstance(cond, p.Shift | p.Suits) else str(cond)
            if key in seen:
                first = seen[key]
                word = str(cond).split()[0] if isinstance(cond, p.Shift | p.Suits) else str(cond)
                self.problems.append(Problem(
                    f"'{word}' is given twice: '{first}' and '{cond}'", cond.at,
                    hint="keep one"))
            seen.setdefault(key, cond)

    def _condition(self, cond: p.Condition) -> None:
        if isinstance(cond, p.VarIn | p.VarIs):
            if cond.var in self.domains or cond.var in self.definitions or \
                    (self.shift is not None and cond.var == self.shift.var):
                self.problems.append(Problem(f"variable {cond.var!r} is bound twice", cond.at,
                                             hint="give each variable one 'in' or one '='"))
            elif isinstance(cond, p.VarIn):
                self.domains[cond.var] = cond
                self._check_literals(cond)
                if cond.var in _domain_vars(cond):  # it has no value yet to count from
                    self.problems.append(Problem(
                        f"'{cond}': {cond.var!r} is counted from itself", cond.at,
                        hint="count it from a number or another variable"))
                kinds = {isinstance(d, p.Named) and d.name in ("dragon", "wind")
                         for d in cond.domain}
                if len(kinds) > 1:
                    self.problems.append(Problem(
                        f"{cond.var!r} mixes numbers and honours in '{cond}'", cond.at))
            else:
                self.definitions[cond.var] = cond
        elif isinstance(cond, p.Shift):
            if self.shift is None:
                self.shift = cond
                if cond.var and (cond.var in self.domains or cond.var in self.definitions):
                    self.problems.append(Problem(f"variable {cond.var!r} is bound twice",
                                                 cond.at, hint="'shift s' binds s to the offset"))
        elif isinstance(cond, p.VarDiffers):
            if cond.left == cond.right:
                self.problems.append(Problem(f"'{cond}' can never hold: a variable always "
                                             "equals itself", cond.at))
            self.tests.append(({cond.left, cond.right}, cond))
        elif isinstance(cond, p.Distinct):
            twice = sorted({v for v in cond.vars if cond.vars.count(v) > 1})
            if twice:
                self.problems.append(Problem(f"'{cond}' names {', '.join(map(repr, twice))} "
                                             "twice, so it can never hold", cond.at))
            self.tests.append((set(cond.vars), cond))
        elif isinstance(cond, p.Relation):
            self.tests.append((cond.variables(), cond))
            if not cond.variables():
                self.problems.append(Problem(f"'{cond}' has no variable: it is always true or "
                                             "always false", cond.at))

    def _check_literals(self, cond: p.VarIn) -> None:
        """A number written in a set must be one of the deck's numbers."""
        deck, numbers = self.rules.deck, self.numbers
        for part in cond.domain:
            ends = [part.low, part.high] if isinstance(part, p.Span) else \
                [part.value] if isinstance(part, p.One) else []
            for end in ends:
                if isinstance(end, p.Expr) and end.var is None and end.offset not in numbers:
                    self.problems.append(Problem(
                        f"'{cond}': {end.offset} is not a number of {deck.name} (its numbers "
                        f"are {numbers[0]}..{numbers[-1]})" if numbers else
                        f"'{cond}': {deck.name} has no numbers", cond.at))

    def _depends(self, var: str) -> set[str]:
        found: set[str] = set()
        if var in self.definitions:
            found |= self.definitions[var].expr.variables()
        if var in self.domains:
            found |= _condition_vars(self.domains[var]) - {var}
        return found

    def _relevant(self) -> set[str]:
        """The variables this alternative needs: those its groups use, what
        they are counted from, and what a test ties to them."""
        relevant = set(self.used_vars) | ({self.shift_var} if self.shift_var else set())
        grew = True
        while grew:
            grew = False
            more = {d for v in relevant for d in self._depends(v)}
            for names, cond in self.tests:  # a shared test only ties what this one binds
                if names & relevant and (not self._shared(cond) or
                                         names <= relevant | self._bound()):
                    more |= names
            if not more <= relevant:
                relevant |= more
                grew = True
        return relevant

    def _bound(self) -> set[str]:
        return set(self.domains) | set(self.definitions) | \
            ({self.shift_var} if self.shift_var else set())

    def _order(self) -> list[str]:
        """The relevant variables in an order where each comes after those it
        depends on; problems with variables found on the way."""
        relevant, bound = self.relevant, self._bound()
        for names, cond in self.tests:
            if self._shared(cond) and not names <= relevant:
                continue  # a shared test about variables this alternative lacks
            for name in sorted(names - relevant - bound if not self._shared(cond) else set()):
                self.problems.append(Problem(
                    f"variable {name!r} in '{cond}' is used nowhere else", cond.at))
        for var in sorted(relevant):
            for dep in sorted(self._depends(var)):
                if dep not in relevant | bound:
                    self.problems.append(Problem(f"variable {dep!r} is never bound", self._at(var),
                                                 hint=f"add '; {dep} in 1..9'"))
                elif dep in self.honour_vars:
                    self.problems.append(Problem(
                        f"{dep!r} is an honour and cannot be counted from", self._at(var)))
        for group in self.alt.groups():
            for atom in group.atoms:
                if _atom_vars(atom) & self.honour_vars and not p.is_variable(atom):
                    self.problems.append(Problem(
                        f"'{atom}' in '{group}': an honour has no digits", group.at))
        for names, cond in self.tests:
            if isinstance(cond, p.Relation) and names & self.honour_vars:
                self.problems.append(Problem(
                    f"'{cond}': an honour cannot be counted with", cond.at))
        for var in sorted(bound - relevant):
            binder = self.domains.get(var) or self.definitions.get(var) or self.shift
            if binder is not None and not self._shared(binder):
                self.warnings.append(Problem(f"variable {var!r} is bound but not used",
                                             self._at(var), warning=True))
        order: list[str] = []
        pending = sorted(relevant)
        while pending:
            ready = [v for v in pending if self._depends(v) & relevant <= set(order)]
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

    def _letters(self, conditions: tuple[p.Condition, ...]) -> Letters:
        letters: list[str] = []
        for group in self.alt.groups():
            if group.suit is None:
                if self._suited(group):
                    self.problems.append(Problem(
                        f"'{group}' has numbers or a matching dragon but no suit letter",
                        group.at, hint=self._suit_hint(group)))
            elif not self._suited(group):
                self.warnings.append(Problem(
                    f"the suit letter of '{group}' has no effect: it holds no suited tile",
                    group.at, warning=True))
            elif group.suit not in letters:
                letters.append(group.suit)
        plan = Letters(letters, self.rules.deck)
        for cond in conditions:
            if isinstance(cond, _LETTER_CONDITIONS):
                plan.take(cond, self._shared(cond))
        plan.check(self.alt.at, [c for c in conditions if isinstance(c, _LETTER_CONDITIONS)])
        for found in plan.problems:
            problem = Problem(found.message, found.at, found.warning, found.hint)
            (self.warnings if found.warning else self.problems).append(problem)
        return plan

    @staticmethod
    def _suit_hint(group: p.Group) -> str:
        if set(group.atoms) == {"D"}:
            return (f"D is the dragon matching a suit: write '{group}a'; for any dragon write "
                    f"'{'h' * len(group.atoms)} ; h in dragon'")
        return f"write it with a suit letter, like '{group}a'"

    def _suited(self, group: p.Group) -> bool:
        """Whether a group holds a tile whose identity depends on its suit."""
        for atom in group.atoms:
            if atom == "D" or atom in _DIGITS:
                return True
            if p.is_variable(atom) and atom not in self.honour_vars:
                return True
            if atom == p.YEAR and set(self._year_digits()) - {"0"}:
                return True
            if _digits_value(atom) is not None:
                return True
        return False

    def _year_digits(self) -> str:
        return str(self.rules.year) if self.rules.year is not None else ""

    def _printed(self) -> list[list[int]]:
        """The printed numbers of each pick of one option per choice: a shift
        is read per option (docs/notation.md, "Shifts and choices")."""
        def digits(groups: Iterable[p.Group | p.Free]) -> list[int]:
            return [int(a) for g in groups if isinstance(g, p.Group)
                    for a in g.atoms if a in "123456789"]

        fixed = digits(i for i in self.alt.items if isinstance(i, p.Group))
        choices = [item.options for item in self.alt.items if isinstance(item, p.Choice)]
        picks = [fixed + [n for option in pick for n in digits(option)]
                 for pick in itertools.islice(itertools.product(*choices), MAX_PICKS)]
        return [pick for pick in picks if pick]

    def _shift_offsets(self) -> list[int]:
        if self.shift is None:
            return [0]
        printed = self._printed()
        if not printed:
            if not self._shared(self.shift):  # a shared shift leaves such an alternative be
                self.problems.append(Problem("'shift' but no printed number to shift",
                                             self.shift.at))
            return [0]
        low, high = self.numbers[0], self.numbers[-1]
        step = self.shift.step
        # every offset that keeps some pick in the deck's numbers; a pick it takes
        # out of them has no tile there and is left out of that offset's variations
        offsets = sorted({k for pick in printed
                          for k in range(low - max(pick), high - min(pick) + 1)
                          if k % step == 0 and low <= min(pick) + k and max(pick) + k <= high})
        if len(offsets) == 1:
            self.warnings.append(Problem(
                f"this 'shift' can only be {offsets[0]}: no other shift keeps the printed "
                f"numbers within {low}..{high}, so the line is as printed", self.shift.at,
                warning=True, hint="print numbers that leave room to shift, or leave out "
                "'; shift'"))
        return offsets

    # -- enumeration ----------------------------------------------------
    def domain(self, var: str, binding: Binding) -> list[int]:
        """The values `var` may take, given the variables bound before it.

        A variable bound with `in` takes only numbers the deck has (or its
        honours), so no span, however written, is ever listed.
        """
        if var == self.shift_var:
            return self.offsets
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
        """Every binding the conditions allow; a test is checked as soon as its
        variables are bound, and every value tried counts against the line."""
        order = self.order
        at = {v: i for i, v in enumerate(order)}
        checks: list[list[_Test]] = [[] for _ in order]
        for names, cond in self.tests:
            if names and names <= set(order):
                checks[max(at[n] for n in names)].append(_test(cond))
        tests = [_all(level) for level in checks]
        # a variable that depends on no other takes the same values under every binding
        fixed = [None if self._depends(var) else self.domain(var, {}) for var in order]
        out: list[Binding] = []
        last = len(order) - 1

        def extend(i: int, binding: Binding) -> None:
            var, test = order[i], tests[i]
            values = fixed[i]
            if values is None:
                values = self.domain(var, binding)
            work.spend(self.alt.at, len(values))
            for value in values:
                binding[var] = value
                if test is None or test(binding):
                    if i == last:
                        out.append(dict(binding))
                    else:
                        extend(i + 1, binding)
            binding.pop(var, None)

        if order:
            extend(0, {})
        else:
            out.append({})
        return out

    def suit_maps(self, work: _Work) -> list[dict[str, str]]:
        return self.letters.maps(lambda: work.spend(self.alt.at))


_Test = Callable[[Binding], bool]


def _test(cond: p.Condition) -> _Test:
    """A difference or relation as a test of a binding, its kind looked at
    once rather than at every binding tried."""
    if isinstance(cond, p.VarDiffers):
        left, right = cond.left, cond.right
        return lambda binding: binding[left] != binding[right]
    if isinstance(cond, p.Distinct):
        names, count = cond.vars, len(cond.vars)
        return lambda binding: len(set(map(binding.__getitem__, names))) == count
    assert isinstance(cond, p.Relation)
    relation = cond
    if relation.op == "=":
        return lambda binding: _eval(relation.left, binding) == _eval(relation.right, binding)
    return lambda binding: _eval(relation.left, binding) != _eval(relation.right, binding)


def _all(tests: list[_Test]) -> _Test | None:
    """The tests of one step as one (None when there is none to pass)."""
    if len(tests) < 2:
        return tests[0] if tests else None
    return lambda binding: all(test(binding) for test in tests)


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
