"""The web client's server side (issue 24, docs/server.md "Play in a browser"): its page and
static files (a strict Content-Security-Policy on every answer, caching with an ETag, nothing
outside the static folder), the board geometry (the engine's own), the page's texts per
language, and the words the server adds for a web page's connection (``?lang=``), in process.
The page itself is tested in a real browser elsewhere (tests/frontends/web/ browser tests).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from ws_frames import auth, is_answer, msg, until

from cinco.core.engine.board import COORDINATES, ring_of
from cinco.core.table.protocol import Presence
from cinco.core.words.i18n import LANGUAGES, speaking, translations_for
from cinco.core.words.messages import render
from cinco.frontends.net.app import CLOSE_UNKNOWN_LANGUAGE, create_app
from cinco.frontends.web.narrated import Words
from cinco.frontends.web.routes import STATIC, page_texts

PAGES = ("/", "/join/ABCD-EFGH-JKMN", "/watch/ABCD-EFGH-JKMN")


def new_table(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 2, **settings})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, code: str, name: str) -> dict[str, Any]:
    response = client.post("/api/join", json={"code": code, "name": name})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "server.db", rate=10_000)) as test_client:
        yield test_client


def strict(policy: str) -> None:
    """A policy that lets only the server's own scripts and styles run."""
    parts = {p.split()[0]: p.split()[1:] for p in policy.split(";") if p.strip()}
    assert parts["default-src"] == ["'self'"]
    assert parts["script-src"] == ["'self'"] and parts["style-src"] == ["'self'"]
    assert parts["object-src"] == ["'none'"] and parts["frame-ancestors"] == ["'none'"]
    assert "'self'" in parts["connect-src"]
    assert "unsafe" not in policy and "*" not in policy


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_the_app_under_a_strict_policy(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    strict(answer.headers["content-security-policy"])
    assert "ws://testserver" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-cache"
    assert '<script type="module" src="/static/app.js">' in answer.text


class _Inline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style>")
        self.found += [
            f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")
        ]


def test_the_page_and_modules_need_no_inline_script_nor_eval() -> None:
    parser = _Inline()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert parser.found == []
    for module in STATIC.glob("*.js"):
        text = module.read_text(encoding="utf-8")
        for banned in (
            "eval(",
            "new Function",
            "innerHTML",
            'setAttribute("style',
            "document.write",
        ):
            assert banned not in text, f"{module.name}: {banned}"


def test_static_files_are_cached_with_an_etag(client: TestClient) -> None:
    first = client.get("/static/app.js")
    assert first.status_code == 200
    assert "javascript" in first.headers["content-type"]
    assert re.fullmatch(r"public, max-age=\d+", first.headers["cache-control"])
    strict(first.headers["content-security-policy"])
    etag = first.headers["etag"]
    again = client.get("/static/app.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/style.css").headers["etag"] != etag


@pytest.mark.parametrize(
    "path",
    [
        "/static/../routes.py",
        "/static/%2e%2e/routes.py",
        "/static/..%2froutes.py",
        "/static/%2e%2e/%2e%2e/net/app.py",
        "/static//etc/passwd",
        "/static/no-such.js",
    ],
)
def test_nothing_outside_the_static_folder_is_served(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert "import" not in answer.text and "root:" not in answer.text


def test_the_board_is_the_engines(client: TestClient) -> None:
    answer = client.get("/api/board")
    assert answer.status_code == 200
    strict(answer.headers["content-security-policy"])
    board = answer.json()
    cells = [(s["q"], s["r"]) for s in board["spaces"]]
    assert cells == list(COORDINATES)
    assert [s["space"] for s in board["spaces"]] == list(range(1, 91))
    assert all(s["ring"] == ring_of(s["space"]) for s in board["spaces"])
    assert board["radius"] == 5 and board["count"] == 90


def test_the_page_texts_are_its_modules_t_calls() -> None:
    texts = page_texts()
    assert {"Draw", "Exchange", "Create the table", "Rematch"} <= set(texts)
    written = "".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    assert all(json.dumps(text, ensure_ascii=False) in written for text in texts)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_each_language_has_the_page_texts_from_its_catalog(client: TestClient, lang: str) -> None:
    answer = client.get(f"/api/catalog/{lang}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["lang"] == lang and set(body["languages"]) == set(LANGUAGES)
    assert set(body["texts"]) == set(page_texts())
    catalog = translations_for(lang)
    assert body["texts"] == {text: catalog.gettext(text) for text in page_texts()}
    if lang != "en":  # translated: the catalog has words for the page's buttons
        assert body["texts"]["Draw"] != "Draw" and body["texts"]["Rematch"] != "Rematch"


@pytest.mark.parametrize("lang", ["xx", "de", "english", "e", "%2E%2E"])
def test_an_unknown_language_is_refused_in_words(client: TestClient, lang: str) -> None:
    answer = client.get(f"/api/catalog/{lang}")
    assert answer.status_code == 404
    body = answer.json()
    assert body["error"] == "unknown_language"
    assert "Cinco speaks" in body["message"] and "uk (Українська)" in body["message"]
    assert body["languages"] == list(LANGUAGES)


def test_games_lists_what_a_table_may_be(client: TestClient) -> None:
    body = client.get("/api/games?lang=it").json()
    assert "2" in body["players"] and body["players"]["2"][0]["name"]
    assert "joker" in body["variants"]
    assert body["teams"][0]["colour"].startswith("#")
    assert client.get("/api/games?lang=zz").status_code == 404


def _seat(client: TestClient) -> tuple[str, str]:
    table = new_table(client, bots={"2": "greedy"})
    return table["table"], join(client, table["code"], "Ann")["token"]


def test_a_web_page_is_told_the_moves_and_refusals_in_its_language(client: TestClient) -> None:
    table, token = _seat(client)
    frames: list[dict[str, object]] = []
    protocols = ["cinco", f"bearer.{token}"]
    with client.websocket_connect(f"/ws/tables/{table}?lang=uk", subprotocols=protocols) as ws:
        assert ws.accepted_subprotocol == "cinco"
        ws.send_text(msg("subscribe", after=-1))
        until(ws, lambda f: f["type"] == "prompt", frames)
        lines = [line for f in frames for line in f.get("lines", [])]  # type: ignore[attr-defined]
        assert lines and "роздано" in lines[0]  # the deal, in Ukrainian
        ws.send_text(msg("submit", command={"kind": "play", "seat": 0, "card": 999, "space": 1}))
        refused = until(ws, lambda f: f["type"] == "refused", frames)
    assert refused["text"] == _uk_refusal(refused)


def _uk_refusal(refused: dict[str, object]) -> str:
    with speaking("uk"):
        return render(str(refused["code"]), refused["params"])  # type: ignore[arg-type]


def test_other_clients_frames_carry_no_words(client: TestClient) -> None:
    table, token = _seat(client)
    frames: list[dict[str, object]] = []
    with client.websocket_connect(f"/ws/tables/{table}", headers=auth(token)) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, lambda f: f["type"] == "prompt", frames)
        ws.send_text(msg("submit", command={"kind": "play", "seat": 0, "card": 999, "space": 1}))
        until(ws, is_answer, frames)
    assert frames and not any("lines" in f or "text" in f for f in frames)


def test_a_resumed_web_page_is_told_the_moves_after_its_cursor(client: TestClient) -> None:
    table, token = _seat(client)
    protocols = ["cinco", f"bearer.{token}"]
    with client.websocket_connect(f"/ws/tables/{table}?lang=en", subprotocols=protocols) as ws:
        ws.send_text(msg("subscribe", after=-1))
        first: list[dict[str, object]] = []
        prompt = until(ws, lambda f: f["type"] == "prompt", first)
        card, spaces = prompt["plays"][0]  # type: ignore[index]
        move = {"kind": "play", "seat": 0, "card": card, "space": spaces[0] if spaces else None}
        ws.send_text(msg("submit", command=move))
        cursor = prompt["seq"]
        # the subscription's own answer may come after the prompt: wait for the move's
        done = until(ws, lambda f: is_answer(f) and f.get("seq", cursor + 1) > cursor)
        assert done["type"] == "accepted", done
    later: list[dict[str, object]] = []
    with client.websocket_connect(f"/ws/tables/{table}?lang=en", subprotocols=protocols) as ws:
        ws.send_text(msg("subscribe", after=cursor))
        until(ws, lambda f: f["type"] == "event" and "lines" in f, later)
    told = [line for f in later for line in f.get("lines", [])]  # type: ignore[attr-defined]
    assert told[0].startswith(f"You played {card}")


def test_a_watch_code_offered_as_a_subprotocol_watches(client: TestClient) -> None:
    table = new_table(client, bots={"1": "greedy", "2": "random"})
    protocols = ["cinco", f"bearer.{table['watch']}"]
    frames: list[dict[str, object]] = []
    with client.websocket_connect("/ws/watch?lang=cs", subprotocols=protocols) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, lambda f: "lines" in f, frames)


def test_a_web_page_asking_an_unknown_language_is_closed_with_its_code(client: TestClient) -> None:
    table, token = _seat(client)
    protocols = ["cinco", f"bearer.{token}"]
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/tables/{table}?lang=xx", subprotocols=protocols) as ws,
    ):
        ws.receive_text()
    assert closed.value.code == CLOSE_UNKNOWN_LANGUAGE


def test_a_grace_period_comes_with_words_to_count_down() -> None:
    params = {"name": "Bob", "seconds": 42, "grace": 60, "bot": "greedy"}
    away = Presence("t1", 1, "seat_away", tuple(params.items()))
    with speaking("it"):
        text = render("seat_away", params)
    data = Words("it", viewer=0).frame(away)
    assert data["text"] == text and "42" in text
    assert data["counting"].replace("{seconds}", "42") == text
    back = Words("it", viewer=0).frame(Presence("t1", 1, "seat_back", (("name", "Bob"),)))
    assert back["text"] and "counting" not in back
