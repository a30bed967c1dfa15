"""The Kivy app's own work per frame, its idle rebuilds, and how soon a tap shows.

The goals (issue 22): the app's own work per frame at most 5 ms at 2560×1600 while
``ismcts:hard`` thinks (the bot thinks in a process of its own); no canvas built again while
nothing changes; a tap's effect in the next frame drawn.

"The app's own work" is what Kivy's loop does in Python before it draws: the clock's
callbacks (polls, animations, the board's rebuilds), input, and Kivy's own bookkeeping
(``EventLoop.idle`` up to ``on_draw``), as CPU time of the app's thread (a machine shared
with other work makes wall time longer, not this). Drawing (``on_draw`` and the flip:
OpenGL, which is Mesa's software renderer under Xvfb) is printed apart: on a device it is the
GPU's.

Run: ``python benchmarks/kivy_frames.py [--size 2560x1600] [--density 2] [--turns 3]
[--delay 3]`` (a private Xvfb is started when there is no display; ``--bot ismcts:hard``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cinco.core.engine.commands import PlayCard

#: The tests' shared helpers (the app's scenarios, the private Xvfb).
HELPERS = Path(__file__).resolve().parent.parent / "tests" / "helpers"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="2560x1600", help="the window, in pixels")
    parser.add_argument("--density", default="2", help="Kivy's pixel density")
    parser.add_argument("--turns", type=int, default=3, help="the bot's turns to measure")
    parser.add_argument("--bot", default="ismcts:hard", help="the bot that thinks")
    parser.add_argument(
        "--delay", type=float, default=3.0, help="seconds at least before the bot's move shows"
    )
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") and not os.environ.get("CINCO_FRAMES_CHILD"):
        return under_xvfb()
    width, height = args.size.split("x")
    os.environ.setdefault("KIVY_METRICS_DENSITY", args.density)
    os.environ.setdefault("KCFG_GRAPHICS_WIDTH", width)
    os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", height)
    os.environ.setdefault("CINCO_DATA_DIR", tempfile.mkdtemp(prefix="cinco-frames-"))
    return measure(args.bot, args.turns, args.size, args.density, args.delay)


def under_xvfb() -> int:
    """Run this script again on a private Xvfb (large enough for any tablet's window)."""
    sys.path.insert(0, str(HELPERS))
    from xvfb import NoDisplay, private_display  # the tests' helper, beside kivy_scenarios

    try:
        with private_display() as display:
            env = {**os.environ, "DISPLAY": display, "CINCO_FRAMES_CHILD": "1"}
            return subprocess.run([sys.executable, *sys.argv], env=env, check=False).returncode
    except NoDisplay as exc:
        print(exc, file=sys.stderr)
        return 2


class Frames:
    """Times every turn of Kivy's loop: the app's work (up to drawing) and the drawing."""

    def __init__(self) -> None:
        #: The app's thread's CPU time per loop turn (what a loaded machine does not inflate),
        #: and the same turns' wall time, the clock's sleep left out.
        self.work: list[float] = []
        self.wall: list[float] = []
        self.drawing: list[float] = []
        self.flips = 0
        #: Turns for which ``quiet()`` holds (the bot thinking, nothing moving) also go here.
        self.quiet: Any = lambda: False
        self.quiet_work: list[float] = []

    def install(self) -> None:
        from kivy.base import EventLoop, EventLoopBase
        from kivy.clock import Clock
        from kivy.lang import Builder

        frames = self
        waiting = Clock.idle  # the clock sleeps here until the next frame is due: not work
        slept = [0.0]

        def wait() -> Any:
            began = time.perf_counter()
            try:
                return waiting()
            finally:
                slept[0] += time.perf_counter() - began

        Clock.idle = wait

        def idle(loop: Any) -> bool:
            slept[0] = 0.0
            began, cpu = time.perf_counter(), time.thread_time()
            Clock.tick()
            if not loop.quit:
                loop.dispatch_input()
            if not loop.quit:
                Builder.sync()
                Clock.tick_draw()
                Builder.sync()
            worked = time.perf_counter()
            frames.work.append(time.thread_time() - cpu)
            if frames.quiet():
                frames.quiet_work.append(frames.work[-1])
            frames.wall.append(worked - began - slept[0])
            window = loop.window
            if not loop.quit and window and window.canvas.needs_redraw:
                window.dispatch("on_draw")
                window.dispatch("on_flip")
                frames.drawing.append(time.perf_counter() - worked)
                frames.flips += 1
            return bool(loop.quit)

        EventLoop.idle = idle.__get__(EventLoop, EventLoopBase)

    def take(self) -> tuple[list[float], list[float]]:
        """The app's work (CPU time) and the drawing per frame drawn, since the last take."""
        work, drawing = self.work, self.drawing
        self.work, self.wall, self.drawing = [], [], []
        return work, drawing


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(values) * 1000:.2f} ms, 95th percentile {p95 * 1000:.2f} ms,"
        f" max {max(values) * 1000:.2f} ms over {len(values)}"
    )


