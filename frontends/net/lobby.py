"""The lobby's HTTP side of ``cinco serve``, apart from the tables: its errors (JSON with a
code), the rate limit per client address, invite codes and names, the reading of request
bodies (bounded in size and depth) and the checks of a new table's options
(``POST /api/tables``).

Every refusal is a :class:`LobbyError`, answered by the server's route wrapper as
``{"error": CODE, "message": TEXT}`` (and ``"field"`` when one option is wrong).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import Registry

from .clock import LONGEST, TimeControl

#: The largest request body (bytes); a bigger one is answered ``413``.
MAX_BODY = 16 * 1024
#: The deepest nesting of arrays and objects a body may have (a table's options need 3).
MAX_DEPTH = 8
#: What is read and thrown away of a too-big body after the ``413`` is sent, so that the
#: client, still sending, reads the answer instead of a reset; beyond, the connection is cut.
DRAIN_LIMIT = 64 * 1024 * 1024
DRAIN_SECONDS = 10.0
#: The shortest turn timer reserve (seconds): the timers' watcher looks about once a second,
#: and a stand-in bot needs a moment to move for someone out of time.
MIN_RESERVE = 1.0
#: The most seats a table may have (the registry says which counts are playable).
MAX_SEATS = 64
#: The options ``POST /api/tables`` knows; any other is refused (a typo is not ignored).
OPTIONS = frozenset(
    ("players", "layout", "variants", "bots", "names", "undo", "timer", "grace", "stand_in")
)
#: The longest name at a table (characters).
NAME_LENGTH = 24
#: Lobby requests (HTTP) per second one client address may make (a token bucket of
#: LOBBY_BURST); more get ``429`` with ``Retry-After``.
LOBBY_RATE = 5.0
LOBBY_BURST = 40.0
#: The fields of ``POST /api/join``.
JOIN_FIELDS = ("code", "name", "seat")
#: The alphabet of invite and watch codes: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


class LobbyError(Exception):
    """A refused lobby request: its HTTP *status*, a *code*, words, and the *field* of the
    body that is wrong (if one is)."""

    def __init__(
        self,
        status: int,
        code: str,
        text: str,
        *,
        retry_after: int = 0,
        field: str | None = None,
    ) -> None:
        super().__init__(text)
        self.status = status
        self.code = code
        self.text = text
        self.retry_after = retry_after
        self.field = field


def bad_option(field: str, text: str) -> LobbyError:
    return LobbyError(400, "bad_request", f"{field}: {text}", field=field)


def normal_code(code: str) -> str:
    """An invite or watch code as it is stored: letters and digits only, upper case, in
    groups of four (``abcd efgh jkmn``, ``ABCDEFGHJKMN`` → ``ABCD-EFGH-JKMN``).

    >>> normal_code(" k7qm2xpa-hdtw ")
    'K7QM-2XPA-HDTW'
    """
    letters = "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))


def clean_name(name: str) -> str:
    """A name as the table shows it: printable, trimmed, at most NAME_LENGTH characters."""
    cleaned = "".join(ch for ch in name.strip() if ch.isprintable())
    return cleaned[:NAME_LENGTH].strip() or "?"


def same_name(one: str | None, other: str | None) -> bool:
    """Whether two names would read as the same at a table (case and spaces aside)."""
    if one is None or other is None:
        return False
    return " ".join(one.casefold().split()) == " ".join(other.casefold().split())


def free_name(name: str, others: list[str | None]) -> str:
    """*name*, or *name* (2), (3), ...: the first no other seat has."""
    candidate, number = name, 1
    while any(same_name(candidate, other) for other in others):
        number += 1
        candidate = f"{name} ({number})"
    return candidate


def join_fields(body: dict[str, Any]) -> tuple[str, str | None, int | None]:
    """``POST /api/join``'s invite code, name and wished-for seat (from 1), checked."""
    unknown = sorted(set(body) - set(JOIN_FIELDS))
    if unknown:
        text = f"{unknown[0]}: no such field (code, name, seat)"
        raise LobbyError(400, "bad_request", text, field=unknown[0])
    code = body.get("code")
    if not isinstance(code, str) or len(code) > 64:
        raise LobbyError(400, "bad_request", "join needs the table's invite code", field="code")
    name = body.get("name")
    if name is not None and not isinstance(name, str):
        raise LobbyError(400, "bad_request", f"name: text, not {name!r}", field="name")
    wanted = body.get("seat")
    if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
        text = f"seat: a number from 1, not {wanted!r}"
        raise LobbyError(400, "bad_request", text, field="seat")
    return code, name, wanted


