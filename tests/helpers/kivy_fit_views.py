"""Every view of the app at several window sizes, in English and Ukrainian, checked by
:mod:`kivy_fit` (run by ``test_kivy_fit.py``)::

    python tests/helpers/kivy_fit_views.py [SCREENSHOT_DIR]

The density is the process's (``KIVY_METRICS_DENSITY``); the sizes come from
``$CINCO_FIT_SIZES`` ("720x1280,1280x800"): the window is resized between them, as a rotation
or a split screen does. Prints one line per fault (``FIT: ...``), how many views were
checked, then ``fit OK`` if there were no faults.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cinco.frontends.kivy_app import prepare_environment

prepare_environment()

import kivy_scenarios as ks  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.uix.screenmanager import NoTransition  # noqa: E402
from kivy_fit import misfits  # noqa: E402

from cinco.frontends.kivy_app.app import CincoApp  # noqa: E402
from cinco.frontends.options import PlayOptions  # noqa: E402

#: Long names, as people have them (the tests' own "Ann" fits anywhere).
NAMES = {
    "en": ("Alexandra", "Benjamin", "Charlotte", "Dominic", "Elizabeth", "Frederick"),
    "uk": ("Олександра", "Богдана", "Святослав", "Ярослава", "Єлизавета", "Володимир"),
}
LANGUAGE_NAMES = {"en": "English", "uk": "Українська"}
#: Which views to save as screenshots (when a folder is given), by view name.
SHOTS = {"start", "game-2", "game-6", "online-codes", "pass", "over", "replay"}


def frames(count: int = 4) -> Callable[[], bool]:
    """Wait for *count* frames: layouts settle over a few (minimum heights propagate)."""
    start = Clock.frames
    return lambda: Clock.frames >= start + count


def sizes() -> list[tuple[int, int]]:
    text = os.environ.get("CINCO_FIT_SIZES") or f"{Window.width}x{Window.height}"
    return [(int(w), int(h)) for w, h in (size.split("x") for size in text.split(","))]


def play_game(app: CincoApp, players: int, code: str, **extra: Any) -> ks.Step:
    """Start a game of people only (long names) and wait for its pass screen."""
    names = dict(enumerate(NAMES[code][:players]))
    app.start_from_options(PlayOptions(players=players, names=names, seed=7, **extra))
    yield ks.settled(app)
    yield frames()


def show_hand(app: CincoApp) -> ks.Step:
    """Past the pass screen, a card chosen and a space tapped: the fullest panel."""
    app.reveal()
    yield ks.settled(app)
    session = app.session
    assert session is not None
    card, spaces = max(((c, s) for c, s in session.legal().plays if s), key=lambda p: p[0])
    app.select_card(card)
    app.tap_space(spaces[-1])
    yield frames()


def checker_sees_faults() -> None:
    """The checker itself: a view made wrong on purpose, one fault of each kind."""
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    width, height = Window.size
    root = FloatLayout(size=(width, height))
    root.add_widget(Button(text="Off", size_hint=(None, None), size=(dp(60), dp(60)), y=-dp(30)))
    root.add_widget(Button(text="Tiny", size_hint=(None, None), size=(dp(60), dp(30)), x=dp(100)))
    for x in (dp(200), dp(230)):
        root.add_widget(Button(text="On", size_hint=(None, None), size=(dp(60), dp(60)), x=x))
    name = Label(text="Alexandra Benjamin", size_hint=(None, None), size=(dp(40), dp(30)))
    name.text_size = name.size
    name.shorten = True
    name.pos = (dp(400), dp(200))
    root.add_widget(name)
    words = Label(text="Ukrainian", size_hint=(None, None), size=(dp(30), dp(80)))
    words.text_size = (words.width, None)
    words.pos = (dp(500), dp(200))
    root.add_widget(words)
    found = "\n".join(misfits(root, "self-check"))
    for fault in (
        "'Off' extends",
        "'Tiny' is 30 dp high",
        "'On' overlaps",
        "'Alexandra Benjamin' is ellipsised",
        "'Ukrainian' splits a word",
    ):
        ks.check(fault in found, f"the checker finds {fault!r} in:\n{found}")


def fit(app: CincoApp, folder: Path | None) -> ks.Step:
    checker_sees_faults()
    density = dp(1)
    _home, records = ks.home_with_records()
    finished = records / "finished.jsonl"
    ks.make_record(finished, person=True, seed=3)
    faults: list[str] = []
    checked = 0

    def check(root: Any, where: str, view: str, tag: str) -> None:
        nonlocal checked
        checked += 1
        found = misfits(root, where)
        faults.extend(found)
        for line in found:
            print(f"FIT: {line}", file=sys.__stdout__, flush=True)
        if folder is not None and view in SHOTS:
            ks.window_shot(folder, f"{tag}-{view}.png")

    yield ks.settled(app)
    order = ["en", "uk"]
    for width, height in sizes():
        if (Window.width, Window.height) != (width, height):
            yield from ks.resize((width, height))
        tag = f"{width}x{height}@{density:g}"
        for code in order:
            app.switch_language(LANGUAGE_NAMES[code])
            app.manager.transition = NoTransition()
            app.show_start()
            yield ks.settled(app)
            yield frames()
            where = f"{tag} {code}"
            shot_tag = f"{width}x{height}-{density:g}-{code}"

            def view(name: str, root: Any = None) -> None:
                check(root if root is not None else app.root, f"{where} {name}", name, shot_tag)  # noqa: B023

            view("start")
            start = app.start_screen
            for name, spinner in (
                ("language-list", start.ids.language),
                ("seat-kind-list", start.seat_rows[-1].ids.kind),
            ):
                scroll = start.ids.start_scroll
                if scroll in list(spinner.walk_reverse()):
                    scroll.scroll_to(spinner, animate=False)  # as a finger would first
                    yield frames(2)
                spinner.is_open = True
                yield frames()
                view(name, spinner._dropdown)
                spinner.is_open = False
                yield frames(2)
            app.show_online()
            yield ks.settled(app)
            yield frames()
            view("online-form")
            online = app.online_screen
            online.invite_code, online.watch_code = "K7QM-2XPA-HDTW", "R9SE-4LMB-WQ2C"
            online.how_to_join = app.tr(
                "Server {server}. In the app: Play online, this server, Join with the invite "
                "code. In a terminal: cinco join {server} {code}"
            ).format(server="http://192.168.1.20:8765", code=online.invite_code)
            online.waiting_text = app.tr("Waiting for the other players to join…")
            online.phase = "waiting"
            yield frames()
            view("online-codes")
            online.phase = "form"
            online.invite_code = online.watch_code = online.how_to_join = ""
            online.waiting_text = ""
            yield from play_game(app, 2, code)
            view("pass")
            yield from show_hand(app)
            view("game-2")
            yield from play_game(app, 4, code)
            yield from show_hand(app)
            view("game-4")
            yield from play_game(app, 6, code, layout="3x2", variants=("joker",))
            yield from show_hand(app)
            view("game-6")
            screen = app.game_screen
            if screen.buttons_in_menu:
                screen.open_more(screen.ids.more_button)
                yield frames()
                view("more-list", screen.more_menu())
                screen.more_menu().dismiss()
                yield frames(2)
            app.ask_leave()
            yield frames()
            popup = app.leave_popup
            assert popup is not None
            view("leave-popup", popup)
            popup.dismiss()
            yield frames(2)
            app.resume(finished)
            yield lambda: app.manager.current == "over"
            yield ks.settled(app)
            yield frames()
            view("over")
            app.open_replay(finished)
            yield ks.settled(app)
            yield frames()
            view("replay")
            app.replay_screen.pick_file()
            yield frames(6)
            popup = app.replay_screen.popup
            view("open-file-popup", popup)
            popup.dismiss()
            yield frames(2)
        order.reverse()  # the language spoken now goes first at the next size
    if os.environ.get("CINCO_FIT_ROTATE"):
        yield from rotate(app, faults)
    print(f"{checked} views checked, {len(faults)} faults", file=sys.__stdout__, flush=True)
    ks.check(not faults, f"{len(faults)} faults (the FIT lines)")


def rotate(app: CincoApp, faults: list[str]) -> ks.Step:
    """Turn the tablet mid-game, a card chosen and a space tapped, and back: the same game,
    the same card chosen and space shown, and the game view fits each way up."""
    density = dp(1)
    yield from play_game(app, 4, "en")
    yield from show_hand(app)
    session, selected, pending = app.session, app.selected, app.pending
    assert session is not None and selected is not None
    events = session.event_count
    first = Window.width, Window.height
    for size in ((first[1], first[0]), first):
        yield from ks.resize(size)
        yield frames(6)
        where = f"{size[0]}x{size[1]}@{density:g} en game-4 (turned)"
        faults.extend(misfits(app.root, where))
        screen = app.game_screen
        card = screen.card_button(selected)
        ks.check(app.session is session, f"{where}: the same game")
        ks.check(session.event_count == events, f"{where}: nothing played by turning")
        ks.check(app.manager.current == "game", f"{where}: the game still shown")
        ks.check(app.selected == selected, f"{where}: card {selected} still chosen")
        ks.check(card is not None and card.selected, f"{where}: and shown chosen")
        ks.check(
            app.pending == pending and screen.ids.board.preview == pending,
            f"{where}: space {pending} still shown",
        )
        ks.check(bool(screen.confirm_text), f"{where}: Place still offered")


if __name__ == "__main__":
    ks.SCENARIOS["fit"] = (fit, PlayOptions(delay=0.0))
    sys.exit(ks.run("fit", Path(sys.argv[1]) if len(sys.argv) > 1 else None))
