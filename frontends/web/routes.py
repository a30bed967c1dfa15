"""The web client's routes in ``cinco serve``: the page (``/``, ``/join/CODE``,
``/watch/CODE``), its static files (``/static/...``: cached, with an ETag), the board's geometry
(``/api/board``, from :mod:`cinco.core.engine.board`), the page's own texts in a language
(``/api/catalog/LANG``, from the gettext catalogs) and a table's declared actions in words
(``/api/tables/ID/actions?lang=``). Every answer carries a strict
Content-Security-Policy: scripts and styles only from the server's own files, no inline script,
no ``eval``.

The page's texts are the msgids its modules pass to ``t("...")`` (the keyword Babel extracts
them by, ``babel.cfg``): the catalog endpoint reads them from the modules themselves, so a
text is written once, in the JavaScript, and translated in the .po files.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from cinco.core.engine.board import COORDINATES, RADIUS, SPACES, ring_of
from cinco.core.host.registry import Registry, default_registry
from cinco.core.words.i18n import LANGUAGES, UnknownLanguage, translations_for

from .narrated import action_words, declared_actions, table_choices, web_language

STATIC = Path(__file__).resolve().parent / "static"
INDEX = STATIC / "index.html"

#: How long a browser keeps a static file before asking again (it asks with the ETag, and
#: gets ``304`` if the file is unchanged).
STATIC_MAX_AGE = 300

#: ``t("...")`` and ``t('...')`` in the page's modules: the texts the page shows.
_TEXT = re.compile(r"""\bt\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*[,)]""")
#: What a Host header may hold (anything else is left out of the policy).
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


def content_security_policy(host: str | None) -> str:
    """The policy of every web answer: the server's own files only, and WebSockets back to the
    host the page came from."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self'{sockets}; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def secure_headers(request: Request | None, host: str | None = None) -> dict[str, str]:
    """The headers every answer of the web client carries."""
    if request is not None:
        host = request.headers.get("host")
    return {
        "Content-Security-Policy": content_security_policy(host),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


async def page(request: Request) -> Response:
    """The app's one page (the lobby, a seat's game and a spectator's are the same page: it
    reads the path)."""
    headers = {**secure_headers(request), "Cache-Control": "no-cache"}
    return FileResponse(INDEX, media_type="text/html; charset=utf-8", headers=headers)


class CachedStatic(StaticFiles):
    """The page's static files, with Cache-Control, an ETag (Starlette's) and the policy;
    a path outside the folder is ``404`` (StaticFiles checks)."""

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1") or None
        response.headers.update(secure_headers(None, host))
        response.headers["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}"
        return response


@functools.cache
def board_geometry() -> dict[str, Any]:
    """The board as the engine has it: each space's axial cell ``(q, r)`` and ring."""
    return {
        "radius": RADIUS,
        "spaces": [
            {"space": n, "q": q, "r": r, "ring": ring_of(n)}
            for n, (q, r) in enumerate(COORDINATES, start=1)
        ],
        "count": SPACES,
    }


async def board(request: Request) -> Response:
    return JSONResponse(board_geometry(), headers=_api_headers(request))


def _api_headers(request: Request) -> dict[str, str]:
    return {**secure_headers(request), "Cache-Control": f"public, max-age={STATIC_MAX_AGE}"}


@functools.cache
def page_texts() -> tuple[str, ...]:
    """Every msgid the page's modules show (``t("...")``), in order of appearance."""
    found: dict[str, None] = {}
    for module in sorted(STATIC.rglob("*.js")):
        for match in _TEXT.finditer(module.read_text(encoding="utf-8")):
            text = match.group(1) if match.group(1) is not None else match.group(2)
            found[_unescape(text)] = None
    return tuple(found)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


@functools.cache
def page_catalog(lang: str) -> dict[str, Any]:
    """The page's texts in *lang*: msgid → translation (the msgid where the catalog lacks it)."""
    translations = translations_for(lang)
    return {
        "lang": lang,
        "languages": LANGUAGES,
        "texts": {text: translations.gettext(text) for text in page_texts()},
    }


async def catalog(request: Request) -> Response:
    asked = str(request.path_params.get("lang", ""))
    try:
        lang = web_language(asked)
    except UnknownLanguage as exc:
        error = {"error": "unknown_language", "message": str(exc), "languages": list(LANGUAGES)}
        return JSONResponse(error, status_code=404, headers=secure_headers(request))
    return JSONResponse(page_catalog(lang), headers=_api_headers(request))


def _registry(request: Request) -> Registry:
    """The server's registry (its tables' games), or the installed plugins'."""
    service = getattr(request.app.state, "service", None)
    registry = getattr(service, "registry", None)
    return registry if isinstance(registry, Registry) else default_registry()


async def games(request: Request) -> Response:
    """What a table may be: the player counts with their layouts, the variants, the bots, the
    teams' colours (``?lang=``: in that language; :func:`.narrated.table_choices`)."""
    try:
        body = table_choices(_registry(request), request.query_params.get("lang") or "en")
    except UnknownLanguage as exc:
        error = {"error": "unknown_language", "message": str(exc), "languages": list(LANGUAGES)}
        return JSONResponse(error, status_code=404, headers=secure_headers(request))
    return JSONResponse(body, headers=_api_headers(request))


async def table_actions(request: Request) -> Response:
    """The actions a table's variants declare (hook API 3) in words (``?lang=``): what the page
    labels its buttons with (:func:`.narrated.action_words`); an empty list for a table without
    any, ``404`` for no such table or language."""
    table = str(request.path_params.get("table", ""))
    service = getattr(request.app.state, "service", None)
    tables = getattr(service, "tables", None)
    hosted = tables.get(table) if isinstance(tables, dict) else None
    if hosted is None:
        missing = {"error": "no_such_table", "message": "no such table"}
        return JSONResponse(missing, status_code=404, headers=secure_headers(request))
    settings = hosted.settings
    try:
        lang = web_language(request.query_params.get("lang") or "en")
    except UnknownLanguage as exc:
        error = {"error": "unknown_language", "message": str(exc), "languages": list(LANGUAGES)}
        return JSONResponse(error, status_code=404, headers=secure_headers(request))
    specs = declared_actions(
        _registry(request),
        settings.get("variants") or (),
        players=int(settings.get("players") or 2),
        layout=settings.get("layout"),
    )
    body: dict[str, Any] = {"table": table, "lang": lang, "actions": action_words(specs, lang)}
    return JSONResponse(body, headers=_api_headers(request))


#: Mounted by :mod:`cinco.frontends.net.app` with the lobby's routes.
ROUTES = [
    Route("/", page, methods=["GET", "HEAD"]),
    Route("/join/{code}", page, methods=["GET", "HEAD"]),
    Route("/watch/{code}", page, methods=["GET", "HEAD"]),
    Route("/api/board", board, methods=["GET"]),
    Route("/api/catalog/{lang}", catalog, methods=["GET"]),
    Route("/api/games", games, methods=["GET"]),
    Route("/api/tables/{table}/actions", table_actions, methods=["GET"]),
    Mount("/static", app=CachedStatic(directory=STATIC), name="static"),
]
