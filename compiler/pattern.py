"""The parsed form of a hand pattern (docs/notation.md).

Values print back to the notation that rebuilds them: `parse(str(p)) == p`.
Positions (1-based line and column inside the pattern text) ride along for
messages but take no part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jongg.runtime.card import FREE_SIZES

YEAR = "{year}"
NUMBERS = frozenset("0123456789")
HONOURS = frozenset("FNEWSDRG")
SUIT_LETTERS = frozenset("abcde")

Where = tuple[int, int]  # (line, column) inside the pattern text, 1-based
_NOWHERE: Where = (1, 1)


def _at() -> Where:
    return field(default=_NOWHERE, compare=False, repr=False)


def is_variable(atom: str) -> bool:
    return len(atom) == 1 and atom.islower() and atom not in SUIT_LETTERS


@dataclass(frozen=True, slots=True)
class Group:
    """Tiles written together: `2222b`, `NEWS`, `{year}a`, `11111a!`."""

    atoms: tuple[str, ...]
    suit: str | None = None
    jokers: bool = True  # False when marked "!"
    at: Where = _at()

    def __str__(self) -> str:
        return "".join(self.atoms) + (self.suit or "") + ("" if self.jokers else "!")

    @property
    def identical(self) -> bool:
        return len(set(self.atoms)) == 1 and self.atoms[0] != YEAR


Option = tuple[Group, ...]  # one option of a choice: a group, or several written together
# The printed signs in each gap of an option, before each group and after
# the last ("" where there are none, several joined by spaces: "+ =").
Signs = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """One option out of several, each one group or more:
    `(222a|555a)`, `(4444a 9999b|5555a 8888b)`, `(3333a + 9999b|4444a + 8888b)`.
    The signs an option prints carry no tiles, as outside a choice: they are
    kept (`signs`, one Signs an option; empty when no option has any) only so
    the line prints as written."""

    options: tuple[Option, ...]
    at: Where = _at()
    signs: tuple[Signs, ...] = ()

    def __str__(self) -> str:
        return "(" + "|".join(" ".join(map(str, self.printed(i)))
                              for i in range(len(self.options))) + ")"

    def printed(self, index: int) -> list[Group | Decoration]:
        """One option as printed: its groups, and its signs where they go."""
        option = self.options[index]
        gaps = self.signs[index] if self.signs else ("",) * (len(option) + 1)
        out: list[Group | Decoration] = [Decoration(sign) for sign in gaps[0].split()]
        for group, after in zip(option, gaps[1:], strict=True):
            out += [group, *(Decoration(sign) for sign in after.split())]
        return out


@dataclass(frozen=True, slots=True)
class Free:
    """A structural group: any tiles of a shape (`[pung]`, `3[set]`)."""

    kind: str
    count: int = 1
    jokers: bool = True
    at: Where = _at()

    def __str__(self) -> str:
        count = str(self.count) if self.count != 1 else ""
        return f"{count}[{self.kind}{'' if self.jokers else '!'}]"

    @property
    def size(self) -> int:
        return FREE_SIZES[self.kind]


@dataclass(frozen=True, slots=True)
class Decoration:
    """A printed sign that carries no tiles: + = x *."""

    text: str
    at: Where = _at()

    def __str__(self) -> str:
        return self.text


Item = Group | Choice | Free | Decoration


@dataclass(frozen=True, slots=True)
class Expr:
    """A number, a variable, or a variable plus or minus a number."""

    var: str | None
    offset: int = 0

    def __str__(self) -> str:
        if self.var is None:
            return str(self.offset)
        if self.offset > 0:
            return f"{self.var}+{self.offset}"
        if self.offset < 0:
            return f"{self.var}-{-self.offset}"
        return self.var

    def variables(self) -> set[str]:
        return set() if self.var is None else {self.var}


_PRECEDENCE = {"+": 1, "-": 1, "*": 2}


@dataclass(frozen=True, slots=True)
class Arith:
    """Arithmetic between values: `13-n`, `n+m`, `n*m`, `(n+m)*2`."""

    op: str  # +, -, *
    left: Value
    right: Value

    def __str__(self) -> str:
        here = _PRECEDENCE[self.op]

        def side(value: Value, right: bool) -> str:
            inner = _PRECEDENCE[value.op] if isinstance(value, Arith) else \
                1 if value.var and value.offset else 3  # n+1 reads as a sum
            # brackets keep the tree: (n+m)*2, and a-(b-c) on the right
            return f"({value})" if inner < here or (right and inner == here) else str(value)

        return f"{side(self.left, False)}{self.op}{side(self.right, True)}"

    def variables(self) -> set[str]:
        return self.left.variables() | self.right.variables()


Value = Expr | Arith


def arith(op: str, left: Value, right: Value) -> Value:
    """`op` between two values, a lone variable plus or minus a number kept
    in its short form (`n+1` is Expr('n', 1)), as the parser builds it."""
    if op in "+-" and isinstance(left, Expr) and left.var is not None and not left.offset \
            and isinstance(right, Expr) and right.var is None:
        return Expr(left.var, right.offset if op == "+" else -right.offset)
    return Arith(op, left, right)


@dataclass(frozen=True, slots=True)
class Span:
    low: Value
    high: Value

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"


@dataclass(frozen=True, slots=True)
class One:
    value: Value

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Named:
    name: str  # odd, even, dragon, wind

    def __str__(self) -> str:
        return self.name


DomainPart = Span | One | Named


@dataclass(frozen=True, slots=True)
class VarIn:
    var: str
    domain: tuple[DomainPart, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.var} in {', '.join(map(str, self.domain))}"


@dataclass(frozen=True, slots=True)
class VarIs:
    var: str
    expr: Value
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.var} = {self.expr}"


@dataclass(frozen=True, slots=True)
class VarDiffers:
    left: str
    right: str
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.left} != {self.right}"


@dataclass(frozen=True, slots=True)
class Distinct:
    vars: tuple[str, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return "distinct " + ", ".join(self.vars)


@dataclass(frozen=True, slots=True)
class Relation:
    """A test between values: `n+m = 13`, `n*m = 16`, `n != 2`."""

    op: str  # "=" or "!="
    left: Value
    right: Value
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"

    def variables(self) -> set[str]:
        return self.left.variables() | self.right.variables()


def _bare(value: Value) -> str | None:
    return value.var if isinstance(value, Expr) and value.var and not value.offset else None


def relation(op: str, left: Value, right: Value,
             at: Where = _NOWHERE) -> VarIs | VarDiffers | Relation:
    """A condition written `left op right`, as the parser builds it: `m = ...`
    defines m, `n != m` between two lone variables is a difference, anything
    else is a test."""
    name = _bare(left)
    if op == "=" and name:
        return VarIs(name, right, at)
    other = _bare(right)
    if op == "!=" and name and other:
        return VarDiffers(name, other, at)
    return Relation(op, left, right, at)


@dataclass(frozen=True, slots=True)
class Shift:
    step: int = 1
    var: str | None = None  # names the offset, for other conditions: `shift s`
    at: Where = _at()

    def __str__(self) -> str:
        words = ["shift", *([str(self.step)] if self.step != 1 else []),
                 *([self.var] if self.var else [])]
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class LetterIn:
    """Suits a letter may take, by name: `a in bams, craks`, `a, b not in dots`."""

    letters: tuple[str, ...]
    suits: tuple[str, ...]
    negated: bool = False
    at: Where = _at()

    def __str__(self) -> str:
        return f"{', '.join(self.letters)} {'not in' if self.negated else 'in'} " \
               f"{', '.join(self.suits)}"


@dataclass(frozen=True, slots=True)
class LetterMay:
    """A letter that may share a suit with others: `c may be b`."""

    letter: str
    others: tuple[str, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.letter} may be {', '.join(self.others)}"


@dataclass(frozen=True, slots=True)
class LetterDiffers:
    """Two letters in different suits, where 'suits' lets letters share: `a != b`."""

    left: str
    right: str
    at: Where = _at()

    def __str__(self) -> str:
        return f"{self.left} != {self.right}"


@dataclass(frozen=True, slots=True)
class Suits:
    counts: tuple[int, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return "suits " + ",".join(map(str, self.counts))


Condition = (VarIn | VarIs | VarDiffers | Distinct | Relation | Shift | Suits | LetterIn
             | LetterMay | LetterDiffers)


@dataclass(frozen=True, slots=True)
class Alternative:
    items: tuple[Item, ...]
    conditions: tuple[Condition, ...] = ()
    at: Where = _at()

    def __str__(self) -> str:
        text = " ".join(map(str, self.items))
        return "".join([text, *(f" ; {c}" for c in self.conditions)])

    def groups(self) -> list[Group]:
        """Every group written in this alternative, choices' options included."""
        out: list[Group] = []
        for item in self.items:
            if isinstance(item, Group):
                out.append(item)
            elif isinstance(item, Choice):
                out.extend(group for option in item.options for group in option)
        return out


@dataclass(frozen=True, slots=True)
class Pattern:
    """A line: its alternatives and, when only the last one is followed by
    conditions, those conditions, which bind every alternative (`shared`).
    When an earlier alternative has conditions of its own, each alternative
    has only its own and `shared` is empty."""

    alternatives: tuple[Alternative, ...]
    shared: tuple[Condition, ...] = ()

    def __str__(self) -> str:
        return " | ".join(map(str, self.alternatives)) + "".join(f" ; {c}" for c in self.shared)

    def conditions(self, alt: Alternative) -> tuple[Condition, ...]:
        """What binds one alternative: its own conditions, then the shared ones."""
        return alt.conditions + self.shared
