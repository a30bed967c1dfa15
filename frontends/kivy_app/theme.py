"""Colours and shapes of the app (plain data; no Kivy here).

Team colours come from the Okabe–Ito colour-blind-safe palette shared with the terminal
board, and each team also has its own shape, so colour is never the only clue.
"""

from __future__ import annotations

from cinco.frontends.board_view import style_of

RGBA = tuple[float, float, float, float]


def rgba(hex_colour: str, alpha: float = 1.0) -> RGBA:
    """``"#56B4E9"`` → ``(0.34, 0.71, 0.91, 1.0)``.

    >>> rgba("#FF0000")
    (1.0, 0.0, 0.0, 1.0)
    """
    value = hex_colour.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


#: The built-in teams' shapes, matching the terminal's ●, ▲ and ■ (a team's style says its).
TEAM_SHAPES = ("circle", "triangle", "square")

BACKGROUND = rgba("#141B26")
PANEL = rgba("#1F2938")
PANEL_LIGHT = rgba("#2A3648")
TEXT = rgba("#EEF1F5")
TEXT_DIM = rgba("#93A1B5")
ACCENT = rgba("#F2C14E")
BOARD_FRAME = rgba("#2B3A52")
CELL = rgba("#F4EDE0")
CELL_DIM = rgba("#B9B3A8")
CELL_EDGE = rgba("#7F8A9C")
CELL_TEXT = rgba("#2B2F38")
LEGAL = rgba("#FFD966")
LEGAL_EDGE = rgba("#F29E00")
CENTRE = rgba("#1A2332")


def team_colour(team: int, alpha: float = 1.0) -> RGBA:
    """The team's colour: its style's (``cinco_register_team_styles``)."""
    return rgba(style_of(team).colour, alpha)


def team_shape(team: int) -> str:
    """The shape of the team's tokens: its style's (``circle``, ``triangle``, ...)."""
    return style_of(team).shape
