"""Tile faces as drawing data: for every tile of a deck, the shapes a front
end draws on an ivory tile (on a 40 x 54 face), so a tile reads by its
suit's symbol and its numeral as well as by its colour.

The symbol comes from the name the deck gives a suit or a tile, as players
know it (Dots a ring, Bams a bamboo stalk, Craks the character wan; the Red
dragon zhong, the Green fa, the White a frame; each wind an arrow to its
point of the compass), then from the category (a flower, a joker's J);
suits with no symbol of their own take the next shape of a palette
(diamond, triangle, square...), so that no two suits of a deck share one.
Nothing here knows a variant by name.

A shape is a plain dict: "el" (circle, rect, path, polygon or text), its
SVG geometry, and "fill"/"stroke" as "ink" (the tile's colour) or "none".
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from jongg.runtime.tiles import Category, Deck, TileKind

Shape = dict[str, Any]

# the symbol of a suit as players know it, by the name a deck gives it (lower case)
NAMED_SUITS = {
    "dots": "ring", "dot": "ring", "circles": "ring", "coins": "ring",
    "bams": "stalk", "bam": "stalk", "bamboo": "stalk", "bamboos": "stalk", "sticks": "stalk",
    "craks": "wan", "crak": "wan", "cracks": "wan", "characters": "wan",
    "seasons": "leaf", "emotions": "heart",
}
PALETTE = ("diamond", "triangle", "square", "star", "hexagon", "cross")
NAMED_TILES = {"red dragon": "zhong", "green dragon": "fa", "white dragon": "frame",
               "soap": "frame"}
COMPASS = {"north": 0, "east": 90, "south": 180, "west": 270}

CENTRE = (20.0, 36.5)  # where a suit's symbol sits, under its numeral


@cache
def faces(deck: Deck) -> dict[str, list[Shape]]:
    """Every tile of the deck's face, by code."""
    named = {s.code: NAMED_SUITS.get(s.name.lower()) for s in deck.suits}
    spare = iter([p for p in PALETTE if p not in named.values()] * 2)
    symbols = {code: symbol or next(spare, "ring") for code, symbol in named.items()}
    return {k.code: face(k, symbols) for k in deck.kinds}


def face(kind: TileKind, suit_symbols: dict[str, str]) -> list[Shape]:
    """One tile's shapes: a suited tile's numeral over its suit's symbol; an
    honour's own picture; anything else its code in large letters."""
    if kind.suit is not None:
        numeral = str(kind.number) if kind.number is not None else kind.code
        return [_text(numeral, 20, 20, 19), *symbol(suit_symbols[kind.suit], *CENTRE, 9.0)]
    name = kind.name.lower()
    if kind.category is Category.DRAGON:
        picture = NAMED_TILES.get(name)
        if picture is not None:
            return symbol(picture, 20, 27, 13.0)
    if kind.category is Category.WIND:
        letter = [_text(kind.code[:2], 20, 27, 22)]
        turn = COMPASS.get(name)
        return letter + ([] if turn is None else _arrow(turn))
    if kind.category is Category.FLOWER:
        shapes = symbol("flower", 20, 27, 10.0)
        return shapes + ([_text(str(kind.number), 33, 13, 10)] if kind.number else [])
    if kind.category is Category.JOKER:
        return [_text("J", 20, 33, 30)]
    return [_text(kind.code[:3], 20, 30, 16)]


def symbol(name: str, cx: float, cy: float, r: float) -> list[Shape]:
    """A symbol drawn in a box of half-width `r` about (cx, cy)."""
    if name == "ring":
        return [_circle(cx, cy, r, stroke=r * 0.3), _circle(cx, cy, r * 0.35, fill=True)]
    if name == "stalk":
        w = r * 0.6
        nodes = " ".join(f"M{_n(cx - w / 2):g} {_n(cy + k * r):g} H{_n(cx + w / 2):g}"
                         for k in (-0.35, 0.35))
        return [{"el": "rect", "x": _n(cx - w / 2), "y": _n(cy - r), "width": _n(w),
                 "height": _n(2 * r), "rx": _n(w / 3), "fill": "ink", "stroke": "none"},
                _path(nodes, r * 0.16, colour="paper")]
    if name == "wan":  # the character 万: a bar, a falling stroke, a hook
        s = r / 7
        return [_path(_scaled("M-7 -6 H7 M-2 -6 L-5 7 M-3 -1 H5 Q5 7 1 7", cx, cy, s), 2.2 * s)]
    if name == "zhong":  # 中: a box, a stroke through it
        s = r / 7
        return [_path(_scaled("M-6 -3 H6 V3 H-6 Z M0 -8 V9", cx, cy, s), 2.4 * s)]
    if name == "fa":  # 發, drawn in a few strokes
        s = r / 7
        return [_path(_scaled("M-6 -7 L-2 -3 M6 -7 L2 -3 M-7 -1 H7 M-4 -1 L-6 8 M-2 2 H3 V8 "
                              "M5 1 L7 8 M-1 5 H5", cx, cy, s), 1.8 * s)]
    if name == "frame":  # the White dragon's frame
        return [{"el": "rect", "x": _n(cx - r * 0.7), "y": _n(cy - r), "width": _n(r * 1.4),
                 "height": _n(r * 2), "rx": 1.5, "fill": "none", "stroke": "ink",
                 "sw": _n(r * 0.22)},
                {"el": "rect", "x": _n(cx - r * 0.4), "y": _n(cy - r * 0.7),
                 "width": _n(r * 0.8), "height": _n(r * 1.4), "fill": "none", "stroke": "ink",
                 "sw": _n(r * 0.1)}]
    if name == "flower":
        petals = [_circle(cx + r * 0.55 * _cos(a), cy + r * 0.55 * _sin(a), r * 0.42, fill=True)
                  for a in range(0, 360, 72)]
        return [*petals, _circle(cx, cy, r * 0.25, fill=True, colour="paper")]
    return [_polygon(_outline(name, cx, cy, r))]