def measure(bot: str, turns: int, size: str, density: str, delay: float) -> int:
    sys.path.insert(0, str(HELPERS))
    import kivy_scenarios as base
    from kivy.clock import Clock

    from cinco.frontends.kivy_app.board import REBUILDS, BoardWidget
    from cinco.frontends.options import PlayOptions

    frames = Frames()
    name, _, level = bot.partition(":")
    builds: dict[str, list[float]] = {"redraw": [], "restate": []}

    def timing(name: str) -> None:
        original = getattr(BoardWidget, name)

        def timed(board: Any, *args: Any) -> None:
            began = time.thread_time()
            original(board, *args)
            builds[name].append(time.thread_time() - began)

        timed.__name__ = name  # Kivy's triggers call it back by name
        setattr(BoardWidget, name, timed)

    timing("redraw")
    timing("restate")

    def out(text: str) -> None:
        print(text, file=sys.__stdout__, flush=True)

    def scenario(app: Any, _folder: Any) -> Any:
        yield base.settled(app)
        yield 3.0  # the bots' process has loaded (it starts with the app)
        frames.install()
        board = app.game_screen.ids.board
        out(f"window {size} at density {density}, {bot} thinking in its own process")
        # Idle: the person's turn, nothing changing.
        frames.take()
        rebuilt = dict(REBUILDS)
        yield 2.0
        work, drawing = frames.take()
        out(f"idle 2 s: {len(work)} loop turns, {len(drawing)} frames drawn, app's work {ms(work)}")
        out(f"idle canvas rebuilds: {sum(REBUILDS.values()) - sum(rebuilt.values())}")
        # A tap: the card's lit spaces, in which frame?
        session = app.session
        card = max(session.legal().plays, key=lambda play: len(play[1]))[0]
        seen: dict[str, Any] = {}

        def tap(_dt: float) -> None:
            seen["flips"], seen["at"] = frames.flips, time.perf_counter()
            base.tap(app.game_screen.card_button(card))

        Clock.schedule_once(tap, 0)
        yield lambda: "at" in seen and frames.flips > seen["flips"]
        lag = time.perf_counter() - seen["at"]
        lit = sorted(board.legal) == sorted(session.legal().spaces_for(card))
        out(
            f"tap to frame: the first frame drawn after the tap shows it: {lit}"
            f" ({lag * 1000:.0f} ms from the tap to the end of that frame's flip)"
        )
        thinking_work: list[float] = []
        thinking_drawing: list[float] = []
        frames.quiet = lambda: app.thinking and not board.moving
        quiet = {"turns": 0, "rebuilds": 0}
        layers = dict.fromkeys(REBUILDS, 0)
        last = [dict(REBUILDS)]

        still = [False]

        def watch(_dt: float) -> None:
            # Rebuilds once the card has flown and landed (the frame after the landing's last
            # one: that one draws the token landed), while the bot still thinks.
            was, still[0] = still[0], app.thinking and not board.moving
            if was and still[0]:
                quiet["turns"] += 1
                for layer, count in REBUILDS.items():
                    quiet["rebuilds"] += count - last[0][layer]
                    layers[layer] += count - last[0][layer]
            last[0] = dict(REBUILDS)

        watching = Clock.schedule_interval(watch, 0)
        for _turn in range(turns):
            yield base.settled(app)
            if session.is_over:
                break
            card, spaces = next((c, s) for c, s in session.legal().plays if s)
            frames.take()
            app.act(PlayCard(session.to_move, card, spaces[0]))
            yield lambda: not app.thinking
            work, drawing = frames.take()
            thinking_work += work
            thinking_drawing += drawing
        watching.cancel()
        out(f"the board built whole (its size changed; CPU): {ms(builds['redraw'])}")
        out(f"the board repainted (a move, a card chosen; CPU): {ms(builds['restate'])}")
        out(f"while {bot} thinks, the app's work per loop turn: {ms(thinking_work)}")
        out(f"  of which once the move is drawn and nothing moves: {ms(frames.quiet_work)}")
        out(f"while {bot} thinks, drawing per frame drawn (the renderer): {ms(thinking_drawing)}")
        out(
            f"while {bot} thinks, after the card has landed: {quiet['rebuilds']} canvas rebuilds"
            f" over {quiet['turns']} loop turns {layers}"
        )

    # The bot's move shows after *delay* at the soonest: the app waits with its spinner
    # turning meanwhile, as while a long search goes on.
    options = PlayOptions(players=2, bots={1: (name, level or None)}, seed=3, delay=delay)
    base.SCENARIOS["frames"] = (scenario, options)
    return int(base.run("frames", None))


if __name__ == "__main__":
    sys.exit(main())
