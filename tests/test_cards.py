"""The shipped cards compile, cover what they must, and agree with the
hand-worked cases in tests/cases/."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import pytest
import yaml

from jongg.compiler import pattern as p
from jongg.compiler.card import check_card, load_ruleset
from jongg.compiler.matcher import compile_matcher
from jongg.compiler.notation import parse
from jongg.compiler.registry import shipped
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.reference import completed, match_card

from .conftest import card, hand

CASES = Path(__file__).parent / "cases"


@pytest.mark.parametrize("name", shipped("card"))
def test_shipped_card_compiles_without_problems(name: str) -> None:
    report = check_card(load_ruleset("card", name))
    assert report.card is not None, [str(d) for d in report.diagnostics]
    assert report.diagnostics == [], [str(d) for d in report.diagnostics]


def test_every_card_line_has_the_hand_size() -> None:
    for name in shipped("card"):
        c = card(name)
        for line in c.lines:
            assert {v.size for v in line.variations} == {c.hand_size}, (name, line.id)


def test_sample_card_covers_every_category() -> None:
    """MJCG-29: year, 2468, multiplication, quints, sextets, runs, 13579,
    winds/dragons, 369, singles and pairs; singles and pairs allow no jokers."""
    c = card("sample")
    assert len(c.lines) >= 50
    assert sum(len(line.variations) for line in c.lines) >= 1000 or len(c.lines) >= 50
    sections = {line.section for line in c.lines}
    assert {"2026", "2468", "Addition & Multiplication", "Quints", "Sextets",
            "Consecutive Run", "13579", "Winds & Dragons", "369",
            "Singles & Pairs"} <= sections
    for line in c.lines:
        if line.section == "Singles & Pairs":
            assert not line.jokers
            assert all(not g.jokers for v in line.variations for g in v.groups)


def _constructs(text: str) -> set[str]:
    """The notation constructs one pattern uses."""
    found: set[str] = set()
    pattern = parse(text)
    if len(pattern.alternatives) > 1:
        found.add("line alternatives")
    for alt in pattern.alternatives:
        for item in alt.items:
            found.add(type(item).__name__)
            if isinstance(item, p.Decoration):
                found.add(f"decoration {item.text}")
        for group in alt.groups():
            atoms = set(group.atoms)
            found |= {f"atom {a}" for a in atoms & {"0", "D", "R", "G", "F", p.YEAR}}
            if atoms & set("NEWS"):
                found.add("winds")
            if any(p.is_variable(a) for a in atoms):
                found.add("variable")
            if not group.jokers:
                found.add("group !")
            if group.suit:
                found.add(f"suit {group.suit}")
            if group.identical:
                found.add({1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint",
                           6: "sextet"}.get(len(group.atoms), "big"))
            elif len(group.atoms) > 1:
                found.add("run of singles")
        for cond in alt.conditions:
            found.add(type(cond).__name__)
            if isinstance(cond, p.Shift):
                found.add(f"shift {cond.step}")
            if isinstance(cond, p.Suits):
                found.add(f"suits {','.join(map(str, cond.counts))}")
            if isinstance(cond, p.VarIn):
                for part in cond.domain:
                    found.add(f"domain {type(part).__name__}")
                    if isinstance(part, p.Named):
                        found.add(f"domain {part.name}")
                    if isinstance(part, p.Span) and part.low.var:
                        found.add("span over a variable")
    return found


def test_sample_card_uses_every_construct_of_the_notation() -> None:
    data = load_ruleset("card", "sample").data
    used: set[str] = set()
    for line in data["lines"]:
        used |= _constructs(line["hand"])
        if line.get("jokers") is False:
            used.add("jokers: false")
        if line.get("concealed"):
            used.add("concealed")
    every = {
        "Group", "Choice", "Decoration", "line alternatives", "decoration +", "decoration =",
        "decoration x", "atom 0", "atom D", "atom R", "atom G", "atom F", "atom {year}",
        "winds", "variable", "group !", "suit a", "suit b", "suit c", "single", "pair", "pung",
        "kong", "quint", "sextet", "run of singles", "VarIn", "VarIs", "VarDiffers",
        "Distinct", "Shift", "shift 1", "shift 2", "Suits", "suits 1,3", "suits 2,3",
        "domain Span", "domain One", "domain Named", "domain odd", "domain even",
        "domain dragon", "domain wind", "span over a variable", "jokers: false", "concealed",
    }
    assert every - used == set()


def test_structural_constructs_are_used_by_the_structural_cards() -> None:
    used = set()
    for name in ("nymj", "mjcg-beginner", "mjcg-advanced"):
        for line in load_ruleset("card", name).data["lines"]:
            used |= _constructs(line["hand"])
    assert "Free" in used


def _cases() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            out.append((path.stem, case))
    return out


@functools.cache
def _compiled(name: str) -> Matcher:
    return compile_matcher(card(name))


@pytest.mark.parametrize("engine", ["reference", "compiled"])
@pytest.mark.parametrize(("card_name", "case"), _cases(),
                         ids=[f"{c}:{k['name']}" for c, k in _cases()])
def test_hand_worked_cases(card_name: str, case: dict, engine: str) -> None:
    """Each case holds for the reference matcher and for the compiled one."""
    c = card(card_name)
    h = hand(c, case["hand"], case.get("exposed") or [])
    m = _compiled(card_name)
    found = completed(c, h) if engine == "reference" else m.completions(h)
    done = sorted(x.line.id for x in found)
    assert done == sorted(case["complete"]), case["name"]
    if "nearest" in case:
        best = match_card(c, h) if engine == "reference" else m.tiles_away(h)
        want = case["nearest"]
        assert best, case["name"]
        assert best[0].tiles_away == want["tiles_away"], case["name"]
        lines = {m.line.id for m in best if m.tiles_away == want["tiles_away"]}
        assert want["line"] in lines, (case["name"], lines)


def test_every_card_has_cases() -> None:
    """Golden data per card: a card without hand-worked cases fails here."""
    have = {path.stem for path in CASES.glob("*.yaml")}
    assert {"sample", "mjcg-advanced", "mjcg-beginner", "nymj", "classic"} <= have


def test_card_files_ship_in_the_package() -> None:
    folder = resources.files("jongg.rulesets").joinpath("cards")
    assert {"sample.yaml", "nymj.yaml", "mjcg-beginner.yaml", "mjcg-advanced.yaml"} <= {
        entry.name for entry in folder.iterdir()}
