"""The table of scoring facts (runtime/game/facts.py): one declaration per
fact that the compiler's checks and bounds, the runtime's payments, the
expert's payoffs and the positions all read, so a fact cannot be declared in
one place and forgotten in another."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from jongg.compiler.variant import _Compiler, fill_defaults, resolve
from jongg.compiler.yaku import shipped_played
from jongg.runtime.agents.play import play_match
from jongg.runtime.game import facts
from jongg.runtime.game.facts import FACTS, FAMILIES, Fact, Kind, Moment, UnknownFact

from .rig import game

ROOT = Path(__file__).resolve().parents[1]
# the variants the engine plays (a scoring-only one, riichi, is scored: tests/test_score.py)
VARIANTS = shipped_played()


def _compiler(variant: str) -> tuple[_Compiler, Any]:
    players = fill_defaults(resolve(variant).data)["players"]["default"]
    compiler = _Compiler(resolve(variant, players), players)
    spec = compiler.compile()
    assert spec is not None, compiler.problems
    return compiler, spec


def test_a_fact_without_a_reader_a_moment_or_a_bound_fails_when_declared() -> None:
    """Half a declaration is refused where it is written, at import."""
    with pytest.raises(TypeError, match="a reader"):
        Fact("pung_count", Kind.COUNT, "pungs", None, frozenset({Moment.WIN}),  # type: ignore
             lambda s: (0, 4))
    with pytest.raises(TypeError, match="a reader, a moment"):
        Fact("pung_count", Kind.COUNT, "pungs", lambda w: 0, frozenset(), lambda s: (0, 4))
    with pytest.raises(TypeError, match="a count needs a bound"):
        Fact("pung_count", Kind.COUNT, "pungs", lambda w: 0, frozenset({Moment.WIN}))


def test_an_undeclared_fact_is_an_error_not_a_silent_zero_or_truth() -> None:
    """The compiler's bounds and the table's lookup refuse a name the table
    lacks (before the table, fact_bounds took it for 0..1 and the payoffs
    filled it with 0)."""
    compiler, _ = _compiler("nymj")
    with pytest.raises(UnknownFact, match="pung_count"):
        compiler.fact_bounds(("value", "pung_count"))
    with pytest.raises(UnknownFact):
        facts.fact("held_flower")  # a family's fact exists only for a tag the deck has
    assert facts.fact("held_flower", tags=("flower",)).range(
        facts.Sizes(4, 1, 14, (25, 75), 1000)) == (0, 14)


def test_a_formula_naming_an_undeclared_fact_is_placed_in_the_file(tmp_path: Path) -> None:
    from jongg.compiler.errors import JonggError
    from jongg.compiler.variant import compile_variant
    path = tmp_path / "v.yaml"
    path.write_text("variant: v\nextends: nymj\nscoring:\n  win:\n    - payer: each-opponent\n"
                    "      to: winner\n      amount: \"value + pung_count\"\n")
    with pytest.raises(JonggError) as error:
        compile_variant(str(path))
    assert re.search(r"v\.yaml:7:\d+: error: unknown fact 'pung_count'", str(error.value))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_fact_read_in_play_is_declared_and_within_its_bound(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches of every shipped variant: each moment's facts are exactly the
    names the compiler let its formulas read, each value within the bound
    the compiler proved its payments over."""
    compiler, spec = _compiler(variant)
    card = compiler.card(compiler.deck_value)
    seen: dict[Moment, list[dict[str, Any]]] = {m: [] for m in Moment}
    real = facts.read

    def recorded(moment: Moment, at: Any, *keys: Any) -> dict[str, Any]:
        out = real(moment, at, *keys)
        seen[moment].append(out)
        return out

    monkeypatch.setattr(facts, "read", recorded)
    g = game(variant, spec.players)
    _, state = play_match(g, 1, ("greedy",))
    assert any(r.winner is not None for r in state.results), "no round was won"
    # a scored game's wins are paid by its hand scoring (tests/test_score.py), not scoring.win
    assert seen[Moment.MATCH] and (bool(seen[Moment.WIN]) == (spec.scored is None))
    allowed = {Moment.WIN: {f.name for f in facts.declared(Moment.WIN, *compiler.keys(card))}}
    for moment, reads in seen.items():
        names = allowed.get(moment, set(facts.names(moment)))
        for given in reads:
            assert set(given) == names | ({n for n in given if n.startswith("flagged_")}
                                          if moment is Moment.WIN else set())
            bounds = compiler.fact_bounds(tuple(given), card)
            for name, value in given.items():
                low, high = bounds[name]
                assert low <= value <= high, (moment, name, value, bounds[name])


def test_the_variant_docs_name_every_declared_fact() -> None:
    """docs/variants.md lists the facts: one missing from it fails here."""
    text = (ROOT / "docs/variants.md").read_text()
    for declared in FACTS:
        assert f"`{declared.name}`" in text, declared.name
    for family in FAMILIES:
        assert f"`{family.prefix}<" in text, family.prefix