def new_code() -> str:
    """An invite or watch code people can read out: 12 letters (about 60 bits)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return "-".join(letters[i : i + 4] for i in range(0, 12, 4))


class Buckets:
    """A token bucket per client address: *rate* requests a second, bursts of *burst*. Full
    buckets are forgotten, so that the table of addresses stays small."""

    def __init__(
        self, rate: float, burst: float, *, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.now = rate, burst, now
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> float:
        """Take a token for *address*: 0 if it may go on, else the seconds to wait (a rate of
        0: no limit)."""
        if self.rate <= 0:
            return 0.0
        now = self.now()
        tokens, stamp = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return (1 - tokens) / self.rate
        self.buckets[address] = (tokens - 1, now)
        if len(self.buckets) > 10_000:  # forget the addresses whose buckets are full again
            self.buckets = {
                key: (left, at)
                for key, (left, at) in self.buckets.items()
                if left + (now - at) * self.rate < self.burst
            }
        return 0.0


# -- errors ------------------------------------------------------------------------------------


class ErrorResponse(JSONResponse):
    """A lobby error as JSON. If the request's body was not read to its end (too big, or
    refused before it was read), the answer is sent first and the rest of the body is then
    read and dropped, up to DRAIN_LIMIT bytes or DRAIN_SECONDS: a client that sends the
    whole body before reading gets the answer, not a connection reset."""

    def __init__(self, exc: LobbyError, *, drain: bool = False) -> None:
        body: dict[str, Any] = {"error": exc.code, "message": exc.text}
        if exc.field is not None:
            body["field"] = exc.field
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        if drain:
            headers = {**(headers or {}), "Connection": "close"}
        super().__init__(body, status_code=exc.status, headers=headers)
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.drain:
            await super().__call__(scope, receive, send)
            return
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        await send({"type": "http.response.body", "body": self.body, "more_body": True})
        try:
            async with asyncio.timeout(DRAIN_SECONDS):
                dropped = 0
                while dropped <= DRAIN_LIMIT:
                    message = await receive()
                    if message["type"] != "http.request":
                        break
                    dropped += len(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            pass
        await send({"type": "http.response.body", "body": b"", "more_body": False})


# -- request bodies ----------------------------------------------------------------------------


async def read_body(request: Request) -> bytes:
    """The request's body, read in chunks, at most MAX_BODY bytes: a longer one (declared
    by its Content-Length, or found while reading) is refused ``413`` at once, without
    reading the rest (the error's answer drains it). Sets ``request.state.body_read`` once
    the body was read to its end."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > MAX_BODY:
        raise too_big()
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_big()
        chunks.append(chunk)
    request.state.body_read = True
    return b"".join(chunks)


def too_big() -> LobbyError:
    return LobbyError(
        413, "too_big", f"the request body is over {MAX_BODY // 1024} KiB: send a smaller one"
    )


def _reject_constant(name: str) -> Any:
    raise LobbyError(400, "bad_request", f"{name} is not a number JSON allows")


def depth(value: object) -> int:
    """How deep arrays and objects nest in *value* (0: a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            stack.extend((inner, level + 1) for inner in item.values())
        elif isinstance(item, list):
            stack.extend((inner, level + 1) for inner in item)
        else:
            deepest = max(deepest, level)
            continue
        deepest = max(deepest, level + 1)
    return deepest


def parse_body(raw: bytes) -> dict[str, Any]:
    """A body as a JSON object, at most MAX_DEPTH deep, with finite numbers only."""
    try:
        data = json.loads(raw or b"{}", parse_constant=_reject_constant)
    except RecursionError:
        raise too_deep() from None
    except ValueError:
        raise LobbyError(400, "bad_request", "the body must be JSON (UTF-8)") from None
    if not isinstance(data, dict):
        raise LobbyError(400, "bad_request", "the body must be a JSON object")
    if depth(data) > MAX_DEPTH:
        raise too_deep()
    return data


def too_deep() -> LobbyError:
    return LobbyError(
        400, "bad_request", f"the body nests arrays and objects over {MAX_DEPTH} deep"
    )


# -- a new table's options ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableOptions:
    """``POST /api/tables``'s body, checked: the settings stored with the table, and each
    seat's (name, bot, level): a person's seat has no bot and no name yet."""

    settings: dict[str, Any]
    seats: tuple[tuple[str | None, str | None, str | None], ...]


def strict_bool(body: dict[str, Any], field: str, default: bool) -> bool:
    value = body.get(field, default)
    if not isinstance(value, bool):
        raise bad_option(field, f"must be true or false (JSON), not {value!r}")
    return value


def bot_spec(registry: Registry, field: str, value: object) -> tuple[str, str | None]:
    """``NAME[:LEVEL]`` of an installed bot and one of its levels."""
    bots = registry.bots()
    choices = ", ".join(sorted(bots))
    if not isinstance(value, str):
        raise bad_option(field, f"a bot is NAME or NAME:LEVEL ({choices}), not {value!r}")
    name, colon, level = value.partition(":")
    if name not in bots:
        raise bad_option(field, f"no bot {name!r} is installed ({choices})")
    if colon and level not in bots[name].levels:
        levels = ", ".join(bots[name].levels) or "none"
        raise bad_option(field, f"bot {name!r} has no level {level!r} (its levels: {levels})")
    return name, level or None


def timer_setting(value: object) -> dict[str, float] | None:
    """A table's ``timer``: ``"300+10"``, ``{"reserve": 300, "increment": 10}`` or none."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, str):
            control = TimeControl.parse(value)
        elif isinstance(value, dict):
            unknown = sorted(set(value) - {"reserve", "increment"})
            if unknown:
                raise CincoError(f"a timer has a reserve and an increment, not {unknown[0]!r}")
            control = TimeControl.of(value.get("reserve"), value.get("increment", 0))
        else:
            raise CincoError("timer must be RESERVE+INCREMENT (seconds), as text or an object")
    except CincoError as exc:
        raise bad_option("timer", str(exc)) from None
    for number in (control.reserve, control.increment):
        if not math.isfinite(number):
            raise bad_option("timer", "its reserve and increment must be finite seconds")
    if control.reserve < MIN_RESERVE:
        raise bad_option(
            "timer",
            f"the reserve must be at least {MIN_RESERVE:g} second, at most {LONGEST:g} "
            f"(not {control.reserve:g})",
        )
    return {"reserve": control.reserve, "increment": control.increment}


def grace_setting(value: object) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not 0 <= value <= 3600
    ):
        raise bad_option("grace", f"seconds from 0 to 3600, not {value!r}")
    return float(value)


