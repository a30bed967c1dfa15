"""The board: 91 hexagons in the real geometry of :mod:`cinco.core.board`, scaled to the widget.

The widget only draws what it is given (whose token is where, which spaces to light up, the
last move, the winning line) and reports taps on spaces; it knows no rules.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from cinco.core.board import RADIUS, SPACES, coordinates, space_at
from cinco.core.state import BLOCKED, FREE

from . import theme

SQRT3 = math.sqrt(3)
#: Every cell of the hexagon, the empty centre included.
CELLS = [
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if -RADIUS <= q + r <= RADIUS
]


def hex_points(cx: float, cy: float, size: float, pointy: bool = True) -> list[float]:
    """Corners of a hexagon (pointy-top, or flat-top), flattened ``[x0, y0, x1, y1, ...]``."""
    points = []
    for i in range(6):
        angle = math.radians(60 * i + (30 if pointy else 0))
        points += [cx + size * math.cos(angle), cy + size * math.sin(angle)]
    return points


def fill_polygon(points: list[float]) -> Mesh:
    """A convex polygon as a triangle fan."""
    vertices = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0, 0]
    return Mesh(vertices=vertices, indices=list(range(len(points) // 2)), mode="triangle_fan")


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


def draw_shape(shape: str, cx: float, cy: float, radius: float) -> None:
    """Draw a team's token shape (in the current colour) centred on ``(cx, cy)``."""
    if shape == "circle":
        Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
    elif shape == "triangle":
        fill_polygon(triangle_points(cx, cy, radius))
    elif shape in POLYGONS:
        fill_polygon(polygon_points(cx, cy, radius, POLYGONS[shape]))
    else:
        side = radius * 1.68
        Rectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side))


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


