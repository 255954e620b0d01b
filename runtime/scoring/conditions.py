"""Conditions over a reading, evaluated: the predicates a variant's yaku, fu,
dora and limits are written in (see jongg.runtime.scoring.rules)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .readings import KONG, PUNG, Group, Reading
from .rules import Condition, Where


@dataclass
class Scene:
    """What a condition reads: the reading, how the hand was won, the classes
    of each tile kind here (seat and round wind included), the options, the
    yaku scored so far and, inside fu, the fu counted so far."""

    reading: Reading
    concealed: bool
    self_drawn: bool
    dealer: bool
    declared: frozenset[str]
    options: dict[str, bool]
    classes: Sequence[frozenset[str]]  # by kind
    suit: Sequence[str | None]
    number: Sequence[int | None]
    waits: Callable[[], int]  # tiles the hand waited on, counted when asked
    scored: set[str] = field(default_factory=set)
    fu: int | None = None
    made: dict[str, Sequence[Group]] = field(default_factory=dict)

    def elements(self, of: str) -> Sequence[Group]:
        found = self.made.get(of)
        if found is not None:
            return found
        groups = self.reading.groups
        if of == "groups":
            found = groups
        elif of == "sets":
            found = [g for g in groups if g.kind in ("run", PUNG, KONG)]
        else:
            found = []
            for g in groups:
                win = g.winning
                for t in g.tiles:
                    found.append(Group("tile", (t,), g.called, g.open, win))
                    win = False  # one copy is the winning tile
        self.made[of] = found
        return found


def _within(n: int, low: object, high: object) -> bool:
    return low <= n <= high  # type: ignore[operator]


def _attribute(scene: Scene, element: Group, name: str) -> object:
    first = element.tiles[0]
    if name == "suit":
        return scene.suit[first]
    if name == "number":
        return scene.number[first]
    if name == "kind":
        return element.kind
    return first


def matches(scene: Scene, element: Group, where: Where) -> bool:
    _, kinds, is_open, called, every, some, tiles, suits, numbers, winning, negated = where
    if kinds is not None:
        kind = element.kind
        if kind not in kinds and not (kind in (PUNG, KONG) and "triplet" in kinds):  # type: ignore[operator]
            return False
    if is_open is not None and element.open != is_open:
        return False
    if called is not None and element.called != called:
        return False
    if winning is not None and element.winning != winning:
        return False
    first = element.tiles[0]
    if tiles is not None and first not in tiles:  # type: ignore[operator]
        return False
    if suits is not None and scene.suit[first] not in suits:  # type: ignore[operator]
        return False
    if numbers is not None and scene.number[first] not in numbers:  # type: ignore[operator]
        return False
    classes = scene.classes
    if every is not None and not all(classes[t] & every for t in element.tiles):  # type: ignore[operator]
        return False
    if some is not None and not any(classes[t] & some for t in element.tiles):  # type: ignore[operator]
        return False
    return negated is None or not matches(scene, element, negated)  # type: ignore[arg-type]


def _alike(scene: Scene, node: Condition) -> bool:
    _, of, where, same, differ, low, high, times = node
    families: dict[tuple[object, ...], set[object] | list[object]] = {}
    for e in scene.elements(str(of)):
        if where is not None and not matches(scene, e, where):  # type: ignore[arg-type]
            continue
        key = tuple(_attribute(scene, e, a) for a in same)  # type: ignore[attr-defined]
        value = tuple(_attribute(scene, e, a) for a in differ)  # type: ignore[attr-defined]
        family = families.setdefault(key, set() if differ else [])
        if isinstance(family, set):
            family.add(value)
        else:
            family.append(value)
    sizes = [len(f) for f in families.values()]
    if times is not None:  # disjoint families of at least `low`
        least, wanted = int(str(low)), int(str(times))
        return sum(size // least for size in sizes) >= wanted
    return _within(max(sizes, default=0), low, high)


def holds(scene: Scene, node: Condition) -> bool:
    kind = node[0]
    if kind == "all":
        return all(holds(scene, c) for c in node[1])  # type: ignore[attr-defined]
    if kind == "any":
        return any(holds(scene, c) for c in node[1])  # type: ignore[attr-defined]
    if kind == "not":
        return not holds(scene, node[1])  # type: ignore[arg-type]
    if kind == "form":
        return scene.reading.form in node[1]  # type: ignore[operator]
    if kind == "flag":
        return bool(getattr(scene, str(node[1]))) == node[2]
    if kind == "declared":
        return node[1] <= scene.declared  # type: ignore[operator]
    if kind == "option":
        return all(scene.options[name] for name in node[1])  # type: ignore[attr-defined]
    if kind == "yaku":
        return node[1] in scene.scored
    if kind == "wait":
        return scene.reading.wait in node[1]  # type: ignore[operator]
    if kind == "waits":
        return _within(scene.waits(), node[1], node[2])
    if kind == "fu":
        return scene.fu is not None and _within(scene.fu, node[1], node[2])
    if kind == "count":
        _, of, where, low, high = node
        n = 0
        for e in scene.elements(str(of)):
            if where is None or matches(scene, e, where):  # type: ignore[arg-type]
                n += 1
        return _within(n, low, high)
    if kind == "every":
        return all(matches(scene, e, node[2])  # type: ignore[arg-type]
                   for e in scene.elements(str(node[1])))
    if kind == "alike":
        return _alike(scene, node)
    raise AssertionError(f"unknown condition {kind!r}")
