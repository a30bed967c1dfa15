"""A real browser for the web client's tests: Debian's Chromium driven by Playwright for Python.

Nothing is downloaded at test time: Chromium is launched by its executable path
(``/usr/bin/chromium``, apt-get's ``chromium`` package; ``.ci/run`` installs it), and
``PLAYWRIGHT_BROWSERS_PATH`` points at an empty folder, so a missing browser fails loudly
instead of being fetched. Headless, ``--no-sandbox`` when running as root (the sandbox needs
an unprivileged user), and none of the browser's own network traffic (updates, sync, QUIC).

:func:`outside_viewport` runs a script in the page that lists every visible element whose box
crosses the viewport's left or right edge, and whether the page scrolls sideways.
:class:`Tab` is one person's browser (a context of its own: its own storage, as another
device), with the page's console errors, uncaught exceptions and failed requests collected, and
moves made as a person makes them (:meth:`Tab.play_one`: a card, then a space the page marks
legal). :func:`create_table`, :func:`take_seat` and :func:`cut_connection` use the page's
``data-testid`` hooks (the web client keeps them stable for its tests).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")

#: Every wait in the browser tests is bounded; this is the longest single one (ms).
WAIT_MS = 20_000


class NoBrowser(Exception):
    """Chromium or Playwright is missing here."""


def chromium_args() -> list[str]:
    args = [
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
    ]
    if os.geteuid() == 0:
        args.insert(0, "--no-sandbox")
    return args


def missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is not executable"
    try:
        import playwright.sync_api  # noqa: F401  (an optional test dependency)
    except ImportError:
        return "Playwright for Python is missing (pip install -e '.[test]')"
    return None


@contextmanager
def chromium() -> Iterator[Browser]:
    """A fresh headless Chromium (its own temporary profile), closed afterwards."""
    reason = missing()
    if reason is not None:
        raise NoBrowser(reason)
    from playwright.sync_api import sync_playwright  # optional test dependency

    with tempfile.TemporaryDirectory(prefix="cinco-pw-") as empty:
        before = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
        os.environ["PLAYWRIGHT_BROWSERS_PATH"] = empty  # no browser there: never download one
        os.environ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM),
                    headless=True,
                    args=chromium_args(),
                    timeout=WAIT_MS * 3,
                )
                try:
                    yield browser
                finally:
                    browser.close()
        finally:
            if before is None:
                os.environ.pop("PLAYWRIGHT_BROWSERS_PATH", None)
            else:
                os.environ["PLAYWRIGHT_BROWSERS_PATH"] = before


PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

_OUTSIDE = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const element of document.querySelectorAll('body *')) {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    // an element inside a box that scrolls by itself (a log, a hand) may run past the edge
    let clipped = false;
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowX;
      if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') {
        clipped = true;
        break;
      }
    }
    if (clipped) continue;
    if (box.right > width + 0.5 || box.left < -0.5) {
      const id = element.getAttribute('data-testid') || element.id || '';
      found.push(`${element.tagName.toLowerCase()}${id ? '[' + id + ']' : ''}`
        + ` ${Math.round(box.left)}..${Math.round(box.right)} (viewport ${width})`);
    }
  }
  const scroller = document.scrollingElement || document.documentElement;
  if (scroller.scrollWidth > scroller.clientWidth + 0.5) {
    found.push(`the page scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
  }
  return found;
}"""


def outside_viewport(page: Page) -> list[str]:
    """Every visible element that crosses the viewport's left or right edge (outside a box
    that scrolls or clips by itself), and a sideways scroll of the page, as lines of text."""
    found: list[str] = page.evaluate(_OUTSIDE)
    return found


#: Run first in every page of a :class:`Tab` (before the page's own scripts; the page's CSP
#: does not apply to it): keeps the page's WebSockets, so a test can cut them as a network
#: drop would.
SOCKET_SPY = """(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.__cincoSockets = sockets;
  window.__cincoOffered = [];
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      sockets.push(this);
      window.__cincoOffered.push({url: String(url), protocols: [].concat(protocols || [])});
    }
  };
})();"""

#: What a move changes on a player's page: whose turn, the hand, the log, the notice.
_SIGNATURE = """() => {
  const text = (id) => document.querySelector(`[data-testid=${id}]`);
  const status = text('status');
  const hand = [...document.querySelectorAll('[data-testid=hand] [data-card]')]
    .map((card) => card.getAttribute('data-card')).join(',');
  const log = text('log');
  const notice = text('notice');
  return [status ? status.getAttribute('data-state') : '', hand,
          log ? log.children.length : 0, notice ? notice.textContent : ''].join('|');
}"""


