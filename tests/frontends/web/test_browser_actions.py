"""A variant's own action (hook API 3) taken in a real browser: a page of the web client plays
a table of the example plugin's ``capture`` variant against a bot on a live ``cinco serve`` (the
plugin installed by pip into a throwaway folder on the server's ``PYTHONPATH``, with the
helpers of tests/helpers/example_plugins.py), and captures an opponent's
token through the page's own controls: the action's button (labelled with its title, from
``/api/tables/ID/actions``), a card, then a highlighted space.

Why real play and not a prepared position: a table takes no seed, and a server restores its
tables from its store only as the store's own rows (the tables' settings, seat hashes and events
as the server wrote them), so a capture position would have to be forged in that format. Real
play reaches one quickly instead: a capture is legal as soon as the page's hand holds a card of
1 to 5 and the bot has a token at or above it. Against a random bot a seat is offered one in
about 85% of games (a simulation of 200 games with the engine), most often within its first
dozen turns; the page plays on (its moves as a person's: a card, then a legal space) until a
prompt offers it, for at most :data:`GAMES` games (a rematch each) and :data:`SECONDS`. The
chance that none of them does is well below one in a thousand.

Also: a standard table's page shows no action button; the table's words route answers the
titles in the page's language and is bounded (no table: ``404``). A screenshot at a phone's
size with the capture mode on is written to the test's temporary folder.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser import DESKTOP, PHONE, Tab, create_table, outside_viewport
from example_plugins import install_examples, with_site

if TYPE_CHECKING:
    from live_server import Server
    from playwright.sync_api import Browser

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

#: At most this many games (the first and its rematches), and this long in all, to reach a
#: prompt that offers a capture.
GAMES = 5
SECONDS = 240


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding cinco-capture, installed by pip (from a copy, as the networked test)."""
    return install_examples(
        ["cinco-capture"],
        tmp_path_factory.mktemp("capture-source"),
        tmp_path_factory.mktemp("capture-site"),
    )


@pytest.fixture
def capture_server(site: Path, tmp_path: Path) -> Iterator[Server]:
    from live_server import Server

    server = Server(tmp_path / "tables.sqlite", log=tmp_path / "server.log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", with_site(site)["PYTHONPATH"])
        server.start()
    try:
        yield server
    finally:
        server.stop()


def get_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def create_capture_table(tab: Tab) -> None:
    """The lobby's form: the capture variant ticked, seat 2 a random bot; wait for the game."""
    page = tab.page
    page.wait_for_selector("[data-testid=variants] [data-variant=capture] input")
    page.locator("[data-testid=variants] [data-variant=capture] input").check()
    create_table(tab, ["person", "bot:random"], "Ann")
    page.wait_for_selector("[data-testid=status]")


def offered(tab: Tab) -> bool:
    """The page offers a capture now (its button shown)."""
    button = tab.page.locator("[data-testid=act][data-action=capture]")
    return button.count() > 0 and button.first.is_visible() and button.first.is_enabled()


def play_until_a_capture_is_offered(tab: Tab, rng: random.Random) -> int:
    """Play the page's seat (moves as a person's) until its prompt offers a capture: rematches
    after a game without one, at most GAMES games and SECONDS. Returns the games played."""
    deadline = time.monotonic() + SECONDS
    games = 1
    while True:
        assert time.monotonic() < deadline, f"no capture offered in {games} games"
        state = tab.wait_state("your-turn", "over", timeout=30_000)
        if state == "over":
            assert games < GAMES, f"no capture offered in {games} games"
            finished = tab.page.url
            tab.press("[data-testid=rematch]")
            tab.page.wait_for_url(lambda url, finished=finished: url != finished)
            tab.page.wait_for_selector("[data-testid=status]")
            games += 1
            continue
        # the buttons come with the prompt: give the page a moment to draw them
        tab.page.wait_for_timeout(50)
        if offered(tab):
            return games
        tab.play_one(rng)


