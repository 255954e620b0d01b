"""The expansion's fast paths against a plain reading of the rules: every line
of every shipped card, on every shipped deck, yields the same variations in
the same order (or the same refusal) as binding each variable value by value,
testing every condition at each step, and building each variation group by
group with no resolution reused. (A line a deck refuses is left out: the
refusals have tests of their own.)"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from jongg.compiler import expand
from jongg.compiler import pattern as p
from jongg.compiler.deck import load_deck
from jongg.compiler.notation import parse
from jongg.compiler.registry import load, shipped
from jongg.runtime.card import FreeGroup, Slots, Variation


def _holds(cond: p.Condition, binding: dict[str, int]) -> bool:
    if isinstance(cond, p.VarDiffers):
        return binding[cond.left] != binding[cond.right]
    if isinstance(cond, p.Distinct):
        return len({binding[v] for v in cond.vars}) == len(cond.vars)
    assert isinstance(cond, p.Relation)
    left, right = expand._eval(cond.left, binding), expand._eval(cond.right, binding)
    return (left == right) == (cond.op == "=")


def _bindings(plan: expand._Alternative) -> list[dict[str, int]]:
    order, out = plan.order, []

    def extend(i: int, binding: dict[str, int]) -> None:
        if i == len(order):
            out.append(dict(binding))
            return
        for value in plan.domain(order[i], binding):
            binding[order[i]] = value
            bound = set(order[:i + 1])
            if all(_holds(c, binding) for names, c in plan.tests
                   if names and names <= set(order) and order[i] in names and names <= bound):
                extend(i + 1, binding)
        binding.pop(order[i], None)

    extend(0, {})
    return out


def _plain(pattern: p.Pattern, rules: expand.Rules) -> list[Variation]:
    seen: dict[Any, Variation] = {}
    for alt in pattern.alternatives:
        plan = expand._plan(alt, rules, pattern.shared)
        suit_maps = plan.letters.maps(lambda: None) or [{}]
        choices = [item.options if isinstance(item, p.Choice) else ((item,),)
                   for item in alt.items if isinstance(item, p.Group | p.Choice | p.Free)]
        free = tuple(FreeGroup(item.kind, item.jokers and rules.jokers)
                     for item in alt.items if isinstance(item, p.Free) for _ in range(item.count))
        bindings = _bindings(plan)
        offsets = dict.fromkeys(b.get(plan.shift_var, 0) if plan.shift_var else 0
                                for b in bindings)
        for offset in offsets:
            for suits in suit_maps:
                for binding in bindings:
                    if (binding.get(plan.shift_var, 0) if plan.shift_var else 0) != offset:
                        continue
                    for picked in itertools.product(*choices):
                        groups = []
                        for group in (g for option in picked for g in option):
                            if not isinstance(group, p.Group):
                                continue
                            tiles = expand._resolve(group, suits.get(group.suit or ""), binding,
                                                    offset, rules, plan.honour_vars)
                            if tiles is None:
                                break
                            groups.append(Slots(tiles, len(set(tiles)) == 1 and
                                                len(tiles) >= rules.joker_min_group and
                                                group.jokers and rules.jokers))
                        else:
                            variation = Variation(tuple(groups), free)
                            seen.setdefault(variation.key(), variation)
    return list(seen.values())


def _lines(name: str) -> list[tuple[str, expand.Rules, p.Pattern]]:
    raw: dict[str, Any] = load("card", name).data
    out = []
    for deck_name in shipped("deck"):
        deck = load_deck(deck_name)
        for line in raw["lines"]:
            rules = expand.Rules(deck, raw.get("year"), raw.get("joker_min_group", 3),
                                 line.get("jokers", True), raw.get("budget", 20000),
                                 raw.get("hand_size", 14))
            out.append((f"{line['id']}@{deck_name}", rules, parse(line["hand"])))
    return out


@pytest.mark.parametrize("name", shipped("card"))
def test_every_shipped_line_expands_as_the_plain_reading_does(name: str) -> None:
    for where, rules, pattern in _lines(name):
        try:
            fast = expand._expand(pattern, rules).variations
        except expand.ExpansionError:
            continue  # refused on this deck (its tiles or numbers are not there)
        assert fast == _plain(pattern, rules), where


def test_decks_that_differ_only_in_codes_names_tags_or_copies_share_an_expansion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the six-player deck reads the flowers as extra winds (MJCG-38) under another code and
    # with a tag; Royale plays two sets: a line reads neither, so it is expanded once
    made: list[str] = []
    original = expand._expand

    def counting(pattern: p.Pattern, rules: expand.Rules) -> expand.Expansion:
        made.append(rules.deck.name)
        return original(pattern, rules)

    monkeypatch.setattr(expand, "_KEPT", {})
    monkeypatch.setattr(expand, "_expand", counting)
    pattern = parse("FFFF hhhh 2026a 11b ; h in dragon")
    four = load_deck("american-152")
    alike = [four, load_deck("american-152-6p"), four.combined(2)]
    expansions = [expand.expand(pattern, expand.Rules(deck, 2026)) for deck in alike]
    assert made == ["american-152"]
    assert expansions[0].variations == expansions[1].variations == expansions[2].variations
    expand.expand(pattern, expand.Rules(load_deck("american-152-5p"), 2026))  # NE moves F
    assert made == ["american-152", "american-152-5p"]