class Tab:
    """One person's browser: a page in a context of its own (its own storage), the console's
    errors and the page's uncaught exceptions collected, every wait bounded."""

    def __init__(self, browser: Browser, url: str, *, name: str = "", **context: Any) -> None:
        self.name = name
        self.touch = bool(context.get("has_touch"))
        self.context = browser.new_context(**context)
        self.context.set_default_timeout(WAIT_MS)
        self.context.add_init_script(SOCKET_SPY)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "response",
            lambda answer: (
                self.errors.append(f"{answer.status} {answer.url}")
                if answer.status >= 400
                else None
            ),
        )
        self.response = self.page.goto(url)

    def press(self, selector: str) -> None:
        """Tap (a touch screen) or click the first element matching *selector*."""
        target = self.page.locator(selector).first
        if self.touch:
            target.tap()
        else:
            target.click()

    def state(self) -> str:
        status = self.page.locator("[data-testid=status]")
        if status.count() == 0:
            return ""
        return status.first.get_attribute("data-state") or ""

    def wait_state(self, *states: str, timeout: float = WAIT_MS) -> str:
        self.page.wait_for_function(
            "(states) => { const s = document.querySelector('[data-testid=status]');"
            " return s !== null && states.includes(s.getAttribute('data-state')); }",
            arg=list(states),
            timeout=timeout,
        )
        return self.state()

    def hand(self) -> list[str]:
        cards = self.page.locator("[data-testid=hand] [data-card]")
        return [cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count())]

    def tokens(self) -> dict[str, str]:
        """The board's occupied spaces: space → team."""
        found: dict[str, str] = self.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll("
            "'[data-testid=board] [data-space][data-team]')].map("
            "(s) => [s.getAttribute('data-space'), s.getAttribute('data-team')]))"
        )
        return found

    def link(self) -> str:
        return self.page.locator("[data-testid=connection]").first.get_attribute("data-link") or ""

    def wait_link(self, link: str, timeout: float = WAIT_MS) -> None:
        self.page.wait_for_function(
            "(link) => { const c = document.querySelector('[data-testid=connection]');"
            " return c !== null && c.getAttribute('data-link') === link; }",
            arg=link,
            timeout=timeout,
        )

    def select(self, card: str, timeout: float = WAIT_MS) -> None:
        """Tap or click a card of the hand, and wait until the page shows it selected."""
        selector = f"[data-testid=hand] [data-card='{card}']"
        if self.page.locator(f"{selector}[aria-pressed=true]").count() == 0:
            self.press(selector)
        self.page.wait_for_selector(f"{selector}[aria-pressed=true]", timeout=timeout)

    def enabled(self, action: str) -> bool:
        button = self.page.locator(f"[data-testid={action}]")
        return button.count() > 0 and button.first.is_visible() and button.first.is_enabled()

    def play_one(self, rng: random.Random, timeout: float = WAIT_MS) -> str:
        """Make one move as a person would, on the page: a card then a legal space; Draw or
        Exchange when no card has one. Waits (bounded) until the page shows that something
        changed (the move confirmed, or refused in words). Returns what was done."""
        before: str = self.page.evaluate(_SIGNATURE)
        done = ""
        burnable = ""
        cards = self.hand()
        rng.shuffle(cards)
        for card in cards:
            self.select(card, timeout)
            legal = self.page.locator("[data-testid=board] [data-legal=true]")
            count = legal.count()
            if count:
                space = legal.nth(rng.randrange(count))
                done = f"{card}@{space.get_attribute('data-space')}"
                if self.touch:
                    space.tap()
                else:
                    space.click()
                break
            if self.enabled("burn"):  # a card with no free space: the page offers Burn
                burnable = card
        else:
            for action in ("draw", "exchange", "burn"):
                if action == "burn" and burnable:
                    self.select(burnable, timeout)
                if self.enabled(action):
                    done = action
                    self.press(f"[data-testid={action}]")
                    break
        assert done, f"{self.name}: nothing to do on a turn (hand {cards})"
        self.page.wait_for_function(
            f"(before) => ({_SIGNATURE})() !== before", arg=before, timeout=timeout
        )
        return done

    def socket_tokens(self) -> list[str]:
        """The credentials the page's WebSockets offered (``bearer.TOKEN`` subprotocols)."""
        offered: list[dict[str, Any]] = self.page.evaluate("() => window.__cincoOffered || []")
        return [
            item[len("bearer.") :]
            for socket in offered
            for item in socket["protocols"]
            if item.startswith("bearer.")
        ]

    def close(self) -> None:
        self.context.close()


def cut_connection(tab: Tab) -> None:
    """A network drop: the browser goes offline and the page's WebSockets are cut."""
    tab.context.set_offline(True)
    tab.page.evaluate(
        "() => { for (const s of window.__cincoSockets || []) { try { s.close(4000); }"
        " catch (e) {} } }"
    )


def _set(page: Page, selector: str, value: str) -> None:
    field = page.locator(selector).first
    if field.input_value() == value:
        return  # as it is (the creator's own seat is a person's, and not to be changed)
    if field.evaluate("(e) => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)


def create_table(tab: Tab, kinds: list[str], name: str, timer: str = "") -> dict[str, Any]:
    """Fill the lobby's create form (one kind a seat: ``person``, ``bot:random``, ...) and
    press Create; returns the invite links (seat → absolute URL) and the watch link."""
    form = "[data-testid=create-form]"
    page = tab.page
    page.wait_for_selector(form)
    _set(page, f"{form} [name=players]", str(len(kinds)))
    for seat, kind in enumerate(kinds):
        page.wait_for_selector(f"{form} [data-testid=seat-{seat}] select[name=kind]")
        _set(page, f"{form} [data-testid=seat-{seat}] select[name=kind]", kind)
    _set(page, f"{form} [name=timer]", timer)
    _set(page, f"{form} [name=name]", name)
    tab.press("[data-testid=create]")
    # the links come once the table is made (with nobody to invite, they may stay hidden)
    page.wait_for_selector("[data-testid=watch-link]", state="attached")
    invites: dict[int, str] = {}
    links = page.locator("[data-testid=invite-link]")
    for i in range(links.count()):
        link = links.nth(i)
        invites[int(link.get_attribute("data-seat") or -1)] = link.get_attribute("href") or ""
    watch = page.locator("[data-testid=watch-link]").first.get_attribute("href") or ""
    return {"invites": invites, "watch": watch}


def take_seat(tab: Tab, name: str) -> None:
    """On an invite link's page (``/join/CODE``): give a name, press Join, and wait for the
    game's page."""
    page = tab.page
    page.wait_for_selector("[data-testid=join], [data-testid=status]")
    if page.locator("[data-testid=status]").count() == 0:
        page.locator("input[name=name]").first.fill(name)
        tab.press("[data-testid=join]")
    page.wait_for_selector("[data-testid=status]")
