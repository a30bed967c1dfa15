"""``cinco arena`` on executors: this machine's processes, a Dask ``LocalCluster``, and a real
``dask scheduler`` with a ``dask worker`` on 127.0.0.1, all giving the same results."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

import cinco.frontends.arena as arena_module
from cinco.core.bots.matches import ArenaSpec, game_plan, parse_entrants
from cinco.core.bots.statistics import Sprt
from cinco.core.bots.tournament import run
from cinco.frontends.main import main

distributed = pytest.importorskip("distributed")

BIN = Path(sys.executable).parent
DASK = BIN / "dask"
CINCO = BIN / "cinco"


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["arena", *args])
    return result.exit_code, result.output


SPEC = ArenaSpec(entrants=parse_entrants("greedy,random"), players=4, games=14, seed=3)


def test_the_plan_is_lazy_and_its_seeds_come_from_the_arenas_seed() -> None:
    plan = game_plan(ArenaSpec(parse_entrants("greedy,random"), games=10**12, seed=9), teams=2)
    first = [next(plan) for _ in range(4)]
    assert [(k, seed) for k, seed, _way in first] == [(0, 9), (1, 9), (2, 10), (3, 10)]


def test_any_executor_and_any_batch_size_give_the_same_games() -> None:
    alone = run(SPEC, jobs=1).results
    with ThreadPoolExecutor(3) as pool:
        for batch in (1, 4, 100):
            assert run(SPEC, executor=pool, slots=3, batch=batch).results == alone
    assert run(SPEC, jobs=2, batch=3).results == alone


def test_a_local_cluster_plays_the_same_tournament() -> None:
    """Two Dask worker processes on 127.0.0.1 play the same games as this process, and an
    SPRT match stops at the same game."""
    alone = run(SPEC, jobs=1)
    match = ArenaSpec(entrants=parse_entrants("greedy,random"), games=300, seed=5)
    alone_match = run(match, jobs=1, sprt=Sprt())
    started = time.monotonic()
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
            worker_dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor(pure=False)
        on_cluster = run(SPEC, executor=executor, slots=2, batch=3)
        cluster_match = run(match, executor=executor, slots=2, batch=4, sprt=Sprt())
    assert time.monotonic() - started < 120
    assert on_cluster.results == alone.results
    assert on_cluster.to_dict() | {"seconds": 0} == alone.to_dict() | {"seconds": 0}
    assert cluster_match.results == alone_match.results
    assert cluster_match.sprt == alone_match.sprt and alone_match.sprt is not None
    assert alone_match.sprt.verdict == "H1"


# -- the command line against a real scheduler --------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def started(*command: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        stop(process)


def wait_for(path: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size:
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


@pytest.mark.skipif(not DASK.exists(), reason="the dask command is not installed")
def test_the_command_line_on_a_dask_scheduler_and_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    with started(
        str(DASK),
        "scheduler",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-dashboard",
        "--scheduler-file",
        str(tmp_path / "scheduler.json"),
        log=tmp_path / "scheduler.log",
    ):
        wait_for(tmp_path / "scheduler.json")
        # No worker yet: said so, in the time allowed.
        monkeypatch.setattr(arena_module, "WORKERS_TIMEOUT", 1.0)
        code, output = arena("--scheduler", address, "--bots", "greedy,random", "--games", "2")
        assert code != 0 and "No worker joined" in output and "dask worker" in output, output
        with started(
            str(DASK),
            "worker",
            address,
            "--nthreads",
            "2",
            "--no-dashboard",
            "--host",
            "127.0.0.1",
            log=tmp_path / "worker.log",
        ):
            args = ["--bots", "greedy,random", "--players", "4", "--games", "12", "--json"]
            done = subprocess.run(
                [str(CINCO), "arena", "--scheduler", address, "--batch", "5", *args],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr[-3000:]
    local = subprocess.run(
        [str(CINCO), "arena", "--jobs", "1", *args], capture_output=True, text=True, timeout=120
    )
    assert local.returncode == 0, local.stderr[-3000:]
    assert done.stdout.count("\n") == local.stdout.count("\n") == 1, (done.stdout, local.stdout)
    on_cluster, here = json.loads(done.stdout), json.loads(local.stdout)
    assert on_cluster.pop("seconds") > 0 and here.pop("seconds") > 0
    assert on_cluster == here


def test_an_unreachable_scheduler_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena_module, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"  # nobody listens there
    code, output = arena("--scheduler", address, "--bots", "greedy,random", "--games", "2")
    assert code != 0 and "Cannot reach the Dask scheduler" in output and address in output
    assert "Traceback" not in output


def test_without_the_cluster_extra_the_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, output = arena("--scheduler", "tcp://127.0.0.1:8786", "--bots", "greedy,random")
    assert code != 0 and "cinco[cluster]" in output and "Traceback" not in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--scheduler", "http://example.org"), "not a scheduler's address"),
        (("--scheduler", "tcp://127.0.0.1"), "tcp://HOST:PORT"),
        (("--scheduler", "127.0.0.1:8786", "--jobs", "2"), "not both"),
        (("--batch", "0"), "--batch"),
    ],
)
def test_bad_cluster_options_are_explained(args: tuple[str, ...], message: str) -> None:
    code, output = arena("--bots", "greedy,random", "--games", "2", *args)
    assert code != 0 and message in output and "Traceback" not in output, output


def test_the_backends_benchmark_runs_and_finds_the_same_results() -> None:
    script = Path(__file__).resolve().parents[3] / "benchmarks" / "arena_backends.py"
    done = subprocess.run(
        [sys.executable, str(script), "--games", "8", "--isolated-games", "2", "--batch", "3"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("same results") == 2 and "DIFFERENT" not in done.stdout
    assert "games/s" in done.stdout and "--isolate" in done.stdout