def _seat_index(field: str, key: object, players: int) -> int:
    text = str(key).strip()
    if not re.fullmatch(r"[0-9]{1,3}", text):
        raise bad_option(field, f"{key!r} is not a seat number (seats 1 to {players})")
    number = int(text)
    if not 1 <= number <= players:
        raise bad_option(field, f"there is no seat {number} (seats 1 to {players})")
    return number - 1


def table_options(
    body: dict[str, Any], registry: Registry, *, grace: float, stand_in: str
) -> TableOptions:
    """Check every option of ``POST /api/tables`` (*grace* and *stand_in*: the defaults);
    the first wrong one is refused with its field named. The registry then checks that the
    whole fits together (a layout for that many players, variants that go together)."""
    unknown = sorted(set(body) - OPTIONS)
    if unknown:
        raise bad_option(unknown[0], f"no such option (the options: {', '.join(sorted(OPTIONS))})")
    players = players_setting(registry, body.get("players", 2))
    layout = layout_setting(registry, players, body.get("layout"))
    variants = variants_setting(registry, body.get("variants", []))
    seats: list[list[str | None]] = [[None, None, None] for _ in range(min(players, MAX_SEATS))]
    seat_bots(registry, seats, body.get("bots") or {})
    seat_names(seats, body.get("names") or {})
    settings: dict[str, Any] = {
        "players": players,
        "layout": layout,
        "variants": variants,
        "undo": strict_bool(body, "undo", True),
        "timer": timer_setting(body.get("timer")),
        "grace": grace_setting(body.get("grace", grace)),
        "stand_in": stand_in_setting(registry, body.get("stand_in", stand_in)),
    }
    return TableOptions(settings, tuple((s[0], s[1], s[2]) for s in seats))