def test_a_page_captures_a_token_through_the_action_mode(
    browser: Browser, capture_server: Server, tmp_path: Path
) -> None:
    rng = random.Random(3)
    ann = Tab(browser, capture_server.url + "/", name="Ann", **PHONE)
    create_capture_table(ann)
    play_until_a_capture_is_offered(ann, rng)
    page = ann.page
    button = page.locator("[data-testid=act][data-action=capture]")
    assert button.inner_text().strip() == "Capture"  # the action's title, not its code
    assert button.get_attribute("aria-pressed") == "false"
    before = ann.tokens()
    log_before = page.locator("[data-testid=log] li").count()

    ann.press("[data-testid=act][data-action=capture]")
    assert button.get_attribute("aria-pressed") == "true"
    assert page.locator("[data-testid=act-cancel]").is_visible()
    # only the cards some capture uses may be chosen (a single one is chosen at once)
    usable = [
        card
        for card in ann.hand()
        if page.locator(f"[data-testid=hand] [data-card='{card}']").is_enabled()
    ]
    assert usable and all(1 <= int(card) <= 5 for card in usable), usable
    card = usable[0]
    ann.select(card)
    targets = page.locator("[data-testid=board] [data-act=capture]")
    assert targets.count() > 0
    spaces = [targets.nth(i).get_attribute("data-space") or "" for i in range(targets.count())]
    # every target is an opponent's token at or above the card
    assert all(before.get(space) == "1" and int(space) >= int(card) for space in spaces), (
        spaces,
        before,
    )
    assert (
        "Capture: choose a highlighted space." in page.locator("[data-testid=status]").inner_text()
    )
    page.screenshot(path=str(tmp_path / "capture-mode-phone.png"), full_page=True)
    assert outside_viewport(page) == []

    # nothing moves before the server confirms: the board is still as it was
    assert ann.tokens() == before
    space = spaces[rng.randrange(len(spaces))]
    page.locator(f"[data-testid=board] [data-space='{space}']").first.tap()
    page.wait_for_function(
        "(space) => { const s = document.querySelector("
        "`[data-testid=board] [data-space='${space}']`);"
        " return s && s.getAttribute('data-team') === '0'; }",
        arg=space,
    )
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=log] li').length > n", arg=log_before
    )
    lines = [
        page.locator("[data-testid=log] li").nth(i).inner_text()
        for i in range(log_before, page.locator("[data-testid=log] li").count())
    ]
    assert any(f"captured {space} with a {card}" in line for line in lines), lines
    page.screenshot(path=str(tmp_path / "captured-phone.png"), full_page=True)
    assert page.locator("[data-testid=act-cancel]").is_hidden()
    assert ann.errors == [], ann.errors

    # the table's words: the title per language, and nothing for a table that is not there
    table = page.url.split("table=", 1)[1]
    status, body = get_json(f"{capture_server.url}/api/tables/{table}/actions?lang=en")
    assert status == 200
    assert [(a["name"], a["title"], a["fields"]) for a in body["actions"]] == [
        ("capture", "Capture", ["card", "space"])
    ]
    assert body["actions"][0]["narration"] == "{name} captured {space} with a {card}"
    assert get_json(f"{capture_server.url}/api/tables/nope/actions?lang=en")[0] == 404
    assert get_json(f"{capture_server.url}/api/tables/{table}/actions?lang=xx")[0] == 404
    ann.close()


def test_a_standard_tables_page_shows_no_action_button(browser: Browser, server: Server) -> None:
    rng = random.Random(5)
    ann = Tab(browser, server.url + "/", name="Ann", **DESKTOP)
    create_table(ann, ["person", "bot:random"], "Ann")
    for _turn in range(4):
        if ann.wait_state("your-turn", "over") == "over":
            break
        ann.page.wait_for_timeout(50)
        assert ann.page.locator("[data-testid=act]").count() == 0
        assert ann.page.locator("[data-testid=act-cancel]").is_hidden()
        ann.play_one(rng)
    table = ann.page.url.split("table=", 1)[1]
    status, body = get_json(f"{server.url}/api/tables/{table}/actions?lang=cs")
    assert status == 200 and body == {"table": table, "lang": "cs", "actions": []}
    assert ann.errors == [], ann.errors
    ann.close()


#: Run in the page after the others: every prompt the page receives gets two commands of an
#: action of another shape (``signal``, one field ``level``), which no game has: the page must
#: offer them as a list, and show the table's refusal as any other.
DOCTORED_PROMPTS = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    set onmessage(handler) {
      super.onmessage = (event) => {
        let data = event.data;
        try {
          const message = JSON.parse(data);
          if (message.type === "prompt") {
            message.acts = [2, 3].map((level) => ({ kind: "signal", seat: message.seat, level }));
            data = JSON.stringify(message);
          }
        } catch (error) { /* not JSON: as it came */ }
        handler({ data });
      };
    }
    get onmessage() { return super.onmessage; }
  };
})();"""


def test_an_action_of_another_shape_is_a_list_and_its_refusal_is_shown(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    """A standard table on a live server, its prompts given a made-up action (``signal``) in
    the page: the page offers it by its name (no words for it), as a list of its commands;
    the one chosen is sent as it is, the table refuses it, the page says so and plays on."""
    rng = random.Random(7)
    ann = Tab(browser, server.url + "/", name="Ann", **DESKTOP)
    create_table(ann, ["person", "bot:random"], "Ann")
    ann.context.add_init_script(DOCTORED_PROMPTS)
    ann.page.reload()
    page = ann.page
    assert ann.wait_state("your-turn") == "your-turn"
    button = page.locator("[data-testid=act][data-action=signal]")
    button.wait_for()
    assert button.inner_text().strip() == "Signal"
    assert page.locator("[data-testid=act-list]").is_hidden()
    ann.press("[data-testid=act][data-action=signal]")
    choices = page.locator("[data-testid=act-list] [data-testid=act-choice]")
    assert [choices.nth(i).inner_text() for i in range(choices.count())] == [
        "Signal: level 2",
        "Signal: level 3",
    ]
    assert page.locator("[data-testid=status]").inner_text() == (
        "Signal: choose one of these moves."
    )
    # in the list's mode no card is chosen and no space marked
    assert all(
        not page.locator(f"[data-testid=hand] [data-card='{card}']").is_enabled()
        for card in ann.hand()
    )
    assert page.locator("[data-testid=board] [data-legal=true]").count() == 0
    page.screenshot(path=str(tmp_path / "list-mode.png"))
    # Cancel leaves the mode
    ann.press("[data-testid=act-cancel]")
    assert page.locator("[data-testid=act-list]").is_hidden()
    assert button.get_attribute("aria-pressed") == "false"
    ann.press("[data-testid=act][data-action=signal]")
    ann.press("[data-testid=act-list] [data-testid=act-choice]")
    notice = page.locator("[data-testid=notice]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=notice]').textContent.includes('signal')"
    )
    assert "signal" in notice.inner_text(), notice.inner_text()
    assert ann.state() == "your-turn" and ann.link() == "online"
    ann.play_one(rng)  # the seat plays on
    assert ann.errors == [], ann.errors
    ann.close()
