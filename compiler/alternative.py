"""One alternative of a pattern, ready to enumerate: its conditions checked
(each given once, each variable bound once, letters and suits related), the
order its variables are bound in, the offsets a `shift` may take, and the
search for the bindings the conditions allow, bounded by SEARCH_STEPS.
compiler/expand.py builds the variations from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from jongg.runtime.card import Variation
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

    def _printed(self) -> tuple[list[int], list[list[list[int]]]]:
        """The printed numbers of the groups every pick has, and of each
        option of each choice: a shift is read per option (docs/notation.md,
        "Shifts and choices")."""
        def digits(groups: Iterable[p.Group | p.Free]) -> list[int]:
            return [int(a) for g in groups if isinstance(g, p.Group)
                    for a in g.atoms if a in "123456789"]

        fixed = digits(i for i in self.alt.items if isinstance(i, p.Group))
        return fixed, [[digits(option) for option in item.options]
                       for item in self.alt.items if isinstance(item, p.Choice)]

    def _shift_offsets(self) -> list[int]:
        if self.shift is None:
            return [0]
        fixed, choices = self._printed()
        if not fixed and not any(n for options in choices for option in options for n in option):
            if not self._shared(self.shift):  # a shared shift leaves such an alternative be
                self.problems.append(Problem("'shift' but no printed number to shift",
                                             self.shift.at))
            return [0]
        low, high = self.numbers[0], self.numbers[-1]
        step = self.shift.step

        def fits(k: int, numbers: list[int]) -> bool:
            return all(low <= n + k <= high for n in numbers)

        # every offset that keeps some pick of one option per choice, with a number
        # printed, in the deck's numbers (each choice on its own: some option of it
        # fits); a pick it takes out of them has no tile there and is left out
        offsets = [k for k in range(low - high, high - low + 1)
                   if k % step == 0 and fits(k, fixed)
                   and all(any(fits(k, option) for option in options) for options in choices)
                   and (fixed or any(option and fits(k, option)
                                     for options in choices for option in options))]
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

