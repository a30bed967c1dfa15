"""The web lobby names variants and bots in the page's language (issue 25): each variant the
server offers is a box labelled with its title (Czech: Žolík), never its id, and what a table
is made with is still sent by name (``joker``); the bots are offered by their titles, their
levels in words."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from browser import Tab

if TYPE_CHECKING:
    from live_server import Server
    from playwright.sync_api import Browser

pytest.importorskip("uvicorn")


def test_the_lobby_offers_variants_and_bots_by_their_titles(
    browser: Browser, server: Server
) -> None:
    tab = Tab(browser, server.url + "/", name="words", locale="cs-CZ")
    try:
        page = tab.page
        form = "[data-testid=create-form]"
        page.wait_for_selector(f"{form} [data-variant=joker]")
        box = page.locator(f"{form} [data-variant=joker]").first
        assert box.inner_text().strip() == "Žolík"
        assert "joker" not in page.locator(form).first.inner_text().lower()
        # The second seat: a person, or a bot by its title, a level in Czech words.
        page.select_option(f"{form} [name=players]", "2")
        seat = page.locator(f"{form} [data-testid=seat-1] select[name=kind]").first
        labels = seat.locator("option").all_inner_texts()
        assert any("ismcts" not in text.lower() and "těžk" in text for text in labels), labels
        assert seat.input_value() == "person"
        # Checked, the variant is sent by its name.
        box.locator("input").check()
        page.locator(f"{form} [name=name]").first.fill("Eva")
        with page.expect_request(
            lambda r: r.url.endswith("/api/tables") and r.method == "POST"
        ) as made:
            page.locator("[data-testid=create]").first.click()
        assert json.loads(made.value.post_data or "{}")["variants"] == ["joker"]
        assert tab.errors == []
    finally:
        tab.close()
