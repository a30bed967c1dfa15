"""Light on the board: small textures made once, which give cells and tokens their depth.

A texture is multiplied by the current ``Color``, so one grey-scale picture shades every team's
colour alike and the colour-blind-safe palette stays what it is in the middle of a token.
Textures are made on first use (they need the window's GL context) and kept for the run.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics.texture import Texture

_MADE: dict[str, Any] = {}
#: Textures are small: they are stretched, and smooth shading needs no detail.
SIZE = 64


def _texture(name: str, pixel: Any) -> Any:
    """A SIZE × SIZE RGBA texture, ``pixel(x, y) -> (r, g, b, a)`` over ``[-1, 1]²`` (y up)."""
    if name not in _MADE:
        data = bytearray()
        for row in range(SIZE):
            y = (row + 0.5) / SIZE * 2 - 1
            for column in range(SIZE):
                x = (column + 0.5) / SIZE * 2 - 1
                data += bytes(max(0, min(255, round(v * 255))) for v in pixel(x, y))
        texture = Texture.create(size=(SIZE, SIZE), colorfmt="rgba")
        texture.blit_buffer(bytes(data), colorfmt="rgba", bufferfmt="ubyte")
        texture.mag_filter = texture.min_filter = "linear"
        _MADE[name] = texture
    return _MADE[name]


def _ball(x: float, y: float) -> tuple[float, float, float, float]:
    # Lit from the upper left: full colour round the light, darker towards the far rim.
    distance = math.hypot(x + 0.38, y - 0.42) / 1.9
    light = 1.0 - 0.42 * min(distance, 1.0) ** 1.6
    return (light, light, light, 1.0)


def ball() -> Any:
    """A token's shading: the team colour under a light from the upper left."""
    return _texture("ball", _ball)


def _shine(x: float, y: float) -> tuple[float, float, float, float]:
    distance = math.hypot(x, y)
    return (1.0, 1.0, 1.0, max(0.0, 1.0 - distance) ** 2)


def shine() -> Any:
    """A soft white spot (a token's highlight), transparent at its edge."""
    return _texture("shine", _shine)


def _shadow(x: float, y: float) -> tuple[float, float, float, float]:
    distance = math.hypot(x, y)
    return (0.0, 0.0, 0.0, math.exp(-((distance / 0.55) ** 2)) * (distance < 1))


def shadow() -> Any:
    """A soft round shadow: black, fading out from its centre."""
    return _texture("shadow", _shadow)


def _slope(_x: float, y: float) -> tuple[float, float, float, float]:
    light = 0.86 + 0.14 * (y + 1) / 2
    return (light, light, light, 1.0)


def slope() -> Any:
    """A tile's face: lighter at its top than at its foot."""
    return _texture("slope", _slope)
