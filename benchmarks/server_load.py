"""Load on ``cinco serve``: many tables, four clients each, over loopback.

It starts a real ``cinco serve`` on 127.0.0.1 (a free port, a fresh database in a temporary
folder), creates *T* four-seat tables, joins every seat, and opens one WebSocket per seat
(``T × 4`` connections) from this process, each at a random moment of the first
``--arrive`` seconds (5 by default; 0: all at once). Each table acts at a set rate (one action
a second by default): the seat whose turn it is waits for its table's next slot, then submits
a random legal action. It measures

* **confirm**: from a submit to its ``accepted``, at the client that sent it;
* **fan-out**: from a submit to the arrival of its first event at each of the table's *other*
  clients (the clients are in one process, so one clock serves them all);
* **actions/s** carried out by the server, and the server's memory (RSS) per idle table;
* **the server's CPU per action**: its process's CPU time (user + system, every thread, from
  ``/proc/PID/stat``) over the measured window, divided by the actions confirmed in it; the
  cores the server and this process (the load generator) used; the server's memory per table
  (its growth over the empty server, at the window's end) and its threads.

With ``--web SHARE`` that share of each table's seats connect as the web client's pages do
(frontends/web/): the seat token offered as the ``bearer.TOKEN`` subprotocol and ``?lang=``
(one of the five languages, at random), so the server narrates their frames; and before it
connects each such page fetches the page's files (``/``, its ``/static/`` files, the board and
its language's texts) twice, the second time with the ETag it was given, as a browser's cache
does: the step's line counts how many were answered ``304 Not Modified``, and how long a
page's files took. Those fetches come in a burst while the pages arrive: give them time to
end before the measure (``--arrive 20 --warmup 30``), or the figures are the burst's.

The clients run in one asyncio process (its garbage collector off: it is the instrument) and
take CPU from the same two cores as the server, so the figures are an upper bound on what the
server itself costs. Everything is bounded: each
step runs ``--warmup`` + ``--seconds`` and stops by itself, and the server is stopped at the
end of each step.

Run: ``python benchmarks/server_load.py [--tables 50,100,250] [--seconds 20] [--rate 1]
[--arrive 5] [--web 0.5] [--ramp 250 --max-tables 1500] [--goal 50] [--profile prof.json]``.
It reports the largest step that held p99 ≤ ``--goal`` ms (50) for both confirm and fan-out;
``--ramp N`` goes on adding N tables a step past the last of ``--tables`` until a step misses
the goal. ``--profile FILE`` has py-spy (``pip install py-spy``) sample the server over each
step's measured window (``FILE-TABLES.json``: speedscope; ``.txt``: collapsed stacks; else an
SVG flame graph). ``--serve "COMMAND"`` starts another build of the server (A/B comparisons).
The goals on a 2-core machine (issue 28): at most 0.4 ms of server CPU per action at 250
tables, and 1,000 tables × 4 clients at one action a second per table with p99 ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from websockets.asyncio.client import ClientConnection, connect

from cinco.core.table.protocol import PROTOCOL_VERSION

CINCO = str(Path(sys.executable).with_name("cinco"))
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SEATS = 4
#: The web client's languages (a web page's connection asks for one with ``?lang=``).
LANGUAGES = ("en", "uk", "ru", "cs", "it")
#: ``/static/...`` in the page, and the modules' relative imports (``from "./board.js"``).
_STATIC_REF = re.compile(r"""["'](/static/[^"'?#]+)["']""")
_HEAD = re.compile(r'\{"type":"(\w+)"')
_SEQ = re.compile(r'"seq":(-?\d+)')
_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``cinco serve`` in a subprocess, on a fresh database."""

    def __init__(self, folder: Path, serve: list[str] | None = None) -> None:
        serve = serve or [CINCO, "serve"]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (folder / "server.log").open("wb")
        self.base_rss = 0
        # One address makes every join: no lobby rate limit here.
        command = [*serve, "--port", str(self.port), "--db", str(folder / "load.db")]
        self.process = subprocess.Popen(
            [*command, "--lobby-rate", "0"], stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                self.get("/api/tables")
                self.base_rss = self.rss_kib()  # the empty server: a step's tables add to it
                return
            time.sleep(0.1)
        raise SystemExit(f"the server did not start; see {folder / 'server.log'}")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def cpu_seconds(self) -> tuple[float, float]:
        """The server process's CPU time so far (all its threads): user, and system (the
        kernel's work for it: sockets, epoll, futexes, the disk)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS  # utime, stime

    def threads(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
        return 0

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@dataclass
class TableLoad:
    """One table's pacing and the submit that its other clients are waiting to see."""

    table: str
    interval: float
    next_slot: float = 0.0
    pending: tuple[int, float, int] | None = None  # (first seq it makes, sent at, seat)
    over: bool = False


@dataclass
class Figures:
    confirm: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    dropped: int = 0
    measuring: bool = False
    #: How late this process's own loop woke from 5 ms sleeps: the instrument's own delay.
    lag: list[float] = field(default_factory=list)
    #: Web pages' connections, and their file fetches: answered 200, 304, anything else.
    web: int = 0
    fetched: int = 0
    revalidated: int = 0
    failed: int = 0
    #: Seconds each web page took to fetch its files (both rounds), measured or not.
    page_load: list[float] = field(default_factory=list)
    #: Over the measured window: the server's CPU seconds, this process's (the load
    #: generator's), the window's length, and the server's threads and memory at its end.
    server_cpu: float = 0.0
    server_system: float = 0.0
    client_cpu: float = 0.0
    window: float = 0.0
    threads: int = 0
    rss_kib: int = 0

    def cpu_per_action_ms(self) -> float:
        return self.server_cpu / self.actions * 1e3 if self.actions else float("nan")


def choose(prompt: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    plays = prompt["plays"]
    if plays and (not prompt["can_draw"] or rng.random() < 0.8):
        card, spaces = rng.choice(plays)
        return {"kind": "play", "seat": seat, "card": card, "space": rng.choice(spaces or [None])}
    if prompt["can_draw"]:
        return {"kind": "draw", "seat": seat}
    return {"kind": "exchange", "seat": seat}


def page_files(server_url: str) -> list[str]:
    """The paths a web page loads: ``/``, the ``/static/`` files it names and the modules
    those import, and the board's geometry (each language's texts come per page)."""
    found, queue = ["/", "/api/board"], ["/"]
    while queue:
        path = queue.pop()
        try:
            with urllib.request.urlopen(server_url + path, timeout=30) as answer:
                text = answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError:  # missing: each page's fetch of it counts as failed
            continue
        refs = _STATIC_REF.findall(text)
        if path.endswith(".js"):
            refs += [
                urlsplit(urljoin(server_url + path, ref)).path for ref in _IMPORT.findall(text)
            ]
        for ref in refs:
            if ref not in found:
                found.append(ref)
                if ref.endswith((".js", ".html")):
                    queue.append(ref)
    return found


async def http_get(url: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """A plain HTTP/1.1 GET (``Connection: close``): the status and the headers."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 30)
    try:
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    fields = (line.partition(":") for line in head[1:])
    return int(head[0].split()[1]), {name.lower(): value.strip() for name, _, value in fields}


async def load_page(url: str, files: list[str], lang: str, figures: Figures) -> None:
    """A web page's files, fetched as a browser does: once, then again with each file's ETag
    (a cache that asks whether its copy is still good: ``304`` if so)."""
    for path in [*files, f"/api/catalog/{lang}"]:
        status, headers = await http_get(url, path, {})
        figures.fetched += status == 200
        figures.failed += status != 200
        etag = headers.get("etag")
        if status == 200 and etag:
            again, _ = await http_get(url, path, {"If-None-Match": etag})
            figures.revalidated += again == 304
            figures.failed += again not in (200, 304)


async def seat_client(
    server_url: str,
    load: TableLoad,
    seat: int,
    token: str,
    figures: Figures,
    stop: asyncio.Event,
    arrive: float,
    web: list[str] | None = None,
) -> None:
    """One seat's client; with *web* (the page's files), a web page's."""
    rng = random.Random(hash((load.table, seat)))
    # People come to a server at different moments; clients that all connect in the same
    # instant also send their keepalive pings in the same instant.
    await asyncio.sleep(arrive * rng.random())
    ws_url = f"{server_url.replace('http://', 'ws://')}/ws/tables/{load.table}"
    options: dict[str, Any] = {"additional_headers": {"Authorization": f"Bearer {token}"}}
    if web is not None:  # as the browser does: no header, the token offered as a subprotocol
        lang = rng.choice(LANGUAGES)
        began = time.perf_counter()
        try:
            await load_page(server_url, web, lang, figures)
        except (OSError, TimeoutError, ValueError, IndexError):
            figures.failed += 1
        figures.page_load.append(time.perf_counter() - began)
        ws_url += f"?lang={lang}"
        options = {"subprotocols": ["cinco", f"bearer.{token}"]}
        figures.web += 1
    async with connect(ws_url, max_size=2**20, open_timeout=60, **options) as socket_:
        await socket_.send(json.dumps({"type": "subscribe", "v": PROTOCOL_VERSION, "after": -1}))
        await run_seat(socket_, load, seat, figures, stop, rng)


async def run_seat(
    socket_: ClientConnection,
    load: TableLoad,
    seat: int,
    figures: Figures,
    stop: asyncio.Event,
    rng: random.Random,
) -> None:
    sent_at: float | None = None
    # No timeout around recv (asyncio.wait_for makes a task a message: the instrument's CPU);
    # the step's end cancels the clients.
    while not stop.is_set():
        try:
            raw = await socket_.recv()
        except Exception:  # the connection closed: counted, not fatal
            figures.dropped += 1
            return
        now = time.perf_counter()
        text = raw if isinstance(raw, str) else raw.decode()
        # Only a prompt is read whole: this process is the instrument, and its CPU is taken
        # from the server's two cores (the server's compact frames begin with their type).
        found = _HEAD.match(text)
        message = json.loads(text) if found is None or found[1] == "prompt" else None
        kind = found[1] if found is not None else message["type"] if message else ""
        if kind == "event":
            number = _SEQ.search(text)
            seq = int(number[1]) if number is not None else -2
            pending = load.pending
            # the first event of another seat's submit: how long it took to reach this seat
            awaited = pending is not None and pending[2] != seat and seq == pending[0]
            if figures.measuring and awaited and pending is not None:
                figures.fanout.append(now - pending[1])
            if '"type":"game_ended"' in text:
                load.over = True
        elif kind == "accepted" and sent_at is not None:
            if figures.measuring:
                figures.confirm.append(now - sent_at)
                figures.actions += 1
            sent_at = None
        elif kind == "refused" and sent_at is not None:
            figures.refused += 1
            sent_at = None
        elif kind == "prompt" and message is not None and message["seat"] == seat:
            wait = load.next_slot - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            command = choose(message, seat, rng)
            sent_at = time.perf_counter()
            load.next_slot = sent_at + load.interval
            load.pending = (message["seq"] + 1, sent_at, seat)
            submit = {"type": "submit", "v": PROTOCOL_VERSION, "command": command}
            await socket_.send(json.dumps(submit))


async def probe_lag(figures: Figures, stop: asyncio.Event) -> None:
    """The clients' event loop is part of every figure: sample how late it runs."""
    while not stop.is_set():
        asleep = time.perf_counter()
        await asyncio.sleep(0.005)
        if figures.measuring:
            figures.lag.append(time.perf_counter() - asleep - 0.005)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def setup_tables(
    server: Server, tables: int, rate: float, timer: str | None = None
) -> list[tuple[TableLoad, list[str]]]:
    made = []
    # The longest grace: under load, making a thousand tables may take longer than the
    # default minute, and a bot would stand in for people who have not connected yet.
    settings: dict[str, Any] = {"players": SEATS, "grace": 3600}
    if timer:
        settings["timer"] = timer
    for _ in range(tables):
        created = server.post("/api/tables", settings)
        tokens = [
            server.post("/api/join", {"code": created["code"], "name": f"P{i + 1}"})["token"]
            for i in range(SEATS)
        ]
        made.append((TableLoad(created["table"], 1.0 / rate), tokens))
    return made


async def drive(
    server: Server,
    made: list[tuple[TableLoad, list[str]]],
    warmup: float,
    seconds: float,
    arrive: float,
    web_share: float = 0.0,
    profile: str | None = None,
) -> Figures:
    figures, stop = Figures(), asyncio.Event()
    files = page_files(server.url) if web_share > 0 else []
    web_seats = round(SEATS * web_share)
    start = time.perf_counter()
    first = max(warmup / 2, arrive + 1)  # once everyone is there
    for index, (load, _tokens) in enumerate(made):  # spread the tables' slots over a second
        load.next_slot = start + first + load.interval * index / len(made)
    tasks = [
        asyncio.create_task(
            seat_client(
                server.url,
                load,
                seat,
                token,
                figures,
                stop,
                arrive,
                files if seat < web_seats else None,
            )
        )
        for load, tokens in made
        for seat, token in enumerate(tokens)
    ]
    tasks.append(asyncio.create_task(probe_lag(figures, stop)))
    await asyncio.sleep(warmup)
    spy = py_spy(server, profile, seconds) if profile else None
    figures.measuring = True
    began, (user, system), own = time.perf_counter(), server.cpu_seconds(), time.process_time()
    await asyncio.sleep(seconds)
    figures.measuring = False
    figures.window = time.perf_counter() - began
    user_now, system_now = server.cpu_seconds()
    figures.server_cpu = user_now - user + system_now - system
    figures.server_system = system_now - system
    figures.client_cpu = time.process_time() - own
    figures.threads, figures.rss_kib = server.threads(), server.rss_kib() - server.base_rss
    stop.set()
    if spy is not None:
        await asyncio.to_thread(spy.wait)
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=30)
    return figures


def py_spy(server: Server, path: str, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling the server for the measured window (``pip install py-spy``): a
    speedscope file for ``*.json``, py-spy's raw (collapsed stacks) for ``*.txt``, else a
    flame graph (SVG). It pauses the server at each sample: latencies measured meanwhile are
    worse than without it."""
    kind = "speedscope" if path.endswith(".json") else "raw" if path.endswith(".txt") else None
    spy = str(Path(sys.executable).with_name("py-spy"))
    command = [spy, "record", "--pid", str(server.process.pid), "--duration", str(round(seconds))]
    command += ["--rate", "250", "--nonblocking", "--gil", "--output", path]
    if kind is not None:
        command += ["--format", kind]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL)


def idle_memory(folder: Path, tables: int) -> float:
    """KiB of server memory per table that is seated and playing but where nobody moves."""
    server = Server(folder)
    try:
        time.sleep(1)
        before = server.rss_kib()
        setup_tables(server, tables, 1.0)
        time.sleep(2)
        return (server.rss_kib() - before) / tables
    finally:
        server.stop()


def main() -> None:
    # This process is the measuring instrument: its own collections (1,000 sockets' worth of
    # objects) would show as the server's latency. The server keeps its own short
    # (frontends/net/collector.py).
    gc.disable()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,250", help="steps, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time a step")
    parser.add_argument("--warmup", type=float, default=10.0, help="unmeasured time a step")
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second a table")
    parser.add_argument("--idle", type=int, default=100, help="tables for the memory figure")
    parser.add_argument(
        "--arrive",
        type=float,
        default=5.0,
        help="seconds over which the clients connect, at random (0: all at once)",
    )
    parser.add_argument(
        "--timer", default=None, help="turn timers at every table (RESERVE[+INCREMENT] seconds)"
    )
    parser.add_argument(
        "--web",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of each table's seats that connect as web pages (0 to 1; e.g. 0.5: two)",
    )
    parser.add_argument(
        "--ramp",
        type=int,
        default=0,
        metavar="TABLES",
        help="after the steps of --tables, add TABLES a step until the p99 passes --goal",
    )
    parser.add_argument(
        "--max-tables", type=int, default=2000, help="where --ramp stops at the latest"
    )
    parser.add_argument(
        "--goal", type=float, default=50.0, metavar="MS", help="the p99 a step must hold (ms)"
    )
    parser.add_argument(
        "--profile",
        default=None,
        metavar="FILE",
        help="py-spy samples the server over each step's measured window (FILE.json: "
        "speedscope, FILE.txt: collapsed stacks, else SVG; a step's number is added)",
    )
    parser.add_argument(
        "--serve",
        default=None,
        metavar="COMMAND",
        help="the command that starts the server, for another build of it "
        "(default: this environment's 'cinco serve'; --port and --db are added)",
    )
    args = parser.parse_args()
    if not 0 <= args.web <= 1:
        parser.error("--web is a share of the seats, from 0 to 1")
    if args.warmup < args.arrive + 2:
        parser.error("--warmup must be at least --arrive + 2 s (everyone connects first)")
    if args.profile and not Path(sys.executable).with_name("py-spy").exists():
        parser.error(f"--profile needs py-spy: {sys.executable} -m pip install py-spy")
    steps = [int(step) for step in args.tables.split(",") if step.strip()]
    held: int | None = None
    print(
        f"{SEATS} clients a table ({round(SEATS * args.web)} of them web pages), "
        f"{args.rate:g} action/s a table, {args.seconds:g} s a step, "
        f"connecting over {args.arrive:g} s; {os.cpu_count()} cores, load average "
        + " ".join(f"{load:.2f}" for load in os.getloadavg())
    )
    print(
        f"{'tables':>7} {'conns':>6} {'act/s':>7} {'confirm p50/p99 ms':>19} "
        f"{'fan-out p50/p99 ms':>19} {'refused':>7} {'dropped':>7} {'lag p99':>7} "
        f"{'cpu ms/act':>10} {'sys':>4} {'srv cores':>9} {'gen cores':>9} {'KiB/table':>9} "
        f"{'threads':>7}"
    )
    index = 0
    while index < len(steps):
        tables = steps[index]
        index += 1
        profile = None
        if args.profile:
            stem, dot, suffix = args.profile.rpartition(".")
            profile = f"{stem}-{tables}.{suffix}" if dot else f"{args.profile}-{tables}"
        figures = run_step(args, tables, profile)
        c50, c99 = percentile(figures.confirm, 0.5), percentile(figures.confirm, 0.99)
        f50, f99 = percentile(figures.fanout, 0.5), percentile(figures.fanout, 0.99)
        lag = percentile(figures.lag, 0.99)
        window = figures.window or args.seconds
        print(
            f"{tables:>7} {tables * SEATS:>6} {figures.actions / args.seconds:>7.1f} "
            f"{c50 * 1e3:>9.1f}/{c99 * 1e3:<9.1f} {f50 * 1e3:>9.1f}/{f99 * 1e3:<9.1f} "
            f"{figures.refused:>7} {figures.dropped:>7} {lag * 1e3:>7.1f} "
            f"{figures.cpu_per_action_ms():>10.3f} "
            f"{figures.server_system / max(figures.server_cpu, 1e-9):>4.0%} "
            f"{figures.server_cpu / window:>9.2f} "
            f"{figures.client_cpu / window:>9.2f} {figures.rss_kib / tables:>9.0f} "
            f"{figures.threads:>7}",
            flush=True,
        )
        if figures.web:
            print(
                f"{'':>7} web pages: {figures.web} of {tables * SEATS} connections; their files: "
                f"{figures.fetched} fetched (200), {figures.revalidated} revalidated (304), "
                f"{figures.failed} failed; a page's files took "
                f"{percentile(figures.page_load, 0.5) * 1e3:.0f}/"
                f"{percentile(figures.page_load, 0.99) * 1e3:.0f} ms (p50/p99)",
                flush=True,
            )
        holds = max(c99, f99) <= args.goal / 1e3
        if holds:
            held = max(held or 0, tables)
        if (
            args.ramp > 0
            and index == len(steps)
            and holds
            and tables + args.ramp <= args.max_tables
        ):
            steps.append(tables + args.ramp)
    with tempfile.TemporaryDirectory() as tmp:
        per_table = idle_memory(Path(tmp), args.idle)
    print(f"memory per idle table: {per_table:.0f} KiB (over {args.idle} seated tables)")
    print(
        f"largest step with p99 <= {args.goal:g} ms: "
        f"{f'{held} tables' if held is not None else 'none'}"
    )


def run_step(args: argparse.Namespace, tables: int, profile: str | None) -> Figures:
    """One step: a fresh server, *tables* tables, the clients; the server stopped after."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), shlex.split(args.serve) if args.serve else None)
        try:
            made = setup_tables(server, tables, args.rate, args.timer)
            return asyncio.run(
                drive(server, made, args.warmup, args.seconds, args.arrive, args.web, profile)
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