def _outline(name: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The corners of a filled palette shape (a heart and a leaf are curves
    drawn as many corners)."""
    if name == "diamond":
        return [(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)]
    if name == "triangle":
        return [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
    if name == "square":
        k = r * 0.8
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if name == "star":
        return [(cx + (r if i % 2 == 0 else r * 0.42) * _sin(i * 36),
                 cy - (r if i % 2 == 0 else r * 0.42) * _cos(i * 36)) for i in range(10)]
    if name == "hexagon":
        return [(cx + r * _sin(a), cy - r * _cos(a)) for a in range(0, 360, 60)]
    if name == "heart":  # x = 16 sin^3 t, y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t
        k = r / 16
        return [(cx + k * 16 * _sin(t) ** 3,
                 cy - k * (13 * _cos(t) - 5 * _cos(2 * t) - 2 * _cos(3 * t) - _cos(4 * t)) + k)
                for t in range(0, 360, 15)]
    if name == "leaf":  # two arcs meeting at the tips, leaning
        k = r * 0.9
        side = [(k * _sin(t) * 0.55, -k * _cos(t)) for t in range(0, 181, 20)]
        pts = side + [(-x, y) for x, y in reversed(side)][1:-1]
        return [(cx + x * 0.8 + y * 0.3, cy + y * 0.9 - x * 0.2) for x, y in pts]
    k = r * 0.3  # a cross
    return [(cx - k, cy - r), (cx + k, cy - r), (cx + k, cy - k), (cx + r, cy - k),
            (cx + r, cy + k), (cx + k, cy + k), (cx + k, cy + r), (cx - k, cy + r),
            (cx - k, cy + k), (cx - r, cy + k), (cx - r, cy - k), (cx - k, cy - k)]


def _arrow(degrees: int) -> list[Shape]:
    """A small arrow under a wind's letter, pointing to its point of the
    compass (north up)."""
    cx, cy = 20.0, 39.0
    head = [(0.0, -6.0), (3.5, -1.0), (-3.5, -1.0)]
    stem = "M0 -2 V5"
    turn = [(cx + x * _cos(degrees) - y * _sin(degrees), cy + x * _sin(degrees) + y * _cos(degrees))
            for x, y in head]
    return [_polygon(turn), {"el": "path", "d": stem, "fill": "none", "stroke": "ink", "sw": 2,
                             "transform": f"translate({cx:g} {cy:g}) rotate({degrees})"}]


def _scaled(d: str, cx: float, cy: float, s: float) -> str:
    """A path given about (0, 0) in units of `s` (commands M, L, Q, H, V, Z,
    each letter joined to its first number), moved to (cx, cy)."""
    out: list[str] = []
    axes = "xy"
    i = 0
    for token in d.split():
        head = token[0] if token[0].isalpha() else ""
        if head:
            axes, i = {"H": "x", "V": "y", "Z": ""}.get(head, "xy"), 0
        number = token[len(head):]
        if not number:
            out.append(head)
            continue
        axis = axes[i % len(axes)]
        i += 1
        out.append(f"{head}{_n(float(number) * s + (cx if axis == 'x' else cy)):g}")
    return " ".join(out)


def _circle(cx: float, cy: float, r: float, *, fill: bool = False, stroke: float = 0,
            colour: str = "ink") -> Shape:
    return {"el": "circle", "cx": _n(cx), "cy": _n(cy), "r": _n(r),
            "fill": colour if fill else "none", "stroke": "ink" if stroke else "none",
            **({"sw": _n(stroke)} if stroke else {})}


def _path(d: str, width: float, colour: str = "ink") -> Shape:
    return {"el": "path", "d": d, "fill": "none", "stroke": colour, "sw": _n(width)}


def _polygon(points: list[tuple[float, float]]) -> Shape:
    return {"el": "polygon", "points": " ".join(f"{_n(x)},{_n(y)}" for x, y in points),
            "fill": "ink", "stroke": "none"}


def _text(text: str, x: float, y: float, size: float) -> Shape:
    return {"el": "text", "text": text, "x": _n(x), "y": _n(y), "size": _n(size),
            "fill": "ink", "stroke": "none"}


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def _n(value: float) -> float:
    """A coordinate to two places: the faces go over the wire as JSON."""
    return round(value, 2)
