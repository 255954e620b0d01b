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


@dataclass(frozen=True, slots=True)
class Choice:
    """One group out of several: `(222a|555a)`."""

    options: tuple[Group, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return "(" + "|".join(map(str, self.options)) + ")"


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


@dataclass(frozen=True, slots=True)
class Span:
    low: Expr
    high: Expr

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"


@dataclass(frozen=True, slots=True)
class One:
    value: Expr

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
    expr: Expr
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
class Shift:
    step: int = 1
    at: Where = _at()

    def __str__(self) -> str:
        return "shift" if self.step == 1 else f"shift {self.step}"


@dataclass(frozen=True, slots=True)
class Suits:
    counts: tuple[int, ...]
    at: Where = _at()

    def __str__(self) -> str:
        return "suits " + ",".join(map(str, self.counts))


Condition = VarIn | VarIs | VarDiffers | Distinct | Shift | Suits


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
                out.extend(item.options)
        return out


@dataclass(frozen=True, slots=True)
class Pattern:
    alternatives: tuple[Alternative, ...]

    def __str__(self) -> str:
        return " | ".join(map(str, self.alternatives))
