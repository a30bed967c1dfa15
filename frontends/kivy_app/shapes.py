"""Shapes drawn on a Kivy canvas: hexagons, the teams' token shapes (filled and outlined),
and cached textures of text (the board's numbers, the flying card's number).
"""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Ellipse, Line, Mesh, Rectangle


def hex_points(cx: float, cy: float, size: float, pointy: bool = True) -> list[float]:
    """Corners of a hexagon (pointy-top, or flat-top), flattened ``[x0, y0, x1, y1, ...]``."""
    points = []
    for i in range(6):
        angle = math.radians(60 * i + (30 if pointy else 0))
        points += [cx + size * math.cos(angle), cy + size * math.sin(angle)]
    return points


def fill_polygon(points: list[float], texture: Any = None) -> Mesh:
    """A convex polygon as a triangle fan; a *texture* is stretched over its bounding box."""
    xs, ys = points[0::2], points[1::2]
    left, bottom = min(xs), min(ys)
    width, height = max(max(xs) - left, 1e-6), max(max(ys) - bottom, 1e-6)
    vertices = []
    for x, y in zip(xs, ys, strict=True):
        vertices += [x, y, (x - left) / width, (y - bottom) / height]
    return Mesh(
        vertices=vertices,
        indices=list(range(len(xs))),
        mode="triangle_fan",
        texture=texture,
    )


def triangle_points(cx: float, cy: float, radius: float) -> list[float]:
    """The corners of a team's triangle centred on ``(cx, cy)``, as Kivy's flat point list
    (a little larger and lower than the circle, so that both look the same size)."""
    r = radius * 1.22
    points: list[float] = []
    for i in range(3):
        angle = math.radians(90 + 120 * i)
        points += [cx + r * math.cos(angle), cy - r * 0.12 + r * math.sin(angle)]
    return points


def polygon_points(cx: float, cy: float, radius: float, corners: int) -> list[float]:
    """The corners of a regular polygon (a diamond: 4, a hexagon: 6), one pointing up."""
    points: list[float] = []
    for i in range(corners):
        angle = math.radians(90 + 360 * i / corners)
        points += [cx + radius * 1.1 * math.cos(angle), cy + radius * 1.1 * math.sin(angle)]
    return points


#: The shapes drawn as regular polygons, by their corners (team styles beyond the first 3).
POLYGONS = {"diamond": 4, "hexagon": 6}


def draw_shape(shape: str, cx: float, cy: float, radius: float, texture: Any = None) -> None:
    """Draw a team's token shape (in the current colour, shaded by *texture* if given)
    centred on ``(cx, cy)``."""
    if shape == "circle":
        Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius), texture=texture)
    elif shape == "triangle":
        fill_polygon(triangle_points(cx, cy, radius), texture)
    elif shape in POLYGONS:
        fill_polygon(polygon_points(cx, cy, radius, POLYGONS[shape]), texture)
    else:
        side = radius * 1.68
        Rectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), texture=texture)


def outline_shape(shape: str, cx: float, cy: float, radius: float, width: float) -> None:
    if shape == "circle":
        Line(circle=(cx, cy, radius), width=width)
    elif shape == "triangle":
        Line(points=triangle_points(cx, cy, radius), close=True, width=width, joint="round")
    elif shape in POLYGONS:
        points = polygon_points(cx, cy, radius, POLYGONS[shape])
        Line(points=points, close=True, width=width, joint="round")
    else:
        side = radius * 1.68
        Line(rectangle=(cx - side / 2, cy - side / 2, side, side), width=width, joint="round")


_TEXTURES: dict[tuple[str, int, bool], Any] = {}


def text_texture(text: str, font_size: int, bold: bool = True) -> Any:
    """A cached texture of *text* (numbers are drawn 90 times per frame)."""
    key = (text, font_size, bold)
    if key not in _TEXTURES:
        label = CoreLabel(text=text, font_size=font_size, bold=bold)
        label.refresh()
        _TEXTURES[key] = label.texture
    return _TEXTURES[key]