class BoardWidget(Widget):  # type: ignore[misc]
    """Draws the board. Set :attr:`board` (``GameState.board``), :attr:`legal`, :attr:`last`,
    :attr:`line`; bind ``on_space`` to hear which space was tapped."""

    board = ListProperty([FREE] * (SPACES + 1))
    legal = ListProperty([])
    last = NumericProperty(0)
    line = ListProperty([])
    #: 0 → 1 while the last token lands.
    landing = NumericProperty(1.0)
    #: 0 → 1 while the winning line is drawn in (:meth:`celebrate`), then :attr:`glow` pulses
    #: round its tokens.
    sweep = NumericProperty(1.0)
    glow = NumericProperty(0.0)
    #: Whether taps on spaces are reported.
    interactive = ObjectProperty(True)
    #: A space shown with a faint token of :attr:`preview_team` (a tap waiting for confirmation).
    preview = NumericProperty(0)
    preview_team = NumericProperty(0)
    #: Drawn turned a quarter (flat-top cells) when that makes the cells larger: a tall, narrow
    #: board on a phone held upright. Set from the widget's shape, never by hand.
    turned = ObjectProperty(False)

    __events__ = ("on_space",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Redraw once per frame, after layout has settled (several properties change together).
        self._trigger = Clock.create_trigger(self.redraw, -1)
        self.bind(
            pos=self._trigger,
            size=self._trigger,
            board=self._trigger,
            legal=self._trigger,
            last=self._trigger,
            line=self._trigger,
            landing=self._trigger,
            sweep=self._trigger,
            glow=self._trigger,
            preview=self._trigger,
            preview_team=self._trigger,
        )

    # -- geometry -----------------------------------------------------------------------------

    #: The board's extent in cell radii: across the cells' rows (pointy-top cells side by side)
    #: and along them, the frame included.
    ACROSS = SQRT3 * (2 * RADIUS + 1) + 0.3
    ALONG = 3 * RADIUS + 2.4

    @staticmethod
    def fit(width: float, height: float, margin: float) -> tuple[float, bool]:
        """The largest cell radius for a *width* × *height* box, and whether turned."""
        w, h = max(width - 2 * margin, 10.0), max(height - 2 * margin, 10.0)
        upright = min(w / BoardWidget.ACROSS, h / BoardWidget.ALONG)
        turned = min(w / BoardWidget.ALONG, h / BoardWidget.ACROSS)
        return (turned, True) if turned > upright * 1.02 else (upright, False)

    @property
    def cell_size(self) -> float:
        """The hexagon's circumradius that fits the board in the widget, with a margin."""
        size, turned = self.fit(float(self.width), float(self.height), dp(4))
        if turned != self.turned:
            self.turned = turned
        return float(size)

    @property
    def hex_width(self) -> float:
        """How wide a cell is on screen (across its flats upright, corner to corner turned)."""
        return self.cell_size * (2.0 if self.turned else SQRT3)

    def cell_centre(self, q: int, r: int) -> tuple[float, float]:
        size = self.cell_size
        across, along = size * SQRT3 * (q + r / 2), size * 1.5 * r
        if self.turned:
            return (self.center_x + along, self.center_y + across)
        return (self.center_x + across, self.center_y - along)

    def space_centre(self, space: int) -> tuple[float, float]:
        """Where space *space* is drawn (window coordinates when the widget is at the root)."""
        return self.cell_centre(*coordinates(space))

    def space_at_point(self, x: float, y: float) -> int | None:
        size = self.cell_size
        best, best_distance = None, size * 0.92
        for number in range(1, SPACES + 1):
            cx, cy = self.space_centre(number)
            distance = math.hypot(x - cx, y - cy)
            if distance < best_distance:
                best, best_distance = number, distance
        return best

    # -- input --------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        """Note the space under the finger; nothing happens until it lifts (a finger that
        brushes the board and slides away plays nothing)."""
        if not self.collide_point(*touch.pos) or not self.interactive:
            return False
        space = self.space_at_point(*touch.pos)
        if space is None:
            return False
        touch.grab(self)
        touch.ud[self.uid] = space
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return self.uid in touch.ud  # the ungrabbed copy of our own touch
        touch.ungrab(self)
        began = touch.ud.get(self.uid)
        lifted = self.space_at_point(*touch.pos) if self.collide_point(*touch.pos) else None
        if began is not None and self.interactive and lifted == began:
            self.dispatch("on_space", began)
        return True

    def on_space(self, space: int) -> None:
        """Default handler of the ``on_space`` event (Kivy requires one); screens bind theirs."""

    def land(self, space: int) -> None:
        """Animate a token landing on *space*: it drops in from larger and fainter."""
        Animation.cancel_all(self, "landing")
        self.last = space
        self.landing = 0.0
        Animation(landing=1.0, duration=0.45, t="out_back").start(self)

    def celebrate(self) -> None:
        """The game is won: draw the winning line in from its first token to its last, then
        let a glow pulse twice round its tokens."""
        Animation.cancel_all(self, "sweep", "glow")
        self.sweep, self.glow = 0.0, 0.0
        pulse = Animation(glow=1.0, duration=0.3, t="out_quad") + Animation(
            glow=0.0, duration=0.4, t="in_quad"
        )
        (Animation(sweep=1.0, duration=0.6, t="out_quad") + pulse + pulse).start(self)

    # -- drawing ------------------------------------------------------------------------------

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        size = self.cell_size
        if size <= 1:
            return
        legal = set(self.legal)
        line = list(self.line)
        board = list(self.board)
        font = max(int(size * 0.78), 8)
        token_font = max(int(size * 0.52), 7)
        tokens: list[tuple[int, int, float, float]] = []
        with self.canvas:
            # The board's frame: one big hexagon behind the cells.
            Color(*theme.BOARD_FRAME)
            frame = size * (SQRT3 * RADIUS + 1.05)
            turned = bool(self.turned)
            fill_polygon(hex_points(self.center_x, self.center_y, frame, pointy=turned))
            for q, r in CELLS:
                cx, cy = self.cell_centre(q, r)
                if (q, r) == (0, 0):
                    Color(*theme.CENTRE)
                    fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                    continue
                number = space_at((q, r)) or 0
                team = board[number] if number < len(board) else FREE
                if number in legal:
                    Color(*theme.LEGAL)
                elif legal and team == FREE:
                    Color(*theme.CELL_DIM)
                else:
                    Color(*theme.CELL)
                fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                if number in legal:
                    Color(*theme.LEGAL_EDGE)
                    Line(points=hex_points(cx, cy, size * 0.9, not turned), close=True, width=dp(2))
                if number in line:
                    Color(*theme.ACCENT)
                    fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                if team == BLOCKED:
                    # A space a variant blocks: no token can go there, so it is drawn empty.
                    Color(*theme.CENTRE)
                    fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                elif team == FREE:
                    texture = text_texture(str(number), font)
                    Color(*theme.CELL_TEXT)
                    Rectangle(
                        texture=texture,
                        pos=(cx - texture.width / 2, cy - texture.height / 2),
                        size=texture.size,
                    )
                else:
                    tokens.append((number, team, cx, cy))
            if len(line) >= 2:
                # The winning line runs under the tokens, so their numbers stay readable.
                Color(*theme.LEGAL_EDGE)
                Line(points=self._swept(line), width=max(size * 0.16, dp(3)), cap="round")
            for number, team, cx, cy in tokens:
                self._draw_token(number, team, cx, cy, size, token_font)
            if line and self.glow > 0:
                Color(1, 1, 1, 0.65 * float(self.glow))
                for number in line:
                    cx, cy = self.space_centre(number)
                    radius = size * (0.95 + 0.18 * float(self.glow))
                    Line(circle=(cx, cy, radius), width=dp(2.5))
            if self.preview and board[self.preview] == FREE:
                # The token a tap would place, a little faint, in a white ring with a dark
                # edge (it shows on a lit space too): tap again to confirm.
                cx, cy = self.space_centre(self.preview)
                team = int(self.preview_team)
                self._draw_token(self.preview, team, cx, cy, size, token_font, 0.8)
                Color(0.1, 0.12, 0.16, 0.9)
                Line(circle=(cx, cy, size * 0.95 + dp(2.5)), width=dp(1.2))
                Color(1, 1, 1, 1)
                Line(circle=(cx, cy, size * 0.95), width=dp(2.5))

    def _swept(self, line: list[int]) -> list[float]:
        """The winning line's points, as far as :attr:`sweep` has drawn it."""
        centres = [self.space_centre(number) for number in line]
        reach = float(self.sweep) * (len(centres) - 1)
        whole = int(reach)
        points: list[float] = []
        for cx, cy in centres[: whole + 1]:
            points += (cx, cy)
        if whole < len(centres) - 1:
            (x0, y0), (x1, y1) = centres[whole], centres[whole + 1]
            part = reach - whole
            points += (x0 + (x1 - x0) * part, y0 + (y1 - y0) * part)
        return points if len(points) >= 4 else points * 2

    def _draw_token(
        self,
        number: int,
        team: int,
        cx: float,
        cy: float,
        size: float,
        font: int,
        alpha: float = 1.0,
    ) -> None:
        shape = theme.team_shape(team)
        radius = size * 0.66
        if number == self.last and self.landing < 1.0 and alpha == 1.0:
            progress = max(self.landing, 0.0)
            radius *= 1.0 + 0.9 * (1.0 - progress)
            alpha = 0.35 + 0.65 * min(progress, 1.0)
        Color(0.05, 0.07, 0.1, 0.55 * alpha)
        draw_shape(shape, cx + size * 0.06, cy - size * 0.08, radius)
        Color(*theme.team_colour(team, alpha))
        draw_shape(shape, cx, cy, radius)
        Color(0.1, 0.12, 0.16, 0.85 * alpha)
        outline_shape(shape, cx, cy, radius, dp(1.2))
        if number == self.last and alpha == 1.0:
            Color(1, 1, 1, 0.95)
            Line(circle=(cx, cy, size * 0.9), width=dp(2.2))
            Color(0.1, 0.12, 0.16, 0.9)
            Line(circle=(cx, cy, size * 0.9 + dp(2.2)), width=dp(1))
        texture = text_texture(str(number), font)
        Color(0.08, 0.09, 0.12, alpha)
        Rectangle(
            texture=texture,
            pos=(cx - texture.width / 2, cy - texture.height / 2 - size * 0.04),
            size=texture.size,
        )
