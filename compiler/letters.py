"""Which suits the suit letters of one alternative take.

By default different letters are different suits (the printed card's
colours). `suits 1,3` lets any letters share, keeping the count of different
suits to those listed. Per letter: `a in bams, craks` and `a not in dots`
fix or exclude suits, `c may be b` lets c share b's suit, and `a != b` keeps
two letters apart where `suits` would let them share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from jongg.runtime.tiles import Deck

from . import pattern as p
from .errors import counted, did_you_mean

SuitMap = dict[str, str]  # letter -> suit code


@dataclass(frozen=True, slots=True)
class LetterProblem:
    message: str
    at: p.Where
    warning: bool = False
    hint: str | None = None


def suit_named(deck: Deck, word: str) -> str | None:
    """A deck's suit by the name an author writes: `bams`, `bam`, `Bams`."""
    word = word.lower()
    for suit in deck.suits:
        name = suit.name.lower()
        if word in (name, name.rstrip("s"), name + "s", suit.code.lower()):
            return suit.code
    return None


@dataclass
class Letters:
    """The letters of an alternative and the conditions that tie them."""

    letters: list[str]
    deck: Deck
    counts: tuple[int, ...] | None = None  # from `suits`
    allowed: dict[str, set[str]] = field(default_factory=dict)
    may_share: set[frozenset[str]] = field(default_factory=set)
    must_differ: set[frozenset[str]] = field(default_factory=set)
    problems: list[LetterProblem] = field(default_factory=list)

    def take(self, cond: p.Condition, shared: bool) -> None:
        """Record one letter condition. A shared one (written after the last
        alternative) names letters this alternative may not have: it is
        skipped for them."""
        if isinstance(cond, p.Suits):
            if shared:  # an alternative with fewer letters takes the counts it can make
                room = min(len(self.deck.suits), len(self.letters))
                self.counts = tuple(c for c in cond.counts if c <= room) or cond.counts
            else:
                self.counts = cond.counts
            return
        named = (cond.letters if isinstance(cond, p.LetterIn) else
                 (cond.letter, *cond.others) if isinstance(cond, p.LetterMay) else
                 (cond.left, cond.right) if isinstance(cond, p.LetterDiffers) else ())
        missing = [x for x in named if x not in self.letters]
        if missing and shared:
            return
        if missing:
            self.problems.append(LetterProblem(
                f"'{cond}' names the suit letter {', '.join(missing)}, which no group of this "
                "alternative has", cond.at))
            return
        if isinstance(cond, p.LetterIn):
            self._allow(cond)
        elif isinstance(cond, p.LetterMay):
            for other in cond.others:
                if other == cond.letter:
                    self.problems.append(LetterProblem(
                        f"'{cond}': a letter is always its own suit", cond.at))
                self.may_share.add(frozenset((cond.letter, other)))
        elif isinstance(cond, p.LetterDiffers):
            if cond.left == cond.right:
                self.problems.append(LetterProblem(f"'{cond}' can never hold", cond.at))
            self.must_differ.add(frozenset((cond.left, cond.right)))

    def _allow(self, cond: p.LetterIn) -> None:
        codes: set[str] = set()
        for word in cond.suits:
            code = suit_named(self.deck, word)
            if code is None:
                names = ", ".join(s.name.lower() for s in self.deck.suits)
                self.problems.append(LetterProblem(
                    f"'{cond}': {self.deck.name} has no suit {word!r} (its suits: {names})"
                    + did_you_mean(word.lower(), [s.name.lower() for s in self.deck.suits]),
                    cond.at))
            else:
                codes.add(code)
        every = {s.code for s in self.deck.suits}
        chosen = every - codes if cond.negated else codes
        for letter in cond.letters:
            if letter in self.allowed:
                self.problems.append(LetterProblem(
                    f"'{cond}': the suits of {letter!r} are given twice", cond.at))
            self.allowed[letter] = chosen

    def check(self, at: p.Where, sharing_conditions: list[p.Condition]) -> None:
        """Problems visible before any suit is given."""
        suits = len(self.deck.suits)
        letters = self.letters
        if self.counts is None and not self.may_share and len(letters) > suits:
            self.problems.append(LetterProblem(
                f"{counted(len(letters), 'suit letter')} ({', '.join(letters)}) but "
                f"{self.deck.name} has {counted(suits, 'suit')}", at,
                hint="use fewer letters, 'suits N' to let letters share suits, or "
                     "'c may be b'"))
        if self.counts is not None:
            for count in self.counts:
                if count > min(suits, len(letters)):
                    self.problems.append(LetterProblem(
                        f"'suits {count}' needs {count} letters and {count} suits; this line "
                        f"has {counted(len(letters), 'letter')} and the deck "
                        f"{counted(suits, 'suit')}", at))
        for cond in sharing_conditions:
            if isinstance(cond, p.LetterMay) and self.counts is not None:
                self.problems.append(LetterProblem(
                    f"'{cond}' has no effect: with 'suits' any letters may share a suit",
                    cond.at, warning=True))
            if isinstance(cond, p.LetterDiffers) and self.counts is None:
                pair = frozenset((cond.left, cond.right))
                if pair in self.may_share:
                    self.problems.append(LetterProblem(
                        f"'{cond}' contradicts '{cond.left} may be {cond.right}'", cond.at))
                else:
                    self.problems.append(LetterProblem(
                        f"'{cond}' has no effect: different letters are different suits "
                        "unless 'suits' or 'may be' lets them share", cond.at, warning=True))

    def maps(self, spend: Callable[[], None]) -> list[SuitMap]:
        """Every way the letters take suits; `spend` is called for each try."""
        codes = [s.code for s in self.deck.suits]
        letters = self.letters
        free = self.counts is not None
        wanted = set(self.counts) if self.counts is not None else None
        out: list[SuitMap] = []
        chosen: SuitMap = {}

        def may_equal(a: str, b: str) -> bool:
            pair = frozenset((a, b))
            return pair not in self.must_differ and (free or pair in self.may_share)

        def extend(i: int) -> None:
            if i == len(letters):
                if wanted is None or len(set(chosen.values())) in wanted:
                    out.append(dict(chosen))
                return
            letter = letters[i]
            for code in codes:
                if letter in self.allowed and code not in self.allowed[letter]:
                    continue
                spend()
                if all(chosen[other] != code or may_equal(letter, other) for other in chosen):
                    chosen[letter] = code
                    extend(i + 1)
                    del chosen[letter]

        extend(0)
        return out
