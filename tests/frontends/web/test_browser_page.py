"""The web client's page in a real browser (tests/helpers/browser.py): its security headers and
cached files, the language switch, a dropped connection that comes back, and how it fits a
phone and a desktop screen (checked by a script in the page; the screenshots are kept in
``CINCO_WEB_SHOTS`` when set, e.g. ``docs/images``, to be looked at).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import pytest
from browser import (
    DESKTOP,
    PHONE,
    Tab,
    create_table,
    cut_connection,
    outside_viewport,
)

if TYPE_CHECKING:
    from live_server import Server
    from playwright.sync_api import Browser

pytest.importorskip("uvicorn")

LANGUAGES = ("en", "uk", "ru", "cs", "it")


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}


def assert_strict_policy(policy: str) -> None:
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("default-src") == ["'self'"], policy
    for name in ("script-src", "style-src", "default-src"):
        assert "'unsafe-inline'" not in directives.get(name, []), policy
        assert "'unsafe-eval'" not in directives.get(name, []), policy


def test_the_lobby_is_strict_cached_and_speaks_the_chosen_language(
    browser: Browser, server: Server
) -> None:
    tab = Tab(browser, server.url + "/", name="lobby")
    try:
        assert tab.response is not None and tab.response.status == 200
        assert_strict_policy(tab.response.headers["content-security-policy"])
        assert tab.page.locator("script:not([src])").count() == 0  # no inline script
        tab.page.wait_for_selector("[data-testid=create-form]")
        for path in ("/join/ABCD-EFGH-JKLM", "/watch/ABCD-EFGH-JKLM"):
            status, headers = fetch(server.url + path)
            assert status == 200
            assert_strict_policy(headers["content-security-policy"])

        # every static file the page loaded is cached: asked again with its ETag, a 304
        sources: list[str] = tab.page.evaluate(
            "() => performance.getEntriesByType('resource').map((e) => e.name)"
            ".filter((n) => n.includes('/static/'))"
        )
        assert sources, "the page loaded nothing from /static/"
        for source in sources:
            status, headers = fetch(source)
            assert status == 200 and "max-age" in headers.get("cache-control", ""), source
            again, _ = fetch(source, {"If-None-Match": headers["etag"]})
            assert again == 304, source

        # the layout is asked for only where a count of players has several
        layout = tab.page.locator("[data-testid=create-form] [name=layout]").first
        tab.page.locator("[data-testid=create-form] [name=players]").first.select_option("2")
        assert not layout.is_visible()
        tab.page.locator("[data-testid=create-form] [name=players]").first.select_option("6")
        assert layout.is_visible()
        assert layout.locator("option").count() >= 2

        # the language switch changes the page's words, and the page remembers it
        create = tab.page.locator("[data-testid=create]").first
        english = create.inner_text()
        options = tab.page.locator("[data-testid=lang] option")
        values = {options.nth(i).get_attribute("value") for i in range(options.count())}
        assert values == set(LANGUAGES)
        tab.page.locator("[data-testid=lang]").first.select_option("uk")
        tab.page.wait_for_function(
            "(before) => document.querySelector('[data-testid=create]').innerText !== before",
            arg=english,
        )
        ukrainian = create.inner_text()
        assert re.search("[а-яіїєґ]", ukrainian.lower()), ukrainian
        tab.page.reload()
        tab.page.wait_for_selector("[data-testid=create-form]")
        assert tab.page.locator("[data-testid=lang]").first.input_value() == "uk"
        tab.page.wait_for_function(
            "(words) => document.querySelector('[data-testid=create]').innerText === words",
            arg=ukrainian,
        )
        assert tab.errors == []
    finally:
        tab.close()

    # a browser that asks for Czech gets Czech from the start
    czech = Tab(browser, server.url + "/", name="czech", locale="cs-CZ")
    try:
        czech.page.wait_for_selector("[data-testid=create-form]")
        assert czech.page.locator("[data-testid=lang]").first.input_value() == "cs"
        assert czech.errors == []
    finally:
        czech.close()


def test_a_dropped_connection_comes_back_and_play_goes_on(browser: Browser, server: Server) -> None:
    rng = random.Random(7)
    ann = Tab(browser, server.url + "/", name="Ann")
    watcher: Tab | None = None
    try:
        made = create_table(ann, ["person", "bot:random"], "Ann")
        watcher = Tab(browser, urljoin(server.url, made["watch"]), name="watcher")
        assert ann.wait_state("your-turn", "waiting") != ""
        ann.wait_link("online")
        ann.wait_state("your-turn")
        ann.play_one(rng)
        watcher.wait_link("online")
        log = ann.page.locator("[data-testid=log] > *")
        cut_connection(ann)
        ann.wait_link("reconnecting", timeout=10_000)  # noticed at once, and said
        # the others are told, in words, while Ann is away (the server's keepalive notices a
        # silent connection within its ping interval and timeout)
        watcher.page.wait_for_function(
            "() => /Ann/.test(document.querySelector('[data-testid=notice]').textContent)",
            timeout=25_000,  # the server's ping interval and timeout: at most 15 s
        )
        away = watcher.page.locator("[data-testid=notice]").first.inner_text()
        ann.context.set_offline(False)
        ann.wait_link("online", timeout=30_000)
        ann.wait_state("your-turn")
        lines = log.count()
        ann.play_one(rng)
        ann.page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=log] > *').length > n", arg=lines
        )
        assert ann.errors == [] or all("WebSocket" in error for error in ann.errors), ann.errors
        # and told that Ann is back
        watcher.page.wait_for_function(
            "(away) => document.querySelector('[data-testid=notice]').textContent !== away",
            arg=away,
            timeout=15_000,
        )
        assert watcher.errors == []
    finally:
        ann.close()
        if watcher is not None:
            watcher.close()


def test_the_others_see_the_grace_counted_down(browser: Browser, server: Server) -> None:
    """While a player is away, every page counts down the grace before the stand-in plays."""
    ann = Tab(browser, server.url + "/", name="Ann")
    watcher: Tab | None = None
    try:
        made = create_table(ann, ["person", "bot:random"], "Ann")
        watcher = Tab(browser, urljoin(server.url, made["watch"]), name="watcher")
        ann.wait_link("online")
        watcher.wait_link("online")
        cut_connection(ann)
        watcher.page.wait_for_function(
            "() => /Ann/.test(document.querySelector('[data-testid=notice]').textContent)",
            timeout=25_000,  # the server's ping interval and timeout: at most 15 s
        )
        away = watcher.page.locator("[data-testid=notice]").first.inner_text()
        grace = [int(n) for n in re.findall(r"\d+", away)]
        assert grace, away  # "... plays for them in 60 s unless they connect."
        watcher.page.wait_for_function(
            "(before) => { const n = (document.querySelector('[data-testid=notice]')"
            ".textContent.match(/\\d+/g) || []).map(Number);"
            " return n.length > 0 && n[n.length - 1] < before; }",
            arg=grace[-1],
            timeout=5_000,
        )
    finally:
        ann.close()
        if watcher is not None:
            watcher.close()


def shoot(tab: Tab, name: str, folder: Path, *, full_page: bool = False) -> Path:
    path = folder / name
    tab.page.screenshot(path=str(path), scale="css", full_page=full_page)
    keep = os.environ.get("CINCO_WEB_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)
    return path


def test_phone_and_desktop_pages_fit_their_screens(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    rng = random.Random(5)
    desk = Tab(browser, server.url + "/", name="desktop", **DESKTOP)
    phone: Tab | None = None
    try:
        assert outside_viewport(desk.page) == []
        made = create_table(desk, ["person", "person", "bot:greedy"], "Ann", timer="300+10")
        # Bob, on a phone, finds the table in the lobby's list and joins it by its code
        phone = Tab(browser, server.url + "/", name="phone", **PHONE)
        phone.page.wait_for_selector("[data-testid=open-tables] [data-testid=open-table]")
        assert outside_viewport(phone.page) == []
        shoot(phone, "web-lobby-phone.png", tmp_path, full_page=True)
        phone.page.locator("[data-testid=join-code]").fill(made["invites"][1].rsplit("/", 1)[1])
        phone.page.locator("form:has([data-testid=join-code]) input[name=name]").fill("Bob")
        phone.press("[data-testid=join]")
        phone.wait_state("your-turn", "waiting")
        assert "/join/" not in phone.page.url  # the seat's token is kept, not in the address
        desk.wait_state("your-turn", "waiting")
        for _ in range(100):  # the bot (seat 2) moves at once if it begins
            if "your-turn" in (desk.state(), phone.state()):
                break
            desk.page.wait_for_timeout(50)
        mover = 0 if desk.state() == "your-turn" else 1  # Ann sits at 0, Bob at 1
        # every page counts the running clock down by itself: the mover's, on both screens
        for tab in (desk, phone):
            clock = tab.page.locator(f"[data-testid=clock-{mover}]").first
            shown = clock.inner_text().strip()
            assert re.fullmatch(r"\d+:\d\d", shown), shown
            tab.page.wait_for_function(
                "([id, shown]) => { const c = document.querySelector(`[data-testid=${id}]`);"
                " return c !== null && c.innerText.trim() !== shown; }",
                arg=[f"clock-{mover}", shown],
                timeout=5_000,
            )
            assert re.fullmatch(r"\d+:\d\d", clock.inner_text().strip())
            # the other person has not moved yet: their clock is full and stands still
            other = tab.page.locator(f"[data-testid=clock-{1 - mover}]").first
            assert other.inner_text().strip() == "5:00"
        moves = 0
        for _ in range(200):  # a few turns each, made by tapping and clicking
            if moves >= 4:
                break
            for tab in (desk, phone):
                if tab.state() == "your-turn":
                    tab.play_one(rng)
                    moves += 1
            desk.page.wait_for_timeout(50)
        assert moves >= 4
        phone.page.wait_for_selector("[data-testid=hand] [data-card]")
        assert outside_viewport(phone.page) == []
        assert outside_viewport(desk.page) == []
        shoot(phone, "web-game-phone.png", tmp_path)
        shoot(desk, "web-game-desktop.png", tmp_path)
        watcher = Tab(browser, urljoin(server.url, made["watch"]), name="watcher", **PHONE)
        try:
            watcher.page.wait_for_selector("[data-testid=board] [data-team]")
            assert outside_viewport(watcher.page) == []
            assert watcher.errors == []
        finally:
            watcher.close()
        assert desk.errors == [] and phone.errors == []
    finally:
        desk.close()
        if phone is not None:
            phone.close()
