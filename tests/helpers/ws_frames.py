"""Reading a ``cinco serve`` WebSocket in Starlette's TestClient: the frames, bounded in time.

Shared by the server's tests and the web client's: every wait for a frame has a limit, so a
table that never answers fails its test instead of holding the whole run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio

from cinco.core.table.protocol import PROTOCOL_VERSION

Frame = dict[str, Any]

#: How long a test waits for the server's next frame before it fails.
FRAME_WAIT = 60.0


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def msg(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, "v": PROTOCOL_VERSION, **fields})


def receive_text(ws: Any, seconds: float = FRAME_WAIT) -> str:
    """The next text frame of a TestClient WebSocket session, waiting *seconds* at most."""

    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"no frame from the server in {seconds:.0f} s") from None
    ws._raise_on_close(message)
    return str(message["text"])


def until(ws: Any, done: Callable[[Frame], bool], frames: list[Frame] | None = None) -> Frame:
    """Read frames (into *frames*) until one satisfies *done*; return it (at most 5000)."""
    for _ in range(5000):
        frame: Frame = json.loads(receive_text(ws))
        if frames is not None:
            frames.append(frame)
        if done(frame):
            return frame
    raise AssertionError("no such frame came")


def is_answer(frame: Frame) -> bool:
    return frame["type"] in ("accepted", "refused", "hinted")


def a_move(prompt: Frame) -> Frame:
    """A command frame for the move *prompt* offers first: a play, else a draw, else an
    exchange."""
    seat = prompt["seat"]
    for card, spaces in prompt["plays"]:
        return {"kind": "play", "seat": seat, "card": card, "space": spaces[0] if spaces else None}
    if prompt["can_draw"]:
        return {"kind": "draw", "seat": seat}
    return {"kind": "exchange", "seat": seat}