def players_setting(registry: Registry, players: object) -> int:
    counts = registry.player_counts()
    if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
        raise bad_option(
            "players",
            f"must be one of {', '.join(map(str, counts))} (the installed layouts), "
            f"not {players!r}",
        )
    return players


def layout_setting(registry: Registry, players: int, layout: object) -> str | None:
    fitting = [lay.name for lay in registry.layouts_for(players)]
    if layout is not None and (not isinstance(layout, str) or layout not in fitting):
        names = ", ".join(fitting)
        raise bad_option("layout", f"no layout {layout!r} for {players} players ({names})")
    return layout


def variants_setting(registry: Registry, variants: object) -> list[str]:
    installed = registry.variants()
    if variants is None:
        variants = []
    if not isinstance(variants, list):
        raise bad_option("variants", f"must be a list of names, not {variants!r}")
    for variant in variants:
        if not isinstance(variant, str) or variant not in installed:
            raise bad_option(
                "variants", f"no variant {variant!r} ({', '.join(sorted(installed)) or 'none'})"
            )
    if len(set(variants)) != len(variants):
        twice = next(v for v in variants if variants.count(v) > 1)
        raise bad_option("variants", f"{twice!r} is named more than once")
    return variants


def seat_bots(registry: Registry, seats: list[list[str | None]], bots: object) -> None:
    """Put the bots of ``bots`` (seat from 1 → ``NAME[:LEVEL]``) in *seats*."""
    if not isinstance(bots, dict):
        raise bad_option("bots", "must map seats (from 1) to NAME or NAME:LEVEL")
    for key, value in bots.items():
        index = _seat_index("bots", key, len(seats))
        if seats[index][1] is not None:
            raise bad_option("bots", f"seat {index + 1} is given twice")
        bot, level = bot_spec(registry, "bots", value)
        seats[index] = [f"{bot.capitalize()} {index + 1}", bot, level]


def seat_names(seats: list[list[str | None]], naming: object) -> None:
    """Name the bots' *seats* from ``names`` (seat from 1 → name); every name unique."""
    if not isinstance(naming, dict):
        raise bad_option("names", "must map bots' seats (from 1) to names")
    for key, value in naming.items():
        index = _seat_index("names", key, len(seats))
        if seats[index][1] is None:
            raise bad_option("names", f"seat {index + 1} is a person's: they name it at join")
        if not isinstance(value, str) or not value.strip():
            raise bad_option("names", f"a name is text, not {value!r}")
        seats[index][0] = clean_name(value)
    taken = [seat[0] for seat in seats if seat[0] is not None]
    for index, name in enumerate(taken):
        if any(same_name(name, other) for other in taken[:index]):
            raise bad_option("names", f"two seats are called {name!r}: names are unique")


def stand_in_setting(registry: Registry, value: object) -> str:
    bot, level = bot_spec(registry, "stand_in", value)
    return f"{bot}:{level}" if level else bot
