"""The board: 91 hexagons in the real geometry of :mod:`cinco.core.engine.board`, scaled to the
widget.

The widget only draws what it is given (whose token is where, which spaces to light up, the
last move, the winning line) and reports taps on spaces; it knows no rules.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import (
    Canvas,
    Color,
    Ellipse,
    Line,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Scale,
    StencilPop,
    StencilPush,
    StencilUnUse,
    StencilUse,
    Translate,
)
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from cinco.core.engine.board import RADIUS, SPACES, coordinates, space_at
from cinco.core.engine.state import BLOCKED, FREE

from . import motion, shading, theme
from .shapes import draw_shape, fill_polygon, hex_points, outline_shape, text_texture

SQRT3 = math.sqrt(3)
#: Every cell of the hexagon, the empty centre included.
CELLS = [
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if -RADIUS <= q + r <= RADIUS
]


#: How many times the boards' canvases were built again, by layer: the cells and settled tokens
#: (``base``), the winning line, and what moves over them (``top``). While nothing changes none
#: of them grows (``benchmarks/kivy_frames.py`` prints them; a test holds it).
REBUILDS = {"base": 0, "tokens": 0, "line": 0, "top": 0}


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
    #: Where the selected card would go from the finger on the board: the legal space nearest
    #: to it (0: none), drawn as a faint token of :attr:`preview_team`.
    ghost = NumericProperty(0)
    #: The finger on the board while it chooses a space, ``[x, y]`` (``[]``: none): small
    #: cells are shown magnified above it.
    finger = ListProperty([])
    #: A played card still flying to this space: its token is drawn when it lands.
    arriving = NumericProperty(0)
    #: A picture behind other things: no numbers (they would read as text under text).
    plain = ObjectProperty(False)
    #: Drawn turned a quarter (flat-top cells) when that makes the cells larger: a tall, narrow
    #: board on a phone held upright. Set from the widget's shape, never by hand.
    turned = ObjectProperty(False)

    __events__ = ("on_space", "on_drop")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Three layers, each built again only when what it shows changes, once per frame
        # after layout has settled: the cells and tokens (which change with a move), the
        # winning line (under the tokens' numbers) and what moves over them (the last token
        # landing, the line's glow, the preview, the finger's ghost and magnifier).
        self._base, self._line, self._tokens, self._top = Canvas(), Canvas(), Canvas(), Canvas()
        for layer in (self._base, self._line, self._tokens, self._top):
            self.canvas.add(layer)
        self._flight: Any = None
        #: Each cell's colours, to repaint in place: bevel, face, lit edge, number.
        self._cells: dict[int, tuple[Any, Any, Any, Any]] = {}
        self._trigger = Clock.create_trigger(self.redraw, -1)
        self._state_trigger = Clock.create_trigger(self.restate, -1)
        self._line_trigger = Clock.create_trigger(self.redraw_line, -1)
        self._top_trigger = Clock.create_trigger(self.redraw_top, -1)
        self.bind(
            pos=self._trigger,
            size=self._trigger,
            plain=self._trigger,
        )
        # A move, a card chosen: the cells keep their shapes and change colour in place.
        self.bind(
            board=self._state_trigger,
            legal=self._state_trigger,
            last=self._state_trigger,
            line=self._state_trigger,
            arriving=self._state_trigger,
        )
        self.bind(sweep=self._line_trigger)
        self.bind(sweep=self._top_trigger)  # the rings of the five, once it reaches them
        self.bind(
            landing=self._top_trigger,
            glow=self._top_trigger,
            preview=self._top_trigger,
            preview_team=self._top_trigger,
            ghost=self._top_trigger,
            finger=self._top_trigger,
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

    #: A finger that moves further than this from where it went down drags; less, it taps.
    DRAG_DP = 10.0
    #: Cells narrower than this are magnified under a finger choosing a space.
    MAGNIFY_BELOW_DP = 44.0
    #: The magnifier: its radius and how much larger it shows the board.
    LOUPE_DP = 62.0
    ZOOM = 1.7

    def magnifies(self) -> bool:
        """Whether the cells are too small for a fingertip (a phone): then the region under
        the finger is shown magnified while it chooses."""
        return bool(self.hex_width < dp(self.MAGNIFY_BELOW_DP))

    def target_at(self, x: float, y: float) -> int | None:
        """The space a finger at ``(x, y)`` means: the lit space nearest to it when one is
        within reach (a cell's radius, and at least 24 dp: no lit space is a target smaller
        than a fingertip), else the space under it."""
        legal = list(self.legal)
        if legal:
            reach = max(self.cell_size, dp(24))
            best, best_distance = None, reach
            for number in legal:
                cx, cy = self.space_centre(number)
                distance = math.hypot(x - cx, y - cy)
                if distance <= best_distance:
                    best, best_distance = number, distance
            if best is not None:
                return int(best)
        return self.space_at_point(x, y)

    def on_touch_down(self, touch: Any) -> bool:
        """Note the space under the finger; nothing is played until it lifts (a finger that
        brushes the board and slides away plays nothing)."""
        if not self.collide_point(*touch.pos) or not self.interactive:
            return False
        if getattr(touch, "is_mouse_scrolling", False):
            return False
        space = self.target_at(*touch.pos)
        if space is None:
            return False
        touch.grab(self)
        touch.ud[self.uid] = {"space": space, "start": tuple(touch.pos), "drag": False}
        self._follow(touch.pos)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        """A finger moving over the board with a card chosen: its token shows, faint, on the
        lit space it would go to (magnified above the finger when cells are small)."""
        if touch.grab_current is not self:
            return self.uid in touch.ud
        noted = touch.ud[self.uid]
        x0, y0 = noted["start"]
        if math.hypot(touch.x - x0, touch.y - y0) > dp(self.DRAG_DP):
            noted["drag"] = True
        self._follow(touch.pos)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        """A tap reports its space (``on_space``) if it lifts where it went down; a drag with a
        card chosen plays it on the lit space its ghost shows (``on_drop``), and a drag that
        leaves the board, or lifts away from every lit space, plays nothing."""
        if touch.grab_current is not self:
            return self.uid in touch.ud  # the ungrabbed copy of our own touch
        touch.ungrab(self)
        self.ghost, self.finger = 0, []
        noted = touch.ud.get(self.uid)
        if noted is None or not self.interactive:
            return True
        inside = self.collide_point(*touch.pos)
        lifted = self.target_at(*touch.pos) if inside else None
        if noted["drag"]:
            if lifted is not None and lifted in self.legal:
                self.dispatch("on_drop", lifted)
        elif lifted == noted["space"]:
            self.dispatch("on_space", lifted)
        return True

    def _follow(self, pos: Any) -> None:
        if not self.legal:
            return
        inside = self.collide_point(*pos)
        target = self.target_at(*pos) if inside else None
        self.ghost = target if target in self.legal else 0
        self.finger = [float(pos[0]), float(pos[1])] if inside and self.magnifies() else []

    def show_demo(self) -> None:
        """A game near its end, for the start screen's picture: a line of five drawn through
        one team's tokens among the others'. Only a picture: it takes no touch."""
        self.interactive = False
        board = [FREE] * (SPACES + 1)
        line = [space_at((q, -2)) or 0 for q in range(-1, 4)]
        for number in line:
            board[number] = 0
        for team, spaces in ((1, (8, 17, 33, 46, 52, 71, 5)), (0, (38, 60, 80)), (2, (27, 41, 64))):
            for number in spaces:
                if board[number] == FREE:
                    board[number] = team
        self.board, self.line, self.last, self.sweep = board, line, line[-1], 1.0

    def on_space(self, space: int) -> None:
        """Default handler of the ``on_space`` event (Kivy requires one); screens bind theirs."""

    def on_drop(self, space: int) -> None:
        """Default handler of ``on_drop`` (a card dragged onto a lit space)."""

    # -- motion -------------------------------------------------------------------------------

    def land(
        self, space: int, card: tuple[int, tuple[float, float, float, float]] | None = None
    ) -> None:
        """Show a token arriving on *space*: with *card* (its number and the window box it
        was played from) the card flies there first; then the token drops in. Only for the
        eye: the board already holds the token, and another move cancels this one."""
        self.stop_motion()
        self.last = space
        if not motion.enabled():
            return
        if card is not None:
            number, origin = card
            team = self.board[space] if space < len(self.board) else 0
            target = self.to_window(*self.space_centre(space))
            self.arriving = space
            self._flight = motion.Flight(
                number, max(int(team), 0), origin, target, self.cell_size * 1.5, self._arrived
            )
            return
        self.landing = 0.0
        self._land_with(Animation(landing=1.0, duration=0.45, t="out_back"))

    def _arrived(self) -> None:
        self._flight = None
        self.arriving = 0
        self.landing = 0.4
        self._land_with(Animation(landing=1.0, duration=0.25, t="out_back"))

    def _land_with(self, animation: Animation) -> None:
        # An easing may stop a hair short of 1: the token is then drawn as landed, ringed.
        animation.bind(on_complete=lambda *_a: setattr(self, "landing", 1.0))
        animation.start(self)

    def stop_motion(self) -> None:
        """End whatever moves on the board now: every token shows where it is."""
        if self._flight is not None:
            self._flight.cancel()
            self._flight = None
        Animation.cancel_all(self, "landing")
        self.arriving = 0
        self.landing = 1.0

    @property
    def moving(self) -> bool:
        """Whether an animation runs on the board (a card flying, a token landing, the line
        drawn in or glowing)."""
        drawing = bool(self.line) and self.sweep < 1.0
        return self._flight is not None or self.landing < 1.0 or drawing or self.glow > 0

    def celebrate(self) -> None:
        """The game is won: draw the winning line in from its first token to its last, then
        let a glow pulse twice round its tokens (animations off: the line, at once)."""
        Animation.cancel_all(self, "sweep", "glow")
        if not motion.enabled():
            self.sweep, self.glow = 1.0, 0.0
            return
        self.sweep, self.glow = 0.0, 0.0
        pulse = Animation(glow=1.0, duration=0.3, t="out_quad") + Animation(
            glow=0.0, duration=0.4, t="in_quad"
        )
        (Animation(sweep=1.0, duration=0.6, t="out_quad") + pulse + pulse).start(self)

    # -- drawing ------------------------------------------------------------------------------

    def redraw(self, *_args: Any) -> None:
        """Build the frame and the cells again (the board's size or place changed), then
        paint them and the layers above as the game stands."""
        REBUILDS["base"] += 1
        self._base.clear()
        self._cells = {}
        size = self.cell_size
        if size > 1:
            with self._base:
                self._draw_frame(size)
                self._build_cells(size)
        self._state_trigger.cancel()
        self.restate()

    def _build_cells(self, size: float) -> None:
        """Every cell as a raised tile (a darker foot below a face lit from above), with an
        edge for a lit space and its number; colours are set by :meth:`_paint`."""
        turned = bool(self.turned)
        font = max(int(size * 0.78), 8)
        slope = shading.slope()
        for q, r in CELLS:
            cx, cy = self.cell_centre(q, r)
            if (q, r) == (0, 0):
                Color(*theme.CENTRE)
                fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                continue
            number = space_at((q, r)) or 0
            bevel = Color(*theme.CELL)
            fill_polygon(hex_points(cx, cy - size * 0.07, size * 0.92, not turned))
            face = Color(*theme.CELL)
            fill_polygon(hex_points(cx, cy + size * 0.01, size * 0.9, not turned), slope)
            edge = Color(*theme.LEGAL_EDGE)
            Line(points=hex_points(cx, cy, size * 0.86, not turned), close=True, width=dp(2))
            text = Color(*theme.CELL_TEXT)
            texture = text_texture(str(number), font)
            Rectangle(
                texture=texture,
                pos=(cx - texture.width / 2, cy - texture.height / 2),
                size=texture.size,
            )
            self._cells[number] = (bevel, face, edge, text)

    def _paint(self) -> None:
        """Colour the cells as the game stands: lit, dimmed, in the winning line, or sunk (a
        space a variant blocks); a free space shows its number."""
        legal = set(self.legal)
        line = set(self.line)
        board = list(self.board)
        for number, (bevel, face, edge, text) in self._cells.items():
            team = board[number] if number < len(board) else FREE
            if team == BLOCKED:
                colour = theme.CENTRE
            elif number in line:
                colour = theme.ACCENT
            elif number in legal:
                colour = theme.LEGAL
            elif legal and team == FREE:
                colour = theme.CELL_DIM
            else:
                colour = theme.CELL
            face.rgba = colour
            if team == BLOCKED:
                bevel.rgba = colour
            else:
                bevel.rgba = (colour[0] * 0.62, colour[1] * 0.6, colour[2] * 0.58, 1)
            edge.a = 1.0 if number in legal and team != BLOCKED else 0.0
            text.a = 1.0 if team == FREE and not self.plain else 0.0

    def restate(self, *_args: Any) -> None:
        """The game changed (a move, a card chosen, the line): paint the cells in place and
        build the tokens and the layers above them again."""
        REBUILDS["tokens"] += 1
        self._paint()
        self._tokens.clear()
        size = self.cell_size
        if size > 1:
            held = {int(self.last), int(self.arriving)}  # drawn in the top layer, or not yet
            board = list(self.board)
            with self._tokens:
                for number in range(1, min(SPACES + 1, len(board))):
                    team = board[number]
                    if team >= 0 and number not in held:
                        cx, cy = self.space_centre(number)
                        self._draw_token(number, team, cx, cy, size)
        self.redraw_line()
        self.redraw_top()

    def _draw_frame(self, size: float) -> None:
        """The board's frame: one big hexagon behind the cells, raised on a soft shadow."""
        frame = size * (SQRT3 * RADIUS + 1.05)
        turned = bool(self.turned)
        cx, cy = self.center_x, self.center_y
        for grow, alpha in ((1.045, 0.12), (1.02, 0.22)):
            Color(0, 0, 0, alpha)
            fill_polygon(hex_points(cx + size * 0.1, cy - size * 0.25, frame * grow, turned))
        Color(*theme.BOARD_FRAME)
        fill_polygon(hex_points(cx, cy, frame, pointy=turned), texture=shading.slope())
        Color(1, 1, 1, 0.1)
        Line(points=hex_points(cx, cy, frame - dp(1.5), turned), close=True, width=dp(1.2))

    def _draw_cells(
        self, canvas: Any, cells: list[tuple[int, int, float, float]], size: float, sharp: float = 1
    ) -> list[tuple[int, int, float, float]]:
        """Draw *cells* ``(q, r, x, y)`` into *canvas*: raised tiles (a darker foot below a
        face lit from above), lit, dimmed or in the winning line; a free space's number.
        Returns the tokens to draw on them. *sharp*: how much larger the cells will be shown
        (the magnifier), so that numbers are made at the size they are seen."""
        legal = set(self.legal)
        line = set(self.line)
        board = list(self.board)
        turned = bool(self.turned)
        font = max(int(size * 0.78 * sharp), 8)
        slope = shading.slope()
        tokens: list[tuple[int, int, float, float]] = []
        with canvas:
            for q, r, cx, cy in cells:
                if (q, r) == (0, 0):
                    Color(*theme.CENTRE)
                    fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                    continue
                number = space_at((q, r)) or 0
                team = board[number] if number < len(board) else FREE
                if team == BLOCKED:
                    # A space a variant blocks: no token can go there, so it is drawn sunk.
                    Color(*theme.CENTRE)
                    fill_polygon(hex_points(cx, cy, size * 0.94, not turned))
                    continue
                if number in line:
                    face = theme.ACCENT
                elif number in legal:
                    face = theme.LEGAL
                elif legal and team == FREE:
                    face = theme.CELL_DIM
                else:
                    face = theme.CELL
                Color(face[0] * 0.62, face[1] * 0.6, face[2] * 0.58, 1)
                fill_polygon(hex_points(cx, cy - size * 0.07, size * 0.92, not turned))
                Color(*face)
                fill_polygon(hex_points(cx, cy + size * 0.01, size * 0.9, not turned), slope)
                if number in legal:
                    Color(*theme.LEGAL_EDGE)
                    Line(
                        points=hex_points(cx, cy, size * 0.86, not turned), close=True, width=dp(2)
                    )
                if team == FREE and self.plain:
                    continue
                if team == FREE:
                    texture = text_texture(str(number), font)
                    Color(*theme.CELL_TEXT)
                    width, height = texture.width / sharp, texture.height / sharp
                    Rectangle(
                        texture=texture, pos=(cx - width / 2, cy - height / 2), size=(width, height)
                    )
                else:
                    tokens.append((number, team, cx, cy))
        return tokens

    def redraw_line(self, *_args: Any) -> None:
        """The winning line, as far as it is drawn in: under the tokens, so their numbers stay
        readable, a glowing band with a bright core."""
        REBUILDS["line"] += 1
        self._line.clear()
        line = list(self.line)
        size = self.cell_size
        if len(line) < 2 or size <= 1:
            return
        points = self._swept(line)
        with self._line:
            Color(*theme.ACCENT[:3], 0.45)
            Line(points=points, width=max(size * 0.34, dp(5)), cap="round", joint="round")
            Color(*theme.LEGAL_EDGE)
            Line(points=points, width=max(size * 0.16, dp(3)), cap="round", joint="round")
            Color(1, 1, 1, 0.7)
            Line(points=points, width=max(size * 0.04, dp(1)), cap="round", joint="round")

    def redraw_top(self, *_args: Any) -> None:
        """What moves over the settled board: the last token (landing, ringed), the winning
        line's glow, the previewed token, the finger's ghost and the magnifier."""
        REBUILDS["top"] += 1
        self._top.clear()
        size = self.cell_size
        if size <= 1:
            return
        with self._top:
            self._draw_moving(size)
            if self.finger:
                self._draw_loupe(size)

    def _draw_moving(self, size: float, sharp: float = 1) -> None:
        board = list(self.board)
        last = int(self.last)
        if last and last != self.arriving and board[last] >= 0:
            cx, cy = self.space_centre(last)
            self._draw_token(last, board[last], cx, cy, size, landing=float(self.landing))
            if self.landing >= 1.0:
                # The last move: a white ring with a dark edge (it shows on any cell).
                Color(0.1, 0.12, 0.16, 0.9)
                Line(circle=(cx, cy, size * 0.9 + dp(2.2)), width=dp(1))
                Color(1, 1, 1, 0.95)
                Line(circle=(cx, cy, size * 0.9), width=dp(2.2))
        if self.line and self.sweep >= 1.0:
            # The five that won, ringed in gold once the line has reached them all.
            for number in self.line:
                cx, cy = self.space_centre(number)
                Color(0.1, 0.12, 0.16, 0.8)
                Line(circle=(cx, cy, size * 0.84 + dp(2)), width=dp(1))
                Color(*theme.ACCENT)
                Line(circle=(cx, cy, size * 0.84), width=dp(2.4))
        if self.line and self.glow > 0:
            Color(1, 1, 1, 0.65 * float(self.glow))
            for number in self.line:
                cx, cy = self.space_centre(number)
                radius = size * (0.95 + 0.18 * float(self.glow))
                Line(circle=(cx, cy, radius), width=dp(2.5))
        team = int(self.preview_team)
        preview = int(self.preview)
        if preview and board[preview] == FREE:
            # The token a tap would place, a little faint, in a white ring with a dark edge
            # (it shows on a lit space too): tap again to confirm.
            cx, cy = self.space_centre(preview)
            self._draw_token(preview, team, cx, cy, size, alpha=0.8)
            Color(0.1, 0.12, 0.16, 0.9)
            Line(circle=(cx, cy, size * 0.95 + dp(2.5)), width=dp(1.2))
            Color(1, 1, 1, 1)
            Line(circle=(cx, cy, size * 0.95), width=dp(2.5))
        ghost = int(self.ghost)
        if ghost and ghost != preview and board[ghost] == FREE:
            # Where the finger would put the card: fainter than a preview, a thin ring.
            cx, cy = self.space_centre(ghost)
            self._draw_token(ghost, team, cx, cy, size, alpha=0.6)
            Color(1, 1, 1, 0.9)
            Line(circle=(cx, cy, size * 0.95), width=dp(1.5))

    def loupe_centre(self) -> tuple[float, float]:
        """Where the magnifier is drawn: above the finger if it fits below the window's top,
        else beside it, towards the board's middle; over the board, so that no panel hides
        it, and never under the finger."""
        x, y = self.finger
        radius, gap = dp(self.LOUPE_DP), dp(24)
        left, bottom = self.to_window(self.x, self.y)
        right = self.to_window(self.right, self.top)[0]
        wx, wy = self.to_window(x, y)
        highest = Window.height - radius - dp(4)
        if wy + gap + radius <= highest:
            cx, cy = wx, wy + gap + radius
        else:
            cx = wx - gap - radius if wx > (left + right) / 2 else wx + gap + radius
            cy = min(max(wy, bottom + radius), highest)
        if right - left >= 2 * radius:
            cx = min(max(cx, left + radius), right - radius)
        return x + cx - wx, y + cy - wy

    def _draw_loupe(self, size: float) -> None:
        """The region under the finger, :attr:`ZOOM` times larger, in a round lens."""
        fx, fy = self.finger
        lx, ly = self.loupe_centre()
        radius, zoom = dp(self.LOUPE_DP), self.ZOOM
        reach = radius / zoom + size * 1.2
        cells = [
            (q, r, cx, cy)
            for q, r in CELLS
            for cx, cy in [self.cell_centre(q, r)]
            if math.hypot(cx - fx, cy - fy) < reach
        ]
        Color(0, 0, 0, 0.35)
        Ellipse(pos=(lx - radius * 1.08, ly - radius * 1.14), size=(radius * 2.16, radius * 2.16))
        StencilPush()
        Ellipse(pos=(lx - radius, ly - radius), size=(radius * 2, radius * 2))
        StencilUse()
        Color(*theme.BOARD_FRAME)
        Ellipse(pos=(lx - radius, ly - radius), size=(radius * 2, radius * 2))
        PushMatrix()
        Translate(lx, ly)
        Scale(zoom, zoom, 1)
        Translate(-fx, -fy)
        lens = Canvas()
        tokens = self._draw_cells(lens, cells, size, sharp=zoom)
        self._top.add(lens)
        with self._top:
            for number, team, cx, cy in tokens:
                if number != self.last:
                    self._draw_token(number, team, cx, cy, size, sharp=zoom)
            self._draw_moving(size)
            PopMatrix()
            StencilUnUse()
            Ellipse(pos=(lx - radius, ly - radius), size=(radius * 2, radius * 2))
            StencilPop()
            Color(0.1, 0.12, 0.16, 0.9)
            Line(circle=(lx, ly, radius + dp(2)), width=dp(1.2))
            Color(1, 1, 1, 0.95)
            Line(circle=(lx, ly, radius), width=dp(2.5))

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
        alpha: float = 1.0,
        landing: float = 1.0,
        sharp: float = 1.0,
    ) -> None:
        """A team's token on its space: on a soft shadow, shaded as lit from the upper left,
        with a highlight, a dark edge and the space's number."""
        shape = theme.team_shape(team)
        radius = size * 0.66
        lift = 0.0
        if landing < 1.0:
            progress = max(landing, 0.0)
            radius *= 1.0 + 0.9 * (1.0 - progress)
            alpha *= 0.35 + 0.65 * min(progress, 1.0)
            lift = 1.0 - progress
        shadow = radius * (2.5 + lift)
        Color(1, 1, 1, 0.75 * alpha)
        Rectangle(
            texture=shading.shadow(),
            pos=(
                cx - shadow / 2 + size * (0.08 + lift * 0.3),
                cy - shadow / 2 - size * (0.12 + lift * 0.4),
            ),
            size=(shadow, shadow),
        )
        Color(*theme.team_colour(team, alpha))
        draw_shape(shape, cx, cy, radius, texture=shading.ball())
        Color(0.1, 0.12, 0.16, 0.85 * alpha)
        outline_shape(shape, cx, cy, radius, dp(1.2))
        spot = radius * 0.7
        sx, sy = (
            (cx - radius * 0.3, cy + radius * 0.32)
            if shape != "triangle"
            else (cx, cy + radius * 0.3)
        )
        Color(1, 1, 1, 0.5 * alpha)
        Rectangle(texture=shading.shine(), pos=(sx - spot / 2, sy - spot / 2), size=(spot, spot))
        if self.plain:
            return
        texture = text_texture(str(number), max(int(size * 0.52 * sharp), 7))
        width, height = texture.width / sharp, texture.height / sharp
        Color(0.08, 0.09, 0.12, alpha)
        Rectangle(
            texture=texture,
            pos=(cx - width / 2, cy - height / 2 - size * 0.04),
            size=(width, height),
        )
